/*
 * test-badenv.c
 *	Host-side halves of the bad-environment cases that tests/badenv-test.sh
 *	cannot reach on a machine without a GPU:
 *	  - a GPU of an unsupported architecture: every GPU probe of the registry
 *	    is runnable on exactly the archs it was built for (sm_90, sm_100),
 *	    so on any other cc the plan has nothing to run and `tcprobe run`
 *	    exits 4 (TCP_EXIT_NO_ARCH);
 *	  - the exit statuses of a results-directory write error, by errno
 *	    (full: 7, otherwise not writable: 6), as `tcprobe run` maps them;
 *	  - the exit statuses are distinct.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "harness/sweep/supervisor.h"
#include "probes/common/probe.h"

/* cc values of real GPUs tcprobe has no code for (Ampere, Ada, Blackwell
 * Ultra sm_103, consumer Blackwell sm_120, Thor sm_110), plus a random one */
static void test_unsupported_arch(void **state)
{
	/* compute capabilities no probe of this build may claim: no target, or
	 * a target this build holds no cubin for (the last is random) */
	int ccs[] = { 70, 75, 80, 86, 87, 89, 101, 107, 120, 121, 0 };
	const int nccs = (int)(sizeof(ccs) / sizeof(ccs[0]));
	unsigned built = tcp_build_targets();
	int ngpu = 0;

	(void)state;
	assert_true(built & TCP_TGT_BIT(TCP_TGT_SM90A));	/* every build holds sm_90a and sm_100a */
	assert_true(built & TCP_TGT_BIT(TCP_TGT_SM100A));
	srand((unsigned)time(NULL));
	for (;;) {
		const tcp_target_info_t *t;
		ccs[nccs - 1] = 30 + rand() % 100;
		t = tcp_target_by_cc(ccs[nccs - 1]);
		if (!t || !(built & TCP_TGT_BIT(t->id)))
			break;
	}
	for (int i = 0; i < tcp_nprobes; i++) {
		const tcp_probe_t *p = tcp_probes[i];
		if (p->arch == TCP_ARCH_HOST) {
			for (int k = 0; k < nccs; k++)
				assert_true(tcp_arch_runs_on(p->arch, ccs[k]));
			continue;
		}
		ngpu++;
		for (int k = 0; k < nccs; k++)
			if (tcp_arch_runs_on(p->arch, ccs[k]) &&
			    !((p->arch & built & TCP_ARCH_PTX80) && ccs[k] >= 80)) {	/* JIT of compute_80 PTX */
				fail_msg("probe %s (%s) claims to run on sm_%d", p->name,
					 tcp_arch_name(p->arch), ccs[k]);
			}
		/* and it runs on every target of its set that the build holds */
		for (int t = 0; t < TCP_TGT_COUNT; t++)
			if (p->arch & built & TCP_TGT_BIT(t))
				assert_true(tcp_arch_runs_on(p->arch, tcp_targets[t].cc));
	}
	assert_true(ngpu > 0);
	assert_true(tcp_arch_runs_on(TCP_ARCH_SM90A, 90) && !tcp_arch_runs_on(TCP_ARCH_SM90A, 100));
	assert_true(tcp_arch_runs_on(TCP_ARCH_TCGEN05, 100) && !tcp_arch_runs_on(TCP_ARCH_TCGEN05, 90));
	assert_true(tcp_arch_runs_on(TCP_ARCH_ANY, 90) && tcp_arch_runs_on(TCP_ARCH_ANY, 100));
	assert_false(tcp_arch_runs_on(TCP_ARCH_TCGEN05, 120));	/* no tcgen05 on RTX 50 / DGX Spark */
}

/* Exit 4's wording: why a probe cannot run, with the rebuild (CUDA 12.8-style build). */
static void test_why_not(void **state)
{
	char buf[512];
	unsigned b128 = TCP_TGT_BIT(TCP_TGT_SM90A) | TCP_TGT_BIT(TCP_TGT_SM100A);
	const char *lo = "sm_103a: nvcc 12.8 does not know it (needs CUDA 12.9)";

	(void)state;
	assert_null(tcp_arch_why_not_in(TCP_ARCH_TCGEN05, 100, b128, lo, buf, sizeof(buf)));
	assert_non_null(tcp_arch_why_not_in(TCP_ARCH_TCGEN05, 103, b128, lo, buf, sizeof(buf)));
	assert_string_equal(buf, "this build holds no sm_103a cubin (it holds sm_90a, sm_100a; left out: sm_103a: nvcc 12.8 "
				 "does not know it (needs CUDA 12.9)); rebuild with CUDA 12.9 or newer: make "
				 "ARCHS=sm_103a (or plain make)");
	assert_non_null(tcp_arch_why_not_in(TCP_ARCH_SM90A, 100, b128, "", buf, sizeof(buf)));
	assert_string_equal(buf, "probe built for sm_90a only, not sm_100a");
	assert_non_null(tcp_arch_why_not_in(TCP_ARCH_TCGEN05, 107, b128, "", buf, sizeof(buf)));
	assert_non_null(strstr(buf, "tcprobe knows no target of compute capability 10.7 (this build holds sm_90a, sm_100a;"));
	assert_non_null(strstr(buf, "it needs an sm_107a target in model/arch.c and the Makefile"));
}

static void test_io_exit(void **state)
{
	(void)state;
	assert_int_equal(tcp_io_exit(ENOSPC), TCP_EXIT_RESULTS_FULL);
	assert_int_equal(tcp_io_exit(EDQUOT), TCP_EXIT_RESULTS_FULL);
	assert_int_equal(tcp_io_exit(EFBIG), TCP_EXIT_RESULTS_FULL);
	assert_int_equal(tcp_io_exit(EROFS), TCP_EXIT_RESULTS_RO);
	assert_int_equal(tcp_io_exit(EACCES), TCP_EXIT_RESULTS_RO);
	assert_int_equal(tcp_io_exit(EPERM), TCP_EXIT_RESULTS_RO);
	assert_int_equal(tcp_io_exit(ENOTDIR), TCP_EXIT_RESULTS_RO);
}

static void test_distinct_codes(void **state)
{
	const int codes[] = { TCP_EXIT_OK, TCP_EXIT_POINTS, TCP_EXIT_USAGE, TCP_EXIT_NO_GPU,
			      TCP_EXIT_NO_ARCH, TCP_EXIT_DRIVER, TCP_EXIT_RESULTS_RO,
			      TCP_EXIT_RESULTS_FULL, TCP_EXIT_NO_TOOL, TCP_EXIT_INCOMPLETE,
			      TCP_EXIT_BUSY, TCP_EXIT_INTERRUPTED };
	const size_t n = sizeof(codes) / sizeof(codes[0]);

	(void)state;
	for (size_t i = 0; i < n; i++) {
		assert_true(codes[i] >= 0 && codes[i] < 256);
		for (size_t j = 0; j < i; j++)
			assert_int_not_equal(codes[i], codes[j]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unsupported_arch),
		cmocka_unit_test(test_why_not),
		cmocka_unit_test(test_io_exit),
		cmocka_unit_test(test_distinct_codes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
