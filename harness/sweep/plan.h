/*
 * plan.h
 *	A sweep plan: the ordered list of points a spec expands into.  Per
 *	group, the cartesian product of its axis values in axis order (the last
 *	axis varies fastest); each point asked probe->legal() once, here, so an
 *	illegal point is SKIPPED with the probe's reason and never reaches a
 *	worker.  Identical points of repeated groups run once (the first wins).
 *	A legal point whose TMEM footprint (probe->tmem) fails its check is
 *	SKIPPED the same way.
 *
 *	plan.txt (in every run directory) is this list, one point per line, so
 *	that --resume can rebuild the exact plan and check a re-given spec
 *	against it:
 *	    # tcprobe plan v1: point<TAB>probe<TAB>axes<TAB>reps<TAB>warmup<TAB>timeout_s
 *	    #option seed=1234
 *	    #option reps=auto
 *	    0<TAB>calib<TAB>spin_kcycles=100<TAB>10<TAB>2<TAB>30
 *	Under `#option reps=auto` a point's reps is the cap of its timed runs;
 *	without it, the exact count.  The options are the run configuration's
 *	(harness/sweep/config.h, which alone reads them back).
 */
#ifndef TCP_PLAN_H
#define TCP_PLAN_H

#include <stdio.h>

#include "harness/measure/stats.h"
#include "harness/sweep/spec.h"
#include "probes/common/probe.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TCP_PLAN_MAX_POINTS	1000000
#define TCP_PLAN_MAX_BYTES	(1u << 30)	/* plan.txt: MAX_POINTS lines of < 1 KB */
#define TCP_PLAN_MAX_OPTIONS	16

typedef struct {
	const tcp_probe_t *probe;
	tcp_point_t pt;
	int reps, warmup;
	double timeout;		/* seconds */
	int skipped;		/* legal() said no: row SKIPPED with `reason` */
	char *reason;		/* owned; NULL unless skipped */
	char *key;		/* owned; canonical axes key "N=64;kind=f16" */
} tcp_plan_point_t;

typedef struct {
	int n, cap;
	tcp_plan_point_t *p;
	int duplicates;		/* identical points dropped while building */
	/* "#option key=value" lines of plan.txt (seed, counters, gpu, ...) */
	int nopt;
	char opt_key[TCP_PLAN_MAX_OPTIONS][32];
	char opt_val[TCP_PLAN_MAX_OPTIONS][1024];	/* a --counters metric list fits */
	const tcp_target_info_t *target;	/* set by tcp_plan_target(); NULL = any */
	int emulated;		/* target is emulated (harness/sweep/emulate.h): its probes
				 * run on the emulation build's GPU, not on target */
} tcp_plan_t;

/*
 * tcp_plan_build()
 *	Expand spec s into pl.  reps/warmup/timeout: the command line values
 *	(< 0 = not given) override a group's, which override the built-in
 *	defaults.  0, or -1 with a one-line message in err.
 */
int tcp_plan_build(tcp_plan_t *pl, const tcp_spec_t *s, int reps, int warmup, double timeout,
		   char *err, size_t len);

void tcp_plan_free(tcp_plan_t *pl);

/*
 * tcp_plan_target()
 *	The plan for one GPU target (the worker's GPU, or `--arch` of a
 *	dry-run): every point whose probe runs on t but whose forms t lacks
 *	(probe->legal_on) becomes SKIPPED with that reason.  Probes with no code
 *	for t are left alone (UNSUPPORTED, probe-wide).  NULL t: no change.
 */
void tcp_plan_target(tcp_plan_t *pl, const tcp_target_info_t *t);

/* Canonical axes key of point pt of probe p ("N=64;kind=f16") into buf. */
const char *tcp_point_key(const tcp_probe_t *p, const tcp_point_t *pt, char *buf, size_t len);

/* Parse a canonical key back (every axis, in order).  0 / -1 with err. */
int tcp_point_parse_key(const tcp_probe_t *p, const char *key, tcp_point_t *pt, char *err,
			size_t len);

/* The plan.txt line of point i (no newline) into buf. */
const char *tcp_plan_line(const tcp_plan_t *pl, int i, char *buf, size_t len);

/* Set / get an "#option" of the plan (NULL when absent).  Set: -1 (nothing
 * stored) for a key or value that does not fit, an empty key, a key with '='
 * or a newline in either: never a silently truncated option. */
int tcp_plan_set_option(tcp_plan_t *pl, const char *key, const char *val);
const char *tcp_plan_option(const tcp_plan_t *pl, const char *key);

/* Write plan.txt (path.tmp, then rename: never half a plan).  0 / -1 + err. */
int tcp_plan_write(const tcp_plan_t *pl, const char *path, char *err, size_t len);

/* Read a plan.txt back, probes looked up by name.  A regular file of at
 * most TCP_PLAN_MAX_BYTES only (a FIFO or device is refused unread).  0 / -1
 * with "path:line: what: got '...', expected ..." in err. */
int tcp_plan_read(tcp_plan_t *pl, const char *path, const tcp_probe_t *const *probes,
		  int nprobes, char *err, size_t len);

/* Compare two plans point by point.  0 when equal; else -1 with the first
 * difference ("point 3: got '...', expected '...'") in err. */
int tcp_plan_compare(const tcp_plan_t *got, const tcp_plan_t *expected, char *err, size_t len);

/*
 * tcp_point_tmem()
 *	The point's TMEM footprint through the probe's `tmem` hook, checked
 *	(model/tmem-plan.h tcp_tmem_fp_check).  0: the probe has no hook or the
 *	point uses no TMEM; 1: sound, *out filled (out may be NULL); -1: the
 *	point must not run, one-line reason in `reason` (the planner SKIPs it).
 */
int tcp_point_tmem(const tcp_probe_t *p, const tcp_point_t *pt, tcp_tmem_fp_t *out, char *reason,
		   size_t len);

/* --dry-run: points per probe, skipped counts and reasons (verbose: every
 * point) to f; with a target (tcp_plan_target()), the probes without code
 * for it as UNSUPPORTED with the reason. */
void tcp_plan_print(const tcp_plan_t *pl, FILE *f, int verbose);

#ifdef __cplusplus
}
#endif
#endif /* TCP_PLAN_H */
