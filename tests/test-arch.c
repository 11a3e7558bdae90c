/*
 * test-arch.c
 *	model/arch.h (the per-target table) and the per-target MMA legality
 *	against the measured ptxas matrix, tests/fixtures/arch-matrix.csv
 *	(../shared/docs/arch-matrix/arch-matrix.csv, the rows of the nine
 *	targets tcprobe knows; 193 features x ptxas 12.8 / 12.9 / 13.0).
 *
 *	Row-to-rule mapping (every row is one of these, or the test fails):
 *	  - a tcgen05.mma row "mma_<kind>[_<scale vector>]_<form>" is parsed
 *	    into a tcp_mma_cfg_t (kind, cta_group, A in TMEM, .sp, .ws, scale
 *	    vector, scale-input-d) and its expected result on target T is
 *	    tcp_mma_legal() && tcp_mma_legal_on(T): this checks the model's
 *	    rules (negative controls included: mxf4 with 4X, mxf8f6f4 with 2X,
 *	    mxf4nvf4 with 1X, .ws with cta_group::2 or a block-scaled kind are
 *	    rejected by the model as by ptxas) and the table's i8 / scale-input-d
 *	    columns;
 *	  - every other row names the feature bits it needs (table below) and
 *	    is expected to assemble exactly where the target has them all;
 *	  - exceptions, listed with why: the rows that differ only in spelling
 *	    from a modelled row in a way the model does not express, and the
 *	    rows where ptxas does not check what the model checks.
 *	The expected cell is ptxas 13.0's (every target here is known to it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <math.h>

#include "model/arch.h"
#include "model/ref-interp.h"
#include "probes/sm100/tc-check.h"

#ifndef ARCH_MATRIX
#define ARCH_MATRIX "tests/fixtures/arch-matrix.csv"
#endif

/* Rows not modelled, and why (exact feature names). */
static const struct { const char *feature, *why; } exceptions[] = {
	{ "mma_nvf4_imm_idesc_k96", "K = 96 lives in idesc bit 31, a run-time operand ptxas does not check: "
				    "it assembles on sm_100a too; the model allows it on sm_103a only (CUTLASS SM103)" },
	{ "mma_imm_idesc_garbage", "idesc 0xffffffff: ptxas does not check the descriptor at all" },
	{ "mma_mxf4nvf4_default_cg1", "spelling: mxf4nvf4 with no scale-vector suffix is refused by ptxas; the "
				      "model always names a scale vector (2X or 4X)" },
	{ "mma_mxf4nvf4_default_cg2", "spelling: as mma_mxf4nvf4_default_cg1" },
};

/* Non-MMA rows: name prefix -> feature bits needed; NEG = fails everywhere. */
#define NEG (~0u)
static const struct { const char *prefix; unsigned need; } rules[] = {
	{ "alloc_", TCP_FEAT_TCGEN05 }, { "ld_red_", TCP_FEAT_TCGEN05 | TCP_FEAT_TC_LD_RED },
	{ "ld_", TCP_FEAT_TCGEN05 }, { "st_", TCP_FEAT_TCGEN05 }, { "cp_", TCP_FEAT_TCGEN05 },
	{ "commit_", TCP_FEAT_TCGEN05 }, { "shift_", TCP_FEAT_TCGEN05 },
	{ "fence_proxy_async", TCP_FEAT_HOPPER_ASYNC }, { "fence", TCP_FEAT_TCGEN05 },
	{ "wait", TCP_FEAT_TCGEN05 }, { "wgmma_", TCP_FEAT_WGMMA },
	{ "mmasync_mxf4nvf4_4x_ue8m0", NEG }, { "mmasync_mxf4nvf4_block16", NEG },
	{ "mmasync_e4m3", TCP_FEAT_MMA_SYNC_FP8 }, { "mmasync_kind_", TCP_FEAT_MMA_SYNC_BS },
	{ "mmasync_mx", TCP_FEAT_MMA_SYNC_BS }, { "mmasync_", TCP_FEAT_MMA_SYNC },
	{ "mmasp_f16", TCP_FEAT_MMA_SYNC }, { "mmasp_", TCP_FEAT_MMA_SYNC_BS },
	{ "mbarrier_", TCP_FEAT_HOPPER_ASYNC }, { "cluster_ops", TCP_FEAT_HOPPER_ASYNC },
	{ "elect_sync", TCP_FEAT_HOPPER_ASYNC },
	{ "tma_2d_cg2", TCP_FEAT_TMA_CG2 }, { "tma_", TCP_FEAT_HOPPER_ASYNC },
	{ "setmaxnreg", TCP_FEAT_SETMAXNREG },
};

