/*
 * test-counters.c
 *	CUPTI counters on the host, no GPU: per-chip metric sets, resolution of
 *	specs through the Profiler Host API (GH100, GB100), base metric
 *	enumeration, error texts and remedies, CSV rows and derived checks, the
 *	counter-data image's range bookkeeping, TCPROBE_COUNTERS_BATCH, the
 *	`counters` command, the --timer parser, and the libcupti-missing path.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness/cmd/cmd-list.h"
#include "harness/measure/counters-book.h"
#include "harness/measure/counters.h"
#include "harness/measure/cupti-timer.h"
#include "test-util.h"

static const char *const set_chips[] = { "GH100", "GB100", "GB102", "GB110", "XYZ", NULL };

static int has_metric(const tcp_counter_metric_t *s, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(s[i].name, name))
			return 1;
	return 0;
}

static int role_index(const tcp_counter_metric_t *s, int n, tcp_counter_role_t role)
{
	int found = -1;
	for (int i = 0; i < n; i++)
		if (s[i].role == role) {
			assert_int_equal(found, -1);	/* at most one per role */
			found = i;
		}
	return found;
}

/* Every set: unique names with a rollup suffix, one duration, one clock in MHz. */
static void test_sets_well_formed(void **state)
{
	(void)state;
	for (int c = 0; c <= 5; c++) {
		const char *chip = c < 5 ? set_chips[c] : NULL;
		int n;
		const char *name;
		const tcp_counter_metric_t *s = tcp_counters_default_set(chip, &n, &name);
		assert_non_null(s);
		assert_true(n >= 6 && n <= TCP_COUNTERS_MAX_METRICS);
		for (int i = 0; i < n; i++) {
			const char *dot = strchr(s[i].name, '.');
			assert_non_null(dot);
			assert_true(!strncmp(dot, ".sum", 4) || !strncmp(dot, ".avg", 4) ||
				    !strncmp(dot, ".max", 4) || !strncmp(dot, ".min", 4));
			assert_true(strlen(s[i].unit) > 0 && strlen(s[i].purpose) > 0);
			assert_true(s[i].scale > 0);
			for (int j = 0; j < i; j++)
				assert_string_not_equal(s[i].name, s[j].name);
		}
		int d = role_index(s, n, TCP_CTR_DURATION);
		int k = role_index(s, n, TCP_CTR_CLOCK);
		assert_true(d >= 0 && k >= 0);
		assert_string_equal(s[d].unit, "ns");
		assert_string_equal(s[k].unit, "MHz");
		assert_true(s[k].scale == 1e-6 && s[k].rollup == TCP_ROLLUP_AVG);
		assert_true(has_metric(s, n, "dram__bytes_read.sum"));
		assert_true(has_metric(s, n, "dram__bytes_write.sum"));
	}
}

static void test_set_selection(void **state)
{
	(void)state;
	int n, t;
	const char *name;
	const tcp_counter_metric_t *s = tcp_counters_default_set("GH100", &n, &name);
	assert_string_equal(name, "hopper");
	t = role_index(s, n, TCP_CTR_TENSOR_INSTS);
	assert_true(t >= 0);
	assert_string_equal(s[t].name, "sm__inst_executed_pipe_tensor_op_gmma.sum");
	assert_false(has_metric(s, n, "sm__mem_tensor_reads.sum"));

	for (int c = 1; c <= 3; c++) {
		s = tcp_counters_default_set(set_chips[c], &n, &name);
		assert_string_equal(name, "blackwell-dc");
		t = role_index(s, n, TCP_CTR_TENSOR_INSTS);
		assert_string_equal(s[t].name, "sm__sass_inst_executed_op_utcmma.sum");
		assert_true(has_metric(s, n, "sm__inst_executed_pipe_tc.sum"));
		assert_true(has_metric(s, n, "sm__mem_tensor_reads.sum"));
		assert_true(has_metric(s, n, "sm__mem_tensor_writes.sum"));
		assert_false(has_metric(s, n, "sm__inst_executed_pipe_tensor_op_gmma.sum"));
	}
	const char *unknown[] = { "XYZ", "GA100", "gh100", "", NULL };
	for (int i = 0; i < 5; i++) {
		s = tcp_counters_default_set(unknown[i], &n, &name);
		assert_string_equal(name, "generic");
		assert_int_equal(role_index(s, n, TCP_CTR_TENSOR_INSTS), -1);
	}
	assert_string_equal(tcp_counters_chip_for_cc(90), "GH100");
	assert_string_equal(tcp_counters_chip_for_cc(100), "GB100");
	assert_null(tcp_counters_chip_for_cc(80));
	assert_null(tcp_counters_chip_for_cc(120));
}

