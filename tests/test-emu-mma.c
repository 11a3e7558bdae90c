/*
 * test-emu-mma.c
 *	The emulation's tcgen05.mma executor (probes/emu/emu-mma.h) on the CPU
 *	against the project's model as the other side: operands and scale
 *	factors built by probes/sm100/tc-check.h (model/smem-layout.h tiles,
 *	model/sdesc.h descriptors, model/idesc.h instruction descriptor,
 *	tcp_tmem_sf_cell placement), every D element looked up through the
 *	model's accumulator map (model/tmem.h tcp_acc_map) and compared with a
 *	straightforward double dot product of the raw codes decoded by
 *	model/ref-interp.c.  Covered: every kind and type pair the probes run,
 *	cta_group::1 M=64/128 and ::2 M=128/256, A in shared memory or TMEM,
 *	no swizzle and 128B, K = 96; enable-input-d off (overwrite) and on
 *	(accumulate), the disable-output-lane mask, negate, i8 saturate, f16 D,
 *	TMEM outside D left untouched, the element decoders against the
 *	model's for every code, the footprint against the model's TMEM plan,
 *	and the faults.  Fresh random operands every run (seed printed;
 *	TCP_TEST_SEED replays).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/ref-interp.h"
#include "model/tmem-plan.h"
#include "probes/emu/emu-mma.h"
#include "probes/sm100/tc-check.h"
#include "test-util.h"
#include "emu-model-map.h"

#define TMEM_WORDS (TCP_EMU_LANES * TCP_EMU_COLS)

/* TMEM columns the test places D, A (ts) and the scale factors at. */
#define D_COL 8u
#define A_COL 272u
#define SFA_COL 288u
#define SFB_COL 320u


/* ---- element decoders vs model/ref-interp.c, every code ---- */

static void check_codes(tcp_type_t t, uint32_t ncodes, uint32_t step)
{
	for (uint64_t c = 0; c < ncodes; c += step) {
		uint32_t code = (uint32_t)c;
		double want = tcp_ref_decode(t, code);
		float got = tcp_emu_elem(emu_fmt(t), code);

		if (isnan(want)) {
			if (!isnan(got))
				fail_msg("type %d code 0x%x: model NaN, emulator %g", (int)t, code, (double)got);
		} else if ((double)got != want || !signbit(got) != !signbit(want)) {
			fail_msg("type %d code 0x%x: model %.9g, emulator %.9g", (int)t, code, want, (double)got);
		}
	}
}

static void test_elem_decoders(void **st)
{
	(void)st;
	check_codes(TCP_T_F16, 1u << 16, 1);
	check_codes(TCP_T_BF16, 1u << 16, 1);
	check_codes(TCP_T_E4M3, 256, 1);
	check_codes(TCP_T_E5M2, 256, 1);
	check_codes(TCP_T_E2M3, 64, 1);
	check_codes(TCP_T_E3M2, 64, 1);
	check_codes(TCP_T_E2M1, 16, 1);
	check_codes(TCP_T_S8, 256, 1);
	check_codes(TCP_T_U8, 256, 1);
	check_codes(TCP_T_UE8M0, 256, 1);
	check_codes(TCP_T_UE4M3, 256, 1);
	/* tf32 and f32: random 32-bit codes (the low 13 bits must not matter for tf32) */
	for (int i = 0; i < 200000; i++) {
		uint32_t code = (uint32_t)next_u64();
		double w = tcp_ref_decode(TCP_T_TF32, code);
		float g = tcp_emu_elem(TCP_EMU_FMT_TF32, code);

		if (isnan(w) ? !isnan(g) : (double)g != w)
			fail_msg("tf32 code 0x%08x: model %.9g, emulator %.9g", code, w, (double)g);
		w = tcp_ref_decode(TCP_T_F32, code);
		g = tcp_emu_elem(TCP_EMU_FMT_F32, code);
		if (isnan(w) ? !isnan(g) : (double)g != w)
			fail_msg("f32 code 0x%08x: model %.9g, emulator %.9g", code, w, (double)g);
	}
}

/* f32 -> f16: every finite code round-trips; the midpoint of two adjacent
 * codes goes to the even one, a hair above it to the upper one. */
static void test_f16_rounding(void **st)
{
	(void)st;
	for (uint32_t c = 0; c < 0x10000u; c++) {
		if ((c & 0x7C00u) == 0x7C00u)
			continue;
		float v = tcp_emu_elem(TCP_EMU_FMT_F16, c);
		uint32_t back = tcp_emu_f16_bits(v);

		if (back != c && !(v == 0 && (back & 0x7FFFu) == 0 && (back >> 15) == (c >> 15)))
			fail_msg("f16 0x%04x -> %g -> 0x%04x", c, (double)v, back);
		if ((c & 0x7FFFu) < 0x7BFFu) {
			float lo = v, hi = tcp_emu_elem(TCP_EMU_FMT_F16, c + 1);
			float mid = (float)(((double)lo + (double)hi) / 2);	/* exact: 12 significant bits */
			uint32_t even = (c & 1u) ? c + 1 : c, r = tcp_emu_f16_bits(mid);
			float above = nextafterf(mid, (c >> 15) ? -INFINITY : INFINITY);

			if (r != even)
				fail_msg("f16 midpoint of 0x%04x and 0x%04x -> 0x%04x, expected 0x%04x", c, c + 1, r, even);
			if (tcp_emu_f16_bits(above) != c + 1)
				fail_msg("f16 just past the midpoint of 0x%04x -> 0x%04x", c, tcp_emu_f16_bits(above));
		}
	}
	assert_int_equal(tcp_emu_f16_bits(65520.0f), 0x7C00u);	/* the first value that rounds to inf */
	assert_int_equal(tcp_emu_f16_bits(65519.0f), 0x7BFFu);
	assert_int_equal(tcp_emu_f16_bits(-1e-9f), 0x8000u);
}

