/*
 * energy.c
 *	Energy-counter arithmetic for --energy / --sustain (see energy.h).
 */
#include <math.h>

#include "harness/measure/energy.h"

/*
 *  tcp_energy_delta_mj(), tcp_energy_pj_per_flop(), tcp_energy_power_w(),
 *  tcp_energy_mma_flop()
 *	mJ -> pJ is 1e9; a counter difference taken modulo 2^bits
 */
int64_t tcp_energy_delta_mj(uint64_t e0, uint64_t e1, int bits)
{
	uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;

	if (bits < 1 || bits > 64 || (e0 & ~mask) || (e1 & ~mask))
		return -1;
	/* unsigned subtraction is modulo 2^64; the mask makes it modulo 2^bits */
	uint64_t d = (e1 - e0) & mask;
	return d > (uint64_t)INT64_MAX ? -1 : (int64_t)d;
}

double tcp_energy_pj_per_flop(double energy_mj, long long runs, double work_flop)
{
	if (runs < 1 || !(work_flop > 0) || !(energy_mj >= 0))
		return NAN;
	return energy_mj * 1e9 / ((double)runs * work_flop);
}

double tcp_energy_power_w(double energy_mj, double window_s)
{
	if (!(window_s > 0) || !(energy_mj >= 0))
		return NAN;
	return energy_mj * 1e-3 / window_s;
}

double tcp_energy_mma_flop(int m, int n, int k, double count)
{
	return 2.0 * m * n * k * count;
}

void tcp_mean_add(tcp_mean_t *m, double v)
{
	if (isnan(v)) {
		m->nan++;
		return;
	}
	m->sum += v;
	m->n++;
}

double tcp_mean_get(const tcp_mean_t *m)
{
	return m->n ? m->sum / m->n : NAN;
}
