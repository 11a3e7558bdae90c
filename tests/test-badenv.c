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
#include <time.h>

#include <cmocka.h>

#include "harness/sweep/supervisor.h"
#include "probes/common/probe.h"

/* cc values of real GPUs tcprobe has no code for (Ampere, Ada, Blackwell
 * Ultra sm_103, consumer Blackwell sm_120, Thor sm_110), plus a random one */
static void test_unsupported_arch(void **state)
{
	int ccs[] = { 70, 75, 80, 86, 87, 89, 101, 103, 110, 120, 121, 0 };
	int ngpu = 0;

	(void)state;
	srand((unsigned)time(NULL));
	do
		ccs[11] = 30 + rand() % 100;
	while (ccs[11] == 90 || ccs[11] == 100);
	for (int i = 0; i < tcp_nprobes; i++) {
		const tcp_probe_t *p = tcp_probes[i];
		if (p->arch == TCP_ARCH_HOST) {
			for (size_t k = 0; k < sizeof(ccs) / sizeof(ccs[0]); k++)
				assert_true(tcp_arch_runs_on(p->arch, ccs[k]));
			continue;
		}
		ngpu++;
		if (p->arch == TCP_ARCH_WARP) {
			/* compute_80 PTX: exactly the GPUs from sm_80 on, through the JIT */
			for (size_t k = 0; k < sizeof(ccs) / sizeof(ccs[0]); k++)
				assert_int_equal(tcp_arch_runs_on(p->arch, ccs[k]), ccs[k] >= 80);
			assert_true(tcp_arch_runs_on(p->arch, 90) && tcp_arch_runs_on(p->arch, 100));
			continue;
		}
		for (size_t k = 0; k < sizeof(ccs) / sizeof(ccs[0]); k++)
			if (tcp_arch_runs_on(p->arch, ccs[k])) {
				fail_msg("probe %s (%s) claims to run on sm_%d", p->name,
					 tcp_arch_name(p->arch), ccs[k]);
			}
		/* and it runs where it was built for */
		assert_true(tcp_arch_runs_on(p->arch, 90) || tcp_arch_runs_on(p->arch, 100));
	}
	assert_true(ngpu > 0);
	assert_true(tcp_arch_runs_on(TCP_ARCH_SM90A, 90) && !tcp_arch_runs_on(TCP_ARCH_SM90A, 100));
	assert_true(tcp_arch_runs_on(TCP_ARCH_SM100A, 100) && !tcp_arch_runs_on(TCP_ARCH_SM100A, 90));
	assert_true(tcp_arch_runs_on(TCP_ARCH_ANY, 90) && tcp_arch_runs_on(TCP_ARCH_ANY, 100));
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
		cmocka_unit_test(test_io_exit),
		cmocka_unit_test(test_distinct_codes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
