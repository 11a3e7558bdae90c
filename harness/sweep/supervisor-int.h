/*
 * supervisor-int.h
 *	The supervisor's state and what its files share, private to
 *	harness/sweep/supervisor*.c:
 *	  supervisor.c         the run: options, results directory, the loop over
 *	                       the plan's points (BLOCKED, verdict lines: block.h),
 *	                       signals, the summary
 *	  supervisor-point.c   one point on the worker under its timeout: NVML
 *	                       sampling, the --energy window, the point's result
 *	  supervisor-worker.c  the worker protocol, parent side: spawn, lines with
 *	                       a deadline, kill and reap, parsing what came back
 *	  supervisor-rows.c    what goes on disk: the CSV header and rows,
 *	                       metrics.csv, provenance.csv, and --resume's
 *	                       reading of the rows
 *	This process never calls CUDA: only workers do (harness/sweep/worker.c).
 */
#ifndef TCP_SUPERVISOR_INT_H
#define TCP_SUPERVISOR_INT_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "harness/store/csvio.h"
#include "harness/measure/contention.h"
#include "harness/measure/cupti-timer.h"
#include "harness/measure/energy.h"
#include "harness/measure/nvml.h"
#include "harness/measure/provenance-live.h"
#include "harness/sweep/plan.h"
#include "harness/store/provenance.h"
#include "harness/store/rows.h"
#include "harness/store/run.h"
#include "harness/measure/stats.h"
#include "harness/sweep/block.h"
#include "harness/sweep/supervisor.h"
#include "harness/sweep/worker.h"

#define LINE_MAX_BYTES	(512u << 20)	/* a longer protocol line is garbage */
#define PATHLEN		4096

extern volatile sig_atomic_t sup_signal;	/* SIGINT/SIGTERM seen (supervisor.c) */


/* ---------------------------------------------------------------- lines */

struct linebuf {
	char *buf;
	size_t len, off, cap;
};

/* ---------------------------------------------------------------- NVML */

struct sampler {
	int nvml;			/* NVML index, -1 = no sampling */
	double sum;
	int n;
	unsigned long long mask;
	int mask_ok;
	double next;
	tcp_mean_t temp;		/* GPU temperature, C */
	tcp_busy_t *busy;		/* contention witnesses polled meanwhile, or NULL */
	tcp_busy_point_t *bp;
};

/* ---------------------------------------------------------------- worker */

struct worker {
	pid_t pid;		/* 0 = none */
	int cmd_fd, res_fd;
	int gpu;		/* CUDA ordinal, -1 host-only */
	int cc, sm_count;
	long self;		/* BUSY: its pid as NVML lists it (-1 unknown) */
	double rtt_us;		/* BUSY: launch round trip at start (NaN none) */
	struct linebuf lb;
	tcp_block_t block;	/* the BLOCKED rule's streaks on this GPU (block.h) */
};

/* The run-wide state of the supervisor. */
struct sup {
	const tcp_probe_t *const *probes;
	int nprobes;
	const tcp_sweep_opts_t *o;
	tcp_plan_t plan;
	uint64_t seed;
	const char *counters;
	int gpu;
	struct worker w;
	tcp_prov_t *gprov;		/* PROV lines of the first worker */
	char ctr_status[TCP_REASON_LEN];
	int timer_cupti;		/* --timer cupti */
	char timer_status[TCP_REASON_LEN];
	int nvml;			/* NVML index of the GPU, -1 none */
	char nvml_why[256];		/* why nvml is -1 */
	tcp_busy_t busy;		/* other work on the GPU (contention.h) */
	int resumed_contended;		/* --resume: points kept from before marked contended=1 */
	int power_src;			/* TCP_POWER_INSTANT / _AVERAGE, -1 none yet */
	double settle_s;		/* --settle: bound of the energy settle period */
	double energy_s;		/* max(--energy, --sustain); 0 = off */
	FILE *trace;			/* --sustain: DIR/trace.csv */
	char dir[PATHLEN];
	char run_id[256];
	tcp_rows_t *rows;		/* measurements.csv (store/rows.h) */
	tcp_meta_set_t *meta;		/* what DIR/metrics.csv describes (store/metrics.h) */
	FILE *log;
	int naxcols;
	const char **axcols;		/* the axis-union columns */
	unsigned char *done;		/* per plan point: rows on disk */
	signed char *pst;		/* per plan point: its status, -1 none (yet) */
	unsigned char *plast;		/* per plan point: 1 = its probe's last in the plan */
	int ndone;
	int bad;			/* FAILED/TIMEOUT/INVALID/BLOCKED points this session */
	double t_start;
	int nrun, ntorun;		/* points executed / to execute this session */
	double t_run;			/* wall seconds spent in executed points */
	int io_rc;			/* exit status of a results-directory I/O failure */
	/* counter batches (counters.h): points whose counter pass waits for the
	 * worker's next batch; their rows are written, in plan order, once it
	 * has run.  A batch lost (the worker died or hung) runs its points
	 * again, one at a time, each under its own verdict. */
	int batch;			/* points per counter pass (TCPROBE_COUNTERS_BATCH) */
	int nodefer_until;		/* points up to this one: no batches (-1 none) */
	tcp_emu_opts_t emu;		/* the run's emulation (emulate.h); target NULL = real */
	int npend;
	int *pend_idx;			/* [batch] */
	struct result *pend;		/* [batch] */
};

