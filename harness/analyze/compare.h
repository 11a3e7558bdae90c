/*
 * compare.h
 *	Join results directories on (probe, axes, metric) and say, per point,
 *	whether a NEW run is faster, slower or the same as a BASE run, within the
 *	noise both runs recorded.  `tcprobe compare` prints it; `tcprobe fleet`
 *	and the tests reuse it.
 *
 *	Definitions (also in `tcprobe compare --help` and README.md):
 *	  change_pct = (new_median - base_median) / |base_median| x 100
 *	  ratio      = new_median / base_median
 *	  spread     = a run's spread_pct column, (max - min) / median x 100 over
 *	               its reps (recomputed from min/max/median when empty)
 *	  noise_pct  = max(noise floor (default 1%), base spread, new spread)
 *	  verdict    = same    when |change_pct| <= noise_pct
 *	               faster  / slower: outside the band, better / worse in the
 *	                       metric's direction (higher or lower is better)
 *	               changed outside the band, direction unknown
 *	               status_changed (OK -> FAILED, SKIPPED -> OK, ...),
 *	               new (only in NEW), missing (only in BASE),
 *	               unmeasured (neither run has a value: same non-OK status),
 *	               absent (N-way: only some other NEW run has the point)
 *	  emulated   = a run of the emulation build (provenance `emulated`):
 *	               its medians are dropped when loaded, so two emulated
 *	               runs compare on status and validation only (OK in both:
 *	               same; OK -> not OK: the regression); an emulated run
 *	               is never compared with a hardware run
 *	               (tcp_cmp_same_kind)
 *	  axes       points join on (probe, axes, metric).  Where the runs hold a
 *	             probe with different axes (an axis added since BASE, or
 *	             dropped), a point's join key is its axes without the axes
 *	             some run of that probe lacks, when it sits at that axis's
 *	             single default (the probe's declaration): `pacing` added at
 *	             `relaxed` joins the points BASE took before pacing existed.
 *	             A point at another value keeps its whole axes (new or
 *	             missing).  Runs with the same axes join as they are.
 *	  regression = slower with |change_pct| > threshold, or OK -> not OK
 *	               (OK -> BLOCKED too: a point the sweep did not run because
 *	               earlier points of its probe failed is worse than OK, not
 *	               a missing row: it is written, with the reason)
 *
 *	Roles (docs/results.md "metrics.csv"; harness/store/metrics.h): every
 *	row is judged by its metric's role, read from the runs themselves: the
 *	BASE run's metrics.csv, else the NEW run's (a run that predates the file
 *	takes its partner's), else (--roles FILE) a given one; a row the file
 *	does not describe takes the role its unit implies.  `tcprobe compare`
 *	refuses a pair in which neither run has one (tcp_cmp_roles_check);
 *	a caller that joins such a pair anyway (report --baseline) gets every
 *	row gated, the rule before roles.
 *	  gated      as above
 *	  band       noise_pct is also at least quantum / |base| x 100 and
 *	             floor / |base| x 100 (the metric's quantum and absolute
 *	             floor, in its unit); a change of at most max(quantum,
 *	             floor) is same even where base is 0
 *	  time       outside the band, the change is set against the point's
 *	             own SM clock, of the same pass where it has one (a counter
 *	             row `cupti/...`: the CUPTI clock; any other: its in-kernel
 *	             clock metric), else the other; never NVML's: clock = new
 *	             clock / base clock, the ratio it explains clock (rates,
 *	             clocks) or 1 / clock (times), beyond = ratio / explained.
 *	             |beyond - 1| within
 *	             max(noise_pct, the clock rows' spreads): faster / slower as
 *	             measured and never a regression (`slower (clock -3.2%)`);
 *	             else faster / slower by beyond, a regression when beyond
 *	             is worse than the threshold.  No clock on the point:
 *	             changed (`changed (no clock)`), never a regression
 *	  info       faster / slower as measured, never a regression
 *	  --gate-all info rows and time rows without a clock are gated too
 *
 *	Errors are one line, "path:line: what is wrong", for the caller to print
 *	and exit 2 on.
 */
#ifndef TCP_COMPARE_H
#define TCP_COMPARE_H

#include <stdio.h>

#include "harness/store/metrics.h"
#include "harness/store/run.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TCP_CMP_ERRLEN		512
#define TCP_CMP_NOISE_FLOOR	1.0	/* percent: below this, timing noise we never resolve */
#define TCP_CMP_THRESHOLD	3.0	/* percent: default regression gate */

