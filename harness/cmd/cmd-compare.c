/*
 * cmd-compare.c
 *	`tcprobe compare BASE_DIR NEW_DIR [NEW_DIR2 ...]`: did a driver, toolkit
 *	or GPU change make any point faster or slower than its noise?  The
 *	engine is harness/analyze/compare.c; this file is the CLI around it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cmd/cmd-list.h"
#include "harness/cmd/options.h"
#include "harness/analyze/compare.h"
#include "harness/sweep/supervisor.h"	/* TCP_EXIT_INCOMPLETE */

#define MAX_RUNS	64	/* NEW runs in one comparison */
#define MAX_PATTERNS	64	/* --probe / --metric patterns */

static const char usage[] = "usage: tcprobe compare BASE_DIR NEW_DIR [NEW_DIR2 ...] [options]\n";
static const char about[] =
"\n"
"Join results directories on (probe, axes, metric) and judge every NEW run\n"
"against BASE, point by point.  Prints the provenance diff (driver, CUDA,\n"
"clocks, power limit, ECC, GPU), then the points outside their noise band,\n"
"worst regression first, then a summary per run.\n"
"\n";
static const char epilog[] =
"\n"
"per point:\n"
"  ratio      new median / base median\n"
"  change     (new - base) / |base| x 100\n"
"  noise      max(noise floor, base spread, new spread), where a run's\n"
"             spread is its spread_pct: (max - min) / median x 100 over the\n"
"             point's reps\n"
"  verdict    same (|change| <= noise), faster / slower (outside the band,\n"
"             better / worse in the metric's direction: its metrics.csv,\n"
"             else the unit: cycles, ns lower; FLOP/clk/SM, TFLOP/s, B/clk/SM,\n"
"             MHz higher), changed (direction unknown), status_changed\n"
"             (OK -> FAILED ...), new, missing, unmeasured (same non-OK\n"
"             status in both)\n"
"\n"
"roles: each row is judged by its metric's role, from the run itself: BASE's\n"
"metrics.csv, else NEW's (a run written before tcprobe recorded roles takes\n"
"its partner's); a pair in which neither run has one is refused (exit 2).\n"
"  gated   cycle-domain and per-clock metrics: as above; the noise band is\n"
"          at least the metric's quantum and its absolute floor\n"
"  time    ns, TFLOP/s, MHz: a change outside the band is set against the\n"
"          point's own SM clock of the same pass (CUPTI's for cupti/ rows,\n"
"          the in-kernel clock metric for the others; else the other; never\n"
"          NVML's): \"slower (clock -3.2%)\" when the clock explains it (not\n"
"          a regression), else judged by the change beyond the clock;\n"
"          \"changed (no clock)\" on a point without a clock (not gated)\n"
"  info    host and launch latency, timer resolution, NVML samples: shown\n"
"          as \"slower (info)\", never a regression unless --gate-all\n"
"\n"
"CSV columns: base_run, probe, axes, metric, unit, better, base_median,\n"
"base_spread_pct, base_status, then per NEW run: new_run, new_median,\n"
"new_spread_pct, new_status, ratio, change_pct, noise_pct, verdict,\n"
"regression (the k-th run's columns end in _k, k >= 2), then role and per\n"
"NEW run judged (gated, clock, beyond_clock, no_clock, info) and clock_pct.\n"
"Rows in sweep order.\n"
"\n"
"Runs of different GPU models are compared with a warning; a schema version\n"
"newer than this binary reads is refused.  An EMULATED run (the emulation\n"
"build, provenance `emulated`; docs/emulated-runs.md) is compared with emulated\n"
"runs only (exit 2 otherwise), on status and validation alone: its medians are\n"
"not read, OK in both is same, OK in one and not OK in the other the regression.\n"
"\n"
"Where the runs hold a probe with different axes (an axis added since BASE),\n"
"a point at that axis's single default joins the other run's point without\n"
"it (a note names the axis and the points joined); a point at another value\n"
"is new, or missing the other way round.\n"
"\n"
"A NEW run is INCOMPLETE when it has no row at all of a (probe, axes,\n"
"metric) that is OK in BASE and that the filters keep: never written, or cut\n"
"off by a torn tail (a killed sweep, a full disk, a cut copy).  A row present\n"
"with another status is a status change, not missing; rows --probe, --metric\n"
"or --gpu leave out are never missing.  Compare a subset on purpose (quick vs\n"
"default plan, H200 vs B200) with --allow-missing or a filter.\n"
"\n"
"\n";

