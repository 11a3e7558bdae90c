/*
 * counters.h
 *	CUPTI hardware counters behind a plain C interface (harness/measure/counters.cc is
 *	the only translation unit that includes CUPTI headers).
 *
 *	The worker opens one session per device after its CUDA context exists,
 *	and for each OK point calls tcp_counters_measure() around one extra run()
 *	of the probe -- never around the timed runs (kernel replay serialises and
 *	repeats launches).  When counters cannot be read, open/measure return NULL/-1
 *	with CUPTI's error text and the remedy in `reason`; the timing rows stand.
 *	The session's set-up (profiler enabled, counter-data image, config) is
 *	paid once in open(), not per point: counters-session.cc says how, and
 *	how it falls back when CUPTI will not run a session twice.
 *
 *	libcupti.so.13 is dlopen'ed on first use (TCPROBE_CUPTI_LIB, then the
 *	library path and the binary's rpath, then $CUDA_HOME and /usr/local/cuda),
 *	and libnvperf_host.so / libnvperf_target.so are preloaded from the same
 *	directory, so no LD_LIBRARY_PATH is needed; a binary without libcupti
 *	still runs, with counters NA and the reason.
 *
 *	Tensor instruction counts are warp-level SASS instructions, as CUPTI
 *	counts them: a wgmma issued by a warpgroup is 4 (one per warp), a
 *	tcgen05.mma issued by one elected thread is 1.
 */
#ifndef TCP_COUNTERS_H
#define TCP_COUNTERS_H

#include <stddef.h>

#include "probes/common/probe.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tcp_counters tcp_counters_t;

#define TCP_COUNTERS_MAX_METRICS 32	/* metrics per set */
#define TCP_COUNTERS_MAX_RANGES	 256	/* kernels one run() may launch under the counter pass */
#define TCP_COUNTERS_FRESH_RANGES 8	/* first size of a per-point image (grows on demand) */

/* What a metric is for, beyond being recorded. */
typedef enum {
	TCP_CTR_PLAIN = 0,
	TCP_CTR_DURATION,	/* kernel time: weights the rollup of rates */
	TCP_CTR_CLOCK,		/* SM clock in MHz: cupti/check/sm_clock_ratio */
	TCP_CTR_TENSOR_INSTS	/* exact MMA instruction count: cupti/check/tensor_insts_delta */
} tcp_counter_role_t;

/* How a metric's per-kernel values combine over the kernels of one run(). */
typedef enum {
	TCP_ROLLUP_SUM = 0,	/* counts, cycles, bytes, durations */
	TCP_ROLLUP_AVG		/* rates: mean weighted by kernel duration (plain mean without one) */
} tcp_rollup_t;

/* One row of a metric table (nvbench metric_traits style). */
typedef struct {
	const char *name;	/* CUPTI name with rollup: "gpu__time_duration.sum" */
	const char *unit;	/* CSV unit: "ns", "cycles", "MHz", "insts", "B", "accesses" */
	tcp_rollup_t rollup;
	double scale;		/* CSV value = CUPTI value x scale (1e-6: Hz -> MHz) */
	tcp_counter_role_t role;
	const char *purpose;	/* one line for `tcprobe counters --list` */
} tcp_counter_metric_t;

/*
 * tcp_counters_default_set()
 *	The default metric table for a CUPTI chip name ("GH100", "GB100", ...).
 *	Unknown or NULL chip: the generic set (open() then drops what the chip
 *	lacks).  *n = rows; *set_name = "hopper", "blackwell-dc" or "generic".
 */
const tcp_counter_metric_t *tcp_counters_default_set(const char *chip, int *n, const char **set_name);

/* Address of a libcupti function (loading the library on first use), NULL
 * with a reason and its remedy; for harness/measure/cupti-timer.c. */
void *tcp_cupti_sym(const char *name, char *reason, size_t len);

/* CUPTI chip name for a compute capability (90 -> "GH100", 100 -> "GB100"),
 * for when CUPTI cannot tell; NULL when unknown. */
const char *tcp_counters_chip_for_cc(int cc);

/* What the user can do about a CUPTI error code (CUptiResult), one line. */
const char *tcp_counters_remedy(int cupti_result);

/* "CUPTI_ERROR_X in <where>; remedy: ..." into buf (one line), returns buf. */
char *tcp_counters_error_text(int cupti_result, const char *where, char *buf, size_t len);

