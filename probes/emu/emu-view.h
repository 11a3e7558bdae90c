/*
 * emu-view.h
 *	What the tcgen05 emulation (make EMULATE=1, the Hopper build of the
 *	tcgen05 probes) shares between its decoders, its executors and their
 *	CPU tests: the memory an emulated instruction sees, the element
 *	formats and kinds by the PTX ISA's names, and the fault an executor
 *	reports.  Plain C (TCP_HD): the same code runs in a kernel and in a
 *	cmocka test.
 *
 *	The emulation decodes every descriptor and address from its bits as
 *	the PTX ISA defines them and never calls model/: a decoder that shared
 *	the model's code would agree with it by construction.
 */
#ifndef TCP_EMU_VIEW_H
#define TCP_EMU_VIEW_H

#include <stdint.h>

#include "model/hd.h"

/* TMEM of one SM: 128 lanes x 512 columns of 32 bits (PTX tensor-memory chapter). */
#define TCP_EMU_LANES 128u
#define TCP_EMU_COLS 512u

/* .kind of tcgen05.mma, numbered as the probes' KIND template parameter
 * (probes/common/tcgen05.cuh tcp_tc_mma). */
enum {
	TCP_EMU_KIND_F16 = 0,
	TCP_EMU_KIND_TF32 = 1,
	TCP_EMU_KIND_F8F6F4 = 2,
	TCP_EMU_KIND_I8 = 3,
	TCP_EMU_KIND_MXF8F6F4 = 4,
	TCP_EMU_KIND_MXF4 = 5,
	TCP_EMU_KIND_MXF4NVF4 = 6,
	TCP_EMU_NKINDS
};

/* Element formats of A, B, D and of the scale factors (PTX ISA names). */
enum {
	TCP_EMU_FMT_F16 = 0,
	TCP_EMU_FMT_BF16,
	TCP_EMU_FMT_TF32,
	TCP_EMU_FMT_E4M3,
	TCP_EMU_FMT_E5M2,
	TCP_EMU_FMT_E2M3,
	TCP_EMU_FMT_E3M2,
	TCP_EMU_FMT_E2M1,
	TCP_EMU_FMT_U8,
	TCP_EMU_FMT_S8,
	TCP_EMU_FMT_F32,
	TCP_EMU_FMT_S32,
	TCP_EMU_FMT_UE8M0,
	TCP_EMU_FMT_UE4M3,
	TCP_EMU_NFMTS
};

/*
 * The memory one emulated instruction sees.  For a cta_group::2 operation
 * index 1 is the peer CTA of the pair (cluster rank ^ 1 of the issuer is
 * not assumed: [r] is cluster rank r & 1); for cta_group::1 only [0] is
 * set and it is the issuing CTA.
 *	smem[r]	generic pointer to shared-window address 0 of that CTA (a
 *		descriptor's start address is added to it; on the device the
 *		peer's pointer comes from DSMEM mapping)
 *	tmem[r]	that CTA's SM's emulated TMEM: word [lane * 512 + col]
 *	smem_bytes[r]	bytes of shared window that CTA owns (static + dynamic):
 *		an operand byte at or above it is TCP_EMU_BAD_SMEM
 *	rank	cluster rank of the issuing CTA (0 for cta_group::1)
 */
typedef struct {
	uint8_t *smem[2];
	uint32_t *tmem[2];
	uint32_t smem_bytes[2];
	unsigned rank;
} tcp_emu_view_t;

/* What an executor found wrong with an instruction's operands (0 = none):
 * the emulator turns it into a FAILED row naming it. */
enum {
	TCP_EMU_OK = 0,
	TCP_EMU_BAD_IDESC,	/* instruction descriptor field illegal for the .kind / cta_group */
	TCP_EMU_BAD_SDESC,	/* shared-memory descriptor field illegal */
	TCP_EMU_BAD_TADDR,	/* TMEM address outside 128 x 512, or misaligned for the form */
	TCP_EMU_BAD_SMEM,	/* an operand byte outside the CTA's shared memory */
	TCP_EMU_BAD_FORM,	/* a form this emulation does not implement (named in the reason) */
	TCP_EMU_NFAULTS
};

#endif /* TCP_EMU_VIEW_H */