/* One (probe, axes, metric) row of a run.  Strings point into the run's table. */
typedef struct {
	const char *probe, *axes, *metric, *unit;
	const char *status;	/* "OK", "FAILED", ... */
	const char *reason;	/* "" when absent */
	const char *median_s;	/* the median cell as written (the CSV echoes it) */
	double median;		/* NAN unless status is OK */
	double spread_pct;	/* NAN when the run did not record it */
	int line;		/* line in measurements.csv, for messages */
	int order;		/* row index in the file: sweep order */
} tcp_cmp_point_t;

/* Which rows a run keeps (fnmatch patterns; NULL/0 = keep all). */
typedef struct {
	const char *const *probes;
	int nprobes;
	const char *const *metrics;
	int nmetrics;
	int gpu;		/* CUDA ordinal to keep, -1 = all */
} tcp_cmp_filter_t;

/* One results directory, loaded (through harness/store/run.h) and filtered. */
typedef struct {
	tcp_run_t *run;		/* the run as read; every string below points into it */
	char dir[1024];
	char name[256];		/* the directory's last component: the run id */
	int schema;		/* schema version of its rows */
	int has_prov;		/* provenance.csv present */
	const char *emulated;	/* emulated target (provenance `emulated`), NULL = hardware;
				 * an emulated run's points carry no median */
	int torn_tail;		/* measurements.csv ended in a torn line (dropped) */
	tcp_cmp_filter_t filter;	/* the filter it was loaded with (has_filter) */
	int has_filter;
	int ncontended;		/* kept points marked contended=1 (schema v2) */
	double clock_mean_mhz;	/* mean sm_clock_mhz over OK rows, NAN if none */
	char throttle[256];	/* union of throttle reasons seen: "none", "NA" (not recorded), "a|b" */
	int nstatus[TCP_NSTATUS + 1];	/* rows per status (tcp_status_t order), then other */
	int npoints;
	tcp_cmp_point_t *pts;	/* sorted by (probe, axes, metric) */
} tcp_cmp_run_t;

typedef enum {
	TCP_V_SAME = 0,
	TCP_V_FASTER,
	TCP_V_SLOWER,
	TCP_V_CHANGED,		/* outside the band, direction unknown */
	TCP_V_STATUS,		/* status differs */
	TCP_V_NEW,		/* only in NEW */
	TCP_V_MISSING,		/* only in BASE */
	TCP_V_UNMEASURED,	/* same non-OK status in both */
	TCP_V_ABSENT,		/* N-way: neither base nor this run has it (another run does) */
	TCP_V_COUNT
} tcp_verdict_t;

/* How a cell's numbers were judged (the roles, above). */
typedef enum {
	TCP_J_NONE = 0,		/* not compared as numbers (status, new, missing, emulated) */
	TCP_J_GATED,		/* the band, then the gate */
	TCP_J_CLOCK,		/* time-domain: same, or a change the point's SM clock explains */
	TCP_J_BEYOND_CLOCK,	/* time-domain: judged by the change beyond the clock's */
	TCP_J_NO_CLOCK,		/* time-domain on a point without a clock */
	TCP_J_INFO		/* informational */
} tcp_judged_t;

/* One point of one NEW run against the base. */
typedef struct {
	const tcp_cmp_point_t *base, *cur;	/* NULL when absent from that run */
	double ratio, change_pct, noise_pct;	/* NAN when not both OK */
	double effect_pct;	/* change in the better direction: > 0 better, < 0 worse */
	tcp_verdict_t verdict;
	int regression;		/* counts against the gate */
	tcp_judged_t judged;
	double clock_pct;	/* time rows: the point's SM clock change, new vs base, %; NAN none */
	double beyond_pct;	/* ... and the change the clock does not explain, %; NAN none */
	int gate_all;		/* judged under --gate-all */
} tcp_cmp_cell_t;

/* What one cell is judged by (tcp_cmp_cell_judge): its metric's role and the
 * point's SM clock in both runs. */
typedef struct {
	int better;		/* 1 higher, 0 lower, -1 unknown */
	tcp_role_t role;	/* TCP_ROLE_GATED, _TIME or _INFO */
	double quantum, abs_floor;	/* in the metric's unit; 0 = none */
	const tcp_cmp_point_t *clk_base, *clk_cur;	/* time rows: the point's SM clock, NULL none */
	int gate_all;
	double noise_floor_pct, threshold_pct;
} tcp_cmp_judge_t;

/* How a comparison is judged. */
typedef struct {
	double noise_floor_pct, threshold_pct;
	int gate_all;			/* --gate-all */
	const tcp_meta_set_t *roles;	/* --roles FILE: every pair's roles; NULL = the runs' own */
	const char *roles_path;		/* its path, for the report */
} tcp_cmp_opts_t;

/* An axis some runs of a probe have and others lack: points at its default
 * are joined across it (compare.h, "axes"). */
