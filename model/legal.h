/*
 * legal.h
 *	What tcgen05.mma accepts, as data (one rule row per kind and cta_group)
 *	and as a check with a precise reason.  Source: PTX ISA tcgen05 "Kinds
 *	and shapes" / "Valid combinations of type-size, matrix shapes"
 *	tables, transpose-and-negate section, block-scaling section;
 *	tcgen05-facts.md s.1, s.3.
 */
#ifndef TCP_MODEL_LEGAL_H
#define TCP_MODEL_LEGAL_H

#include "model/idesc.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * [?] kind::i8, cta_group::1, N = 24: the PTX shape table lists it, CUTLASS
 * rejects it.  We follow PTX (1); a probe at N = 24 is what settles it.
 */
#define TCP_LEGAL_I8_N24	1

/* One MMA as a user or a probe asks for it. */
typedef struct {
	tcp_kind_t kind;
	int cta_group;		/* 1 or 2 */
	unsigned m, n;
	unsigned k;		/* 0 = the kind's PTX K (doubled when sparse); 96: mxf4nvf4 K = 96 (sm_103a) */
	tcp_type_t a, b, d;
	unsigned a_major, b_major;	/* 0 K-major, 1 MN-major */
	unsigned neg_a, neg_b, saturate;
	unsigned sparse;
	unsigned ws;		/* tcgen05.mma.ws */
	unsigned a_tmem;	/* A operand in TMEM */
	unsigned scale_vec;	/* block-scaled: 1, 2 or 4 (scale_vec::1X/2X/4X); 0 = the kind's default */
	tcp_type_t sf;		/* block-scaled: ue8m0 / ue4m3 */
	unsigned scale_d;	/* the scale-input-d immediate (kind::f16/tf32; not on sm_110a) */
} tcp_mma_cfg_t;

/* The shape/type rules of one (kind, cta_group), as data. */
typedef struct {
	tcp_kind_t kind;
	int cta_group;
	unsigned m[3];		/* legal M, 0-terminated */
	unsigned n_min, n_max, n_step;
	unsigned k;		/* dense PTX K */
	uint32_t ab_types;	/* bit t: tcp_type_t t is a legal A/B type */
	uint32_t d_types;	/* bit t: legal D type */
	uint32_t sf_types;	/* bit t: legal scale-factor type (block-scaled) */
	unsigned scale_vecs;	/* bit v: scale_vec::vX legal (v = 1, 2, 4) */
	unsigned mn_major;	/* MN-major allowed at all */
	unsigned negate;	/* negate allowed */
} tcp_mma_rule_t;

/* .ws: cta_group::1 only, kinds f16/tf32/f8f6f4/i8, M 32/64/128, N 64/128/256. */
#define TCP_WS_M_MASK	((1u << 5) | (1u << 6) | (1u << 7))	/* bit log2(M) */

extern const tcp_mma_rule_t tcp_mma_rules[];
extern const int tcp_nmma_rules;
const tcp_mma_rule_t *tcp_mma_rule(tcp_kind_t kind, int cta_group);

/* The default (PTX) scale_vec of a block-scaled kind: mxf8f6f4 1, mxf4 2, mxf4nvf4 2 (ue4m3: 4). */
unsigned tcp_mma_default_scale_vec(const tcp_mma_cfg_t *c);
/* Elements of K that share one scale factor: 32 for 1X/2X, 16 for 4X. */
unsigned tcp_mma_scale_block(const tcp_mma_cfg_t *c);
/* The K of this MMA (kind K, doubled when sparse; 96 for a K = 96 mxf4nvf4 MMA). */
unsigned tcp_mma_k(const tcp_mma_cfg_t *c);
/* 1 for the sm_103a K = 96 form (kind::mxf4nvf4, dense, k = 96): idesc bit 31. */
int tcp_mma_k96(const tcp_mma_cfg_t *c);

/*
 * tcp_mma_legal()
 *	1 when the MMA is legal; 0 with a one-line reason in `reason`
 *	("kind::i8 with cta_group::2 needs N a multiple of 32; got 48").
 */
int tcp_mma_legal(const tcp_mma_cfg_t *c, char *reason, size_t len);

/* Fill an instruction descriptor from a (legal) configuration. */
void tcp_mma_to_idesc(const tcp_mma_cfg_t *c, tcp_idesc_t *d);

/* A legal default configuration of a kind (f32/s32 accumulator, K-major, 128 x 128, cta_group::1). */
void tcp_mma_cfg_default(tcp_kind_t kind, tcp_mma_cfg_t *c);

#ifdef __cplusplus
}
#endif
#endif /* TCP_MODEL_LEGAL_H */
