/*
 * test-plan.c
 *	Plan building: cartesian counts and order, defaults, precedence of
 *	reps/warmup/timeout, legality -> SKIPPED with the probe's reason,
 *	duplicate points across groups, plan.txt round trip and mismatch
 *	detection, canonical keys.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness/sweep/plan.h"

static const char *const kinds[] = { "f16", "bf16", "tf32", NULL };
static const tcp_axis_t axes[] = {
	{ "kind", "operand kind", kinds, "f16,bf16" },
	{ "N", "tile N", NULL, "[8:32:8]" },
	{ "wg", "warpgroups", NULL, "1" },
};
static const tcp_metric_t metrics[] = { { "cycles", "cycles", 0, "fake", TCP_ROLE_AUTO, 0, 0 } };

/* tf32 needs N a multiple of 16 (a made-up rule with a precise reason). */
static int fake_legal(const tcp_point_t *p, char *reason, size_t len)
{
	if (p->v[0] == 2 && p->v[1] % 16) {
		snprintf(reason, len, "kind tf32 needs N a multiple of 16; got %lld", (long long)p->v[1]);
		return 0;
	}
	return 1;
}

static const tcp_probe_t fake = {
	.name = "fake", .family = "test", .help = "fake", .arch = TCP_ARCH_HOST,
	.axes = axes, .naxes = 3, .metrics = metrics, .nmetrics = 1, .legal = fake_legal,
};
static const tcp_probe_t *const probes[] = { &fake };

static void spec_of(tcp_spec_t *s, const char *text)
{
	char err[TCP_SPEC_ERRLEN];
	tcp_spec_init(s);
	if (tcp_spec_parse_string(s, text, "t.sweep", probes, 1, err, sizeof(err)))
		fail_msg("%s", err);
}

static void test_cartesian_and_order(void **state)
{
	(void)state;
	tcp_spec_t s;
	tcp_plan_t pl;
	char err[512];
	spec_of(&s, "[fake]\nkind = f16,bf16,tf32\nN = 8:64:8\nwg = 1,2\n");
	assert_int_equal(tcp_plan_build(&pl, &s, -1, -1, -1, err, sizeof(err)), 0);
	assert_int_equal(pl.n, 3 * 8 * 2);
	/* last axis fastest */
	assert_string_equal(pl.p[0].key, "kind=f16;N=8;wg=1");
	assert_string_equal(pl.p[1].key, "kind=f16;N=8;wg=2");
	assert_string_equal(pl.p[2].key, "kind=f16;N=16;wg=1");
	assert_string_equal(pl.p[47].key, "kind=tf32;N=64;wg=2");
	/* legality: tf32 with N in 8, 24, 40, 56 -> 4 N values x 2 wg skipped */
	int sk = 0;
	for (int i = 0; i < pl.n; i++) {
		if (!pl.p[i].skipped)
			continue;
		sk++;
		assert_int_equal(pl.p[i].pt.v[0], 2);
		char want[128];
		snprintf(want, sizeof(want), "kind tf32 needs N a multiple of 16; got %lld",
			 (long long)pl.p[i].pt.v[1]);
		assert_string_equal(pl.p[i].reason, want);
	}
	assert_int_equal(sk, 8);
	assert_int_equal(pl.p[0].reps, TCP_REPS_DEFAULT);
	assert_int_equal(pl.p[0].warmup, TCP_WARMUP_DEFAULT);
	assert_true(pl.p[0].timeout == TCP_TIMEOUT_DEFAULT);
	tcp_plan_free(&pl);
	tcp_spec_free(&s);
}

