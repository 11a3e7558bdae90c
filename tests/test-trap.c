/*
 * test-trap.c
 *	The host half of the trap protocol (probes/common/trap.cuh, defect 16.7):
 *	after a launch the point's status comes from the status word in mapped
 *	host memory, read even when the launch failed because the kernel
 *	trapped.  A recorded timeout must read TIMEOUT naming the wait and the
 *	trap, never FAILED "unspecified launch failure"; a bad TMEM address
 *	INVALID with the address; a CUDA error with a clear word FAILED.  The
 *	device half (the store, the system fence, the trap) is exercised on a GPU
 *	by probe trap_check (scripts/device/trap-check.sh).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "probes/common/trap.cuh"

static const char *const sites[] = { "planted wait", "peer ack" };

static void test_timeout_after_trap_is_timeout(void **st)
{
	(void)st;
	char why[TCP_REASON_LEN];
	uint64_t w = tcp_tc_status_pack(TCP_TC_MBAR_TIMEOUT, 1, 3, 20000123ull);
	/* the launch failed: that is the trap, and the row names the wait */
	assert_int_equal(tcp_trap_verdict(w, "unspecified launch failure", sites, 2, why, sizeof(why)), TCP_TIMEOUT);
	assert_non_null(strstr(why, "mbarrier wait timed out at peer ack (site 1), CTA 3, after 20000123 ns"));
	assert_non_null(strstr(why, "kernel stopped by trap (unspecified launch failure)"));
	assert_null(strchr(why, '\n'));
	/* the same word without a launch error (a probe that records and goes on) */
	assert_int_equal(tcp_trap_verdict(w, NULL, sites, 2, why, sizeof(why)), TCP_TIMEOUT);
	assert_null(strstr(why, "trap"));
	/* site codes the probe does not name still decode */
	w = tcp_tc_status_pack(TCP_TC_MBAR_TIMEOUT, 7, 0, 1);
	assert_int_equal(tcp_trap_verdict(w, "unspecified launch failure", sites, 2, why, sizeof(why)), TCP_TIMEOUT);
	assert_non_null(strstr(why, "at ? (site 7)"));
	assert_int_equal(tcp_tc_status_site(w), 7);
}

static void test_bad_address_is_invalid(void **st)
{
	(void)st;
	char why[TCP_REASON_LEN];
	uint64_t w = tcp_tc_status_pack(TCP_TC_BAD_TADDR, 0, 12, 0x10020ull);
	assert_int_equal(tcp_trap_verdict(w, "unspecified launch failure", sites, 1, why, sizeof(why)), TCP_INVALID);
	assert_non_null(strstr(why, "tcgen05.alloc returned a bad address at planted wait (site 0), CTA 12: 0x00010020"));
}

/* A kernel that refuses its launch arguments traps with the value: FAILED (the
 * host computed them, so it is the harness's bug), never TIMEOUT. */
static void test_bad_args_is_failed(void **st)
{
	(void)st;
	char why[TCP_REASON_LEN];
	uint64_t w = tcp_tc_status_pack(TCP_TC_BAD_ARGS, 0, 3, 7);
	assert_int_equal(tcp_trap_verdict(w, "unspecified launch failure", sites, 1, why, sizeof(why)), TCP_FAILED);
	assert_non_null(strstr(why, "kernel argument outside the host's range at planted wait (site 0), CTA 3: 0x00000007"));
}

static void test_cuda_error_without_word_is_failed(void **st)
{
	(void)st;
	char why[TCP_REASON_LEN];
	assert_int_equal(tcp_trap_verdict(0, "unspecified launch failure", sites, 2, why, sizeof(why)), TCP_FAILED);
	assert_string_equal(why, "unspecified launch failure");
	why[0] = 'x';
	assert_int_equal(tcp_trap_verdict(0, NULL, sites, 2, why, sizeof(why)), TCP_OK);
}

/* The word's fields never spill into each other, and a long reason is cut, not overrun. */
static void test_word_fields_and_short_buffers(void **st)
{
	(void)st;
	char small[24];
	volatile size_t n = sizeof(small);	/* a run-time length: the cut is what is tested */
	uint64_t w = tcp_tc_status_pack(TCP_TC_MBAR_TIMEOUT, 0x1ff, 1u << 20, 1ull << 40);
	assert_int_equal(w & 0xff, TCP_TC_MBAR_TIMEOUT);
	assert_int_equal(tcp_tc_status_site(w), 0xff);
	assert_int_equal((w >> 16) & 0xffff, 0xffff);
	assert_int_equal(w >> 32, 0xffffffffull);
	memset(small, 'z', sizeof(small));
	assert_int_equal(tcp_trap_verdict(w, "unspecified launch failure", sites, 2, small, n), TCP_TIMEOUT);
	assert_int_equal(strlen(small), sizeof(small) - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timeout_after_trap_is_timeout),
		cmocka_unit_test(test_bad_address_is_invalid),
		cmocka_unit_test(test_bad_args_is_failed),
		cmocka_unit_test(test_cuda_error_without_word_is_failed),
		cmocka_unit_test(test_word_fields_and_short_buffers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