/* ---------------------------------------------------------------- results */

/* What came back for one point. */
struct result {
	tcp_status_t st;
	char reason[TCP_REASON_LEN + 128];
	char site[64];			/* non-OK: the wait site that failed (ctx.site), "" none */
	int ns, nm;
	char stop[16];			/* why the timed runs ended (reps_stop); "" = none */
	double work_flop;		/* FLOP of one run() (ctx.work_flop); <= 0 or NaN n/a */
	double *smp;			/* nm x ns, metric-major */
	int nk;
	struct krow {
		char *metric, *unit, *reason;
		double v;
		tcp_status_t st;
	} *k;
	double clock_mhz;		/* NVML mean, NAN = none */
	char throttle[128];		/* "" = not sampled */
	int sticky;
	double rtt0, rtt1;		/* C: the worker's launch round trips (us), NaN none */
	int deferred;			/* W: the counter pass waits for the batch */
	int complete;			/* deferred, and its X .. E came */
	int batch_lost;			/* the worker failed with points of a batch waiting */
	int contended;			/* -1 unknown / not a GPU point, 0, 1 */
	double temp_c;			/* GPU temperature, mean over the point; NaN none */
	struct {			/* --energy window (EB .. EE) */
		int seen;		/* EE arrived */
		int have_e;		/* both counter readings */
		char why[320];		/* no energy: why */
		int64_t mj;
		double window_s, work_flop, worker_s;
		long long runs;
		tcp_mean_t power, clock, temp;
		unsigned long long mask;
		int mask_ok;
		double settle_s;	/* load held before the window */
		int unsettled;		/* the settle bound ran out before power was flat */
		double update_s;	/* the energy counter's update period, NaN unknown */
		double agree_pct;	/* counter vs sampled power, NaN when not both */
		char check[64];		/* energy_check: "ok", or flags joined by '|' */
	} en;
};

/* sup_worker_line */

enum { WL_LINE = 1, WL_TIMEOUT = -1, WL_SIGNAL = -2, WL_TOOLONG = -3, WL_EOF = -4 };

enum { SPAWN_OK = 0, SPAWN_FAIL = -1, SPAWN_NOGPU = -3, SPAWN_BADGPU = -4, SPAWN_SIGNAL = -5,
       SPAWN_OLDDRIVER = -6 };

enum { RUN_DONE = 0, RUN_SIGNAL = 1, RUN_FATAL = 2 };

/* supervisor.c */
double sup_mono(void);
void sup_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void sup_log(struct sup *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* supervisor-worker.c */
int sup_worker_spawn(struct sup *s, int collect_prov, int gpu, char *why, size_t len);
int sup_worker_line(struct worker *w, double deadline, struct sampler *smp, char **line);
void sup_worker_kill(struct worker *w);
void sup_worker_reap(struct worker *w, char *why, size_t len);
int sup_split_tabs(char *s, char **f, int maxf);
const char *sup_excerpt(const char *s, char *buf, size_t len);
int sup_parse_double(const char *s, double *v);
int sup_extra_series(const struct sup *s, const tcp_probe_t *p);
void sup_extra_name(const struct sup *s, int i, const char **name, const char **unit);
int sup_parse_point_msg(struct sup *s, int idx, char **f, int nf, double deadline,
			struct sampler *smp, struct result *res);
int sup_read_batch(struct sup *s, double deadline, struct sampler *smp, int idx, struct result *res);
void sup_result_free(struct result *r);

/* supervisor-point.c */
void sup_sampler_start(struct sampler *s, int nvml, tcp_busy_t *busy, tcp_busy_point_t *bp);
void sup_sampler_take(struct sampler *s);
const char *sup_unsupported_why(const struct sup *s, const tcp_probe_t *p, int cc, char *buf, size_t len);
int sup_run_point(struct sup *s, int idx, struct result *res);
int sup_flush_batch(struct sup *s, char *why, size_t len);

/* supervisor-rows.c */
const char *sup_path_in(const char *dir, const char *file, char *buf, size_t len);
int sup_build_header(struct sup *s);
int sup_write_rows(struct sup *s, int idx, const struct result *r);
int sup_meta_start(struct sup *s);
int sup_load_done(struct sup *s);
void sup_write_provenance(struct sup *s, tcp_prov_t *prov);

#endif /* TCP_SUPERVISOR_INT_H */
