/*
 * warp-mma.c
 *	The warp-level MMA form table and its per-target legality (model/warp-mma.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/warp-mma.h"

#define NOSF TCP_T_COUNT

/* name, kind, A=B type, accumulator, sparse, scale type, scale block, needs, PTX ISA */
static const tcp_warp_form_t forms[TCP_WF_COUNT] = {
	[TCP_WF_F16_F32] = { "f16.f32", TCP_KIND_F16, TCP_T_F16, TCP_T_F32, 0, NOSF, 0, TCP_WREQ_SM80, 70 },
	[TCP_WF_F16_F16] = { "f16.f16", TCP_KIND_F16, TCP_T_F16, TCP_T_F16, 0, NOSF, 0, TCP_WREQ_SM80, 70 },
	[TCP_WF_BF16_F32] = { "bf16.f32", TCP_KIND_F16, TCP_T_BF16, TCP_T_F32, 0, NOSF, 0, TCP_WREQ_SM80, 70 },
	[TCP_WF_TF32_F32] = { "tf32.f32", TCP_KIND_TF32, TCP_T_TF32, TCP_T_F32, 0, NOSF, 0, TCP_WREQ_SM80, 70 },
	[TCP_WF_S8_S32] = { "s8.s32", TCP_KIND_I8, TCP_T_S8, TCP_T_S32, 0, NOSF, 0, TCP_WREQ_SM80, 70 },
	[TCP_WF_U8_S32] = { "u8.s32", TCP_KIND_I8, TCP_T_U8, TCP_T_S32, 0, NOSF, 0, TCP_WREQ_SM80, 70 },
	[TCP_WF_E4M3_F32] = { "e4m3.f32", TCP_KIND_F8F6F4, TCP_T_E4M3, TCP_T_F32, 0, NOSF, 0, TCP_WREQ_SM89, 84 },
	[TCP_WF_E4M3_F16] = { "e4m3.f16", TCP_KIND_F8F6F4, TCP_T_E4M3, TCP_T_F16, 0, NOSF, 0, TCP_WREQ_SM89, 87 },
	[TCP_WF_E5M2_F32] = { "e5m2.f32", TCP_KIND_F8F6F4, TCP_T_E5M2, TCP_T_F32, 0, NOSF, 0, TCP_WREQ_SM89, 84 },
	[TCP_WF_E5M2_F16] = { "e5m2.f16", TCP_KIND_F8F6F4, TCP_T_E5M2, TCP_T_F16, 0, NOSF, 0, TCP_WREQ_SM89, 87 },
	[TCP_WF_E2M1_F32] = { "e2m1.f32", TCP_KIND_F8F6F4, TCP_T_E2M1, TCP_T_F32, 0, NOSF, 0, TCP_WREQ_SM12X, 87 },
	[TCP_WF_E2M3_F32] = { "e2m3.f32", TCP_KIND_F8F6F4, TCP_T_E2M3, TCP_T_F32, 0, NOSF, 0, TCP_WREQ_SM12X, 87 },
	[TCP_WF_E3M2_F32] = { "e3m2.f32", TCP_KIND_F8F6F4, TCP_T_E3M2, TCP_T_F32, 0, NOSF, 0, TCP_WREQ_SM12X, 87 },
	[TCP_WF_MX_E4M3] = { "mxf8f6f4.e4m3", TCP_KIND_MXF8F6F4, TCP_T_E4M3, TCP_T_F32, 0, TCP_T_UE8M0, 32, TCP_WREQ_SM12X, 87 },
	[TCP_WF_MX_E5M2] = { "mxf8f6f4.e5m2", TCP_KIND_MXF8F6F4, TCP_T_E5M2, TCP_T_F32, 0, TCP_T_UE8M0, 32, TCP_WREQ_SM12X, 87 },
	[TCP_WF_MX_E2M3] = { "mxf8f6f4.e2m3", TCP_KIND_MXF8F6F4, TCP_T_E2M3, TCP_T_F32, 0, TCP_T_UE8M0, 32, TCP_WREQ_SM12X, 87 },
	[TCP_WF_MX_E3M2] = { "mxf8f6f4.e3m2", TCP_KIND_MXF8F6F4, TCP_T_E3M2, TCP_T_F32, 0, TCP_T_UE8M0, 32, TCP_WREQ_SM12X, 87 },
	[TCP_WF_MX_E2M1] = { "mxf8f6f4.e2m1", TCP_KIND_MXF8F6F4, TCP_T_E2M1, TCP_T_F32, 0, TCP_T_UE8M0, 32, TCP_WREQ_SM12X, 87 },
	[TCP_WF_MXF4] = { "mxf4", TCP_KIND_MXF4, TCP_T_E2M1, TCP_T_F32, 0, TCP_T_UE8M0, 32, TCP_WREQ_SM12X, 87 },
	[TCP_WF_NVF4_2X] = { "mxf4nvf4.ue8m0", TCP_KIND_MXF4NVF4, TCP_T_E2M1, TCP_T_F32, 0, TCP_T_UE8M0, 32, TCP_WREQ_SM12X, 87 },
	[TCP_WF_NVF4_4X] = { "mxf4nvf4.ue4m3", TCP_KIND_MXF4NVF4, TCP_T_E2M1, TCP_T_F32, 0, TCP_T_UE4M3, 16, TCP_WREQ_SM12X, 87 },
	[TCP_WF_SP_F16] = { "sp.f16.f32", TCP_KIND_F16, TCP_T_F16, TCP_T_F32, 1, NOSF, 0, TCP_WREQ_SM80, 85 },
	[TCP_WF_SP_BF16] = { "sp.bf16.f32", TCP_KIND_F16, TCP_T_BF16, TCP_T_F32, 1, NOSF, 0, TCP_WREQ_SM80, 85 },
	[TCP_WF_SP_TF32] = { "sp.tf32.f32", TCP_KIND_TF32, TCP_T_TF32, TCP_T_F32, 1, NOSF, 0, TCP_WREQ_SM80, 85 },
	[TCP_WF_SP_S8] = { "sp.s8.s32", TCP_KIND_I8, TCP_T_S8, TCP_T_S32, 1, NOSF, 0, TCP_WREQ_SM80, 85 },
	[TCP_WF_SP_E4M3] = { "sp.e4m3.f32", TCP_KIND_F8F6F4, TCP_T_E4M3, TCP_T_F32, 1, NOSF, 0, TCP_WREQ_SP_FP8, 85 },
	[TCP_WF_SP_MX_E4M3] = { "sp.mxf8f6f4.e4m3", TCP_KIND_MXF8F6F4, TCP_T_E4M3, TCP_T_F32, 1, TCP_T_UE8M0, 64, TCP_WREQ_SM12X, 87 },
	[TCP_WF_SP_NVF4] = { "sp.mxf4nvf4.ue4m3", TCP_KIND_MXF4NVF4, TCP_T_E2M1, TCP_T_F32, 1, TCP_T_UE4M3, 32, TCP_WREQ_SM12XA, 87 },
};

