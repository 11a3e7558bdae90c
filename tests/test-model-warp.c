/*
 * test-model-warp.c
 *	model/warp-mma.h and model/peaks.h: the fragment, accumulator and
 *	block-scale lane functions against CUTLASS's CuTe layouts (transcribed
 *	below from cute/atom/mma_traits_sm80.hpp and mma_traits_sm120*.hpp of
 *	NVIDIA/cutlass 7107b05), the per-target legality against the ptxas
 *	matrix (shared docs arch-matrix.md rows 15-19), and the peaks table
 *	against the TFLOP/s figures it cites.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "model/peaks.h"
#include "model/warp-mma.h"
#include "cute-layouts.h"

/* A: every (lane, value) of the CuTe layout lands where tcp_warp_a_byte() says. */
static void check_a(const struct cute_layout *L, int bits)
{
	for (int t = 0; t < 32; t++)
		for (int v = 0; v < L->nval; v++) {
			int m, k, row, kb;
			cute_mk(L, t, v, &m, &k);
			int vb = v * bits;	/* bit offset of value v in the lane's registers */
			tcp_warp_a_byte(t, vb / 32, (vb % 32) / 8, &row, &kb);
			assert_int_equal(row, m);
			assert_int_equal(kb * 8 / bits + (bits == 4 ? (vb / 4) % 2 : 0), k);
		}
}

static void check_b(const struct cute_layout *L, int bits)
{
	for (int t = 0; t < 32; t++)
		for (int v = 0; v < L->nval; v++) {
			int n, k, col, kb;
			cute_mk(L, t, v, &n, &k);
			int vb = v * bits;
			tcp_warp_b_byte(t, vb / 32, (vb % 32) / 8, &col, &kb);
			assert_int_equal(col, n);
			assert_int_equal(kb * 8 / bits + (bits == 4 ? (vb / 4) % 2 : 0), k);
		}
}

static void test_fragments_vs_cutlass(void **st)
{
	(void)st;
	check_a(&cute_a_f16_k16, 16);
	check_b(&cute_b_f16_k16, 16);
	check_a(&cute_a_tf32_k8, 32);
	check_b(&cute_b_tf32_k8, 32);
	check_a(&cute_a_s8_k32, 8);
	check_b(&cute_b_s8_k32, 8);
	check_a(&cute_a_fp4_k64, 4);
	check_b(&cute_b_fp4_k64, 4);
	check_b(&cute_b_sp_f16_k32, 16);
	check_b(&cute_b_sp_tf32_k16, 32);
	check_b(&cute_b_sp_8bit_k64, 8);
	check_b(&cute_b_sp_fp4_k128, 4);
	/* accumulators: SM80_16x8_Row, element e of the lane (f16: half e&1 of reg e>>1) */
	for (int t = 0; t < 32; t++)
		for (int e = 0; e < 4; e++) {
			int m, n, row, col;
			cute_mk(&cute_c_16x8, t, e, &m, &n);
			tcp_warp_d_elem(t, e, &row, &col);
			assert_int_equal(row, m);
			assert_int_equal(col, n);
		}
}

/* Scale lanes: SFA/SFB of the 16x8x32 and 16x8x64 atoms, and the byte = K block rule. */
static void check_sf(const struct cute_layout *L, int vs, int is_b)
{
	for (int t = 0; t < 32; t++)
		for (int v = 0; v < L->nval; v++) {
			int mn, k;
			cute_mk(L, t, v, &mn, &k);
			assert_int_equal(is_b ? tcp_warp_sfb_col(t) : tcp_warp_sfa_row(t), mn);
			assert_true(k / vs < 4);	/* byte k / vs of the 32-bit register */
		}
}

static void test_scales_vs_cutlass(void **st)
{
	(void)st;
	check_sf(&cute_sfa_k32, 32, 0);
	check_sf(&cute_sfb_k32, 32, 1);
	check_sf(&cute_sfa_k64, 32, 0);
	check_sf(&cute_sfa_k64, 16, 0);
	check_sf(&cute_sfb_k64, 16, 1);
	check_sf(&cute_sfa_k128, 32, 0);
	check_sf(&cute_sfb_k128, 32, 1);
	/* every row has a lane that supplies it, every column too */
	int rows = 0, cols = 0;
	for (int t = 0; t < 32; t++) {
		rows |= 1 << tcp_warp_sfa_row(t);
		cols |= 1 << tcp_warp_sfb_col(t);
	}
	assert_int_equal(rows, 0xFFFF);
	assert_int_equal(cols, 0xFF);
}