/* ---- one MMA end to end ---- */

typedef struct {
	tcp_kind_t kind;
	tcp_type_t a, b, d, sf;
	int cg;
	unsigned m, n, sv, k96;
} mcase_t;

typedef struct {
	tcp_mma_cfg_t cfg;
	tcp_tc_mma_data_t dd;
	uint8_t *smem[2];
	uint32_t *tmem[2];
	tcp_emu_view_t v;
	float *scratch;
	uint32_t idesc, d_taddr, a_taddr;
	uint64_t adesc, bdesc;
	unsigned ts, align, kstep;
	double *want;	/* M x N expected value of one MMA */
	double *tol;	/* M x N tolerance of one MMA */
} rig_t;

static tcp_mma_cfg_t mcase_cfg(const mcase_t *c)
{
	tcp_mma_cfg_t g;

	tcp_mma_cfg_default(c->kind, &g);
	g.a = c->a;
	g.b = c->b;
	if (c->d != TCP_T_COUNT)
		g.d = c->d;
	g.cta_group = c->cg;
	g.m = c->m;
	g.n = c->n;
	if (tcp_kind_block_scaled(c->kind)) {
		g.sf = c->sf;
		g.scale_vec = c->sv;
	}
	if (c->k96)
		g.k = 96;
	return g;
}

/* The D cell of (m, n) as the model maps it; absolute lane and column. */
static void d_cell(const rig_t *r, unsigned m, unsigned n, unsigned *cta, unsigned *lane, unsigned *col)
{
	tcp_acc_cfg_t ac = { r->cfg.cta_group, r->cfg.m, r->cfg.n, 0, 0, r->align };
	tcp_tmem_cell_t cell = { 0, 0, 0 };

	assert_int_equal(tcp_acc_map(&ac, m, n, &cell), 0);
	*cta = cell.cta;
	*lane = cell.lane;
	*col = D_COL + cell.col;
}

/* A (ts) into TMEM: each local row at the lanes D's row uses (both lane
 * halves for cta_group::2 M=128), K elements from bit 0: fp4 / fp6 under
 * (mx)f8f6f4 in 8-bit containers (fp4 at bits 5:2), else packed. */
static void place_a_tmem(rig_t *r)
{
	const tcp_mma_cfg_t *c = &r->cfg;
	unsigned K = r->dd.k, bits = (unsigned)tcp_type_bits(c->a), pad = r->dd.ta.padded;
	unsigned cb = pad ? 8u : bits;

	for (unsigned m = 0; m < c->m; m++)
		for (unsigned h = 0; h < (c->cta_group == 2 && c->m == 128 ? 2u : 1u); h++) {
			unsigned cta, lane, col;
			uint8_t row[64];

			d_cell(r, m, h * c->n / 2, &cta, &lane, &col);
			memset(row, 0, sizeof(row));
			for (unsigned k = 0; k < K; k++) {
				uint32_t raw = r->dd.a_raw[(size_t)m * K + k];

				if (pad && bits == 4)
					raw <<= 2;
				tcp_bits_put(row, k * cb, cb, raw);
			}
			for (unsigned w = 0; w < K * cb / 32; w++) {
				uint32_t x;

				memcpy(&x, row + 4 * w, 4);
				r->tmem[cta][lane * TCP_EMU_COLS + A_COL + w] = x;
			}
		}
}

/* Expected D of one MMA and its tolerance, from the raw codes decoded by
 * the model, sign flips of the idesc's negate bits, the scale codes. */
static void expect(rig_t *r, unsigned neg_a, unsigned neg_b)
{
	const tcp_mma_cfg_t *c = &r->cfg;
	unsigned M = c->m, N = c->n, K = r->dd.k, nb = r->dd.nblk ? r->dd.nblk : 1;
	double *a = malloc(sizeof(double) * M * K), *b = malloc(sizeof(double) * N * K);
	double rel = tcp_tc_rel_tol(c);

	assert_non_null(a);
	assert_non_null(b);
	for (unsigned m = 0; m < M; m++)
		for (unsigned k = 0; k < K; k++)
			a[m * K + k] = tcp_ref_decode(c->a, r->dd.a_raw[(size_t)m * K + k]) * tcp_tc_sf(&r->dd, 0, m, k * nb / K) *
				       (neg_a ? -1 : 1);
	for (unsigned n = 0; n < N; n++)
		for (unsigned k = 0; k < K; k++)
			b[n * K + k] = tcp_ref_decode(c->b, r->dd.b_raw[(size_t)n * K + k]) * tcp_tc_sf(&r->dd, 1, n, k * nb / K) *
				       (neg_b ? -1 : 1);
	for (unsigned m = 0; m < M; m++)
		for (unsigned n = 0; n < N; n++) {
			double s = 0, mag = 0;

			for (unsigned k = 0; k < K; k++) {
				s += a[m * K + k] * b[n * K + k];
				mag += fabs(a[m * K + k] * b[n * K + k]);
			}
			r->want[m * N + n] = s;
			r->tol[m * N + n] = rel * mag + (c->d == TCP_T_F16 ? fabs(s) * 0x1p-10 : 0) + 1e-30;
			/* the model's own reference agrees (no negate there) */
			if (!neg_a && !neg_b && !(fabs(r->dd.ref[m * N + n] - s) <= r->tol[m * N + n]))
				fail_msg("model reference D[%u][%u] = %.9g, the test's dot product %.9g", m, n,
					 r->dd.ref[m * N + n], s);
		}
	free(a);
	free(b);
}

static void rig_free(rig_t *r)
{
	for (int i = 0; i < 2; i++) {
		free(r->smem[i]);
		free(r->tmem[i]);
	}
	free(r->scratch);
	free(r->want);
	free(r->tol);
	tcp_tc_mma_data_free(&r->dd);
}

