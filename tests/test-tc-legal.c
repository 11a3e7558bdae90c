/*
 * test-tc-legal.c
 *	The Blackwell probes' legal() hooks, through the registry as the sweep
 *	engine calls them: legal points pass; every illegal point is refused
 *	with a one-line reason that names the rule (model/legal.h or the
 *	probe's own limits), so a sweep SKIPs it instead of launching it; and
 *	every value of the MMA probes' new axes changes the kernel they launch
 *	or its arguments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/tmem-plan.h"
#include "probes/common/probe.h"
#include "probes/sm100/tc-check.h"

/* Build a point from "axis=value" pairs; unnamed axes take their first default. */
static tcp_point_t point(const tcp_probe_t *p, const char *const *kv, int n)
{
	tcp_point_t pt;
	memset(&pt, 0, sizeof(pt));
	pt.naxes = p->naxes;
	for (int a = 0; a < p->naxes; a++) {
		const tcp_axis_t *ax = &p->axes[a];
		const char *val = NULL;
		char def[64];
		for (int i = 0; i < n; i++) {
			size_t l = strlen(ax->name);
			if (strncmp(kv[i], ax->name, l) == 0 && kv[i][l] == '=')
				val = kv[i] + l + 1;
		}
		if (!val) {	/* first value of the default list */
			snprintf(def, sizeof(def), "%s", ax->def + (ax->def[0] == '['));
			def[strcspn(def, ",]:")] = '\0';
			val = def;
		}
		if (ax->names) {
			int found = -1;
			for (int j = 0; ax->names[j]; j++)
				if (strcmp(ax->names[j], val) == 0)
					found = j;
			if (found < 0)
				fail_msg("%s: axis %s has no value %s", p->name, ax->name, val);
			pt.v[a] = found;
		} else {
			pt.v[a] = strtoll(val, NULL, 10);
		}
	}
	return pt;
}

#define PT(probe, ...) point(probe, (const char *const[]){ __VA_ARGS__ }, \
	(int)(sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(const char *)))

static const tcp_probe_t *get(const char *name)
{
	const tcp_probe_t *p = tcp_probe_find(name);
	if (!p)
		fail_msg("probe %s is not registered", name);
	/* a tcgen05 probe: every tcgen05 target and only those */
	assert_int_equal(p->arch, TCP_ARCH_TCGEN05);
	assert_non_null(p->legal);
	return p;
}

static void expect(const tcp_probe_t *p, tcp_point_t pt, int legal, const char *needle)
{
	char why[TCP_REASON_LEN] = "";
	int got = p->legal(&pt, why, sizeof(why));
	if (got != legal)
		fail_msg("%s: legal() = %d, expected %d (%s)", p->name, got, legal, why);
	if (!legal) {
		assert_true(strlen(why) > 0 && strchr(why, '\n') == NULL);
		if (needle && !strstr(why, needle))
			fail_msg("%s: reason '%s' does not mention '%s'", p->name, why, needle);
	}
}

