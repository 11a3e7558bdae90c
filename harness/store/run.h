/*
 * run.h
 *	The one model of a run directory on disk (docs/results.md): every
 *	reader of finished or interrupted runs (report, compare, fleet, the
 *	end-of-sweep summary, --resume, `tcprobe query`) gets its rows, points,
 *	axes, metrics, statuses, provenance, plan and torn/complete state from
 *	tcp_run_open() and keeps only its own logic.  No other code opens
 *	measurements.csv for reading.
 *
 *	Files are read through csvio.h (columns by header name).  An archived
 *	run may hold measurements.csv.gz / plan.txt.gz instead of the plain file
 *	(docs/results.md, "Size budget"): read the same way, torn-tail rule
 *	included.  Schema versions are dispatched once, in run.c.
 */
#ifndef TCP_RUN_H
#define TCP_RUN_H

#include <stddef.h>

#include "harness/store/columns.h"
#include "harness/store/csvio.h"
#include "harness/store/declared.h"
#include "harness/store/metrics.h"
#include "probes/common/probe.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How tcp_run_open() reads (flags, OR-ed). */
#define TCP_RUN_STRICT		1	/* compare's checks: a `schema` column, a known version on
					 * every row, names and statuses present, numbers where
					 * OK, a well-formed provenance.csv; else the first
					 * problem is the error ("path:line: what") */
#define TCP_RUN_MAY_BE_EMPTY	2	/* a missing or empty measurements.csv is a run of no rows
					 * (--resume of a run killed before its first point) */
#define TCP_RUN_NEED_POINT	4	/* the `point` column is required (summary, --resume) */

/* One measurements.csv row, typed.  Strings point into the run's table. */
typedef struct {
	const char *probe, *arch, *axes, *metric, *unit;	/* arch: its point's */
	const char *status_word;	/* as written */
	int status;			/* tcp_status_t; -1 for a word this build does not know */
	const char *reason;		/* "" when absent */
	const char *id;			/* the `point` column as written, "" when absent */
	const char *median_s;		/* the median cell as written ("" empty) */
	double median, min, max;	/* NaN when empty or not a number (any status) */
	double spread_pct;		/* the spread_pct column; NaN when empty */
	double clock_mhz;		/* sm_clock_mhz; NaN when empty */
	const char *throttle;		/* "" when absent */
	int contended;			/* the v2 `contended` column: 1, 0; -1 empty or absent */
	int schema;			/* the row's schema version, 0 when the column is absent */
	int line;			/* line in measurements.csv (header = 1) */
	int point;			/* index into the run's points */
} tcp_run_row_t;

/* One point: the rows of one (probe, axes), in order of first appearance. */
typedef struct {
	const char *probe, *axes, *reason, *id;	/* from its first row */
	const char *arch;		/* the one target it ran on (`sm_90a`; `host`), docs/results.md */
	const char *targets;		/* the targets the binary held its probe's code for
					 * (probes.csv, else arch; before version 3 the `arch`
					 * cell) */
	/* What the point is (describe.h; the run's version 3 columns, derived
	 * from an older run's axes and probe names): "" = none */
	const char *family, *mma_kind, *a_type, *b_type, *acc_type;
	int sparse;			/* 1: a 2:4 structured-sparse MMA */
	int gen;			/* generation of arch: 90, 100; 0 other */
	double flop_per_run;		/* FLOP of one run() call; NaN unknown */
	int status;			/* its first row's status (all rows carry the same one) */
	double clock_mhz;		/* first non-empty sm_clock_mhz of its rows, NaN if none */
	int naxes;			/* axes split: an[i]=av[i] */
	const char *an[TCP_MAX_AXES * 2], *av[TCP_MAX_AXES * 2];
	int nm;				/* its rows (one per metric), file order */
	const tcp_run_row_t *const *m;
	char *axbuf;			/* private: the split axes */
} tcp_run_point_t;

