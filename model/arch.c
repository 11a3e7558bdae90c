/*
 * arch.c
 *	The target table (model/arch.h) and the per-target MMA check.
 *	Feature columns: ../shared/docs/arch-matrix.md s.3 (ptxas 13.0; 12.9 /
 *	12.8 agree where they know the target), except TCP_FEAT_TC_K96, which
 *	ptxas does not check (the descriptor is a run-time operand): CUTLASS
 *	cute/arch/mma_sm100_umma.hpp SM103_MXF4_ULTRA_* and mma_sm100_desc.hpp
 *	(k_size_, bit 31: "MXF4Format ... 1 = [dense: K96, sparse: invalid]").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/arch.h"

#define MMA_SYNC_ALL	(TCP_FEAT_MMA_SYNC)
#define HOPPER_UP	(TCP_FEAT_MMA_SYNC | TCP_FEAT_MMA_SYNC_FP8 | TCP_FEAT_HOPPER_ASYNC | TCP_FEAT_SETMAXNREG)
#define TC_CORE		(HOPPER_UP | TCP_FEAT_TCGEN05 | TCP_FEAT_TMA_CG2)

const tcp_target_info_t tcp_targets[TCP_TGT_COUNT] = {
	{ TCP_TGT_SM80, "sm_80", 80, "A100, A30", "11.0", MMA_SYNC_ALL },
	{ TCP_TGT_SM86, "sm_86", 86, "RTX 30, A10, A40", "11.1", MMA_SYNC_ALL },
	{ TCP_TGT_SM89, "sm_89", 89, "L4, L40, RTX 40", "11.8", MMA_SYNC_ALL | TCP_FEAT_MMA_SYNC_FP8 },
	{ TCP_TGT_SM90A, "sm_90a", 90, "H100, H200, GH200", "12.0", HOPPER_UP | TCP_FEAT_WGMMA },
	{ TCP_TGT_SM100A, "sm_100a", 100, "B200, GB200", "12.8",
	  TC_CORE | TCP_FEAT_TC_I8 | TCP_FEAT_TC_SCALE_D },
	/* B300: no kind::i8 (ptxas: "Feature '.kind::i8' not supported on .target 'sm_103a'"),
	 * tcgen05.ld.red, K = 96 */
	{ TCP_TGT_SM103A, "sm_103a", 103, "B300, GB300", "12.9",
	  TC_CORE | TCP_FEAT_TC_SCALE_D | TCP_FEAT_TC_LD_RED | TCP_FEAT_TC_K96 },
	/* Thor (sm_101a before CUDA 13.0, identical on all 193 rows): i8, ld.red, no scale-input-d */
	{ TCP_TGT_SM110A, "sm_110a", 110, "Jetson Thor (T5000, T4000)", "13.0",
	  TC_CORE | TCP_FEAT_TC_I8 | TCP_FEAT_TC_LD_RED },
	{ TCP_TGT_SM120A, "sm_120a", 120, "RTX 50, RTX PRO 6000 Blackwell", "12.8", HOPPER_UP | TCP_FEAT_MMA_SYNC_BS },
	{ TCP_TGT_SM121A, "sm_121a", 121, "DGX Spark (GB10)", "12.9", HOPPER_UP | TCP_FEAT_MMA_SYNC_BS },
};

const tcp_target_info_t *tcp_target_find(const char *name)
{
	char want[16];

	if (!name || !*name)
		return NULL;
	/* "sm_103a", "sm_103", "103": the same target */
	if (!strncmp(name, "sm_", 3))
		name += 3;
	snprintf(want, sizeof(want), "%s", name);
	size_t n = strlen(want);
	if (n && want[n - 1] == 'a')
		want[n - 1] = '\0';
	for (const char *p = want; *p; p++)
		if (*p < '0' || *p > '9')
			return NULL;
	return *want ? tcp_target_by_cc(atoi(want)) : NULL;
}

const tcp_target_info_t *tcp_target_by_cc(int cc)
{
	for (int i = 0; i < TCP_TGT_COUNT; i++)
		if (tcp_targets[i].cc == cc)
			return &tcp_targets[i];
	return NULL;
}

const char *tcp_target_list(unsigned mask, char *buf, size_t len)
{
	size_t o = 0;

	if (len)
		buf[0] = '\0';
	for (int i = 0; i < TCP_TGT_COUNT; i++)
		if (mask & TCP_TGT_BIT(i))
			o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%s", o ? ", " : "",
					      tcp_targets[i].name);
	return buf;
}

unsigned tcp_target_mask_parse(const char *list)
{
	unsigned m = 0;
	char w[32];

	while (list && *list) {
		size_t n = strcspn(list, " ,\t");
		if (n && n < sizeof(w)) {
			memcpy(w, list, n);
			w[n] = '\0';
			const tcp_target_info_t *t = tcp_target_find(w);
			if (t)
				m |= TCP_TGT_BIT(t->id);
		}
		list += n;
		list += strspn(list, " ,\t");
	}
	return m;
}

int tcp_target_has(const tcp_target_info_t *t, unsigned need, const char *what, char *reason,
		   size_t len)
{
	if ((t->feat & need) == need)
		return 1;
	if (reason && len)
		snprintf(reason, len, "%s does not exist on %s (%s)", what, t->name, t->chips);
	return 0;
}

int tcp_mma_legal_on(const tcp_mma_cfg_t *c, const tcp_target_info_t *t, char *reason, size_t len)
{
	char what[64];

	if (!tcp_target_has(t, TCP_FEAT_TCGEN05, "tcgen05.mma", reason, len))
		return 0;
	snprintf(what, sizeof(what), "kind::%s", tcp_kind_name(c->kind));
	if (c->kind == TCP_KIND_I8 && !tcp_target_has(t, TCP_FEAT_TC_I8, what, reason, len))
		return 0;
	if (c->scale_d && !tcp_target_has(t, TCP_FEAT_TC_SCALE_D, "scale-input-d", reason, len))
		return 0;
	if (tcp_mma_k96(c) && !tcp_target_has(t, TCP_FEAT_TC_K96, "kind::mxf4nvf4 with K = 96", reason, len))
		return 0;
	return 1;
}
