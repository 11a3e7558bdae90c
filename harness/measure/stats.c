/*
 * stats.c
 *	Summary statistics over samples, the two least-squares fits, and the
 *	stopping rule of `--reps auto`.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/measure/stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * tcp_stats_compute()
 *	Median by sorting a finite-only copy; mean and stddev with a two-pass
 *	sum around the mean (samples of cycles are large and close together, so
 *	the one-pass formula would lose digits).
 */
void tcp_stats_compute(const double *x, int n, tcp_stats_t *out)
{
	double stack[256], *v = stack;
	int m = 0;

	out->n = 0;
	out->median = out->min = out->max = out->mean = out->stddev = out->spread_pct = NAN;
	if (!x || n <= 0)
		return;
	if (n > (int)(sizeof(stack) / sizeof(stack[0]))) {
		v = malloc((size_t)n * sizeof(*v));
		if (!v)
			return;
	}
	for (int i = 0; i < n; i++)
		if (!isnan(x[i]))
			v[m++] = x[i];
	if (m == 0)
		goto out;
	qsort(v, (size_t)m, sizeof(*v), cmp_double);

	double sum = 0.0, ss = 0.0;
	for (int i = 0; i < m; i++)
		sum += v[i];
	double mean = sum / m;
	for (int i = 0; i < m; i++)
		ss += (v[i] - mean) * (v[i] - mean);

	out->n = m;
	out->min = v[0];
	out->max = v[m - 1];
	out->median = (m & 1) ? v[m / 2] : 0.5 * (v[m / 2 - 1] + v[m / 2]);
	out->mean = mean;
	out->stddev = m > 1 ? sqrt(ss / (m - 1)) : 0.0;
	out->spread_pct = out->median != 0.0 ? (out->max - out->min) / fabs(out->median) * 100.0 : NAN;
out:
	if (v != stack)
		free(v);
}

/* Pair i enters a fit: both known, and x non-zero for f = 1/x. */
static int fit_usable(const double *x, const double *y, int i, int inverse)
{
	return !isnan(x[i]) && !isnan(y[i]) && !(inverse && x[i] == 0.0);
}

/* f(x): x, or 1/x. */
static double fit_f(double x, int inverse)
{
	return inverse ? 1.0 / x : x;
}

/* The fit's outputs, each where asked for (NULL: not). */
static void fit_out(double *a, double *b, double *r2, double av, double bv, double r2v)
{
	if (a)
		*a = av;
	if (b)
		*b = bv;
	if (r2)
		*r2 = r2v;
}

/*
 * fit_xy()
 *	Ordinary least squares y = a + b * f(x), f = identity or 1/x, over the
 *	usable pairs; centred sums for accuracy.
 */
static int fit_xy(const double *x, const double *y, int n, int inverse,
		  double *a, double *b, double *r2)
{
	double sx = 0, sy = 0;
	int m = 0;

	fit_out(a, b, r2, NAN, NAN, NAN);
	if (!x || !y)
		return -1;
	for (int i = 0; i < n; i++) {
		if (!fit_usable(x, y, i, inverse))
			continue;
		sx += fit_f(x[i], inverse);
		sy += y[i];
		m++;
	}
	if (m < 2)
		return -1;
	double mx = sx / m, my = sy / m, sxx = 0, sxy = 0, syy = 0;
	for (int i = 0; i < n; i++) {
		if (!fit_usable(x, y, i, inverse))
			continue;
		double dx = fit_f(x[i], inverse) - mx, dy = y[i] - my;
		sxx += dx * dx;
		sxy += dx * dy;
		syy += dy * dy;
	}
	if (sxx == 0.0)
		return -1;
	double bb = sxy / sxx, aa = my - bb * mx;
	double sse = 0.0;
	for (int i = 0; i < n; i++) {
		if (!fit_usable(x, y, i, inverse))
			continue;
		double e = y[i] - (aa + bb * fit_f(x[i], inverse));
		sse += e * e;
	}
	fit_out(a, b, r2, aa, bb, syy > 0.0 ? 1.0 - sse / syy : 1.0);
	return 0;
}

int tcp_fit_linear(const double *x, const double *y, int n, double *a, double *b, double *r2)
{
	return fit_xy(x, y, n, 0, a, b, r2);
}

int tcp_fit_inverse(const double *x, const double *y, int n, double *a, double *b, double *r2)
{
	return fit_xy(x, y, n, 1, a, b, r2);
}

double tcp_t975(int df)
{
	static const double t[31] = {
		NAN, 12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622,
		2.2281, 2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930,
		2.0860, 2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452,
		2.0423,
	};
	if (df < 1)
		return NAN;
	if (df <= 30)
		return t[df];
	/* Cornish-Fisher expansion of t around the normal quantile */
	double z = 1.959963985, v = df, z2 = z * z;
	return z + (z2 * z + z) / (4 * v) + (5 * z2 * z2 * z + 16 * z2 * z + 3 * z) / (96 * v * v) +
	       (3 * z2 * z2 * z2 * z + 19 * z2 * z2 * z + 17 * z2 * z - 15 * z) / (384 * v * v * v);
}

double tcp_stats_median_ci_pct(const double *x, int n)
{
	tcp_stats_t s;

	tcp_stats_compute(x, n, &s);
	if (s.n < 2)
		return NAN;
	if (s.stddev == 0.0)
		return 0.0;
	if (s.median == 0.0)
		return INFINITY;
	double se = 1.2533141373155003 /* sqrt(pi/2) */ * s.stddev / sqrt((double)s.n);
	return tcp_t975(s.n - 1) * se / fabs(s.median) * 100.0;
}

/* Whether the CI is computed after run n: every run to 64, then every (n/32)-th. */
static int ci_due(int n)
{
	return n <= 64 || n % (n / 32) == 0;
}

tcp_stop_t tcp_reps_next(const tcp_reps_rule_t *r, const double *x, int n, double elapsed_s,
			 double *ci_pct)
{
	int min = r->max < TCP_REPS_AUTO_MIN ? r->max : TCP_REPS_AUTO_MIN;

	if (ci_pct)
		*ci_pct = NAN;
	if (!r->auto_reps)
		return n >= r->max ? TCP_STOP_FIXED : TCP_STOP_NONE;
	if (n < min)
		return TCP_STOP_NONE;
	if (ci_due(n) || n >= r->max) {
		double ci = tcp_stats_median_ci_pct(x, n);
		if (ci_pct)
			*ci_pct = ci;
		if (ci <= r->noise_pct)	/* false for NaN */
			return TCP_STOP_NOISE;
	}
	if (n >= r->max)
		return TCP_STOP_MAX;
	if (elapsed_s >= r->budget_s)
		return TCP_STOP_BUDGET;
	return TCP_STOP_NONE;
}

const char *tcp_stop_name(tcp_stop_t s)
{
	switch (s) {
	case TCP_STOP_FIXED: return "fixed";
	case TCP_STOP_NOISE: return "noise";
	case TCP_STOP_MAX: return "max";
	case TCP_STOP_BUDGET: return "budget";
	default: return "";
	}
}
