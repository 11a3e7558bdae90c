/*
 * cmd-compare.c
 *	`tcprobe compare BASE_DIR NEW_DIR [NEW_DIR2 ...]`: did a driver, toolkit
 *	or GPU change make any point faster or slower than its noise?  The
 *	engine is harness/analyze/compare.c; this file is the CLI around it.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cmd/cmd-list.h"
#include "harness/analyze/compare.h"
#include "harness/sweep/supervisor.h"	/* TCP_EXIT_INCOMPLETE */

#define MAX_RUNS	64	/* NEW runs in one comparison */
#define MAX_PATTERNS	64	/* --probe / --metric patterns */

static const char help[] =
"usage: tcprobe compare BASE_DIR NEW_DIR [NEW_DIR2 ...] [options]\n"
"\n"
"Join results directories on (probe, axes, metric) and judge every NEW run\n"
"against BASE, point by point.  Prints the provenance diff (driver, CUDA,\n"
"clocks, power limit, ECC, GPU), then the points outside their noise band,\n"
"worst regression first, then a summary per run.\n"
"\n"
"options:\n"
"  --threshold PCT    regression gate, percent (default 3): a point counts\n"
"                     as a regression when it is worse by more than PCT and\n"
"                     outside its noise band, or went from OK to not OK\n"
"  --noise-floor PCT  smallest noise band, percent (default 1)\n"
"  --metric PAT       only metrics matching PAT (shell glob, e.g. 'cupti/*');\n"
"                     repeatable, or a comma list\n"
"  --probe PAT        only probes matching PAT; repeatable, or a comma list\n"
"  --gpu N            only rows of CUDA ordinal N, in every run (multi-GPU runs)\n"
"  --csv FILE         write the comparison as CSV ('-' = stdout, the report\n"
"                     then goes to stderr)\n"
"  --all              list every joined point, not only those that changed\n"
"  --top N            list at most N points in the table (the CSV has all)\n"
"  --allow-missing    rows OK in BASE that a NEW run lacks (a smaller plan, a\n"
"                     GPU without those probes) do not fail the comparison;\n"
"                     without it they exit 9 (see below)\n"
"  --gate-all         gate informational rows and time-domain rows without a\n"
"                     clock too (roles, below)\n"
"  --roles FILE       judge every pair by this metrics.csv (e.g. `tcprobe list\n"
"                     --metrics > FILE`) instead of the runs' own: for two runs\n"
"                     written before tcprobe recorded roles\n"
"  --quiet            print only the result lines\n"
"  -h, --help         this text\n"
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
"exit status: 0 no regression, 1 regression beyond the gate,\n"
"             2 usage or input error (one line naming the file and line;\n"
"               a pair without roles: one line naming both directories),\n"
"             9 a NEW run is incomplete (takes precedence over 1; the\n"
"               result line still says whether the common rows regressed)\n";

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "tcprobe compare: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return 2;
}

/* A percentage option value: a number in [lo, hi]. */
static int parse_pct(const char *opt, const char *s, double lo, double hi, double *v)
{
	char *end;
	errno = 0;
	*v = s ? strtod(s, &end) : NAN;
	if (!s || !*s || *end || errno || !isfinite(*v) || *v < lo || *v > hi) {
		fprintf(stderr, "tcprobe compare: %s: got '%s', expected a percentage %g..%g\n",
			opt, s ? s : "", lo, hi);
		return -1;
	}
	return 0;
}

/* Split a comma list into patterns (pointers into a strdup'd copy). */
static int add_patterns(const char *opt, const char *s, char **pool, int *npool,
			const char **pats, int *n)
{
	if (!s || !*s) {
		fprintf(stderr, "tcprobe compare: %s: got '', expected a name or glob\n", opt);
		return -1;
	}
	char *copy = *npool < 2 * MAX_PATTERNS ? strdup(s) : NULL;
	if (!copy) {
		fprintf(stderr, "tcprobe compare: %s: too many patterns (at most %d)\n", opt,
			MAX_PATTERNS);
		return -1;
	}
	pool[(*npool)++] = copy;
	for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (*n >= MAX_PATTERNS) {
			fprintf(stderr, "tcprobe compare: %s: too many patterns (at most %d)\n", opt,
				MAX_PATTERNS);
			return -1;
		}
		pats[(*n)++] = tok;
	}
	return 0;
}

