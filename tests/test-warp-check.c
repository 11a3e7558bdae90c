/*
 * test-warp-check.c
 *	probes/warp/warp-check.h, the CPU side of the warp-level MMA probes.
 *	An independent emulator reads only the registers the kernel would get
 *	(A, B, metadata word, scale registers) through CUTLASS's CuTe layouts
 *	(tests/cute-layouts.h) and the PTX metadata rule, and must reproduce the
 *	reference for every form and pattern; then corrupted scale registers,
 *	swapped scale lanes, a misplaced fp4 container and a wrong metadata
 *	word must each be caught by the dump check.  Fresh seed per run.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cute-layouts.h"
#include "model/ref-interp.h"
#include "probes/warp/warp-check.h"
#include "test-util.h"

static const struct cute_layout *a_layout(int bits)
{
	return bits == 16 ? &cute_a_f16_k16 : bits == 32 ? &cute_a_tf32_k8 : bits == 8 ? &cute_a_s8_k32 : &cute_a_fp4_k64;
}

static const struct cute_layout *b_layout(int bits, int sparse)
{
	if (sparse)
		return bits == 16 ? &cute_b_sp_f16_k32 : bits == 32 ? &cute_b_sp_tf32_k16 : bits == 8 ? &cute_b_sp_8bit_k64
												   : &cute_b_sp_fp4_k128;
	return bits == 16 ? &cute_b_f16_k16 : bits == 32 ? &cute_b_tf32_k8 : bits == 8 ? &cute_b_s8_k32 : &cute_b_fp4_k64;
}

/* Bits [v*bits, v*bits + bits) of a lane's registers. */
static uint32_t reg_bits(const uint32_t *regs, int v, int bits)
{
	uint64_t w = regs[v * bits / 32];

	return bits == 32 ? (uint32_t)w : (uint32_t)(w >> (v * bits % 32)) & ((1u << bits) - 1);
}

/* Element code -> value; 8-bit containers of fp4 (bits 5:2) and fp6 (bits 5:0). */
static double value(tcp_type_t t, int bits, uint32_t raw)
{
	if (bits == 8 && t == TCP_T_E2M1)
		raw = (raw >> 2) & 0xF;
	return tcp_ref_decode(t, raw);
}

/*
 * The metadata nibble of (row m, chunk j), derived independently of the model
 * from CUTLASS tools/util/include/cutlass/util/host_reorder.h reorder_meta:
 * E elements are 16-bit (4 chunks; kMaxID2 = 2: 16-bit data) or 32-bit (8
 * chunks; 8-bit data); row m goes to row (m % 8) * interweave + (m % group) / 8,
 * then 2x2 blocks swap (Z to N), then ColumnMajorInterleaved<2> storage, and
 * lane l reads 32-bit word l of the 16-row tile (selector 0).
 */
static void cutlass_meta_at(int unit, int m, int j, int *lane, int *shift)
{
	int esz = unit == 2 ? 2 : 4, group = esz == 2 ? 32 : 16, inter = esz == 2 ? 4 : 2;
	int per = esz * 2;	/* chunks per E element */
	int r = m / group * group + (m % 8) * inter + (m % group) / 8, c = j / per;

	if (r % 2 == 0 && c % 2 == 1) {
		r++;
		c--;
	} else if (r % 2 == 1 && c % 2 == 0) {
		r--;
		c++;
	}
	int off = (c / 2) * (16 * 2) + r * 2 + c % 2;	/* in E elements; 2 E columns per tile */
	*lane = off * esz / 4;
	*shift = (off * esz % 4) * 8 + 4 * (j % per);
}