static const char *exception_of(const char *f)
{
	for (size_t i = 0; i < sizeof(exceptions) / sizeof(exceptions[0]); i++)
		if (!strcmp(exceptions[i].feature, f))
			return exceptions[i].why;
	return NULL;
}

static int starts(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

/*
 * mma_cfg()
 *	A tcgen05.mma row name -> configuration.  1 parsed, 0 not an MMA row.
 *	Forms: cg1, cg2, cg1_tmemA, cg1_mask, cg1_sp, cg1_collA, cg1_scaled
 *	(and cg2_...), ws, ws_coll, ws_tmemA, ws_sp, tmemA, sp, sp_cg2; the
 *	mask and the collector hint are operands the model has no field for
 *	(they exist wherever the kind does).
 */
static int mma_cfg(const char *f, tcp_mma_cfg_t *c)
{
	static const struct { const char *name; tcp_kind_t k; } kinds[] = {
		{ "mxf8f6f4", TCP_KIND_MXF8F6F4 }, { "mxf4nvf4", TCP_KIND_MXF4NVF4 }, { "mxf4", TCP_KIND_MXF4 },
		{ "f8f6f4", TCP_KIND_F8F6F4 }, { "f16", TCP_KIND_F16 }, { "tf32", TCP_KIND_TF32 },
		{ "i8", TCP_KIND_I8 },
	};
	char rest[96];
	int found = 0;

	if (!strcmp(f, "mma_ws_cg2")) {		/* negative control: .ws with cta_group::2 */
		tcp_mma_cfg_default(TCP_KIND_F16, c);
		c->ws = 1, c->cta_group = 2, c->m = 256;
		return 1;
	}
	if (starts(f, "mma_bs_")) {		/* mxf8f6f4 scale_vec::1X (or .block32) variants */
		tcp_mma_cfg_default(TCP_KIND_MXF8F6F4, c);
		c->scale_vec = 1;
		c->ws = !strcmp(f, "mma_bs_ws");
		c->a_tmem = starts(f, "mma_bs_collA");
		return 1;
	}
	if (starts(f, "mma_nvf4_imm_idesc_k64")) {
		tcp_mma_cfg_default(TCP_KIND_MXF4NVF4, c);
		c->scale_vec = 4, c->sf = TCP_T_UE4M3;
		return 1;
	}
	if (!starts(f, "mma_"))
		return 0;
	f += 4;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]) && !found; i++) {
		size_t n = strlen(kinds[i].name);
		if (!strncmp(f, kinds[i].name, n) && f[n] == '_') {
			tcp_mma_cfg_default(kinds[i].k, c);
			f += n + 1;
			found = 1;
		}
	}
	if (!found)
		return 0;
	if (tcp_kind_block_scaled(c->kind)) {
		static const struct { const char *sv; unsigned v; } svs[] = {
			{ "sv1X_", 1 }, { "sv2X_", 2 }, { "sv4X_", 4 }, { "block16_", 4 }, { "block32_", 32 },
			{ "default_", 0 },
		};
		found = 0;
		for (size_t i = 0; i < sizeof(svs) / sizeof(svs[0]) && !found; i++)
			if (starts(f, svs[i].sv)) {
				/* .block32 is 1X for mxf8f6f4, 2X for mxf4/mxf4nvf4 */
				c->scale_vec = svs[i].v == 32 ? (c->kind == TCP_KIND_MXF8F6F4 ? 1u : 2u) : svs[i].v;
				f += strlen(svs[i].sv);
				found = 1;
			}
		if (!found)
			return 0;
		if (c->scale_vec == 4)
			c->sf = TCP_T_UE4M3;
	}
	snprintf(rest, sizeof(rest), "%s", f);
	if (starts(rest, "cg2") || strstr(rest, "_cg2")) {
		c->cta_group = 2;
		c->m = 256;
	}
	c->a_tmem = strstr(rest, "tmemA") != NULL;
	c->sparse = starts(rest, "sp") || strstr(rest, "_sp") != NULL;
	c->ws = starts(rest, "ws");
	c->scale_d = strstr(rest, "scaled") != NULL;
	return 1;
}