/* spec: "none" (returns NULL, reason "off"), "default" (per-chip set), or a
 * comma-separated metric list.  Needs a current CUDA context on `device`. */
tcp_counters_t *tcp_counters_open(int device, const char *spec, char *reason, size_t len);

int tcp_counters_nmetrics(const tcp_counters_t *t);
const char *tcp_counters_metric(const tcp_counters_t *t, int i);	/* "sm__inst_executed_pipe_tensor_op_gmma.sum" */
const char *tcp_counters_unit(const tcp_counters_t *t, int i);
const char *tcp_counters_chip(const tcp_counters_t *t);		/* "GH100" */

/* Index of the metric that counts tensor (MMA) instructions, for the
 * issued-vs-counted check; -1 when the set has none. */
int tcp_counters_tensor_inst_metric(const tcp_counters_t *t);

/* Row i of the resolved table (name, unit, rollup, scale, role, purpose). */
const tcp_counter_metric_t *tcp_counters_info(const tcp_counters_t *t, int i);

/*
 * tcp_counters_open_chip()
 *	Resolve `spec` for a named chip on the host, no GPU needed (Profiler
 *	Host API): every metric is checked against CUPTI's list for that chip.
 *	For `tcprobe counters --list`, tests, and NA rows.  measure() on such a
 *	handle fails ("no device").  *passes (may be NULL) = replay passes.
 */
tcp_counters_t *tcp_counters_open_chip(const char *chip, const char *spec, int *passes,
				       char *reason, size_t len);

/* CUPTI chip name of CUDA device `device` into chip (needs a GPU, not
 * counter privileges).  0, or -1 with a reason. */
int tcp_counters_device_chip(int device, char *chip, size_t chiplen, char *reason, size_t len);

/* Chip names CUPTI knows (host API), NULL-terminated; NULL with a reason
 * when libcupti cannot be loaded. */
const char *const *tcp_counters_chips(char *reason, size_t len);

/*
 * tcp_counters_base_metrics()
 *	Every base metric CUPTI lists for `chip` (counter, ratio and throughput
 *	types), with its unit and description: fn(type, name, unit, desc, arg)
 *	per metric.  Returns the count, or -1 with a reason.  No GPU needed.
 */
int tcp_counters_base_metrics(const char *chip,
			      void (*fn)(const char *type, const char *name, const char *unit,
					 const char *desc, void *arg),
			      void *arg, char *reason, size_t len);

/* Call fn(arg) once (it launches kernels and synchronises) with collection on;
 * values[i] = metric i summed over every kernel launched (or averaged for
 * rates, per the metric's rollup).  0 on success, -1 with a reason. */
int tcp_counters_measure(tcp_counters_t *t, int (*fn)(void *arg), void *arg,
			 double *values, char *reason, size_t len);

void tcp_counters_close(tcp_counters_t *t);

/*
 * Batches.  CUPTI's Start and Stop cost ~8 ms a replay pass on
 * an H200 whatever runs between them, more than the run() they bracket, so
 * the worker collects several points in one pass: fn(args[i]) for each of
 * the n points in every Start/Stop round, its kernel launches counted (CUPTI
 * callbacks, on only then), the ranges (one per kernel, in launch order)
 * split by those counts.  values[i * nmetrics + m] as
 * tcp_counters_measure() gives them for point i alone; nranges[i] = its
 * kernels (0: it launched none, its values NaN).  0, or -1 with a reason and
 * *failed = the point whose fn() failed (-1: the session failed).  Only on a
 * session whose open() proved a batch splits exactly (the self-test kernel
 * once, then twice, in one pass: 1 and 2 ranges, twice the cycles):
 * tcp_counters_batch_ok(); the session note says why not.
 */
#define TCP_COUNTERS_BATCH_DEFAULT 16
#define TCP_COUNTERS_BATCH_MAX 64
int tcp_counters_measure_batch(tcp_counters_t *t, int n, int (*fn)(void *arg), void *const *args,
			       double *values, int *nranges, int *failed, char *reason, size_t len);
int tcp_counters_batch_ok(const tcp_counters_t *t);
/* TCPROBE_COUNTERS_BATCH: points per counter pass, 1 to TCP_COUNTERS_BATCH_MAX
 * (unset: TCP_COUNTERS_BATCH_DEFAULT; 1: every point its own pass, no
 * batching).  0 and *n, or -1 with "TCPROBE_COUNTERS_BATCH: got
 * 'x', expected an integer from 1 to 64 ...".  The supervisor checks it at
 * start (a bad value: exit 2); open() fails the same way. */
