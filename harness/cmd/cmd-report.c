/*
 * cmd-report.c
 *	`tcprobe report RUN_DIR`: render the plots (gnuplot on the scripts in
 *	plots/, run by report-render.c) and write RUN_DIR/report.md, RUN_DIR/report.html and
 *	RUN_DIR/summary.json; `--baseline BASE` joins the run with BASE through
 *	compare.h first, `--pdf` prints the HTML with a headless Chromium,
 *	`--plots-only` stops after the plots (scripts/plots.sh, `make plots`).
 *	`tcprobe report --extract OUTDIR RUN_DIR`: only the per-plot data files
 *	(what gnuplot reads).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <time.h>
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
		"usage: tcprobe report RUN_DIR [--baseline BASE_DIR [--roles FILE] | --compare FILE] [--pdf]\n"
		"                      [--no-plots | --plots-only]\n"
		"       tcprobe report --extract OUTDIR RUN_DIR [--baseline BASE_DIR [--roles FILE] | --compare FILE]\n"
		"\n"
		"Writes RUN_DIR/report.md, a self-contained RUN_DIR/report.html and RUN_DIR/summary.json.\n"
		"The report opens with a summary derived from the data (per MMA family, rate class and\n"
		"dense or sparse form the best FLOP/clk/SM at a stated input pattern, %% of the chip's\n"
		"published peak (a sparse form's: twice the dense figure), TFLOP/s and the SM clock over\n"
		"the points within 1%% of that rate as ranges, the implied accumulator bandwidth; the SM\n"
		"clock and power under load (in-kernel or counter-pass clock; NVML's sampled clock apart,\n"
		"with the points where it is more than 2%% off); latency vs N fits, one line or two where\n"
		"one does not fit; issue interval, TMEM bandwidth and energy where measured), then what needs\n"
		"attention (throttled, FAILED/INVALID/TIMEOUT or any other status, contended, noisy\n"
		"points), the plots (rendered into RUN_DIR as PNG and SVG by gnuplot, each with\n"
		"a provenance footer), a section per probe that ran (one line per probe that did not),\n"
		"and provenance last.  summary.json holds the summary's numbers under stable keys\n"
		"(\"summary_version\" 3, with their units; its contract: results/summary.schema.json).\n"
		"The title and every plot's footer name the run's unique id (start time and GPU) beside its\n"
		"directory, and the commits, dirty or not, that measured it and drew it.\n"
		"A `tcprobe run --timer cupti` run also gets a \"Kernel timers\"\n"
		"section and RUN_DIR/timer-compare.csv.  An EMULATED run (docs/emulated-runs.md) says\n"
		"so on its first line and shows statuses and validation only: no summary of rates, no\n"
		"plots, no summary.json; --extract and a hardware --baseline are refused.\n"
		"\n"
		"  --baseline BASE  compare the run with BASE as `tcprobe compare BASE RUN_DIR` does:\n"
		"                   its verdicts go into the summary (every regression by name,\n"
		"                   what is missing, the axes joined across) and its ratios into\n"
		"                   the ratio plot (RUN_DIR/compare.csv is left as it is)\n"
		"  --roles FILE     with --baseline, judge the pair by this metrics.csv (`tcprobe\n"
		"                   list --metrics`), as compare --roles: for two runs written\n"
		"                   before tcprobe recorded roles (without it such a pair is\n"
		"                   judged with every row gated, and the summary says so)\n"
		"  --compare FILE   a `tcprobe compare BASE RUN_DIR --csv FILE` output for the\n"
		"                   ratio plot (default: RUN_DIR/compare.csv when present)\n"
		"  --pdf            also print report.html to RUN_DIR/report.pdf with a headless\n"
		"                   Chromium ($CHROMIUM, else chromium, chromium-browser or\n"
		"                   google-chrome on $PATH; Debian: apt-get install chromium).  As\n"
		"                   root it runs with --no-sandbox (Chromium refuses root otherwise;\n"
		"                   the page is this report, every byte inlined, nothing fetched)\n"
		"  --no-plots       do not run gnuplot; embed whatever images RUN_DIR holds\n"
		"  --plots-only     draw the plots (gnuplot on the plots/*.gp scripts beside the\n"
		"                   binary, or in $TCPROBE_PLOTS_DIR), write no report\n"
		"  --extract OUTDIR write OUTDIR/<plot>.dat, <plot>.gpvars and manifest.tsv\n"
		"                   (one line per plot: stem, has data 0/1, note, its images:\n"
		"                   empty for a plot of one image, else one name per panel, e.g.\n"
		"                   tput-vs-n-wgmma_tput-f16) and stop\n"
		"\n"
		"Exit: 0 written, 2 bad arguments or unreadable run directory, 8 a tool missing:\n"
		"gnuplot (report written without new plots; install gnuplot-nox or --no-plots) or,\n"
		"with --pdf, Chromium (report.md/.html written, no report.pdf).\n");
}

/* The gnuplot scripts: $TCPROBE_PLOTS_DIR, else plots/ of the checkout the
 * binary was built in (build/tcprobe -> ../plots).  0 when it holds them. */