struct row {
	char feature[64], target[16], r128[8], r129[8], r130[8];
};

static int read_row(FILE *fp, struct row *r)
{
	char line[1024];
	if (!fgets(line, sizeof(line), fp))
		return 0;
	char *f[6], *p = line;
	for (int i = 0; i < 6; i++) {
		f[i] = p;
		p = strchr(p, ',');
		if (!p && i < 5)
			return -1;
		if (p)
			*p++ = '\0';
	}
	snprintf(r->feature, sizeof(r->feature), "%s", f[0]);
	snprintf(r->target, sizeof(r->target), "%s", f[2]);
	snprintf(r->r128, sizeof(r->r128), "%s", f[3]);
	snprintf(r->r129, sizeof(r->r129), "%s", f[4]);
	snprintf(r->r130, sizeof(r->r130), "%s", f[5]);
	return 1;
}

static void test_table_against_matrix(void **state)
{
	(void)state;
	FILE *fp = fopen(ARCH_MATRIX, "r");
	struct row r;
	char header[256], why[256];
	int n = 0, nmma = 0, nrule = 0, nexc = 0, nneg = 0, seen[TCP_TGT_COUNT] = { 0 };

	assert_non_null(fp);
	assert_non_null(fgets(header, sizeof(header), fp));
	assert_true(starts(header, "feature,group,target,ptxas_12.8,ptxas_12.9,ptxas_13.0"));
	for (int k; (k = read_row(fp, &r)) != 0;) {
		assert_int_equal(k, 1);
		const tcp_target_info_t *t = tcp_target_find(r.target);
		if (!t || strcmp(t->name, r.target))
			fail_msg("%s: target %s is not in model/arch.c's table", r.feature, r.target);
		seen[t->id]++;
		n++;
		int pass = !strcmp(r.r130, "pass"), want;
		assert_true(pass || !strcmp(r.r130, "fail"));
		tcp_mma_cfg_t c;
		if (exception_of(r.feature)) {
			nexc++;
			continue;
		}
		if (mma_cfg(r.feature, &c)) {
			int legal = tcp_mma_legal(&c, why, sizeof(why));
			want = legal && tcp_mma_legal_on(&c, t, why, sizeof(why));
			nmma++;
			nneg += !legal;
		} else {
			size_t i, nr = sizeof(rules) / sizeof(rules[0]);
			for (i = 0; i < nr && !starts(r.feature, rules[i].prefix); i++)
				;
			if (i == nr)
				fail_msg("%s: no rule maps this matrix row (add it to rules[] or exceptions[])", r.feature);
			want = rules[i].need != NEG && (t->feat & rules[i].need) == rules[i].need;
			nneg += rules[i].need == NEG;
			nrule++;
		}
		if (want != pass)
			fail_msg("%s on %s: ptxas 13.0 %s, the model says %s%s%s", r.feature, r.target, r.r130,
				 want ? "legal" : "illegal", want ? "" : ": ", want ? "" : why);
	}
	fclose(fp);
	/* 193 features x 9 targets, every target seen */
	assert_int_equal(n, 193 * TCP_TGT_COUNT);
	for (int i = 0; i < TCP_TGT_COUNT; i++)
		assert_int_equal(seen[i], 193);
	assert_int_equal(nexc, 4 * TCP_TGT_COUNT);
	printf("arch matrix: %d cells: %d through the MMA model, %d through feature rules, %d exceptions; %d "
	       "negative-control cells\n", n, nmma, nrule, nexc, nneg);
}