/* Build operands, descriptors, idesc, TMEM (garbage, scale factors, A). */
static int rig_build(rig_t *r, const mcase_t *mc, unsigned ts, tcp_swizzle_t swz, unsigned kstep, unsigned neg_a,
		     unsigned neg_b, unsigned sat)
{
	char why[512];
	tcp_idesc_t id;

	memset(r, 0, sizeof(*r));
	r->cfg = mcase_cfg(mc);
	r->cfg.a_tmem = ts;
	r->ts = ts;
	r->kstep = kstep;
	if (tcp_tc_mma_data_build_at(&r->dd, &r->cfg, swz, kstep, next_u64(), TCP_TC_FILL_RANDOM, why, sizeof(why)))
		fail_msg("kind %d cg %d M %u N %u: data build: %s", (int)mc->kind, mc->cg, mc->m, mc->n, why);
	r->cfg.neg_a = neg_a;
	r->cfg.neg_b = neg_b;
	r->cfg.saturate = sat;
	tcp_mma_to_idesc(&r->cfg, &id);
	if (tcp_idesc_encode(&id, &r->idesc))
		fail_msg("model cannot encode the idesc");
	r->align = r->cfg.cta_group == 1 && r->cfg.m == 64 ? (unsigned)(next_u64() & 1) * 16u : 0u;
	r->d_taddr = (uint32_t)r->align << 16 | D_COL;
	r->a_taddr = (uint32_t)r->align << 16 | A_COL;
	r->adesc = tcp_tc_tile_desc(&r->dd.ta, TCP_TC_SMEM_BASE + r->dd.a_off, kstep);
	r->bdesc = tcp_tc_tile_desc(&r->dd.tb, TCP_TC_SMEM_BASE + r->dd.b_off, kstep);
	assert_true(r->adesc != 0 && r->bdesc != 0);
	for (unsigned c = 0; c < r->dd.ctas; c++) {
		r->smem[c] = malloc(TCP_TC_SMEM_BASE + r->dd.img_bytes);
		r->tmem[c] = malloc(sizeof(uint32_t) * TMEM_WORDS);
		assert_non_null(r->smem[c]);
		assert_non_null(r->tmem[c]);
		for (uint32_t i = 0; i < TCP_TC_SMEM_BASE; i++)
			r->smem[c][i] = (uint8_t)next_u64();
		memcpy(r->smem[c] + TCP_TC_SMEM_BASE, r->dd.img[c], r->dd.img_bytes);
		for (unsigned i = 0; i < TMEM_WORDS; i++)	/* NaN-ish garbage: a stray read or write shows */
			r->tmem[c][i] = 0x7FA00000u | (uint32_t)(next_u64() & 0xFFFFFu);
		r->v.smem[c] = r->smem[c];
		r->v.tmem[c] = r->tmem[c];
		r->v.smem_bytes[c] = TCP_TC_SMEM_BASE + r->dd.img_bytes;
		if (r->dd.nblk) {
			for (int is_b = 0; is_b < 2; is_b++) {
				unsigned cols = tcp_tc_sf_region_cols(&r->cfg, is_b), base = is_b ? SFB_COL : SFA_COL;
				uint32_t *img = malloc(sizeof(uint32_t) * cols * 128);

				assert_non_null(img);
				tcp_tc_sf_image(&r->dd, c, is_b, img, cols);
				for (unsigned col = 0; col < cols; col++)
					for (unsigned l = 0; l < 128; l++)
						r->tmem[c][l * TCP_EMU_COLS + base + col] = img[col * 128 + l];
				free(img);
			}
		}
	}
	r->v.rank = 0;
	if (ts)
		place_a_tmem(r);
	r->scratch = malloc(sizeof(float) * TCP_EMU_MMA_SCRATCH_FLOATS);
	r->want = malloc(sizeof(double) * r->cfg.m * r->cfg.n);
	r->tol = malloc(sizeof(double) * r->cfg.m * r->cfg.n);
	assert_non_null(r->scratch);
	assert_non_null(r->want);
	assert_non_null(r->tol);
	expect(r, neg_a, neg_b);
	return 0;
}

static int rig_run(rig_t *r, unsigned acc, const uint32_t *mask)
{
	unsigned sv = tcp_kind_block_scaled(r->cfg.kind) ? r->cfg.scale_vec : 0;

	return tcp_emu_mma(&r->v, (unsigned)r->cfg.kind, (unsigned)r->cfg.cta_group, r->ts, sv, r->d_taddr,
			   r->ts ? (uint64_t)r->a_taddr : r->adesc, r->bdesc, r->idesc, SFA_COL, SFB_COL, acc, mask,
			   r->scratch);
}

static double cell_value(const rig_t *r, uint32_t w)
{
	if (r->cfg.kind == TCP_KIND_I8)
		return (double)(int32_t)w;
	if (r->cfg.d == TCP_T_F16) {
		assert_int_equal(w >> 16, 0);
		return tcp_ref_decode(TCP_T_F16, w);
	}
	return tcp_ref_decode(TCP_T_F32, w);
}

static int masked(const uint32_t *mask, unsigned cta, unsigned lane)
{
	unsigned bit = cta * 128 + lane;

	return mask && ((mask[bit / 32] >> (bit % 32)) & 1u);
}

/*
 * Check D after the emulator ran against `before` (TMEM before the MMA):
 * every D cell = times x want (masked lanes: unchanged), every other word
 * of TMEM unchanged.
 */