struct lc {
	int form;
	const char *target;
	int legal;
};

/* arch-matrix.md rows 15-18 (ptxas 13.0), one line per cell checked. */
static const struct lc lcases[] = {
	{ TCP_WF_F16_F32, "sm_80", 1 }, { TCP_WF_BF16_F32, "sm_86", 1 }, { TCP_WF_TF32_F32, "sm_121a", 1 },
	{ TCP_WF_S8_S32, "sm_100a", 1 }, { TCP_WF_SP_F16, "sm_80", 1 }, { TCP_WF_SP_S8, "sm_90a", 1 },
	{ TCP_WF_E4M3_F32, "sm_86", 0 }, { TCP_WF_E4M3_F32, "sm_89", 1 }, { TCP_WF_E4M3_F16, "sm_90a", 1 },
	{ TCP_WF_E5M2_F16, "sm_80", 0 }, { TCP_WF_SP_E4M3, "sm_86", 0 }, { TCP_WF_SP_E4M3, "sm_89", 1 }, { TCP_WF_SP_E4M3, "sm_90a", 0 }, { TCP_WF_SP_E4M3, "sm_100a", 0 }, { TCP_WF_SP_E4M3, "sm_120a", 1 },
	{ TCP_WF_E2M1_F32, "sm_100a", 0 }, { TCP_WF_E2M1_F32, "sm_90a", 0 }, { TCP_WF_E2M1_F32, "sm_120a", 1 },
	{ TCP_WF_E3M2_F32, "sm_121a", 1 }, { TCP_WF_E3M2_F32, "sm_120", 0 }, { TCP_WF_MX_E4M3, "sm_103a", 0 },
	{ TCP_WF_MX_E2M1, "sm_120a", 1 }, { TCP_WF_MXF4, "sm_121a", 1 }, { TCP_WF_NVF4_4X, "sm_110a", 0 },
	{ TCP_WF_NVF4_4X, "sm_120a", 1 }, { TCP_WF_SP_MX_E4M3, "sm_120a", 1 }, { TCP_WF_SP_MX_E4M3, "sm_90a", 0 },
	{ TCP_WF_SP_NVF4, "sm_121a", 1 }, { TCP_WF_SP_NVF4, "sm_121", 0 }, { TCP_WF_SP_NVF4, "sm_100a", 0 },
};

static void test_legality(void **st)
{
	char why[200];

	(void)st;
	for (size_t i = 0; i < sizeof(lcases) / sizeof(lcases[0]); i++) {
		int cc, a;
		assert_int_equal(tcp_warp_target_parse(lcases[i].target, &cc, &a), 0);
		why[0] = '\0';
		int got = tcp_warp_form_legal(lcases[i].form, cc, a, why, sizeof(why));
		if (got != lcases[i].legal)
			fail_msg("%s on %s: got %d, expected %d (%s)", tcp_warp_form(lcases[i].form)->name,
				 lcases[i].target, got, lcases[i].legal, why);
		if (!got)
			assert_non_null(strstr(why, "needs sm_"));
	}
	assert_int_equal(tcp_warp_form_legal(TCP_WF_E4M3_F32, 80, 0, why, sizeof(why)), 0);
	assert_string_equal(why, "e4m3.f32 mma.sync needs sm_89 or later code, this code is sm_80");
	int cc, a;
	assert_int_equal(tcp_warp_target_parse("sm_9x", &cc, &a), -1);
	assert_int_equal(tcp_warp_target_parse("120a", &cc, &a), 0);
	assert_int_equal(cc * 10 + a, 1201);
}

