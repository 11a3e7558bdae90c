/*
 * supervisor-int.h
 *	The supervisor's state and what its files share, private to
 *	harness/sweep/supervisor*.c.  Each file calls only files listed after
 *	it (tests/sweep-calls-check.sh checks it on the objects):
 *	  supervisor.c         the run: plan, configuration, dry run, signals,
 *	                       then start, the loop and the end
 *	  supervisor-start.c   before the first point: the state, the run
 *	                       directory, the first worker and its target,
 *	                       provenance and contention at the start
 *	  supervisor-loop.c    the loop over the plan's points: SKIPPED,
 *	                       UNSUPPORTED, BLOCKED or run; a lost counter batch
 *	                       run again
 *	  supervisor-point.c   the point runner: one point on the worker under
 *	                       its timeout, turned into one result
 *	  supervisor-energy.c  a point's --energy / --sustain window
 *	  supervisor-batch.c   the batch queue: points whose counter pass waits
 *	                       for the worker's batch, completed, written in plan
 *	                       order, or lost
 *	  supervisor-done.c    a point's end: its rows, the progress line, the
 *	                       BLOCKED rule (block.h) and the probe's verdict line
 *	  supervisor-rows.c    the row writer: measurements.csv (its header and
 *	                       a point's rows), metrics.csv, probes.csv,
 *	                       provenance.csv
 *	  supervisor-resume.c  --resume: the plan and the points already written
 *	  supervisor-result.c  a point's result: its messages read, kept, freed
 *	  supervisor-worker.c  the worker process: spawn, lines under a
 *	                       deadline, commands, kill and reap
 *	  supervisor-sample.c  NVML clocks, clock-event reasons and temperature
 *	                       sampled while a point runs
 *	  supervisor-base.c    the clock, messages, the log, paths, the signal
 *	                       flag and the resume hint, why a probe does not
 *	                       run here
 *	Below them all: config.c (the run configuration), protocol.c (every
 *	message), block.c, plan.c, emulate.c, spec.c.
 *	This process never calls CUDA: only workers do (harness/sweep/worker.c).
 */
#ifndef TCP_SUPERVISOR_INT_H
#define TCP_SUPERVISOR_INT_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "harness/measure/contention.h"
#include "harness/measure/energy.h"
#include "harness/measure/nvml.h"
#include "harness/measure/stats.h"
#include "harness/store/provenance.h"
#include "harness/store/rows.h"
#include "harness/store/run.h"
#include "harness/sweep/block.h"
#include "harness/sweep/config.h"
#include "harness/sweep/plan.h"
#include "harness/sweep/supervisor.h"
#include "harness/sweep/worker.h"

#define LINE_MAX_BYTES	(512u << 20)	/* a longer protocol line is garbage */
#define PATHLEN		4096

extern volatile sig_atomic_t sup_signal;	/* SIGINT/SIGTERM seen (supervisor-base.c) */

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
	const tcp_sweep_opts_t *o;	/* what and where: spec, directories, argv */
	tcp_run_config_t cfg;		/* how: every run-wide setting (config.h) */
	tcp_plan_t plan;
	struct worker w;
	tcp_prov_t *gprov;		/* PROV lines of the first worker */
	char ctr_status[TCP_REASON_LEN];
	char timer_status[TCP_REASON_LEN];
	int need_gpu;			/* some point to run is a GPU probe's */
	int nvml;			/* NVML index of the GPU, -1 none */
	char nvml_why[256];		/* why nvml is -1 */
	tcp_busy_t busy;		/* other work on the GPU (contention.h) */
	int resumed_contended;		/* --resume: points kept from before marked contended=1 */
	int power_src;			/* TCP_POWER_INSTANT / _AVERAGE, -1 none yet */
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
	int nodefer_until;		/* points up to this one: no batches (-1 none) */
	int npend;
	int *pend_idx;			/* [batch] */
	struct result *pend;		/* [batch] */
};

/* ---------------------------------------------------------------- results */

/* One counter (or energy) row of a point. */
struct krow {
	char *metric, *unit, *reason;
	double v;
	tcp_status_t st;
};