/*
 *  tcp_cmd_compare()
 *	Parse, load every run (any input error: one line, exit 2), join, write
 *	the CSV, print the report, exit 0/1 on the gate.
 */
int tcp_cmd_compare(int argc, char **argv)
{
	const char *dirs[MAX_RUNS + 1];
	int ndirs = 0, all = 0, quiet = 0, rc = 2, npool = 0, top = 0, allow_missing = 0, gate_all = 0;
	const char *roles_path = NULL;
	tcp_meta_set_t *roles = NULL;
	double threshold = TCP_CMP_THRESHOLD, floor_pct = TCP_CMP_NOISE_FLOOR;
	const char *csv = NULL;
	const char *probes[MAX_PATTERNS], *metrics[MAX_PATTERNS];
	char *pool[2 * MAX_PATTERNS];
	tcp_cmp_filter_t f = { .probes = probes, .metrics = metrics, .gpu = -1 };
	tcp_cmp_run_t *runs = NULL;
	tcp_cmp_t cmp = { 0 };
	int nloaded = 0;
	char err[TCP_CMP_ERRLEN];

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		char opt[64] = "";
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(help, stdout);
			rc = 0;
			goto out;
		}
		if (!strcmp(a, "--all")) {
			all = 1;
			continue;
		}
		if (!strcmp(a, "--quiet")) {
			quiet = 1;
			continue;
		}
		if (!strcmp(a, "--allow-missing")) {
			allow_missing = 1;
			continue;
		}
		if (!strcmp(a, "--gate-all")) {
			gate_all = 1;
			continue;
		}
		if (a[0] == '-' && a[1] == '-') {
			/* --opt VALUE or --opt=VALUE */
			const char *eq = strchr(a, '=');
			size_t n = eq ? (size_t)(eq - a) : strlen(a);
			snprintf(opt, sizeof(opt), "%.*s", (int)(n < 63 ? n : 63), a);
			static const char *const with_val[] = {
				"--threshold", "--noise-floor", "--metric", "--probe", "--gpu", "--csv",
				"--top", "--roles", NULL
			};
			int known = 0;
			for (int k = 0; with_val[k]; k++)
				known |= !strcmp(opt, with_val[k]);
			if (!known) {
				rc = usage_error("unknown option '%s' (see tcprobe compare --help)", a);
				goto out;
			}
			if (eq)
				val = eq + 1;
			else if (i + 1 < argc)
				val = argv[++i];
			else {
				rc = usage_error("%s needs a value", opt);
				goto out;
			}
		} else if (a[0] == '-' && a[1]) {
			rc = usage_error("unknown option '%s' (see tcprobe compare --help)", a);
			goto out;
		} else {
			if (ndirs > MAX_RUNS) {
				rc = usage_error("too many results directories: got more than %d, expected "
						 "1 base + at most %d new", MAX_RUNS + 1, MAX_RUNS);
				goto out;
			}
			dirs[ndirs++] = a;
			continue;
		}

		if (!strcmp(opt, "--threshold")) {
			if (parse_pct(opt, val, 0, 1000, &threshold))
				goto out;
		} else if (!strcmp(opt, "--noise-floor")) {
			if (parse_pct(opt, val, 0, 100, &floor_pct))
				goto out;
		} else if (!strcmp(opt, "--metric")) {
			if (add_patterns(opt, val, pool, &npool, metrics, &f.nmetrics))
				goto out;
		} else if (!strcmp(opt, "--probe")) {
			if (add_patterns(opt, val, pool, &npool, probes, &f.nprobes))
				goto out;
		} else if (!strcmp(opt, "--gpu")) {
			char *end;
			long g = strtol(val, &end, 10);
			if (!*val || *end || g < 0 || g > 1023) {
				rc = usage_error("--gpu: got '%s', expected a CUDA ordinal 0..1023", val);
				goto out;
			}
			f.gpu = (int)g;
		} else if (!strcmp(opt, "--top")) {
			char *end;
			long n = strtol(val, &end, 10);
			if (!*val || *end || n < 1 || n > 1000000) {
				rc = usage_error("--top: got '%s', expected a row count 1..1000000", val);
				goto out;
			}
			top = (int)n;
		} else if (!strcmp(opt, "--csv")) {
			if (!*val) {
				rc = usage_error("--csv: got '', expected a file name or '-'");
				goto out;
			}
			csv = val;
		} else if (!strcmp(opt, "--roles")) {
			tcp_meta_set_free(roles);
			roles = NULL;
			if (!*val) {
				rc = usage_error("--roles: got '', expected a metrics.csv file");
				goto out;
			}
			if (tcp_meta_load(val, &roles, err, sizeof(err))) {
				rc = usage_error("--roles: %s", err);
				goto out;
			}
			roles_path = val;
		}
	}
	if (ndirs < 2) {
		rc = usage_error("got %d results director%s, expected BASE_DIR NEW_DIR [NEW_DIR2 ...] "
				 "(see tcprobe compare --help)", ndirs, ndirs == 1 ? "y" : "ies");
		goto out;
	}

	runs = calloc((size_t)ndirs, sizeof(*runs));
	if (!runs) {
		fprintf(stderr, "tcprobe compare: out of memory\n");
		goto out;
	}
	for (int i = 0; i < ndirs; i++, nloaded++)
		if (tcp_cmp_run_load(dirs[i], &f, &runs[i], err, sizeof(err)) != 0) {
			nloaded++;	/* free what it loaded */
			fprintf(stderr, "tcprobe compare: %s\n", err);
			goto out;
		}
	for (int i = 0; i < ndirs; i++)
		if (runs[i].npoints == 0) {
			fprintf(stderr, "tcprobe compare: %s/measurements.csv: no rows left after the "
				"--probe/--metric/--gpu filters\n", runs[i].dir);
			goto out;
		}
	if (tcp_cmp_same_kind(&runs[0], runs + 1, ndirs - 1, err, sizeof(err))) {
		fprintf(stderr, "tcprobe compare: %s\n", err);
		goto out;
	}
	const tcp_cmp_opts_t opts = { .noise_floor_pct = floor_pct, .threshold_pct = threshold, .gate_all = gate_all,
				      .roles = roles, .roles_path = roles_path };
	if (tcp_cmp_roles_check(&runs[0], runs + 1, ndirs - 1, &opts, err, sizeof(err)) ||
	    tcp_cmp_join_opts(&runs[0], runs + 1, ndirs - 1, &opts, &cmp, err, sizeof(err)) != 0) {
		fprintf(stderr, "tcprobe compare: %s\n", err);
		goto out;
	}

	FILE *report = stdout;
	if (csv) {
		FILE *cf = strcmp(csv, "-") ? fopen(csv, "w") : stdout;
		if (!cf) {
			fprintf(stderr, "tcprobe compare: --csv %s: %s\n", csv, strerror(errno));
			goto out;
		}
		int werr = tcp_cmp_write_csv(cf, &cmp, &runs[0], runs + 1);
		if (cf == stdout) {
			report = stderr;
			werr |= fflush(cf);
		} else {
			werr |= fclose(cf);
		}
		if (werr) {
			fprintf(stderr, "tcprobe compare: --csv %s: write failed: %s\n", csv,
				strerror(errno));
			goto out;
		}
	}

	tcp_cmp_sort(&cmp);
	cmp.allow_missing = allow_missing;
	if (quiet)
		rc = tcp_cmp_print_result(report, &cmp, &runs[0], runs + 1);
	else
		rc = (tcp_cmp_print(report, &cmp, &runs[0], runs + 1, all, top), tcp_cmp_status(&cmp));
	/* the failure's one line on stderr (docs/exit-codes.md): the first incomplete run */
	char line[3000];
	for (int r = 0; rc == TCP_EXIT_INCOMPLETE && r < ndirs - 1; r++)
		if (tcp_cmp_incomplete(&cmp, &runs[0], runs + 1, r, line, sizeof(line))) {
			fprintf(stderr, "tcprobe compare: INCOMPLETE: %s; %s\n", line, TCP_CMP_SUBSET_HINT);
			break;
		}
out:
	tcp_cmp_free(&cmp);
	for (int i = 0; runs && i < nloaded && i < ndirs; i++)
		tcp_cmp_run_free(&runs[i]);
	free(runs);
	tcp_meta_set_free(roles);
	for (int i = 0; i < npool; i++)
		free(pool[i]);
	return rc;
}
