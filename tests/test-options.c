/*
 * test-options.c
 *	The command-line engine (harness/cmd/options.h) and the exit table
 *	(harness/store/exit.h):
 *	  - every spelling of an option the engine takes ("--opt VALUE",
 *	    "--opt=VALUE", "-o VALUE", positional arguments anywhere) and each
 *	    value kind's checks, every refusal one line "tcprobe: CMD: --opt:
 *	    got 'X', expected Y" and exit 2;
 *	  - the --help of every command of the host library: exit 0, every
 *	    line within 80 columns, each option listed, its "exit:" line from
 *	    the exit table;
 *	  - docs/exit-codes.md's table is `tcprobe list --exit-codes`
 *	    (tcp_exit_markdown) byte for byte.
 *	Run from the repository root (make check does).
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

#include "harness/cmd/cmd-list.h"
#include "harness/cmd/options.h"
#include "harness/store/exit.h"
#include "test-util.h"

/* ---- a command of every kind, run in-process ---------------------------------- */

static const tcp_opt_choice_t colours[] = { { "red", 1, 0 }, { "green", 2, 0 }, { "verde", 2, 1 }, { NULL, 0, 0 } };

static struct {
	int flag, n, colour, nlist;
	unsigned u;
	double x, pct;
	const char *s, *colour_name, *list[2], *even;
	char *args[2];
	int nargs, seen_n;
} v;

/* A callback: an even integer. */
static int even_cb(tcp_opt_t *o, const char *val, char *err, size_t len)
{
	if (tcp_opt_value(o, val, err, len))
		return -1;
	if (v.n % 2)
		return tcp_opt_bad(err, len, o, val, "an even number");
	v.even = val;
	return 0;
}

static int demo(int argc, char **argv)
{
	tcp_opt_t opts[] = {
		{ .kind = TCP_OPT_HEADING, .help = "first:" },
		{ .name = "--flag", .shrt = 'f', .kind = TCP_OPT_FLAG, .ival = &v.flag, .help = "a flag" },
		{ .name = "--n", .shrt = 'n', .metavar = "N", .kind = TCP_OPT_INT, .lo = 1, .hi = 10, .ival = &v.n,
		  .def = "3", .help = "a count" },
		{ .name = "--hex", .metavar = "H", .kind = TCP_OPT_INT, .lo = 0, .hi = 0x100, .flags = TCP_OPT_HEX,
		  .uval = &v.u, .what = "an offset", .help = "an offset" },
		{ .name = "--x", .metavar = "X", .kind = TCP_OPT_DOUBLE, .lo = 0, .hi = INFINITY,
		  .flags = TCP_OPT_LO_OPEN, .dval = &v.x, .help = "a positive number" },
		{ .name = "--pct", .metavar = "PCT", .kind = TCP_OPT_PERCENT, .lo = 0, .hi = 100, .dval = &v.pct,
		  .help = "a percentage" },
		{ .name = "--colour", .kind = TCP_OPT_CHOICE, .choices = colours, .ival = &v.colour,
		  .sval = &v.colour_name, .help = "a colour" },
		{ .name = "--s", .metavar = "S", .kind = TCP_OPT_STRING, .sval = &v.s, .what = "a name",
		  .help = "a name" },
		{ .name = "--l", .metavar = "L", .kind = TCP_OPT_LIST, .list = v.list, .nlist = &v.nlist, .max = 2,
		  .what = "a word", .help = "a word; repeatable" },
		{ .name = "--even", .metavar = "E", .kind = TCP_OPT_INT, .lo = 0, .hi = 100, .ival = &v.n,
		  .fn = even_cb, .help = "an even count" },
		{ .name = "--secret", .kind = TCP_OPT_FLAG, .flags = TCP_OPT_HIDDEN, .ival = &v.flag, .help = "hidden" },
	};
	tcp_cmd_spec_t cmd = { .name = "demo", .usage = "usage: tcprobe demo [options] A [B]\n", .opts = opts,
			       .nopts = TCP_NOPTS(opts), .min_args = 1, .max_args = 2, .args = v.args,
			       .args_what = "A [B] (words)" };
	int rc;

	memset(&v, 0, sizeof(v));
	rc = tcp_opts_parse(&cmd, argc, argv, 1);
	v.nargs = cmd.nargs;
	v.seen_n = tcp_opts_find(&cmd, "--n")->seen;
	return rc == TCP_OPTS_OK ? 0 : rc;
}

static test_cmd_t res;