static void test_forms(void **st)
{
	(void)st;
	for (int f = 0; f < TCP_WF_COUNT; f++) {
		const tcp_warp_form_t *w = tcp_warp_form(f);
		int k = tcp_warp_k(f), bits = tcp_warp_elem_bits(f);
		/* 32 bytes of K per row of A (compressed when sparse), 32/64 per column of B */
		assert_int_equal((w->sparse ? k / 2 : k) * bits / 8, 32);
		assert_int_equal(tcp_warp_b_regs(f) * 4 * 32, 8 * k * bits / 8);
		assert_int_equal(tcp_warp_form_find(w->kind, w->ab, w->acc, w->sparse, w->sf), f);
		if (w->sf_block)
			assert_true(k / w->sf_block == 1 || k / w->sf_block == 2 || k / w->sf_block == 4 ||
				    k / w->sf_block == 8);
	}
	assert_int_equal(tcp_warp_k(TCP_WF_SP_NVF4), 128);
	assert_int_equal(tcp_warp_k(TCP_WF_TF32_F32), 8);
	assert_true(tcp_warp_flop(TCP_WF_F16_F32) == 4096.0);
	assert_int_equal(tcp_warp_d_regs(TCP_WF_E4M3_F16), 2);
	assert_int_equal(tcp_warp_form_find(TCP_KIND_MXF4NVF4, TCP_T_E2M1, TCP_T_F32, 0, TCP_T_UE4M3), TCP_WF_NVF4_4X);
	assert_int_equal(tcp_warp_form_find(TCP_KIND_MXF4, TCP_T_E2M1, TCP_T_F32, 0, TCP_T_UE4M3), -1);
	/* ordered metadata: i0 < i1; tf32 only the two whole-element codes */
	assert_true(tcp_warp_meta_nibble_legal(TCP_WF_SP_F16, 0x4));
	assert_false(tcp_warp_meta_nibble_legal(TCP_WF_SP_F16, 0x1));
	assert_false(tcp_warp_meta_nibble_legal(TCP_WF_SP_F16, 0x5));
	assert_true(tcp_warp_meta_nibble_legal(TCP_WF_SP_TF32, 0xE));
	assert_false(tcp_warp_meta_nibble_legal(TCP_WF_SP_TF32, 0x8));
	assert_int_equal(tcp_warp_meta_unit_bytes(TCP_WF_SP_TF32), 2);
	assert_int_equal(tcp_warp_meta_unit_bytes(TCP_WF_SP_NVF4), 1);

	/* metadata lanes, hand-worked from the PTX sparse m16n8k32 .f16/.bf16 and
	 * m16n8k64 8-bit metadata figures (selector 0) and CUTLASS reorder_meta:
	 * f16: T0 bits 15:0 = row 0 cols 0..15, bits 31:16 = row 8 cols 0..15, T1 the
	 * same for cols 16..31, T2/T3 unread; s8: T0 row 0 cols 0..31, T1 row 8
	 * cols 0..31, T2 row 0 cols 32..63, T3 row 8 cols 32..63. */
	int row, chunk;
	assert_true(tcp_warp_meta_loc(TCP_WF_SP_F16, 0, 2, &row, &chunk));
	assert_int_equal(row, 0), assert_int_equal(chunk, 2);		/* cols 8..11 */
	assert_true(tcp_warp_meta_loc(TCP_WF_SP_F16, 1, 5, &row, &chunk));
	assert_int_equal(row, 8), assert_int_equal(chunk, 5);		/* cols 20..23 */
	assert_true(tcp_warp_meta_loc(TCP_WF_SP_BF16, 21, 3, &row, &chunk));
	assert_int_equal(row, 5), assert_int_equal(chunk, 7);		/* lane 4*5+1 */
	assert_true(tcp_warp_meta_loc(TCP_WF_SP_TF32, 1, 4, &row, &chunk));
	assert_int_equal(row, 8), assert_int_equal(chunk, 4);		/* tf32 cols 8, 9 */
	assert_false(tcp_warp_meta_loc(TCP_WF_SP_F16, 2, 0, &row, &chunk));
	assert_false(tcp_warp_meta_loc(TCP_WF_SP_TF32, 31, 0, &row, &chunk));
	assert_true(tcp_warp_meta_loc(TCP_WF_SP_S8, 1, 0, &row, &chunk));
	assert_int_equal(row, 8), assert_int_equal(chunk, 0);
	assert_true(tcp_warp_meta_loc(TCP_WF_SP_S8, 2, 7, &row, &chunk));
	assert_int_equal(row, 0), assert_int_equal(chunk, 15);		/* cols 60..63 */
	assert_true(tcp_warp_meta_loc(TCP_WF_SP_S8, 31, 3, &row, &chunk));
	assert_int_equal(row, 15), assert_int_equal(chunk, 11);
	assert_false(tcp_warp_meta_loc(TCP_WF_F16_F32, 0, 0, &row, &chunk));
}