/* The headline differences, spelled out (arch-matrix.md s.0, s.3). */
static void test_headlines(void **state)
{
	(void)state;
	tcp_mma_cfg_t c;
	char why[256];
	const tcp_target_info_t *b200 = tcp_target_find("sm_100a"), *b300 = tcp_target_find("sm_103a"),
				*thor = tcp_target_find("sm_110a"), *h200 = tcp_target_find("sm_90a");

	tcp_mma_cfg_default(TCP_KIND_I8, &c);
	assert_true(tcp_mma_legal_on(&c, b200, why, sizeof(why)));
	assert_true(tcp_mma_legal_on(&c, thor, why, sizeof(why)));
	assert_false(tcp_mma_legal_on(&c, b300, why, sizeof(why)));
	assert_string_equal(why, "kind::i8 does not exist on sm_103a (B300, GB300)");
	assert_false(tcp_mma_legal_on(&c, h200, why, sizeof(why)));
	assert_string_equal(why, "tcgen05.mma does not exist on sm_90a (H100, H200, GH200)");

	tcp_mma_cfg_default(TCP_KIND_F16, &c);
	c.scale_d = 1;
	assert_true(tcp_mma_legal(&c, why, sizeof(why)));
	assert_true(tcp_mma_legal_on(&c, b300, why, sizeof(why)));
	assert_false(tcp_mma_legal_on(&c, thor, why, sizeof(why)));
	assert_non_null(strstr(why, "scale-input-d does not exist on sm_110a"));

	/* K = 96: mxf4nvf4 on sm_103a only */
	tcp_mma_cfg_default(TCP_KIND_MXF4NVF4, &c);
	c.k = 96, c.scale_vec = 4, c.sf = TCP_T_UE4M3;
	assert_true(tcp_mma_legal(&c, why, sizeof(why)));
	assert_int_equal(tcp_mma_k(&c), 96);
	assert_true(tcp_mma_legal_on(&c, b300, why, sizeof(why)));
	assert_false(tcp_mma_legal_on(&c, b200, why, sizeof(why)));
	assert_string_equal(why, "kind::mxf4nvf4 with K = 96 does not exist on sm_100a (B200, GB200)");
	assert_false(tcp_mma_legal_on(&c, thor, why, sizeof(why)));
	tcp_idesc_t d;
	tcp_mma_to_idesc(&c, &d);
	assert_int_equal(d.k96, 1);

	assert_true(tcp_target_has(b300, TCP_FEAT_TC_LD_RED, "tcgen05.ld.red", why, sizeof(why)));
	assert_true(tcp_target_has(thor, TCP_FEAT_TC_LD_RED, "tcgen05.ld.red", why, sizeof(why)));
	assert_false(tcp_target_has(b200, TCP_FEAT_TC_LD_RED, "tcgen05.ld.red", why, sizeof(why)));
	assert_string_equal(why, "tcgen05.ld.red does not exist on sm_100a (B200, GB200)");
}

/*
 * K = 96 operands and reference through the MMA probes' CPU side: the
 * builder re-reads both tiles with the model's independent reader (fails
 * on a mismatch), for both layouts tc_mma_k96 runs (no swizzle; 128B with
 * the absolute LBO) at K steps 0 and 2 (128B: the MMA crosses into the
 * next K atom), and the reference must equal sa sb sum_k a b over all 96 K
 * elements, recomputed here from the raw codes.
 */
