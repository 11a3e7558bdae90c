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
#include "harness/cmd/options.h"
#include "harness/store/run.h"

#define MAX_PAT 32
#define MAX_COLS 64

static const char usage[] = "usage: tcprobe query RUN_DIR [options]\n";
static const char about[] =
"\n"
"Rows of a run as CSV on stdout (header first), read the way report and\n"
"compare read them: measurements.csv or an archived measurements.csv.gz,\n"
"a torn last line dropped.  For scripts: select rows here, never parse the\n"
"run's files yourself.\n"
"\n";
static const char epilog[] = "\n";

static int match(const char *s, const char *const *pat, int n)
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

/* What --probe, --metric, --status and --points select. */
typedef struct {
	const char *probes[MAX_PAT], *metrics[MAX_PAT], *status[MAX_PAT];
	int np, nm, ns, points;
} query_sel_t;

/* The rows q selects, columns `list` (comma-separated): 0, or 2 on an unknown column. */
static int rows(const tcp_run_t *r, char *list, const query_sel_t *q)
{
	char *cols[MAX_COLS];
	int ncols = 0;

	for (char *s = strtok(list, ","); s; s = strtok(NULL, ","))
		if (ncols < MAX_COLS)
			cols[ncols++] = s;
	for (int c = 0; c < ncols; c++)
		if (!tcp_run_has_col(r, cols[c])) {
			fprintf(stderr, "tcprobe query: --cols: no column '%s' in %s\n", cols[c], r->meas_path);
			return 2;
		}
	put_row(r, -1, cols, ncols);
	for (int i = 0; i < r->nrows; i++) {
		const tcp_run_row_t *w = &r->rows[i];
		if ((q->points && r->points[w->point].m[0] != w) || !match(w->probe, q->probes, q->np) ||
		    !match(w->metric, q->metrics, q->nm) || !match(w->status_word, q->status, q->ns))
			continue;
		put_row(r, i, cols, ncols);
	}
	return 0;
}

int tcp_cmd_query(int argc, char **argv)
{
	static const char deflt[] = "point,probe,axes,metric,unit,median,status,reason";
	const char *cols = NULL;
	char *dir = NULL;
	char list[4096];
	query_sel_t q = { .np = 0 };
	int sum = 0, rc;
	char err[1024];
	tcp_opt_t opts[] = {
		{ .name = "--probe", .metavar = "PAT", .kind = TCP_OPT_LIST, .list = q.probes, .nlist = &q.np,
		  .max = MAX_PAT, .what = "a probe name or shell glob",
		  .help = "only probes matching PAT (shell glob); repeatable" },
		{ .name = "--metric", .metavar = "PAT", .kind = TCP_OPT_LIST, .list = q.metrics, .nlist = &q.nm,
		  .max = MAX_PAT, .what = "a metric name or shell glob",
		  .help = "only metrics matching PAT (e.g. 'cupti/*'); repeatable" },
		{ .name = "--status", .metavar = "WORD", .kind = TCP_OPT_LIST, .list = q.status, .nlist = &q.ns,
		  .max = MAX_PAT, .what = "a status (OK, FAILED, ...)",
		  .help = "only rows of this status (OK, FAILED, ...); repeatable" },
		{ .name = "--cols", .metavar = "LIST", .kind = TCP_OPT_STRING, .sval = &cols,
		  .what = "comma-separated column names", .def = deflt,
		  .help = "columns to print, comma-separated, any column of the file" },
		{ .name = "--points", .kind = TCP_OPT_FLAG, .ival = &q.points,
		  .help = "one row per point (its first row) instead of one per metric" },
		{ .name = "--summary", .kind = TCP_OPT_FLAG, .ival = &sum,
		  .help = "key,value lines instead: rows, points, planned (NA without plan.txt), unfinished, "
			  "torn (0/1), complete (0/1), duplicates (rows whose point already has that metric), "
			  "statuses (points per status, OK=3|SKIPPED=1), schema, contended (points marked "
			  "contended=1: another process was on the GPU; 0 for a schema 1 run)" },
	};
	tcp_cmd_spec_t cmd = { .name = "query", .usage = usage, .about = about, .epilog = epilog, .opts = opts,
			       .nopts = TCP_NOPTS(opts), .args_what = "RUN_DIR (a results directory)",
			       .min_args = 1, .max_args = 1, .args = &dir };

	if ((rc = tcp_opts_parse(&cmd, argc, argv, 1)) != TCP_OPTS_OK)
		return rc;
	snprintf(list, sizeof(list), "%s", cols ? cols : deflt);

	tcp_run_t *r;
	if (tcp_run_open(dir, 0, &r, err, sizeof(err))) {
		fprintf(stderr, "tcprobe query: %s\n", err);
		return 2;
	}
	if (sum)
		summary(r);
	rc = sum ? 0 : rows(r, list, &q);
	tcp_run_free(r);
	return rc;
}
