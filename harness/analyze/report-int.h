/*
 * report-int.h
 *	What the files of `tcprobe report` share, private to harness/analyze/report*.c:
 *	  report.c         the document: its sections, in one table walked for
 *	                   markdown and for HTML; best points of a probe
 *	  report-plots.c   the plot table and the one loop that extracts each
 *	                   plot's data files
 *	  report-compare-plot.c  the compare-ratio plot's data, from compare's CSV
 *	  report-timers.c  the --timer cupti section and timer-compare.csv
 *	  report-doc.c     the markdown/HTML primitives every section writes with
 *	  report-footer.c  the provenance footer and SVG title/desc of every plot
 *	  report-summary.c the findings (rpt_summary_build): per-kind rates and
 *	                   peaks, latency / issue fits, TMEM and energy
 *	                   headlines, what needs attention; summary.json
 *	  report-findings.c the summary, attention and baseline sections
 */
#ifndef TCP_REPORT_INT_H
#define TCP_REPORT_INT_H

#include <stddef.h>
#include <stdio.h>

#include "harness/analyze/report.h"

#define NSTATUS TCP_NSTATUS	/* TCP_OK .. TCP_BLOCKED */

/* printf into a file; remembers the first failure.  f NULL: writes nothing. */
struct out {
	FILE *f;
	int bad;
};

void rpt_outf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* dir/stem.ext for writing (dir NULL: a no-op writer); 0, or -1 with the reason. */
int rpt_open(struct out *o, const char *dir, const char *stem, const char *ext, char *err, size_t len);
/* Close; -1 with the reason when any write or the close failed. */
int rpt_close(struct out *o, const char *dir, const char *stem, const char *ext, char *err, size_t len);

/* The two formats (html 0: markdown): escaped text, tables, headings, paragraphs. */
void rpt_md(struct out *o, const char *s);
void rpt_html(struct out *o, const char *s);
void rpt_txt(struct out *o, int html, const char *s);
const char *rpt_num(double v, char *buf, size_t len, const char *f);	/* "-" when not finite */
void rpt_tab_begin(struct out *o, int html, const char *const *h, int n);
void rpt_tab_row(struct out *o, int html, const char *const *c, int n);
void rpt_tab_end(struct out *o, int html);
void rpt_heading(struct out *o, int html, int level, const char *text, const char *id);
void rpt_para(struct out *o, int html, const char *text);
/* Anchor of a heading as GitHub renders markdown: lower case, ' ' -> '-', punctuation dropped. */
void rpt_slug(const char *text, char *buf, size_t len);

/* A string as a gnuplot double-quoted literal (no quotes or backslashes survive). */
const char *rpt_gq(const char *s, char *buf, size_t len);
/* A field for a tab-separated .dat cell: no tabs or newlines, never empty. */
const char *rpt_tq(const char *s, char *buf, size_t len);
/* Add image <stem>-<slug> (what it shows: title) to a plot of one image per
 * panel (report-plots.c); the slug keeps [A-Za-z0-9_.], anything else becomes
 * '-', one already taken gets "-<k>".  0, -1 when st holds TCP_PLOT_IMAGES_MAX. */
int rpt_plot_image(tcp_plot_state_t *st, const char *stem, const char *slug, const char *title);
/* report-compare-plot.c: compare-ratio's .dat, .gpvars and images from compare's CSV;
 * baseline: the BASE the report joined the run with itself (--baseline), NULL
 * for a CSV `tcprobe compare` wrote. */
int rpt_compare_plot(const char *csv, const char *baseline, const char *dir, tcp_plot_state_t *st, char *err,
		     size_t len);
/* report-footer.c: dir/footer.gpvars, plot i's `footnote` (appended to its .gpvars)
 * and its .svgmeta (the SVG <title> and <desc> lines); 0, or -1 with the reason. */
int rpt_plot_footer(const tcp_run_t *r, const char *dir, int i, const tcp_plot_state_t *st, char *err, size_t len);

