/*
 * kinds.h
 *	MMA kinds and element types: codes, names, widths, the PTX MMA-K of each
 *	kind and the published dense math rate per SM for sm_90 and sm_100.
 *
 *	The name tables are host-only (model/kinds.c); everything TCP_HD here is
 *	usable on the device.
 */
#ifndef TCP_MODEL_KINDS_H
#define TCP_MODEL_KINDS_H

#include "model/hd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* tcgen05.mma .kind (on sm_90 the same names stand for the wgmma type families). */
typedef enum {
	TCP_KIND_F16 = 0,	/* f16 / bf16 inputs */
	TCP_KIND_TF32,
	TCP_KIND_F8F6F4,	/* e4m3 e5m2 e2m3 e3m2 e2m1, unscaled */
	TCP_KIND_I8,		/* s8 / u8 */
	TCP_KIND_MXF8F6F4,	/* block-scaled f8f6f4, ue8m0 scales, block 32 */
	TCP_KIND_MXF4,		/* block-scaled e2m1 (packed), ue8m0, block 32 */
	TCP_KIND_MXF4NVF4,	/* block-scaled e2m1, ue8m0 block 32 or ue4m3 block 16 */
	TCP_KIND_COUNT
} tcp_kind_t;

/* Element types of A, B, D and of the scale factors. */
typedef enum {
	TCP_T_F16 = 0,
	TCP_T_BF16,
	TCP_T_TF32,
	TCP_T_E4M3,
	TCP_T_E5M2,
	TCP_T_E2M3,	/* fp6 */
	TCP_T_E3M2,	/* fp6 */
	TCP_T_E2M1,	/* fp4 */
	TCP_T_S8,
	TCP_T_U8,
	TCP_T_F32,	/* accumulator */
	TCP_T_S32,	/* accumulator */
	TCP_T_UE8M0,	/* scale factor */
	TCP_T_UE4M3,	/* scale factor */
	TCP_T_COUNT
} tcp_type_t;

/* Generations the K/4 table and the rate table know. */
typedef enum { TCP_GEN_SM90 = 90, TCP_GEN_SM100 = 100 } tcp_gen_t;

/* Bits one element occupies in its own format (not in a padded container). */
TCP_HD int tcp_type_bits(tcp_type_t t)
{
	switch (t) {
	case TCP_T_F16: case TCP_T_BF16: return 16;
	case TCP_T_TF32: case TCP_T_F32: case TCP_T_S32: return 32;
	case TCP_T_E4M3: case TCP_T_E5M2: case TCP_T_S8: case TCP_T_U8:
	case TCP_T_UE8M0: case TCP_T_UE4M3: return 8;
	case TCP_T_E2M3: case TCP_T_E3M2: return 6;
	case TCP_T_E2M1: return 4;
	default: return 0;
	}
}

TCP_HD int tcp_kind_block_scaled(tcp_kind_t k)
{
	return k == TCP_KIND_MXF8F6F4 || k == TCP_KIND_MXF4 || k == TCP_KIND_MXF4NVF4;
}

/*
 * tcp_kind_k()
 *	PTX MMA-K of one dense tcgen05.mma (PTX kind-shapes table; facts s.3):
 *	f16 16, tf32 8, f8f6f4 32, i8 32, mxf8f6f4 32, mxf4/mxf4nvf4 64.
 *	Sparse forms double it.  FLOP per MMA = 2*M*N*K with this K.
 */
TCP_HD int tcp_kind_k(tcp_kind_t k)
{
	switch (k) {
	case TCP_KIND_F16: return 16;
	case TCP_KIND_TF32: return 8;
	case TCP_KIND_F8F6F4: case TCP_KIND_I8: case TCP_KIND_MXF8F6F4: return 32;
	case TCP_KIND_MXF4: case TCP_KIND_MXF4NVF4: return 64;
	default: return 0;
	}
}

/*
 * tcp_kind_k_gen()
 *	MMA-K per generation: wgmma (sm_90) has the same K as tcgen05 for the
 *	families it has (f16 16, tf32 8, e4m3/e5m2 32, s8/u8 32) and no
 *	block-scaled or fp6/fp4 kinds (0 = not available).
 */
TCP_HD int tcp_kind_k_gen(tcp_kind_t k, tcp_gen_t g)
{
	if (g == TCP_GEN_SM90 && tcp_kind_block_scaled(k))
		return 0;
	return tcp_kind_k(k);
}

/*
 * tcp_kind_flop_clk_sm()
 *	Published dense FLOP (or OP) per clock per SM (facts s.11).
 *	Source: NVIDIA cudnn-frontend peak tables and CUTLASS
 *	media/docs/cpp/blackwell_functionality.md (sm_100: f16/bf16 8192, tf32
 *	4096, f8f6f4/i8/mxf8f6f4 16384, mxf4/mxf4nvf4 32768; Hopper: f16 4096,
 *	tf32 2048, fp8/int8 8192).  0 = the kind does not exist there.
 */
TCP_HD double tcp_kind_flop_clk_sm(tcp_kind_t k, tcp_gen_t g)
{
	if (g == TCP_GEN_SM90) {
		switch (k) {
		case TCP_KIND_F16: return 4096;
		case TCP_KIND_TF32: return 2048;
		case TCP_KIND_F8F6F4: case TCP_KIND_I8: return 8192;
		default: return 0;
		}
	}
	switch (k) {
	case TCP_KIND_F16: return 8192;
	case TCP_KIND_TF32: return 4096;
	case TCP_KIND_F8F6F4: case TCP_KIND_I8: case TCP_KIND_MXF8F6F4: return 16384;
	case TCP_KIND_MXF4: case TCP_KIND_MXF4NVF4: return 32768;
	default: return 0;
	}
}

/* Host-only names (model/kinds.c).  Parsers return -1 for an unknown name. */
const char *tcp_kind_name(tcp_kind_t k);	/* "f16", "mxf4nvf4" */
int tcp_kind_parse(const char *s);
const char *tcp_type_name(tcp_type_t t);	/* "bf16", "e2m1", "ue8m0" */
int tcp_type_parse(const char *s);
/* Comma-separated list of every kind / type name, for error messages. */
const char *tcp_kind_names(void);
const char *tcp_type_names(void);

#ifdef __cplusplus
}
#endif
#endif /* TCP_MODEL_KINDS_H */
