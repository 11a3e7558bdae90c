/*
 * warp-mma.h
 *	The warp-level MMA family (mma.sync / mma.sp::ordered_metadata, one
 *	m16n8kK tile per warp, operands and accumulators in registers): the
 *	forms tcprobe instantiates, which target has which form, and where
 *	every operand element, sparsity index and block scale sits in the
 *	registers of the 32 lanes.
 *
 *	Sources: PTX ISA 9.0, "Matrix fragments for mma.m16n8k*" (9.7.14.5) and
 *	"... with sparse matrix A" (9.7.14.6); the per-target availability is
 *	the measured ptxas matrix (shared docs arch-matrix.md, rows 15-19); the
 *	sm_120 block-scale lanes follow CUTLASS cute/atom/mma_traits_sm120.hpp
 *	(SFALayout / SFBLayout, byte-id 0, thread-id 0, as cute/arch/mma_sm120.hpp
 *	issues it).  tests/test-model-warp.c checks the fragment functions here
 *	against CUTLASS's CuTe layouts (mma_traits_sm80.hpp, mma_traits_sm120.hpp).
 *
 *	Every dense form reads 32 bytes of K per row of A and per column of B
 *	(16 f16, 8 tf32, 32 8-bit, 64 packed fp4); a sparse form reads its A
 *	compressed to the same 32 bytes and 64 bytes of K per column of B.
 */
#ifndef TCP_MODEL_WARP_MMA_H
#define TCP_MODEL_WARP_MMA_H

#include <stddef.h>

#include "model/hd.h"
#include "model/kinds.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The instantiated forms (one device kernel per form and ILP).  A = B type. */
typedef enum {
	TCP_WF_F16_F32 = 0,	/* m16n8k16 f16 -> f32 */
	TCP_WF_F16_F16,		/* m16n8k16 f16 -> f16 */
	TCP_WF_BF16_F32,	/* m16n8k16 bf16 -> f32 */
	TCP_WF_TF32_F32,	/* m16n8k8 tf32 -> f32 */
	TCP_WF_S8_S32,		/* m16n8k32 s8 -> s32 */
	TCP_WF_U8_S32,		/* m16n8k32 u8 -> s32 */
	TCP_WF_E4M3_F32,	/* m16n8k32 e4m3 -> f32 (sm_89+) */
	TCP_WF_E4M3_F16,	/* m16n8k32 e4m3 -> f16 (sm_89+, PTX 8.7) */
	TCP_WF_E5M2_F32,
	TCP_WF_E5M2_F16,
	TCP_WF_E2M1_F32,	/* kind::f8f6f4 m16n8k32, 8-bit containers (sm_120/121) */
	TCP_WF_E2M3_F32,
	TCP_WF_E3M2_F32,
	TCP_WF_MX_E4M3,		/* kind::mxf8f6f4 scale_vec::1X ue8m0 m16n8k32 -> f32 */
	TCP_WF_MX_E5M2,
	TCP_WF_MX_E2M3,
	TCP_WF_MX_E3M2,
	TCP_WF_MX_E2M1,
	TCP_WF_MXF4,		/* kind::mxf4 scale_vec::2X ue8m0 m16n8k64 e2m1 (packed) */
	TCP_WF_NVF4_2X,		/* kind::mxf4nvf4 scale_vec::2X ue8m0 m16n8k64 */
	TCP_WF_NVF4_4X,		/* kind::mxf4nvf4 scale_vec::4X ue4m3 m16n8k64 (NVFP4) */
	TCP_WF_SP_F16,		/* mma.sp::ordered_metadata m16n8k32 f16 -> f32 */
	TCP_WF_SP_BF16,		/* m16n8k32 bf16 -> f32 */
	TCP_WF_SP_TF32,		/* m16n8k16 tf32 -> f32 (1:2 on tf32 = 2:4 on 16-bit halves) */
	TCP_WF_SP_S8,		/* m16n8k64 s8 -> s32 */
	TCP_WF_SP_E4M3,		/* m16n8k64 e4m3 -> f32 (sm_89, sm_120/121 code only) */
	TCP_WF_SP_MX_E4M3,	/* kind::mxf8f6f4 1X m16n8k64 (sm_120/121) */
	TCP_WF_SP_NVF4,		/* kind::mxf4nvf4 4X ue4m3 m16n8k128 (sm_120a/121a only) */
	TCP_WF_COUNT
} tcp_warp_form_id_t;