static int find_plots_dir(char *path, size_t len)
{
	char exe[PATH_MAX];
	const char *env = getenv("TCPROBE_PLOTS_DIR");
	ssize_t n;

	if (env && *env) {
		snprintf(path, len, "%s", env);
	} else {
		if ((n = readlink("/proc/self/exe", exe, sizeof(exe) - 1)) <= 0)
			return -1;
		exe[n] = 0;
		snprintf(path, len, "%s/../plots", dirname(exe));
	}
	char probe[PATH_MAX + 32];
	snprintf(probe, sizeof(probe), "%s/footer.gnuplot", path);
	return access(probe, R_OK);
}

/* gnuplot: $GNUPLOT, else gnuplot on PATH; 1 if runnable. */
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

/* The headless browser for --pdf: $CHROMIUM, else the first of these on $PATH. */
static const char *find_chromium(char *buf, size_t len)
{
	static const char *const names[] = { "chromium", "chromium-browser", "google-chrome", NULL };
	const char *env = getenv("CHROMIUM"), *path = getenv("PATH");

	if (env && *env)
		return access(env, X_OK) == 0 ? env : NULL;
	for (int i = 0; names[i]; i++)
		for (const char *p = path ? path : ""; *p;) {
			size_t n = strcspn(p, ":");
			snprintf(buf, len, "%.*s/%s", (int)n, p, names[i]);
			if (n && access(buf, X_OK) == 0)
				return buf;
			p += n + (p[n] == ':');
		}
	return NULL;
}

#define PDF_TIMEOUT_S 180

/*
 *  print_pdf()
 *	dir/report.html -> dir/report.pdf: a copy with provenance opened (a
 *	printed page cannot be clicked), printed by `chrome --headless
 *	--print-to-pdf` with a throw-away profile.  0, 8 no Chromium, 2 failed.
 */
