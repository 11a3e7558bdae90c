/*
 * fleet.h
 *	Many runs of the same sweep (one per GPU, per node) turned into one
 *	answer: per point the median across GPUs, the spread, and which GPUs
 *	are outliers.  Used by `tcprobe fleet` (and its tests) on the group
 *	directories that `./sweep --gpus` and scripts/tcprobe-slurm write.
 *
 *	Outlier rule, per (probe, axes, metric) over the GPUs that have an OK
 *	value: robust z = (x - median) / (1.4826 MAD); a GPU is an outlier at
 *	that point when |z| > mad_k AND |x - median| / median > floor_pct (the
 *	floor keeps a fleet of near-identical GPUs, MAD ~ 0, from flagging
 *	noise).  A GPU's clock is an outlier by the same rule applied to the
 *	mean NVML SM clock of its OK points.  With fewer than 3 GPUs nobody
 *	can be singled out: the report says so and flags nothing.
 *
 *	Completeness (harness/store/run.h, the rule compare uses): a run is
 *	incomplete when some other run of the group has a row OK that it has
 *	no row of at all (the union of OK rows is the reference); exit 9 unless
 *	allow_missing.
 */
#ifndef TCP_FLEET_H
#define TCP_FLEET_H

#include <stddef.h>
#include <stdio.h>

#define TCP_FLEET_MAX_RUNS 1024

typedef struct {
	char dir[1024];		/* run directory (holds measurements.csv) */
	char label[128];	/* host:gpuN, unique within the fleet */
	char uuid[96];
	char name[128];		/* GPU name */
	char driver[64];
	double clock_mhz;	/* mean NVML SM clock over OK rows; NaN when unknown */
	int ok_points, bad_points;	/* rows OK / not OK (SKIPPED not counted) */
	int outlier_points;	/* points where this GPU is an outlier */
	int clock_outlier;
	int missing_points;	/* rows OK in another run of the group that this run has no row of */
	int contended_points;	/* points marked contended=1 (schema v2) */
	char torn[2400];	/* its files that ended in a torn line, "" when none */
} tcp_fleet_gpu_t;

typedef struct {
	double mad_k;		/* default 3 */
	double floor_pct;	/* default 2 */
	const char *metric;	/* only this metric; NULL = every metric */
	int with_counters;	/* also compare cupti/ rows (default: the probes' own metrics) */
	int allow_missing;	/* --allow-missing: incomplete runs do not set the exit status */
} tcp_fleet_opts_t;

typedef struct tcp_fleet tcp_fleet_t;

/*
 * tcp_fleet_load()
 *	Collect every run directory under the given paths (a path that holds
 *	measurements.csv is a run; otherwise its subdirectories are searched,
 *	three levels deep) and load them.  NULL with "path: reason" in err.
 */
tcp_fleet_t *tcp_fleet_load(char *const *paths, int npaths, const tcp_fleet_opts_t *o,
			    char *err, size_t errlen);

int tcp_fleet_ngpus(const tcp_fleet_t *f);
const tcp_fleet_gpu_t *tcp_fleet_gpu(const tcp_fleet_t *f, int i);
int tcp_fleet_npoints(const tcp_fleet_t *f);		/* (probe, axes, metric) keys */
int tcp_fleet_noutliers(const tcp_fleet_t *f);		/* (point, GPU) pairs flagged, clocks included */
int tcp_fleet_nmissing(const tcp_fleet_t *f);		/* missing rows over all runs */
/* The line about run i's missing rows, "LABEL (DIR) lacks N of the M rows OK
 * somewhere in the group (torn: FILES)", into buf; returns N (0: nothing written). */
int tcp_fleet_incomplete(const tcp_fleet_t *f, int i, char *buf, size_t len);
/* Exit status (docs/exit-codes.md): 9 incomplete run (unless allow_missing), 1 outliers, 0. */
int tcp_fleet_status(const tcp_fleet_t *f);

/* Human-readable report: GPUs, clocks, outliers sorted by |deviation|. */
void tcp_fleet_print(const tcp_fleet_t *f, FILE *out);

/*
 * tcp_fleet_write_csv()
 *	Long format, one row per (point, GPU): probe,axes,metric,unit,gpu,
 *	gpu_uuid,value,fleet_median,mad,dev_pct,robust_z,outlier.  0 / -1 + err.
 */
int tcp_fleet_write_csv(const tcp_fleet_t *f, const char *path, char *err, size_t errlen);

/*
 * tcp_fleet_write_gpus_csv()
 *	One row per GPU run: gpu,gpu_uuid,name,driver,clock_mhz,ok_points,
 *	bad_points,outlier_points,clock_outlier,missing_points,
 *	contended_points,dir.  0 / -1 + err.
 */
int tcp_fleet_write_gpus_csv(const tcp_fleet_t *f, const char *path, char *err, size_t errlen);

void tcp_fleet_free(tcp_fleet_t *f);

#endif