int tcp_counters_batch_env(int *n, char *err, size_t len);

/*
 * What the counter machinery costs, step by step (TCPROBE_PHASES, written by
 * the worker).  Steps of open(), once per worker: load, init, config (host
 * config image), enable, image (counter-data image sized and allocated),
 * image_init, set_config, selftest.  Steps of one measure(): enable, image,
 * disable (session "point" only), image_init (not every point under image
 * "append"), set_config (not "keep"), start, run (run() and the synchronise:
 * once per pass under user replay; once under kernel replay, with CUPTI's
 * replayed passes and their memory save/restore), stop, decode, evaluate;
 * and of a batch, callbacks (subscribing the launch count and after it
 * unsubscribing).  The worker shares a batch's steps out evenly over its
 * points.
 */
#define TCP_COUNTERS_MAX_PHASES 16
typedef struct {
	const char *name;	/* static string */
	double ms;		/* wall time, summed when a step repeats */
} tcp_counters_phase_t;

/* The steps of open() (of_open 1) or of the last measure(): count, *ph. */
int tcp_counters_phases(const tcp_counters_t *t, int of_open, const tcp_counters_phase_t **ph);

/* The session in use, as "<kind>, <replay> replay, image <image>, <N> pass[es]"
 * and ", batches" when batches are proven: kind "keep" (profiler enabled and
 * configured once per worker) or "point" (all per point); replay "user" (the
 * worker runs run() once per pass) or "kernel" (CUPTI replays each kernel,
 * saving and restoring device memory); image "append" (one counter-data
 * image for many points) or "fresh" (initialised per point).  "" for a
 * host-only handle.  "keep, user replay, image append" unless the worker's
 * self-test refused it; the note says why ("" when nothing was refused). */
const char *tcp_counters_session(const tcp_counters_t *t);
const char *tcp_counters_session_note(const tcp_counters_t *t);

/*
 * CSV rows of the counter pass: one per metric (`cupti/<name>`) plus the
 * derived checks:
 *   cupti/check/tensor_insts_delta  insts  counted - issued, must be 0 exactly;
 *                                          anything else is TCP_INVALID (probe bug)
 *   cupti/check/sm_clock_ratio      ratio  counter SM clock / timing-pass clock
 * The worker writes each as one measurements.csv row (median = min = max =
 * mean = value, stddev 0, reps 1, status, reason); value NAN = empty cell.
 * With values == NULL (open or measure failed) every row is NA, status
 * TCP_UNSUPPORTED, reason = `reason` -- the timing rows of the point stand.
 * Counters "off" (open returned NULL with reason "off"): write no rows.
 */
#define TCP_COUNTERS_MAX_ROWS (TCP_COUNTERS_MAX_METRICS + 2)

typedef struct {
	char metric[128];		/* "cupti/gpu__time_duration.sum" */
	char unit[32];
	double value;			/* NAN = NA (empty cell) */
	tcp_status_t status;		/* TCP_OK, TCP_INVALID (check failed), TCP_UNSUPPORTED (NA) */
	char reason[TCP_REASON_LEN];	/* empty when OK */
} tcp_counter_row_t;

typedef struct {
	const double *values;		/* tcp_counters_measure() output; NULL = NA */
	const char *reason;		/* why values is NULL */
	double issued_tensor_insts;	/* ctx->issued_tensor_insts; < 0 = not applicable */
	double timing_clock_mhz;	/* SM clock of the timing pass (cycles / ns); NAN = unknown */
} tcp_counters_input_t;

/*
 * tcp_counters_rows()
 *	Fill rows[] (room for TCP_COUNTERS_MAX_ROWS) for one point; returns the
 *	count.  t may be NULL (open failed): the metric names then come from the
 *	default set for compute capability `cc` (or `spec` when it is a list).
 *	Any row with status TCP_INVALID makes the whole point INVALID.
 */
int tcp_counters_rows(const tcp_counters_t *t, int cc, const char *spec,
		      const tcp_counters_input_t *in, tcp_counter_row_t *rows);

#ifdef __cplusplus
}
#endif
#endif