static int print_pdf(const char *dir)
{
	char chrome[PATH_MAX], tmp[] = "/tmp/tcprobe-pdf-XXXXXX", src[PATH_MAX], html[PATH_MAX + 64];
	char out[PATH_MAX + 64], prof[PATH_MAX + 64], outarg[PATH_MAX + 80], profarg[PATH_MAX + 80], url[PATH_MAX + 80];
	const char *exe = find_chromium(chrome, sizeof(chrome));
	int rc = 2;

	if (!exe) {
		fprintf(stderr, "tcprobe report: --pdf: no headless Chromium (%s): report.md and report.html "
			"written, report.pdf not; install Debian's chromium package or set CHROMIUM\n",
			getenv("CHROMIUM") && *getenv("CHROMIUM") ? "$CHROMIUM is not executable" :
			"none of chromium, chromium-browser, google-chrome on $PATH");
		return 8;
	}
	if (!realpath(dir, src) || !mkdtemp(tmp)) {
		fprintf(stderr, "tcprobe report: --pdf: %s: %s\n", dir, strerror(errno));
		return 2;
	}
	snprintf(html, sizeof(html), "%s/report.html", src);
	unsigned char *page = NULL;
	FILE *in = fopen(html, "rb"), *o = NULL;
	if (in && fseek(in, 0, SEEK_END) == 0) {
		long sz = ftell(in);
		rewind(in);
		if (sz > 0 && (page = malloc((size_t)sz + 1)) && fread(page, 1, (size_t)sz, in) == (size_t)sz)
			page[sz] = 0;
		else {
			free(page);
			page = NULL;
		}
	}
	if (in)
		fclose(in);
	snprintf(html, sizeof(html), "%s/print.html", tmp);
	const char *cut = page ? strstr((char *)page, "<details class=\"prov\">") : NULL;
	if (!page || !(o = fopen(html, "w")) ||
	    (cut ? fprintf(o, "%.*s<details class=\"prov\" open>%s", (int)(cut - (char *)page), (char *)page,
			   cut + strlen("<details class=\"prov\">")) : fputs((char *)page, o)) < 0 || fclose(o)) {
		fprintf(stderr, "tcprobe report: --pdf: cannot copy %s/report.html to %s\n", dir, tmp);
		free(page);
		goto out;
	}
	free(page);
	snprintf(out, sizeof(out), "%s/report.pdf", src);
	snprintf(prof, sizeof(prof), "%s/profile", tmp);
	snprintf(outarg, sizeof(outarg), "--print-to-pdf=%s", out);
	snprintf(profarg, sizeof(profarg), "--user-data-dir=%s", prof);
	snprintf(url, sizeof(url), "file://%s", html);
	unlink(out);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		goto out;
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {		/* Chromium chatters on stderr even when it succeeds */
			dup2(fd, 1);
			dup2(fd, 2);
		}
		const char *argv[16];
		int a = 0;
		argv[a++] = exe;
		argv[a++] = "--headless";
		if (geteuid() == 0)
			argv[a++] = "--no-sandbox";	/* Chromium refuses root otherwise */
		argv[a++] = "--disable-gpu";
		argv[a++] = "--no-first-run";
		argv[a++] = "--no-pdf-header-footer";
		argv[a++] = "--print-to-pdf-no-header";
		argv[a++] = profarg;
		argv[a++] = outarg;
		argv[a++] = url;
		argv[a] = NULL;
		execv(exe, (char *const *)argv);
		_exit(127);
	}
	int st = 0;
	time_t t0 = time(NULL);
	pid_t w;
	while ((w = waitpid(pid, &st, WNOHANG)) == 0 && time(NULL) - t0 < PDF_TIMEOUT_S)
		usleep(100000);
	if (w == 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		fprintf(stderr, "tcprobe report: --pdf: %s ran over %d s: killed, no report.pdf\n", exe, PDF_TIMEOUT_S);
		goto out;
	}
	struct stat sb;
	if (stat(out, &sb) || sb.st_size == 0) {
		fprintf(stderr, "tcprobe report: --pdf: %s exited %d without writing %s/report.pdf\n", exe,
			WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), dir);
		goto out;
	}
	printf("report: %s/report.pdf (%lld bytes, printed by %s)\n", dir, (long long)sb.st_size, exe);
	rc = 0;
out:;
	char cmd[PATH_MAX + 32];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);	/* mkdtemp's name: no quote in it */
	if (system(cmd) != 0)
		fprintf(stderr, "tcprobe report: --pdf: could not remove %s\n", tmp);
	return rc;
}

/* Draw the plots of r into dir; the plots that failed, -1 when none could be drawn. */
static int run_plots(const tcp_run_t *r, const char *dir, const char *compare, const char *gnuplot)
{
	char plotsdir[PATH_MAX + 16], err[1024];
	int rc;

	if (find_plots_dir(plotsdir, sizeof(plotsdir))) {
		fprintf(stderr, "tcprobe report: plots not rendered: %s: no gnuplot scripts (set TCPROBE_PLOTS_DIR "
			"to the checkout's plots/)\n", plotsdir);
		return -1;
	}
	if ((rc = tcp_report_render(r, dir, compare, gnuplot, plotsdir, err, sizeof(err))) < 0)
		fprintf(stderr, "tcprobe report: plots not rendered: %s\n", err);
	return rc;
}

/* --baseline: both runs as compare loads them, joined; the comparison's CSV (the
 * ratio plot's input) in a temporary directory, removed at the end. */
struct baseline {
	tcp_cmp_run_t base, cur;
	tcp_cmp_t cmp;
	tcp_report_base_t rb;
	tcp_meta_set_t *roles;		/* --roles FILE, NULL none */
	int loaded;
	char tmp[64];
};