static void test_k96_data(void **state)
{
	(void)state;
	for (int v = 0; v < 16; v++) {
		tcp_mma_cfg_t c;
		tcp_tc_mma_data_t d;
		tcp_swizzle_t sw = v / 4 % 2 ? TCP_SW_128B : TCP_SW_NONE;
		unsigned kstep = v < 8 ? 0 : 2;
		char why[256] = "";
		tcp_mma_cfg_default(TCP_KIND_MXF4NVF4, &c);
		c.k = 96;
		c.n = 64;
		c.cta_group = 1 + v % 4 / 2;
		c.m = c.cta_group == 2 ? 256 : 128;
		c.scale_vec = v % 2 ? 4 : 2;
		c.sf = v % 2 ? TCP_T_UE4M3 : TCP_T_UE8M0;
		assert_true(tcp_mma_legal(&c, why, sizeof(why)));
		if (tcp_tc_mma_data_build_at(&d, &c, sw, kstep, 0x96u + (unsigned)v, TCP_TC_FILL_RANDOM, why, sizeof(why)))
			fail_msg("K = 96 %s block %u kstep %u: %s", sw ? "128B" : "none", c.scale_vec == 4 ? 16u : 32u, kstep,
				 why);
		assert_int_equal(d.k, 96);
		assert_int_equal(d.ta.k, 96 * (kstep + 1));
		assert_int_equal(d.ta.mma_k, 96);
		assert_int_equal(tcp_tile_mma_bytes(&d.ta), 48);
		/* the descriptor the probe issues: 128B swizzle in absolute LBO mode, LBO = the K atom
		 * holding the MMA's last byte (kstep 2: start at byte 96 of atom 0, LBO = atom 1) */
		uint32_t a0 = TCP_TC_SMEM_BASE + d.a_off;
		uint64_t ad = tcp_tc_tile_desc(&d.ta, a0, kstep);
		assert_int_equal((ad >> 52) & 1, sw == TCP_SW_128B);
		assert_int_equal((ad & 0x3FFF) << 4, a0 + (sw == TCP_SW_128B ? 48 * kstep : 3 * kstep * 128));
		assert_int_equal(((ad >> 16) & 0x3FFF) << 4, sw == TCP_SW_128B ? a0 + (kstep ? d.ta.rows * 128 : 0) : 128);
		for (unsigned m = 0; m < c.m; m += 37)
			for (unsigned n = 0; n < c.n; n += 13) {
				/* per-block scales: block k / (96 / nblk) of row m of A, row n of B */
				double want = 0;
				assert_int_equal(d.nblk, 96u / (c.scale_vec == 4 ? 16u : 32u));
				for (unsigned k = 0; k < 96; k++) {
					unsigned blk = k / (96u / d.nblk);
					want += tcp_ref_decode(TCP_T_E2M1, d.a_raw[m * 96 + k]) *
						tcp_ref_decode(TCP_T_E2M1, d.b_raw[n * 96 + k]) *
						tcp_ref_decode(c.sf, d.sfa[m * d.nblk + blk]) *
						tcp_ref_decode(c.sf, d.sfb[n * d.nblk + blk]);
				}
				assert_float_equal(d.ref[m * c.n + n], want, 1e-9 * (1 + fabs(want)));
			}
		tcp_tc_mma_data_free(&d);
	}
}

/* A dump of D computed from these scale codes, as a device would leave it
 * (tc-check.h: [cta][128 lanes][cols]); the check's bad-cell count. */
static long k96_check_with(const tcp_tc_mma_data_t *d, const uint32_t *sfa, const uint32_t *sfb, char *why, size_t len)
{
	const tcp_mma_cfg_t *c = &d->cfg;
	tcp_acc_cfg_t ac = { c->cta_group, c->m, c->n, 0, 0, 0 };
	unsigned cols = tcp_acc_cols(&ac);
	double *dd = calloc((size_t)c->m * c->n, sizeof(double));
	uint32_t *t = calloc((size_t)c->cta_group * 128 * cols, sizeof(uint32_t));
	assert_true(dd && t);
	tcp_tc_ref_with_sf(d, sfa, sfb, dd);
	for (unsigned m = 0; m < c->m; m++)
		for (unsigned n = 0; n < c->n; n++) {
			tcp_tmem_cell_t cell = { 0 };
			float f = (float)dd[(size_t)m * c->n + n];
			assert_int_equal(tcp_acc_map(&ac, m, n, &cell), 0);
			memcpy(&t[((size_t)cell.cta * 128 + cell.lane) * cols + cell.col], &f, sizeof(f));
		}
	long bad = tcp_tc_check_tmem(d, t, cols, 0, why, len);
	free(dd);
	free(t);
	return bad;
}