/* What a form needs of the code it runs from (arch-matrix.md rows 15-18). */
typedef enum {
	TCP_WREQ_SM80 = 0,	/* every target from sm_80 on */
	TCP_WREQ_SM89,		/* fp8 mma.sync: sm_89 and later */
	TCP_WREQ_SP_FP8,	/* sparse fp8: sm_89 and sm_12x code only (ptxas 13.0 emulates it
				 * on sm_90a / sm_100a with local memory; tcprobe leaves it out) */
	TCP_WREQ_SM12X,		/* kind::f8f6f4 / block-scaled: sm_120a/f, sm_121a/f only */
	TCP_WREQ_SM12XA		/* sparse NVFP4: sm_120a, sm_121a only ('a' code) */
} tcp_warp_req_t;

typedef struct {
	const char *name;	/* "f16.f32", "mxf4nvf4.ue4m3", "sp.e4m3.f32" */
	tcp_kind_t kind;	/* tcgen05 naming: f16 (f16/bf16), tf32, f8f6f4, i8, mx* */
	tcp_type_t ab;		/* A and B element type */
	tcp_type_t acc;		/* F32, F16 or S32 */
	int sparse;		/* 1: mma.sp::ordered_metadata (A 2:4 in 16- or 8-bit units) */
	tcp_type_t sf;		/* UE8M0 / UE4M3 when block-scaled, else TCP_T_COUNT */
	int sf_block;		/* logical K elements per scale: K / the scale_vec count (dense
				 * 1X/2X 32, 4X 16; sparse 1X m16n8k64 64, 4X m16n8k128 32,
				 * CUTLASS mma_sm120_sparse.hpp VS); 0 = not scaled */
	tcp_warp_req_t req;
	int ptx_isa;		/* lowest PTX ISA x10 that has the form (arch-matrix s.2) */
} tcp_warp_form_t;

/* The form table entry (NULL for an unknown id). */
const tcp_warp_form_t *tcp_warp_form(int id);

/* Form id with these properties, or -1 (not instantiated). sf = TCP_T_COUNT: unscaled. */
int tcp_warp_form_find(tcp_kind_t kind, tcp_type_t ab, tcp_type_t acc, int sparse, tcp_type_t sf);

/* M, N, K (the PTX K: sparse forms count the logical K, twice the dense one). */
enum { TCP_WARP_M = 16, TCP_WARP_N = 8 };
int tcp_warp_k(int id);

/* Bits one element occupies in the registers: 16, 32 (tf32), 8 (8-bit and the
 * fp6/fp4 containers of kind::f8f6f4 / mxf8f6f4) or 4 (packed mxf4 / mxf4nvf4). */
int tcp_warp_elem_bits(int id);

/* B registers per lane (2 dense, 4 sparse); accumulator registers (4, or 2 for f16). */
int tcp_warp_b_regs(int id);
int tcp_warp_d_regs(int id);

/* FLOP of one warp-level MMA: 2 M N K with the PTX K (sparse: the logical K). */
double tcp_warp_flop(int id);

/*
 * tcp_warp_form_legal()
 *	1 when code built for compute capability `code_cc` (80, 86, 89, 90,
 *	100, 103, 110, 120, 121) has the form; `code_a` = the code is
 *	arch-specific ('a' target: sm_90a, sm_120a, ...).  0 with a one-line
 *	reason ("e4m3 mma.sync needs sm_89 or later code, this code is sm_80").
 */
int tcp_warp_form_legal(int id, int code_cc, int code_a, char *reason, size_t len);

/*
 * tcp_warp_target_parse()
 *	"sm_80", "sm_90a", "sm_120a", "121a", "86" -> compute capability x10 and
 *	the 'a' flag.  0, or -1 for something else.
 */
int tcp_warp_target_parse(const char *s, int *cc, int *a);

/* ---- fragments (PTX ISA figures; lane l: g = l / 4, c = l % 4) -------------- */