static int load_baseline(struct baseline *b, const char *base, const char *dir, const char *roles, char *csv,
			 size_t csvlen)
{
	char err[TCP_CMP_ERRLEN];
	FILE *f;

	memset(b, 0, sizeof(*b));
	if (roles && tcp_meta_load(roles, &b->roles, err, sizeof(err))) {
		fprintf(stderr, "tcprobe report: --roles: %s\n", err);
		return 2;
	}
	if (tcp_cmp_run_load(base, NULL, &b->base, err, sizeof(err))) {
		fprintf(stderr, "tcprobe report: --baseline: %s\n", err);
		return 2;
	}
	if (tcp_cmp_run_load(dir, NULL, &b->cur, err, sizeof(err))) {
		fprintf(stderr, "tcprobe report: %s\n", err);
		tcp_cmp_run_free(&b->base);
		return 2;
	}
	b->loaded = 1;
	if (tcp_cmp_same_kind(&b->base, &b->cur, 1, err, sizeof(err))) {
		fprintf(stderr, "tcprobe report: --baseline: %s\n", err);
		return 2;
	}
	const tcp_cmp_opts_t opts = { .noise_floor_pct = TCP_CMP_NOISE_FLOOR, .threshold_pct = TCP_CMP_THRESHOLD,
				      .roles = b->roles, .roles_path = roles };
	if (tcp_cmp_join_opts(&b->base, &b->cur, 1, &opts, &b->cmp, err, sizeof(err))) {
		fprintf(stderr, "tcprobe report: --baseline: %s\n", err);
		return 2;
	}
	snprintf(b->tmp, sizeof(b->tmp), "/tmp/tcprobe-baseline-XXXXXX");
	if (!mkdtemp(b->tmp)) {
		fprintf(stderr, "tcprobe report: --baseline: %s: %s\n", b->tmp, strerror(errno));
		b->tmp[0] = 0;
		return 2;
	}
	snprintf(csv, csvlen, "%s/compare.csv", b->tmp);
	if (!(f = fopen(csv, "w")) || tcp_cmp_write_csv(f, &b->cmp, &b->base, &b->cur) || fclose(f)) {
		fprintf(stderr, "tcprobe report: %s: cannot write (%s)\n", csv, strerror(errno));
		return 2;
	}
	tcp_cmp_sort(&b->cmp);		/* the report lists the largest changes first */
	b->rb.base = &b->base;
	b->rb.cur = &b->cur;
	b->rb.cmp = &b->cmp;
	return 0;
}

static void free_baseline(struct baseline *b)
{
	char path[128];

	tcp_meta_set_free(b->roles);
	b->roles = NULL;
	if (!b->loaded)
		return;
	if (b->tmp[0]) {
		snprintf(path, sizeof(path), "%s/compare.csv", b->tmp);
		unlink(path);
		rmdir(b->tmp);
	}
	tcp_cmp_free(&b->cmp);
	tcp_cmp_run_free(&b->base);
	tcp_cmp_run_free(&b->cur);
}