/*
 * The validation tc_mma_k96 runs before timing (tc-mma.cuh tc_mma_validate:
 * the dump against d->ref through tcp_tc_check_tmem) at K = 96 with per-block
 * scales, fed what a device would compute from the scale-factor TMEM image
 * the engine uploads (tcp_tc_sf_image, read back through the model's map):
 * the image as built passes; one scale factor changed in it (A or B, either
 * word of a .block16 row: blocks 0-3 in word 0, 4-5 in word 1) is INVALID
 * naming that row's cells; and a device that ignored idesc bit 31 (K = 64 of
 * the same bytes, the first 4 or 2 blocks) is INVALID.
 */
static void test_k96_validation(void **state)
{
	(void)state;
	for (int v = 0; v < 4; v++) {
		tcp_mma_cfg_t c;
		tcp_tc_mma_data_t d;
		char why[1024] = "";
		tcp_mma_cfg_default(TCP_KIND_MXF4NVF4, &c);
		c.k = 96;
		c.n = v < 2 ? 128 : 256;
		c.cta_group = 1;
		c.m = 128;
		c.scale_vec = v % 2 ? 4 : 2;
		c.sf = v % 2 ? TCP_T_UE4M3 : TCP_T_UE8M0;
		assert_int_equal(tcp_tc_mma_data_build(&d, &c, v < 2 ? TCP_SW_128B : TCP_SW_NONE, 0x960u + (unsigned)v,
						       TCP_TC_FILL_RANDOM, why, sizeof(why)), 0);
		unsigned ca = tcp_tc_sf_region_cols(&c, 0), cb = tcp_tc_sf_region_cols(&c, 1);
		uint32_t *ia = calloc((size_t)ca * 128, 4), *ib = calloc((size_t)cb * 128, 4);
		uint32_t *sfa = calloc((size_t)c.m * d.nblk, 4), *sfb = calloc((size_t)c.n * d.nblk, 4);
		assert_true(ia && ib && sfa && sfb);
		tcp_tc_sf_image(&d, 0, 0, ia, ca);
		tcp_tc_sf_image(&d, 0, 1, ib, cb);
		assert_int_equal(tcp_tc_sf_readback(&d, 0, 0, ia, ca, sfa, why, sizeof(why)), 0);
		assert_int_equal(tcp_tc_sf_readback(&d, 0, 1, ib, cb, sfb, why, sizeof(why)), 0);
		assert_int_equal(k96_check_with(&d, sfa, sfb, why, sizeof(why)), 0);

		/* one scale factor of the image changed: its row's cells go bad */
		for (int is_b = 0; is_b <= 1; is_b++) {
			/* A: block 0 (word 0); B: the last block (word 1 with .block16) */
			unsigned blk = is_b ? d.nblk - 1 : 0, row = 41 + 5 * (unsigned)is_b, lane, col, by = 8 * (blk % 4);
			uint32_t *img = is_b ? ib : ia, keep[4];
			for (unsigned rep = 0; !tcp_tc_sf_cell(&d, is_b, row, blk, rep, &lane, &col); rep++) {
				uint32_t *w = &img[col * 128 + lane], b = (*w >> by) & 0xff;
				uint32_t nb = c.sf == TCP_T_UE4M3 ? (b == 56 ? 57u : 56u) : (b == 126 ? 125u : 126u);
				keep[rep] = *w;
				*w = (*w & ~(0xffu << by)) | (nb << by);
			}
			assert_int_equal(tcp_tc_sf_readback(&d, 0, is_b, img, is_b ? cb : ca, is_b ? sfb : sfa, why,
							     sizeof(why)), 0);
			long bad = k96_check_with(&d, sfa, sfb, why, sizeof(why));
			if (bad <= 0)
				fail_msg("K = 96 block %u: scale factor %u of %s row %u changed, validation passes",
					 c.scale_vec == 4 ? 16u : 32u, blk, is_b ? "B" : "A", row);
			char needle[32];
			snprintf(needle, sizeof(needle), is_b ? "][%u]" : "D[%u][", row);
			assert_non_null(strstr(why, needle));
			for (unsigned rep = 0; !tcp_tc_sf_cell(&d, is_b, row, blk, rep, &lane, &col); rep++)
				img[col * 128 + lane] = keep[rep];
			assert_int_equal(tcp_tc_sf_readback(&d, 0, is_b, img, is_b ? cb : ca, is_b ? sfb : sfa, why,
							     sizeof(why)), 0);
			assert_int_equal(k96_check_with(&d, sfa, sfb, why, sizeof(why)), 0);
		}

		/* bit 31 ignored: K = 64 of the same operands, the first 64 / block scales */
		tcp_ref_mma_t rm = { TCP_KIND_MXF4NVF4, c.m, c.n, 64, c.a, c.b, 0, 0, 96 / d.nblk, c.sf };
		unsigned n64 = 64 / rm.sf_block;
		uint32_t *a64 = calloc((size_t)c.m * 64, 4), *b64 = calloc((size_t)c.n * 64, 4);
		uint32_t *sa64 = calloc((size_t)c.m * n64, 4), *sb64 = calloc((size_t)c.n * n64, 4);
		double *d64 = calloc((size_t)c.m * c.n, sizeof(double));
		assert_true(a64 && b64 && sa64 && sb64 && d64);
		for (unsigned r = 0; r < c.m; r++) {
			memcpy(a64 + r * 64, d.a_raw + r * 96, 64 * 4);
			memcpy(sa64 + r * n64, d.sfa + r * d.nblk, n64 * 4);
		}
		for (unsigned r = 0; r < c.n; r++) {
			memcpy(b64 + r * 64, d.b_raw + r * 96, 64 * 4);
			memcpy(sb64 + r * n64, d.sfb + r * d.nblk, n64 * 4);
		}
		tcp_ref_mma(&rm, a64, b64, sa64, sb64, d64, 0);
		tcp_acc_cfg_t ac = { c.cta_group, c.m, c.n, 0, 0, 0 };
		unsigned cols = tcp_acc_cols(&ac);
		uint32_t *t = calloc((size_t)128 * cols, 4);
		assert_non_null(t);
		for (unsigned m = 0; m < c.m; m++)
			for (unsigned n = 0; n < c.n; n++) {
				tcp_tmem_cell_t cell = { 0 };
				float f = (float)d64[(size_t)m * c.n + n];
				assert_int_equal(tcp_acc_map(&ac, m, n, &cell), 0);
				memcpy(&t[(size_t)cell.lane * cols + cell.col], &f, sizeof(f));
			}
		long bad = tcp_tc_check_tmem(&d, t, cols, 0, why, sizeof(why));
		assert_true(bad > (long)(c.m * c.n) / 2);
		free(t);
		free(a64);
		free(b64);
		free(sa64);
		free(sb64);
		free(d64);
		free(ia);
		free(ib);
		free(sfa);
		free(sfb);
		tcp_tc_mma_data_free(&d);
	}
}

