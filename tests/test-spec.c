/*
 * test-spec.c
 *	Sweep-spec and value-list parser: every accepted form expands to the
 *	right values (ranges with fresh random bounds), and every malformed
 *	input class is rejected with one line "file:line: what: got '...',
 *	expected ..." naming the bad value.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness/sweep/spec.h"

static const char *const kinds[] = { "f16", "bf16", "tf32", NULL };
static const tcp_axis_t fake_axes[] = {
	{ "N", "tile N", NULL, "[64,128]" },
	{ "kind", "operand kind", kinds, "f16,bf16" },
};
static const tcp_metric_t fake_metrics[] = { { "cycles", "cycles", 0, "fake", TCP_ROLE_AUTO, 0, 0 } };
static const tcp_probe_t fake = {
	.name = "fake", .family = "test", .help = "fake", .arch = TCP_ARCH_HOST,
	.axes = fake_axes, .naxes = 2, .metrics = fake_metrics, .nmetrics = 1,
};
static const tcp_probe_t other = {
	.name = "other", .family = "test", .help = "other", .arch = TCP_ARCH_HOST,
	.axes = fake_axes, .naxes = 1, .metrics = fake_metrics, .nmetrics = 1,
};
static const tcp_probe_t *const probes[] = { &fake, &other };

/* Parse text; assert the exact accepted/rejected outcome. */
static int parse(tcp_spec_t *s, const char *text, char *err, size_t len)
{
	tcp_spec_init(s);
	return tcp_spec_parse_string(s, text, "t.sweep", probes, 2, err, len);
}

/* The error must be one line, at `where`, naming `bad` and what is legal. */
static void expect_error(const char *text, const char *where, const char *what, const char *bad)
{
	tcp_spec_t s;
	char err[TCP_SPEC_ERRLEN], got[128];
	err[0] = '\0';
	int rc = parse(&s, text, err, sizeof(err));
	if (rc != -1)
		fail_msg("accepted malformed spec: %s", text);
	snprintf(got, sizeof(got), "got '%s'", bad);
	if (strncmp(err, where, strlen(where)) != 0 || !strstr(err, what) || !strstr(err, got) ||
	    !strstr(err, ", expected ") || strchr(err, '\n'))
		fail_msg("for spec <<%s>>: message '%s' lacks '%s' / '%s' / '%s'", text, err, where,
			 what, got);
	tcp_spec_free(&s);
}

