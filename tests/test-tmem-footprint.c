/*
 * test-tmem-footprint.c
 *	The TMEM footprint guard (model/tmem-plan.h, the probes'
 *	`tmem` hook, the planner): the check names overlapping regions, regions
 *	that leave the allocation and allocations tcgen05.alloc cannot make;
 *	the formatter prints what --dry-run --verbose shows; the MMA engine's
 *	footprint reserves A and scale-factor columns only where a point needs
 *	them, and B's scale factors take ceil(N/32) columns; the planner SKIPs a
 *	point whose footprint fails, with the reason, and prints `tmem=`.
 *	Then every point of every shipped sweep (every sweeps/NAME.sweep) goes through
 *	it: nothing but a `tc_mma_ii chain=indep` point that cannot get two
 *	accumulator stages may be SKIPPED by its footprint.
 */
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "harness/sweep/plan.h"
#include "model/tmem-plan.h"

static void expect_bad(const tcp_tmem_fp_t *fp, const char *needle)
{
	char why[TCP_REASON_LEN] = "";
	if (tcp_tmem_fp_check(fp, why, sizeof(why)) != -1)
		fail_msg("footprint passed, expected a failure mentioning '%s'", needle);
	if (!strstr(why, needle) || strchr(why, '\n'))
		fail_msg("reason '%s' does not mention '%s' on one line", why, needle);
}

static void test_check_and_format(void **st)
{
	(void)st;
	tcp_tmem_fp_t fp;
	char why[TCP_REASON_LEN], buf[512];

	tcp_tmem_fp_init(&fp);
	assert_int_equal(tcp_tmem_fp_append(&fp, "acc0", 256), 0);
	assert_int_equal(tcp_tmem_fp_append(&fp, "acc1", 256), 256);
	assert_int_equal(tcp_tmem_fp_alloc_fit(&fp), 512);
	assert_int_equal(tcp_tmem_fp_check(&fp, why, sizeof(why)), 0);
	assert_string_equal(tcp_tmem_fp_format(&fp, buf, sizeof(buf)), "alloc=512 acc0=0-255 acc1=256-511");

	/* One more region does not fit: named, with its columns. */
	tcp_tmem_fp_append(&fp, "sfb", 8);
	tcp_tmem_fp_alloc_fit(&fp);
	expect_bad(&fp, "sfb (columns 512-519) leaves the 512-column allocation");

	/* Overlap in columns and lanes; none when the lanes are disjoint. */
	tcp_tmem_fp_init(&fp);
	tcp_tmem_fp_add(&fp, "ld0", 0, 64, 0, 16);
	tcp_tmem_fp_add(&fp, "ld1", 32, 64, 16, 16);
	fp.alloc = 128;
	assert_int_equal(tcp_tmem_fp_check(&fp, why, sizeof(why)), 0);
	assert_string_equal(tcp_tmem_fp_format(&fp, buf, sizeof(buf)), "alloc=128 ld0=0-63/L0-15 ld1=32-95/L16-31");
	tcp_tmem_fp_add(&fp, "ld2", 60, 8, 8, 16);
	expect_bad(&fp, "ld0 and ld2 overlap (columns 60-63, lanes 8-15)");

	/* Allocation sizes tcgen05.alloc cannot make. */
	tcp_tmem_fp_init(&fp);
	tcp_tmem_fp_append(&fp, "acc0", 64);
	fp.alloc = 96;
	expect_bad(&fp, "power of two in [32, 512]");
	fp.alloc = 16;
	expect_bad(&fp, "16 columns");
	fp.alloc = 1024;
	expect_bad(&fp, "1024");
	/* Empty regions, lanes past 128, a full region table. */
	tcp_tmem_fp_init(&fp);
	tcp_tmem_fp_add(&fp, "x", 4, 0, 0, 128);
	fp.alloc = 32;
	expect_bad(&fp, "x is empty");
	tcp_tmem_fp_init(&fp);
	tcp_tmem_fp_add(&fp, "y", 0, 4, 120, 16);
	fp.alloc = 32;
	expect_bad(&fp, "y (lanes 120-135) leaves the 128 lanes");
	tcp_tmem_fp_init(&fp);
	for (int i = 0; i <= TCP_FP_MAX_REGIONS; i++)
		tcp_tmem_fp_append(&fp, "r", 1);
	tcp_tmem_fp_alloc_fit(&fp);
	expect_bad(&fp, "regions");
	/* Long names are cut, never overflow. */
	tcp_tmem_fp_init(&fp);
	tcp_tmem_fp_append(&fp, "averylongname", 32);
	tcp_tmem_fp_alloc_fit(&fp);
	assert_string_equal(tcp_tmem_fp_format(&fp, buf, sizeof(buf)), "alloc=32 averylo=0-31");
	assert_int_equal(tcp_tmem_fp_col(&fp, "averylo", 99), 0);
	assert_int_equal(tcp_tmem_fp_col(&fp, "nothere", 99), 99);
}

