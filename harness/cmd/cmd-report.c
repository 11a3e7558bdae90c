/*
 * cmd-report.c
 *	`tcprobe report RUN_DIR`: render the plots (gnuplot on the scripts in
 *	plots/, run by report-render.c) and write RUN_DIR/report.md, RUN_DIR/report.html and
 *	RUN_DIR/summary.json; `--baseline BASE` joins the run with BASE through
 *	compare.h first, `--pdf` prints the HTML with a headless Chromium,
 *	`--plots-only` stops after the plots (scripts/plots.sh, `make plots`).
 *	`tcprobe report --extract OUTDIR RUN_DIR`: only the per-plot data files
 *	(what gnuplot reads); with --baseline, the ratio plot's from the
 *	comparison the report joins itself.
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
#include "harness/cmd/options.h"

static const char usage[] =
	"usage: tcprobe report RUN_DIR [--baseline BASE [--roles FILE] | --compare FILE]\n"
	"                      [--pdf] [--no-plots | --plots-only]\n"
	"       tcprobe report --extract OUTDIR RUN_DIR [--baseline BASE [--roles FILE] |\n"
	"                      --compare FILE]\n";
static const char about[] =
	"\n"
	"Writes RUN_DIR/report.md, a self-contained RUN_DIR/report.html and\n"
	"RUN_DIR/summary.json. The report opens with a summary derived from the data (per\n"
	"MMA family, rate class and dense or sparse form the best FLOP/clk/SM at a stated\n"
	"input pattern, % of the chip's published peak (a sparse form's: twice the dense\n"
	"figure), TFLOP/s and the SM clock over the points within 1% of that rate as\n"
	"ranges, the implied accumulator bandwidth; the SM clock and power under load\n"
	"(in-kernel or counter-pass clock; NVML's sampled clock apart, with the points\n"
	"where it is more than 2% off); latency vs N fits, one line or two where one does\n"
	"not fit; issue interval, TMEM bandwidth and energy where measured), then what\n"
	"needs attention (throttled, FAILED/INVALID/TIMEOUT or any other status,\n"
	"contended, noisy points), the plots (rendered into RUN_DIR as PNG and SVG by\n"
	"gnuplot, each with a provenance footer), a section per probe that ran (one line\n"
	"per probe that did not), and provenance last.  summary.json holds the summary's\n"
	"numbers under stable keys (\"summary_version\" 3, with their units; its contract:\n"
	"results/summary.schema.json). The title and every plot's footer name the run's\n"
	"unique id (start time and GPU) beside its directory, and the commits, dirty or\n"
	"not, that measured it and drew it. A `tcprobe run --timer cupti` run also gets a\n"
	"\"Kernel timers\" section and RUN_DIR/timer-compare.csv.  An EMULATED run\n"
	"(docs/emulated-runs.md) says so on its first line and shows statuses and\n"
	"validation only: no summary of rates, no plots, no summary.json; --extract and a\n"
	"hardware --baseline are refused.\n"
	"\n";

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

/* The whole of path, NUL-terminated (malloc'd), NULL when it cannot be read. */
static char *slurp(const char *path)
{
	FILE *in = fopen(path, "rb");
	char *page = NULL;
	long sz;

	if (in && fseek(in, 0, SEEK_END) == 0 && (sz = ftell(in)) > 0) {
		rewind(in);
		if ((page = malloc((size_t)sz + 1)) && fread(page, 1, (size_t)sz, in) == (size_t)sz)
			page[sz] = 0;
		else {
			free(page);
			page = NULL;
		}
	}
	if (in)
		fclose(in);
	return page;
}

/* src/report.html -> tmp/print.html with its provenance section opened (a printed
 * page cannot be clicked): 0, or -1 after one line on stderr. */
static int print_copy(const char *dir, const char *src, const char *tmp, char *html, size_t len)
{
	static const char closed[] = "<details class=\"prov\">";
	FILE *o = NULL;

	snprintf(html, len, "%s/report.html", src);
	char *page = slurp(html);
	snprintf(html, len, "%s/print.html", tmp);
	const char *cut = page ? strstr(page, closed) : NULL;
	if (!page || !(o = fopen(html, "w")) ||
	    (cut ? fprintf(o, "%.*s<details class=\"prov\" open>%s", (int)(cut - page), page,
			   cut + strlen(closed)) : fputs(page, o)) < 0 || fclose(o)) {
		fprintf(stderr, "tcprobe report: --pdf: cannot copy %s/report.html to %s\n", dir, tmp);
		free(page);
		return -1;
	}
	free(page);
	return 0;
}

