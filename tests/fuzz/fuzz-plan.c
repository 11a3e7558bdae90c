/*
 * fuzz-plan.c
 *	libFuzzer target: the plan.txt reader (harness/sweep/plan.c), the file
 *	`tcprobe run --resume DIR` trusts to rebuild a half-finished sweep.
 *	The input is the bytes of a plan.txt.
 *	Properties beyond "no crash, no leak, no UB":
 *	  - a rejected plan says why in one line;
 *	  - an accepted plan written back and read again is the same plan
 *	    (read o write o read = read), options included.
 *	Seeds: tests/fuzz/corpus/plan/ (plans of the shipped sweeps, edited).
 */
#include <stdint.h>

#include "harness/sweep/plan.h"
#include "tests/fuzz/fuzz-util.h"

#define FUZZ_MAX_INPUT	16384

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char in[512], out[512], err[1024];
	tcp_plan_t pl, back;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	fuzz_path(in, sizeof(in), "plan.txt");
	fuzz_path(out, sizeof(out), "plan2.txt");
	fuzz_write(in, data, size);
	err[0] = '\0';
	if (tcp_plan_read(&pl, in, tcp_probes, tcp_nprobes, err, sizeof(err)) != 0) {
		fuzz_check_msg(err);
		return 0;
	}
	FUZZ_CHECK(tcp_plan_write(&pl, out, err, sizeof(err)) == 0, "plan write: %s", err);
	FUZZ_CHECK(tcp_plan_read(&back, out, tcp_probes, tcp_nprobes, err, sizeof(err)) == 0,
		   "an accepted plan, written back, is rejected: %s", err);
	FUZZ_CHECK(tcp_plan_compare(&back, &pl, err, sizeof(err)) == 0, "plan changed: %s", err);
	FUZZ_CHECK(back.nopt == pl.nopt, "options: %d became %d", pl.nopt, back.nopt);
	for (int i = 0; i < pl.nopt; i++) {
		const char *v = tcp_plan_option(&back, pl.opt_key[i]);
		FUZZ_CHECK(v && strcmp(v, pl.opt_val[i]) == 0, "option %s=[%s] became [%s]",
			   pl.opt_key[i], pl.opt_val[i], v ? v : "(absent)");
	}
	tcp_plan_free(&back);
	tcp_plan_free(&pl);
	return 0;
}