/* The commit that measured the run (12 hex digits), with " (dirty)" when its tree had
 * uncommitted changes (provenance git_dirty); and the same of the tcprobe writing the
 * report, the one that draws the plots. */
void rpt_run_commit(const tcp_run_t *r, char *b, size_t len);
void rpt_report_commit(char *b, size_t len);

/* Bytes of a whole file, NULL when unreadable (or larger than 64 MiB). */
unsigned char *rpt_slurp(const char *path, size_t *n);
int rpt_file_exists(const char *dir, const char *stem, const char *ext);
int rpt_in_list(const char *s, const char *const *list);	/* s in a NULL-terminated list */

/* A point's MMA kind (tcp_kind_t, -1) and generation (90, 100, 0) as the report reads them. */
int rpt_point_kind(const tcp_run_point_t *p);
int rpt_point_gen(const tcp_run_t *r, const tcp_run_point_t *p);
double rpt_published_peak(int kind, int gen);	/* dense FLOP/clk/SM, NaN when none */
int rpt_is_flop_rate(const char *unit);

/* The published peak of a point's rate class on the run's chip (model/peaks.h, by PCI
 * device ID or name), else model/kinds.h by generation: the dense figure, twice it
 * for a sparse form (2:4 sparsity: its logical FLOP, the datasheet's sparse figure).
 * NaN when neither has one.  *src (may be NULL): where the dense figure comes from. */
double rpt_point_peak(const tcp_run_t *r, const tcp_run_point_t *p, const char **src);
/* % of peak of a point's rate row m: its own pct_peak (pct_of_peak) metric, the
 * probe knowing its denominator best, else m / peak; a sparse form always m / peak
 * (a probe holds it against the dense figure).  The summary and the tables alike. */
double rpt_point_pct(const tcp_run_point_t *p, const tcp_run_row_t *m, double peak);
/* The point's accumulator type (tcp_type_t) from its `acc` axis, else the kind's default. */
int rpt_point_acc(const tcp_run_point_t *p);
/* The point is a sparse MMA form (its `sparse` axis is set and not 0). */
int rpt_point_sparse(const tcp_run_point_t *p);

/* Where a point's SM clock under load comes from, best first. */
enum { RPT_CLK_NONE = 0, RPT_CLK_KERNEL, RPT_CLK_CUPTI, RPT_CLK_NVML };
#define RPT_NVML_OFF_PCT 2.0	/* NVML's sampled clock this far from the measured one is flagged */
/* A point's SM clock under load: its in-kernel clock metric (clock64 over
 * %globaltimer), else its counter pass's (CUPTI), else NVML's sampled clock (the
 * sm_clock_mhz column: sampled between kernels, not the clock they ran at); the
 * run's metrics.csv, else this binary, says which metric is which clock.  *src
 * (may be NULL): RPT_CLK_*.  NaN with RPT_CLK_NONE when there is none. */
double rpt_point_clock(const tcp_run_t *r, const tcp_run_point_t *p, int *src);
/* The point's counter-pass (CUPTI) clock alone, NaN when none. */
double rpt_point_cupti_clock(const tcp_run_t *r, const tcp_run_point_t *p);
/* (NVML sampled - measured clock) / measured x 100 of a point with both, else NaN. */
double rpt_point_nvml_off(const tcp_run_t *r, const tcp_run_point_t *p);
const char *rpt_clock_src_name(int src);	/* "in-kernel", "CUPTI", "NVML sampled", "-" */
/* The metric a probe's table ranks by (report.c); *hib 1 when higher is better. */
const char *rpt_primary_metric(const tcp_run_t *r, const char *probe, int *hib);
/* The probe's finding in one sentence from its OK rows (report-findings.c); 0 when none. */
int rpt_probe_finding(const tcp_run_t *r, const char *probe, char *b, size_t len);

/* ---------------------------------------------------------------- findings */