/* The default sets resolve on the host for their chips: CUPTI accepts every
 * name, config image built, replay passes counted. */
static void test_host_resolve_default(void **state)
{
	(void)state;
	char reason[TCP_REASON_LEN];
	for (int c = 0; c < 4; c++) {
		int passes = 0, n;
		tcp_counters_t *t = tcp_counters_open_chip(set_chips[c], "default", &passes, reason,
							   sizeof(reason));
		if (!t)
			fail_msg("%s: %s", set_chips[c], reason);
		const tcp_counter_metric_t *s = tcp_counters_default_set(set_chips[c], &n, NULL);
		assert_int_equal(tcp_counters_nmetrics(t), n);
		assert_true(passes >= 1 && passes <= 16);
		assert_string_equal(tcp_counters_chip(t), set_chips[c]);
		for (int i = 0; i < n; i++) {
			assert_string_equal(tcp_counters_metric(t, i), s[i].name);
			assert_string_equal(tcp_counters_unit(t, i), s[i].unit);
		}
		int ti = tcp_counters_tensor_inst_metric(t);
		assert_true(ti >= 0);
		assert_int_equal(tcp_counters_info(t, ti)->role, TCP_CTR_TENSOR_INSTS);
		assert_null(tcp_counters_metric(t, n));
		/* a host-only handle cannot measure */
		double v[TCP_COUNTERS_MAX_METRICS];
		assert_int_equal(tcp_counters_measure(t, NULL, NULL, v, reason, sizeof(reason)), -1);
		assert_non_null(strstr(reason, "no device"));
		tcp_counters_close(t);
	}
	/* an older chip gets the generic set minus what it lacks */
	tcp_counters_t *t = tcp_counters_open_chip("GA100", "default", NULL, reason, sizeof(reason));
	if (!t)
		fail_msg("GA100: %s", reason);
	int ng;
	const tcp_counter_metric_t *g = tcp_counters_default_set("GA100", &ng, NULL);
	assert_true(tcp_counters_nmetrics(t) >= 4 && tcp_counters_nmetrics(t) <= ng);
	for (int i = 0; i < tcp_counters_nmetrics(t); i++)
		assert_true(has_metric(g, ng, tcp_counters_metric(t, i)));
	assert_int_equal(tcp_counters_tensor_inst_metric(t), -1);
	tcp_counters_close(t);
}

/* GH100's default set takes 2 replay passes (counters.cc says why; the
 * cost figures of docs/findings.md are for that set). */
static void test_hopper_passes(void **state)
{
	(void)state;
	char reason[TCP_REASON_LEN];
	int passes = 0;
	tcp_counters_t *t = tcp_counters_open_chip("GH100", "default", &passes, reason, sizeof(reason));
	if (!t)
		fail_msg("GH100: %s", reason);
	assert_int_equal(passes, 2);
	tcp_counters_close(t);
}