static void test_malformed_classes(void **state)
{
	(void)state;
	expect_error("[nope]\n", "t.sweep:1: ", "unknown probe", "nope");
	expect_error("# c\n[fake]\nM = 1\n", "t.sweep:3: ", "unknown axis", "M");
	expect_error("[fake]\nN = 6x4\n", "t.sweep:2: ", "bad number", "6x4");
	expect_error("[fake]\nN = 99999999999999999999999\n", "t.sweep:2: ", "bad number",
		     "99999999999999999999999");
	expect_error("[fake]\nN = []\n", "t.sweep:2: ", "empty value list", "[]");
	expect_error("[fake]\nN =\n", "t.sweep:2: ", "empty value list", "");
	expect_error("[fake]\nN = 1,,2\n", "t.sweep:2: ", "empty item", "1,,2");
	expect_error("[fake]\nN = 8:64:0\n", "t.sweep:2: ", "step", "8:64:0");
	expect_error("[fake]\nN = 8:64:-8\n", "t.sweep:2: ", "wrong sign", "8:64:-8");
	expect_error("[fake]\nN = 64:8:8\n", "t.sweep:2: ", "ends before it starts", "64:8:8");
	expect_error("[fake]\nN = 1:2:3:4\n", "t.sweep:2: ", "malformed range", "1:2:3:4");
	expect_error("[fake]\nN = pow2:3:64\n", "t.sweep:2: ", "powers of two", "pow2:3:64");
	expect_error("[fake]\nN = pow2:64:8\n", "t.sweep:2: ", "ends before it starts", "pow2:64:8");
	expect_error("[fake]\nN = 1:200000000\n", "t.sweep:2: ", "too long", "1:200000000");
	expect_error("[fake]\nN = 64,128,64\n", "t.sweep:2: ", "duplicate value", "64");
	expect_error("[fake]\nN = [1,2\n", "t.sweep:2: ", "unbalanced", "[1,2");
	expect_error("[fake]\nN = [[1]]\n", "t.sweep:2: ", "nested brackets", "[[1]]");
	expect_error("[fake]\nkind = f64\n", "t.sweep:2: ", "unknown value for axis kind", "f64");
	expect_error("[fake]\nkind = 1:3\n", "t.sweep:2: ", "integer axis", "1:3");
	expect_error("[fake]\nN = 64\n\nN = 128\n", "t.sweep:4: ", "duplicate axis", "N");
	expect_error("N = 64\n[fake]\n", "t.sweep:1: ", "key outside a section", "N");
	expect_error("[fake]\nN 64\n", "t.sweep:2: ", "missing '='", "N 64");
	expect_error("[fake]\n= 64\n", "t.sweep:2: ", "missing key", "= 64");
	expect_error("[fake\nN = 64\n", "t.sweep:1: ", "malformed section header", "[fake");
	expect_error("[]\n", "t.sweep:1: ", "malformed section header", "[]");
	expect_error("[fake]\nreps = 0\n", "t.sweep:2: ", "reps out of range", "0");
	expect_error("[fake]\nreps = ten\n", "t.sweep:2: ", "reps", "ten");
	expect_error("[fake]\nreps = 3\nreps = 4\n", "t.sweep:3: ", "duplicate key", "reps");
	expect_error("[global]\nwarmup = -1\n[fake]\n", "t.sweep:2: ", "warmup out of range", "-1");
	expect_error("[global]\ntimeout = 0\n[fake]\n", "t.sweep:2: ", "timeout out of range", "0");
	expect_error("[global]\ntimeout = soon\n[fake]\n", "t.sweep:2: ", "timeout", "soon");
	expect_error("[global]\nN = 64\n[fake]\n", "t.sweep:2: ", "unknown key in [global]", "N");
	expect_error("# only a comment\n[global]\nreps = 2\n", "t.sweep:3: ", "no probe section", "none");
}

