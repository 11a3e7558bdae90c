/*
 * test-contention.c
 *	harness/measure/contention.c (is other work on the GPU?) and the NVML
 *	queries under it (harness/measure/nvml.c): the rules on fresh random
 *	process sets and samples (our own worker recognised by the pid that
 *	appeared with its context, never by getpid(); others counted; samples
 *	of a process that came and went; the verdict from any witness), then
 *	the whole path through tests/fake-nvml.c, a stand-in libnvidia-ml built
 *	here and loaded with TCP_NVML_LIB: versioned structs read back intact,
 *	a list longer than the first buffer, a refused list, a list that hides
 *	even our own worker, the instant power field and its fallback.
 *	The real H200 run beside a second process: tests/h200-trust-check.sh.
 */
#include <math.h>
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

#include "harness/measure/contention.h"
#include "harness/measure/nvml.h"
#include "test-util.h"

static char dir[256], script[300];

/* A fresh random set of n distinct pids (never 0). */
static void random_pids(unsigned int *v, int n)
{
	for (int i = 0; i < n; i++) {
		unsigned int p;
		int dup;
		do {
			p = 1 + (unsigned int)(next_u64() % 4000000);
			dup = 0;
			for (int k = 0; k < i; k++)
				dup |= v[k] == p;
		} while (dup);
		v[i] = p;
	}
}