/* The engine's footprint; `words` scale-factor words per row (0 = 1; K = 96 .block16: 2). */
static tcp_tmem_fp_t mma_fp_w(int cg, unsigned m, unsigned n, unsigned stages, int ts, int bs, unsigned words,
			      unsigned col[4])
{
	tcp_tmem_mma_req_t q = { cg, m, n, stages, (unsigned)ts, ts ? 8u : 0u, (unsigned)bs, words };
	tcp_tmem_fp_t fp;
	tcp_tmem_mma_fp(&q, &fp, &col[0], &col[1], &col[2], &col[3]);
	return fp;
}

static tcp_tmem_fp_t mma_fp(int cg, unsigned m, unsigned n, unsigned stages, int ts, int bs, unsigned col[4])
{
	return mma_fp_w(cg, m, n, stages, ts, bs, 0, col);
}

static void test_mma_footprint(void **st)
{
	(void)st;
	unsigned col[4];
	char buf[512], why[TCP_REASON_LEN];
	tcp_tmem_fp_t fp;

	/* f16 SS: nothing but the accumulators (the old 16 spare columns are gone). */
	fp = mma_fp(1, 128, 256, 2, 0, 0, col);
	assert_string_equal(tcp_tmem_fp_format(&fp, buf, sizeof(buf)), "alloc=512 acc0=0-255 acc1=256-511");
	assert_int_equal(tcp_tmem_fp_check(&fp, why, sizeof(why)), 0);
	/* Block-scaled N = 256: B's scale factors take 8 columns (defect 2). */
	fp = mma_fp(1, 128, 256, 1, 0, 1, col);
	assert_string_equal(tcp_tmem_fp_format(&fp, buf, sizeof(buf)), "alloc=512 acc0=0-255 sfa=256-259 sfb=260-267");
	assert_int_equal(col[2], 256);
	assert_int_equal(col[3], 260);
	fp = mma_fp(1, 128, 64, 1, 1, 1, col);
	assert_string_equal(tcp_tmem_fp_format(&fp, buf, sizeof(buf)), "alloc=128 acc0=0-63 a=64-71 sfa=72-75 sfb=76-77");
	/* cta_group::2 M=256: 128 rows of A's scales per CTA, all N of B's. */
	fp = mma_fp(2, 256, 256, 1, 1, 1, col);
	assert_string_equal(tcp_tmem_fp_format(&fp, buf, sizeof(buf)),
			    "alloc=512 acc0=0-255 a=256-263 sfa=264-267 sfb=268-275");
	/* Two stages at N = 256 with A or scale factors: does not fit. */
	fp = mma_fp(1, 128, 256, 2, 1, 0, col);
	assert_int_equal(tcp_tmem_fp_check(&fp, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "a and acc1 overlap (columns 256-263"));
	/* cta_group::2 M=128 (layout B): N/2 columns per stage; stage 1 at column 256. */
	fp = mma_fp(2, 128, 256, 2, 0, 0, col);
	assert_string_equal(tcp_tmem_fp_format(&fp, buf, sizeof(buf)), "alloc=512 acc0=0-127 acc1=256-383");
	fp = mma_fp(1, 128, 192, 2, 1, 1, col);
	assert_string_equal(tcp_tmem_fp_format(&fp, buf, sizeof(buf)),
			    "alloc=512 acc0=0-191 a=192-199 sfa=200-203 sfb=204-209 acc1=256-447");
	assert_int_equal(tcp_tmem_fp_check(&fp, why, sizeof(why)), 0);
	fp = mma_fp(1, 128, 240, 2, 1, 1, col);
	assert_int_equal(tcp_tmem_fp_check(&fp, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "overlap"));
	assert_int_equal(tcp_tmem_sf_cols(256), 8);
	assert_int_equal(tcp_tmem_sf_cols(48), 2);
}