static void test_unreadable_file(void **state)
{
	(void)state;
	tcp_spec_t s;
	char err[TCP_SPEC_ERRLEN];
	tcp_spec_init(&s);
	assert_int_equal(tcp_spec_parse_file(&s, "/nonexistent/x.sweep", probes, 2, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/x.sweep: cannot read sweep file: got 'No such file or directory', expected"));
	/* a binary file is not a sweep file */
	char path[] = "/tmp/test-spec-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "[fake]\n\0\1\2", 10), 10);
	close(fd);
	assert_int_equal(tcp_spec_parse_file(&s, path, probes, 2, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a text file"));
	unlink(path);
	tcp_spec_free(&s);
}

static void expect_values(const tcp_axis_t *ax, const char *text, const int64_t *want, int n)
{
	int64_t *v = NULL;
	int nv = -1;
	char err[TCP_SPEC_ERRLEN];
	if (tcp_values_parse(ax, text, &v, &nv, err, sizeof(err)))
		fail_msg("'%s' rejected: %s", text, err);
	assert_int_equal(nv, n);
	for (int i = 0; i < n; i++)
		if (v[i] != want[i])
			fail_msg("'%s': value %d is %lld, want %lld", text, i, (long long)v[i], (long long)want[i]);
	free(v);
}

static void test_value_forms(void **state)
{
	(void)state;
	const tcp_axis_t *N = &fake_axes[0], *K = &fake_axes[1];
	expect_values(N, "64", (int64_t[]){ 64 }, 1);
	expect_values(N, " 1, 2 ,3 ", (int64_t[]){ 1, 2, 3 }, 3);
	expect_values(N, "[1,2,3]", (int64_t[]){ 1, 2, 3 }, 3);
	expect_values(N, "-5,7", (int64_t[]){ -5, 7 }, 2);
	expect_values(N, "8:32:8", (int64_t[]){ 8, 16, 24, 32 }, 4);
	expect_values(N, "[8:30:8]", (int64_t[]){ 8, 16, 24 }, 3);
	expect_values(N, "3:5", (int64_t[]){ 3, 4, 5 }, 3);
	expect_values(N, "7:7:3", (int64_t[]){ 7 }, 1);
	expect_values(N, "pow2:4:64", (int64_t[]){ 4, 8, 16, 32, 64 }, 5);
	expect_values(N, "pow2:1:1", (int64_t[]){ 1 }, 1);
	expect_values(N, "[8:16:8,100,pow2:256:512]", (int64_t[]){ 8, 16, 100, 256, 512 }, 5);
	expect_values(K, "bf16", (int64_t[]){ 1 }, 1);
	expect_values(K, "[tf32, F16]", (int64_t[]){ 2, 0 }, 2);	/* names: any case */
}

/* Ranges with fresh random bounds expand exactly. */
static void test_random_ranges(void **state)
{
	(void)state;
	unsigned seed = (unsigned)time(NULL) ^ (unsigned)getpid();
	srand(seed);
	for (int t = 0; t < 500; t++) {
		int64_t lo = rand() % 2001 - 1000, step = rand() % 50 + 1, n = rand() % 200 + 1;
		int64_t hi = lo + step * (n - 1) + rand() % step;	/* hi need not be on the grid */
		char text[96];
		snprintf(text, sizeof(text), rand() % 2 ? "%lld:%lld:%lld" : "[%lld:%lld:%lld]",
			 (long long)lo, (long long)hi, (long long)step);
		int64_t *v = NULL;
		int nv;
		char err[TCP_SPEC_ERRLEN];
		if (tcp_values_parse(&fake_axes[0], text, &v, &nv, err, sizeof(err)))
			fail_msg("seed %u: '%s' rejected: %s", seed, text, err);
		if (nv != n)
			fail_msg("seed %u: '%s' gave %d values, want %lld", seed, text, nv, (long long)n);
		for (int i = 0; i < nv; i++)
			assert_int_equal(v[i], lo + i * step);
		free(v);
	}
}

static void test_sections_and_globals(void **state)
{
	(void)state;
	tcp_spec_t s;
	char err[TCP_SPEC_ERRLEN];
	const char *text =
		"# intent: two groups\n"
		"[global]\n"
		"reps = 7 ; comment\n"
		"timeout = 2.5\n"
		"\n"
		"[fake]\n"
		"N = [16:48:16]   # three\n"
		"warmup = 0\n"
		"[other]\n"
		"reps = 3\n"
		"[fake]\n"
		"kind = tf32\n";
	if (parse(&s, text, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(s.n, 3);
	assert_ptr_equal(s.g[0].probe, &fake);
	assert_int_equal(s.g[0].nvals[0], 3);
	assert_int_equal(s.g[0].vals[0][2], 48);
	assert_null(s.g[0].vals[1]);	/* default */
	assert_int_equal(s.g[0].reps, 7);
	assert_int_equal(s.g[0].warmup, 0);
	assert_true(s.g[0].timeout == 2.5);
	assert_ptr_equal(s.g[1].probe, &other);
	assert_int_equal(s.g[1].reps, 3);	/* the section wins over [global] */
	assert_int_equal(s.g[1].warmup, -1);	/* neither: the built-in default later */
	assert_int_equal(s.g[2].vals[1][0], 2);
	assert_string_equal(s.g[2].where, "t.sweep:11");
	tcp_spec_free(&s);
}

/* Write `text` to dir/name. */
static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* `include = FILE`: a relative path from the including file's directory, its
 * sections in place, [global] per file with the includer's as the fallback;
 * a cycle, a missing file and a bad line each one line naming the include. */
static void test_include(void **state)
{
	(void)state;
	tcp_spec_t s;
	char err[TCP_SPEC_ERRLEN], dir[] = "/tmp/test-spec-inc-XXXXXX", path[512];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/sub", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	put(dir, "sub/part.sweep", "[global]\nreps = 4\n[other]\nN = 8\n[fake]\nkind = bf16\nwarmup = 1\n");
	put(dir, "main.sweep",
	    "[global]\nreps = 9\ntimeout = 5\n[fake]\nN = 16\ninclude = sub/part.sweep\n[fake]\nN = 32\n");
	snprintf(path, sizeof(path), "%s/main.sweep", dir);
	tcp_spec_init(&s);
	if (tcp_spec_parse_file(&s, path, probes, 2, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(s.n, 4);	/* in place: fake, other, fake, fake */
	assert_ptr_equal(s.g[0].probe, &fake);
	assert_ptr_equal(s.g[1].probe, &other);
	assert_int_equal(s.g[1].vals[0][0], 8);
	assert_int_equal(s.g[1].reps, 4);	/* its own file's [global] */
	assert_true(s.g[1].timeout == 5);	/* the includer's fills in */
	assert_int_equal(s.g[2].warmup, 1);
	assert_int_equal(s.g[3].vals[0][0], 32);
	assert_int_equal(s.g[3].reps, 9);
	assert_non_null(strstr(s.g[1].where, "sub/part.sweep:3"));
	tcp_spec_free(&s);

	/* a cycle through two files: one line naming the include and the file */
	put(dir, "a.sweep", "[fake]\ninclude = b.sweep\n");
	put(dir, "b.sweep", "[other]\ninclude = a.sweep\n");
	snprintf(path, sizeof(path), "%s/a.sweep", dir);
	tcp_spec_init(&s);
	assert_int_equal(tcp_spec_parse_file(&s, path, probes, 2, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/b.sweep:2: include cycle: got '"));
	assert_non_null(strstr(err, "/a.sweep', expected a file not already being read"));
	assert_null(strchr(err, '\n'));
	tcp_spec_free(&s);
	/* a file that includes itself */
	put(dir, "self.sweep", "include = self.sweep\n[fake]\n");
	snprintf(path, sizeof(path), "%s/self.sweep", dir);
	tcp_spec_init(&s);
	assert_int_equal(tcp_spec_parse_file(&s, path, probes, 2, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/self.sweep:1: include cycle: got '"));
	assert_non_null(strstr(err, "/self.sweep', expected"));
	tcp_spec_free(&s);
	/* the same file twice, not nested, is no cycle */
	put(dir, "twice.sweep", "include = sub/part.sweep\ninclude = sub/part.sweep\n");
	snprintf(path, sizeof(path), "%s/twice.sweep", dir);
	tcp_spec_init(&s);
	if (tcp_spec_parse_file(&s, path, probes, 2, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(s.n, 4);
	tcp_spec_free(&s);
	/* a missing file */
	put(dir, "miss.sweep", "[fake]\n\ninclude = nope.sweep\n");
	snprintf(path, sizeof(path), "%s/miss.sweep", dir);
	tcp_spec_init(&s);
	assert_int_equal(tcp_spec_parse_file(&s, path, probes, 2, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "miss.sweep:3: include: "));
	assert_non_null(strstr(err, "/nope.sweep: cannot read sweep file: got 'No such file or directory', expected"));
	assert_null(strchr(err, '\n'));
	tcp_spec_free(&s);
	/* the include ends its section: a key after it needs a header */
	/* a device is no sweep file, included or not */
	assert_int_equal(parse(&s, "[fake]\ninclude = /dev/null\n", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "t.sweep:2: include: /dev/null: cannot read sweep file: got "));
	assert_non_null(strstr(err, "expected a regular file"));
	tcp_spec_free(&s);
	put(dir, "end.sweep", "[fake]\ninclude = sub/part.sweep\nN = 8\n");
	snprintf(path, sizeof(path), "%s/end.sweep", dir);
	tcp_spec_init(&s);
	assert_int_equal(tcp_spec_parse_file(&s, path, probes, 2, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "end.sweep:3: key outside a section: got 'N'"));
	tcp_spec_free(&s);
	expect_error("[fake]\ninclude =\n", "t.sweep:2", "missing file", "include =");

	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_cli_groups(void **state)
{
	(void)state;
	tcp_spec_t s;
	char err[TCP_SPEC_ERRLEN];
	tcp_spec_init(&s);
	assert_int_equal(tcp_spec_set(&s, "N=1", "--set", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--set: no probe to apply it to: got 'N=1', expected --probe NAME before --set"));
	assert_int_equal(tcp_spec_add_probe(&s, "nope", "--probe", probes, 2, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--probe: unknown probe: got 'nope', expected one of fake, other"));
	assert_int_equal(tcp_spec_add_probe(&s, "fake", "--probe", probes, 2, err, sizeof(err)), 0);
	assert_int_equal(tcp_spec_set(&s, "N=pow2:8:32", "--set", err, sizeof(err)), 0);
	assert_int_equal(tcp_spec_set(&s, "N=64", "--set", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "duplicate axis: got 'N'"));
	assert_int_equal(tcp_spec_set(&s, "kind", "--set", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "missing '=': got 'kind', expected AXIS=VALUES"));
	assert_int_equal(tcp_spec_set(&s, "=3", "--set", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "missing axis name"));
	assert_int_equal(tcp_spec_add_probe(&s, "other", "--probe", probes, 2, err, sizeof(err)), 0);
	assert_int_equal(tcp_spec_set(&s, "N=64", "--set", err, sizeof(err)), 0);	/* the latest --probe */
	assert_int_equal(s.n, 2);
	assert_int_equal(s.g[0].nvals[0], 3);
	assert_int_equal(s.g[1].vals[0][0], 64);
	tcp_spec_free(&s);
}

static void test_number_helpers(void **state)
{
	(void)state;
	long long v;
	double d;
	char err[256];
	assert_int_equal(tcp_parse_int("--reps", "12", 1, 100, &v, err, sizeof(err)), 0);
	assert_int_equal(v, 12);
	assert_int_equal(tcp_parse_int("--reps", "12 ", 1, 100, &v, err, sizeof(err)), 0);
	assert_int_equal(tcp_parse_int("--reps", "", 1, 100, &v, err, sizeof(err)), -1);
	assert_string_equal(err, "--reps: got '', expected an integer in 1..100");
	assert_int_equal(tcp_parse_int("--reps", "101", 1, 100, &v, err, sizeof(err)), -1);
	assert_string_equal(err, "--reps out of range: got '101', expected 1..100");
	assert_int_equal(tcp_parse_seconds("--timeout", "0.5", 0.05, 10, &d, err, sizeof(err)), 0);
	assert_true(d == 0.5);
	assert_int_equal(tcp_parse_seconds("--timeout", "nan", 0.05, 10, &d, err, sizeof(err)), -1);
	assert_int_equal(tcp_parse_seconds("--timeout", "11", 0.05, 10, &d, err, sizeof(err)), -1);
}

/*
 * The largest legal lists parse fast and still find a duplicate, in list order
 * (found by tests/fuzz/fuzz-plan: duplicate detection was pairwise, so a
 * 100000-value range took minutes; corpus/plan/regress-slow-long-range).
 */
static void test_long_lists_fast(void **state)
{
	static const tcp_axis_t ax = { "N", "an integer axis", NULL, "8" };
	char err[TCP_SPEC_ERRLEN], text[64];
	int64_t *v = NULL;
	int n = 0;
	clock_t t0 = clock();

	(void)state;
	assert_int_equal(tcp_values_parse(&ax, "1:100000", &v, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 100000);
	assert_true(v[0] == 1 && v[99999] == 100000);
	free(v);
	/* a random repeat inside a full-size list: named, not another value */
	int64_t r = 1 + (int64_t)(time(NULL) % 99990);
	snprintf(text, sizeof(text), "1:99990,%lld,99991:99999", (long long)r);
	assert_int_equal(tcp_values_parse(&ax, text, &v, &n, err, sizeof(err)), -1);
	snprintf(text, sizeof(text), "got '%lld'", (long long)r);
	assert_non_null(strstr(err, "duplicate value for axis N"));
	assert_non_null(strstr(err, text));
	/* the first repeat in list order wins: 5 repeats before 3 */
	assert_int_equal(tcp_values_parse(&ax, "3,5,7,5,3", &v, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "got '5'"));
	/* pairwise (5e9 comparisons) took over a minute; sorted takes milliseconds */
	assert_true((double)(clock() - t0) / CLOCKS_PER_SEC < 5.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_malformed_classes),
		cmocka_unit_test(test_unreadable_file),
		cmocka_unit_test(test_value_forms),
		cmocka_unit_test(test_random_ranges),
		cmocka_unit_test(test_sections_and_globals),
		cmocka_unit_test(test_include),
		cmocka_unit_test(test_cli_groups),
		cmocka_unit_test(test_number_helpers),
		cmocka_unit_test(test_long_lists_fast),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
