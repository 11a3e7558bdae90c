/*
 * tc-aux.c
 *	Point -> launch of the non-MMA sm_100a probes (interface in tc-aux.h).
 *	Host code only, beside the probes that use it; its plain C interface
 *	lets tests/test-tc-aux.c check every axis.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/tmem.h"
#include "probes/sm100/tc-aux.h"

int tcp_aux_grid_ctas(int all, int cg, int sm_count)
{
	int g = all ? sm_count - (cg == 2 ? sm_count % 2 : 0) : cg;
	return g < cg ? cg : g;
}

int tcp_aux_cp_batches1(unsigned bytes)
{
	unsigned n2 = (TCP_AUX_CP_MIN_BYTES + bytes - 1) / bytes;
	unsigned b2 = (n2 + TCP_AUX_CP_NDEST - 1) / TCP_AUX_CP_NDEST;
	b2 += b2 & 1u;	/* even: n1 = n2 / 2 is whole batches too */
	return (int)(b2 / 2);
}

int tcp_aux_fit_line(const double *x, const double *y, int n, double *a, double *b)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0;
	*a = *b = NAN;
	for (int i = 0; i < n; i++) {
		sx += x[i];
		sy += y[i];
		sxx += x[i] * x[i];
		sxy += x[i] * y[i];
	}
	double den = n * sxx - sx * sx;
	if (n < 2 || !(den > 0))
		return -1;
	*b = (n * sxy - sx * sy) / den;
	*a = (sy - *b * sx) / n;
	return 0;
}

int tcp_aux_issue_knee(const double *n, const double *t, int cnt, double tol, double *cost, double *last_n)
{
	double x[64], y[64], a, b;
	int m = 0;

	*cost = *last_n = NAN;
	for (int i = 0; i < cnt && m < 64; i++)
		if (isfinite(n[i]) && isfinite(t[i])) {
			x[m] = n[i];
			y[m] = t[i];
			m++;
		}
	if (m < 2 || tcp_aux_fit_line(x, y, 2, &a, &b) != 0)
		return -1;
	int k = 2;	/* points on the line: x[0 .. k-1] */
	for (; k < m; k++) {
		const double pred = a + b * x[k];
		if (y[k] > pred * (1.0 + tol) + (x[k] - x[k - 1]))
			break;
		if (tcp_aux_fit_line(x, y, k + 1, &a, &b) != 0)
			return -1;
	}
	*cost = b;
	*last_n = x[k - 1];
	return k < m ? 1 : 0;
}

/* Value of axis `name` of point p, or -1 with the reason when the probe has none. */
static int aux_axis(const tcp_probe_t *pr, const tcp_point_t *p, const char *name, long long *v, char *reason,
		    size_t len)
{
	int a = tcp_axis_index(pr, name);
	if (a < 0 || a >= p->naxes) {
		snprintf(reason, len, "%s has no axis %s", pr->name, name);
		return -1;
	}
	*v = p->v[a];
	return 0;
}

#define AX(name, var)                                                       \
	do {                                                                \
		if (aux_axis(pr, p, name, &var, reason, len))               \
			return -1;                                          \
	} while (0)