const tcp_warp_form_t *tcp_warp_form(int id)
{
	return id >= 0 && id < TCP_WF_COUNT ? &forms[id] : NULL;
}

int tcp_warp_form_find(tcp_kind_t kind, tcp_type_t ab, tcp_type_t acc, int sparse, tcp_type_t sf)
{
	for (int i = 0; i < TCP_WF_COUNT; i++)
		if (forms[i].kind == kind && forms[i].ab == ab && forms[i].acc == acc &&
		    forms[i].sparse == !!sparse && forms[i].sf == sf)
			return i;
	return -1;
}

/* Dense PTX K per kind (kinds.h), doubled for sparse forms. */
int tcp_warp_k(int id)
{
	const tcp_warp_form_t *f = tcp_warp_form(id);

	return f ? tcp_kind_k(f->kind) * (f->sparse ? 2 : 1) : 0;
}

int tcp_warp_elem_bits(int id)
{
	const tcp_warp_form_t *f = tcp_warp_form(id);

	if (!f)
		return 0;
	if (f->kind == TCP_KIND_MXF4 || f->kind == TCP_KIND_MXF4NVF4)
		return 4;
	return tcp_type_bits(f->ab) >= 16 ? tcp_type_bits(f->ab) : 8;
}

int tcp_warp_b_regs(int id)
{
	const tcp_warp_form_t *f = tcp_warp_form(id);

	return f ? (f->sparse ? 4 : 2) : 0;
}

int tcp_warp_d_regs(int id)
{
	const tcp_warp_form_t *f = tcp_warp_form(id);

	return f ? (f->acc == TCP_T_F16 ? 2 : 4) : 0;
}