static void test_mma_points(void **st)
{
	(void)st;
	const char *names[] = { "tc_mma_lat", "tc_mma_tput", "tc_mma_ii" };
	for (int i = 0; i < 3; i++) {
		const tcp_probe_t *p = get(names[i]);
		expect(p, PT(p, "kind=f16", "cta_group=1", "M=128", "N=256"), 1, NULL);
		expect(p, PT(p, "kind=f16", "cta_group=2", "M=256", "N=256"), 1, NULL);
		expect(p, PT(p, "kind=f8f6f4", "atype=e2m1", "btype=e3m2", "cta_group=1", "M=128", "N=64"), 1, NULL);
		expect(p, PT(p, "kind=mxf4nvf4", "sf=ue4m3", "block=16", "cta_group=2", "M=256", "N=128"), 1, NULL);
		expect(p, PT(p, "kind=f16", "cta_group=1", "M=128", "N=64", "ab=ts"), 1, NULL);
		/* Illegal per the model. */
		expect(p, PT(p, "kind=i8", "cta_group=2", "M=128", "N=48"), 0, "48");
		expect(p, PT(p, "kind=f16", "cta_group=1", "M=256", "N=64"), 0, "256");
		expect(p, PT(p, "kind=f16", "cta_group=1", "M=128", "N=12"), 0, "12");
		expect(p, PT(p, "kind=mxf4", "cta_group=1", "M=64", "N=64"), 0, "64");
		expect(p, PT(p, "kind=f16", "atype=e4m3", "M=128", "N=64"), 0, NULL);
		expect(p, PT(p, "kind=mxf4nvf4", "sf=ue4m3", "block=32", "M=128", "N=64"), 0, "ue4m3");
		/* Engine limits and axis ranges. */
		expect(p, PT(p, "kind=f16", "cta_group=1", "M=64", "N=64", "ab=ts"), 0, "ts");
		expect(p, PT(p, "kind=f16", "cta_group=2", "M=256", "N=64", "ab=ts"), 1, NULL);
		expect(p, PT(p, "kind=f16", "cta_group=2", "M=128", "N=64", "ab=ts"), 1, NULL);
		expect(p, PT(p, "kind=f16", "cta_group=2", "M=128", "N=48", "ab=ts"), 0, "multiple of 32");
		expect(p, PT(p, "kind=f16", "block=16", "M=128", "N=64"), 0, "block");
		expect(p, PT(p, "kind=mxf4", "block=8", "M=128", "N=64"), 0, "block");
		/* .block16 is kind::mxf4nvf4's alone: no second name for the block-32 MMA */
		expect(p, PT(p, "kind=mxf8f6f4", "block=16", "M=128", "N=64"), 0, "mxf4nvf4 only");
		expect(p, PT(p, "kind=mxf4", "block=16", "M=128", "N=64"), 0, "mxf4nvf4 only");
		expect(p, PT(p, "kind=mxf8f6f4", "block=32", "M=128", "N=64"), 1, NULL);
	}
	const tcp_probe_t *ii = get("tc_mma_ii");
	expect(ii, PT(ii, "kind=f16", "M=128", "N=64", "depth=0"), 1, NULL);
	expect(ii, PT(ii, "kind=f16", "M=128", "N=64", "depth=64"), 1, NULL);
	expect(ii, PT(ii, "kind=f16", "M=128", "N=64", "depth=2000"), 0, "depth");
	expect(ii, PT(ii, "kind=f16", "M=128", "N=64", "depth=3"), 0, "power of two");
	expect(ii, PT(ii, "kind=f16", "cta_group=1", "M=64", "N=96", "chain=same"), 1, NULL);
	const tcp_probe_t *lat = get("tc_mma_lat");
	expect(lat, PT(lat, "kind=f16", "M=128", "N=64", "enable_input_d=0"), 1, NULL);
	expect(lat, PT(lat, "kind=f16", "M=128", "N=64", "enable_input_d=2"), 0, "enable_input_d");
	const tcp_probe_t *tp = get("tc_mma_tput");
	expect(tp, PT(tp, "kind=f16", "M=128", "N=64", "commit_every=4"), 1, NULL);
	expect(tp, PT(tp, "kind=f16", "M=128", "N=64", "commit_every=3"), 0, "commit_every");
	expect(tp, PT(tp, "kind=f16", "M=128", "N=64", "commit_every=8192"), 0, "commit_every");
	expect(tp, PT(tp, "kind=f16", "M=64", "N=256", "enable_input_d=0"), 1, NULL);
	expect(tp, PT(tp, "kind=f16", "M=128", "N=64", "enable_input_d=2"), 0, "enable_input_d");
	/* Both two-accumulator chains need two stages; the one-accumulator ones fit
	 * where one stage does (N = 256 with A in TMEM). */
	expect(ii, PT(ii, "kind=f16", "cta_group=1", "M=128", "N=256", "ab=ts", "chain=alt_acc"), 1, NULL);
	expect(ii, PT(ii, "kind=f16", "cta_group=1", "M=128", "N=256", "ab=ts", "chain=overwrite"), 1, NULL);
	{
		tcp_tmem_fp_t fp;
		char why[TCP_REASON_LEN] = "";
		static const char *const two[] = { "chain=indep", "chain=alt_acc" }, *const one[] = { "chain=same",
												    "chain=overwrite" };
		for (int i = 0; i < 2; i++) {
			tcp_point_t a = PT(ii, "kind=f16", "cta_group=1", "M=128", "N=256", "ab=ts", two[i]);
			tcp_point_t b = PT(ii, "kind=f16", "cta_group=1", "M=128", "N=256", "ab=ts", one[i]);
			why[0] = '\0';
			assert_int_equal(ii->tmem(&a, &fp, why, sizeof(why)), -1);
			if (!strstr(why, "two accumulator stages") || !strstr(why, two[i]))
				fail_msg("%s: reason '%s'", two[i], why);
			assert_int_equal(ii->tmem(&b, &fp, why, sizeof(why)), 1);
		}
	}
	for (int i = 0; i < 3; i++) {
		const tcp_probe_t *p = get(names[i]);
		/* Engine limits that follow production code (CUTLASS). */
		expect(p, PT(p, "kind=f16", "cta_group=2", "M=256", "N=48", "ab=ts"), 0, "multiple of 32");
		expect(p, PT(p, "kind=mxf4", "cta_group=2", "M=128", "N=96"), 0, "multiple of 64");
		expect(p, PT(p, "kind=mxf4", "cta_group=2", "M=128", "N=128"), 1, NULL);
		/* The new axes' values are all legal. */
		expect(p, PT(p, "kind=f16", "M=128", "N=64", "grid=1", "cast=local", "swizzle=128B"), 1, NULL);
		expect(p, PT(p, "kind=f16", "cta_group=2", "M=256", "N=64", "grid=1", "cast=local"), 1, NULL);
	}
}

