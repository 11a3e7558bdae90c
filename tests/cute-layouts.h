/*
 * cute-layouts.h
 *	CUTLASS CuTe (thread, value) -> (MN, K) layouts of the warp-level MMA
 *	atoms, transcribed by hand from NVIDIA/cutlass 7107b05 (shape and stride
 *	of each mode, flattened colexicographically: a hierarchical mode's
 *	sub-modes in order), and a tiny evaluator: offset = sum coord_i *
 *	stride_i, (mn, k) = (offset % MN, offset / MN) (CuTe's column-major
 *	(MN, K) tile).  The independent side of tests/test-model-warp.c and
 *	tests/test-warp-check.c.  Layouts marked [PTX] are not in CUTLASS (no
 *	sm_80 sparse traits) and are written from the PTX ISA fragment figures
 *	for sparse m16n8k32 f16 and m16n8k16 tf32 B.
 */
#ifndef TCP_TEST_CUTE_LAYOUTS_H
#define TCP_TEST_CUTE_LAYOUTS_H

struct cute_layout {
	int mn;			/* M (A, SFA, C) or N (B, SFB) extent */
	int nt, nv;		/* modes of the thread and the value index */
	int ts[4], td[4];	/* thread shape / stride */
	int vs[4], vd[4];	/* value shape / stride */
	int nval;		/* values per thread */
};

static inline void cute_mk(const struct cute_layout *L, int t, int v, int *mn, int *k)
{
	int off = 0;

	for (int i = 0; i < L->nt; i++) {
		off += (t % L->ts[i]) * L->td[i];
		t /= L->ts[i];
	}
	for (int i = 0; i < L->nv; i++) {
		off += (v % L->vs[i]) * L->vd[i];
		v /= L->vs[i];
	}
	*mn = off % L->mn;
	*k = off / L->mn;
}

/* mma_traits_sm80.hpp: SM80_16x8x16_F32F16F16F32_TN (same as F16F16F16F16) */
static const struct cute_layout cute_a_f16_k16 = { 16, 2, 3, { 4, 8 }, { 32, 1 }, { 2, 2, 2 }, { 16, 8, 128 }, 8 };
static const struct cute_layout cute_b_f16_k16 = { 8, 2, 2, { 4, 8 }, { 16, 1 }, { 2, 2 }, { 8, 64 }, 4 };
/* SM80_16x8x8_F32TF32TF32F32_TN */
static const struct cute_layout cute_a_tf32_k8 = { 16, 2, 2, { 4, 8 }, { 16, 1 }, { 2, 2 }, { 8, 64 }, 4 };
static const struct cute_layout cute_b_tf32_k8 = { 8, 2, 1, { 4, 8 }, { 8, 1 }, { 2 }, { 32 }, 2 };
/* SM80_16x8x32_S32S8S8S32_TN (and SM120_16x8x32_TN, 8-bit containers) */
static const struct cute_layout cute_a_s8_k32 = { 16, 2, 3, { 4, 8 }, { 64, 1 }, { 4, 2, 2 }, { 16, 8, 256 }, 16 };
static const struct cute_layout cute_b_s8_k32 = { 8, 2, 2, { 4, 8 }, { 32, 1 }, { 4, 2 }, { 8, 128 }, 8 };
/* SM80_16x8_Row: accumulators */
static const struct cute_layout cute_c_16x8 = { 16, 2, 2, { 4, 8 }, { 32, 1 }, { 2, 2 }, { 16, 8 }, 4 };
/* mma_traits_sm120.hpp: SM120_16x8x64_TN_VS (packed fp4) */
static const struct cute_layout cute_a_fp4_k64 = { 16, 2, 3, { 4, 8 }, { 128, 1 }, { 8, 2, 2 }, { 16, 8, 512 }, 32 };
static const struct cute_layout cute_b_fp4_k64 = { 8, 2, 2, { 4, 8 }, { 64, 1 }, { 8, 2 }, { 8, 256 }, 16 };
/* block scales: SFALayout / SFBLayout of SM120_16x8x32_TN_VS and SM120_16x8x64_TN_VS */
static const struct cute_layout cute_sfa_k32 = { 16, 3, 1, { 2, 2, 8 }, { 8, 0, 1 }, { 32 }, { 16 }, 32 };
static const struct cute_layout cute_sfb_k32 = { 8, 2, 1, { 4, 8 }, { 0, 1 }, { 32 }, { 8 }, 32 };
static const struct cute_layout cute_sfa_k64 = { 16, 3, 1, { 2, 2, 8 }, { 8, 0, 1 }, { 64 }, { 16 }, 64 };
static const struct cute_layout cute_sfb_k64 = { 8, 2, 1, { 4, 8 }, { 0, 1 }, { 64 }, { 8 }, 64 };
/* mma_traits_sm120_sparse.hpp: SM120_SPARSE_16x8x64_TN BLayout, 16x8x128 BLayout and SFALayout */
static const struct cute_layout cute_b_sp_8bit_k64 = { 8, 2, 2, { 4, 8 }, { 32, 1 }, { 4, 4 }, { 8, 128 }, 16 };
static const struct cute_layout cute_b_sp_fp4_k128 = { 8, 2, 2, { 4, 8 }, { 64, 1 }, { 8, 4 }, { 8, 256 }, 32 };
static const struct cute_layout cute_sfa_k128 = { 16, 3, 1, { 2, 2, 8 }, { 8, 0, 1 }, { 128 }, { 16 }, 128 };
static const struct cute_layout cute_sfb_k128 = { 8, 2, 1, { 4, 8 }, { 0, 1 }, { 128 }, { 8 }, 128 };
/* [PTX] sparse m16n8k32 f16 B: k = 2 c + (i & 1) + 8 (i >> 1); m16n8k16 tf32 B: k = c + 4 i */
static const struct cute_layout cute_b_sp_f16_k32 = { 8, 2, 2, { 4, 8 }, { 16, 1 }, { 2, 4 }, { 8, 64 }, 8 };
static const struct cute_layout cute_b_sp_tf32_k16 = { 8, 2, 1, { 4, 8 }, { 8, 1 }, { 4 }, { 32 }, 4 };

#endif /* TCP_TEST_CUTE_LAYOUTS_H */