static void check_d(const rig_t *r, uint32_t *const before[2], double times, const uint32_t *mask, const char *what)
{
	unsigned M = r->cfg.m, N = r->cfg.n;
	uint8_t *isd[2] = { calloc(TMEM_WORDS, 1), calloc(TMEM_WORDS, 1) };

	assert_non_null(isd[0]);
	assert_non_null(isd[1]);
	for (unsigned m = 0; m < M; m++)
		for (unsigned n = 0; n < N; n++) {
			unsigned cta, lane, col;
			uint32_t w;

			d_cell(r, m, n, &cta, &lane, &col);
			isd[cta][lane * TCP_EMU_COLS + col] = 1;
			w = r->tmem[cta][lane * TCP_EMU_COLS + col];
			if (masked(mask, cta, lane)) {
				if (w != before[cta][lane * TCP_EMU_COLS + col])
					fail_msg("%s: kind %d: masked D[%u][%u] (cta %u lane %u) changed", what, (int)r->cfg.kind,
						 m, n, cta, lane);
				continue;
			}
			double got = cell_value(r, w), want = times * r->want[m * N + n], tol = times * r->tol[m * N + n];

			if (r->cfg.d == TCP_T_F16 && fabs(want) >= 65520.0 - tol) {
				/* past f16's largest finite value (65504; 65520 rounds to inf) */
				if (fabs(want) > 65520.0 + tol && !(isinf(got) && signbit(got) == signbit(want)))
					fail_msg("%s: f16 D[%u][%u] = %.9g, expected %cinf", what, m, n, got,
						 want < 0 ? '-' : '+');
				continue;
			}
			if (!(fabs(got - want) <= tol))
				fail_msg("%s: kind %d a %d b %d cg %d M %u N %u ts %u: D[%u][%u] (cta %u lane %u col %u) = %.9g, "
					 "expected %.9g (tol %.3g)",
					 what, (int)r->cfg.kind, (int)r->cfg.a, (int)r->cfg.b, r->cfg.cta_group, M, N, r->ts, m, n,
					 cta, lane, col, got, want, tol);
		}
	for (unsigned c = 0; c < r->dd.ctas; c++)
		for (unsigned i = 0; i < TMEM_WORDS; i++)
			if (!isd[c][i] && r->tmem[c][i] != before[c][i])
				fail_msg("%s: kind %d: TMEM outside D changed: cta %u lane %u col %u", what, (int)r->cfg.kind, c,
					 i / TCP_EMU_COLS, i % TCP_EMU_COLS);
	free(isd[0]);
	free(isd[1]);
}

static void snapshot(const rig_t *r, uint32_t *snap[2])
{
	for (unsigned c = 0; c < 2; c++) {
		snap[c] = NULL;
		if (c < r->dd.ctas) {
			snap[c] = malloc(sizeof(uint32_t) * TMEM_WORDS);
			assert_non_null(snap[c]);
			memcpy(snap[c], r->tmem[c], sizeof(uint32_t) * TMEM_WORDS);
		}
	}
}

/* acc = 0 overwrites, acc = 1 accumulates, the mask leaves its lanes alone. */
static void run_three(rig_t *r)
{
	uint32_t *snap[2], mask[8];

	snapshot(r, snap);
	assert_int_equal(rig_run(r, 0, NULL), 0);
	check_d(r, snap, 1.0, NULL, "acc=0");
	free(snap[0]);
	free(snap[1]);
	snapshot(r, snap);
	assert_int_equal(rig_run(r, 1, NULL), 0);
	check_d(r, snap, 2.0, NULL, "acc=1");
	free(snap[0]);
	free(snap[1]);
	for (int i = 0; i < 8; i++)
		mask[i] = (uint32_t)next_u64();
	snapshot(r, snap);
	assert_int_equal(rig_run(r, 1, mask), 0);
	check_d(r, snap, 3.0, mask, "acc=1 masked");
	free(snap[0]);
	free(snap[1]);
}

/* One operand set: A from shared memory, then (ts) the same A from TMEM. */
static void run_case(const mcase_t *mc, unsigned ts, tcp_swizzle_t swz, unsigned kstep)
{
	rig_t r;

	rig_build(&r, mc, 0, swz, kstep, 0, 0, 0);
	run_three(&r);
	if (ts) {
		r.ts = 1;
		place_a_tmem(&r);
		run_three(&r);
	}
	rig_free(&r);
}

#define NONE TCP_T_COUNT
static const mcase_t types[] = {
	{ TCP_KIND_F16, TCP_T_F16, TCP_T_F16, NONE, NONE, 0, 0, 0, 0, 0 },
	{ TCP_KIND_F16, TCP_T_BF16, TCP_T_BF16, NONE, NONE, 0, 0, 0, 0, 0 },
	{ TCP_KIND_F16, TCP_T_F16, TCP_T_F16, TCP_T_F16, NONE, 0, 0, 0, 0, 0 },
	{ TCP_KIND_TF32, TCP_T_TF32, TCP_T_TF32, NONE, NONE, 0, 0, 0, 0, 0 },
	{ TCP_KIND_F8F6F4, TCP_T_E4M3, TCP_T_E4M3, NONE, NONE, 0, 0, 0, 0, 0 },
	{ TCP_KIND_F8F6F4, TCP_T_E5M2, TCP_T_E2M1, NONE, NONE, 0, 0, 0, 0, 0 },
	{ TCP_KIND_F8F6F4, TCP_T_E2M3, TCP_T_E3M2, NONE, NONE, 0, 0, 0, 0, 0 },
	{ TCP_KIND_F8F6F4, TCP_T_E2M1, TCP_T_E4M3, NONE, NONE, 0, 0, 0, 0, 0 },
	{ TCP_KIND_F8F6F4, TCP_T_E3M2, TCP_T_E5M2, TCP_T_F16, NONE, 0, 0, 0, 0, 0 },
	{ TCP_KIND_I8, TCP_T_S8, TCP_T_S8, NONE, NONE, 0, 0, 0, 0, 0 },
	{ TCP_KIND_I8, TCP_T_U8, TCP_T_S8, NONE, NONE, 0, 0, 0, 0, 0 },
	{ TCP_KIND_I8, TCP_T_U8, TCP_T_U8, NONE, NONE, 0, 0, 0, 0, 0 },
	{ TCP_KIND_MXF8F6F4, TCP_T_E4M3, TCP_T_E4M3, NONE, TCP_T_UE8M0, 0, 0, 0, 1, 0 },
	{ TCP_KIND_MXF8F6F4, TCP_T_E2M1, TCP_T_E2M3, NONE, TCP_T_UE8M0, 0, 0, 0, 1, 0 },
	{ TCP_KIND_MXF8F6F4, TCP_T_E3M2, TCP_T_E5M2, NONE, TCP_T_UE8M0, 0, 0, 0, 1, 0 },
	{ TCP_KIND_MXF4, TCP_T_E2M1, TCP_T_E2M1, NONE, TCP_T_UE8M0, 0, 0, 0, 2, 0 },
	{ TCP_KIND_MXF4NVF4, TCP_T_E2M1, TCP_T_E2M1, NONE, TCP_T_UE8M0, 0, 0, 0, 2, 0 },
	{ TCP_KIND_MXF4NVF4, TCP_T_E2M1, TCP_T_E2M1, NONE, TCP_T_UE4M3, 0, 0, 0, 4, 0 },
	{ TCP_KIND_MXF4NVF4, TCP_T_E2M1, TCP_T_E2M1, NONE, TCP_T_UE8M0, 0, 0, 0, 4, 0 },
};
#define NTYPES (sizeof(types) / sizeof(types[0]))