/* A signature of what a point makes the probe launch: the kernel (the
 * template arguments its table is indexed with) and its arguments. */
static void instance(const char *probe, tcp_point_t pt, char *sig, size_t len)
{
	tcp_tc_mma_point_t mp;
	char why[TCP_REASON_LEN];
	if (tcp_tc_mma_point(probe, &pt, &mp, why, sizeof(why)))
		fail_msg("%s: point refused: %s", probe, why);
	snprintf(sig, len, "kernel<cg%d,ts%d,cast%d,kv%d,opt%d> grid1=%d swizzle=%d stages=%u/%d depth=%d commit=%d "
		 "iters=%d pattern=%d",
		 mp.cfg.cta_group, mp.ts, mp.cast, mp.kv, mp.opt, mp.grid1, (int)mp.swizzle, tcp_tc_mma_stages(&mp),
		 mp.exact, mp.depth, mp.commit_every,
		 strcmp(probe, "tc_mma_tput") ? 0 : tcp_tc_tput_iters(&mp.cfg, 1048576.0, mp.commit_every), mp.pattern);
}

/* Each axis value changes the kernel the probe
 * launches or its arguments (tcp_tc_mma_point is what setup() and the kernel
 * tables use), so no axis is a label that measures the same thing twice. */
static void test_axes_change_instance(void **st)
{
	(void)st;
	static const struct { const char *probe, *a, *b; } v[] = {
		{ "tc_mma_lat", "grid=all", "grid=1" },
		{ "tc_mma_lat", "cast=multicast", "cast=local" },
		{ "tc_mma_lat", "swizzle=none", "swizzle=128B" },
		{ "tc_mma_lat", "enable_input_d=1", "enable_input_d=0" },
		{ "tc_mma_lat", "ab=ss", "ab=ts" },
		{ "tc_mma_ii", "grid=all", "grid=1" },
		{ "tc_mma_ii", "cast=multicast", "cast=local" },
		{ "tc_mma_ii", "swizzle=none", "swizzle=128B" },
		{ "tc_mma_ii", "chain=indep", "chain=same" },
		{ "tc_mma_ii", "chain=same", "chain=alt_acc" },
		{ "tc_mma_ii", "chain=same", "chain=overwrite" },
		{ "tc_mma_ii", "chain=indep", "chain=alt_acc" },
		{ "tc_mma_ii", "chain=indep", "chain=overwrite" },
		{ "tc_mma_ii", "depth=0", "depth=16" },
		{ "tc_mma_ii", "ab=ss", "ab=ts" },
		{ "tc_mma_tput", "grid=all", "grid=1" },
		{ "tc_mma_tput", "cast=multicast", "cast=local" },
		{ "tc_mma_tput", "swizzle=none", "swizzle=128B" },
		{ "tc_mma_tput", "commit_every=0", "commit_every=1" },
		{ "tc_mma_tput", "commit_every=1", "commit_every=4" },
		{ "tc_mma_tput", "commit_every=4", "commit_every=4096" },
		{ "tc_mma_tput", "enable_input_d=1", "enable_input_d=0" },
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		const tcp_probe_t *p = get(v[i].probe);
		char s1[512], s2[512];
		instance(v[i].probe, PT(p, "kind=f16", "cta_group=1", "M=128", "N=64", v[i].a), s1, sizeof(s1));
		instance(v[i].probe, PT(p, "kind=f16", "cta_group=1", "M=128", "N=64", v[i].b), s2, sizeof(s2));
		if (!strcmp(s1, s2))
			fail_msg("%s: %s and %s launch the same kernel with the same arguments: %s", v[i].probe, v[i].a,
				 v[i].b, s1);
	}
	/* The cast form reaches cta_group::1 too (one name everywhere). */
	const tcp_probe_t *p = get("tc_mma_lat");
	char s1[512], s2[512];
	instance("tc_mma_lat", PT(p, "kind=mxf4", "cta_group=2", "M=256", "N=128", "cast=multicast"), s1, sizeof(s1));
	instance("tc_mma_lat", PT(p, "kind=mxf4", "cta_group=2", "M=256", "N=128", "cast=local"), s2, sizeof(s2));
	assert_string_not_equal(s1, s2);
}