typedef struct {
	const char *probe;	/* points into a run */
	char axis[64];
	char value[64];		/* its single default: the value joined on ("" none: nothing joins) */
	int in_base;		/* 1: BASE has it (a NEW run lacks it), 0: only NEW runs have it */
	int points;		/* points of the joined rows with a run on each side */
} tcp_cmp_axis_t;

/* One joined (probe, axes, metric) row: the base point and one cell per NEW run. */
typedef struct {
	const char *probe, *axes, *metric, *unit;	/* axes: the first NEW run's where it has the point */
	const char *key;	/* the axes it was joined on (axes above, or them less an axis
				 * some run lacks, at its default) */
	int better;		/* 1 higher is better, 0 lower is better, -1 unknown */
	const tcp_cmp_point_t *base;
	tcp_cmp_cell_t *cells;	/* nnew */
	int order;		/* sweep order: (first run holding it, its row) */
	tcp_role_t role;	/* as the first NEW run's pair reads it; GATED without roles */
} tcp_cmp_row_t;

typedef struct {
	int nnew;
	double threshold_pct, noise_floor_pct;
	int nrows;
	tcp_cmp_row_t *rows;	/* sweep order (tcp_cmp_sort for effect order) */
	int (*count)[TCP_V_COUNT];	/* count[i][verdict] per NEW run i */
	int *nregress;		/* regressions per NEW run */
	int *nmissing;		/* per NEW run: rows OK in BASE it has no row of (the
				 * completeness rule of harness/store/run.h) */
	int nbase_ok;		/* rows OK in BASE (after the filters) */
	int allow_missing;	/* --allow-missing: missing rows do not set the exit status */
	int roles;		/* some pair was judged by roles (else every row gated) */
	int gate_all;
	const char **roles_from;	/* per NEW run: whose metrics.csv its pair was judged by
					 * (a directory or the --roles file), NULL = none */
	tcp_cmp_axis_t *axes_joined;	/* the axes joined across (compare.h "axes"), naxes_joined */
	int naxes_joined;
	char *key_arena;		/* the join keys that are not a run's own axes */
} tcp_cmp_t;

/* A tcp_run_keep_fn: the rows the filter ctx (a tcp_cmp_filter_t *, NULL = all) keeps. */
int tcp_cmp_keep(const tcp_run_t *run, const tcp_run_row_t *w, void *ctx);

/*
 * tcp_cmp_run_load()
 *	Open DIR with tcp_run_open(TCP_RUN_STRICT) (required columns, known
 *	schema version, numbers where status is OK, a well-formed provenance),
 *	keep the rows f selects (f may be NULL) and check that no point is
 *	there twice.  0, or -1 with one line in err.
 */
int tcp_cmp_run_load(const char *dir, const tcp_cmp_filter_t *f, tcp_cmp_run_t *r,
		     char *err, size_t errlen);
void tcp_cmp_run_free(tcp_cmp_run_t *r);

/*
 * tcp_cmp_same_kind()
 *	0 when base and the nnew runs are all hardware runs or all emulated;
 *	else -1 with one line in err naming an emulated run and a hardware one.
 */
int tcp_cmp_same_kind(const tcp_cmp_run_t *base, const tcp_cmp_run_t *runs, int nnew, char *err,
		      size_t errlen);

/* A provenance value of the run, NULL when absent. */
const char *tcp_cmp_prov(const tcp_cmp_run_t *r, const char *key);

/*
 * tcp_cmp_better()
 *	Direction of a metric: the probe registry when this binary knows the
 *	probe and metric, else the unit (cycles, ns, ... lower; FLOP/clk/SM,
 *	TFLOP/s, B/clk/SM, MHz, any x/s or x/clk rate: higher).  -1 unknown.
 */
int tcp_cmp_better(const char *probe, const char *metric, const char *unit);

/*
 * tcp_cmp_cell()
 *	The verdict of one point: base and cur may be NULL (missing / new).
 *	better as from tcp_cmp_better.  Every row gated (the rule without
 *	roles).  Pure: the tests drive it directly.
 */
void tcp_cmp_cell(const tcp_cmp_point_t *base, const tcp_cmp_point_t *cur, int better,
		  double noise_floor_pct, double threshold_pct, tcp_cmp_cell_t *out);

/*
 * tcp_cmp_cell_judge()
 *	The same under a role (above): quantum and floor widen the band, a
 *	time-domain change is set against j's clock points, an informational
 *	one is never a regression unless j->gate_all.  Pure.
 */
void tcp_cmp_cell_judge(const tcp_cmp_point_t *base, const tcp_cmp_point_t *cur, const tcp_cmp_judge_t *j,
			tcp_cmp_cell_t *out);