static void test_host_resolve_list(void **state)
{
	(void)state;
	char reason[TCP_REASON_LEN];
	tcp_counters_t *t = tcp_counters_open_chip(
		"GH100", " gpu__time_duration.sum,sm__inst_executed_pipe_tensor_op_gmma.sum , "
			 "sm__cycles_elapsed.avg.per_second,gpu__time_duration.sum",
		NULL, reason, sizeof(reason));
	if (!t)
		fail_msg("%s", reason);
	assert_int_equal(tcp_counters_nmetrics(t), 3);	/* duplicate dropped */
	assert_string_equal(tcp_counters_unit(t, 0), "ns");
	assert_string_equal(tcp_counters_unit(t, 1), "insts");
	assert_int_equal(tcp_counters_tensor_inst_metric(t), 1);
	assert_string_equal(tcp_counters_unit(t, 2), "Hz");	/* from CUPTI's dimension */
	assert_int_equal(tcp_counters_info(t, 2)->rollup, TCP_ROLLUP_AVG);
	tcp_counters_close(t);

	int nd;
	tcp_counters_default_set("GB100", &nd, NULL);
	t = tcp_counters_open_chip("GB100", "default,l1tex__data_pipe_tc_wavefronts.sum", NULL, reason,
				   sizeof(reason));
	if (!t)
		fail_msg("%s", reason);
	assert_int_equal(tcp_counters_nmetrics(t), nd + 1);
	assert_int_equal(tcp_counters_info(t, nd)->rollup, TCP_ROLLUP_SUM);
	tcp_counters_close(t);

	/* bad names, wrong chip, off, unknown chip */
	assert_null(tcp_counters_open_chip("GH100", "gpu__time_duration.sum,sm__bogus.sum", NULL, reason,
					   sizeof(reason)));
	assert_non_null(strstr(reason, "'sm__bogus.sum'"));
	assert_non_null(strstr(reason, "GH100"));
	assert_null(tcp_counters_open_chip("GB100", "sm__inst_executed_pipe_tensor_op_gmma.sum", NULL,
					   reason, sizeof(reason)));
	assert_non_null(strstr(reason, "sm__inst_executed_pipe_tensor_op_gmma.sum"));
	assert_null(tcp_counters_open_chip("GH100", "none", NULL, reason, sizeof(reason)));
	assert_string_equal(reason, "off");
	assert_null(tcp_counters_open_chip("GX999", "default", NULL, reason, sizeof(reason)));
	assert_non_null(strstr(reason, "'GX999'"));
	assert_non_null(strstr(reason, "GH100"));
	assert_non_null(strstr(reason, "GB100"));
}

struct base_seen {
	int n;
	int gmma, tc, tmem_reads, utcmma;
	const tcp_counter_metric_t *set;
	int nset;
	int set_found[TCP_COUNTERS_MAX_METRICS];
};

static void on_base(const char *type, const char *name, const char *unit, const char *desc, void *arg)
{
	struct base_seen *b = (struct base_seen *)arg;
	assert_true(!strcmp(type, "counter") || !strcmp(type, "ratio") || !strcmp(type, "throughput"));
	assert_non_null(unit);
	assert_non_null(desc);
	b->n++;
	b->gmma |= !strcmp(name, "sm__inst_executed_pipe_tensor_op_gmma");
	b->tc |= !strcmp(name, "sm__inst_executed_pipe_tc");
	b->tmem_reads |= !strcmp(name, "sm__mem_tensor_reads");
	b->utcmma |= !strcmp(name, "sm__sass_inst_executed_op_utcmma");
	/* every default-set metric's base name is a listed base metric */
	for (int i = 0; i < b->nset; i++) {
		size_t l = strcspn(b->set[i].name, ".");
		if (strlen(name) == l && !strncmp(name, b->set[i].name, l))
			b->set_found[i] = 1;
	}
}

static void test_base_metrics(void **state)
{
	(void)state;
	char reason[TCP_REASON_LEN];
	struct base_seen h = { 0 }, b = { 0 };
	h.set = tcp_counters_default_set("GH100", &h.nset, NULL);
	b.set = tcp_counters_default_set("GB100", &b.nset, NULL);
	int nh = tcp_counters_base_metrics("GH100", on_base, &h, reason, sizeof(reason));
	int nb = tcp_counters_base_metrics("GB100", on_base, &b, reason, sizeof(reason));
	if (nh < 0 || nb < 0)
		fail_msg("%s", reason);
	assert_int_equal(nh, h.n);
	assert_int_equal(nb, b.n);
	assert_true(nh > 1000 && nb > 1000);
	assert_true(h.gmma && !h.tc && !h.tmem_reads && !h.utcmma);
	assert_true(!b.gmma && b.tc && b.tmem_reads && b.utcmma);
	for (int i = 0; i < h.nset; i++)
		if (!h.set_found[i])
			fail_msg("GH100 base list lacks %s", h.set[i].name);
	for (int i = 0; i < b.nset; i++)
		if (!b.set_found[i])
			fail_msg("GB100 base list lacks %s", b.set[i].name);
	assert_int_equal(tcp_counters_base_metrics("GX999", on_base, &h, reason, sizeof(reason)), -1);

	const char *const *chips = tcp_counters_chips(reason, sizeof(reason));
	assert_non_null(chips);
	int gh = 0, gb = 0;
	for (int i = 0; chips[i]; i++) {
		gh |= !strcmp(chips[i], "GH100");
		gb |= !strcmp(chips[i], "GB100");
	}
	assert_true(gh && gb);
}