typedef struct tcp_run {
	char dir[1024];			/* as given, trailing '/' removed */
	char name[256];			/* the last component: the run id */
	char meas_path[1100];		/* the measurements file read (plain or .gz) */
	int compressed;			/* measurements.csv.gz */
	int schema;			/* schema version of its rows (row 2; else provenance; else 0) */
	int torn_tail;			/* a torn last line was dropped */
	int prov_torn;			/* provenance.csv ended in a torn line (dropped) */
	int has_prov;			/* provenance.csv present and readable */
	int nplanned;			/* plan.txt points; -1 when there is no plan.txt */
	int nunfinished;		/* planned points with no row (0 without a plan) */
	double plan_noise_pct;		/* plan.txt `#option noise=` (--reps auto's target, %), NaN if none */
	int nrows;
	tcp_run_row_t *rows;		/* file order */
	int npoints;
	tcp_run_point_t *points;		/* order of first appearance */
	int nprobes;
	const char **probes;		/* order of first appearance, NULL-terminated */
	tcp_meta_set_t *meta;		/* metrics.csv: the metric roles (metrics.h); NULL when the
					 * run predates it (or, not strict, it does not read) */
	tcp_probes_file_t pfile;	/* probes.csv (declared.h); not loaded when the run predates it */
	tcp_table_t meas, prov;		/* the cells every string above points into */
	/* private */
	const tcp_run_row_t **mstore;
	int *hash;
	size_t hsize;
} tcp_run_t;

/*
 * tcp_run_open()
 *	Read DIR/measurements.csv (or .gz; required unless TCP_RUN_MAY_BE_EMPTY),
 *	DIR/provenance.csv, DIR/metrics.csv and DIR/plan.txt (optional) into
 *	*out.  0, or -1 with one line "path[:line]: what is wrong" in err (*out
 *	is then NULL).
 */
int tcp_run_open(const char *dir, int flags, tcp_run_t **out, char *err, size_t len);
void tcp_run_free(tcp_run_t *r);

/* 1 when dir holds a measurements file (plain or .gz): a run directory. */
int tcp_run_is_dir(const char *dir);

/* The run is complete: its plan exists, every planned point has rows, no torn tail. */
int tcp_run_complete(const tcp_run_t *r);

/* The emulated target of an emulated run (provenance `emulated`, written by
 * the emulation build: harness/sweep/emulate.h), NULL for a hardware run
 * (key absent or empty).  Readers show such a run's statuses and
 * validation, never its times as hardware's. */
const char *tcp_run_emulated(const tcp_run_t *r);
/* The line that says a run of `target` is emulated (the sweep's last line,
 * the report's first section): "EMULATED sm_100a run: ...", into buf. */
const char *tcp_run_emulated_banner(const char *target, char *buf, size_t len);

/*
 * tcp_run_uid()
 *	An id no other run shares, whatever its directory is called (every gate
 *	run's is default-run): its start and its GPU, "20261202T074305Z-b1f238da"
 *	(started_utc without separators, then the first 8 hex digits of the MIG
 *	slice's UUID, else gpu_uuid's), into buf.  The directory name when
 *	provenance has no started_utc; the start alone without a UUID.
 */
const char *tcp_run_uid(const tcp_run_t *r, char *buf, size_t len);

/* Provenance value of key, NULL when absent (or no provenance.csv). */
const char *tcp_run_prov(const tcp_run_t *r, const char *key);
/* Provenance rows in file order: key/value of row i, NULL past the end. */
const char *tcp_run_prov_key(const tcp_run_t *r, int i);
const char *tcp_run_prov_value(const tcp_run_t *r, int i);

/* Any column of a row by header name (axis columns, columns a later schema
 * adds); NULL when the column is absent. */
const char *tcp_run_cell(const tcp_run_t *r, int row, const char *col);
int tcp_run_has_col(const tcp_run_t *r, const char *col);

/* What the run's probes declared (declared.h): probes.csv, metrics.csv, and
 * for a run written before them the declarations of that time; never this
 * binary's probe registry.  tcp_run_probe_info: 0, or -1 when the run does
 * not describe the probe; the others NULL when not described. */
