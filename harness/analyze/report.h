/*
 * report.h
 *	One run directory, as harness/store/run.h reads it (tcp_run_open), turned
 *	into what a design review cites:
 *	  - per-plot data files for the gnuplot scripts in plots/ (tcp_report_extract), and
 *	  - RUN_DIR/report.md and a self-contained RUN_DIR/report.html
 *	    (tcp_report_write): provenance, a table per probe (best points,
 *	    % of the published peak, status counts), the plots, and for every
 *	    plot the run cannot draw, the reason instead of an empty frame;
 *	  - for a `--timer cupti` run, a "Kernel timers" section and
 *	    RUN_DIR/timer-compare.csv (tcp_report_timers).
 *
 *	Published peaks and MMA-K come from model/kinds.h only.  Every number a
 *	plot shows is extracted from the run's measurements.csv at plot time.
 */
#ifndef TCP_REPORT_H
#define TCP_REPORT_H

#include <stddef.h>

#include "harness/analyze/compare.h"
#include "harness/store/run.h"
#include "probes/common/probe.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The plots, in report order: the table in report-plots.c (plots/<stem>.gp
 * renders RUN_DIR/<stem>.png and .svg from <stem>.dat + <stem>.gpvars).
 * Per-plot arrays are TCP_PLOTS_MAX long; tcp_nplots() are used.
 */
#define TCP_PLOTS_MAX 32
int tcp_nplots(void);
const char *tcp_plot_stem(int plot);		/* "k4-identity"; "?" out of range */
const char *tcp_plot_title(int plot);
int tcp_plot_find(const char *stem);		/* index of a plot, -1 when none */

/*
 * What a plot can show for one run.  Most plots are one image, <stem>.png and
 * .svg; a plot drawn one image per panel (tput-vs-n and lat-vs-n: one per
 * kind; compare-ratio: one per probe, and one for the rows only one run has)
 * names its images, in order, and plots/<stem>.gp draws image k with the
 * gnuplot variable panel = k.
 */
#define TCP_PLOT_IMAGES_MAX 40
typedef struct {
	int has_data;		/* 1: the data files were (or would be) written */
	char note[320];		/* has_data 0: why not; 1: what it shows, where from */
	char footnote[512];	/* the plot's footnote under the footer line: the runs it
				 * mixes, or what in it is published, estimated or a model
				 * and its source ("" none) */
	int nimages;		/* 0: one image, <stem>; else image[0 .. nimages - 1] */
	char image[TCP_PLOT_IMAGES_MAX][64];	/* an image's file stem: "tput-vs-n-wgmma_tput-f16" */
	char image_title[TCP_PLOT_IMAGES_MAX][160];	/* what it shows: "wgmma_tput kind=f16" */
} tcp_plot_state_t;

/* One best point of a probe's primary metric. */
typedef struct {
	const char *axes;	/* canonical key, e.g. "kind=f16;N=256;ab=SS" */
	const char *metric;
	const char *unit;
	double median;
	double spread_pct;	/* NaN when not recorded */
	double pct_peak;	/* NaN when no published peak applies */
	double peak;		/* the published peak used (a sparse form's: the sparse one), NaN if none */
	double clock_mhz;	/* its SM clock under load (clock_src), NaN when not recorded */
	int clock_src;		/* where clock_mhz is from: RPT_CLK_* (report-int.h) */
	double nvml_mhz;	/* NVML's sampled clock (the sm_clock_mhz column), NaN when none */
	double nvml_off_pct;	/* (nvml - measured clock) / measured clock x 100, NaN without both */
} tcp_best_t;

/*
 * tcp_run_best()
 *	Best OK point of probe's primary metric (flop_per_clk_sm when it has
 *	one, else the first metric the registry declares, else the first in the
 *	CSV; best = max when higher is better, else min), one per value of the
 *	`kind`, `acc` and `sparse` axes when the probe has them (up to max, at
 *	most 64), else the single best.  Peak: the chip's published dense peak
 *	of the point's rate class (model/peaks.h, by PCI ID or name), else
 *	model/kinds.h by generation, twice that for a sparse form; % of peak:
 *	the point's own pct_peak (pct_of_peak) metric, else (and for a sparse
 *	form) median / that peak.  Clock: the point's own SM clock under load,
 *	in-kernel, else the counter pass's (CUPTI), else NVML's sampled one
 *	(clock_src says which).  Returns how many (<= max).
 */
int tcp_run_best(const tcp_run_t *r, const char *probe, tcp_best_t *out, int max);

/*
 * tcp_report_extract()
 *	For each plot, decide whether the run has its data (st[plot]) and, when
 *	outdir is not NULL, write outdir/<stem>.dat (tab-separated, header row,
 *	datasets split by two blank lines) and outdir/<stem>.gpvars (gnuplot
 *	variables: titles, units, fits, peaks) for every plot that has data,
 *	with `footnote` (st[plot].footnote); outdir/footer.gpvars (`footer`: GPU,
 *	driver, CUDA, tcprobe version and commit, run and date: the first footer
 *	line of every plot, plots/footer.gnuplot) and outdir/<stem>.svgmeta (the
 *	SVG's <title> and <desc>, XML-escaped, one line each).
 *	compare_csv: a `tcprobe compare --csv` file for the ratio plot, or NULL.
 *	0, or -1 with the reason in err (an unwritable outdir, a bad compare CSV).
 */