/* Shapes: cta_group, M, N (block-scaled cta_group::2 M=128: N % 64 == 0). */
static const struct { int cg; unsigned m, n; } shapes[] = {
	{ 1, 128, 256 }, { 1, 128, 64 }, { 1, 64, 128 }, { 2, 256, 256 }, { 2, 128, 128 }, { 2, 256, 64 },
};
#define NSHAPES (sizeof(shapes) / sizeof(shapes[0]))

/* Every type pair at every shape, A in shared memory (no swizzle or 128B,
 * at random) and in TMEM where the probes put it there. */
static void test_mma_all(void **st)
{
	(void)st;
	for (unsigned t = 0; t < NTYPES; t++)
		for (unsigned s = 0; s < NSHAPES; s++) {
			mcase_t mc = types[t];

			mc.cg = shapes[s].cg;
			mc.m = shapes[s].m;
			mc.n = shapes[s].n;
			if (tcp_kind_block_scaled(mc.kind) && mc.cg == 1 && mc.m != 128)
				continue;
			if (mc.kind == TCP_KIND_I8 && mc.cg == 2 && mc.n % 32)
				continue;
			run_case(&mc, mc.m / (unsigned)mc.cg == 128 || (mc.cg == 2 && mc.m == 128),
				 (next_u64() & 1) ? TCP_SW_128B : TCP_SW_NONE, 0);
		}
}

/* K = 96 kind::mxf4nvf4 (sm_103a): block32 (3 scale factors per row) and
 * block16 (6: two words), no swizzle and 128B at a K step that crosses the
 * swizzle row (the descriptor's absolute LBO). */
static void test_mma_k96(void **st)
{
	(void)st;
	const mcase_t k96[] = {
		{ TCP_KIND_MXF4NVF4, TCP_T_E2M1, TCP_T_E2M1, NONE, TCP_T_UE8M0, 1, 128, 128, 2, 1 },
		{ TCP_KIND_MXF4NVF4, TCP_T_E2M1, TCP_T_E2M1, NONE, TCP_T_UE4M3, 1, 128, 256, 4, 1 },
		{ TCP_KIND_MXF4NVF4, TCP_T_E2M1, TCP_T_E2M1, NONE, TCP_T_UE8M0, 2, 256, 192, 4, 1 },
		{ TCP_KIND_MXF4NVF4, TCP_T_E2M1, TCP_T_E2M1, NONE, TCP_T_UE8M0, 2, 256, 64, 2, 1 },
		{ TCP_KIND_MXF4NVF4, TCP_T_E2M1, TCP_T_E2M1, NONE, TCP_T_UE8M0, 1, 128, 112, 4, 1 },
	};
	for (unsigned i = 0; i < sizeof(k96) / sizeof(k96[0]); i++) {
		run_case(&k96[i], 0, TCP_SW_NONE, 0);
		run_case(&k96[i], 0, TCP_SW_128B, 2);
		run_case(&k96[i], 0, TCP_SW_128B, (unsigned)(next_u64() % 8));
	}
}

/* Negate A, B, both: D follows the sign flips. */
static void test_mma_negate(void **st)
{
	(void)st;
	const mcase_t neg[] = {
		{ TCP_KIND_F16, TCP_T_BF16, TCP_T_BF16, NONE, NONE, 1, 128, 64, 0, 0 },
		{ TCP_KIND_F8F6F4, TCP_T_E2M1, TCP_T_E4M3, NONE, NONE, 2, 256, 32, 0, 0 },
		{ TCP_KIND_MXF4NVF4, TCP_T_E2M1, TCP_T_E2M1, NONE, TCP_T_UE4M3, 1, 128, 64, 4, 0 },
	};
	for (unsigned i = 0; i < sizeof(neg) / sizeof(neg[0]); i++)
		for (unsigned f = 1; f < 4; f++) {
			rig_t r;
			uint32_t *snap[2];

			rig_build(&r, &neg[i], 0, TCP_SW_NONE, 0, f & 1, f >> 1, 0);
			snapshot(&r, snap);
			assert_int_equal(rig_run(&r, 0, NULL), 0);
			check_d(&r, snap, 1.0, NULL, "negate");
			free(snap[0]);
			free(snap[1]);
			rig_free(&r);
		}
}

/* i8: s32 D near the ends of its range; with the saturate bit the sum
 * clamps, without it wraps. */