/*
 * sm_103a K = 96 .block16: 6 scale factors per row, two words; word 1 one
 * word stride after word 0 (model/tmem-plan.h tcp_tmem_sf_word_stride: A's
 * 32-row groups of the CTA, B's N rounded up to 128 / 32, 2x2 path / 64).
 * One word (every other block-scaled MMA, K = 96 .block32) is what it was.
 */
static void test_k96_sf_footprint(void **st)
{
	(void)st;
	unsigned col[4];
	char buf[512], why[TCP_REASON_LEN];
	tcp_tmem_fp_t fp;

	fp = mma_fp_w(1, 128, 256, 1, 0, 1, 2, col);
	assert_string_equal(tcp_tmem_fp_format(&fp, buf, sizeof(buf)), "alloc=512 acc0=0-255 sfa=256-263 sfb=264-279");
	assert_int_equal(tcp_tmem_fp_check(&fp, why, sizeof(why)), 0);
	fp = mma_fp_w(1, 128, 128, 2, 0, 1, 2, col);	/* two stages still fit: 128 + 8 + 8 <= 256 */
	assert_string_equal(tcp_tmem_fp_format(&fp, buf, sizeof(buf)),
			    "alloc=512 acc0=0-127 sfa=128-135 sfb=136-143 acc1=256-383");
	assert_int_equal(tcp_tmem_fp_check(&fp, why, sizeof(why)), 0);
	/* N = 64: B's word 1 at column 4 (N rounded up to 128), its region 6 columns */
	fp = mma_fp_w(1, 128, 64, 1, 0, 1, 2, col);
	assert_string_equal(tcp_tmem_fp_format(&fp, buf, sizeof(buf)), "alloc=128 acc0=0-63 sfa=64-71 sfb=72-77");
	/* N = 192: stride 8 (CUTLASS lays B's scales out for 256 rows) */
	assert_int_equal(tcp_tmem_sf_word_stride(1, 128, 192, 1), 8);
	assert_int_equal(tcp_tmem_sf_words_cols(1, 128, 192, 1, 2), 14);
	/* cta_group::2 M=256: 128 rows of A per CTA, all N of B */
	fp = mma_fp_w(2, 256, 128, 1, 0, 1, 2, col);
	assert_string_equal(tcp_tmem_fp_format(&fp, buf, sizeof(buf)), "alloc=256 acc0=0-127 sfa=128-135 sfb=136-143");
	/* cta_group::2 M=128: 64 rows of A per CTA (stride 2), B in the 2x2 path (N/64, stride 2) */
	fp = mma_fp_w(2, 128, 128, 1, 0, 1, 2, col);
	assert_string_equal(tcp_tmem_fp_format(&fp, buf, sizeof(buf)), "alloc=128 acc0=0-63 sfa=64-67 sfb=68-71");
	assert_int_equal(tcp_tmem_sf_word_stride(2, 128, 64, 1), 2);
	/* Words per row: 6 factors -> 2, 3 or 4 or fewer -> 1. */
	assert_int_equal(tcp_tmem_sf_words(6), 2);
	assert_int_equal(tcp_tmem_sf_words(4), 1);
	assert_int_equal(tcp_tmem_sf_words(3), 1);
	assert_int_equal(tcp_tmem_sf_words(0), 1);
	/* One word (0 or 1 in the request): the footprint every existing point had. */
	for (int cg = 1; cg <= 2; cg++)
		for (unsigned m = 64; m <= 256; m *= 2)
			for (unsigned n = 16; n <= 256; n += 16)
				for (int is_b = 0; is_b <= 1; is_b++) {
					unsigned c0[4], c1[4];
					char b0[512], b1[512];
					assert_int_equal(tcp_tmem_sf_words_cols(cg, m, n, is_b, 1),
							 tcp_tmem_sf_region_cols(cg, m, n, is_b));
					tcp_tmem_fp_t f0 = mma_fp_w(cg, m, n, 2, 0, 1, 0, c0), f1 = mma_fp_w(cg, m, n, 2, 0, 1, 1, c1);
					assert_string_equal(tcp_tmem_fp_format(&f0, b0, sizeof(b0)), tcp_tmem_fp_format(&f1, b1, sizeof(b1)));
				}
}