/* Run exe headless on url, printing to out with a throw-away profile in tmp; its pid, -1. */
static pid_t chromium(const char *exe, const char *tmp, const char *out, const char *url)
{
	char outarg[PATH_MAX + 80], profarg[PATH_MAX + 80];
	const char *argv[16];
	int a = 0;

	snprintf(outarg, sizeof(outarg), "--print-to-pdf=%s", out);
	snprintf(profarg, sizeof(profarg), "--user-data-dir=%s/profile", tmp);
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
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {		/* Chromium chatters on stderr even when it succeeds */
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execv(exe, (char *const *)argv);
		_exit(127);
	}
	return pid;
}

/* Wait for pid at most PDF_TIMEOUT_S, then kill it: its wait status, -1 when killed. */
static int wait_bounded(pid_t pid, const char *exe)
{
	int st = 0;
	time_t t0 = time(NULL);
	pid_t w;

	while ((w = waitpid(pid, &st, WNOHANG)) == 0 && time(NULL) - t0 < PDF_TIMEOUT_S)
		usleep(100000);
	if (w != 0)
		return st;
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	fprintf(stderr, "tcprobe report: --pdf: %s ran over %d s: killed, no report.pdf\n", exe, PDF_TIMEOUT_S);
	return -1;
}

/* The print of tmp/print.html to src/report.pdf by exe: 0, or 2 after one line. */
static int print_with(const char *exe, const char *dir, const char *src, const char *tmp, const char *html)
{
	char out[PATH_MAX + 64], url[PATH_MAX + 80];
	struct stat sb;
	int st;

	snprintf(out, sizeof(out), "%s/report.pdf", src);
	snprintf(url, sizeof(url), "file://%s", html);
	unlink(out);
	pid_t pid = chromium(exe, tmp, out, url);
	if (pid < 0 || (st = wait_bounded(pid, exe)) < 0)
		return 2;
	if (stat(out, &sb) || sb.st_size == 0) {
		fprintf(stderr, "tcprobe report: --pdf: %s exited %d without writing %s/report.pdf\n", exe,
			WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), dir);
		return 2;
	}
	printf("report: %s/report.pdf (%lld bytes, printed by %s)\n", dir, (long long)sb.st_size, exe);
	return 0;
}

/*
 *  print_pdf()
 *	dir/report.html -> dir/report.pdf: a copy with provenance opened,
 *	printed by `chrome --headless --print-to-pdf` with a throw-away
 *	profile.  0, 8 no Chromium, 2 failed.
 */