int tcp_run_probe_info(const tcp_run_t *r, const char *probe, tcp_probe_info_t *out);
const tcp_meta_t *tcp_run_declared_metric(const tcp_run_t *r, const char *probe, const char *metric);
const tcp_meta_t *tcp_run_first_metric(const tcp_run_t *r, const char *probe);

/* Value of axis `name` of a point, NULL when it has none. */
const char *tcp_point_axis(const tcp_run_point_t *p, const char *name);
/* The row of `metric` of a point, NULL when absent. */
const tcp_run_row_t *tcp_point_metric(const tcp_run_point_t *p, const char *metric);

/* Points of `probe` whose status is s. */
int tcp_run_count(const tcp_run_t *r, const char *probe, tcp_status_t s);

/* The point (probe, axes), NULL when the run has none. */
const tcp_run_point_t *tcp_run_find(const tcp_run_t *r, const char *probe, const char *axes);

/*
 * Which rows a reader looks at (compare's --probe/--metric/--gpu, fleet's
 * --metric): 1 keeps row w of run r.  NULL everywhere below = every row.
 */
typedef int (*tcp_run_keep_fn)(const tcp_run_t *r, const tcp_run_row_t *w, void *ctx);

/* Points with a kept row marked contended=1 (schema v2: another process was
 * on the GPU during the point's window); 0 for a v1 run (no column). */
int tcp_run_contended(const tcp_run_t *r, tcp_run_keep_fn keep, void *ctx);

/*
 * tcp_run_torn_files()
 *	The files of the run that ended in a torn line ("DIR/measurements.csv,
 *	DIR/provenance.csv") into buf ("" when none); returns how many.
 */
int tcp_run_torn_files(const tcp_run_t *r, char *buf, size_t len);

/*
 * The completeness rule, the one place compare, fleet and report take it
 * from.  A row (probe, axes, metric) is MISSING from a run when a
 * reference run has it OK and this run has no row of it at all: never
 * written, or cut off with a torn tail.  A row the run has with another
 * status is not missing (that is a status change); a row the keep function
 * drops (a --probe filter) is not looked at, so it is never missing.
 *
 * A set holds the keys of up to `nmembers` runs, added once each (the runs
 * may be freed after tcp_run_set_add: keys are copied):
 *   compare: member 0 = BASE as the reference, members 1..n = the NEW runs;
 *   fleet:   every run of the group is a member and a reference, so a run
 *            is missing what any other run of the group has OK (the union).
 */
typedef struct tcp_run_set tcp_run_set_t;

tcp_run_set_t *tcp_run_set_new(int nmembers);	/* NULL out of memory */
/* Add the kept rows of r as member m (0 <= m < nmembers); ref: its OK rows
 * are the reference.  0, or -1 out of memory (or a bad m). */
int tcp_run_set_add(tcp_run_set_t *s, int m, int ref, const tcp_run_t *r,
		    tcp_run_keep_fn keep, void *ctx);
/* The same with each row's axes read through key (NULL, or a NULL return: the
 * row's own axes): compare joins a point across an axis one run lacks by its
 * axes without that axis (compare.h, "axes").  key's string need only last
 * until its next call. */
int tcp_run_set_add_keyed(tcp_run_set_t *s, int m, int ref, const tcp_run_t *r, tcp_run_keep_fn keep, void *ctx,
			  const char *(*key)(const tcp_run_row_t *w, void *kctx), void *kctx);
/* Rows OK in a reference member. */
int tcp_run_set_nref(const tcp_run_set_t *s);
/* Rows OK in a reference member that member m has no row of; each (may be
 * NULL) is called on every one, in the order they were first added. */
int tcp_run_set_missing(const tcp_run_set_t *s, int m,
			void (*each)(const char *probe, const char *axes, const char *metric, void *ctx),
			void *ctx);
void tcp_run_set_free(tcp_run_set_t *s);

/*
 * tcp_run_keep_rows()
 *	Rewrite measurements.csv with the rows whose keep[row] is set (through
 *	a temp file and rename): --resume drops a partially written point.
 *	Plain files only.  0, or -1 with the reason in err.
 */
int tcp_run_keep_rows(const tcp_run_t *r, const unsigned char *keep, char *err, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* TCP_RUN_H */
