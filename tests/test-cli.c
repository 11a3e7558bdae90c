/*
 * test-cli.c
 *	The built binary (build/tcprobe, or $TCPROBE) against bad command lines
 *	and sweep files: exit status 2 and exactly one line on stderr naming
 *	the bad value; --help everywhere; --dry-run without a GPU; and no GPU
 *	(CUDA_VISIBLE_DEVICES="") is one line and exit 3.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "test-exec.h"

/* Exit 2, one stderr line starting "tcprobe: " and containing `needle`. */
/* Exit 2, one line "tcprobe: ..." holding needle and "expected"; env: one
 * VAR=value for the command (NULL none). */
#define BAD_ENV(env, needle, ...)                                                           \
	do {                                                                                 \
		struct out *o_ = calloc(1, sizeof(*o_));                                     \
		run(o_, env, __VA_ARGS__, (char *)NULL);                                     \
		if (o_->status != 2 || lines(o_->err) != 1 ||                                \
		    strncmp(o_->err, "tcprobe: ", 9) != 0 || !strstr(o_->err, needle) ||     \
		    !strstr(o_->err, "expected"))                                            \
			fail_msg("line %d: exit %d, stderr '%s' (want exit 2, one line with '%s')", \
				 __LINE__, o_->status, o_->err, needle);                     \
		free(o_);                                                                    \
	} while (0)
#define BAD(needle, ...) BAD_ENV(NULL, needle, __VA_ARGS__)

static char spec_path[64];

static void write_spec(const char *text)
{
	FILE *f = fopen(spec_path, "w");
	fputs(text, f);
	fclose(f);
}

static void test_bad_command_lines(void **state)
{
	(void)state;
	char bad_spec[128];
	struct out *o = calloc(1, sizeof(*o));
	run(o, NULL, (char *)NULL);	/* argv = { bin } only */
	assert_int_equal(o->status, 2);
	assert_int_equal(lines(o->err), 1);
	assert_non_null(strstr(o->err, "tcprobe: no command: got nothing, expected one of list, "));
	free(o);
	BAD("unknown command: got 'frobnicate'", "frobnicate");
	BAD("help: unknown command: got 'nope'", "help", "nope");
	BAD("tcprobe: run: unknown option: got '--bogus'", "run", "--bogus");
	BAD("unexpected argument: got 'calib'", "run", "calib");
	BAD("--probe: got nothing, expected a probe name", "run", "--probe");
	BAD("unknown probe: got 'nope'", "run", "--probe", "nope");
	BAD("no probe to apply it to: got 'N=1'", "run", "--set", "N=1");
	BAD("unknown axis of probe calib: got 'N'", "run", "--probe", "calib", "--set", "N=1");
	BAD("missing '=': got 'spin_kcycles'", "run", "--probe", "calib", "--set", "spin_kcycles");
	BAD("bad number for axis spin_kcycles: got 'lots'", "run", "-p", "calib", "-a", "spin_kcycles=lots");
	BAD("step of axis spin_kcycles is zero: got '1:9:0'", "run", "-p", "calib", "--set=spin_kcycles=1:9:0");
	BAD("ends before it starts: got '9:1'", "run", "-p", "calib", "--set", "spin_kcycles=9:1");
	BAD("empty value list for axis spin_kcycles: got '[]'", "run", "-p", "calib", "--set", "spin_kcycles=[]");
	BAD("duplicate axis: got 'spin_kcycles'", "run", "-p", "calib", "--set", "spin_kcycles=1",
	    "--set", "spin_kcycles=2");
	BAD("--reps: got '0', expected an integer in 1..100000, or auto", "run", "-p", "calib", "--reps", "0");
	BAD("--reps: got 'x'", "run", "-p", "calib", "--reps=x");
	BAD("or auto", "run", "-p", "calib", "--reps=automatic");
	BAD("--noise: got 'lots'", "run", "-p", "calib", "--noise", "lots");
	BAD("--noise: got '0%'", "run", "-p", "calib", "--noise", "0%");
	BAD("--noise: got '101'", "run", "-p", "calib", "--noise=101");
	BAD("--noise: got '0.5%%'", "run", "-p", "calib", "--noise", "0.5%%");
	BAD("--rep-budget: got '0', expected seconds in", "run", "-p", "calib", "--rep-budget", "0");
	BAD("--noise: only with --reps auto: got --reps 5", "run", "-p", "calib", "--reps", "5", "--noise", "1");
	BAD("--rep-budget: only with --reps auto", "run", "-p", "calib", "--reps", "5", "--rep-budget", "2");
	BAD_ENV("TCPROBE_COUNTERS_BATCH=100",
		"tcprobe: TCPROBE_COUNTERS_BATCH: got '100', expected an integer from 1 to 64",
		"run", "-p", "calib", "--dry-run");
	BAD("--warmup: got '-1', expected an integer in 0..", "run", "-p", "calib", "--warmup", "-1");
	BAD("--timeout: got '0', expected seconds in", "run", "-p", "calib", "--timeout", "0");
	BAD("--seed: got '-3'", "run", "-p", "calib", "--seed", "-3");
	BAD("--gpu: got '-1', expected a CUDA ordinal in 0..1023", "run", "-p", "calib", "--gpu", "-1");
	BAD("--counters: got 'a b'", "run", "-p", "calib", "--counters", "a b");
	BAD("--out: got ''", "run", "-p", "calib", "--out", "");
	BAD("--out: cannot be combined with --resume", "run", "--resume", "/tmp", "--out", "/tmp/x");
	BAD("cannot read plan", "run", "--resume", "/nonexistent-run-dir");
	BAD("/nonexistent.sweep: cannot read sweep file", "run", "--spec", "/nonexistent.sweep");
	BAD("nothing to run", "run", "--reps", "3");
	BAD("--arch: got 'sm_75'", "list", "--arch", "sm_75");
	BAD("--arch: unknown target: got 'sm_75'", "run", "--dry-run", "--probe", "calib", "--arch", "sm_75");
	BAD("--arch: only with --dry-run", "run", "--probe", "calib", "--arch", "sm_103a");
	BAD("--probe: unknown probe: got 'nope'", "list", "--probe", "nope");
	BAD("tcprobe: list: unknown option: got '--bogus'", "list", "--bogus");

	/* sweep files: file:line in the message */
	snprintf(bad_spec, sizeof(bad_spec), "%s:3: unknown axis of probe calib: got 'M'", spec_path);
	write_spec("[global]\n[calib]\nM = 1\n");
	BAD(bad_spec, "run", "--spec", spec_path);
	snprintf(bad_spec, sizeof(bad_spec), "%s:1: key outside a section: got 'reps'", spec_path);
	write_spec("reps = 2\n");
	BAD(bad_spec, "run", "--spec", spec_path);
	snprintf(bad_spec, sizeof(bad_spec), "%s:2: unknown probe: got 'nope'", spec_path);
	write_spec("\n[nope]\n");
	BAD(bad_spec, "run", "--spec", spec_path, "--dry-run");
	snprintf(bad_spec, sizeof(bad_spec), "%s:2: reps out of range: got '0'", spec_path);
	write_spec("[calib]\nreps = 0\n");
	BAD(bad_spec, "run", "--spec", spec_path);
}

