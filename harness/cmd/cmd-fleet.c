/*
 * cmd-fleet.c
 *	`tcprobe fleet GROUP_DIR...`: many GPUs' runs -> one answer (fleet.h).
 *	Exit 0 no outlier, 1 outliers flagged, 2 usage or input error, 9 a run
 *	lacks rows another run of the group has OK (unless --allow-missing).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cmd/cmd-list.h"
#include "harness/cmd/options.h"
#include "harness/analyze/fleet.h"
#include "harness/sweep/supervisor.h"	/* TCP_EXIT_INCOMPLETE */

static const char usage[] = "usage: tcprobe fleet [options] DIR...\n";
static const char about[] =
	"Merge the runs under each DIR (a run directory, or a group directory that\n"
	"./sweep --gpus or scripts/tcprobe-slurm wrote: searched 3 levels deep) and\n"
	"report per point the median across GPUs, the spread, and outlier GPUs.\n"
	"A GPU is an outlier at a point when |x - median| > K x 1.4826 x MAD and\n"
	"|x - median| > FLOOR % of the median; its clock likewise (mean NVML SM clock).\n"
	"With fewer than 3 GPUs no GPU is flagged; the largest differences are listed.\n";

/* The per-point table at csv and the per-GPU one beside it (fleet-gpus.csv,
 * plots/fleet.gp reads both): 0, or 2 after one line on stderr. */
static int write_csvs(const tcp_fleet_t *f, const char *csv)
{
	char err[1400], gp[1300];
	const char *slash = strrchr(csv, '/');

	if (tcp_fleet_write_csv(f, csv, err, sizeof(err)) != 0) {
		fprintf(stderr, "tcprobe fleet: %s\n", err);
		return 2;
	}
	snprintf(gp, sizeof(gp), "%.*sfleet-gpus.csv", slash ? (int)(slash - csv + 1) : 0, csv);
	if (tcp_fleet_write_gpus_csv(f, gp, err, sizeof(err)) != 0) {
		fprintf(stderr, "tcprobe fleet: %s\n", err);
		return 2;
	}
	printf("\nper-point table: %s; per-GPU table: %s\n", csv, gp);
	return 0;
}

/* Print f, write its CSVs, say the first incomplete run: the exit status. */
static int report(tcp_fleet_t *f, char **dirs, int ndirs, const char *csv, int no_csv)
{
	char def[1200], line[4000];
	int rc;

	tcp_fleet_print(f, stdout);
	if (!csv && !no_csv && ndirs == 1) {
		snprintf(def, sizeof(def), "%s/fleet.csv", dirs[0]);
		csv = def;
	}
	if (csv && !no_csv && (rc = write_csvs(f, csv)))
		return rc;
	rc = tcp_fleet_status(f);
	for (int r = 0; rc == TCP_EXIT_INCOMPLETE && r < tcp_fleet_ngpus(f); r++)
		if (tcp_fleet_incomplete(f, r, line, sizeof(line))) {	/* the first: one line */
			fprintf(stderr, "tcprobe fleet: INCOMPLETE: %s; to merge runs of different plans "
				"pass --allow-missing or --metric\n", line);
			break;
		}
	return rc;
}

int tcp_cmd_fleet(int argc, char **argv)
{
	tcp_fleet_opts_t o = { .mad_k = 3, .floor_pct = 2, .metric = NULL };
	const char *csv = NULL;
	char *dirs[argc > 0 ? argc : 1];
	int no_csv = 0, rc;
	tcp_opt_t opts[] = {
		{ .name = "--mad", .metavar = "K", .kind = TCP_OPT_DOUBLE, .lo = 0, .hi = INFINITY,
		  .flags = TCP_OPT_LO_OPEN, .def = "3", .dval = &o.mad_k, .help = "robust z threshold" },
		{ .name = "--floor", .metavar = "PCT", .kind = TCP_OPT_PERCENT, .lo = 0, .hi = INFINITY, .def = "2",
		  .dval = &o.floor_pct, .help = "minimum relative deviation to flag, percent" },
		{ .name = "--metric", .metavar = "NAME", .kind = TCP_OPT_STRING, .sval = &o.metric,
		  .what = "a metric name", .help = "only this metric (e.g. flop_per_clk_sm, or cupti/...)" },
		{ .name = "--with-counters", .kind = TCP_OPT_FLAG, .ival = &o.with_counters,
		  .help = "also compare the cupti/ counter rows (default: the probes' own metrics)" },
		{ .name = "--csv", .metavar = "FILE", .kind = TCP_OPT_STRING, .sval = &csv, .what = "a file name",
		  .help = "write the per-(point, GPU) table (default: DIR/fleet.csv for one DIR) and the "
			  "per-GPU summary fleet-gpus.csv beside it" },
		{ .name = "--no-csv", .kind = TCP_OPT_FLAG, .ival = &no_csv, .help = "write no CSV" },
		{ .name = "--allow-missing", .kind = TCP_OPT_FLAG, .ival = &o.allow_missing,
		  .help = "a run that lacks rows OK in another run of the group (a killed sweep, a cut copy, "
			  "a smaller plan) does not fail" },
	};
	tcp_cmd_spec_t cmd = { .name = "fleet", .usage = usage, .about = about, .opts = opts,
			       .nopts = TCP_NOPTS(opts), .args_what = "DIR... (run or group directories)",
			       .min_args = 1, .max_args = argc, .args = dirs };
	char err[1400];

	if ((rc = tcp_opts_parse(&cmd, argc, argv, 1)) != TCP_OPTS_OK)
		return rc;
	tcp_fleet_t *f = tcp_fleet_load(dirs, cmd.nargs, &o, err, sizeof(err));
	if (!f) {
		fprintf(stderr, "tcprobe fleet: %s\n", err);
		return 2;
	}
	rc = report(f, dirs, cmd.nargs, csv, no_csv);
	tcp_fleet_free(f);
	return rc;
}
