/*
 * cmd-query.c
 *	`tcprobe query RUN_DIR`: what scripts need from a run, read by the run
 *	model (harness/store/run.h: plain or archived .gz, torn tail dropped),
 *	so that no script parses measurements.csv itself.  Rows selected by
 *	probe, metric and status come out as CSV; --summary gives the run's
 *	state (points, statuses, plan, torn/complete, duplicate rows).
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cmd/cmd-list.h"
#include "harness/store/run.h"

#define MAX_PAT 32
#define MAX_COLS 64

static const char help[] =
"usage: tcprobe query RUN_DIR [options]\n"
"\n"
"Rows of a run as CSV on stdout (header first), read the way report and\n"
"compare read them: measurements.csv or an archived measurements.csv.gz,\n"
"a torn last line dropped.  For scripts: select rows here, never parse the\n"
"run's files yourself.\n"
"\n"
"options:\n"
"  --probe PAT     only probes matching PAT (shell glob); repeatable\n"
"  --metric PAT    only metrics matching PAT (e.g. 'cupti/*'); repeatable\n"
"  --status WORD   only rows of this status (OK, FAILED, ...); repeatable\n"
"  --cols LIST     columns to print, comma-separated, any column of the file\n"
"                  (default point,probe,axes,metric,unit,median,status,reason)\n"
"  --points        one row per point (its first row) instead of one per metric\n"
"  --summary       key,value lines instead: rows, points, planned (NA without\n"
"                  plan.txt), unfinished, torn (0/1), complete (0/1),\n"
"                  duplicates (rows whose point already has that metric),\n"
"                  statuses (points per status, OK=3|SKIPPED=1), schema,\n"
"                  contended (points marked contended=1: another process\n"
"                  was on the GPU; 0 for a schema 1 run)\n"
"  -h, --help      this text\n"
"\n"
"exit status: 0, or 2 on bad options or an unreadable run (one line on stderr)\n";

static int match(const char *s, char *const *pat, int n)
{
	if (n == 0)
		return 1;
	for (int i = 0; i < n; i++)
		if (fnmatch(pat[i], s, 0) == 0)
			return 1;
	return 0;
}

/* Rows of the points' metrics that repeat a metric already seen for that point. */
static int duplicates(const tcp_run_t *r)
{
	int n = 0;

	for (int i = 0; i < r->npoints; i++) {
		const tcp_run_point_t *p = &r->points[i];
		for (int a = 1; a < p->nm; a++)
			for (int b = 0; b < a; b++)
				if (!strcmp(p->m[a]->metric, p->m[b]->metric)) {
					n++;
					break;
				}
	}
	return n;
}

static void summary(const tcp_run_t *r)
{
	/* by name, as scripts/ci/soak.sh lists them */
	static const int order[] = { TCP_BLOCKED, TCP_FAILED, TCP_INVALID, TCP_OK, TCP_SKIPPED, TCP_TIMEOUT,
				     TCP_UNSUPPORTED, -1 };
	int count[TCP_NSTATUS + 1] = { 0 };
	char statuses[256] = "";

	for (int i = 0; i < r->npoints; i++)
		count[r->points[i].status >= 0 ? r->points[i].status : TCP_NSTATUS]++;
	for (int k = 0; k < (int)(sizeof(order) / sizeof(order[0])); k++) {
		int s = order[k] >= 0 ? order[k] : TCP_NSTATUS;
		if (count[s])
			snprintf(statuses + strlen(statuses), sizeof(statuses) - strlen(statuses), "%s%s=%d",
				 *statuses ? "|" : "", order[k] >= 0 ? tcp_status_name((tcp_status_t)s) : "other",
				 count[s]);
	}
	printf("key,value\nrows,%d\npoints,%d\n", r->nrows, r->npoints);
	if (r->nplanned >= 0)
		printf("planned,%d\n", r->nplanned);
	else
		printf("planned,NA\n");
	printf("unfinished,%d\ntorn,%d\ncomplete,%d\nduplicates,%d\nstatuses,%s\nschema,%d\n",
	       r->nunfinished, r->torn_tail, tcp_run_complete(r), duplicates(r), *statuses ? statuses : "none",
	       r->schema);
	printf("contended,%d\n", tcp_run_contended(r, NULL, NULL));
}