static void test_lookup(void **state)
{
	(void)state;
	char buf[128];
	assert_ptr_equal(tcp_target_find("sm_103a"), tcp_target_find("sm_103"));
	assert_ptr_equal(tcp_target_find("103"), tcp_target_by_cc(103));
	assert_int_equal(tcp_target_find("sm_110a")->cc, 110);
	assert_null(tcp_target_find("sm_101a"));	/* Thor is sm_110a from CUDA 13.0 on */
	assert_null(tcp_target_find("sm_103f"));	/* no family targets */
	assert_null(tcp_target_find("sm_75"));
	assert_null(tcp_target_find(""));
	assert_null(tcp_target_find("sm_1x0a"));
	assert_null(tcp_target_by_cc(107));
	unsigned m = tcp_target_mask_parse("sm_90a sm_100a,sm_103a  bogus sm_110a");
	assert_string_equal(tcp_target_list(m, buf, sizeof(buf)), "sm_90a, sm_100a, sm_103a, sm_110a");
	assert_int_equal(tcp_target_mask_parse(""), 0);
	for (int i = 0; i < TCP_TGT_COUNT; i++) {
		assert_int_equal(tcp_targets[i].id, i);
		assert_ptr_equal(tcp_target_find(tcp_targets[i].name), &tcp_targets[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_against_matrix),
		cmocka_unit_test(test_headlines),
		cmocka_unit_test(test_k96_data),
		cmocka_unit_test(test_k96_validation),
		cmocka_unit_test(test_lookup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