static void test_help_and_dry_run(void **state)
{
	(void)state;
	struct out *o = calloc(1, sizeof(*o));
	const char *cmds[] = { "list", "run", "info" };
	run(o, NULL, "--help", (char *)NULL);
	assert_int_equal(o->status, 0);
	char *top = strdup(o->out);
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char entry[32];
		snprintf(entry, sizeof(entry), "\n  %s ", cmds[i]);
		assert_non_null(strstr(top, entry));	/* the table lists it */
		run(o, NULL, cmds[i], "--help", (char *)NULL);
		assert_int_equal(o->status, 0);
		assert_non_null(strstr(o->out, "usage: tcprobe"));
		run(o, NULL, "help", cmds[i], (char *)NULL);
		assert_int_equal(o->status, 0);
	}
	free(top);
	/* list: every registered probe, detail and CSV */
	run(o, NULL, "list", (char *)NULL);
	assert_int_equal(o->status, 0);
	assert_non_null(strstr(o->out, "calib"));
	assert_non_null(strstr(o->out, "spin_kcycles=[100,1000,10000]"));
	run(o, NULL, "list", "--probe", "calib", "--csv", (char *)NULL);
	assert_int_equal(o->status, 0);
	assert_non_null(strstr(o->out, "calib,calib,\"sm_80,sm_86,sm_89,sm_90a,sm_100a,sm_103a,sm_110a,sm_120a,sm_121a,compute_80\",metric,sm_clock_mhz,higher is better,MHz,"));
	run(o, NULL, "list", "--arch", "host", (char *)NULL);
	assert_non_null(strstr(o->out, "host_timer"));
	assert_null(strstr(o->out, "\ncalib "));	/* calib runs on GPUs only */
	/* --dry-run: the plan, no GPU needed (this machine may have none) */
	run(o, "CUDA_VISIBLE_DEVICES=", "run", "--probe", "calib", "--set", "spin_kcycles=1:4",
	    "--dry-run", (char *)NULL);
	assert_int_equal(o->status, 0);
	assert_non_null(strstr(o->out, "total: 4 points, 4 to run, 0 skipped"));
	assert_string_equal(o->err, "");
	run(o, NULL, "run", "--spec", "sweeps/default.sweep", "--dry-run", (char *)NULL);
	assert_int_equal(o->status, 0);
	/* --arch: the plan for a chip this machine does not have */
	run(o, NULL, "list", "--arch", "sm_103a", (char *)NULL);
	assert_int_equal(o->status, 0);
	assert_non_null(strstr(o->out, "probes written for sm_103a (compute capability 10.3: B300, GB300)"));
	assert_non_null(strstr(o->out, "\ntc_ldred "));
	assert_non_null(strstr(o->out, "on sm_103a: built"));
	assert_null(strstr(o->out, "\nwgmma_tput "));
	run(o, "CUDA_VISIBLE_DEVICES=", "run", "--probe", "tc_mma_tput", "--set", "kind=i8,f16", "--set",
	    "cta_group=1", "--set", "N=128", "--dry-run", "--arch", "sm_103a", (char *)NULL);
	assert_int_equal(o->status, 0);
	assert_non_null(strstr(o->out, "plan for sm_103a"));
	assert_non_null(strstr(o->out, "skipped 1 x: kind::i8 does not exist on sm_103a (B300, GB300)"));
	assert_non_null(strstr(o->out, "total: 2 points, 1 to run, 1 skipped"));
	run(o, NULL, "run", "--probe", "tc_mma_tput", "--set", "kind=i8,f16", "--set", "cta_group=1", "--set",
	    "N=128", "--dry-run", "--arch", "sm_110a", (char *)NULL);
	assert_non_null(strstr(o->out, "total: 2 points, 2 to run, 0 skipped"));
	run(o, NULL, "run", "--probe", "tc_ldred", "--set", "num=32", "--set", "warpgroups=1", "--dry-run",
	    "--arch", "sm_100a", (char *)NULL);
	assert_non_null(strstr(o->out, "skipped 2 x: tcgen05.ld.red does not exist on sm_100a (B200, GB200)"));
	assert_non_null(strstr(o->out, "total: 3 points, 1 to run, 2 skipped"));
	/* K = 96: planned on sm_103a (2 modes x 2 layouts x 2 K steps), SKIPPED with the reason elsewhere */
	run(o, NULL, "run", "--probe", "tc_mma_k96", "--set", "N=128", "--set", "cta_group=1", "--set", "M=128",
	    "--dry-run", "--arch", "sm_100a", (char *)NULL);
	assert_int_equal(o->status, 0);
	assert_non_null(strstr(o->out, "total: 8 points, 0 to run, 8 skipped"));
	assert_non_null(strstr(o->out, "kind::mxf4nvf4 with K = 96 does not exist on sm_100a"));
	run(o, NULL, "run", "--probe", "tc_mma_k96", "--set", "N=128", "--set", "cta_group=1", "--set", "M=128",
	    "--dry-run", "--arch", "sm_110a", (char *)NULL);
	assert_non_null(strstr(o->out, "total: 8 points, 0 to run, 8 skipped"));
	assert_non_null(strstr(o->out, "kind::mxf4nvf4 with K = 96 does not exist on sm_110a"));
	run(o, NULL, "run", "--probe", "tc_mma_k96", "--set", "N=128", "--set", "cta_group=1", "--set", "M=128",
	    "--set", "block=16", "--set", "sf=ue4m3", "--dry-run", "--verbose", "--arch", "sm_103a", (char *)NULL);
	assert_int_equal(o->status, 0);
	assert_non_null(strstr(o->out, "total: 8 points, 8 to run, 0 skipped"));
	/* .block16: 6 scale factors per row, two words, 8 columns each (word stride 4) */
	assert_non_null(strstr(o->out, "tmem=alloc=512 acc0=0-127 sfa=128-135 sfb=136-143 acc1=256-383"));
	run(o, NULL, "run", "--probe", "wgmma_tput", "--set", "N=64", "--dry-run", "--arch", "sm_103a", (char *)NULL);
	assert_int_equal(o->status, 0);
	assert_non_null(strstr(o->out, "unsupported on sm_103a: probe built for sm_90a only, not sm_103a"));
	run(o, NULL, "run", "--spec", "sweeps/quick.sweep", "--dry-run", (char *)NULL);
	assert_int_equal(o->status, 0);
	free(o);
}

static void test_no_gpu_is_one_line(void **state)
{
	(void)state;
	struct out *o = calloc(1, sizeof(*o));
	char dir[] = "/tmp/test-cli-XXXXXX", out[64];
	assert_non_null(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/run", dir);
	run(o, "CUDA_VISIBLE_DEVICES=", "run", "--probe", "calib", "--out", out, (char *)NULL);
	if (o->status != 3 || lines(o->err) != 1 ||
	    strncmp(o->err, "tcprobe: no CUDA GPU visible (", 30) != 0)
		fail_msg("exit %d, stderr '%s'", o->status, o->err);
	assert_int_equal(access(out, F_OK), -1);	/* no results directory for nothing */
	rmdir(dir);
	free(o);
}

int main(void)
{
	snprintf(spec_path, sizeof(spec_path), "/tmp/test-cli-%d.sweep", (int)getpid());
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_command_lines),
		cmocka_unit_test(test_help_and_dry_run),
		cmocka_unit_test(test_no_gpu_is_one_line),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(spec_path);
	return rc;
}