/* Emulate one validation launch (B0, B1, B0 from zero) from registers only. */
static void emulate(const tcp_warp_data_t *d, double out[16 * 8])
{
	const tcp_warp_form_t *f = tcp_warp_form(d->form);
	int bits = tcp_warp_elem_bits(d->form), k = d->k, ka = f->sparse ? k / 2 : k;
	static uint32_t acode[16][128], alog[16][128], bcode[2][8][128];
	static double sa[16][8], sb[8][8];
	const struct cute_layout *LA = a_layout(bits), *LB = b_layout(bits, f->sparse);

	memset(alog, 0, sizeof(alog));
	for (int t = 0; t < 32; t++) {
		for (int v = 0; v < LA->nval; v++) {
			int m, kk;
			cute_mk(LA, t, v, &m, &kk);
			acode[m][kk] = reg_bits(d->afrag + t * 4, v, bits);
		}
		for (int tile = 0; tile < 2; tile++)
			for (int v = 0; v < LB->nval; v++) {
				int n, kk;
				cute_mk(LB, t, v, &n, &kk);
				bcode[tile][n][kk] = reg_bits(d->bfrag + (tile * 32 + t) * 4, v, bits);
			}
	}
	/* 2:4 in units of 16 bits (f16, bf16, tf32 halves) or 8 bits (8-bit, fp4 pairs) */
	for (int m = 0; m < 16; m++) {
		if (!f->sparse) {
			memcpy(alog[m], acode[m], sizeof(alog[m]));
			continue;
		}
		int ue = bits == 32 ? 1 : bits == 16 ? 1 : 8 / bits;	/* elements per unit */
		for (int j = 0; j < (bits == 32 ? ka : ka / 2 / ue); j++) {
			int lane, shift;
			cutlass_meta_at(bits >= 16 ? 2 : 1, m, j, &lane, &shift);
			unsigned nib = (d->meta[lane] >> shift) & 0xF, i0 = nib & 3, i1 = nib >> 2;
			if (bits == 32) {	/* one tf32 = units (0,1) or (2,3) */
				assert_true(nib == 0x4 || nib == 0xE);
				alog[m][2 * j + i0 / 2] = acode[m][j];
				continue;
			}
			for (int e = 0; e < ue; e++) {
				alog[m][(4 * j + i0) * ue + e] = acode[m][(2 * j) * ue + e];
				alog[m][(4 * j + i1) * ue + e] = acode[m][(2 * j + 1) * ue + e];
			}
		}
	}
	/* scales through SFA / SFB; lanes that map to the same (row, block) must agree */
	for (int i = 0; i < 16 * 8; i++)
		sa[i / 8][i % 8] = sb[i / 8 % 8][i % 8] = f->sf_block ? NAN : 1.0;
	if (f->sf_block) {
		const struct cute_layout *SA = k == 32 ? &cute_sfa_k32 : k == 64 ? &cute_sfa_k64 : &cute_sfa_k128;
		const struct cute_layout *SB = k == 32 ? &cute_sfb_k32 : k == 64 ? &cute_sfb_k64 : &cute_sfb_k128;
		for (int t = 0; t < 32; t++) {
			for (int v = 0; v < SA->nval; v++) {
				int m, kk;
				cute_mk(SA, t, v, &m, &kk);
				double s = tcp_ref_decode(f->sf, (d->sfa[t] >> (8 * (kk / f->sf_block))) & 0xFF);
				if (!isnan(sa[m][kk / f->sf_block]) && sa[m][kk / f->sf_block] != s)
					sa[m][kk / f->sf_block] = -1e300;	/* lanes disagree: garbage */
				else
					sa[m][kk / f->sf_block] = s;
			}
			for (int v = 0; v < SB->nval; v++) {
				int n, kk;
				cute_mk(SB, t, v, &n, &kk);
				sb[n][kk / f->sf_block] = tcp_ref_decode(f->sf, (d->sfb[t] >> (8 * (kk / f->sf_block))) & 0xFF);
			}
		}
	}
	for (int m = 0; m < 16; m++)
		for (int n = 0; n < 8; n++) {
			double acc = 0;
			for (int kk = 0; kk < k; kk++) {
				int blk = f->sf_block ? kk / f->sf_block : 0;
				double a = value(f->ab, bits, alog[m][kk]) * sa[m][blk];
				acc += a * sb[n][blk] * (2 * value(f->ab, bits, bcode[0][n][kk]) +
							 value(f->ab, bits, bcode[1][n][kk]));
			}
			out[m * 8 + n] = acc;
		}
}

static int dump_ok(const tcp_warp_data_t *d, const double *got)
{
	double ref[128], mag[128];
	uint32_t dump[32 * 4];
	char why[200];

	tcp_warp_reference(d, ref, mag);
	tcp_warp_dump_encode(d->form, got, dump);
	return tcp_warp_check_dump(d->form, dump, ref, mag, why, sizeof(why)) == 0;
}

/* Every form, the patterns it takes: the emulator agrees with the reference. */
static void test_emulator_agrees(void **st)
{
	static tcp_warp_data_t d;
	char why[200];

	(void)st;
	for (int f = 0; f < TCP_WF_COUNT; f++)
		for (int pat = 0; pat < TCP_PAT_COUNT; pat++) {
			int small = tcp_type_bits(tcp_warp_form(f)->ab) < 8;
			int rc = tcp_warp_data_build(&d, f, (tcp_pattern_t)pat, next_u64(), why, sizeof(why));
			if (small && (pat == TCP_PAT_SMALLEXP || pat == TCP_PAT_MAXFINITE)) {
				assert_int_equal(rc, -1);
				assert_non_null(strstr(why, "no fill for"));
				continue;
			}
			if (rc)
				fail_msg("%s %s: %s", tcp_warp_form(f)->name, tcp_pattern_names[pat], why);
			double ref[128], mag[128], emu[128];
			tcp_warp_reference(&d, ref, mag);
			emulate(&d, emu);
			for (int i = 0; i < 128; i++)
				if (!(fabs(emu[i] - ref[i]) <= 1e-9 * (mag[i] + 1e-300)))
					fail_msg("%s %s: D[%d][%d] emulated %.17g, reference %.17g", tcp_warp_form(f)->name,
						 tcp_pattern_names[pat], i / 8, i % 8, emu[i], ref[i]);
			assert_true(dump_ok(&d, emu));
			if (pat == TCP_PAT_RANDOM) {	/* random data is not trivially zero */
				int nz = 0;
				for (int i = 0; i < 128; i++)
					nz += ref[i] != 0;
				assert_true(nz > 64);
			}
		}
}