static void test_mma_i8_saturate(void **st)
{
	(void)st;
	const mcase_t c = { TCP_KIND_I8, TCP_T_S8, TCP_T_S8, NONE, NONE, 1, 128, 32, 0, 0 };

	for (unsigned sat = 0; sat < 2; sat++) {
		rig_t r;
		long clamped = 0;

		rig_build(&r, &c, 0, TCP_SW_NONE, 0, 0, 0, sat);
		for (unsigned m = 0; m < c.m; m++)
			for (unsigned n = 0; n < c.n; n++) {
				unsigned cta, lane, col;

				d_cell(&r, m, n, &cta, &lane, &col);
				r.tmem[cta][lane * TCP_EMU_COLS + col] = (m & 1) ? 0x7FFFFF00u : 0x80000100u;
			}
		assert_int_equal(rig_run(&r, 1, NULL), 0);
		for (unsigned m = 0; m < c.m; m++)
			for (unsigned n = 0; n < c.n; n++) {
				unsigned cta, lane, col;
				int64_t d0 = (m & 1) ? 0x7FFFFF00 : -0x7FFFFF00, t = d0 + (int64_t)r.want[m * c.n + n], want;
				int32_t got;

				d_cell(&r, m, n, &cta, &lane, &col);
				got = (int32_t)r.tmem[cta][lane * TCP_EMU_COLS + col];
				if (sat)
					want = t > INT32_MAX ? INT32_MAX : t < INT32_MIN ? INT32_MIN : t;
				else
					want = (int32_t)(uint32_t)(uint64_t)t;
				clamped += t != (int32_t)t;
				if (got != want)
					fail_msg("i8 saturate=%u D[%u][%u]: %d, expected %lld", sat, m, n, got, (long long)want);
			}
		assert_true(clamped > 0);	/* the inputs did reach past the range */
		rig_free(&r);
	}
}

/* A and B MN-major ("transpose" bits), tiles placed by the model
 * (model/smem-layout.h tcp_tile_place, tcp_tile_desc), for the types and
 * layouts the ISA allows transposed: 16-bit and 8-bit with no swizzle and
 * 128B, tf32 with 128B and 32-byte atoms. */
static void test_mma_mn_major(void **st)
{
	(void)st;
	const struct { tcp_kind_t kind; tcp_type_t t; tcp_swizzle_t sw; } cs[] = {
		{ TCP_KIND_F16, TCP_T_BF16, TCP_SW_NONE }, { TCP_KIND_F16, TCP_T_F16, TCP_SW_128B },
		{ TCP_KIND_I8, TCP_T_S8, TCP_SW_NONE }, { TCP_KIND_F8F6F4, TCP_T_E4M3, TCP_SW_128B },
		{ TCP_KIND_MXF8F6F4, TCP_T_E5M2, TCP_SW_NONE }, { TCP_KIND_TF32, TCP_T_TF32, TCP_SW_128B_32B },
	};
	const unsigned M = 128, N = 128;	/* MN-major 128B atoms span 128 rows of 8-bit elements */

	for (unsigned i = 0; i < sizeof(cs) / sizeof(cs[0]); i++) {
		tcp_mma_cfg_t g;
		tcp_idesc_t id;
		tcp_sdesc_t sd;
		uint32_t idesc;
		uint64_t ad = 0, bd = 0;
		unsigned bits = (unsigned)tcp_type_bits(cs[i].t), K;
		tcp_emu_view_t v;
		char why[256];

		tcp_mma_cfg_default(cs[i].kind, &g);
		g.a = g.b = cs[i].t;
		g.m = M;
		g.n = N;
		g.a_major = g.b_major = 1;
		if (tcp_kind_block_scaled(g.kind)) {
			g.sf = TCP_T_UE8M0;
			g.scale_vec = 1;
		}
		if (!tcp_mma_legal(&g, why, sizeof(why)))
			fail_msg("case %u: %s", i, why);
		K = tcp_mma_k(&g);
		tcp_tile_t ta = { cs[i].sw, TCP_MAJOR_MN, bits, 0, M, K, 0 }, tb = { cs[i].sw, TCP_MAJOR_MN, bits, 0, N, K, 0 };
		assert_int_equal(tcp_tile_check(&ta), 0);
		assert_int_equal(tcp_tile_check(&tb), 0);
		uint32_t b_off = (tcp_tile_bytes(&ta) + 1023u) / 1024u * 1024u, bytes = b_off + tcp_tile_bytes(&tb);
		uint8_t *sm = calloc(TCP_TC_SMEM_BASE + bytes, 1);
		uint32_t *tm = malloc(sizeof(uint32_t) * TMEM_WORDS), *araw = malloc(4 * M * K), *braw = malloc(4 * N * K);
		float *scr = malloc(sizeof(float) * TCP_EMU_MMA_SCRATCH_FLOATS);

		assert_true(sm && tm && araw && braw && scr);
		for (unsigned r = 0; r < M + N; r++)
			for (unsigned k = 0; k < K; k++) {
				uint32_t code;
				double x;

				do {
					code = (uint32_t)next_u64() & (bits == 32 ? 0xFFFFE000u : (1u << bits) - 1u);
					x = tcp_ref_decode(cs[i].t, code);
				} while (!isfinite(x) || fabs(x) > 256);
				if (r < M) {
					araw[r * K + k] = code;
					tcp_bits_put(sm + TCP_TC_SMEM_BASE, tcp_tile_place(&ta, r, k), bits, code);
				} else {
					braw[(r - M) * K + k] = code;
					tcp_bits_put(sm + TCP_TC_SMEM_BASE + b_off, tcp_tile_place(&tb, r - M, k), bits, code);
				}
			}
		tcp_tile_desc(&ta, TCP_TC_SMEM_BASE, 0, &sd);
		assert_int_equal(tcp_sdesc_encode(&sd, &ad), 0);
		tcp_tile_desc(&tb, TCP_TC_SMEM_BASE + b_off, 0, &sd);
		assert_int_equal(tcp_sdesc_encode(&sd, &bd), 0);
		tcp_mma_to_idesc(&g, &id);
		assert_int_equal(tcp_idesc_encode(&id, &idesc), 0);
		for (unsigned w = 0; w < TMEM_WORDS; w++)	/* scale factors 2^0 (block-scaled), the rest garbage */
			tm[w] = (w % TCP_EMU_COLS) >= SFA_COL ? 0x7F7F7F7Fu : (uint32_t)next_u64();
		memset(&v, 0, sizeof(v));
		v.smem[0] = sm;
		v.tmem[0] = tm;
		v.smem_bytes[0] = TCP_TC_SMEM_BASE + bytes;
		assert_int_equal(tcp_emu_mma(&v, (unsigned)g.kind, 1, 0, g.scale_vec, D_COL, ad, bd, idesc, SFA_COL, SFB_COL, 0,
					     NULL, scr),
				 0);
		for (unsigned m = 0; m < M; m++)
			for (unsigned n = 0; n < N; n++) {
				double want = 0, mag = 0, got;
				uint32_t w = tm[m * TCP_EMU_COLS + D_COL + n];

				for (unsigned k = 0; k < K; k++) {
					double p = tcp_ref_decode(cs[i].t, araw[m * K + k]) * tcp_ref_decode(cs[i].t, braw[n * K + k]);

					want += p;
					mag += fabs(p);
				}
				got = g.kind == TCP_KIND_I8 ? (double)(int32_t)w : tcp_ref_decode(TCP_T_F32, w);
				if (!(fabs(got - want) <= tcp_tc_rel_tol(&g) * mag + 1e-30))
					fail_msg("MN-major case %u D[%u][%u] = %.9g, expected %.9g", i, m, n, got, want);
			}
		free(sm);
		free(tm);
		free(araw);
		free(braw);
		free(scr);
	}
}