/* Random axis sizes: the plan has exactly the product of the list lengths. */
static void test_random_counts(void **state)
{
	(void)state;
	unsigned seed = (unsigned)time(NULL) ^ (unsigned)getpid();
	srand(seed);
	for (int t = 0; t < 50; t++) {
		int nk = rand() % 3 + 1, nn = rand() % 40 + 1, nw = rand() % 5 + 1;
		char text[256];
		const char *kl[] = { "f16", "f16,bf16", "f16,bf16,tf32" };
		snprintf(text, sizeof(text), "[fake]\nkind = %s\nN = 16:%d:16\nwg = 1:%d\n", kl[nk - 1],
			 16 * nn, nw);
		tcp_spec_t s;
		tcp_plan_t pl;
		char err[512];
		spec_of(&s, text);
		assert_int_equal(tcp_plan_build(&pl, &s, -1, -1, -1, err, sizeof(err)), 0);
		if (pl.n != nk * nn * nw)
			fail_msg("seed %u: %s gave %d points, want %d", seed, text, pl.n, nk * nn * nw);
		for (int i = 0; i < pl.n; i++)
			assert_false(pl.p[i].skipped);	/* N multiple of 16: all legal */
		tcp_plan_free(&pl);
		tcp_spec_free(&s);
	}
}

static void test_defaults_precedence_dups(void **state)
{
	(void)state;
	tcp_spec_t s;
	tcp_plan_t pl;
	char err[512];
	spec_of(&s, "[global]\nreps = 4\ntimeout = 9\n[fake]\nwarmup = 0\n[fake]\nN = 16,48\nreps = 6\n");
	assert_int_equal(tcp_plan_build(&pl, &s, -1, -1, -1, err, sizeof(err)), 0);
	/* group 1: defaults kind f16,bf16 x N 8..32 step 8 x wg 1 = 8 points;
	 * group 2: 2 x 2 = 4, of which N=16 (2 points) duplicate group 1 */
	assert_int_equal(pl.n, 8 + 2);
	assert_int_equal(pl.duplicates, 2);
	assert_int_equal(pl.p[0].reps, 4);
	assert_int_equal(pl.p[0].warmup, 0);
	assert_true(pl.p[0].timeout == 9);
	assert_string_equal(pl.p[8].key, "kind=f16;N=48;wg=1");
	assert_int_equal(pl.p[8].reps, 6);
	assert_int_equal(pl.p[8].warmup, TCP_WARMUP_DEFAULT);
	tcp_plan_free(&pl);
	/* the command line overrides every group */
	assert_int_equal(tcp_plan_build(&pl, &s, 2, 1, 0.5, err, sizeof(err)), 0);
	for (int i = 0; i < pl.n; i++) {
		assert_int_equal(pl.p[i].reps, 2);
		assert_int_equal(pl.p[i].warmup, 1);
		assert_true(pl.p[i].timeout == 0.5);
	}
	tcp_plan_free(&pl);
	tcp_spec_free(&s);
}

