/*
 * emu-model-map.h
 *	What the emulation's CPU tests share: the emulator's format code of a
 *	model/ element type (the tests compare the two sides; the emulator
 *	itself never includes model/).
 */
#ifndef TCP_TEST_EMU_MODEL_MAP_H
#define TCP_TEST_EMU_MODEL_MAP_H

#include "model/kinds.h"
#include "probes/emu/emu-view.h"

/* Emulator format of a model type (TCP_EMU_NFMTS: none). */
static inline unsigned emu_fmt(tcp_type_t t)
{
	switch (t) {
	case TCP_T_F16: return TCP_EMU_FMT_F16;
	case TCP_T_BF16: return TCP_EMU_FMT_BF16;
	case TCP_T_TF32: return TCP_EMU_FMT_TF32;
	case TCP_T_E4M3: return TCP_EMU_FMT_E4M3;
	case TCP_T_E5M2: return TCP_EMU_FMT_E5M2;
	case TCP_T_E2M3: return TCP_EMU_FMT_E2M3;
	case TCP_T_E3M2: return TCP_EMU_FMT_E3M2;
	case TCP_T_E2M1: return TCP_EMU_FMT_E2M1;
	case TCP_T_S8: return TCP_EMU_FMT_S8;
	case TCP_T_U8: return TCP_EMU_FMT_U8;
	case TCP_T_F32: return TCP_EMU_FMT_F32;
	case TCP_T_S32: return TCP_EMU_FMT_S32;
	case TCP_T_UE8M0: return TCP_EMU_FMT_UE8M0;
	case TCP_T_UE4M3: return TCP_EMU_FMT_UE4M3;
	default: return TCP_EMU_NFMTS;
	}
}

#endif /* TCP_TEST_EMU_MODEL_MAP_H */