int tcp_aux_launch(const tcp_probe_t *pr, const tcp_point_t *p, int sm_count, double clock_mhz,
		   tcp_aux_launch_t *out, char *reason, size_t len)
{
	long long a = 0, b = 0, c = 0, d = 0, e = 0, f = 0;
	memset(out, 0, sizeof(*out));
	if (sm_count < 1) {
		snprintf(reason, len, "sm_count must be >= 1; got %d", sm_count);
		return -1;
	}
	if (!strcmp(pr->name, "tc_alloc")) {
		AX("ncols", a);
		AX("ctas_per_sm", b);
		AX("hold_cycles", c);
		AX("relinquish", d);
		out->kernel[0] = (int)d;
		out->grid = (int)b * sm_count;
		out->threads = 32;
		out->arg[0] = a;
		out->arg[1] = c;
		return 0;
	}
	if (!strcmp(pr->name, "tc_commit")) {
		AX("form", a);
		AX("cta_group", b);
		AX("cast", c);
		AX("grid", d);
		out->kernel[0] = (int)b;
		out->kernel[1] = (int)a;
		out->kernel[2] = (int)c;
		out->grid = tcp_aux_grid_ctas((int)d, (int)b, sm_count);
		out->threads = 128;
		return 0;
	}
	if (!strcmp(pr->name, "tc_cp")) {
		AX("shape", a);
		AX("fmt", b);
		AX("cta_group", c);
		AX("grid", d);
		if (a < 0 || a >= TCP_CP_NSHAPES) {
			snprintf(reason, len, "cp shape index %lld out of range", a);
			return -1;
		}
		out->kernel[0] = (int)c;
		out->kernel[1] = (int)a;
		out->kernel[2] = (int)b;
		out->grid = tcp_aux_grid_ctas((int)d, (int)c, sm_count);
		out->threads = 128;
#if TCP_AUX_EMU
		out->arg[0] = TCP_AUX_EMU_CP_BATCHES1;
#else
		out->arg[0] = tcp_aux_cp_batches1((unsigned)tcp_tc_cp_bytes((int)a));
#endif
		return 0;
	}
	if (!strcmp(pr->name, "tc_ldst")) {
		AX("shape", a);
		AX("num", b);
		AX("pack", c);
		AX("warpgroups", d);
		AX("op", e);
		AX("inflight", f);
		unsigned nreg = tcp_ld_regs((tcp_ld_shape_t)a, (unsigned)b);
		if (!nreg) {
			snprintf(reason, len, "tcgen05.ld shape %lld x%lld has no register count", a, b);
			return -1;
		}
		const unsigned fp = tcp_ld_footprint((tcp_ld_shape_t)a, (unsigned)b, (int)c);
		int depth = tcp_aux_ldst_depth((int)nreg, (int)d, fp, f);
		unsigned span = (unsigned)depth * fp;
		out->kernel[0] = (int)a;
		out->kernel[1] = (int)b;
		out->kernel[2] = (int)c;
		out->kernel[3] = e ? 2 : 1;	/* MODE_ST / MODE_LD */
		out->kernel[4] = tcp_aux_ldst_threads((int)nreg, (int)d);
		out->grid = sm_count;
		out->threads = 128 * (int)d;
		out->arg[0] = depth;
		out->arg[1] = (unsigned)d * span <= TCP_TMEM_COLS ? span : 0u;	/* warpgroups side by side, else shared */
		out->arg[2] = TCP_AUX_LDST_ITERS;
		return 0;
	}
	if (!strcmp(pr->name, "tc_epilogue")) {
		AX("kind", a);
		AX("N", b);
		AX("drain", c);
		AX("gap_cycles", d);
		AX("ab", e);
		AX("k", f);
		long long infl = 0, wgs = 0, cps = 0;
		AX("inflight", infl);
		AX("drain_wgs", wgs);
		AX("cps_per_batch", cps);
		if (f < 1) {
			snprintf(reason, len, "k must be >= 1; got %lld", f);
			return -1;
		}
		if (wgs < 1 || wgs > 2) {
			snprintf(reason, len, "drain_wgs must be 1 or 2; got %lld", wgs);
			return -1;
		}
		out->kernel[0] = (int)a;
		out->kernel[1] = (int)e;
		out->kernel[2] = c == 3;	/* DRAIN_CP: the MMA thread issues the cps */
		out->grid = sm_count;
		out->threads = 128 * (1 + (int)wgs);	/* warpgroup 0, then the drain warpgroups */
		out->arg[0] = f;
#if TCP_AUX_EMU
		out->arg[1] = TCP_AUX_EMU_EPI_BATCHES;	/* batches */
#else
		out->arg[1] = TCP_AUX_EPI_MMAS / f;	/* batches */
#endif
		out->arg[2] = c;
		out->arg[3] = d;
		out->arg[4] = (long long)((double)d * 1000.0 / (clock_mhz > 0 ? clock_mhz : 1000.0));
		out->arg[5] = b;
		out->arg[6] = infl;
		out->arg[7] = wgs;
		out->arg[8] = cps;
		return 0;
	}
	snprintf(reason, len, "tc-aux maps no launch for probe %s", pr->name);
	return -1;
}