/* Least squares of y = a + b x on one or two segments (report-summary.c). */
#define RPT_FIT_MIN_POINTS 3		/* fewer points (a whole line or a segment) are not fitted */
typedef struct {
	int n;				/* points */
	double a, b, r2;		/* one line over all points; NaN when not fitted */
	int pieces;			/* 0: not fitted (n < RPT_FIT_MIN_POINTS), 1, or 2 when
					 * one line does not fit (see rpt_fit_lines) */
	double x0[2], x1[2];		/* each segment's range; they share the breakpoint */
	double sa[2], sb[2], sr2[2];	/* each segment's line */
} rpt_fit_t;
/* Fit x (ascending) / y; 0, -1 with fewer than RPT_FIT_MIN_POINTS points. */
int rpt_fit_lines(const double *x, const double *y, int n, rpt_fit_t *f);

#define RPT_AT_PEAK_PCT 1.0	/* points this close to the best rate are "at peak" (compare's noise floor) */

typedef struct {			/* per MMA family and rate class (and sparse form): the best point */
	const char *family;		/* "wgmma", "tcgen05", "mma.sync" */
	const char *probe, *axes;	/* the best point */
	char probes[64];		/* every probe of the family that measured the class: "mma_sync, warp_mma" */
	char inputs[96];		/* the input types seen: "f16, bf16" */
	char label[128];		/* inputs -> accumulator: "f16, bf16 -> f32", " (sparse)" */
	int kind, cls, sparse, mma_k;
	double rate, spread_pct, pct_peak, peak, acc_bw;
	const char *peak_source;	/* where the dense figure comes from (a sparse peak is twice it) */
	char pattern[32];		/* the input pattern every number of the row is stated at:
					 * `random` where measured, else the best point's; "" no pattern axis */
	int npeak;			/* points at that pattern within RPT_AT_PEAK_PCT of the best rate */
	double tflops, tflops_lo, tflops_hi;	/* TFLOP/s over those points: median, min, max */
	double clock_mhz, clock_lo, clock_hi;	/* their SM clock under load: median, min, max */
	int clock_src;			/* the worst source among their clocks (RPT_CLK_*) */
} rpt_kind_row_t;

typedef struct {			/* a quantity over points: how many, min, median, max */
	int n;
	double lo, med, hi;
} rpt_range_t;

typedef struct {			/* the rows of one probe OK in the baseline that this run lacks */
	const char *probe;
	int rows, points;
} rpt_missing_t;

typedef struct {			/* latency vs N of one form */
	const char *probe, *metric;
	char form[200];			/* the axes other than N */
	rpt_fit_t fit;
} rpt_lat_row_t;

typedef struct {			/* issue interval vs chain depth of one form */
	const char *probe;
	char form[200];
	int n;
	double ii, b, r2, sat_depth;	/* fit cycles = ii + b / D; depth within 5% of ii */
	double min_issue;		/* the probe's issue_cycles_per_mma, min over the form; NaN */
} rpt_ii_row_t;

typedef struct {			/* a peak byte rate (tcgen05.ld / st / cp) or energy row */
	const char *probe, *axes, *metric, *unit;
	char what[96];
	double value, lo, hi;		/* energy: min / max over the patterns */
	char lo_at[64], hi_at[64];
} rpt_peak_row_t;

enum { RPT_ATTN_THROTTLED, RPT_ATTN_STATUS, RPT_ATTN_CONTENDED, RPT_ATTN_NOISY };
typedef struct {			/* one point that needs attention */
	const tcp_run_point_t *p;
	int cat;			/* RPT_ATTN_* */
	const char *why;		/* "throttled", the status word ("FAILED", "BLOCKED"), "contended", "noisy" */
	char detail[256];
} rpt_attn_t;