static void test_remedies(void **state)
{
	(void)state;
	const char *r = tcp_counters_remedy(35);	/* INSUFFICIENT_PRIVILEGES */
	assert_non_null(strstr(r, "NVreg_RestrictProfilingToAdminUsers=0"));
	assert_non_null(strstr(r, "CAP_SYS_ADMIN"));
	assert_non_null(strstr(tcp_counters_remedy(26), "ncu"));		/* HARDWARE_BUSY */
	assert_non_null(strstr(tcp_counters_remedy(39), "ncu"));		/* MULTIPLE_SUBSCRIBERS */
	assert_non_null(strstr(tcp_counters_remedy(40), "vGPU"));		/* VIRTUALIZED_..._PRIVILEGES */
	assert_non_null(strstr(tcp_counters_remedy(33), "bare metal"));	/* VIRTUALIZED_NOT_SUPPORTED */
	assert_non_null(strstr(tcp_counters_remedy(43), "MIG"));
	assert_non_null(strstr(tcp_counters_remedy(17), "counters --list"));
	assert_true(strlen(tcp_counters_remedy(123456)) > 0);

	char buf[TCP_REASON_LEN];
	tcp_counters_error_text(35, "cuptiRangeProfilerEnable", buf, sizeof(buf));
	assert_string_equal(strstr(buf, "; remedy: ") + 10, tcp_counters_remedy(35));
	assert_true(!strncmp(buf, "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES in cuptiRangeProfilerEnable; ", 65));
	/* every text fits a CSV reason whole, on one line */
	int codes[60], nc = 0;
	for (int c = 0; c <= 46; c++)
		codes[nc++] = c;
	codes[nc++] = 999;
	for (int i = 0; i < nc; i++) {
		char big[1024];
		tcp_counters_error_text(codes[i], "cuptiRangeProfilerCounterDataImageInitialize", big,
					sizeof(big));
		if (strlen(big) >= TCP_REASON_LEN)
			fail_msg("code %d: %zu chars: %s", codes[i], strlen(big), big);
		assert_null(strchr(big, '\n'));
		assert_null(strchr(big, '\r'));
	}
}

static double frand(double lo, double hi)
{
	return lo + (hi - lo) * ((double)rand() / RAND_MAX);
}

