/*
 * fill.h
 *	Host helpers every MMA probe shares (plain C11, no CUDA): a seeded RNG,
 *	exact conversions between double and the narrow element types (f16,
 *	bf16, tf32, e4m3, e5m2, s8, u8), random fills that hand back the decoded
 *	value of every element, a double-precision reference GEMM, and the
 *	per-type tolerance check that turns a device result into OK or a
 *	one-line reason naming the first bad element.
 *
 *	The reference is exact in the inputs: fills return the values the device
 *	actually sees, so the only error left is the device's accumulation
 *	(and, for tf32, the hardware's own operand truncation, which the
 *	tolerance covers).
 */
#ifndef TCP_FILL_H
#define TCP_FILL_H

#include <stddef.h>
#include <stdint.h>

#include "model/kinds.h"

#ifdef __cplusplus
extern "C" {
#endif

/* splitmix64: tiny, seedable, good enough for test data. */
typedef struct {
	uint64_t s;
} tcp_rng_t;

void tcp_rng_seed(tcp_rng_t *r, uint64_t seed);
uint64_t tcp_rng_u64(tcp_rng_t *r);
double tcp_rng_unit(tcp_rng_t *r);			/* uniform in [0, 1) */

/* Bytes one element takes in memory (tf32 lives in a 32-bit word); 0 = unknown. */
size_t tcp_type_bytes(tcp_type_t t);
int tcp_type_is_float(tcp_type_t t);

/*
 * Element <-> double.  tcp_encode() rounds to nearest even; e4m3 saturates
 * to +-448 (it has no infinity), the others overflow to infinity; tf32 is
 * written as an fp32 bit pattern whose 13 low mantissa bits are zero.
 * Returns 0, or -1 for a type it does not know.
 */
int tcp_encode(tcp_type_t t, double v, void *dst);
double tcp_decode(tcp_type_t t, const void *src);

/* The same, for one value: round v to type t and back. */
double tcp_round_to(tcp_type_t t, double v);

/*
 * tcp_fill_random()
 *	n random elements of type t into dst (encoded) and their exact values
 *	into val (may be NULL).  Floats: uniform in [-1, 1) rounded to t, never
 *	all zero; s8 in [-128, 127]; u8 in [0, 255]; f32/s32 likewise wide.
 */
int tcp_fill_random(tcp_type_t t, size_t n, tcp_rng_t *r, void *dst, double *val);

/*
 * Input patterns (the `pattern` axis of the MMA throughput probes): the
 * tensor core's cycles do not depend on the values, its power does.
 *   zeros      every element 0
 *   ones       every element 1
 *   random     tcp_fill_random() (the default; identical draws)
 *   sparse50   tcp_fill_random(), then each element zeroed with p = 1/2
 *   smallexp   floats: random sign, magnitude in [1, 2) (one binade, unbiased
 *              exponent 0, random mantissa); integers: uniform in [-3, 3]
 *              (u8: [0, 3]): only the low bits toggle
 *   maxfinite  every element +-M, random sign (u8: M), M = the largest value
 *              of the type with terms * M^2 <= (largest finite accumulator) / 2,
 *              capped at the type's largest finite value: M has an all-ones
 *              mantissa; no partial sum of `terms` products can overflow the
 *              accumulator (f16: 65504, f32: FLT_MAX, s32: 2^31 - 1), so no
 *              Inf/NaN appears.  terms = every product one accumulator element
 *              sums from zero (wgmma: K x the wgmmas of the validation launch).
 *              E.g. e4m3 into f16, terms 128: M = 15; f16 into f32: 65504.
 */
typedef enum {
	TCP_PAT_ZEROS = 0,
	TCP_PAT_ONES,
	TCP_PAT_RANDOM,
	TCP_PAT_SPARSE50,
	TCP_PAT_SMALLEXP,
	TCP_PAT_MAXFINITE,
	TCP_PAT_COUNT
} tcp_pattern_t;

/* "zeros", "ones", "random", "sparse50", "smallexp", "maxfinite", NULL: axis names. */
extern const char *const tcp_pattern_names[];

/* The largest finite value of t (f16 65504, e4m3 448, s8 127, u8 255, f32, s32); 0 = unknown. */
double tcp_type_max(tcp_type_t t);

/* maxfinite's magnitude M for elements of t into accumulator acc (see above); 0 = bad input. */
double tcp_pattern_max(tcp_type_t t, tcp_type_t acc, long terms);

/*
 * tcp_fill_pattern()
 *	n elements of type t in pattern pat into dst (encoded) and their exact
 *	values into val (may be NULL); acc and terms matter for maxfinite only.
 *	0, or -1 for an unknown type or pattern.
 */
int tcp_fill_pattern(tcp_type_t t, tcp_pattern_t pat, tcp_type_t acc, long terms, size_t n,
		     tcp_rng_t *r, void *dst, double *val);

/*
 * tcp_ref_gemm()
 *	C[m*N + n] += alpha * sum_k A[m*K + k] * B[n*K + k]   (A row-major MxK,
 *	B K-major NxK, the layout every wgmma/tcgen05 K-major operand has) and
 *	mag[m*N + n] += |alpha| * sum_k |A*B|, the scale the tolerance applies
 *	to (mag may be NULL).  Double precision: exact for every int8 product sum.
 */
void tcp_ref_gemm(int M, int N, int K, const double *A, const double *B, double alpha,
		  double *C, double *mag);

/*
 * tcp_tolerance()
 *	Allowed |got - ref| / mag for inputs a, b into accumulator acc:
 *	integers 0 (exact); tf32 1e-3; f16/bf16 1e-2; e4m3 2^-4, e5m2 2^-3
 *	(half an ulp of the input format: the tensor core's reduced-precision
 *	fp8 accumulation stays well inside it); an f16 accumulator adds 1e-2.
 */
double tcp_tolerance(tcp_type_t a, tcp_type_t b, tcp_type_t acc);

/*
 * tcp_check()
 *	Compare n results (ncols per row, for the message) with the reference:
 *	|got - ref| <= tol * mag + 1e-30, NaN never passes.  Returns -1 when all
 *	pass, else the index of the first bad element, with "C[row][col] = got,
 *	expected ref (|err| x > tol*mag y)" in reason.
 */
long tcp_check(size_t n, int ncols, const double *got, const double *ref, const double *mag,
	       double tol, char *reason, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* TCP_FILL_H */