static void put_row(const tcp_run_t *r, int row, char *const *cols, int ncols)
{
	char buf[4096];

	for (int c = 0; c < ncols; c++) {
		const char *v = row < 0 ? cols[c] : tcp_run_cell(r, row, cols[c]);
		fputs(tcp_csv_quote(v ? v : "", buf, sizeof(buf)), stdout);
		putchar(c + 1 < ncols ? ',' : '\n');
	}
}

int tcp_cmd_query(int argc, char **argv)
{
	char *probes[MAX_PAT], *metrics[MAX_PAT], *status[MAX_PAT], *cols[MAX_COLS];
	char deflt[] = "point,probe,axes,metric,unit,median,status,reason", *list = deflt;
	int np = 0, nm = 0, ns = 0, ncols = 0, points = 0, sum = 0;
	const char *dir = NULL;
	char err[1024];

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(help, stdout);
			return 0;
		} else if (!strcmp(a, "--points")) {
			points = 1;
		} else if (!strcmp(a, "--summary")) {
			sum = 1;
		} else if (!strcmp(a, "--probe") || !strcmp(a, "--metric") || !strcmp(a, "--status") ||
			   !strcmp(a, "--cols")) {
			if (i + 1 >= argc || !argv[i + 1][0]) {
				fprintf(stderr, "tcprobe query: %s: missing value\n", a);
				return 2;
			}
			char *v = argv[++i];
			int *n = a[2] == 'p' ? &np : a[2] == 'm' ? &nm : &ns;
			char **to = a[2] == 'p' ? probes : a[2] == 'm' ? metrics : status;
			if (a[2] == 'c') {
				list = v;
			} else if (*n == MAX_PAT) {
				fprintf(stderr, "tcprobe query: %s: more than %d values\n", a, MAX_PAT);
				return 2;
			} else {
				to[(*n)++] = v;
			}
		} else if (a[0] == '-') {
			fprintf(stderr, "tcprobe query: unknown option '%s', expected --probe, --metric, "
				"--status, --cols, --points, --summary or --help\n", a);
			return 2;
		} else if (dir) {
			fprintf(stderr, "tcprobe query: extra argument '%s': one RUN_DIR only\n", a);
			return 2;
		} else {
			dir = a;
		}
	}
	if (!dir) {
		fprintf(stderr, "tcprobe query: missing RUN_DIR, expected a results directory\n");
		return 2;
	}
	for (char *s = strtok(list, ","); s; s = strtok(NULL, ","))
		if (ncols < MAX_COLS)
			cols[ncols++] = s;

	tcp_run_t *r;
	if (tcp_run_open(dir, 0, &r, err, sizeof(err))) {
		fprintf(stderr, "tcprobe query: %s\n", err);
		return 2;
	}
	if (sum) {
		summary(r);
		tcp_run_free(r);
		return 0;
	}
	for (int c = 0; c < ncols; c++)
		if (!tcp_run_has_col(r, cols[c])) {
			fprintf(stderr, "tcprobe query: --cols: no column '%s' in %s\n", cols[c], r->meas_path);
			tcp_run_free(r);
			return 2;
		}
	put_row(r, -1, cols, ncols);
	for (int i = 0; i < r->nrows; i++) {
		const tcp_run_row_t *w = &r->rows[i];
		if ((points && r->points[w->point].m[0] != w) || !match(w->probe, probes, np) ||
		    !match(w->metric, metrics, nm) || !match(w->status_word, status, ns))
			continue;
		put_row(r, i, cols, ncols);
	}
	tcp_run_free(r);
	return 0;
}