static void test_rows(void **state)
{
	(void)state;
	char reason[TCP_REASON_LEN];
	tcp_counters_t *t = tcp_counters_open_chip("GH100", "default", NULL, reason, sizeof(reason));
	if (!t)
		fail_msg("%s", reason);
	int n = tcp_counters_nmetrics(t), ti = tcp_counters_tensor_inst_metric(t), ci = -1;
	for (int i = 0; i < n; i++)
		if (tcp_counters_info(t, i)->role == TCP_CTR_CLOCK)
			ci = i;
	double v[TCP_COUNTERS_MAX_METRICS];
	for (int i = 0; i < n; i++)
		v[i] = floor(frand(1, 1e9));
	v[ci] = frand(1000, 2000);
	tcp_counter_row_t rows[TCP_COUNTERS_MAX_ROWS];

	/* exact match: every row OK, checks present */
	double tclk = frand(1000, 2000);
	tcp_counters_input_t in = { v, NULL, v[ti], tclk };
	int nr = tcp_counters_rows(t, 90, "default", &in, rows);
	assert_int_equal(nr, n + 2);
	for (int i = 0; i < n; i++) {
		char want[160];
		snprintf(want, sizeof(want), "cupti/%s", tcp_counters_metric(t, i));
		assert_string_equal(rows[i].metric, want);
		assert_string_equal(rows[i].unit, tcp_counters_unit(t, i));
		assert_true(rows[i].value == v[i]);
		assert_int_equal(rows[i].status, TCP_OK);
		assert_string_equal(rows[i].reason, "");
	}
	assert_string_equal(rows[n].metric, "cupti/check/tensor_insts_delta");
	assert_string_equal(rows[n].unit, "insts");
	assert_true(rows[n].value == 0);
	assert_int_equal(rows[n].status, TCP_OK);
	assert_string_equal(rows[n + 1].metric, "cupti/check/sm_clock_ratio");
	assert_true(fabs(rows[n + 1].value - v[ci] / tclk) < 1e-12);
	assert_int_equal(rows[n + 1].status, TCP_OK);

	/* off by k: INVALID, both numbers in the reason */
	double k = floor(frand(1, 1000));
	in.issued_tensor_insts = v[ti] - k;
	nr = tcp_counters_rows(t, 90, "default", &in, rows);
	assert_true(rows[n].value == k);
	assert_int_equal(rows[n].status, TCP_INVALID);
	char num[64];
	snprintf(num, sizeof(num), "counted %.0f", v[ti]);
	assert_non_null(strstr(rows[n].reason, num));
	snprintf(num, sizeof(num), "issued %.0f", v[ti] - k);
	assert_non_null(strstr(rows[n].reason, num));
	for (int i = 0; i < nr; i++)
		if (i != n)
			assert_int_equal(rows[i].status, TCP_OK);

	/* probe issues no tensor instructions: no tensor check row; no clock: NA */
	in.issued_tensor_insts = -1;
	in.timing_clock_mhz = NAN;
	nr = tcp_counters_rows(t, 90, "default", &in, rows);
	assert_int_equal(nr, n + 1);
	assert_string_equal(rows[n].metric, "cupti/check/sm_clock_ratio");
	assert_true(isnan(rows[n].value));

	/* measure failed: every row NA with the reason, names unchanged */
	in = (tcp_counters_input_t){ NULL, "CUPTI_ERROR_HARDWARE_BUSY in x; remedy: y", 64, 1500 };
	nr = tcp_counters_rows(t, 90, "default", &in, rows);
	assert_int_equal(nr, n + 2);
	for (int i = 0; i < nr; i++) {
		assert_true(isnan(rows[i].value));
		assert_int_equal(rows[i].status, TCP_UNSUPPORTED);
		assert_string_equal(rows[i].reason, in.reason);
	}
	tcp_counters_close(t);

	/* open failed (t NULL): the same names as the chip's default set */
	int cc[] = { 90, 100 };
	for (int c = 0; c < 2; c++) {
		int nd;
		const tcp_counter_metric_t *s =
			tcp_counters_default_set(tcp_counters_chip_for_cc(cc[c]), &nd, NULL);
		nr = tcp_counters_rows(NULL, cc[c], "default", &in, rows);
		assert_int_equal(nr, nd + 2);
		for (int i = 0; i < nd; i++) {
			assert_string_equal(rows[i].metric + 6, s[i].name);
			assert_string_equal(rows[i].unit, s[i].unit);
			assert_int_equal(rows[i].status, TCP_UNSUPPORTED);
		}
	}
	nr = tcp_counters_rows(NULL, 90, "a__x.sum, sm__inst_executed_pipe_tensor_op_gmma.sum", &in, rows);
	assert_int_equal(nr, 3);
	assert_string_equal(rows[0].metric, "cupti/a__x.sum");
	assert_string_equal(rows[1].unit, "insts");
	assert_string_equal(rows[2].metric, "cupti/check/tensor_insts_delta");
}