static void test_plan_file_round_trip(void **state)
{
	(void)state;
	tcp_spec_t s;
	tcp_plan_t pl, back;
	char err[1024], path[] = "/tmp/test-plan-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	spec_of(&s, "[fake]\nkind = tf32,f16\nN = 8,16\nwg = 3\ntimeout = 1.25\n");
	assert_int_equal(tcp_plan_build(&pl, &s, -1, -1, -1, err, sizeof(err)), 0);
	tcp_plan_set_option(&pl, "seed", "12345");
	tcp_plan_set_option(&pl, "counters", "none");
	assert_int_equal(tcp_plan_write(&pl, path, err, sizeof(err)), 0);
	if (tcp_plan_read(&back, path, probes, 1, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(tcp_plan_compare(&back, &pl, err, sizeof(err)), 0);
	assert_string_equal(tcp_plan_option(&back, "seed"), "12345");
	assert_string_equal(tcp_plan_option(&back, "counters"), "none");
	/* an option that does not fit is refused, never truncated (found by fuzz-plan:
	 * two long keys sharing their first 31 bytes merged on read) */
	{
		char longk[64], longv[1100];
		memset(longk, 'k', sizeof(longk) - 1);
		longk[sizeof(longk) - 1] = '\0';
		memset(longv, 'v', sizeof(longv) - 1);
		longv[sizeof(longv) - 1] = '\0';
		int n0 = back.nopt;
		assert_int_equal(tcp_plan_set_option(&back, longk, "1"), -1);
		assert_int_equal(tcp_plan_set_option(&back, "counters", longv), -1);
		assert_int_equal(tcp_plan_set_option(&back, "", "1"), -1);
		assert_int_equal(tcp_plan_set_option(&back, "a=b", "1"), -1);
		assert_int_equal(tcp_plan_set_option(&back, "x", "1\n2"), -1);
		assert_int_equal(back.nopt, n0);
		assert_string_equal(tcp_plan_option(&back, "counters"), "none");
		longv[1023] = '\0';	/* 1023 characters: fits */
		assert_int_equal(tcp_plan_set_option(&back, "counters", longv), 0);
		assert_string_equal(tcp_plan_option(&back, "counters"), longv);
	}
	assert_int_equal(back.p[0].skipped, 1);	/* legality recomputed on read */
	assert_string_equal(back.p[0].reason, "kind tf32 needs N a multiple of 16; got 8");
	tcp_plan_free(&back);

	/* a different plan is caught at its first differing point */
	tcp_spec_t s2;
	spec_of(&s2, "[fake]\nkind = tf32,f16\nN = 8,24\nwg = 3\ntimeout = 1.25\n");
	assert_int_equal(tcp_plan_build(&back, &s2, -1, -1, -1, err, sizeof(err)), 0);
	assert_int_equal(tcp_plan_compare(&back, &pl, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "point 1 differs: got '1 fake kind=tf32;N=24;wg=3"));
	tcp_plan_free(&back);
	tcp_spec_free(&s2);

	/* a corrupt plan.txt is an error with path:line */
	FILE *f = fopen(path, "a");
	fprintf(f, "4\tfake\tkind=f32;N=8;wg=3\t10\t2\t30\n");
	fclose(f);
	assert_int_equal(tcp_plan_read(&back, path, probes, 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, ":8: unknown value for axis kind: got 'f32'"));
	unlink(path);
	tcp_plan_free(&pl);
	tcp_spec_free(&s);
}

static void test_keys(void **state)
{
	(void)state;
	tcp_point_t pt, back;
	char key[256], err[256];
	pt.naxes = 3;
	pt.v[0] = 1;
	pt.v[1] = 4096;
	pt.v[2] = -2;
	assert_string_equal(tcp_point_key(&fake, &pt, key, sizeof(key)), "kind=bf16;N=4096;wg=-2");
	assert_int_equal(tcp_point_parse_key(&fake, key, &back, err, sizeof(err)), 0);
	assert_int_equal(back.v[0], 1);
	assert_int_equal(back.v[1], 4096);
	assert_int_equal(back.v[2], -2);
	assert_int_equal(tcp_point_parse_key(&fake, "kind=bf16;N=4096", &back, err, sizeof(err)), -1);
	assert_int_equal(tcp_point_parse_key(&fake, "N=1;kind=bf16;wg=1", &back, err, sizeof(err)), -1);
}

static void test_dry_run_listing(void **state)
{
	(void)state;
	tcp_spec_t s;
	tcp_plan_t pl;
	char err[512], buf[4096] = "";
	spec_of(&s, "[fake]\nkind = tf32\nN = 8:32:8\n");
	assert_int_equal(tcp_plan_build(&pl, &s, -1, -1, -1, err, sizeof(err)), 0);
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");
	tcp_plan_print(&pl, f, 0);
	fclose(f);
	assert_non_null(strstr(buf, "fake"));
	assert_non_null(strstr(buf, "skipped 1 x: kind tf32 needs N a multiple of 16; got 8"));
	assert_non_null(strstr(buf, "total: 4 points, 2 to run, 2 skipped"));
	tcp_plan_free(&pl);
	tcp_spec_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cartesian_and_order),
		cmocka_unit_test(test_random_counts),
		cmocka_unit_test(test_defaults_precedence_dups),
		cmocka_unit_test(test_plan_file_round_trip),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_dry_run_listing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