/* ---- the planner ------------------------------------------------------------ */

static const tcp_axis_t fake_axes[] = { { "cols", "columns", NULL, "[64]" } };
static const tcp_metric_t fake_metrics[] = { { "x", "cycles", 0, "fake", TCP_ROLE_AUTO, 0, 0 } };

/* Two accumulators of `cols` columns each. */
static int fake_tmem(const tcp_point_t *p, tcp_tmem_fp_t *fp, char *reason, size_t len)
{
	if (p->v[0] == 0) {
		snprintf(reason, len, "zero columns");
		return -1;
	}
	if (p->v[0] == 1)
		return 0;
	tcp_tmem_fp_append(fp, "acc0", (unsigned)p->v[0]);
	tcp_tmem_fp_append(fp, "acc1", (unsigned)p->v[0]);
	tcp_tmem_fp_alloc_fit(fp);
	return 1;
}

static const tcp_probe_t fake = {
	.name = "fake_tmem", .family = "test", .help = "fake", .arch = TCP_ARCH_HOST,
	.axes = fake_axes, .naxes = 1, .metrics = fake_metrics, .nmetrics = 1, .tmem = fake_tmem,
};

/* Scale-factor regions start on a multiple of 4 columns for every block-scaled
 * shape, A in shared memory or TMEM, one or two words per row; before the
 * alignment, cta_group::2 M=128 N=64 put B's at column 34. */
static void test_sf_aligned(void **st)
{
	(void)st;
	unsigned col[4];
	char buf[512], why[TCP_REASON_LEN];
	tcp_tmem_fp_t fp;
	static const struct { int cg; unsigned m; } shapes[] = { { 1, 128 }, { 2, 128 }, { 2, 256 } };

	fp = mma_fp(2, 128, 64, 1, 0, 1, col);
	assert_string_equal(tcp_tmem_fp_format(&fp, buf, sizeof(buf)), "alloc=64 acc0=0-31 sfa=32-33 sfb=36-36");
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		for (unsigned n = 16; n <= 256; n += 16)
			for (int ts = 0; ts <= 1; ts++)
				for (unsigned w = 1; w <= 2; w++) {
					if (shapes[i].cg == 2 && shapes[i].m == 128 && n % 64)
						continue;	/* the 2x2 path needs N a multiple of 64 */
					fp = mma_fp_w(shapes[i].cg, shapes[i].m, n, 1, ts, 1, w, col);
					assert_int_equal(col[2] % TCP_PLAN_SF_COL_ALIGN, 0);
					assert_int_equal(col[3] % TCP_PLAN_SF_COL_ALIGN, 0);
					assert_int_equal(tcp_tmem_fp_check(&fp, why, sizeof(why)), 0);
				}
}