/*
 * tcp_cmp_roles_check()
 *	0 when every pair (base, runs[i]) has roles to be judged by: o->roles,
 *	or a metrics.csv in either run (two emulated runs need none: they
 *	compare on status); else -1 with one line naming both directories.
 */
int tcp_cmp_roles_check(const tcp_cmp_run_t *base, const tcp_cmp_run_t *runs, int nnew, const tcp_cmp_opts_t *o,
			char *err, size_t errlen);

/* Join base with nnew runs, each pair judged by its roles (a pair without
 * any: every row gated).  0, or -1 (out of memory) with err. */
int tcp_cmp_join_opts(const tcp_cmp_run_t *base, const tcp_cmp_run_t *runs, int nnew, const tcp_cmp_opts_t *o,
		      tcp_cmp_t *out, char *err, size_t errlen);
/* The same with no --gate-all or --roles, the given band and gate. */
int tcp_cmp_join(const tcp_cmp_run_t *base, const tcp_cmp_run_t *runs, int nnew,
		 double noise_floor_pct, double threshold_pct, tcp_cmp_t *out,
		 char *err, size_t errlen);

/* Reorder rows: worst regression first, then improvements, status changes,
 * missing/new, and same last (each by size of effect, then sweep order). */
void tcp_cmp_sort(tcp_cmp_t *c);

/* Regressions over all NEW runs. */
int tcp_cmp_regressions(const tcp_cmp_t *c);

/* Missing rows over all NEW runs (0 when allow_missing is set: not counted against the gate). */
int tcp_cmp_missing(const tcp_cmp_t *c);

/*
 * tcp_cmp_status()
 *	The exit status of the comparison (docs/exit-codes.md): 9
 *	(TCP_EXIT_INCOMPLETE) when a NEW run misses rows OK in BASE and
 *	allow_missing is not set, whether or not something is also slower: the
 *	verdict covers only part of the run, and "rerun or copy it whole" comes
 *	first; else 1 on a regression; else 0.
 */
int tcp_cmp_status(const tcp_cmp_t *c);

void tcp_cmp_free(tcp_cmp_t *c);

/* Names: "same", "faster", "slower", "changed", "status_changed", "new",
 * "missing", "unmeasured", "absent" (the CSV `verdict` values). */
const char *tcp_verdict_name(tcp_verdict_t v);
/* "", "gated", "clock", "beyond_clock", "no_clock", "info" (the CSV `judged` values). */
const char *tcp_judged_name(tcp_judged_t j);

/*
 * tcp_cmp_write_csv()
 *	The comparison as CSV, rows in sweep order.  Columns: base_run, probe,
 *	axes, metric, unit, better, base_median, base_spread_pct, base_status,
 *	then per NEW run a group new_run, new_median, new_spread_pct,
 *	new_status, ratio, change_pct, noise_pct, verdict, regression (first
 *	group unsuffixed, the k-th suffixed _k).  When roles judged the
 *	comparison, after all of those: role, then per NEW run judged and
 *	clock_pct (suffixed the same way).  0, or -1 on a write error.
 */
int tcp_cmp_write_csv(FILE *f, const tcp_cmp_t *c, const tcp_cmp_run_t *base,
		      const tcp_cmp_run_t *runs);

/*
 * tcp_cmp_print()
 *	The report a person reads: provenance diff with warnings, the table
 *	(rows in the current order; only rows that are not `same` unless all;
 *	at most top rows when top > 0), and the per-run summary.
 */
void tcp_cmp_print(FILE *f, const tcp_cmp_t *c, const tcp_cmp_run_t *base,
		   const tcp_cmp_run_t *runs, int all, int top);

/*
 * tcp_cmp_incomplete()
 *	The one line about NEW run r's missing rows, "DIR: N of the M rows OK in
 *	BASE are missing (torn: FILES)", into buf; returns N (0: nothing written).
 */
int tcp_cmp_incomplete(const tcp_cmp_t *c, const tcp_cmp_run_t *base, const tcp_cmp_run_t *runs, int r,
		       char *buf, size_t len);
#define TCP_CMP_SUBSET_HINT	"to compare a subset on purpose (quick vs default plan, another GPU) " \
				"pass --allow-missing or --probe/--metric"

/*
 * tcp_cmp_print_result()
 *	The closing lines (the end of tcp_cmp_print, and all --quiet prints):
 *	one INCOMPLETE line per NEW run with missing rows (its torn files, the
 *	count, how to compare a subset on purpose), a contention warning, and
 *	"Result: ... (exit N)".  Returns tcp_cmp_status(c).
 */
int tcp_cmp_print_result(FILE *f, const tcp_cmp_t *c, const tcp_cmp_run_t *base,
			 const tcp_cmp_run_t *runs);

#ifdef __cplusplus
}
#endif
#endif /* TCP_COMPARE_H */