int tcp_cmd_report(int argc, char **argv)
{
	const char *dir = NULL, *extract = NULL, *compare = NULL, *baseline = NULL, *roles = NULL;
	int plots = 1, pdf = 0, only_plots = 0, rc;
	char err[1024], cmpdefault[4096];
	struct baseline bl = { 0 };

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--no-plots")) {
			plots = 0;
		} else if (!strcmp(a, "--pdf")) {
			pdf = 1;
		} else if (!strcmp(a, "--plots-only")) {
			only_plots = 1;
		} else if (!strcmp(a, "--extract") || !strcmp(a, "--compare") || !strcmp(a, "--baseline") ||
			   !strcmp(a, "--roles")) {
			if (i + 1 >= argc || !argv[i + 1][0]) {
				fprintf(stderr, "tcprobe report: %s: missing value, expected a %s\n", a,
					a[2] == 'c' ? "comparison CSV file" : a[2] == 'r' ? "metrics.csv file" : "directory");
				return 2;
			}
			*(a[2] == 'e' ? &extract : a[2] == 'c' ? &compare : a[2] == 'r' ? &roles : &baseline) = argv[++i];
		} else if (a[0] == '-') {
			fprintf(stderr, "tcprobe report: unknown option '%s', expected --baseline DIR, --roles FILE, "
				"--compare FILE, --pdf, --no-plots, --plots-only, --extract DIR or --help\n", a);
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
	if (only_plots && (!plots || pdf || extract || baseline)) {
		fprintf(stderr, "tcprobe report: --plots-only with %s: got both, expected one (--plots-only "
			"draws the plots and writes no report)\n", !plots ? "--no-plots" : pdf ? "--pdf" :
			extract ? "--extract" : "--baseline");
		return 2;
	}
	if (roles && !baseline) {
		fprintf(stderr, "tcprobe report: --roles %s without --baseline: the roles judge a comparison, "
			"expected --baseline BASE_DIR too\n", roles);
		return 2;
	}
	if (baseline && compare) {
		fprintf(stderr, "tcprobe report: --baseline %s with --compare: give one (--baseline writes the "
			"comparison itself)\n", baseline);
		return 2;
	}
	if (baseline) {
		if ((rc = load_baseline(&bl, baseline, dir, roles, cmpdefault, sizeof(cmpdefault)))) {
			free_baseline(&bl);
			return rc;
		}
		compare = cmpdefault;
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
		free_baseline(&bl);
		return 2;
	}
	const char *emu = tcp_run_emulated(r);
	if (emu && (extract || only_plots)) {
		fprintf(stderr, "tcprobe report: %s%s: %s is an EMULATED run (%s): got a plot request, "
			"expected a hardware run (an emulated run has statuses and validation, no times to plot)\n",
			extract ? "--extract " : "--plots-only", extract ? extract : "", dir, emu);
		tcp_run_free(r);
		free_baseline(&bl);
		return 2;
	}
	if (emu)
		plots = 0;	/* nothing of an emulated run is plotted: no gnuplot needed */
	if (extract) {
		struct stat sb;
		if (stat(extract, &sb) || !S_ISDIR(sb.st_mode)) {
			fprintf(stderr, "tcprobe report: --extract %s: not a directory\n", extract);
			tcp_run_free(r);
			return 2;
		}
		rc = tcp_report_extract_base(r, compare, baseline, extract, st, err, sizeof(err));
		if (rc)
			fprintf(stderr, "tcprobe report: %s\n", err);
		tcp_run_free(r);
		free_baseline(&bl);
		return rc ? 2 : 0;
	}
	const char *gp = NULL;
	int no_gnuplot = plots && !have_gnuplot(&gp);
	if (no_gnuplot) {	/* the report is still worth writing: say so once, exit 8 */
		fprintf(stderr, "tcprobe report: gnuplot not found (got '%s' from %s): %s; install gnuplot-nox%s\n",
			gp, getenv("GNUPLOT") ? "$GNUPLOT" : "$PATH",
			only_plots ? "no plots drawn" : "report written without new plots",
			only_plots ? "" : " or pass --no-plots");
		plots = 0;
	}
	if (only_plots) {
		rc = no_gnuplot ? 8 : run_plots(r, dir, compare, gp) ? 1 : 0;
		tcp_run_free(r);
		return rc;
	}
	if (plots) {
		rc = run_plots(r, dir, compare, gp);
		if (rc > 0)
			fprintf(stderr, "tcprobe report: %d plot%s failed; the report embeds the plots that were "
				"rendered\n", rc, rc == 1 ? "" : "s");
	}
	if (tcp_report_extract(r, compare, NULL, st, err, sizeof(err)) ||
	    tcp_report_write_base(r, dir, st, baseline ? &bl.rb : NULL, err, sizeof(err))) {
		fprintf(stderr, "tcprobe report: %s\n", err);
		tcp_run_free(r);
		free_baseline(&bl);
		return 2;
	}
	int drawn = 0;
	for (int i = 0; i < tcp_nplots(); i++)
		drawn += st[i].has_data;
	if (emu)
		printf("report: %s/report.md, %s/report.html: EMULATED %s run, statuses and validation only "
		       "(no plots, no summary.json)\n", dir, dir, emu);
	else
		printf("report: %s/report.md, %s/report.html, %s/summary.json (%d of %d plots have data in this run)\n",
		       dir, dir, dir, drawn, tcp_nplots());
	tcp_run_free(r);
	free_baseline(&bl);
	rc = pdf ? print_pdf(dir) : 0;
	return rc ? rc : no_gnuplot ? 8 : 0;
}