static void test_timer_parse(void **state)
{
	(void)state;
	tcp_timer_t t = TCP_TIMER_CUPTI;
	char err[TCP_REASON_LEN];
	assert_int_equal(tcp_timer_parse("events", &t, err, sizeof(err)), 0);
	assert_int_equal(t, TCP_TIMER_EVENTS);
	assert_int_equal(tcp_timer_parse("cupti", &t, err, sizeof(err)), 0);
	assert_int_equal(t, TCP_TIMER_CUPTI);
	assert_string_equal(tcp_timer_name(t), "cupti");
	assert_int_equal(tcp_timer_parse("nvtx", &t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'nvtx'"));
	assert_non_null(strstr(err, "events, cupti"));
	assert_int_equal(tcp_timer_parse(NULL, &t, err, sizeof(err)), -1);
	tcp_cupti_timing_t tm;
	assert_int_equal(tcp_cupti_timer_end(&tm, err, sizeof(err)), -1);	/* not open */
}

/* Run `tcprobe counters ARGS` in a child with stdout/stderr silenced. */
static int run_cmd(int argc, char **argv)
{
	pid_t p = fork();
	if (p == 0) {
		if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
			_exit(99);
		_exit(tcp_cmd_counters(argc, argv));
	}
	int st = 0;
	waitpid(p, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 100;
}

static void test_cmd(void **state)
{
	(void)state;
	char *ok[] = { "counters", "--list", "--chip", "GH100" };
	assert_int_equal(run_cmd(4, ok), 0);
	char *all[] = { "counters", "--list", "--chip=GB100", "--all" };
	assert_int_equal(run_cmd(4, all), 0);
	char *badchip[] = { "counters", "--list", "--chip", "GX999" };
	assert_int_equal(run_cmd(4, badchip), 2);
	char *badopt[] = { "counters", "--lst" };
	assert_int_equal(run_cmd(2, badopt), 2);
	char *nochip[] = { "counters", "--chip" };
	assert_int_equal(run_cmd(2, nochip), 2);
}

/* With no libcupti at all: NULL with the loader's reason and remedy, no crash. */
static void test_missing_libcupti(void **state)
{
	(void)state;
	pid_t p = fork();
	if (p == 0) {
		setenv("TCPROBE_CUPTI_LIB", "/nonexistent/libcupti.so.13", 1);
		char reason[TCP_REASON_LEN];
		tcp_counters_t *t = tcp_counters_open_chip("GH100", "default", NULL, reason, sizeof(reason));
		int good = !t && strstr(reason, "TCPROBE_CUPTI_LIB") && strstr(reason, "LD_LIBRARY_PATH");
		t = tcp_counters_open(0, "default", reason, sizeof(reason));
		good = good && !t && strstr(reason, "remedy");
		good = good && tcp_cupti_timer_open(reason, sizeof(reason)) == -1;
		/* rows still come out, NA with the reason */
		tcp_counters_input_t in = { NULL, reason, -1, NAN };
		tcp_counter_row_t rows[TCP_COUNTERS_MAX_ROWS];
		good = good && tcp_counters_rows(NULL, 90, "default", &in, rows) > 6;
		_exit(good ? 0 : 1);
	}
	int st = 0;
	waitpid(p, &st, 0);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/*
 * The range bookkeeping of the counter-data image (counters-book.h), against
 * a model of what CUPTI does with it: DecodeData appends a point's ranges
 * after the ones already there (append) or the image was initialised first;
 * ranges beyond the image's room are dropped and counted.  Each range is
 * tagged with the point that launched it: every point must evaluate exactly
 * its own kernels, whatever it launched and in whatever order.
 */
struct fake_image {
	int cap, total;
	int tag[TCP_COUNTERS_MAX_RANGES];
	int restart;	/* a CUPTI that does not append: each session from range 0 */
};

/* One counter pass of `kernels` launches of point `pt`, as measure_once()
 * drives the book: 0 and the point's ranges, or -1 (FAIL) with why. */
static int fake_measure(tcp_ctr_book_t *b, struct fake_image *im, int pt, int kernels, int *first,
			int *count, int *tries, char *why, size_t len)
{
	for (*tries = 1; *tries <= 3; ++*tries) {
		if (im->cap != b->cap) {	/* image_alloc */
			im->cap = b->cap;
			im->total = 0;
			assert_int_equal(b->used, -1);
		}
		if (tcp_ctr_book_need_init(b)) {
			im->total = 0;
			tcp_ctr_book_did_init(b);
		}
		if (im->restart)
			im->total = 0;
		size_t dropped = 0;
		for (int k = 0; k < kernels; k++)
			if (im->total < im->cap)
				im->tag[im->total++] = pt;
			else
				dropped++;
		tcp_ctr_book_verdict_t v = tcp_ctr_book_after(b, (size_t)im->total, dropped, first, count, why, len);
		if (v == TCP_BOOK_OK)
			return 0;
		if (v == TCP_BOOK_FAIL)
			return -1;
		if (v == TCP_BOOK_GROW) {
			assert_true(*count > b->cap && *count <= b->max_cap);
			tcp_ctr_book_resize(b, *count);
		}
	}
	fail_msg("point %d: %d kernels did not fit in 3 tries", pt, kernels);
	return -1;
}

static void test_book(void **state)
{
	(void)state;
	test_seed("test_book");
	char why[TCP_REASON_LEN];
	for (int append = 0; append <= 1; append++) {
		tcp_ctr_book_t b;
		struct fake_image im = { 0, 0, { 0 }, 0 };
		tcp_ctr_book_init(&b, append ? TCP_COUNTERS_MAX_RANGES : TCP_COUNTERS_FRESH_RANGES,
				  TCP_COUNTERS_MAX_RANGES, append);
		int points = 2000, tried = 0, kernels = 1, runs = 1;
		double fills = 0;	/* images a perfect packing would fill */
		for (int pt = 1; pt <= points; pt++) {
			/* a sweep: runs of points of one probe, launching the same
			 * number of kernels; mostly 1-3, now and then up to the limit */
			uint64_t r = next_u64();
			if (r % 40 == 0) {
				kernels = (r >> 8) % 4 ? 1 + (int)((r >> 16) % 3)
						       : 1 + (int)((r >> 16) % TCP_COUNTERS_MAX_RANGES);
				runs++;
			}
			fills += 1.0 / (TCP_COUNTERS_MAX_RANGES / kernels);
			int first, count, tries;
			if (fake_measure(&b, &im, pt, kernels, &first, &count, &tries, why, sizeof(why)))
				fail_msg("append %d, point %d (%d kernels): %s", append, pt, kernels, why);
			assert_int_equal(count, kernels);
			for (int i = first; i < first + count; i++)
				assert_int_equal(im.tag[i], pt);
			/* only this point's ranges: the one before (if any) is another point's */
			if (first > 0)
				assert_int_not_equal(im.tag[first - 1], pt);
			tried += tries;
		}
		if (append) {
			/* the point of appending: an image per image-full of points (one
			 * more per change of probe), at most one retry per change */
			if (!(b.inits <= (int)fills + 2 * runs && tried <= points + runs))
				fail_msg("%d points in %d runs: %d initialisations (%.1f images full), %d tries",
					 points, runs, b.inits, fills, tried);
		} else {
			assert_int_equal(b.inits, tried);	/* initialised before every try */
			assert_true(b.cap <= TCP_COUNTERS_MAX_RANGES);
		}
	}
	/* one kernel a point (wgmma_tput): one initialisation per 256 points, no retry */
	tcp_ctr_book_t b;
	struct fake_image im = { 0, 0, { 0 }, 0 };
	int first, count, tries;
	tcp_ctr_book_init(&b, TCP_COUNTERS_MAX_RANGES, TCP_COUNTERS_MAX_RANGES, 1);
	for (int pt = 1; pt <= 1000; pt++) {
		assert_int_equal(fake_measure(&b, &im, pt, 1, &first, &count, &tries, why, sizeof(why)), 0);
		assert_int_equal(tries, 1);
		assert_int_equal(first, (pt - 1) % TCP_COUNTERS_MAX_RANGES);
	}
	assert_int_equal(b.inits, 4);
	/* more kernels than the limit: FAIL, saying how many and the limit */
	im.cap = 0;
	tcp_ctr_book_init(&b, TCP_COUNTERS_FRESH_RANGES, TCP_COUNTERS_MAX_RANGES, 1);
	assert_int_equal(fake_measure(&b, &im, 1, TCP_COUNTERS_MAX_RANGES + 3, &first, &count, &tries, why,
				      sizeof(why)), -1);
	assert_non_null(strstr(why, "259 kernels, at most 256"));
	/* ... and the next point still counts right */
	assert_int_equal(fake_measure(&b, &im, 2, 2, &first, &count, &tries, why, sizeof(why)), 0);
	assert_int_equal(count, 2);
	assert_int_equal(im.tag[first], 2);
	/* a run() that launches nothing */
	assert_int_equal(fake_measure(&b, &im, 3, 0, &first, &count, &tries, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no kernel"));
	assert_int_equal(fake_measure(&b, &im, 4, 1, &first, &count, &tries, why, sizeof(why)), 0);
	assert_int_equal(im.tag[first], 4);
	/* a CUPTI that restarts at range 0 in an appended image: caught, never misread */
	tcp_ctr_book_init(&b, TCP_COUNTERS_MAX_RANGES, TCP_COUNTERS_MAX_RANGES, 1);
	im.restart = 1;
	assert_int_equal(fake_measure(&b, &im, 5, 3, &first, &count, &tries, why, sizeof(why)), 0);
	assert_int_equal(fake_measure(&b, &im, 6, 1, &first, &count, &tries, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "did not append"));
	/* need_init: fresh mode always; append only when the room is short */
	tcp_ctr_book_init(&b, 4, 4, 1);
	assert_true(tcp_ctr_book_need_init(&b));
	tcp_ctr_book_did_init(&b);
	assert_false(tcp_ctr_book_need_init(&b));
	assert_int_equal(tcp_ctr_book_after(&b, 3, 0, &first, &count, why, sizeof(why)), TCP_BOOK_OK);
	assert_true(tcp_ctr_book_need_init(&b));	/* 1 left, a point took 3 */
	tcp_ctr_book_init(&b, 4, 4, 0);
	tcp_ctr_book_did_init(&b);
	assert_true(tcp_ctr_book_need_init(&b));
}

/* TCPROBE_COUNTERS_BATCH: the default, values, and the error naming the legal ones. */
static void test_batch_env(void **state)
{
	(void)state;
	static const struct {
		const char *value;	/* NULL: unset */
		int n;			/* -1: refused with `err` */
		const char *err;
	} cases[] = {
		{ NULL, TCP_COUNTERS_BATCH_DEFAULT, NULL },
		{ "1", 1, NULL },
		{ "64", 64, NULL },
		{ "65", -1,
		  "TCPROBE_COUNTERS_BATCH: got '65', expected an integer from 1 to 64 (points per counter pass; 1 = one at a time)" },
		{ "8x", -1,
		  "TCPROBE_COUNTERS_BATCH: got '8x', expected an integer from 1 to 64 (points per counter pass; 1 = one at a time)" },
		{ "0", -1,
		  "TCPROBE_COUNTERS_BATCH: got '0', expected an integer from 1 to 64 (points per counter pass; 1 = one at a time)" },
	};
	char err[TCP_REASON_LEN];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n = -2;
		if (cases[i].value)
			setenv("TCPROBE_COUNTERS_BATCH", cases[i].value, 1);
		else
			unsetenv("TCPROBE_COUNTERS_BATCH");
		if (cases[i].n >= 0) {
			assert_int_equal(tcp_counters_batch_env(&n, err, sizeof(err)), 0);
			assert_int_equal(n, cases[i].n);
		} else {
			assert_int_equal(tcp_counters_batch_env(&n, err, sizeof(err)), -1);
			assert_string_equal(err, cases[i].err);
			/* open() refuses the same way, before touching CUPTI */
			assert_null(tcp_counters_open(0, "default", err, sizeof(err)));
			assert_string_equal(err, cases[i].err);
		}
		unsetenv("TCPROBE_COUNTERS_BATCH");
	}
}

int main(void)
{
	srand((unsigned)time(NULL) ^ (unsigned)getpid());
	const struct CMUnitTest tests[] = {
		/* first: its child must not inherit an already loaded libcupti */
		cmocka_unit_test(test_missing_libcupti),
		cmocka_unit_test(test_sets_well_formed),
		cmocka_unit_test(test_set_selection),
		cmocka_unit_test(test_host_resolve_default),
		cmocka_unit_test(test_host_resolve_list),
		cmocka_unit_test(test_hopper_passes),
		cmocka_unit_test(test_base_metrics),
		cmocka_unit_test(test_remedies),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_timer_parse),
		cmocka_unit_test(test_cmd),
		cmocka_unit_test(test_book),
		cmocka_unit_test(test_batch_env),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