/* Each lane partition's data path reads its own copy of the scale factors
 * (PTX "Block Scaling": duplicated to all 32 lane partitions): B's copy in
 * partition 2 and A's in partition 1 made 2x larger (ue8m0 exponent + 1)
 * double exactly the D rows in those partitions. */
static void test_sf_partition_copies(void **st)
{
	(void)st;
	const mcase_t cs[] = {
		{ TCP_KIND_MXF8F6F4, TCP_T_E4M3, TCP_T_E2M1, NONE, TCP_T_UE8M0, 1, 128, 64, 1, 0 },
		{ TCP_KIND_MXF4, TCP_T_E2M1, TCP_T_E2M1, NONE, TCP_T_UE8M0, 2, 128, 128, 2, 0 },
		{ TCP_KIND_MXF4NVF4, TCP_T_E2M1, TCP_T_E2M1, NONE, TCP_T_UE8M0, 2, 256, 64, 4, 0 },
	};
	for (unsigned i = 0; i < sizeof(cs) / sizeof(cs[0]); i++) {
		rig_t r;
		unsigned M = cs[i].m, N = cs[i].n;

		rig_build(&r, &cs[i], 0, TCP_SW_NONE, 0, 0, 0, 0);
		for (unsigned c = 0; c < r.dd.ctas; c++)
			for (unsigned l = 0; l < 32; l++) {
				for (unsigned col = 0; col < tcp_tc_sf_region_cols(&r.cfg, 1); col++)
					r.tmem[c][(64 + l) * TCP_EMU_COLS + SFB_COL + col] += 0x01010101u;
				for (unsigned col = 0; col < tcp_tc_sf_region_cols(&r.cfg, 0); col++)
					r.tmem[c][(32 + l) * TCP_EMU_COLS + SFA_COL + col] += 0x01010101u;
			}
		assert_int_equal(rig_run(&r, 0, NULL), 0);
		for (unsigned m = 0; m < M; m++)
			for (unsigned n = 0; n < N; n++) {
				unsigned cta, lane, col;
				double x, want, tol;

				d_cell(&r, m, n, &cta, &lane, &col);
				x = lane / 32 == 1 || lane / 32 == 2 ? 2.0 : 1.0;
				want = x * r.want[m * N + n];
				tol = x * r.tol[m * N + n];
				if (!(fabs(cell_value(&r, r.tmem[cta][lane * TCP_EMU_COLS + col]) - want) <= tol))
					fail_msg("case %u D[%u][%u] (lane %u): %.9g, expected %.9g", i, m, n, lane,
						 cell_value(&r, r.tmem[cta][lane * TCP_EMU_COLS + col]), want);
			}
		rig_free(&r);
	}
}

/* The footprint against the model's TMEM plan (tcp_tmem_mma_fp regions). */
static void test_footprint(void **st)
{
	(void)st;
	for (unsigned t = 0; t < NTYPES; t++)
		for (unsigned s = 0; s < NSHAPES; s++) {
			mcase_t mc = types[t];
			tcp_mma_cfg_t g;
			tcp_idesc_t id;
			uint32_t idesc;
			tcp_emu_mma_fp_t fp;
			tcp_tmem_fp_t mfp;
			unsigned col[4];
			char why[256];

			mc.cg = shapes[s].cg;
			mc.m = shapes[s].m;
			mc.n = shapes[s].n;
			g = mcase_cfg(&mc);
			if (!tcp_mma_legal(&g, why, sizeof(why)))
				continue;
			tcp_mma_to_idesc(&g, &id);
			assert_int_equal(tcp_idesc_encode(&id, &idesc), 0);
			for (unsigned ts = 0; ts < 2; ts++) {
				tcp_tc_mma_point_t mp;

				memset(&mp, 0, sizeof(mp));
				mp.cfg = g;
				mp.cfg.a_tmem = ts;
				mp.ts = (int)ts;
				tcp_tc_mma_fp(&mp, 1, &mfp, col);
				assert_int_equal(tcp_emu_mma_footprint((unsigned)g.kind, (unsigned)g.cta_group, ts,
								       tcp_kind_block_scaled(g.kind) ? g.scale_vec : 0, col[0],
								       col[1], idesc, col[2], col[3], &fp),
						 0);
				for (int i = 0; i < mfp.n; i++) {
					const tcp_tmem_region_t *rg = &mfp.r[i];
					const tcp_emu_span_t *sp = !strcmp(rg->name, "acc0") ? &fp.d[0]
								   : !strcmp(rg->name, "a")   ? &fp.a[0]
								   : !strcmp(rg->name, "sfa") ? &fp.sfa[0]
											      : &fp.sfb[0];

					if (sp->col0 != rg->c0 || sp->col0 + sp->cols != rg->c1)
						fail_msg("kind %d cg %d M %u N %u ts %u region %s: model columns %u-%u, "
							 "emulator %u-%u",
							 (int)g.kind, g.cta_group, g.m, g.n, ts, rg->name, rg->c0, rg->c1,
							 sp->col0, sp->col0 + sp->cols);
				}
				if (g.cta_group == 2) {
					assert_memory_equal(&fp.d[0], &fp.d[1], sizeof(fp.d[0]));
					assert_memory_equal(&fp.sfb[0], &fp.sfb[1], sizeof(fp.sfb[0]));
				} else {
					assert_int_equal(fp.d[1].lanes, 0);
				}
				assert_int_equal(fp.a[0].lanes != 0, ts);
				assert_int_equal(fp.sfa[0].lanes != 0, tcp_kind_block_scaled(g.kind));
			}
		}
}