double tcp_warp_flop(int id)
{
	return 2.0 * TCP_WARP_M * TCP_WARP_N * tcp_warp_k(id);
}

int tcp_warp_meta_unit_bytes(int id)
{
	const tcp_warp_form_t *f = tcp_warp_form(id);

	if (!f || !f->sparse)
		return 0;
	return tcp_warp_elem_bits(id) >= 16 ? 2 : 1;
}

int tcp_warp_meta_loc(int id, int lane, int nib, int *row, int *chunk)
{
	int unit = tcp_warp_meta_unit_bytes(id), g = lane / 4, c = lane % 4;

	if (!unit || lane < 0 || lane >= 32 || nib < 0 || nib > 7)
		return 0;
	if (unit == 2) {	/* 8 chunks a row, lanes 4g, 4g+1: half h = row g + 8 h */
		if (c > 1)
			return 0;
		*row = g + 8 * (nib >> 2);
		*chunk = 4 * c + (nib & 3);
		return 1;
	}
	*row = g + 8 * (c & 1);	/* 16 chunks a row, all four lanes */
	*chunk = 8 * (c >> 1) + nib;
	return 1;
}

int tcp_warp_meta_nibble_legal(int id, unsigned nibble)
{
	const tcp_warp_form_t *f = tcp_warp_form(id);
	unsigned i0 = nibble & 3, i1 = (nibble >> 2) & 3;

	if (!f || !f->sparse || nibble > 15)
		return 0;
	/* tf32 is 1:2: a chunk of 4 halves keeps one whole tf32, halves (0,1) or (2,3) */
	if (f->ab == TCP_T_TF32)
		return nibble == 0x4 || nibble == 0xE;
	return i0 < i1;
}

static const char *req_text(tcp_warp_req_t r)
{
	switch (r) {
	case TCP_WREQ_SM80: return "sm_80 or later";
	case TCP_WREQ_SM89: return "sm_89 or later";
	case TCP_WREQ_SP_FP8: return "sm_89 or sm_120/121 (emulated on sm_90a/sm_100a, not built there)";
	case TCP_WREQ_SM12X: return "sm_120a/121a (or their 'f' family)";
	case TCP_WREQ_SM12XA: return "sm_120a or sm_121a";
	}
	return "?";
}

int tcp_warp_form_legal(int id, int code_cc, int code_a, char *reason, size_t len)
{
	const tcp_warp_form_t *f = tcp_warp_form(id);
	int ok;

	if (!f) {
		snprintf(reason, len, "warp-level form %d unknown, expected 0..%d", id, TCP_WF_COUNT - 1);
		return 0;
	}
	switch (f->req) {
	case TCP_WREQ_SM80: ok = code_cc >= 80; break;
	case TCP_WREQ_SM89: ok = code_cc >= 89; break;
	case TCP_WREQ_SP_FP8: ok = code_cc == 89 || code_cc / 10 == 12; break;
	/* 'f' code (sm_120f) would do too, but tcprobe builds the 'a' targets only */
	case TCP_WREQ_SM12X: ok = code_cc / 10 == 12 && code_a; break;
	case TCP_WREQ_SM12XA: ok = (code_cc == 120 || code_cc == 121) && code_a; break;
	default: ok = 0;
	}
	if (!ok)
		snprintf(reason, len, "%s mma%s needs %s code, this code is sm_%d%s", f->name,
			 f->sparse ? ".sp" : ".sync", req_text(f->req), code_cc, code_a ? "a" : "");
	return ok;
}

int tcp_warp_target_parse(const char *s, int *cc, int *a)
{
	char *end;
	long v;

	if (!s)
		return -1;
	if (!strncmp(s, "sm_", 3))
		s += 3;
	v = strtol(s, &end, 10);
	if (end == s || v < 10 || v > 999)
		return -1;
	*a = 0;
	if (*end == 'a') {
		*a = 1;
		end++;
	}
	if (*end)
		return -1;
	*cc = (int)v;
	return 0;
}

const char *tcp_warp_form_names(void)
{
	static char buf[640];

	if (!buf[0])
		for (int i = 0; i < TCP_WF_COUNT; i++)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", i ? ", " : "",
				 forms[i].name);
	return buf;
}
