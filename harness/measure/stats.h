/*
 * stats.h
 *	Summary statistics over a point's samples, the two fits the report and
 *	the plots use (latency vs N, initiation interval vs chain depth), and
 *	the rule that stops a point's timed repetitions (`--reps auto`).
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

/*
 * tcp_t975()
 *	The 0.975 quantile of Student's t with df degrees of freedom (two-sided
 *	95%): a table to df 30, the Cornish-Fisher series beyond (error < 1e-4).
 *	NaN for df < 1.
 */
double tcp_t975(int df);

/*
 * tcp_stats_median_ci_pct()
 *	Half-width of a 95% confidence interval of the median of the finite
 *	samples of x[0..n), in percent of |median|:
 *	    t975(m - 1) x sqrt(pi/2) x stddev / sqrt(m) / |median| x 100
 *	(sqrt(pi/2) stddev / sqrt(m) is the standard error of a median under
 *	normal noise).  It shrinks as 1/sqrt(m) while samples keep coming from one
 *	distribution -- unlike spread_pct, which only grows.  0 when every sample
 *	is equal; NaN with fewer than 2 finite samples; INFINITY when the median
 *	is 0 and the samples differ.
 */
double tcp_stats_median_ci_pct(const double *x, int n);

/* Why a point's timed repetitions stopped (CSV column `reps_stop`). */
typedef enum {
	TCP_STOP_NONE = 0,	/* not yet: run another */
	TCP_STOP_FIXED,		/* --reps N: ran exactly N */
	TCP_STOP_NOISE,		/* auto: the median's CI half-width fell to --noise */
	TCP_STOP_MAX,		/* auto: reached the point's reps without converging */
	TCP_STOP_BUDGET		/* auto: the per-point time budget was spent */
} tcp_stop_t;

#define TCP_REPS_AUTO_MIN	3	/* auto never stops before this many */

/* The repetition rule of one point. */
typedef struct {
	int auto_reps;		/* 0: fixed, exactly max */
	int max;		/* the point's reps (plan.txt): fixed count or auto cap */
	double noise_pct;	/* auto: stop when the CI half-width is <= this (percent) */
	double budget_s;	/* auto: stop once the timed runs took this long (> 0) */
} tcp_reps_rule_t;

/*
 * tcp_reps_next()
 *	After n timed runs whose deciding samples are x[0..n) (the probe's first
 *	metric) and elapsed_s seconds spent in them: TCP_STOP_NONE to run
 *	another, else why to stop.  Auto: never before min(TCP_REPS_AUTO_MIN,
 *	max) runs; then NOISE when tcp_stats_median_ci_pct() <= noise_pct, else
 *	MAX at max runs, else BUDGET once elapsed_s >= budget_s.  The CI is
 *	computed every run up to 64, then at every (n/32)-th, so a long run
 *	costs O(n log n) in all.  *ci_pct (may be NULL) = the last CI computed
 *	here, NaN when none.
 */
tcp_stop_t tcp_reps_next(const tcp_reps_rule_t *r, const double *x, int n, double elapsed_s,
			 double *ci_pct);

/* "fixed", "noise", "max", "budget"; "" for TCP_STOP_NONE. */
const char *tcp_stop_name(tcp_stop_t s);

#ifdef __cplusplus
}
#endif
#endif /* TCP_STATS_H */
