/*
 * energy.c
 *	Energy-counter arithmetic for --energy / --sustain (see energy.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

void tcp_settle_init(tcp_settle_t *s, double t0)
{
	memset(s, 0, sizeof(*s));
	s->t0 = t0;
	s->last_change = NAN;
}

void tcp_settle_power(tcp_settle_t *s, double t, double w)
{
	if (isnan(w))
		return;
	s->t[s->head] = t;
	s->w[s->head] = w;
	s->head = (s->head + 1) % TCP_SETTLE_RING;
	if (s->n < TCP_SETTLE_RING)
		s->n++;
}

/* Mean of the kept samples with lo < t <= hi; NaN when none. */
static double span_mean(const tcp_settle_t *s, double lo, double hi)
{
	double sum = 0;
	int k = 0;
	for (int i = 0; i < s->n; i++)
		if (s->t[i] > lo && s->t[i] <= hi) {
			sum += s->w[i];
			k++;
		}
	return k ? sum / k : NAN;
}

int tcp_settle_flat(const tcp_settle_t *s, double t)
{
	const double d = TCP_SETTLE_SPAN_S;

	if (t - s->t0 < 2 * d)
		return 0;
	double a = span_mean(s, t - 2 * d, t - d), b = span_mean(s, t - d, t);
	if (!(a > 0) || !(b > 0))
		return 0;
	return fabs(b - a) / a * 100.0 <= TCP_SETTLE_FLAT_PCT;
}

void tcp_settle_counter(tcp_settle_t *s, double t, unsigned long long mj)
{
	if (s->have_e && mj != s->last_e) {
		if (!isnan(s->last_change))
			s->upd[s->nupd++ % 64] = t - s->last_change;
		s->last_change = t;
	}
	s->have_e = 1;
	s->last_e = mj;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double tcp_settle_update_s(const tcp_settle_t *s)
{
	double v[64];
	int n = s->nupd < 64 ? s->nupd : 64;

	if (n < 1)
		return NAN;
	memcpy(v, s->upd, (size_t)n * sizeof(v[0]));
	qsort(v, (size_t)n, sizeof(v[0]), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double tcp_energy_window_s(double want_s, double update_s)
{
	double w = want_s;
	if (update_s > 0 && TCP_ENERGY_MIN_UPDATES * update_s > w)
		w = TCP_ENERGY_MIN_UPDATES * update_s;
	return w > TCP_ENERGY_MAX_S ? TCP_ENERGY_MAX_S : w;
}

double tcp_energy_agree_pct(double counter_w, double sampled_w)
{
	if (!(counter_w > 0) || !(sampled_w > 0))
		return NAN;
	return fabs(counter_w - sampled_w) / counter_w * 100.0;
}
