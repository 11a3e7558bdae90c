/*
 * published-b300.h
 *	B300 / GB300 (sm_103a) dense peak used by the K/4 table and plots
 *	(tcprobe k4, k4-identity, acc-bandwidth), an ESTIMATE and marked one
 *	(no per-SM figure is published; this one is derived from a published
 *	ratio): NVIDIA, "Inside NVIDIA Blackwell Ultra: The Chip Powering the AI Factory
 *	Era" (technical blog, 2025): 15 PFLOPS dense NVFP4 per GPU, 1.5x
 *	Blackwell's 10 (Hot Chips 2025).  Per SM per clock: 1.5 x B200's
 *	published 32768 for mxf4nvf4 (model/kinds.h) = 49152, which is B200's
 *	148 SMs at the ~2.06 GHz its own 10 PFLOPS implies; reached only by the
 *	K = 96 form (96 / 64 = 1.5 at the same issue rate).  docs/b200-predictions.md
 *	"B300 / GB300" has the caveats (the product's SM count and clock are
 *	not in the source).
 */
#ifndef TCP_MODEL_PUBLISHED_B300_H
#define TCP_MODEL_PUBLISHED_B300_H

#include "model/kinds.h"

#define TCP_B300_K96_MMA_K 96

static inline double tcp_b300_k96_flop_clk_sm(void)
{
	return 1.5 * tcp_kind_flop_clk_sm(TCP_KIND_MXF4NVF4, TCP_GEN_SM100);
}

#define TCP_B300_SOURCE "NVIDIA 'Inside NVIDIA Blackwell Ultra' (2025): 15 PFLOPS dense NVFP4 = 1.5 x B200's 10"

#endif /* TCP_MODEL_PUBLISHED_B300_H */