/* demo with the arguments (NULL-terminated): its exit status. */
static int run_demo(const char *first, ...)
{
	char *argv[32] = { "demo" };
	int argc = 1;
	va_list ap;

	va_start(ap, first);
	for (const char *a = first; a && argc < 31; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	test_run_cmd(&res, demo, argc, argv);
	return res.rc;
}

/* Exit 2 and exactly the line "tcprobe: demo: <want>". */
#define REFUSED(want, ...)                                                                        \
	do {                                                                                      \
		run_demo(__VA_ARGS__, NULL);                                                      \
		if (res.rc != 2 || strcmp(res.err, "tcprobe: demo: " want "\n"))                  \
			fail_msg("line %d: exit %d, stderr '%s', want 'tcprobe: demo: %s'", __LINE__, \
				 res.rc, res.err, want);                                          \
	} while (0)

static void test_spellings(void **state)
{
	(void)state;
	assert_int_equal(run_demo("--flag", "--n", "4", "a", NULL), 0);
	assert_int_equal(v.flag, 1);
	assert_int_equal(v.n, 4);
	assert_int_equal(v.seen_n, 1);
	assert_string_equal(v.args[0], "a");
	assert_int_equal(run_demo("a", "--n=5", "-f", "b", "-n", "6", NULL), 0);
	assert_int_equal(v.n, 6);		/* the last one counts */
	assert_int_equal(v.seen_n, 2);
	assert_int_equal(v.nargs, 2);
	assert_string_equal(v.args[1], "b");
	assert_int_equal(run_demo("--s", "-", "-", NULL), 0);	/* a value may start with '-'; "-" is an argument */
	assert_string_equal(v.s, "-");
	assert_string_equal(v.args[0], "-");
	assert_int_equal(run_demo("--secret", "a", NULL), 0);
	assert_int_equal(run_demo("--s=x=y", "a", NULL), 0);
	assert_string_equal(v.s, "x=y");
	REFUSED("unknown option: got '--bogus', expected one of --flag, --n, --hex, --x, --pct, --colour, --s, "
		"--l, --even, --help", "a", "--bogus");
	REFUSED("unknown option: got '-z', expected one of --flag, --n, --hex, --x, --pct, --colour, --s, --l, "
		"--even, --help", "-z", "a");
	REFUSED("unknown option: got '--fla', expected one of --flag, --n, --hex, --x, --pct, --colour, --s, "
		"--l, --even, --help", "--fla", "a");	/* no abbreviations */
	REFUSED("--flag: got '1', expected no value", "--flag=1", "a");
	REFUSED("--n: got nothing, expected an integer in 1..10", "a", "--n");
	REFUSED("got 0 arguments, expected A [B] (words)", "--flag");
	REFUSED("unexpected argument: got 'c', expected A [B] (words)", "a", "b", "c");
}

static void test_kinds(void **state)
{
	(void)state;
	REFUSED("--n: got '0', expected an integer in 1..10", "--n", "0", "a");
	REFUSED("--n: got '11', expected an integer in 1..10", "--n", "11", "a");
	REFUSED("--n: got '2x', expected an integer in 1..10", "--n", "2x", "a");
	REFUSED("--n: got '0x2', expected an integer in 1..10", "--n", "0x2", "a");	/* decimal only */
	REFUSED("--n: got '', expected an integer in 1..10", "--n=", "a");
	assert_int_equal(run_demo("--hex", "0x100", "a", NULL), 0);
	assert_int_equal(v.u, 256);
	REFUSED("--hex: got '0x101', expected an offset in 0..256", "--hex", "0x101", "a");
	assert_int_equal(run_demo("--x", "0.5", "a", NULL), 0);
	assert_true(v.x == 0.5);
	REFUSED("--x: got '0', expected a number > 0", "--x", "0", "a");
	REFUSED("--x: got 'inf', expected a number > 0", "--x", "inf", "a");
	assert_int_equal(run_demo("--pct", "2.5%", "a", NULL), 0);
	assert_true(v.pct == 2.5);
	assert_int_equal(run_demo("--pct", "2.5", "a", NULL), 0);
	REFUSED("--pct: got '101%', expected a percentage in 0..100", "--pct", "101%", "a");
	REFUSED("--pct: got '%', expected a percentage in 0..100", "--pct", "%", "a");
	assert_int_equal(run_demo("--colour", "verde", "a", NULL), 0);	/* an alias, not listed */
	assert_int_equal(v.colour, 2);
	assert_string_equal(v.colour_name, "verde");
	REFUSED("--colour: got 'blue', expected red or green", "--colour", "blue", "a");
	REFUSED("--s: got '', expected a name", "--s", "", "a");
	assert_int_equal(run_demo("--l", "x", "--l", "y", "a", NULL), 0);
	assert_int_equal(v.nlist, 2);
	assert_string_equal(v.list[1], "y");
	REFUSED("--l: got 'z', expected at most 2 values", "--l", "x", "--l", "y", "--l", "z", "a");
	assert_int_equal(run_demo("--even", "4", "a", NULL), 0);
	assert_string_equal(v.even, "4");
	REFUSED("--even: got '3', expected an even number", "--even", "3", "a");
	REFUSED("--even: got '101', expected an integer in 0..100", "--even", "101", "a");
}

static void test_demo_help(void **state)
{
	(void)state;
	assert_int_equal(run_demo("a", "--help", "--bogus", NULL), 0);	/* help first: nothing after it is read */
	assert_string_equal(res.err, "");
	assert_string_equal(res.out,
			    "usage: tcprobe demo [options] A [B]\n"
			    "first:\n"
			    "  -f, --flag          a flag\n"
			    "  -n, --n N           a count (1..10; default 3)\n"
			    "  --hex H             an offset (0..256)\n"
			    "  --x X               a positive number (> 0)\n"
			    "  --pct PCT           a percentage (0..100)\n"
			    "  --colour red|green  a colour\n"
			    "  --s S               a name\n"
			    "  --l L               a word; repeatable\n"
			    "  --even E            an even count (0..100)\n"
			    "  -h, --help          this text\n"
			    "exit: 0 ok, 2 bad input; docs/exit-codes.md\n");
}

/* ---- the exit table --------------------------------------------------------------- */

static void test_exit_table(void **state)
{
	static const int codes[] = { TCP_EXIT_OK, TCP_EXIT_POINTS, TCP_EXIT_USAGE, TCP_EXIT_NO_GPU, TCP_EXIT_NO_ARCH,
				     TCP_EXIT_DRIVER, TCP_EXIT_RESULTS_RO, TCP_EXIT_RESULTS_FULL, TCP_EXIT_NO_TOOL,
				     TCP_EXIT_INCOMPLETE, TCP_EXIT_BUSY, TCP_EXIT_INTERRUPTED };
	static const int want[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 130 };
	char *line = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		assert_int_equal(codes[i], want[i]);
	assert_non_null(f = open_memstream(&line, &len));
	tcp_exit_usage(f, "compare");
	fclose(f);
	assert_string_equal(line, "exit: 0 no regression, 1 a regression beyond the gate, 2 bad input, 9 a NEW run\n"
				  "      is incomplete (takes precedence over 1); docs/exit-codes.md\n");
	free(line);
	assert_non_null(f = open_memstream(&line, &len));
	tcp_exit_usage(f, "tmem-plan");
	fclose(f);
	assert_string_equal(line, "exit: 0 ok, 1 the tile does not fit, 2 bad input; docs/exit-codes.md\n");
	free(line);
}

static void test_exit_doc(void **state)
{
	(void)state;
	test_generated_doc("docs/exit-codes.md", "<!-- exit codes: generated by `tcprobe list --exit-codes`",
			   "<!-- exit codes: end -->\n", tcp_exit_markdown, "the exit table (`tcprobe list --exit-codes`)");
}

/* ---- every command's --help --------------------------------------------------------- */

static void test_commands_help(void **state)
{
	static const struct {
		int (*fn)(int, char **);
		const char *argv[3];
	} cmds[] = {
		{ tcp_cmd_compare, { "compare" } }, { tcp_cmd_fleet, { "fleet" } }, { tcp_cmd_report, { "report" } },
		{ tcp_cmd_query, { "query" } }, { tcp_cmd_info, { "info" } }, { tcp_cmd_counters, { "counters" } },
		{ tcp_cmd_encode, { "encode", "idesc" } }, { tcp_cmd_encode, { "encode", "sdesc" } },
		{ tcp_cmd_encode, { "encode" } }, { tcp_cmd_decode, { "decode" } }, { tcp_cmd_layout, { "layout" } },
		{ tcp_cmd_tmem_plan, { "tmem-plan" } }, { tcp_cmd_k4, { "k4" } },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char *argv[4];
		int argc = 0;
		for (; cmds[i].argv[argc]; argc++)
			argv[argc] = (char *)cmds[i].argv[argc];
		argv[argc++] = "--help";
		argv[argc] = NULL;
		test_run_cmd(&res, cmds[i].fn, argc, argv);
		if (res.rc != 0 || *res.err || strncmp(res.out, "usage: tcprobe ", 15) ||
		    !strstr(res.out, "; docs/exit-codes.md\n") || !strstr(res.out, "  -h, --help "))
			fail_msg("%s --help: exit %d, stderr '%s', stdout '%.300s'", argv[0], res.rc, res.err, res.out);
		for (const char *l = res.out; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != 0))
			if (strcspn(l, "\n") > 80)
				fail_msg("%s --help: a line over 80 columns: %.*s", argv[0], (int)strcspn(l, "\n"), l);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spellings),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_demo_help),
		cmocka_unit_test(test_exit_table),
		cmocka_unit_test(test_exit_doc),
		cmocka_unit_test(test_commands_help),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