/* The scale-register corruptions: one K block of row 0's A scales (lanes 0
 * and its replica 2) or of column 1's B scales (lanes 4-7) raised by 8
 * exponent steps (ue8m0: x256) or 4 (ue4m3, exponent at bits 6:3: x16), or
 * rows 0 and 8 swapping scale lanes (0/2 <-> 1/3). */
enum corruption { RAISE_A, RAISE_B, SWAP_ROWS };

static void corrupt(tcp_warp_data_t *bad, const tcp_warp_form_t *w, enum corruption c, int blk)
{
	uint32_t up = (w->sf == TCP_T_UE8M0 ? 8u : 4u << 3) << (8 * blk);

	if (c == RAISE_A) {
		bad->sfa[0] += up;
		bad->sfa[2] += up;
	} else if (c == RAISE_B) {
		for (int l = 4; l < 8; l++)
			bad->sfb[l] += up;
	} else {
		uint32_t x = bad->sfa[0];
		bad->sfa[0] = bad->sfa[2] = bad->sfa[1];
		bad->sfa[1] = bad->sfa[3] = x;
	}
}

/*
 * corruption_caught()
 *	The dump check fails registers corrupted as c says, on a draw where the
 *	corruption moves some output by more than 4x the check's tolerance of its
 *	magnitude.  A draw can hide a corruption from any check of that tolerance
 *	(a block whose products cancel; two rows whose scales differ by one ue4m3
 *	mantissa step in one block), so data is drawn until the corruption is
 *	material; a form that never gets there in 64 draws fails.
 */
static void corruption_caught(int form, enum corruption c, int blk)
{
	static tcp_warp_data_t d, bad;
	const tcp_warp_form_t *w = tcp_warp_form(form);
	const double tol = tcp_warp_tolerance(form);
	static const char *what[] = {"A scale of row 0", "B scale of column 1", "scales of rows 0 and 8 swapped"};
	char why[200];
	double emu[128], ref[128], mag[128];

	for (int draw = 0; draw < 64; draw++) {
		assert_int_equal(tcp_warp_data_build(&d, form, TCP_PAT_RANDOM, next_u64(), why, sizeof(why)), 0);
		bad = d;
		corrupt(&bad, w, c, blk);
		emulate(&bad, emu);
		tcp_warp_reference(&d, ref, mag);
		int material = 0;
		for (int i = 0; i < 128; i++)
			material |= fabs(emu[i] - ref[i]) > 4 * tol * mag[i];
		if (!material)
			continue;
		if (dump_ok(&d, emu))
			fail_msg("%s: %s, block %d: check passed", w->name, what[c], blk);
		return;
	}
	fail_msg("%s: %s, block %d: no draw in 64 where it is material", w->name, what[c], blk);
}

/* A scale register off by one bit, or two scale lanes swapped: caught. */
static void test_corrupted_scales(void **st)
{
	static tcp_warp_data_t d;
	char why[200];
	double emu[128];

	(void)st;
	for (int f = 0; f < TCP_WF_COUNT; f++) {
		const tcp_warp_form_t *w = tcp_warp_form(f);
		if (!w->sf_block)
			continue;
		for (int blk = 0; blk < tcp_warp_k(f) / w->sf_block; blk++) {
			corruption_caught(f, RAISE_A, blk);
			corruption_caught(f, RAISE_B, blk);
		}
		corruption_caught(f, SWAP_ROWS, 0);
		/* the uncorrupted registers pass */
		assert_int_equal(tcp_warp_data_build(&d, f, TCP_PAT_RANDOM, next_u64(), why, sizeof(why)), 0);
		emulate(&d, emu);
		assert_true(dump_ok(&d, emu));
	}
}