#define RPT_MAX_ROWS 64
#define RPT_MAX_ATTN 400
typedef struct {
	rpt_kind_row_t kinds[RPT_MAX_ROWS];
	int nkinds;
	rpt_lat_row_t lat[RPT_MAX_ROWS];
	int nlat, nlat_short;		/* forms fitted; forms with fewer than 3 N values */
	rpt_ii_row_t ii[RPT_MAX_ROWS];
	int nii;
	rpt_peak_row_t tmem[16];
	int ntmem;
	rpt_peak_row_t energy[RPT_MAX_ROWS];
	int nenergy;
	/* needs attention */
	int nstatus[NSTATUS + 1];	/* points per status; [NSTATUS]: a word this build does not know */
	int nrun;			/* points that ran here: not SKIPPED / UNSUPPORTED */
	int nthrottled, nbad, ncontended, nnoisy;
	int has_contended;		/* the run has the v2 `contended` column */
	int has_ci;			/* ... and `ci_pct` */
	double noise_target;		/* the plan's noise= option (%), NaN when not recorded */
	rpt_attn_t attn[RPT_MAX_ATTN];
	int nattn, attn_dropped;
	/* the SM clock and power under load */
	rpt_range_t clk_kernel;		/* in-kernel clock metric, one per point that has it */
	rpt_range_t clk_cupti;		/* the counter pass's clock */
	rpt_range_t clk_nvml;		/* NVML's sampled clock (the sm_clock_mhz column) */
	rpt_range_t clk_load;		/* each point's own clock under load (rpt_point_clock, NVML excluded) */
	int nvml_cmp, nvml_off;		/* points with NVML and a measured clock; of them more than
					 * RPT_NVML_OFF_PCT apart */
	double nvml_off_max;		/* the largest |difference| among them, % */
	rpt_range_t power;		/* power_w_mean of the energy rows (--energy), W */
	double power_limit_w;		/* provenance power_limit_w, NaN when not recorded */
	/* against a baseline (NULL: none) */
	const tcp_report_base_t *base;
	/* verdict counts of the rows measured on a side (a row SKIPPED or UNSUPPORTED on
	 * every side it is on is not counted: base_notrun); missing only where OK in the
	 * baseline (a missing row that was not OK there counts as unmeasured) */
	int base_all[TCP_V_COUNT];
	int base_prim[TCP_V_COUNT];	/* ... of the rows that are their probe's primary metric */
	int base_notrun;
	rpt_missing_t miss[RPT_MAX_ROWS];	/* rows OK in the baseline this run lacks, per probe */
	int nmiss, miss_rows;
	int joined_meas[RPT_MAX_ROWS];	/* per cmp->axes_joined[k]: its points joined with a row
					 * measured on a side */
} rpt_summary_t;

/* The verdict a report counts a comparison cell under (the rule of base_all), -1: not run. */
int rpt_verdict_counted(const tcp_cmp_cell_t *x);

/* The comparison row is its probe's primary metric in run r. */
int rpt_primary_row(const tcp_run_t *r, const tcp_cmp_row_t *w);
/* The findings of a run (base: NULL or the joined comparison); malloc'd, NULL out of memory. */
rpt_summary_t *rpt_summary_build(const tcp_run_t *r, const tcp_report_base_t *base);
/* dir/summary.json: the same numbers, stable keys, "summary_version". */
int rpt_summary_json(const rpt_summary_t *s, const tcp_run_t *r, const char *dir, char *err, size_t len);

/* report-findings.c: the sections */
void rpt_sec_summary(struct out *o, int html, const tcp_run_t *r, const rpt_summary_t *s);
void rpt_sec_attention(struct out *o, int html, const tcp_run_t *r, const rpt_summary_t *s);
void rpt_sec_baseline(struct out *o, int html, const tcp_run_t *r, const rpt_summary_t *s);

/* report-timers.c */
int rpt_timer_csv(const tcp_timer_row_t *t, int n, const char *dir, char *err, size_t len);
void rpt_timer_section(struct out *o, int html, const tcp_run_t *r, const char *dir,
		       const tcp_timer_row_t *t, int n);

#endif /* TCP_REPORT_INT_H */
