/*
 * stats.c
 *	Summary statistics over samples and the two least-squares fits.
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

	if (a)
		*a = NAN;
	if (b)
		*b = NAN;
	if (r2)
		*r2 = NAN;
	if (!x || !y)
		return -1;
	for (int i = 0; i < n; i++) {
		if (isnan(x[i]) || isnan(y[i]) || (inverse && x[i] == 0.0))
			continue;
		sx += inverse ? 1.0 / x[i] : x[i];
		sy += y[i];
		m++;
	}
	if (m < 2)
		return -1;
	double mx = sx / m, my = sy / m, sxx = 0, sxy = 0, syy = 0;
	for (int i = 0; i < n; i++) {
		if (isnan(x[i]) || isnan(y[i]) || (inverse && x[i] == 0.0))
			continue;
		double dx = (inverse ? 1.0 / x[i] : x[i]) - mx, dy = y[i] - my;
		sxx += dx * dx;
		sxy += dx * dy;
		syy += dy * dy;
	}
	if (sxx == 0.0)
		return -1;
	double bb = sxy / sxx, aa = my - bb * mx;
	double sse = 0.0;
	for (int i = 0; i < n; i++) {
		if (isnan(x[i]) || isnan(y[i]) || (inverse && x[i] == 0.0))
			continue;
		double e = y[i] - (aa + bb * (inverse ? 1.0 / x[i] : x[i]));
		sse += e * e;
	}
	if (a)
		*a = aa;
	if (b)
		*b = bb;
	if (r2)
		*r2 = syy > 0.0 ? 1.0 - sse / syy : 1.0;
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
