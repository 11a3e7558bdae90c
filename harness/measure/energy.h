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

#ifdef __cplusplus
}
#endif
#endif /* TCP_ENERGY_H */
