/*
 * test-tc-aux.c
 *	Every axis of the non-MMA sm_100a probes reaches the GPU (each
 *	axis value changes the kernel instantiation or its
 *	arguments).  For each probe a plan over two or three values of every
 *	axis is built by the real planner; for every pair of runnable points
 *	that differ in one axis only, probes/sm100/tc-aux.h must give different
 *	launches (template arguments, grid, threads or arguments), and every
 *	axis must have such a pair.  Also the pieces of the launch the probes
 *	and the footprint share: the grid of grid=1|all, the tc_cp depth sized
 *	to 1 MiB, the tc_ldst depths, kernels and column placements.
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

#include "harness/sweep/plan.h"
#include "probes/sm100/tc-aux.h"

#define SMS 148		/* a B200 */
#define MHZ 1965.0

static const struct {
	const char *probe, *spec;
} cases[] = {
	{ "tc_alloc", "[tc_alloc]\nncols = 32,512\nctas_per_sm = 1,4\nhold_cycles = 0,2000\nrelinquish = early,late\n" },
	{ "tc_commit", "[tc_commit]\nform = empty,cp,mma\ncta_group = 1,2\ncast = local,multicast\ngrid = 1,all\n" },
	{ "tc_cp", "[tc_cp]\nshape = 128x256b,4x256b,32x128b.warpx4\nfmt = plain,b4x16_p64\ncta_group = 1,2\ngrid = 1,all\n" },
	/* inflight=0 is the deepest depth that fits, so it launches as an explicit
	 * inflight of that depth would: the values are picked where it is deeper
	 * than every explicit one (1 or 2) */
	{ "tc_ldst", "[tc_ldst]\nshape = 32x32b,16x32bx2\nnum = 1,4\npack = 0,1\nwarpgroups = 1,4\nop = ld,st\n"
		     "inflight = 0,1,2\n" },
	/* the 256-thread kernels of 1 and 2 warpgroups (32 registers) beside the 512-thread ones (16) */
	{ "tc_ldst", "[tc_ldst]\nshape = 32x32b,16x32bx2\nnum = 16,32\npack = 0,1\nwarpgroups = 1,2\nop = ld,st\n"
		     "inflight = 0,1\n" },
	{ "tc_epilogue", "[tc_epilogue]\nkind = f16,mxf4\nN = 128,192\ndrain = none,ld,cp\ngap_cycles = 0,256\n"
			 "ab = ss,ts\nk = 1,4\ninflight = 2,4\ndrain_wgs = 1,2\ncps_per_batch = 1,2\n" },
};

static int differs_in(const tcp_point_t *a, const tcp_point_t *b)
{
	int axis = -1;
	for (int i = 0; i < a->naxes; i++)
		if (a->v[i] != b->v[i]) {
			if (axis >= 0)
				return -1;
			axis = i;
		}
	return axis;
}

static void test_every_axis_changes_the_launch(void **st)
{
	(void)st;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const tcp_probe_t *pr = tcp_probe_find(cases[c].probe);
		tcp_spec_t s;
		tcp_plan_t pl;
		char err[512];
		int covered[TCP_MAX_AXES] = { 0 };

		assert_non_null(pr);
		tcp_spec_init(&s);
		if (tcp_spec_parse_string(&s, cases[c].spec, "t.sweep", tcp_probes, tcp_nprobes, err, sizeof(err)))
			fail_msg("%s", err);
		assert_int_equal(tcp_plan_build(&pl, &s, -1, -1, -1, err, sizeof(err)), 0);
		tcp_aux_launch_t *l = calloc((size_t)pl.n, sizeof(*l));
		assert_non_null(l);
		int runnable = 0;
		for (int i = 0; i < pl.n; i++) {
			if (pl.p[i].skipped)
				continue;
			runnable++;
			if (tcp_aux_launch(pr, &pl.p[i].pt, SMS, MHZ, &l[i], err, sizeof(err)))
				fail_msg("%s %s: %s", pr->name, pl.p[i].key, err);
		}
		for (int i = 0; i < pl.n; i++)
			for (int j = i + 1; j < pl.n; j++) {
				if (pl.p[i].skipped || pl.p[j].skipped)
					continue;
				int ax = differs_in(&pl.p[i].pt, &pl.p[j].pt);
				if (ax < 0)
					continue;
				if (!memcmp(&l[i], &l[j], sizeof(l[i])))
					fail_msg("%s: %s and %s launch the same kernel with the same arguments", pr->name,
						 pl.p[i].key, pl.p[j].key);
				covered[ax]++;
			}
		for (int a = 0; a < pr->naxes; a++)
			if (!covered[a])
				fail_msg("%s: no two runnable points differ in axis %s alone", pr->name, pr->axes[a].name);
		printf("%s: %d points, %d runnable, every axis changes the launch\n", pr->name, pl.n, runnable);
		free(l);
		tcp_plan_free(&pl);
		tcp_spec_free(&s);
	}
}