/* fp4 at bits 3:0 instead of 5:2 of its byte, a wrong metadata word, a poisoned dump. */
static void test_other_corruptions(void **st)
{
	static tcp_warp_data_t d, bad;
	char why[200];
	double emu[128], ref[128], mag[128];
	uint32_t dump[128];

	(void)st;
	assert_int_equal(tcp_warp_data_build(&d, TCP_WF_E2M1_F32, TCP_PAT_RANDOM, next_u64(), why, sizeof(why)), 0);
	bad = d;
	for (int i = 0; i < 32 * 4; i++)
		bad.afrag[i] = (bad.afrag[i] >> 2) & 0x0F0F0F0F;
	emulate(&bad, emu);
	assert_false(dump_ok(&d, emu));

	int sp[] = { TCP_WF_SP_F16, TCP_WF_SP_TF32, TCP_WF_SP_S8, TCP_WF_SP_MX_E4M3, TCP_WF_SP_NVF4 };
	for (size_t i = 0; i < sizeof(sp) / sizeof(sp[0]); i++) {
		assert_int_equal(tcp_warp_data_build(&d, sp[i], TCP_PAT_RANDOM, next_u64(), why, sizeof(why)), 0);
		bad = d;
		/* another legal code in nibble 0 of every lane the hardware reads */
		bad = d;
		for (int l = 0; l < 32; l++) {
			int row, chunk;
			unsigned nib = d.meta[l] & 0xF, alt = sp[i] == TCP_WF_SP_TF32 ? (nib == 0x4 ? 0xE : 0x4)
									      : (nib == 0x4 ? 0x8 : 0x4);
			if (tcp_warp_meta_loc(sp[i], l, 0, &row, &chunk))
				bad.meta[l] = (d.meta[l] & ~0xFu) | alt;
		}
		emulate(&bad, emu);
		if (dump_ok(&d, emu))
			fail_msg("%s: metadata nibble 0 changed in every lane, check passed", tcp_warp_form(sp[i])->name);
		/* the pre-fix layout (row 0's codes in one word for every lane, chunk j in nibble j % 8) fails */
		bad = d;
		for (int l = 0; l < 32; l++) {
			bad.meta[l] = 0;
			for (int j = 0; j < 8; j++)
				bad.meta[l] |= (uint32_t)d.meta_code[0][j] << (4 * j);
		}
		emulate(&bad, emu);
		if (dump_ok(&d, emu))
			fail_msg("%s: one shared metadata word passed the check", tcp_warp_form(sp[i])->name);
	}

	/* never-written accumulators (the 0xFF poison) and an f16 result one ulp-ish off */
	assert_int_equal(tcp_warp_data_build(&d, TCP_WF_F16_F16, TCP_PAT_RANDOM, next_u64(), why, sizeof(why)), 0);
	tcp_warp_reference(&d, ref, mag);
	memset(dump, 0xFF, sizeof(dump));
	assert_int_equal(tcp_warp_check_dump(d.form, dump, ref, mag, why, sizeof(why)), -1);
	tcp_warp_dump_encode(d.form, ref, dump);
	assert_int_equal(tcp_warp_check_dump(d.form, dump, ref, mag, why, sizeof(why)), 0);
	double off[128];
	memcpy(off, ref, sizeof(off));
	off[77] += 0.2 * mag[77] + 1;
	tcp_warp_dump_encode(d.form, off, dump);
	assert_int_equal(tcp_warp_check_dump(d.form, dump, ref, mag, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "C[9][5]"));
}

/* mma_sync's draws are those of the probe before the move (same fill calls, same order). */
static void test_classic_draws(void **st)
{
	static tcp_warp_data_t d;
	uint8_t a[16 * 32], b0[8 * 32];
	double av[16 * 32], bv[8 * 32];
	char why[200];
	uint64_t seed = next_u64();
	tcp_rng_t r;

	(void)st;
	assert_int_equal(tcp_warp_data_build(&d, TCP_WF_BF16_F32, TCP_PAT_RANDOM, seed, why, sizeof(why)), 0);
	tcp_rng_seed(&r, seed);
	assert_int_equal(tcp_fill_pattern(TCP_T_BF16, TCP_PAT_RANDOM, TCP_T_F32, 64, 16 * 16, &r, a, av), 0);
	assert_int_equal(tcp_fill_pattern(TCP_T_BF16, TCP_PAT_RANDOM, TCP_T_F32, 64, 8 * 16, &r, b0, bv), 0);
	for (int i = 0; i < 16 * 16; i++)
		assert_true(d.a[i] == av[i]);
	for (int i = 0; i < 8 * 16; i++)
		assert_true(d.b[0][i] == bv[i] && d.b[2][i] == -bv[i]);
}

int main(void)
{
	test_seed("test-warp-check");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_emulator_agrees),
		cmocka_unit_test(test_corrupted_scales),
		cmocka_unit_test(test_other_corruptions),
		cmocka_unit_test(test_classic_draws),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