/* A: byte `byte` (0..3) of register `reg` (0..3) of lane l is byte `kbyte`
 * (0..31) of row `row` (0..15) of A (compressed A for a sparse form):
 * row g + 8 (reg & 1), kbyte 16 (reg >> 1) + 4 c + byte. */
TCP_HD void tcp_warp_a_byte(int lane, int reg, int byte, int *row, int *kbyte)
{
	*row = lane / 4 + 8 * (reg & 1);
	*kbyte = 16 * (reg >> 1) + 4 * (lane % 4) + byte;
}

/* B (K-major per column, 32 bytes dense / 64 sparse): column g, kbyte 16 reg + 4 c + byte. */
TCP_HD void tcp_warp_b_byte(int lane, int reg, int byte, int *col, int *kbyte)
{
	*col = lane / 4;
	*kbyte = 16 * reg + 4 * (lane % 4) + byte;
}

/* D element e (0..3; for f16, element e is half (e & 1) of register e >> 1):
 * row g + 8 (e >> 1), column 2 c + (e & 1). */
TCP_HD void tcp_warp_d_elem(int lane, int e, int *row, int *col)
{
	*row = lane / 4 + 8 * (e >> 1);
	*col = 2 * (lane % 4) + (e & 1);
}

/* Block scales (sm_120 mma.sync, byte-id 0, thread-id 0): the A-scale register
 * of lane l holds row g + 8 (l & 1) (lanes 2, 3 of a quad repeat lanes 0, 1);
 * the B-scale register of every lane of quad g holds column g.  Byte i of the
 * register is the scale of K block i (1X: byte 0; 2X: bytes 0-1; 4X: 0-3). */
TCP_HD int tcp_warp_sfa_row(int lane)
{
	return lane / 4 + 8 * (lane & 1);
}

TCP_HD int tcp_warp_sfb_col(int lane)
{
	return lane / 4;
}

/*
 * Sparsity metadata (mma.sp::ordered_metadata, sparsity selector 0): A is 2:4
 * in units of 2 bytes (f16, bf16, tf32 as two halves) or 1 byte (8-bit types,
 * fp4 pairs of the m16n8k128 form): every chunk of 4 units keeps 2, whose
 * indices i0 < i1 are one 4-bit nibble (i0 in bits 1:0, i1 in 3:2).  A row
 * has 8 chunks (16-bit units) or 16 (8-bit units).  Which lane holds which
 * (row, chunk) differs per unit size (PTX ISA "Matrix fragments for sparse
 * mma.m16n8k32 .f16/.bf16" / "m16n8k16 .tf32" / "m16n8k64 8-bit" metadata
 * figures; CUTLASS tools/util/include/cutlass/util/host_reorder.h
 * reorder_meta, with the 16-bit ElementE of kMaxID2 = 2 forms and the 32-bit
 * ElementE of kMaxID2 = 1 forms, cutlass/gemm/warp/mma_sparse_tensor_op.h):
 *   2-byte units: only lanes 4g and 4g+1 (c = lane % 4 < 2) are read; bits
 *     15:0 hold row g, bits 31:16 row g+8, nibble n of a half = chunk 4c + n.
 *   1-byte units: all four lanes; the whole word is row g + 8 (c & 1),
 *     nibble n = chunk 8 (c >> 1) + n.
 * (Before this was modelled every lane held one word with chunk j in nibble
 * j % 8: right for 1-byte units, wrong for 2-byte ones, where the H200
 * rejected every sparse f16/bf16/tf32 point.)
 */
/* Row and chunk that nibble `nib` (0..7) of lane `lane`'s metadata word
 * describes: 1, or 0 when the hardware does not read that lane (selector 0). */
int tcp_warp_meta_loc(int id, int lane, int nib, int *row, int *chunk);

int tcp_warp_meta_unit_bytes(int id);	/* 2 or 1; 0 for a dense form */

/* Is the 4-bit chunk code legal for ordered metadata (i0 < i1; tf32: 0x4 or 0xE)? */
int tcp_warp_meta_nibble_legal(int id, unsigned nibble);

/* Host names: "f16", "e4m3" of a form's A type etc. come from kinds.h. */
const char *tcp_warp_form_names(void);	/* comma-separated, for messages */

#ifdef __cplusplus
}
#endif
#endif /* TCP_MODEL_WARP_MMA_H */