static void test_launch_pieces(void **st)
{
	(void)st;
	/* grid=1: one CTA or one pair; grid=all: every SM, an even count for pairs */
	assert_int_equal(tcp_aux_grid_ctas(0, 1, SMS), 1);
	assert_int_equal(tcp_aux_grid_ctas(0, 2, SMS), 2);
	assert_int_equal(tcp_aux_grid_ctas(1, 1, 147), 147);
	assert_int_equal(tcp_aux_grid_ctas(1, 2, 147), 146);
	assert_int_equal(tcp_aux_grid_ctas(1, 2, 1), 2);
	/* tc_cp: the longer depth (2 x batches x 32 copies) reads >= 1 MiB */
	static const unsigned bytes[] = { 4096, 128, 2048, 1024, 512 };
	for (size_t i = 0; i < sizeof(bytes) / sizeof(bytes[0]); i++) {
		unsigned long long n2 = 2ull * (unsigned)tcp_aux_cp_batches1(bytes[i]) * TCP_AUX_CP_NDEST;
		assert_true(n2 * bytes[i] >= TCP_AUX_CP_MIN_BYTES);
		assert_true((n2 - 2 * TCP_AUX_CP_NDEST) * bytes[i] < TCP_AUX_CP_MIN_BYTES);	/* no more than one batch pair over */
	}
	assert_int_equal(tcp_aux_cp_batches1(4096), 4);	/* 256 copies of 4 KiB */
	/* tc_ldst: the launch bound: 256 threads for 32 and 64 registers at 1-2
	 * warpgroups and for 128 at any count, else 512 */
	assert_int_equal(tcp_aux_ldst_threads(16, 1), 512);
	assert_int_equal(tcp_aux_ldst_threads(32, 1), 256);
	assert_int_equal(tcp_aux_ldst_threads(32, 2), 256);
	assert_int_equal(tcp_aux_ldst_threads(32, 3), 512);
	assert_int_equal(tcp_aux_ldst_threads(64, 2), 256);
	assert_int_equal(tcp_aux_ldst_threads(64, 4), 512);
	assert_int_equal(tcp_aux_ldst_threads(128, 1), 256);
	assert_int_equal(tcp_aux_ldst_threads(128, 4), 256);	/* legal() refuses 4 x 128 threads */
	/* 512 threads: k x registers <= 64, at most 8, one set from 32 registers up */
	assert_int_equal(tcp_aux_ldst_kmax(1, 512), 8);
	assert_int_equal(tcp_aux_ldst_kmax(8, 512), 2);	/* every set live: four spill (ptxas 13.0) */
	assert_int_equal(tcp_aux_ldst_kmax(16, 512), 4);
	assert_int_equal(tcp_aux_ldst_kmax(32, 512), 1);
	assert_int_equal(tcp_aux_ldst_kmax(64, 512), 1);
	/* 256 threads: k x registers <= 128 */
	assert_int_equal(tcp_aux_ldst_kmax(32, 256), 4);
	assert_int_equal(tcp_aux_ldst_kmax(64, 256), 2);
	assert_int_equal(tcp_aux_ldst_kmax(128, 256), 1);
	/* the depth: explicit, or the deepest whose warpgroups fit side by side */
	assert_int_equal(tcp_aux_ldst_depth(16, 4, 16, 0), 4);
	assert_int_equal(tcp_aux_ldst_depth(16, 4, 16, 2), 2);
	assert_int_equal(tcp_aux_ldst_depth(32, 1, 32, 0), 4);		/* 32x32b.x32 */
	assert_int_equal(tcp_aux_ldst_depth(32, 4, 32, 0), 1);
	assert_int_equal(tcp_aux_ldst_depth(32, 2, 128, 0), 2);	/* 16x32bx2.x32 packed: 2 x 4 x 128 > 512 */
	assert_int_equal(tcp_aux_ldst_depth(64, 2, 64, 0), 2);		/* 32x32b.x64 */
	assert_int_equal(tcp_aux_ldst_depth(64, 2, 256, 0), 1);	/* 16x32bx2.x64 packed */
	assert_int_equal(tcp_aux_ldst_depth(128, 2, 512, 0), 1);	/* one set may share (ld) */
	/* tc_epilogue: warpgroup 0 and the drain warpgroups */
	{
		const tcp_probe_t *epi = tcp_probe_find("tc_epilogue");
		tcp_spec_t es;
		tcp_plan_t ep;
		char err[512];
		assert_non_null(epi);
		tcp_spec_init(&es);
		if (tcp_spec_parse_string(&es, "[tc_epilogue]\nkind = f16\nN = 256\ndrain = ld\ngap_cycles = 0\ninflight = 4\n"
					  "drain_wgs = 1,2\n", "t.sweep", tcp_probes, tcp_nprobes, err, sizeof(err)))
			fail_msg("%s", err);
		assert_int_equal(tcp_plan_build(&ep, &es, -1, -1, -1, err, sizeof(err)), 0);
		assert_int_equal(ep.n, 2);
		for (int i = 0; i < ep.n; i++) {
			tcp_aux_launch_t el;
			assert_false(ep.p[i].skipped);
			assert_int_equal(tcp_aux_launch(epi, &ep.p[i].pt, SMS, MHZ, &el, err, sizeof(err)), 0);
			assert_int_equal(el.threads, 128 * (1 + (int)el.arg[7]));
			assert_int_equal(el.arg[6], 4);	/* inflight */
		}
		tcp_plan_free(&ep);
		tcp_spec_free(&es);
	}
	/* a probe tc-aux does not map is refused with a reason */
	tcp_aux_launch_t l;
	tcp_point_t p = { 0 };
	char why[TCP_REASON_LEN];
	assert_int_equal(tcp_aux_launch(tcp_probe_find("calib"), &p, SMS, MHZ, &l, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "calib"));
}