/* What the command line sets. */
typedef struct {
	char *dirs[MAX_RUNS + 1];
	int all, quiet, top, allow_missing, gate_all;
	double threshold, floor_pct;
	const char *csv, *roles_path;
	tcp_meta_set_t *roles;		/* --roles FILE, loaded */
	const char *probes[MAX_PATTERNS], *metrics[MAX_PATTERNS];
	char *pool[2 * MAX_PATTERNS];	/* the --probe / --metric values, split in copies */
	int npool, nprobes, nmetrics, ndirs;
} cmp_args_t;

/* --probe, --metric: a pattern or a comma list of them, into o->list. */
static int patterns_cb(tcp_opt_t *o, const char *val, char *err, size_t len)
{
	cmp_args_t *a = o->ctx;
	char *copy = *val && a->npool < 2 * MAX_PATTERNS ? strdup(val) : NULL;

	if (!*val)
		return tcp_opt_bad(err, len, o, val, "a name or glob");
	if (!copy)
		return tcp_opt_bad(err, len, o, val, "at most %d patterns", MAX_PATTERNS);
	a->pool[a->npool++] = copy;
	for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (*o->nlist >= MAX_PATTERNS)
			return tcp_opt_bad(err, len, o, val, "at most %d patterns", MAX_PATTERNS);
		o->list[(*o->nlist)++] = tok;
	}
	return 0;
}

/* --roles FILE: a metrics.csv, loaded now. */
static int roles_cb(tcp_opt_t *o, const char *val, char *err, size_t len)
{
	cmp_args_t *a = o->ctx;
	char e[TCP_CMP_ERRLEN];

	tcp_meta_set_free(a->roles);
	a->roles = NULL;
	if (!*val)
		return tcp_opt_bad(err, len, o, val, "a metrics.csv file");
	if (tcp_meta_load(val, &a->roles, e, sizeof(e))) {
		snprintf(err, len, "--roles: %s", e);
		return -1;
	}
	a->roles_path = val;
	return 0;
}