static void shuffle(unsigned int *v, int n)
{
	for (int i = n - 1; i > 0; i--) {
		int j = (int)(next_u64() % (uint64_t)(i + 1));
		unsigned int t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
}

static void test_self(void **st)
{
	unsigned int before[41], after[41];
	(void)st;
	for (int trial = 0; trial < 200; trial++) {
		int nb = (int)(next_u64() % 40);
		random_pids(after, nb + 1);
		memcpy(before, after, sizeof(unsigned int) * (size_t)nb);	/* after = before + one */
		unsigned int mine = after[nb];
		shuffle(after, nb + 1);
		shuffle(before, nb);
		assert_int_equal(tcp_busy_self(before, nb, after, nb + 1), (long)mine);
		/* one that left meanwhile changes nothing */
		before[nb] = 4000001 + (unsigned int)(next_u64() % 99);
		assert_int_equal(tcp_busy_self(before, nb + 1, after, nb + 1), (long)mine);
	}
	/* two newcomers: which one is ours is unknown */
	random_pids(after, 5);
	assert_int_equal(tcp_busy_self(after, 3, after, 5), -1);
	/* no list before: only a lone pid can be ours */
	assert_int_equal(tcp_busy_self(NULL, -1, after, 1), (long)after[0]);
	assert_int_equal(tcp_busy_self(NULL, -1, after, 2), -1);
	assert_int_equal(tcp_busy_self(after, 2, after, 2), -1);
}

static void test_others(void **st)
{
	unsigned int p[50];
	(void)st;
	for (int trial = 0; trial < 200; trial++) {
		int n = 1 + (int)(next_u64() % 50);
		random_pids(p, n);
		long self = (long)p[next_u64() % (uint64_t)n];
		assert_int_equal(tcp_busy_others(p, n, self), n - 1);
		/* self not listed (it restarted): every listed one is another */
		assert_int_equal(tcp_busy_others(p, n, 4000001 + (long)(next_u64() % 9)), n);
		/* self unknown: one context is ours */
		assert_int_equal(tcp_busy_others(p, n, -1), n - 1);
	}
	assert_int_equal(tcp_busy_others(p, 0, -1), 0);
}

static void test_util_others(void **st)
{
	tcp_nvml_util_t s[100];
	unsigned int pid[6];
	(void)st;
	for (int trial = 0; trial < 200; trial++) {
		unsigned long long since = 1700000000000000ull + next_u64() % 1000000000ull;
		int n = (int)(next_u64() % 100), want = 0, active[6] = { 0 };
		random_pids(pid, 6);
		long self = (long)pid[0];
		for (int i = 0; i < n; i++) {
			int k = (int)(next_u64() % 6);
			int in = next_u64() % 2, busy = next_u64() % 2;
			s[i].pid = pid[k];
			s[i].timestamp_us = in ? since + 1 + next_u64() % 5000000 : since - next_u64() % 5000000;
			s[i].sm_util = busy ? 1 + (unsigned int)(next_u64() % 100) : 0;
			if (in && busy)
				active[k] = 1;
		}
		for (int k = 1; k < 6; k++)
			want += active[k];
		assert_int_equal(tcp_busy_util_others(s, n, self, since), want);
		int all = want + active[0];
		assert_int_equal(tcp_busy_util_others(s, n, -1, since), all > 1 ? all - 1 : 0);
	}
}

static void test_decide(void **st)
{
	char why[256];
	(void)st;
	assert_int_equal(tcp_busy_decide(-1, -1, NAN, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no witness"));
	assert_int_equal(tcp_busy_decide(0, 0, 9.5, why, sizeof(why)), 0);
	assert_string_equal(why, "");
	assert_int_equal(tcp_busy_decide(-1, -1, 12, why, sizeof(why)), 0);	/* timing alone */
	assert_int_equal(tcp_busy_decide(2, -1, NAN, why, sizeof(why)), 1);
	assert_string_equal(why, "2 other compute processes (NVML)");
	assert_int_equal(tcp_busy_decide(0, 1, 10, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "1 other process with SM utilization"));
	assert_int_equal(tcp_busy_decide(0, 0, 2410, why, sizeof(why)), 1);
	assert_string_equal(why, "launch round trip 2410 us > 250 us");
	assert_int_equal(tcp_busy_decide(1, 1, 2410, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "1 other compute process (NVML); 1 other process with SM utilization "
				    "in the window (NVML samples); launch round trip 2410 us"));
	/* the threshold itself is idle */
	assert_int_equal(tcp_busy_decide(0, 0, TCP_BUSY_RTT_US, why, sizeof(why)), 0);
}

/* ---- through the fake libnvidia-ml ---------------------------------------- */

static unsigned long long wall_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (unsigned long long)ts.tv_sec * 1000000ull + (unsigned long long)ts.tv_nsec / 1000ull;
}

static void gpu(const char *fmt, ...)
{
	va_list ap;
	FILE *f = fopen(script, "w");
	assert_non_null(f);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

static void test_fake_nvml(void **st)
{
	char why[256], lib[300], cmd[800];
	unsigned int pids[TCP_BUSY_MAX_PIDS], p[6];
	tcp_busy_t b;
	tcp_busy_point_t pt;
	int mps;
	(void)st;

	snprintf(lib, sizeof(lib), "%s/libnvidia-ml.so.1", dir);
	snprintf(cmd, sizeof(cmd), "cc -shared -fPIC -O1 -o '%s' tests/fake-nvml.c", lib);
	assert_int_equal(system(cmd), 0);
	setenv("TCP_NVML_LIB", lib, 1);
	setenv("FAKE_NVML_SCRIPT", script, 1);
	tcp_nvml_close();
	assert_int_equal(tcp_nvml_open(why, sizeof(why)), 0);

	/* the versioned struct comes back intact, MPS clients included, distinct */
	random_pids(p, 6);
	gpu("procs %u %u %u\nmps %u %u\n", p[0], p[1], p[2], p[3], p[1]);
	assert_int_equal(tcp_nvml_compute_pids(0, pids, TCP_BUSY_MAX_PIDS, &mps, why, sizeof(why)), 4);
	assert_int_equal(mps, 2);
	assert_int_equal(pids[0], p[0]);
	assert_int_equal(pids[3], p[3]);
	/* longer than the first buffer (64): asked again with the size NVML gave */
	{
		FILE *f = fopen(script, "w");
		fprintf(f, "procs");
		for (int i = 0; i < 150; i++)
			fprintf(f, " %d", 1000 + i);
		fprintf(f, "\n");
		fclose(f);
	}
	assert_int_equal(tcp_nvml_compute_pids(0, pids, TCP_BUSY_MAX_PIDS, NULL, why, sizeof(why)), 150);
	assert_int_equal(pids[149], 1149);

	/* our worker: the pid that appeared with its context (host pids: not getpid()) */
	tcp_busy_init(&b, 0);
	gpu("procs %u %u\n", p[0], p[1]);
	tcp_busy_spawn_begin(&b);
	gpu("procs %u %u %u\n", p[1], p[4], p[0]);
	tcp_busy_spawn_end(&b, -1);
	assert_int_equal(b.self, (long)p[4]);
	/* a worker that says who it is wins */
	tcp_busy_spawn_end(&b, (long)p[5]);
	assert_int_equal(b.self, (long)p[5]);
	b.self = (long)p[4];

	/* alone: idle by every witness */
	gpu("procs %u\nutil %u 97 %llu\n", p[4], p[4], wall_us() + 500000);
	tcp_busy_point_begin(&b, &pt, 0);
	tcp_busy_point_end(&b, &pt, 9.0, 11.0);
	assert_int_equal(pt.others, 0);
	assert_int_equal(pt.util_others, 0);
	assert_int_equal(pt.contended, 0);
	assert_true(pt.rtt_us == 11.0);
	/* another context at the start or end */
	gpu("procs %u %u\n", p[4], p[2]);
	tcp_busy_point_begin(&b, &pt, 0);
	gpu("procs %u\n", p[4]);
	tcp_busy_point_end(&b, &pt, 9.0, 9.0);
	assert_int_equal(pt.contended, 1);
	assert_int_equal(pt.others, 1);
	assert_int_equal(b.nother, 1);
	assert_int_equal(b.other[0], p[2]);
	/* a process that came and went inside the window: only its samples tell */
	tcp_busy_point_begin(&b, &pt, 0);
	gpu("procs %u\nutil %u 40 %llu\nutil %u 60 %llu\nutil %u 90 %llu\n", p[4], p[3],
	    wall_us() + 1000, p[4], wall_us() + 2000, p[1], pt.t0_us - 5000000);
	tcp_busy_point_poll(&b, &pt, 1e9);
	tcp_busy_point_end(&b, &pt, 9.0, 9.0);
	assert_int_equal(pt.others, 0);
	assert_int_equal(pt.util_others, 1);	/* p[1]'s sample is older than the window */
	assert_int_equal(pt.contended, 1);
	/* no NVML witness at all that says so: the launch round trip does */
	tcp_busy_point_begin(&b, &pt, 0);
	gpu("procs %u\n", p[4]);
	tcp_busy_point_end(&b, &pt, 12.0, 2410.0);
	assert_int_equal(pt.contended, 1);
	assert_non_null(strstr(pt.why, "launch round trip 2410 us"));
	assert_int_equal(b.points, 4);
	assert_int_equal(b.contended, 3);

	/* a refused list: that witness is NA with the reason, the others still count */
	gpu("deny procs\n");
	tcp_busy_point_begin(&b, &pt, 0);
	tcp_busy_point_end(&b, &pt, 10.0, 10.0);
	assert_int_equal(pt.others, -1);
	assert_int_equal(pt.contended, 0);
	assert_non_null(strstr(b.procs_why, "Insufficient Permissions"));
	/* a list without even our worker: NVML cannot see processes here */
	tcp_busy_init(&b, 0);
	gpu("\n");
	tcp_busy_point_begin(&b, &pt, 0);
	tcp_busy_point_end(&b, &pt, NAN, NAN);
	assert_int_equal(pt.others, -1);
	assert_int_equal(pt.contended, 0);	/* the (empty) samples were read */
	assert_non_null(strstr(b.procs_why, "not even this run's worker"));
	/* run start: the lone context is ours, a busy GPU says so */
	tcp_busy_init(&b, 0);
	gpu("procs %u\n", p[4]);
	tcp_busy_now(&b, 1.0, 8.0, &pt);
	assert_int_equal(pt.contended, 0);
	gpu("procs %u %u\nutil %u 100 %llu\n", p[4], p[0], p[0], wall_us() - 200000);
	tcp_busy_now(&b, 1.0, 8.0, &pt);
	assert_int_equal(pt.contended, 1);
	assert_int_equal(pt.others, 1);
	assert_int_equal(pt.util_others, 1);

	/* power: the instant field where there is one, else the 1 s average */
	double w;
	gpu("power_instant 612345\npower_average 577000\n");
	assert_int_equal(tcp_nvml_power_now(0, &w), TCP_POWER_INSTANT);
	assert_true(fabs(w - 612.345) < 1e-9);
	gpu("power_average 577000\n");
	tcp_nvml_close();	/* a driver without the field: found once, then not asked again */
	assert_int_equal(tcp_nvml_open(why, sizeof(why)), 0);
	assert_int_equal(tcp_nvml_power_now(0, &w), TCP_POWER_AVERAGE);
	assert_true(fabs(w - 577.0) < 1e-9);
	assert_non_null(strstr(tcp_nvml_power_source_name(TCP_POWER_INSTANT), "NVML_FI_DEV_POWER_INSTANT"));
	gpu("compute_mode 3\n");
	assert_int_equal(tcp_nvml_compute_mode(0), 3);
	tcp_nvml_close();
	unsetenv("TCP_NVML_LIB");
}

static int setup(void **st)
{
	(void)st;
	if (test_mkdtemp(dir, sizeof(dir), "contention"))
		return -1;
	snprintf(script, sizeof(script), "%s/gpu.txt", dir);
	return 0;
}

static int teardown(void **st)
{
	(void)st;
	return test_rm_tree(dir);
}

int main(void)
{
	test_seed("test-contention");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_self),
		cmocka_unit_test(test_others),
		cmocka_unit_test(test_util_others),
		cmocka_unit_test(test_decide),
		cmocka_unit_test(test_fake_nvml),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
