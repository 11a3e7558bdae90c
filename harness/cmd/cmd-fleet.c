/*
 * cmd-fleet.c
 *	`tcprobe fleet GROUP_DIR...`: many GPUs' runs -> one answer (fleet.h).
 *	Exit 0 no outlier, 1 outliers flagged, 2 usage or input error, 9 a run
 *	lacks rows another run of the group has OK (unless --allow-missing).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cmd/cmd-list.h"
#include "harness/analyze/fleet.h"
#include "harness/sweep/supervisor.h"	/* TCP_EXIT_INCOMPLETE */

static const char usage[] =
	"usage: tcprobe fleet [options] DIR...\n"
	"  Merge the runs under each DIR (a run directory, or a group directory that\n"
	"  ./sweep --gpus or scripts/tcprobe-slurm wrote: searched 3 levels deep) and\n"
	"  report per point the median across GPUs, the spread, and outlier GPUs.\n"
	"  A GPU is an outlier at a point when |x - median| > K x 1.4826 x MAD and\n"
	"  |x - median| > FLOOR %% of the median; its clock likewise (mean NVML SM clock).\n"
	"  With fewer than 3 GPUs no GPU is flagged; the largest differences are listed.\n"
	"options:\n"
	"  --mad K         robust z threshold (default 3; > 0)\n"
	"  --floor PCT     minimum relative deviation to flag (default 2; >= 0)\n"
	"  --metric NAME   only this metric (e.g. flop_per_clk_sm, or cupti/...)\n"
	"  --with-counters also compare the cupti/ counter rows (default: the probes' own metrics)\n"
	"  --csv FILE      write the per-(point, GPU) table (default: DIR/fleet.csv for one DIR)\n"
	"                  and the per-GPU summary fleet-gpus.csv beside it\n"
	"  --no-csv        write no CSV\n"
	"  --allow-missing a run that lacks rows OK in another run of the group (a\n"
	"                  killed sweep, a cut copy, a smaller plan) does not fail\n"
	"  -h, --help      this text\n"
	"exit status: 0 no outlier, 1 outliers flagged, 2 usage or input error,\n"
	"             9 a run is incomplete: it has no row of a (probe, axes, metric)\n"
	"               that another run of the group has OK (takes precedence over 1)\n";

static int parse_num(const char *opt, const char *s, double lo, double *out)
{
	char *end;
	double v = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || !(v >= lo)) {
		fprintf(stderr, "tcprobe fleet: %s: got '%s', expected a number >= %g\n", opt, s, lo);
		return -1;
	}
	*out = v;
	return 0;
}

int tcp_cmd_fleet(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "mad", required_argument, NULL, 'k' },   { "floor", required_argument, NULL, 'f' },
		{ "metric", required_argument, NULL, 'm' }, { "csv", required_argument, NULL, 'c' },
		{ "no-csv", no_argument, NULL, 'n' },      { "help", no_argument, NULL, 'h' },
		{ "with-counters", no_argument, NULL, 'w' }, { "allow-missing", no_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 },
	};
	tcp_fleet_opts_t o = { .mad_k = 3, .floor_pct = 2, .metric = NULL };
	const char *csv = NULL;
	int no_csv = 0, c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'k':
			if (parse_num("--mad", optarg, 0, &o.mad_k) != 0)
				return 2;
			if (o.mad_k <= 0) {
				fprintf(stderr, "tcprobe fleet: --mad: got '%s', expected a number > 0\n", optarg);
				return 2;
			}
			break;
		case 'f':
			if (parse_num("--floor", optarg, 0, &o.floor_pct) != 0)
				return 2;
			break;
		case 'm': o.metric = optarg; break;
		case 'c': csv = optarg; break;
		case 'n': no_csv = 1; break;
		case 'w': o.with_counters = 1; break;
		case 'a': o.allow_missing = 1; break;
		case 'h': fputs(usage, stdout); return 0;
		default:
			fprintf(stderr, "tcprobe fleet: unknown option '%s' (see tcprobe fleet --help)\n",
				argv[optind - 1]);
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "tcprobe fleet: no DIR given: expected one or more run/group directories\n");
		return 2;
	}
	char err[1400];
	tcp_fleet_t *f = tcp_fleet_load(argv + optind, argc - optind, &o, err, sizeof(err));
	if (!f) {
		fprintf(stderr, "tcprobe fleet: %s\n", err);
		return 2;
	}
	tcp_fleet_print(f, stdout);
	char def[1200];
	if (!csv && !no_csv && argc - optind == 1) {
		snprintf(def, sizeof(def), "%s/fleet.csv", argv[optind]);
		csv = def;
	}
	if (csv && !no_csv) {
		if (tcp_fleet_write_csv(f, csv, err, sizeof(err)) != 0) {
			fprintf(stderr, "tcprobe fleet: %s\n", err);
			tcp_fleet_free(f);
			return 2;
		}
		/* the per-GPU summary beside it: fleet-gpus.csv (plots/fleet.gp reads both) */
		char gp[1300];
		const char *slash = strrchr(csv, '/');
		snprintf(gp, sizeof(gp), "%.*sfleet-gpus.csv", slash ? (int)(slash - csv + 1) : 0, csv);
		if (tcp_fleet_write_gpus_csv(f, gp, err, sizeof(err)) != 0) {
			fprintf(stderr, "tcprobe fleet: %s\n", err);
			tcp_fleet_free(f);
			return 2;
		}
		printf("\nper-point table: %s; per-GPU table: %s\n", csv, gp);
	}
	int rc = tcp_fleet_status(f);
	char line[4000];
	for (int r = 0; rc == TCP_EXIT_INCOMPLETE && r < tcp_fleet_ngpus(f); r++)
		if (tcp_fleet_incomplete(f, r, line, sizeof(line))) {	/* the first: one line */
			fprintf(stderr, "tcprobe fleet: INCOMPLETE: %s; to merge runs of different plans "
				"pass --allow-missing or --metric\n", line);
			break;
		}
	tcp_fleet_free(f);
	return rc;
}