/* A point's --energy window (EB .. EE). */
struct energy {
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
};

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
	struct krow *k;
	double clock_mhz;		/* NVML mean, NAN = none */
	char throttle[128];		/* "" = not sampled */
	int sticky;
	double rtt0, rtt1;		/* C: the worker's launch round trips (us), NaN none */
	int deferred;			/* W: the counter pass waits for the batch */
	int complete;			/* deferred, and its X .. E came */
	int batch_lost;			/* the worker failed with points of a batch waiting */
	int contended;			/* -1 unknown / not a GPU point, 0, 1 */
	double temp_c;			/* GPU temperature, mean over the point; NaN none */
	struct energy en;		/* --energy window */
};

/* sup_worker_line */
enum { WL_LINE = 1, WL_TIMEOUT = -1, WL_SIGNAL = -2, WL_TOOLONG = -3, WL_EOF = -4 };
/* A reader's code for a message that is not what the protocol allows (the
 * reason in the result). */
enum { WL_GARBAGE = 2 };

enum { SPAWN_OK = 0, SPAWN_FAIL = -1, SPAWN_NOGPU = -3, SPAWN_BADGPU = -4, SPAWN_SIGNAL = -5,
       SPAWN_OLDDRIVER = -6 };

enum { RUN_DONE = 0, RUN_SIGNAL = 1, RUN_FATAL = 2 };

/* supervisor-start.c */
int sup_start_state(struct sup *s, const tcp_prov_t *prov);
int sup_open_run_dir(struct sup *s, tcp_prov_t *prov);
int sup_start(struct sup *s, tcp_prov_t *prov);

/* supervisor-loop.c */
int sup_run_plan(struct sup *s);

/* supervisor-point.c */
int sup_run_point(struct sup *s, int idx, struct result *res);

/* supervisor-energy.c */
int sup_energy_window(struct sup *s, int idx, double *deadline, struct sampler *smp, struct result *res,
		      char **line);
int sup_energy_rows(struct sup *s, struct result *res);

/* supervisor-batch.c */
double sup_batch_timeout(const struct sup *s);
int sup_batch_read(struct sup *s, double deadline, struct sampler *smp, int idx, struct result *res);
void sup_batch_hold(struct sup *s, int idx, const struct result *res);
int sup_batch_finish(struct sup *s, int final);
void sup_batch_drop(struct sup *s);

/* supervisor-done.c */
int sup_point_finish(struct sup *s, int i, struct result *res);

/* supervisor-rows.c */
int sup_build_header(struct sup *s);
int sup_write_rows(struct sup *s, int idx, const struct result *r);
int sup_meta_start(struct sup *s);
void sup_write_provenance(struct sup *s, tcp_prov_t *prov);

/* supervisor-resume.c */
int sup_resume_plan(struct sup *s);
int sup_load_done(struct sup *s);

/* supervisor-result.c */
void sup_result_init(struct result *r, int nm);
void sup_result_free(struct result *r);
void sup_result_distrust(struct result *r, int nm);
int sup_result_add_row(struct result *res, const char *metric, const char *unit, double v, tcp_status_t st,
		       const char *reason);
int sup_read_point(struct sup *s, int idx, char **f, int nf, double deadline, struct sampler *smp,
		   struct result *res);
int sup_read_tail(struct sup *s, int idx, double deadline, struct sampler *smp, struct result *res, int may_defer);
int sup_next_fields(struct sup *s, double deadline, struct sampler *smp, char *copy, size_t clen, char **g,
		    int *n);
int sup_unexpected(struct result *res, const char *copy);

/* supervisor-worker.c */
int sup_worker_spawn(struct sup *s, int collect_prov, int gpu, char *why, size_t len);
int sup_worker_line(struct worker *w, double deadline, struct sampler *smp, char **line);
int sup_worker_send(struct worker *w, const char *msg, int n);
void sup_worker_kill(struct worker *w);
void sup_worker_reap(struct worker *w, char *why, size_t len);

/* supervisor-sample.c */
void sup_sampler_start(struct sampler *s, int nvml, tcp_busy_t *busy, tcp_busy_point_t *bp);
void sup_sampler_take(struct sampler *s);

/* supervisor-base.c */
double sup_mono(void);
void sup_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void sup_log(struct sup *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *sup_fmt_dur(double sec, char *buf, size_t len);
const char *sup_path_in(const char *dir, const char *file, char *buf, size_t len);
const char *sup_unsupported_why(const struct sup *s, const tcp_probe_t *p, int cc, char *buf, size_t len);
void sup_print_interrupted(const struct sup *s);

#endif /* TCP_SUPERVISOR_INT_H */
