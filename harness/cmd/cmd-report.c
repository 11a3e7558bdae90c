/*
 * cmd-report.c
 *	`tcprobe report RUN_DIR`: render the plots (scripts/plots.sh) and write
 *	RUN_DIR/report.md and RUN_DIR/report.html.
 *	`tcprobe report --extract OUTDIR RUN_DIR`: only the per-plot data files
 *	(what scripts/plots.sh feeds to gnuplot).
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/analyze/report.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tcprobe report RUN_DIR [--compare FILE] [--no-plots]\n"
		"       tcprobe report --extract OUTDIR RUN_DIR [--compare FILE]\n"
		"\n"
		"Writes RUN_DIR/report.md and a self-contained RUN_DIR/report.html: provenance,\n"
		"points per probe and status, each probe's best points with %% of the published\n"
		"peak, and the plots (first rendered into RUN_DIR as PNG and SVG by\n"
		"scripts/plots.sh, the same as `make plots RUN=RUN_DIR`).  A plot the run has no\n"
		"data for is replaced by the reason.  A `tcprobe run --timer cupti` run also gets\n"
		"a \"Kernel timers\" section (CUPTI Activity span vs profiler duration vs the\n"
		"probes' in-kernel clocks) and RUN_DIR/timer-compare.csv, one row per point.\n"
		"\n"
		"  --compare FILE   a `tcprobe compare BASE RUN_DIR --csv FILE` output for the\n"
		"                   ratio plot (default: RUN_DIR/compare.csv when present)\n"
		"  --no-plots       do not run gnuplot; embed whatever images RUN_DIR holds\n"
		"  --extract OUTDIR write OUTDIR/<plot>.dat, <plot>.gpvars and manifest.tsv\n"
		"                   (one line per plot: stem, has data 0/1, note) and stop\n"
		"\n"
		"Exit: 0 written, 2 bad arguments or unreadable run directory, 8 gnuplot not\n"
		"found (report written without new plots; install gnuplot-nox or --no-plots).\n");
}

/* scripts/plots.sh next to the binary (build/tcprobe -> ../scripts), or $TCP_PLOTS_SH. */
static int find_plots_sh(char *path, size_t len, char *self, size_t slen)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return -1;
	exe[n] = 0;
	snprintf(self, slen, "%s", exe);
	if (getenv("TCP_PLOTS_SH")) {
		snprintf(path, len, "%s", getenv("TCP_PLOTS_SH"));
		return access(path, X_OK);
	}
	snprintf(path, len, "%s/../scripts/plots.sh", dirname(exe));
	return access(path, X_OK);
}

/* gnuplot as scripts/plots.sh finds it ($GNUPLOT, else gnuplot on PATH): 1 if runnable. */
static int have_gnuplot(const char **name)
{
	const char *g = getenv("GNUPLOT"), *path = getenv("PATH");
	char buf[PATH_MAX];

	*name = g && *g ? g : "gnuplot";
	if (strchr(*name, '/'))
		return access(*name, X_OK) == 0;
	for (const char *p = path ? path : ""; *p;) {
		size_t n = strcspn(p, ":");
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, p, *name);
		if (n && access(buf, X_OK) == 0)
			return 1;
		p += n + (p[n] == ':');
	}
	return 0;
}

/* Run plots.sh RUN_DIR [--compare FILE]; its exit status, -1 if it could not start. */
static int run_plots(const char *dir, const char *compare)
{
	char sh[PATH_MAX + 32], self[PATH_MAX];
	pid_t pid;
	int st;

	if (find_plots_sh(sh, sizeof(sh), self, sizeof(self))) {
		fprintf(stderr, "tcprobe report: plots not rendered: %s not found or not executable\n", sh);
		return -1;
	}
	fflush(NULL);
	if ((pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		setenv("TCPROBE", self, 1);	/* the script extracts with this very binary */
		if (compare)
			execl(sh, sh, dir, "--compare", compare, (char *)NULL);
		else
			execl(sh, sh, dir, (char *)NULL);
		fprintf(stderr, "tcprobe report: %s: %s\n", sh, strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int tcp_cmd_report(int argc, char **argv)
{
	const char *dir = NULL, *extract = NULL, *compare = NULL;
	int plots = 1;
	char err[1024], cmpdefault[4096];

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--no-plots")) {
			plots = 0;
		} else if (!strcmp(a, "--extract") || !strcmp(a, "--compare")) {
			if (i + 1 >= argc || !argv[i + 1][0]) {
				fprintf(stderr, "tcprobe report: %s: missing value, expected a %s\n", a,
					a[2] == 'e' ? "directory" : "comparison CSV file");
				return 2;
			}
			*(a[2] == 'e' ? &extract : &compare) = argv[++i];
		} else if (a[0] == '-') {
			fprintf(stderr, "tcprobe report: unknown option '%s', expected --compare FILE, "
				"--no-plots, --extract DIR or --help\n", a);
			return 2;
		} else if (dir) {
			fprintf(stderr, "tcprobe report: extra argument '%s': one RUN_DIR only\n", a);
			return 2;
		} else {
			dir = a;
		}
	}
	if (!dir) {
		fprintf(stderr, "tcprobe report: missing RUN_DIR, expected a results directory "
			"(results/<date>-<gpu>-...); see tcprobe report --help\n");
		return 2;
	}
	if (!compare) {
		snprintf(cmpdefault, sizeof(cmpdefault), "%s/compare.csv", dir);
		if (access(cmpdefault, R_OK) == 0)
			compare = cmpdefault;
	}

	tcp_run_t *r;
	tcp_plot_state_t st[TCP_PLOTS_MAX];
	if (tcp_run_open(dir, 0, &r, err, sizeof(err))) {
		fprintf(stderr, "tcprobe report: %s\n", err);
		return 2;
	}
	if (extract) {
		struct stat sb;
		if (stat(extract, &sb) || !S_ISDIR(sb.st_mode)) {
			fprintf(stderr, "tcprobe report: --extract %s: not a directory\n", extract);
			tcp_run_free(r);
			return 2;
		}
		int rc = tcp_report_extract(r, compare, extract, st, err, sizeof(err));
		if (rc)
			fprintf(stderr, "tcprobe report: %s\n", err);
		tcp_run_free(r);
		return rc ? 2 : 0;
	}
	const char *gp;
	int no_gnuplot = plots && !have_gnuplot(&gp);
	if (no_gnuplot) {	/* the report is still worth writing: say so once, exit 8 */
		fprintf(stderr, "tcprobe report: gnuplot not found (got '%s' from %s): report written without new plots; install gnuplot-nox or pass --no-plots\n",
			gp, getenv("GNUPLOT") ? "$GNUPLOT" : "$PATH");
		plots = 0;
	}
	if (plots) {
		int rc = run_plots(dir, compare);
		if (rc > 0)
			fprintf(stderr, "tcprobe report: scripts/plots.sh exited %d; the report embeds "
				"the plots that were rendered\n", rc);
	}
	if (tcp_report_extract(r, compare, NULL, st, err, sizeof(err)) ||
	    tcp_report_write(r, dir, st, err, sizeof(err))) {
		fprintf(stderr, "tcprobe report: %s\n", err);
		tcp_run_free(r);
		return 2;
	}
	int drawn = 0;
	for (int i = 0; i < tcp_nplots(); i++)
		drawn += st[i].has_data;
	printf("report: %s/report.md, %s/report.html (%d of %d plots have data in this run)\n", dir, dir,
	       drawn, tcp_nplots());
	tcp_run_free(r);
	return no_gnuplot ? 8 : 0;
}