int tcp_report_extract(const tcp_run_t *r, const char *compare_csv, const char *outdir,
		       tcp_plot_state_t st[TCP_PLOTS_MAX], char *err, size_t len);
/* tcp_report_extract() of the plots `tcprobe report RUN --baseline BASE`
 * draws: compare_csv is the comparison the report joined with baseline
 * (BASE) itself, and the ratio plot's data says so. */
int tcp_report_extract_base(const tcp_run_t *r, const char *compare_csv, const char *baseline,
			    const char *outdir, tcp_plot_state_t st[TCP_PLOTS_MAX], char *err, size_t len);

/*
 * tcp_report_render()
 *	Draw every plot of r into run_dir as PNG and SVG: the data extracted
 *	(tcp_report_extract) into a temporary directory, then `gnuplot` (the
 *	program, found on $PATH unless it holds a '/') on plotsdir/<stem>.gp
 *	once per image and format, with datadir, out, fmt, plotsdir (and panel
 *	= k for the k-th image of a plot of several) set.  One line per plot
 *	and a last `plots: ...` line on stdout, each gnuplot failure with its
 *	messages on stderr.  The plots that failed, or -1 with the reason in
 *	err when nothing could be extracted.
 */
int tcp_report_render(const tcp_run_t *r, const char *run_dir, const char *compare_csv, const char *gnuplot,
		      const char *plotsdir, char *err, size_t len);

/*
 * tcp_report_write()
 *	Write dir/report.md and dir/report.html.  Plots are taken from
 *	dir/<stem>.png (inlined as base64 in the HTML) and dir/<stem>.svg
 *	(linked from the markdown); a plot with data but no image says how to
 *	render it, one without data says why.  0, or -1 with the reason.
 */
int tcp_report_write(const tcp_run_t *r, const char *dir, const tcp_plot_state_t st[TCP_PLOTS_MAX],
		     char *err, size_t len);

/* The run against a baseline (`tcprobe report RUN --baseline BASE`): both runs as
 * compare loads them and their join (harness/analyze/compare.h), one NEW run. */
typedef struct {
	const tcp_cmp_run_t *base, *cur;
	const tcp_cmp_t *cmp;
} tcp_report_base_t;

/*
 * tcp_report_write_base()
 *	tcp_report_write() with the comparison's verdicts in the summary (base
 *	NULL: none), and dir/summary.json: the summary's numbers, stable keys,
 *	"summary_version" (harness/analyze/report-summary.c).
 */
int tcp_report_write_base(const tcp_run_t *r, const char *dir, const tcp_plot_state_t st[TCP_PLOTS_MAX],
			  const tcp_report_base_t *base, char *err, size_t len);

/*
 * One point of a `tcprobe run --timer cupti` run: the CUPTI Activity span of
 * its kernels (cupti_kernel_ns) next to the profiler's duration of the same
 * kernels and the probe's own timing.  NaN where the point lacks an input or
 * its denominator is not positive.  Same columns as RUN_DIR/timer-compare.csv.
 */
typedef struct {
	const char *point, *probe, *axes;	/* cells of measurements.csv */
	int index;				/* load order, ties of point */
	double cupti_ns;			/* cupti_kernel_ns median, > 0 */
	double spread_pct;			/* 100 (max - min) / median of cupti_kernel_ns */
	double duration_ns;			/* cupti/gpu__time_duration.sum, when > 0 */
	double activity_over_profiler;		/* cupti_ns / duration_ns */
	double inkernel_ns;			/* calib: kernel_ns; else cycles / (sm_clock_mhz 1e-3) */
	double inkernel_share_pct;		/* 100 inkernel_ns / cupti_ns */
	double outside_ns;			/* cupti_ns - inkernel_ns */
	double event_ns;			/* calib: event_ns (cudaEvent span) */
} tcp_timer_row_t;

/*
 * tcp_report_timers()
 *	Rows of every OK point with a positive cupti_kernel_ns, in point order,
 *	into *rows (malloc'd, caller frees; NULL when none).  Count, -1 out of
 *	memory.  tcp_report_write() puts them into report.md / report.html
 *	("Kernel timers") and dir/timer-compare.csv when there are any.
 */
int tcp_report_timers(const tcp_run_t *r, tcp_timer_row_t **rows);

/* `tcprobe report` (harness/cmd/cmd-report.c; also in harness/cmd/cmd-list.h). */
int tcp_cmd_report(int argc, char **argv);

/* Base64 (RFC 4648, padded) of n bytes into out (needs 4*((n+2)/3)+1). */
void tcp_base64(const unsigned char *in, size_t n, char *out);

#ifdef __cplusplus
}
#endif
#endif /* TCP_REPORT_H */
