/*
 * arch.h
 *	The GPU targets tcprobe knows and what each one can assemble, as a
 *	hand-written table: one row per target (name, compute capability,
 *	chips, oldest CUDA toolkit), one bit per tensor-core feature.  The
 *	feature bits are what ptxas accepts for the target, measured with
 *	ptxas 12.8 / 12.9 / 13.0 (../shared/docs/arch-matrix.md, copied to
 *	tests/fixtures/arch-matrix.csv; tests/test-arch.c checks this table
 *	against every row of it through a stated row-to-rule mapping), plus
 *	one hardware fact ptxas cannot check (K = 96, from CUTLASS SM103).
 *
 *	Only 'a' targets (and the plain sm_80/86/89) are listed: tcprobe
 *	builds no family ('f') cubin (README "Targets"; the Makefile says why).
 *	A target's cubin runs on exactly its compute capability.
 */
#ifndef TCP_MODEL_ARCH_H
#define TCP_MODEL_ARCH_H

#include <stddef.h>

#include "model/legal.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
	TCP_TGT_SM80 = 0,
	TCP_TGT_SM86,
	TCP_TGT_SM89,
	TCP_TGT_SM90A,
	TCP_TGT_SM100A,
	TCP_TGT_SM103A,
	TCP_TGT_SM110A,
	TCP_TGT_SM120A,
	TCP_TGT_SM121A,
	TCP_TGT_COUNT
} tcp_target_t;

#define TCP_TGT_BIT(t)	(1u << (t))

/* Feature bits: a form exists on the target when ptxas assembles it there. */
enum {
	TCP_FEAT_TCGEN05	= 1u << 0,	/* tcgen05 core: alloc, ld/st, cp, commit, fence, wait, shift;
						 * mma kind::f16/tf32/f8f6f4 and the block-scaled kinds in
						 * every form (cg1/cg2, A in TMEM, mask, .sp, collector, .ws) */
	TCP_FEAT_TC_I8		= 1u << 1,	/* tcgen05.mma kind::i8 (not on sm_103a) */
	TCP_FEAT_TC_SCALE_D	= 1u << 2,	/* kind::f16/tf32 scale-input-d immediate (not on sm_110a) */
	TCP_FEAT_TC_LD_RED	= 1u << 3,	/* tcgen05.ld.red (sm_103a, sm_110a; PTX 8.8) */
	TCP_FEAT_TC_K96		= 1u << 4,	/* mxf4nvf4 K = 96 (idesc bit 31; CUTLASS SM103 atoms) */
	TCP_FEAT_TMA_CG2	= 1u << 5,	/* cp.async.bulk.tensor .cta_group::2 */
	TCP_FEAT_WGMMA		= 1u << 6,	/* wgmma.mma_async (sm_90a only) */
	TCP_FEAT_MMA_SYNC	= 1u << 7,	/* mma.sync f16/bf16/tf32/s8, mma.sp f16 */
	TCP_FEAT_MMA_SYNC_FP8	= 1u << 8,	/* mma.sync e4m3/e5m2 (sm_89 and later) */
	TCP_FEAT_MMA_SYNC_BS	= 1u << 9,	/* mma.sync kind::f8f6f4 / block-scaled mxf8f6f4, mxf4,
						 * mxf4nvf4 and their mma.sp (sm_120a, sm_121a) */
	TCP_FEAT_HOPPER_ASYNC	= 1u << 10,	/* mbarrier try_wait, cluster ops, elect.sync,
						 * fence.proxy.async, TMA (sm_90 and later) */
	TCP_FEAT_SETMAXNREG	= 1u << 11,	/* setmaxnreg (sm_90a and the later 'a' targets) */
};

typedef struct {
	tcp_target_t id;
	const char *name;	/* "sm_103a": the -gencode code= name */
	int cc;			/* compute capability x 10: 103 */
	const char *chips;	/* "B300, GB300" */
	const char *min_cuda;	/* oldest toolkit that knows the target: "12.9" */
	unsigned feat;		/* TCP_FEAT_* */
} tcp_target_info_t;

extern const tcp_target_info_t tcp_targets[TCP_TGT_COUNT];

/* By name ("sm_103a"; "sm_103" and "103" are accepted too); NULL when unknown. */
const tcp_target_info_t *tcp_target_find(const char *name);
/* By compute capability (103); NULL when no target has it. */
const tcp_target_info_t *tcp_target_by_cc(int cc);

/* "sm_90a, sm_100a" for a mask of TCP_TGT_BIT()s, into buf (", " separated). */
const char *tcp_target_list(unsigned mask, char *buf, size_t len);
/* Mask of the names in a space/comma separated list; unknown names are ignored. */
unsigned tcp_target_mask_parse(const char *list);

/*
 * tcp_mma_legal_on()
 *	1 when the (model-legal) tcgen05 MMA c exists on target t; 0 with the
 *	reason ("kind::i8 does not exist on sm_103a (B300, GB300)").  K = 96 is
 *	legal only here, on a target with TCP_FEAT_TC_K96 (tcp_mma_legal()
 *	rejects it target-free).
 */
int tcp_mma_legal_on(const tcp_mma_cfg_t *c, const tcp_target_info_t *t, char *reason, size_t len);

/* 1 when target t has every feature in `need`; else 0 with "<what> does not exist on <t>". */
int tcp_target_has(const tcp_target_info_t *t, unsigned need, const char *what, char *reason,
		   size_t len);

#ifdef __cplusplus
}
#endif
#endif /* TCP_MODEL_ARCH_H */