static void test_peaks(void **st)
{
	char why[200];

	(void)st;
	for (int i = 0; i < tcp_npeak_chips; i++) {
		const tcp_peak_chip_t *c = &tcp_peak_chips[i];
		double r = c->rate[c->check];
		if (c->tflops <= 0)
			continue;
		assert_true(c->mhz > 0 && r > 0);
		double implied = r * c->sms * c->mhz * 1e6 / 1e12;
		if (fabs(implied - c->tflops) / c->tflops > 0.02)
			fail_msg("%s: %g FLOP/clk/SM x %d SMs x %g MHz = %g TFLOP/s, the source says %g", c->name, r,
				 c->sms, c->mhz, implied, c->tflops);
		for (int j = 0; j < i; j++)	/* keys are unique */
			assert_true(!c->pci_device_id || c->pci_device_id != tcp_peak_chips[j].pci_device_id);
	}
	/* L40 and L40S share CC and SM count and differ 2x */
	const tcp_peak_chip_t *l40 = tcp_peak_find(0, "NVIDIA L40"), *l40s = tcp_peak_find(0x26B9, NULL);
	assert_non_null(l40);
	assert_non_null(l40s);
	assert_int_equal(l40->cc, l40s->cc);
	assert_int_equal(l40->sms, l40s->sms);
	assert_true(l40s->rate[TCP_PK_F16_F32] == 2 * l40->rate[TCP_PK_F16_F32]);
	/* the H200 peak mma_sync always used: the wgmma rate of model/kinds.h */
	const tcp_peak_chip_t *h200 = tcp_peak_find(0x2335, "whatever");
	assert_string_equal(h200->name, "NVIDIA H200");
	assert_true(tcp_peak_rate(h200, TCP_PK_F16_F32, why, sizeof(why)) ==
		    tcp_kind_flop_clk_sm(TCP_KIND_F16, TCP_GEN_SM90));
	assert_true(tcp_peak_rate(h200, TCP_PK_I8, why, sizeof(why)) == tcp_kind_flop_clk_sm(TCP_KIND_I8, TCP_GEN_SM90));
	/* GeForce: f32 accumulate at half rate */
	const tcp_peak_chip_t *g = tcp_peak_find(0, "NVIDIA GeForce RTX 4090");
	assert_true(g->rate[TCP_PK_F16_F32] * 2 == g->rate[TCP_PK_F16_F16]);
	/* unknown chip, unknown figure, absent operation: NaN and a reason */
	assert_null(tcp_peak_find(0x1234, "NVIDIA Imaginary"));
	assert_true(isnan(tcp_peak_rate(NULL, TCP_PK_F16_F32, why, sizeof(why))));
	assert_non_null(strstr(why, "not in the peaks table"));
	assert_true(isnan(tcp_peak_rate(l40, TCP_PK_F16_F16, why, sizeof(why))));
	assert_string_equal(why, "NVIDIA L40: no published f16.f16 peak");
	assert_true(isnan(tcp_peak_rate(h200, TCP_PK_F4, why, sizeof(why))));
	assert_non_null(strstr(why, "has no fp4"));
	assert_int_equal(tcp_peak_class(TCP_KIND_MXF4NVF4, TCP_T_E2M1, TCP_T_F32), TCP_PK_F4);
	assert_int_equal(tcp_peak_class(TCP_KIND_F8F6F4, TCP_T_E4M3, TCP_T_F16), TCP_PK_F8_F16);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fragments_vs_cutlass),
		cmocka_unit_test(test_scales_vs_cutlass),
		cmocka_unit_test(test_legality),
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_peaks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
