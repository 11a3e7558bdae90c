/*
 * test-tc-legal.c
 *	The Blackwell probes' legal() hooks, through the registry as the sweep
 *	engine calls them: legal points pass; every illegal point is refused
 *	with a one-line reason that names the rule (model/legal.h or the
 *	probe's own limits), so a sweep SKIPs it instead of launching it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "probes/common/probe.h"

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
	assert_int_equal(p->arch, TCP_ARCH_SM100A);
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
		expect(p, PT(p, "kind=f16", "cta_group=2", "M=128", "N=64", "ab=ts"), 0, "ts");
		expect(p, PT(p, "kind=f16", "block=16", "M=128", "N=64"), 0, "block");
		expect(p, PT(p, "kind=mxf4", "block=8", "M=128", "N=64"), 0, "block");
	}
	const tcp_probe_t *ii = get("tc_mma_ii");
	expect(ii, PT(ii, "kind=f16", "M=128", "N=64", "depth=0"), 1, NULL);
	expect(ii, PT(ii, "kind=f16", "M=128", "N=64", "depth=2000"), 0, "depth");
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

	p = get("tc_alloc");
	expect(p, PT(p, "ncols=512", "ctas_per_sm=8"), 1, NULL);
	expect(p, PT(p, "ncols=48"), 0, "power of two");
	expect(p, PT(p, "ncols=1024"), 0, "512");
	expect(p, PT(p, "ncols=32", "ctas_per_sm=0"), 0, "ctas_per_sm");

	p = get("tc_commit");
	expect(p, PT(p, "form=mma", "cta_group=2", "cast=multicast"), 1, NULL);
	expect(p, PT(p, "form=empty", "cta_group=1", "cast=multicast"), 0, "cta_group::2");

	p = get("tc_cp");
	expect(p, PT(p, "shape=32x128b.warpx4", "fmt=b4x16_p64", "cta_group=2"), 1, NULL);
	expect(p, PT(p, "shape=128x256b", "cta_group=3"), 0, "cta_group");

	p = get("tc_layout");
	expect(p, PT(p, "layout=cg2m128", "N=64", "mask=1"), 1, NULL);
	expect(p, PT(p, "layout=cg2m256", "N=8"), 0, "8");

	p = get("tc_epilogue");
	expect(p, PT(p, "kind=f16", "N=192", "drain=cp"), 1, NULL);
	expect(p, PT(p, "kind=f16", "N=256"), 0, "512");
	expect(p, PT(p, "kind=mxf4", "N=128", "gap_cycles=-1"), 0, "gap_cycles");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mma_points),
		cmocka_unit_test(test_other_points),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