static void test_other_points(void **st)
{
	(void)st;
	const tcp_probe_t *p = get("tc_ldst");
	expect(p, PT(p, "shape=32x32b", "num=128", "warpgroups=2"), 1, NULL);
	expect(p, PT(p, "shape=32x32b", "num=128", "warpgroups=4"), 0, "warpgroups");
	expect(p, PT(p, "shape=16x256b", "num=64"), 0, "registers");
	expect(p, PT(p, "shape=16x128b", "num=3"), 0, "power of two");
	expect(p, PT(p, "shape=16x64b", "num=8", "warpgroups=5"), 0, "warpgroups");
	/* Warpgroups whose spans do not fit side by side share columns: legal for
	 * ld, a race for st (SKIPPED), one warpgroup fewer fits. */
	expect(p, PT(p, "shape=16x64b", "num=64", "pack=1", "warpgroups=4", "op=ld", "inflight=1"), 1, NULL);
	expect(p, PT(p, "shape=16x64b", "num=64", "pack=1", "warpgroups=4", "op=st", "inflight=1"), 0, "share columns");
	expect(p, PT(p, "shape=16x64b", "num=64", "pack=1", "warpgroups=2", "op=st", "inflight=1"), 1, NULL);
	expect(p, PT(p, "shape=16x32bx2", "num=64", "pack=1", "warpgroups=4", "op=st", "inflight=1"), 0, "share columns");
	/* 32 and 64 registers: deeper sets on the 256-thread kernel of 1-2
	 * warpgroups, one set on the 512-thread kernel of 3-4 */
	expect(p, PT(p, "shape=32x32b", "num=32", "warpgroups=1", "op=ld", "inflight=4"), 1, NULL);
	expect(p, PT(p, "shape=32x32b", "num=32", "warpgroups=2", "op=st", "inflight=4"), 1, NULL);
	expect(p, PT(p, "shape=32x32b", "num=32", "warpgroups=4", "op=ld", "inflight=2"), 0, "256-thread kernel holds more");
	expect(p, PT(p, "shape=16x256b", "num=16", "warpgroups=2", "op=ld", "inflight=2"), 1, NULL);
	expect(p, PT(p, "shape=16x256b", "num=16", "warpgroups=2", "op=ld", "inflight=4"), 0, "holds 2");
	expect(p, PT(p, "shape=32x32b", "num=128", "warpgroups=1", "op=ld", "inflight=2"), 0, "holds 1");
	/* sets beyond the first never share columns: 2 x 4 x 128 columns do not fit */
	expect(p, PT(p, "shape=16x32bx2", "num=32", "pack=1", "warpgroups=2", "op=ld", "inflight=4"), 0,
	       "never share columns");
	expect(p, PT(p, "shape=16x32bx2", "num=32", "pack=1", "warpgroups=2", "op=ld", "inflight=2"), 1, NULL);
	expect(p, PT(p, "shape=16x32bx2", "num=32", "pack=1", "warpgroups=2", "op=st", "inflight=0"), 1, NULL);

	p = get("tc_alloc");
	expect(p, PT(p, "ncols=512", "ctas_per_sm=8"), 1, NULL);
	expect(p, PT(p, "ncols=48"), 0, "power of two");
	expect(p, PT(p, "ncols=1024"), 0, "512");
	expect(p, PT(p, "ncols=32", "ctas_per_sm=0"), 0, "ctas_per_sm");

	p = get("tc_commit");
	expect(p, PT(p, "form=mma", "cta_group=2", "cast=multicast"), 1, NULL);
	/* cta_group::1 multicast (mask 0b1) is legal */
	expect(p, PT(p, "form=empty", "cta_group=1", "cast=multicast"), 1, NULL);
	expect(p, PT(p, "form=empty", "cta_group=3"), 0, "cta_group");

	p = get("tc_cp");
	expect(p, PT(p, "shape=32x128b.warpx4", "fmt=b4x16_p64", "cta_group=2"), 1, NULL);
	expect(p, PT(p, "shape=128x256b", "cta_group=3"), 0, "cta_group");

	p = get("tc_layout");
	expect(p, PT(p, "layout=cg2m128", "N=64", "mask=1"), 1, NULL);
	expect(p, PT(p, "layout=cg2m256", "N=8"), 0, "8");

	p = get("tc_epilogue");
	expect(p, PT(p, "kind=f16", "N=192", "drain=cp"), 1, NULL);
	/* N=256: legal; f16 SS fills the 512 columns with its two accumulator
	 * stages exactly (no spare columns), mxf4's scale factors
	 * then leave them: the planner SKIPs that point through the `tmem` hook. */
	expect(p, PT(p, "kind=f16", "N=256"), 1, NULL);
	{
		tcp_tmem_fp_t fp;
		char why[TCP_REASON_LEN] = "";
		tcp_point_t f16 = PT(p, "kind=f16", "N=256"), mx = PT(p, "kind=mxf4", "N=256");
		assert_int_equal(p->tmem(&f16, &fp, why, sizeof(why)), 1);
		assert_int_equal(tcp_tmem_fp_check(&fp, why, sizeof(why)), 0);
		assert_int_equal(p->tmem(&mx, &fp, why, sizeof(why)), 1);
		assert_int_not_equal(tcp_tmem_fp_check(&fp, why, sizeof(why)), 0);
		if (!strstr(why, "acc1"))	/* "TMEM regions sfa and acc1 overlap (columns 256-259 ...)" */
			fail_msg("tc_epilogue mxf4 N=256: reason '%s' does not name stage 1", why);
	}
	expect(p, PT(p, "kind=mxf4", "N=128", "gap_cycles=-1"), 0, "gap_cycles");
	/* The heavy drains: every drain inside stage 1's N columns.  ld / st take
	 * whole groups of inflight x 32 columns per drain warpgroup; cp's four
	 * slots sit 32 columns apart, cps_per_batch x 8 columns each. */
	expect(p, PT(p, "kind=f16", "N=128", "drain=ld", "inflight=4"), 1, NULL);
	expect(p, PT(p, "kind=f16", "N=64", "drain=ld", "inflight=4"), 0, "N >= 128");
	expect(p, PT(p, "kind=f16", "N=128", "drain=st", "inflight=2", "drain_wgs=2"), 1, NULL);
	expect(p, PT(p, "kind=f16", "N=192", "drain=ld", "inflight=4", "drain_wgs=2"), 0, "N >= 256");
	expect(p, PT(p, "kind=f16", "N=192", "drain=st", "inflight=4", "drain_wgs=2"), 0, "N >= 256");
	expect(p, PT(p, "kind=f16", "N=256", "drain=ld", "inflight=4", "drain_wgs=2"), 1, NULL);
	expect(p, PT(p, "kind=f16", "N=128", "drain=cp", "cps_per_batch=4"), 1, NULL);
	expect(p, PT(p, "kind=f16", "N=112", "drain=cp", "cps_per_batch=2"), 1, NULL);
	expect(p, PT(p, "kind=f16", "N=112", "drain=cp", "cps_per_batch=4"), 0, "columns up to 128");
	expect(p, PT(p, "kind=f16", "N=64", "drain=cp"), 0, "columns up to 104");
	/* only the values the kernel has; an axis that does not shape the drain
	 * stays at its default (no second name for one measurement) */
	expect(p, PT(p, "kind=f16", "N=128", "drain=ld", "inflight=3"), 0, "inflight");
	expect(p, PT(p, "kind=f16", "N=128", "drain=ld", "drain_wgs=3"), 0, "drain_wgs");
	expect(p, PT(p, "kind=f16", "N=128", "drain=cp", "cps_per_batch=3"), 0, "cps_per_batch");
	expect(p, PT(p, "kind=f16", "N=128", "drain=none", "inflight=4"), 0, "drain=ld/st only");
	expect(p, PT(p, "kind=f16", "N=128", "drain=cp", "drain_wgs=2"), 0, "drain=ld/st only");
	expect(p, PT(p, "kind=f16", "N=128", "drain=ld", "cps_per_batch=2"), 0, "drain=cp only");
	expect(p, PT(p, "kind=f16", "N=128", "drain=none", "cps_per_batch=4"), 0, "drain=cp only");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mma_points),
		cmocka_unit_test(test_axes_change_instance),
		cmocka_unit_test(test_other_points),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