static int print_pdf(const char *dir)
{
	char chrome[PATH_MAX], tmp[] = "/tmp/tcprobe-pdf-XXXXXX", src[PATH_MAX], html[PATH_MAX + 64];
	char cmd[PATH_MAX + 32];
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
	if (!print_copy(dir, src, tmp, html, sizeof(html)))
		rc = print_with(exe, dir, src, tmp, html);
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

/* What the command line sets. */
typedef struct {
	char *dir;
	const char *extract, *compare, *baseline, *roles;
	int no_plots, pdf, only_plots;
} report_args_t;

/* The options that go together, or one line naming the pair that does not. */
static int combined(const tcp_cmd_spec_t *c, const report_args_t *a)
{
	if (a->only_plots && (a->no_plots || a->pdf || a->extract || a->baseline))
		return tcp_cmd_bad(c, "--plots-only with %s: got both, expected one (--plots-only draws the plots "
				   "and writes no report)", a->no_plots ? "--no-plots" : a->pdf ? "--pdf" :
				   a->extract ? "--extract" : "--baseline");
	if (a->roles && !a->baseline)
		return tcp_cmd_bad(c, "--roles %s without --baseline: the roles judge a comparison, expected "
				   "--baseline BASE_DIR too", a->roles);
	if (a->baseline && a->compare)
		return tcp_cmd_bad(c, "--baseline %s with --compare: got both, expected one (--baseline writes the "
				   "comparison itself)", a->baseline);
	return TCP_OPTS_OK;
}

/* The command line into a: TCP_OPTS_OK, or the exit status (help, one bad-input line). */
static int parse(report_args_t *a, int argc, char **argv)
{
	tcp_opt_t opts[] = {
		{ .name = "--baseline", .metavar = "BASE", .kind = TCP_OPT_STRING, .sval = &a->baseline,
		  .what = "a results directory", .help = "compare the run with BASE as `tcprobe compare BASE "
		  "RUN_DIR` does: its verdicts go into the summary (every regression by name, what is missing, "
		  "the axes joined across) and its ratios into the ratio plot (RUN_DIR/compare.csv is left as "
		  "it is)" },
		{ .name = "--roles", .metavar = "FILE", .kind = TCP_OPT_STRING, .sval = &a->roles,
		  .what = "a metrics.csv file", .help = "with --baseline, judge the pair by this metrics.csv "
		  "(`tcprobe list --metrics`), as compare --roles: for two runs written before tcprobe recorded "
		  "roles (without it such a pair is judged with every row gated, and the summary says so)" },
		{ .name = "--compare", .metavar = "FILE", .kind = TCP_OPT_STRING, .sval = &a->compare,
		  .what = "a comparison CSV file", .help = "a `tcprobe compare BASE RUN_DIR --csv FILE` output "
		  "for the ratio plot (default: RUN_DIR/compare.csv when present)" },
		{ .name = "--pdf", .kind = TCP_OPT_FLAG, .ival = &a->pdf, .help = "also print report.html to "
		  "RUN_DIR/report.pdf with a headless Chromium ($CHROMIUM, else chromium, chromium-browser or "
		  "google-chrome on $PATH; Debian: apt-get install chromium).  As root it runs with "
		  "--no-sandbox (Chromium refuses root otherwise; the page is this report, every byte inlined, "
		  "nothing fetched)" },
		{ .name = "--no-plots", .kind = TCP_OPT_FLAG, .ival = &a->no_plots,
		  .help = "do not run gnuplot; embed whatever images RUN_DIR holds" },
		{ .name = "--plots-only", .kind = TCP_OPT_FLAG, .ival = &a->only_plots, .help = "draw the plots "
		  "(gnuplot on the plots/*.gp scripts beside the binary, or in $TCPROBE_PLOTS_DIR), write no "
		  "report" },
		{ .name = "--extract", .metavar = "OUTDIR", .kind = TCP_OPT_STRING, .sval = &a->extract,
		  .what = "a directory", .help = "write OUTDIR/<plot>.dat, <plot>.gpvars and manifest.tsv (one "
		  "line per plot: stem, has data 0/1, note, its images: empty for a plot of one image, else one "
		  "name per panel, e.g. tput-vs-n-wgmma_tput-f16) and stop" },
	};
	tcp_cmd_spec_t cmd = { .name = "report", .usage = usage, .about = about, .opts = opts,
			       .nopts = TCP_NOPTS(opts), .min_args = 1, .max_args = 1, .args = &a->dir,
			       .args_what = "RUN_DIR (a results directory: results/<date>-<gpu>-...)",
			       .epilog = "\n" };
	int rc = tcp_opts_parse(&cmd, argc, argv, 1);

	return rc != TCP_OPTS_OK ? rc : combined(&cmd, a);
}

/* --extract: the plots' data files of r only.  0, or 2 after one line. */
static int extract(const report_args_t *a, const tcp_run_t *r, const char *compare)
{
	tcp_plot_state_t st[TCP_PLOTS_MAX];
	struct stat sb;
	char err[1024];

	if (stat(a->extract, &sb) || !S_ISDIR(sb.st_mode)) {
		fprintf(stderr, "tcprobe report: --extract %s: not a directory\n", a->extract);
		return 2;
	}
	if (tcp_report_extract_base(r, compare, a->baseline, a->extract, st, err, sizeof(err))) {
		fprintf(stderr, "tcprobe report: %s\n", err);
		return 2;
	}
	return 0;
}

/* report.md, report.html (and summary.json) of r; one line on stdout.  0, or 2 after one line. */
static int write_report(const report_args_t *a, const tcp_run_t *r, const char *compare, struct baseline *bl,
			const char *emu)
{
	tcp_plot_state_t st[TCP_PLOTS_MAX];
	char err[1024];
	int drawn = 0;

	if (tcp_report_extract(r, compare, NULL, st, err, sizeof(err)) ||
	    tcp_report_write_base(r, a->dir, st, a->baseline ? &bl->rb : NULL, err, sizeof(err))) {
		fprintf(stderr, "tcprobe report: %s\n", err);
		return 2;
	}
	for (int i = 0; i < tcp_nplots(); i++)
		drawn += st[i].has_data;
	if (emu)
		printf("report: %s/report.md, %s/report.html: EMULATED %s run, statuses and validation only "
		       "(no plots, no summary.json)\n", a->dir, a->dir, emu);
	else
		printf("report: %s/report.md, %s/report.html, %s/summary.json (%d of %d plots have data in this run)\n",
		       a->dir, a->dir, a->dir, drawn, tcp_nplots());
	return 0;
}

/* gnuplot for the plots: 1 when wanted and missing (said once on stderr), *gp its name. */
static int gnuplot_missing(int only_plots, const char **gp)
{
	if (have_gnuplot(gp))
		return 0;
	fprintf(stderr, "tcprobe report: gnuplot not found (got '%s' from %s): %s; install gnuplot-nox%s\n",
		*gp, getenv("GNUPLOT") ? "$GNUPLOT" : "$PATH",
		only_plots ? "no plots drawn" : "report written without new plots",
		only_plots ? "" : " or pass --no-plots");
	return 1;
}

/* The plots of r before its report: 1 when gnuplot is missing (said once), else 0. */
static int draw(const report_args_t *a, const tcp_run_t *r, const char *compare)
{
	const char *gp = NULL;
	int rc;

	if (gnuplot_missing(0, &gp))
		return 1;
	if ((rc = run_plots(r, a->dir, compare, gp)) > 0)
		fprintf(stderr, "tcprobe report: %d plot%s failed; the report embeds the plots that were "
			"rendered\n", rc, rc == 1 ? "" : "s");
	return 0;
}

/* --extract or --plots-only of an emulated run: one line, 2. */
static int refuse_plots(const report_args_t *a, const char *emu)
{
	fprintf(stderr, "tcprobe report: %s%s: %s is an EMULATED run (%s): got a plot request, "
		"expected a hardware run (an emulated run has statuses and validation, no times to plot)\n",
		a->extract ? "--extract " : "--plots-only", a->extract ? a->extract : "", a->dir, emu);
	return 2;
}

/* Everything the command does with the open run r: the exit status. */
static int with_run(const report_args_t *a, const tcp_run_t *r, const char *compare, struct baseline *bl)
{
	const char *emu = tcp_run_emulated(r), *gp = NULL;
	int no_gnuplot = 0, rc;

	if (emu && (a->extract || a->only_plots))
		return refuse_plots(a, emu);
	if (a->extract)
		return extract(a, r, compare);
	if (a->only_plots)
		return gnuplot_missing(1, &gp) ? 8 : run_plots(r, a->dir, compare, gp) ? 1 : 0;
	if (!a->no_plots && !emu)	/* nothing of an emulated run is plotted: no gnuplot needed */
		no_gnuplot = draw(a, r, compare);
	if ((rc = write_report(a, r, compare, bl, emu)))
		return rc;
	rc = a->pdf ? print_pdf(a->dir) : 0;
	return rc ? rc : no_gnuplot ? 8 : 0;	/* the report is still worth writing: exit 8 */
}

int tcp_cmd_report(int argc, char **argv)
{
	report_args_t a = { 0 };
	struct baseline bl = { 0 };
	char err[1024], cmpdefault[4096];
	const char *compare;
	tcp_run_t *r;
	int rc = parse(&a, argc, argv);

	if (rc != TCP_OPTS_OK)
		return rc;
	compare = a.compare;
	if (a.baseline) {
		if ((rc = load_baseline(&bl, a.baseline, a.dir, a.roles, cmpdefault, sizeof(cmpdefault)))) {
			free_baseline(&bl);
			return rc;
		}
		compare = cmpdefault;
	}
	if (!compare) {
		snprintf(cmpdefault, sizeof(cmpdefault), "%s/compare.csv", a.dir);
		if (access(cmpdefault, R_OK) == 0)
			compare = cmpdefault;
	}
	if (tcp_run_open(a.dir, 0, &r, err, sizeof(err))) {
		fprintf(stderr, "tcprobe report: %s\n", err);
		free_baseline(&bl);
		return 2;
	}
	rc = with_run(&a, r, compare, &bl);
	tcp_run_free(r);
	free_baseline(&bl);
	return rc;
}
