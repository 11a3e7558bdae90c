/*
 * stats.h
 *	Summary statistics over a point's samples, and the two fits the report
 *	and the plots use (latency vs N, initiation interval vs chain depth).
 *	Pure functions: no allocation beyond a scratch copy, no I/O.
 */
#ifndef TCP_STATS_H
#define TCP_STATS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
	int n;			/* finite samples used (NaN samples are not counted) */
	double median;		/* middle value; mean of the two middle ones for even n */
	double min, max;
	double mean;
	double stddev;		/* sample standard deviation (n - 1); 0 for n == 1 */
	double spread_pct;	/* (max - min) / |median| x 100; NaN when median == 0 */
} tcp_stats_t;

/*
 * tcp_stats_compute()
 *	Fill *out from x[0..n).  NaN samples are ignored (out->n counts the
 *	rest); with no finite sample every field is NaN and out->n is 0.
 */
void tcp_stats_compute(const double *x, int n, tcp_stats_t *out);

/*
 * tcp_fit_linear()
 *	Least squares y = a + b x over n points (NaN pairs skipped).  r2 is the
 *	coefficient of determination (1 when y is constant and fits exactly).
 *	0 on success; -1 when fewer than 2 usable points or all x equal
 *	(a, b, r2 set to NaN).  Any output pointer may be NULL.
 */
int tcp_fit_linear(const double *x, const double *y, int n, double *a, double *b, double *r2);

/*
 * tcp_fit_inverse()
 *	Least squares y = a + b / x (a linear fit in 1/x); points with x == 0
 *	or NaN are skipped.  Same return convention as tcp_fit_linear(); r2 is
 *	measured on y.  `a` is the asymptote: e.g. the initiation interval as
 *	chain depth grows, `b` the exposed latency.
 */
int tcp_fit_inverse(const double *x, const double *y, int n, double *a, double *b, double *r2);

#ifdef __cplusplus
}
#endif
#endif /* TCP_STATS_H */