/* The command line into a: TCP_OPTS_OK, or the exit status (help, one bad-input line). */
static int parse(cmp_args_t *a, tcp_cmp_filter_t *f, int argc, char **argv)
{
	tcp_opt_t opts[] = {
		{ .name = "--threshold", .metavar = "PCT", .kind = TCP_OPT_PERCENT, .lo = 0, .hi = 1000, .def = "3",
		  .dval = &a->threshold, .help = "regression gate, percent: a point counts as a regression when "
		  "it is worse by more than PCT and outside its noise band, or went from OK to not OK" },
		{ .name = "--noise-floor", .metavar = "PCT", .kind = TCP_OPT_PERCENT, .lo = 0, .hi = 100, .def = "1",
		  .dval = &a->floor_pct, .help = "smallest noise band, percent" },
		{ .name = "--metric", .metavar = "PAT", .kind = TCP_OPT_LIST, .list = a->metrics, .nlist = &a->nmetrics,
		  .fn = patterns_cb, .ctx = a, .help = "only metrics matching PAT (shell glob, e.g. 'cupti/*'); "
		  "repeatable, or a comma list" },
		{ .name = "--probe", .metavar = "PAT", .kind = TCP_OPT_LIST, .list = a->probes, .nlist = &a->nprobes,
		  .fn = patterns_cb, .ctx = a, .help = "only probes matching PAT; repeatable, or a comma list" },
		{ .name = "--gpu", .metavar = "N", .kind = TCP_OPT_INT, .lo = 0, .hi = 1023, .what = "a CUDA ordinal",
		  .ival = &f->gpu, .help = "only rows of CUDA ordinal N, in every run (multi-GPU runs)" },
		{ .name = "--csv", .metavar = "FILE", .kind = TCP_OPT_STRING, .sval = &a->csv,
		  .what = "a file name or '-'", .help = "write the comparison as CSV ('-' = stdout, the report "
		  "then goes to stderr)" },
		{ .name = "--all", .kind = TCP_OPT_FLAG, .ival = &a->all,
		  .help = "list every joined point, not only those that changed" },
		{ .name = "--top", .metavar = "N", .kind = TCP_OPT_INT, .lo = 1, .hi = 1000000, .what = "a row count",
		  .ival = &a->top, .help = "list at most N points in the table (the CSV has all)" },
		{ .name = "--allow-missing", .kind = TCP_OPT_FLAG, .ival = &a->allow_missing,
		  .help = "rows OK in BASE that a NEW run lacks (a smaller plan, a GPU without those probes) do "
		  "not fail the comparison; without it they exit 9 (see below)" },
		{ .name = "--gate-all", .kind = TCP_OPT_FLAG, .ival = &a->gate_all,
		  .help = "gate informational rows and time-domain rows without a clock too (roles, below)" },
		{ .name = "--roles", .metavar = "FILE", .kind = TCP_OPT_STRING, .fn = roles_cb, .ctx = a,
		  .what = "a metrics.csv file", .help = "judge every pair by this metrics.csv (e.g. `tcprobe list "
		  "--metrics > FILE`) instead of the runs' own: for two runs written before tcprobe recorded roles" },
		{ .name = "--quiet", .kind = TCP_OPT_FLAG, .ival = &a->quiet, .help = "print only the result lines" },
	};
	char what[96];
	tcp_cmd_spec_t cmd = { .name = "compare", .usage = usage, .about = about, .epilog = epilog, .opts = opts,
			       .nopts = TCP_NOPTS(opts), .min_args = 2, .max_args = MAX_RUNS + 1, .args = a->dirs,
			       .args_what = what };

	snprintf(what, sizeof(what), "BASE_DIR NEW_DIR [NEW_DIR2 ...] (at most %d results directories)",
		 MAX_RUNS + 1);
	int rc = tcp_opts_parse(&cmd, argc, argv, 1);

	f->probes = a->probes;
	f->nprobes = a->nprobes;
	f->metrics = a->metrics;
	f->nmetrics = a->nmetrics;
	a->ndirs = cmd.nargs;
	return rc;
}

/* Every run of a, loaded and checked against BASE (runs[0]): 0, or 2 after one line. */
static int load(const cmp_args_t *a, const tcp_cmp_filter_t *f, tcp_cmp_run_t *runs, int *nloaded)
{
	char err[TCP_CMP_ERRLEN];

	for (int i = 0; i < a->ndirs; i++, ++*nloaded)
		if (tcp_cmp_run_load(a->dirs[i], f, &runs[i], err, sizeof(err)) != 0) {
			++*nloaded;	/* free what it loaded */
			fprintf(stderr, "tcprobe compare: %s\n", err);
			return 2;
		}
	for (int i = 0; i < a->ndirs; i++)
		if (runs[i].npoints == 0) {
			fprintf(stderr, "tcprobe compare: %s/measurements.csv: no rows left after the "
				"--probe/--metric/--gpu filters\n", runs[i].dir);
			return 2;
		}
	if (tcp_cmp_same_kind(&runs[0], runs + 1, a->ndirs - 1, err, sizeof(err))) {
		fprintf(stderr, "tcprobe compare: %s\n", err);
		return 2;
	}
	return 0;
}