static void test_planner_skips_and_prints(void **st)
{
	(void)st;
	const tcp_probe_t *const probes[] = { &fake };
	tcp_spec_t s;
	tcp_plan_t pl;
	char err[512], *out = NULL;
	size_t outlen = 0;

	tcp_spec_init(&s);
	if (tcp_spec_parse_string(&s, "[fake_tmem]\ncols = 0,1,64,256,300\n", "t.sweep", probes, 1, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(tcp_plan_build(&pl, &s, -1, -1, -1, err, sizeof(err)), 0);
	assert_int_equal(pl.n, 5);
	assert_true(pl.p[0].skipped);
	assert_string_equal(pl.p[0].reason, "TMEM footprint: zero columns");
	assert_false(pl.p[1].skipped);	/* no TMEM */
	assert_false(pl.p[2].skipped);
	assert_false(pl.p[3].skipped);	/* 2 x 256 = 512 exactly */
	assert_true(pl.p[4].skipped);
	assert_non_null(strstr(pl.p[4].reason, "acc1 (columns 300-599) leaves the 512-column allocation"));

	FILE *f = open_memstream(&out, &outlen);
	tcp_plan_print(&pl, f, 1);
	fclose(f);
	assert_non_null(strstr(out, "cols=64\t10\t2\t30\ttmem=alloc=128 acc0=0-63 acc1=64-127\n"));
	assert_non_null(strstr(out, "cols=256\t10\t2\t30\ttmem=alloc=512 acc0=0-255 acc1=256-511\n"));
	assert_non_null(strstr(out, "cols=1\t10\t2\t30\n"));
	assert_non_null(strstr(out, "cols=300\t10\t2\t30\tSKIPPED: TMEM region acc1"));
	free(out);
	tcp_plan_free(&pl);
	tcp_spec_free(&s);
}

/* ---- every shipped sweep -------------------------------------------------- */

static int axis_is(const tcp_plan_point_t *pp, const char *axis, const char *value)
{
	int a = tcp_axis_index(pp->probe, axis);
	char b[64];
	return a >= 0 && !strcmp(tcp_axis_value_str(&pp->probe->axes[a], pp->pt.v[a], b, sizeof(b)), value);
}

static void test_shipped_sweeps(void **st)
{
	(void)st;
	glob_t g;
	int files = 0, checked = 0, indep_skipped = 0;

	assert_int_equal(glob("sweeps/*.sweep", 0, NULL, &g), 0);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		tcp_spec_t s;
		tcp_plan_t pl;
		char err[1024];

		tcp_spec_init(&s);
		if (tcp_spec_parse_file(&s, g.gl_pathv[i], tcp_probes, tcp_nprobes, err, sizeof(err)))
			fail_msg("%s", err);
		if (tcp_plan_build(&pl, &s, -1, -1, -1, err, sizeof(err)))
			fail_msg("%s: %s", g.gl_pathv[i], err);
		files++;
		for (int j = 0; j < pl.n; j++) {
			tcp_plan_point_t *pp = &pl.p[j];
			char why[TCP_REASON_LEN] = "";
			if (!pp->probe->tmem || (pp->probe->legal && !pp->probe->legal(&pp->pt, why, sizeof(why))))
				continue;	/* illegal per the model: not the footprint's business */
			checked++;
			if (tcp_point_tmem(pp->probe, &pp->pt, NULL, why, sizeof(why)) >= 0) {
				assert_false(pp->skipped);
				continue;
			}
			/* Only a two-accumulator II chain (indep, alt_acc) that cannot
			 * get two stages may be refused; the same point as a
			 * one-accumulator chain (chain=same) must fit. */
			if (strcmp(pp->probe->name, "tc_mma_ii") ||
			    (!axis_is(pp, "chain", "indep") && !axis_is(pp, "chain", "alt_acc")) ||
			    !strstr(why, "two accumulator stages"))
				fail_msg("%s: %s %s SKIPPED by its TMEM footprint: %s", g.gl_pathv[i], pp->probe->name,
					 pp->key, why);
			tcp_point_t same = pp->pt;
			same.v[tcp_axis_index(pp->probe, "chain")] = 1;
			if (tcp_point_tmem(pp->probe, &same, NULL, why, sizeof(why)) < 0)
				fail_msg("%s: %s with chain=same does not fit either: %s", g.gl_pathv[i], pp->key, why);
			assert_true(pp->skipped);
			indep_skipped++;
		}
		tcp_plan_free(&pl);
		tcp_spec_free(&s);
	}
	globfree(&g);
	printf("shipped sweeps: %d files, %d TMEM points checked, %d two-accumulator chain points SKIPPED (no two stages)\n",
	       files, checked, indep_skipped);
	assert_true(files >= 5);
	assert_true(checked > 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_and_format),
		cmocka_unit_test(test_mma_footprint),
		cmocka_unit_test(test_k96_sf_footprint),
		cmocka_unit_test(test_sf_aligned),
		cmocka_unit_test(test_planner_skips_and_prints),
		cmocka_unit_test(test_shipped_sweeps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
