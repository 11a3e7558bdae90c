/*
 * fill.c
 *	Random inputs, element conversions, reference GEMM and tolerance check
 *	for the MMA probes (see fill.h).  Plain C11, host only.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "probes/common/fill.h"

/*
 *  tcp_rng_seed(), tcp_rng_u64(), tcp_rng_unit()
 *	splitmix64 (Steele, Lea, Flood 2014): one add and three mixes a draw.
 */
void tcp_rng_seed(tcp_rng_t *r, uint64_t seed)
{
	r->s = seed ^ 0x853c49e6748fea9bull;
}

uint64_t tcp_rng_u64(tcp_rng_t *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

double tcp_rng_unit(tcp_rng_t *r)
{
	return (double)(tcp_rng_u64(r) >> 11) * 0x1.0p-53;
}

/*
 * A binary minifloat: eb exponent bits, mb mantissa bits, IEEE-style
 * infinities unless `fn` (finite-only, OCP e4m3: the all-ones code is NaN
 * and the top exponent holds normal numbers).
 */
typedef struct {
	int eb, mb, fn;
} mf_fmt_t;

static const mf_fmt_t fmt_f16 = { 5, 10, 0 };
static const mf_fmt_t fmt_bf16 = { 8, 7, 0 };
static const mf_fmt_t fmt_tf32 = { 8, 10, 0 };
static const mf_fmt_t fmt_e4m3 = { 4, 3, 1 };
static const mf_fmt_t fmt_e5m2 = { 5, 2, 0 };

static double mf_max_finite(const mf_fmt_t *f)
{
	int bias = (1 << (f->eb - 1)) - 1, expmax = (1 << f->eb) - 1;

	if (f->fn)	/* top exponent, mantissa all ones minus one */
		return ldexp(2.0 - ldexp(1.0, 1 - f->mb), expmax - bias);
	return ldexp(2.0 - ldexp(1.0, -f->mb), expmax - 1 - bias);
}

/*
 *  mf_round(), mf_encode(), mf_decode()
 *	Round to nearest even in the format (saturating for finite-only
 *	formats), and code <-> value.  Division by a power of two is exact in
 *	double, so rint() does the whole rounding.
 */
static double mf_round(const mf_fmt_t *f, double v)
{
	int bias = (1 << (f->eb - 1)) - 1, emin = 1 - bias, e;
	double a = fabs(v), q, r, maxfin = mf_max_finite(f);

	if (isnan(v) || a == 0)
		return v;
	if (isinf(a))
		return f->fn ? copysign(maxfin, v) : v;
	(void)frexp(a, &e);
	e = e - 1 < emin ? emin : e - 1;
	q = ldexp(1.0, e - f->mb);
	r = rint(a / q) * q;
	if (r > maxfin)
		r = f->fn ? maxfin : INFINITY;
	return copysign(r, v);
}

static uint32_t mf_encode(const mf_fmt_t *f, double v)
{
	int bias = (1 << (f->eb - 1)) - 1, emin = 1 - bias, e;
	uint32_t expmax = (1u << f->eb) - 1, mmask = (1u << f->mb) - 1;
	uint32_t sign = signbit(v) ? 1u << (f->eb + f->mb) : 0;
	double r = fabs(mf_round(f, v));

	if (isnan(v))
		return sign | expmax << f->mb | (f->fn ? mmask : 1u << (f->mb - 1));
	if (isinf(r))
		return sign | expmax << f->mb;
	if (r == 0)
		return sign;
	(void)frexp(r, &e);
	if (e - 1 < emin)	/* subnormal */
		return sign | (uint32_t)(r / ldexp(1.0, emin - f->mb));
	return sign | (uint32_t)(e - 1 + bias) << f->mb |
	       ((uint32_t)((r / ldexp(1.0, e - 1) - 1.0) * (double)(1u << f->mb)) & mmask);
}

static double mf_decode(const mf_fmt_t *f, uint32_t b)
{
	int bias = (1 << (f->eb - 1)) - 1;
	uint32_t expmax = (1u << f->eb) - 1, mmask = (1u << f->mb) - 1;
	uint32_t sign = (b >> (f->eb + f->mb)) & 1, ex = (b >> f->mb) & expmax, m = b & mmask;
	double v;

	if (ex == expmax && !f->fn)
		return m ? NAN : (sign ? -INFINITY : INFINITY);
	if (ex == expmax && m == mmask)
		return NAN;
	if (ex)
		v = ldexp(1.0 + (double)m / (double)(1u << f->mb), (int)ex - bias);
	else
		v = ldexp((double)m, 1 - bias - f->mb);
	return sign ? -v : v;
}

size_t tcp_type_bytes(tcp_type_t t)
{
	switch (t) {
	case TCP_T_F16: case TCP_T_BF16: return 2;
	case TCP_T_TF32: case TCP_T_F32: case TCP_T_S32: return 4;
	case TCP_T_E4M3: case TCP_T_E5M2: case TCP_T_S8: case TCP_T_U8: return 1;
	default: return 0;
	}
}

int tcp_type_is_float(tcp_type_t t)
{
	return t != TCP_T_S8 && t != TCP_T_U8 && t != TCP_T_S32;
}

static const mf_fmt_t *fmt_of(tcp_type_t t)
{
	switch (t) {
	case TCP_T_F16: return &fmt_f16;
	case TCP_T_BF16: return &fmt_bf16;
	case TCP_T_TF32: return &fmt_tf32;
	case TCP_T_E4M3: return &fmt_e4m3;
	case TCP_T_E5M2: return &fmt_e5m2;
	default: return NULL;
	}
}

static double clampd(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/*
 *  tcp_encode(), tcp_decode(), tcp_round_to()
 *	One element, by type (see fill.h).  Integers round to nearest and
 *	saturate.
 */
int tcp_encode(tcp_type_t t, double v, void *dst)
{
	uint32_t u;
	uint16_t h;
	float f;

	switch (t) {
	case TCP_T_F16: case TCP_T_BF16:
		h = (uint16_t)mf_encode(fmt_of(t), v);
		memcpy(dst, &h, 2);
		return 0;
	case TCP_T_E4M3: case TCP_T_E5M2:
		*(uint8_t *)dst = (uint8_t)mf_encode(fmt_of(t), v);
		return 0;
	case TCP_T_TF32:	/* sign|exp8|mant10 is the top 19 bits of an fp32 */
		u = mf_encode(&fmt_tf32, v) << 13;
		memcpy(dst, &u, 4);
		return 0;
	case TCP_T_F32:
		f = (float)v;
		memcpy(dst, &f, 4);
		return 0;
	case TCP_T_S8:
		*(int8_t *)dst = (int8_t)clampd(rint(v), -128, 127);
		return 0;
	case TCP_T_U8:
		*(uint8_t *)dst = (uint8_t)clampd(rint(v), 0, 255);
		return 0;
	case TCP_T_S32:
		u = (uint32_t)(int32_t)clampd(rint(v), -2147483648.0, 2147483647.0);
		memcpy(dst, &u, 4);
		return 0;
	default:
		return -1;
	}
}

double tcp_decode(tcp_type_t t, const void *src)
{
	uint32_t u;
	uint16_t h;
	float f;

	switch (t) {
	case TCP_T_F16: case TCP_T_BF16:
		memcpy(&h, src, 2);
		return mf_decode(fmt_of(t), h);
	case TCP_T_E4M3: case TCP_T_E5M2:
		return mf_decode(fmt_of(t), *(const uint8_t *)src);
	case TCP_T_TF32:	/* the tensor core ignores the 13 low bits */
		memcpy(&u, src, 4);
		u &= ~0x1FFFu;
		memcpy(&f, &u, 4);
		return f;
	case TCP_T_F32:
		memcpy(&f, src, 4);
		return f;
	case TCP_T_S8:
		return *(const int8_t *)src;
	case TCP_T_U8:
		return *(const uint8_t *)src;
	case TCP_T_S32:
		memcpy(&u, src, 4);
		return (int32_t)u;
	default:
		return NAN;
	}
}

double tcp_round_to(tcp_type_t t, double v)
{
	unsigned char buf[8];

	if (tcp_encode(t, v, buf))
		return NAN;
	return tcp_decode(t, buf);
}

/*
 *  tcp_fill_random()
 *	Fresh random elements, encoded and decoded (see fill.h).
 */
int tcp_fill_random(tcp_type_t t, size_t n, tcp_rng_t *r, void *dst, double *val)
{
	size_t bytes = tcp_type_bytes(t);
	int nonzero = 0;

	if (!bytes)
		return -1;
	for (size_t i = 0; i < n; i++) {
		unsigned char *p = (unsigned char *)dst + i * bytes;
		double v;

		switch (t) {
		case TCP_T_S8: v = (double)(tcp_rng_u64(r) % 256) - 128; break;
		case TCP_T_U8: v = (double)(tcp_rng_u64(r) % 256); break;
		case TCP_T_S32: v = (double)(tcp_rng_u64(r) % (1u << 21)) - (1 << 20); break;
		default: v = 2.0 * tcp_rng_unit(r) - 1.0; break;
		}
		if (i == n - 1 && !nonzero && v == 0)	/* never an all-zero tile */
			v = 1;
		tcp_encode(t, v, p);
		v = tcp_decode(t, p);
		nonzero |= v != 0;
		if (val)
			val[i] = v;
	}
	return 0;
}

/*
 *  tcp_type_max(), tcp_pattern_max(), tcp_fill_pattern()
 *	The input patterns (fill.h).  maxfinite's M is the largest value of
 *	the form (2 - 2^-mb) 2^e (all-ones mantissa) not above sqrt(bound),
 *	so it is exactly representable and its square times terms fits.
 */
const char *const tcp_pattern_names[] = { "zeros", "ones", "random", "sparse50", "smallexp",
					  "maxfinite", NULL };

double tcp_type_max(tcp_type_t t)
{
	const mf_fmt_t *f = fmt_of(t);

	if (f)
		return mf_max_finite(f);
	switch (t) {
	case TCP_T_S8: return 127;
	case TCP_T_U8: return 255;
	case TCP_T_F32: return ldexp(2.0 - ldexp(1.0, -23), 127);
	case TCP_T_S32: return 2147483647.0;
	default: return 0;
	}
}

double tcp_pattern_max(tcp_type_t t, tcp_type_t acc, long terms)
{
	const mf_fmt_t *f = fmt_of(t);
	double tmax = tcp_type_max(t), amax = tcp_type_max(acc), target, m;
	int e;

	if (tmax <= 0 || amax <= 0 || terms < 1)
		return 0;
	target = sqrt(amax / 2.0 / (double)terms);
	if (target >= tmax)
		return tmax;
	if (!f)		/* integers */
		return floor(target);
	e = (int)floor(log2(target));
	m = ldexp(2.0 - ldexp(1.0, -f->mb), e);
	if (m > target)
		m = ldexp(2.0 - ldexp(1.0, -f->mb), e - 1);
	return m;
}

int tcp_fill_pattern(tcp_type_t t, tcp_pattern_t pat, tcp_type_t acc, long terms, size_t n,
		     tcp_rng_t *r, void *dst, double *val)
{
	size_t bytes = tcp_type_bytes(t);
	int flt = tcp_type_is_float(t);
	double mx = 0;

	if (!bytes || (int)pat < 0 || pat >= TCP_PAT_COUNT)
		return -1;
	if (pat == TCP_PAT_RANDOM || pat == TCP_PAT_SPARSE50) {
		if (tcp_fill_random(t, n, r, dst, val))
			return -1;
		if (pat == TCP_PAT_RANDOM)
			return 0;
	}
	if (pat == TCP_PAT_MAXFINITE && !(mx = tcp_pattern_max(t, acc, terms)))
		return -1;
	for (size_t i = 0; i < n; i++) {
		unsigned char *p = (unsigned char *)dst + i * bytes;
		double v, sgn = (t == TCP_T_U8 || (tcp_rng_u64(r) & 1)) ? 1.0 : -1.0;

		switch (pat) {
		case TCP_PAT_ZEROS: v = 0; break;
		case TCP_PAT_ONES: v = 1; break;
		case TCP_PAT_SPARSE50:
			if (tcp_rng_u64(r) & 1)
				continue;	/* keep the random element */
			v = 0;
			break;
		case TCP_PAT_SMALLEXP:
			if (flt) {	/* 1.m, m drawn from the type's mantissa: exact */
				int mb = fmt_of(t) ? fmt_of(t)->mb : 23;

				v = sgn * (1.0 + ldexp(floor(ldexp(tcp_rng_unit(r), mb)), -mb));
			} else {
				v = (double)(tcp_rng_u64(r) % 4) * (t == TCP_T_U8 ? 1.0 : sgn);
			}
			break;
		default: v = sgn * mx; break;	/* maxfinite */
		}
		tcp_encode(t, v, p);
		if (val)
			val[i] = tcp_decode(t, p);
	}
	return 0;
}

void tcp_ref_gemm(int M, int N, int K, const double *A, const double *B, double alpha,
		  double *C, double *mag)
{
	for (int m = 0; m < M; m++)
		for (int n = 0; n < N; n++) {
			double s = 0, a = 0;

			for (int k = 0; k < K; k++) {
				double p = A[(size_t)m * K + k] * B[(size_t)n * K + k];

				s += p;
				a += fabs(p);
			}
			C[(size_t)m * N + n] += alpha * s;
			if (mag)
				mag[(size_t)m * N + n] += fabs(alpha) * a;
		}
}

static double input_tol(tcp_type_t t)
{
	switch (t) {
	case TCP_T_TF32: case TCP_T_F32: return 1e-3;
	case TCP_T_F16: case TCP_T_BF16: return 1e-2;
	case TCP_T_E4M3: return 0x1p-4;
	case TCP_T_E5M2: return 0x1p-3;
	default: return 0;	/* integers */
	}
}

double tcp_tolerance(tcp_type_t a, tcp_type_t b, tcp_type_t acc)
{
	double ta = input_tol(a), tb = input_tol(b), t = ta > tb ? ta : tb;

	if (acc == TCP_T_F16)
		t += 1e-2;
	return t;
}

long tcp_check(size_t n, int ncols, const double *got, const double *ref, const double *mag,
	       double tol, char *reason, size_t len)
{
	for (size_t i = 0; i < n; i++) {
		double err = fabs(got[i] - ref[i]), lim = tol * mag[i] + 1e-30;

		if (err <= lim)	/* false for NaN */
			continue;
		snprintf(reason, len, "C[%zu][%zu] = %.9g, expected %.9g (|err| %.3g > tol %.3g)",
			 i / (size_t)ncols, i % (size_t)ncols, got[i], ref[i], err, lim);
		return (long)i;
	}
	return -1;
}