/* --csv: the comparison as CSV (stdout for '-': *report becomes stderr).  0, or 2 after one line. */
static int write_csv(const char *csv, const tcp_cmp_t *cmp, tcp_cmp_run_t *runs, FILE **report)
{
	FILE *cf = strcmp(csv, "-") ? fopen(csv, "w") : stdout;

	if (!cf) {
		fprintf(stderr, "tcprobe compare: --csv %s: %s\n", csv, strerror(errno));
		return 2;
	}
	int werr = tcp_cmp_write_csv(cf, cmp, &runs[0], runs + 1);
	if (cf == stdout) {
		*report = stderr;
		werr |= fflush(cf);
	} else {
		werr |= fclose(cf);
	}
	if (werr) {
		fprintf(stderr, "tcprobe compare: --csv %s: write failed: %s\n", csv, strerror(errno));
		return 2;
	}
	return 0;
}

/* Join, write, print: the exit status. */
static int judge(const cmp_args_t *a, tcp_cmp_run_t *runs, tcp_cmp_t *cmp)
{
	const tcp_cmp_opts_t opts = { .noise_floor_pct = a->floor_pct, .threshold_pct = a->threshold,
				      .gate_all = a->gate_all, .roles = a->roles, .roles_path = a->roles_path };
	char err[TCP_CMP_ERRLEN], line[3000];
	FILE *report = stdout;
	int rc, n = a->ndirs - 1;

	if (tcp_cmp_roles_check(&runs[0], runs + 1, n, &opts, err, sizeof(err)) ||
	    tcp_cmp_join_opts(&runs[0], runs + 1, n, &opts, cmp, err, sizeof(err)) != 0) {
		fprintf(stderr, "tcprobe compare: %s\n", err);
		return 2;
	}
	if (a->csv && (rc = write_csv(a->csv, cmp, runs, &report)))
		return rc;
	tcp_cmp_sort(cmp);
	cmp->allow_missing = a->allow_missing;
	if (a->quiet)
		rc = tcp_cmp_print_result(report, cmp, &runs[0], runs + 1);
	else
		rc = (tcp_cmp_print(report, cmp, &runs[0], runs + 1, a->all, a->top), tcp_cmp_status(cmp));
	/* the failure's one line on stderr (docs/exit-codes.md): the first incomplete run */
	for (int r = 0; rc == TCP_EXIT_INCOMPLETE && r < n; r++)
		if (tcp_cmp_incomplete(cmp, &runs[0], runs + 1, r, line, sizeof(line))) {
			fprintf(stderr, "tcprobe compare: INCOMPLETE: %s; %s\n", line, TCP_CMP_SUBSET_HINT);
			break;
		}
	return rc;
}

/*
 *  tcp_cmd_compare()
 *	Parse, load every run (any input error: one line, exit 2), join, write
 *	the CSV, print the report, exit 0/1 on the gate.
 */
int tcp_cmd_compare(int argc, char **argv)
{
	cmp_args_t a = { .threshold = TCP_CMP_THRESHOLD, .floor_pct = TCP_CMP_NOISE_FLOOR };
	tcp_cmp_filter_t f = { .gpu = -1 };
	tcp_cmp_run_t *runs = NULL;
	tcp_cmp_t cmp = { 0 };
	int nloaded = 0, rc = parse(&a, &f, argc, argv);

	if (rc != TCP_OPTS_OK)
		goto out;
	rc = 2;
	runs = calloc((size_t)a.ndirs, sizeof(*runs));
	if (!runs) {
		fprintf(stderr, "tcprobe compare: out of memory\n");
		goto out;
	}
	if (!(rc = load(&a, &f, runs, &nloaded)))
		rc = judge(&a, runs, &cmp);
out:
	tcp_cmp_free(&cmp);
	for (int i = 0; runs && i < nloaded && i < a.ndirs; i++)
		tcp_cmp_run_free(&runs[i]);
	free(runs);
	tcp_meta_set_free(a.roles);
	for (int i = 0; i < a.npool; i++)
		free(a.pool[i]);
	return rc;
}