/* Faults: found before D is touched, D left as it was. */
static void test_faults(void **st)
{
	(void)st;
	const mcase_t c = { TCP_KIND_F16, TCP_T_F16, TCP_T_F16, NONE, NONE, 2, 256, 128, 0, 0 };
	const mcase_t bs = { TCP_KIND_MXF8F6F4, TCP_T_E4M3, TCP_T_E4M3, NONE, TCP_T_UE8M0, 1, 128, 64, 1, 0 };
	rig_t r;
	uint32_t *snap[2];

	rig_build(&r, &c, 0, TCP_SW_128B, 0, 0, 0, 0);
	snapshot(&r, snap);
	/* reserved idesc bit 23; undefined type code 7; sparse A (not emulated) */
	r.idesc |= 1u << 23;
	assert_int_equal(rig_run(&r, 0, NULL), TCP_EMU_BAD_IDESC);
	r.idesc &= ~(1u << 23);
	r.idesc |= 7u << 7;
	assert_int_equal(rig_run(&r, 0, NULL), TCP_EMU_BAD_IDESC);
	r.idesc &= ~(7u << 7);
	r.idesc |= 1u << 2;
	assert_int_equal(rig_run(&r, 0, NULL), TCP_EMU_BAD_FORM);
	r.idesc &= ~(1u << 2);
	/* shared-memory descriptor without the fixed 0b001 */
	r.bdesc &= ~(7ull << 46);
	assert_int_equal(rig_run(&r, 0, NULL), TCP_EMU_BAD_SDESC);
	r.bdesc = tcp_tc_tile_desc(&r.dd.tb, TCP_TC_SMEM_BASE + r.dd.b_off, 0);
	/* the peer's window ends inside B; then inside A */
	r.v.smem_bytes[1] = TCP_TC_SMEM_BASE + r.dd.b_off + 16;
	assert_int_equal(rig_run(&r, 0, NULL), TCP_EMU_BAD_SMEM);
	r.v.smem_bytes[1] = TCP_TC_SMEM_BASE + r.dd.b_off - 16;
	assert_int_equal(rig_run(&r, 0, NULL), TCP_EMU_BAD_SMEM);
	r.v.smem_bytes[1] = TCP_TC_SMEM_BASE + r.dd.img_bytes;
	/* D past column 511; a lane field on a layout whose alignment is 0 */
	r.d_taddr = 400;
	assert_int_equal(rig_run(&r, 0, NULL), TCP_EMU_BAD_TADDR);
	r.d_taddr = 16u << 16 | D_COL;
	assert_int_equal(rig_run(&r, 0, NULL), TCP_EMU_BAD_TADDR);
	r.d_taddr = D_COL;
	for (unsigned i = 0; i < 2; i++)
		assert_memory_equal(r.tmem[i], snap[i], sizeof(uint32_t) * TMEM_WORDS);
	free(snap[0]);
	free(snap[1]);
	/* the same operands are fine again */
	snapshot(&r, snap);
	assert_int_equal(rig_run(&r, 0, NULL), 0);
	check_d(&r, snap, 1.0, NULL, "after faults");
	free(snap[0]);
	free(snap[1]);
	rig_free(&r);

	rig_build(&r, &bs, 0, TCP_SW_NONE, 0, 0, 0, 0);
	/* scale vector illegal for the kind; scale factors past column 511 */
	assert_int_equal(tcp_emu_mma(&r.v, TCP_EMU_KIND_MXF8F6F4, 1, 0, 2, r.d_taddr, r.adesc, r.bdesc, r.idesc, SFA_COL,
				     SFB_COL, 0, NULL, r.scratch),
			 TCP_EMU_BAD_IDESC);
	assert_int_equal(tcp_emu_mma(&r.v, TCP_EMU_KIND_MXF8F6F4, 1, 0, 1, r.d_taddr, r.adesc, r.bdesc, r.idesc, SFA_COL,
				     511, 0, NULL, r.scratch),
			 TCP_EMU_BAD_TADDR);
	rig_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_elem_decoders),
		cmocka_unit_test(test_f16_rounding),
		cmocka_unit_test(test_mma_all),
		cmocka_unit_test(test_mma_k96),
		cmocka_unit_test(test_mma_negate),
		cmocka_unit_test(test_mma_i8_saturate),
		cmocka_unit_test(test_mma_mn_major),
		cmocka_unit_test(test_sf_partition_copies),
		cmocka_unit_test(test_footprint),
		cmocka_unit_test(test_faults),
	};

	test_seed("test-emu-mma");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