/* Value of axis `name` of plan point i. */
static long long ldst_v(const tcp_plan_t *pl, int i, const char *name)
{
	int a = tcp_axis_index(pl->p[i].probe, name);
	assert_true(a >= 0);
	return pl->p[i].pt.v[a];
}

/*
 * tc_ldst over every shape, .num, pack, warpgroup count (1..4), op and
 * inflight: every runnable point launches no more threads than its
 * kernel's bound and no deeper than the sets that kernel holds, and its
 * sets sit in the 512 columns: every warpgroup's k x footprint side by
 * side, or (one set, ld only) all warpgroups on the same columns; points
 * outside those rules are SKIPPED.  And the depths inflight=0 runs, for
 * 32x32b unpacked (footprint = registers) and 16x32bx2 packed (4 columns
 * a register: the widest), per warpgroups and .num.
 */
static void test_ldst_depths(void **st)
{
	(void)st;
	static const char spec[] = "[tc_ldst]\nshape = 32x32b,16x64b,16x128b,16x256b,16x32bx2\nnum = pow2:1:128\n"
				   "pack = 0,1\nwarpgroups = 1,2,3,4\nop = ld,st\ninflight = 0,1,2,4,8\n";
	/* [shape: 0 = 32x32b pack 0, 1 = 16x32bx2 pack 1][warpgroups - 1][log2 num]; 0 = not runnable */
	static const int depth0[2][4][8] = {
		{ { 8, 8, 8, 2, 4, 4, 2, 1 }, { 8, 8, 8, 2, 4, 4, 2, 1 },
		  { 8, 8, 8, 2, 4, 1, 1, 0 }, { 8, 8, 8, 2, 4, 1, 1, 0 } },
		{ { 8, 8, 8, 2, 4, 4, 2, 1 }, { 8, 8, 8, 2, 4, 2, 1, 1 },
		  { 8, 8, 8, 2, 2, 1, 1, 0 }, { 8, 8, 8, 2, 2, 1, 1, 0 } },
	};
	int seen[2][4][8] = { { { 0 } } };
	const tcp_probe_t *pr = tcp_probe_find("tc_ldst");
	tcp_spec_t s;
	tcp_plan_t pl;
	char err[512];
	int runnable = 0, deep = 0;

	assert_non_null(pr);
	tcp_spec_init(&s);
	if (tcp_spec_parse_string(&s, spec, "t.sweep", tcp_probes, tcp_nprobes, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(tcp_plan_build(&pl, &s, -1, -1, -1, err, sizeof(err)), 0);
	for (int i = 0; i < pl.n; i++) {
		const int sh = (int)ldst_v(&pl, i, "shape"), num = (int)ldst_v(&pl, i, "num");
		const int pack = (int)ldst_v(&pl, i, "pack"), wg = (int)ldst_v(&pl, i, "warpgroups");
		const int op = (int)ldst_v(&pl, i, "op"), inflight = (int)ldst_v(&pl, i, "inflight");
		int l2 = 0;
		while ((1 << l2) < num)
			l2++;
		const int row = sh == TCP_LD_32X32B && !pack ? 0 : sh == TCP_LD_16X32BX2 && pack ? 1 : -1;
		if (pl.p[i].skipped) {
			if (row >= 0 && inflight == 0 && op == 0 && depth0[row][wg - 1][l2])
				fail_msg("%s SKIPPED: %s", pl.p[i].key, pl.p[i].reason);
			continue;
		}
		tcp_aux_launch_t l;
		if (tcp_aux_launch(pr, &pl.p[i].pt, SMS, MHZ, &l, err, sizeof(err)))
			fail_msg("%s: %s", pl.p[i].key, err);
		runnable++;
		const int nreg = (int)tcp_ld_regs((tcp_ld_shape_t)sh, (unsigned)num);
		const unsigned fp = tcp_ld_footprint((tcp_ld_shape_t)sh, (unsigned)num, pack);
		const int depth = (int)l.arg[0], bound = l.kernel[4];
		const unsigned stride = (unsigned)l.arg[1];
		if (l.threads != 128 * wg || l.threads > bound || (bound != 256 && bound != 512))
			fail_msg("%s: %d threads on a kernel built for %d", pl.p[i].key, l.threads, bound);
		if (depth < 1 || depth > tcp_aux_ldst_kmax(nreg, bound) || (inflight && depth != inflight))
			fail_msg("%s: depth %d, the %d-thread kernel holds %d", pl.p[i].key, depth, bound,
				 tcp_aux_ldst_kmax(nreg, bound));
		if (stride ? stride != (unsigned)depth * fp || (unsigned)wg * stride > TCP_TMEM_COLS
			   : depth > 1 || op != 0 || fp > TCP_TMEM_COLS)
			fail_msg("%s: depth %d x %u columns at a stride of %u for %d warpgroups", pl.p[i].key, depth,
				 fp, stride, wg);
		if (bound == 256 && nreg <= 64)
			deep++;
		if (row >= 0 && inflight == 0 && op == 0) {
			if (depth != depth0[row][wg - 1][l2])
				fail_msg("%s: inflight=0 runs depth %d, expected %d", pl.p[i].key, depth,
					 depth0[row][wg - 1][l2]);
			seen[row][wg - 1][l2] = 1;
		}
	}
	for (int r = 0; r < 2; r++)
		for (int w = 0; w < 4; w++)
			for (int n = 0; n < 8; n++)
				if (!depth0[r][w][n] != !seen[r][w][n])
					fail_msg("row %d warpgroups %d num %d: %s", r, w + 1, 1 << n,
						 seen[r][w][n] ? "runnable, expected SKIPPED" : "SKIPPED");
	printf("tc_ldst: %d points, %d runnable, %d on the deep 256-thread kernels\n", pl.n, runnable, deep);
	tcp_plan_free(&pl);
	tcp_spec_free(&s);
}

/*
 * tc_mma_ii's issue curve with a known queue: issue(n) = c0 + cost n while
 * n <= Q, then the issuer stalls and each MMA costs the interval ii >> cost.
 * The knee search must recover the largest measured n <= Q and the cost,
 * for random c0, cost, ii and Q, with 2% noise, on the release depths
 * (n = D - 2 for chain=indep: 0 is dropped) and the emulation's.
 */
static void test_issue_knee(void **st)
{
	(void)st;
	static const double rel[6] = { 2, 6, 14, 30, 62, 126 }, emu[3] = { 2, 30, 62 };
	int checked = 0, knees = 0;
	srand(20261202u);
	for (int trial = 0; trial < 2000; trial++) {
		const double *xs = trial % 2 ? emu : rel;
		const int cnt = trial % 2 ? 3 : 6;
		const double c0 = 10 + rand() % 200, cost = 1 + rand() % 40 / 4.0;
		const double ii = cost * (4 + rand() % 60), q = 1 + rand() % 150;
		double n[6], t[6], got_cost, last;
		int on = 0;
		for (int i = 0; i < cnt; i++) {
			const double noise = 1 + ((rand() % 2001) - 1000) / 50000.0;	/* +-2% */
			n[i] = xs[i];
			t[i] = (xs[i] <= q ? c0 + cost * xs[i] : c0 + cost * q + ii * (xs[i] - q)) * noise;
			if (xs[i] <= q)
				on = i + 1;
		}
		/* a knee closer than the tolerance to the next point is not resolvable: skip such draws */
		if (on < cnt && (c0 + cost * q + ii * (xs[on] - q)) < (c0 + cost * xs[on]) * 1.6)
			continue;
		if (on < 2)
			continue;	/* the line needs two points under the knee */
		int r = tcp_aux_issue_knee(n, t, cnt, TCP_AUX_ISSUE_KNEE_TOL, &got_cost, &last);
		assert_int_equal(r, on < cnt ? 1 : 0);
		checked++;
		knees += r == 1;
		assert_true(last == xs[on - 1]);
		assert_true(fabs(got_cost - cost) <= 0.1 * cost + 2.0 * c0 / (xs[on - 1] - xs[0] + 1e-9) * 0.05 + 0.5);
	}
	assert_true(checked > 500 && knees > 250 && checked - knees > 50);	/* both outcomes, many draws */
	/* NAN entries are skipped; fewer than two usable points: -1 */
	double n1[3] = { NAN, 2, NAN }, t1[3] = { 5, 7, NAN }, c, l;
	assert_int_equal(tcp_aux_issue_knee(n1, t1, 3, 0.25, &c, &l), -1);
	assert_true(isnan(c) && isnan(l));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_axis_changes_the_launch),
		cmocka_unit_test(test_launch_pieces),
		cmocka_unit_test(test_ldst_depths),
		cmocka_unit_test(test_issue_knee),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
