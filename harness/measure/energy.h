/*
 * energy.h
 *	The arithmetic of `tcprobe run --energy/--sustain` (pure C11, no NVML,
 *	no CUDA; unit-tested in tests/test-energy.c).  The supervisor reads
 *	NVML's total-energy counter (mJ) at the two ends of a window in which
 *	the worker keeps calling run(), samples power / SM clock / throttle
 *	reasons every TCP_ENERGY_PERIOD_S meanwhile, and turns them into the
 *	energy rows with these functions.
 */
#ifndef TCP_ENERGY_H
#define TCP_ENERGY_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TCP_ENERGY_PERIOD_S	0.025	/* power / clock sampling in the window */
#define TCP_TRACE_PERIOD_S	0.1	/* --sustain: one trace.csv row */
#define TCP_ENERGY_MAX_S	600.0	/* --energy / --sustain upper bound */

/*
 * Energy that does not depend on what ran before: the point's load
 * is held before its window opens until sampled power is flat (bounded), the
 * window opens and closes on an update of the energy counter and spans at
 * least TCP_ENERGY_MIN_UPDATES of them, and the power the counter implies is
 * checked against the sampled power.
 */
#define TCP_SETTLE_MAX_S	10.0	/* default bound of the settle period (--settle) */
#define TCP_SETTLE_LIMIT_S	120.0	/* the largest --settle */
#define TCP_SETTLE_SPAN_S	0.5	/* flat: the means of the last two spans of ... */
#define TCP_SETTLE_FLAT_PCT	2.0	/* ... power samples differ by at most this % */
#define TCP_ENERGY_MIN_UPDATES	10	/* the window spans at least this many counter updates */
#define TCP_ENERGY_AGREE_PCT	5.0	/* counter vs sampled power beyond this: energy_check
					 * says power_mismatch, the row is not clean */
#define TCP_SETTLE_RING		512	/* power samples kept (20 s at TCP_ENERGY_PERIOD_S) */

/*
 * tcp_energy_delta_mj()
 *	Energy between two readings e0, e1 of a counter that wraps modulo
 *	2^bits (NVML's is 64 bits: bits = 64).  A reading at or above 2^bits is
 *	not from such a counter: -1.  Wrap-around is assumed at most once.
 */
int64_t tcp_energy_delta_mj(uint64_t e0, uint64_t e1, int bits);

/* pJ per FLOP: energy_mj * 1e9 / (runs x work_flop); NaN when runs < 1,
 * work_flop <= 0 (not applicable), or energy_mj < 0. */
double tcp_energy_pj_per_flop(double energy_mj, long long runs, double work_flop);

/* Mean power in W of energy_mj over window_s; NaN when window_s <= 0. */
double tcp_energy_power_w(double energy_mj, double window_s);

/* FLOP of `count` dense MMAs of M x N x K: 2 M N K count (multiply + add). */
double tcp_energy_mma_flop(int m, int n, int k, double count);

/* A running mean of readings that may be NaN (NVML refused one). */
typedef struct {
	double sum;
	int n;		/* readings that were numbers */
	int nan;	/* readings that were not */
} tcp_mean_t;

void tcp_mean_add(tcp_mean_t *m, double v);
double tcp_mean_get(const tcp_mean_t *m);	/* NaN when no number was added */

/* The settle period: power samples, and when the energy counter moved. */
typedef struct {
	double t0;			/* load began (s, any monotonic clock) */
	double t[TCP_SETTLE_RING], w[TCP_SETTLE_RING];
	int n;				/* samples kept (ring: the last n) */
	int head;			/* next slot */
	int have_e;
	unsigned long long last_e;	/* last counter reading */
	double last_change;		/* time it last changed, NaN before the first change */
	double upd[64];			/* intervals between changes (ring) */
	int nupd;			/* intervals recorded (ring holds the last 64) */
} tcp_settle_t;

void tcp_settle_init(tcp_settle_t *s, double t0);
/* One power sample (NaN ignored). */
void tcp_settle_power(tcp_settle_t *s, double t, double w);
/*
 * tcp_settle_flat()
 *	1 when power is flat at time t: at least 2 TCP_SETTLE_SPAN_S since t0,
 *	and the mean of the samples of the last span differs from the mean of
 *	the span before it by at most TCP_SETTLE_FLAT_PCT (a trend, not noise:
 *	20 samples a span average the sensor's jitter out).  0 otherwise.
 */
int tcp_settle_flat(const tcp_settle_t *s, double t);
/* One energy-counter reading: a change records the interval since the last. */
void tcp_settle_counter(tcp_settle_t *s, double t, unsigned long long mj);
/* The counter's update period in s: median interval; NaN before 2 changes. */
double tcp_settle_update_s(const tcp_settle_t *s);

/* The window: want_s, but at least TCP_ENERGY_MIN_UPDATES counter updates
 * (update_s NaN: want_s), at most TCP_ENERGY_MAX_S. */
double tcp_energy_window_s(double want_s, double update_s);

/* |counter_w - sampled_w| / counter_w x 100; NaN when either is not a positive number. */
double tcp_energy_agree_pct(double counter_w, double sampled_w);

#ifdef __cplusplus
}
#endif
#endif /* TCP_ENERGY_H */
