/*
 * tc-check.c
 *	CPU reference and validation for the tcgen05 MMA probes (interface and
 *	conventions in tc-check.h).  Host code only: it lives among the sm_100a
 *	probes because only they use it, and its plain C interface lets the
 *	cmocka tests call it.  Every bit position comes from model/.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/ref-interp.h"
#include "model/tmem-plan.h"
#include "probes/common/fill.h"
#include "probes/sm100/tc-aux.h"
#include "probes/sm100/tc-check.h"

/* Largest |value| a random operand may take: keeps sums far from overflow
 * for every format (f16 max 65504, e5m2 57344) while using most codes. */
#define TC_MAX_ABS 256.0

static uint64_t tc_rng(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Element bits as stored in a tile, and whether the f8f6f4 padding applies. */
static unsigned tc_bits(tcp_type_t t)
{
	return (unsigned)tcp_type_bits(t);
}

static unsigned tc_padded(const tcp_mma_cfg_t *c, tcp_type_t t)
{
	return (c->kind == TCP_KIND_F8F6F4 || c->kind == TCP_KIND_MXF8F6F4) && tcp_type_bits(t) < 8;
}

/* A random raw code of type t whose value is finite and |v| <= TC_MAX_ABS. */
static uint32_t tc_random_code(tcp_type_t t, uint64_t *s)
{
	for (;;) {
		uint32_t r = (uint32_t)tc_rng(s), code;
		if (t == TCP_T_TF32)
			code = r & 0xFFFFE000u;	/* low 13 mantissa bits zero */
		else
			code = r & ((1u << tc_bits(t)) - 1u);
		double v = tcp_ref_decode(t, code);
		if (isfinite(v) && fabs(v) <= TC_MAX_ABS)
			return code;
	}
}

/* Raw code of an exactly representable small value (unique-value fill). */
static int tc_code_of(tcp_type_t t, double v, uint32_t *code)
{
	uint32_t w = 0;
	if (tcp_encode(t, v, &w) != 0)
		return -1;
	*code = t == TCP_T_TF32 ? w : (w & ((1u << tc_bits(t)) - 1u));
	return tcp_ref_decode(t, *code) == v ? 0 : -1;
}

/*
 * tc_pattern_codes()
 *	n codes of type t in input pattern pat (fill.h), for the pattern axis of
 *	tc_mma_tput.  maxfinite: +-M, M the largest value of t with
 *	TC_PATTERN_TERMS x K x M^2 (x 2^6, the largest block-scale product) <=
 *	half the accumulator's largest finite value: the TCP_TC_TPUT_MAX_MMAS
 *	MMAs of a tput launch never overflow it.  smallexp: |v| in [1, 2) (integers |v| <= 3).
 */
#define TC_PATTERN_TERMS ((double)TCP_TC_TPUT_MAX_MMAS)

/* The code of v: tc_code_of(), or a scan of every code (fp6/fp4 have no encoder). */
static int tc_code_find(tcp_type_t t, double v, uint32_t *code)
{
	if (tc_code_of(t, v, code) == 0)
		return 0;
	if (t == TCP_T_TF32 || tc_bits(t) > 16)
		return -1;
	for (uint32_t c = 0; c < (1u << tc_bits(t)); c++)
		if (tcp_ref_decode(t, c) == v && !(v == 0 && signbit(tcp_ref_decode(t, c)))) {
			*code = c;
			return 0;
		}
	return -1;
}

static int tc_pattern_codes(const tcp_mma_cfg_t *cfg, unsigned k, int pat, tcp_type_t t, uint32_t *raw,
			    size_t n, uint64_t *s)
{
	uint32_t zero, one, pos = 0, neg = 0;
	int flt = tcp_type_is_float(t);

	if (tc_code_find(t, 0.0, &zero) || tc_code_find(t, 1.0, &one))
		return -1;
	if (pat == TCP_PAT_MAXFINITE) {
		double terms = TC_PATTERN_TERMS * k * (tcp_kind_block_scaled(cfg->kind) ? 64.0 : 1.0);
		double target = sqrt(tcp_type_max(cfg->d) / 2.0 / terms), mx = 0;

		if (t == TCP_T_TF32) {
			mx = tcp_pattern_max(t, cfg->d, (long)terms);
		} else {	/* every code of the type: the largest finite value <= target */
			for (uint32_t c = 0; c < (1u << tc_bits(t)); c++) {
				double v = tcp_ref_decode(t, c);
				if (isfinite(v) && v > mx && v <= target)
					mx = v;
			}
			if (!flt)
				mx = floor(mx);
		}
		if (!(mx > 0) || tc_code_find(t, mx, &pos))
			return -1;
		if (tc_code_find(t, -mx, &neg))
			neg = pos;	/* unsigned */
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t r = tc_rng(s);
		double v;

		switch (pat) {
		case TCP_PAT_ZEROS: raw[i] = zero; break;
		case TCP_PAT_ONES: raw[i] = one; break;
		case TCP_PAT_SPARSE50: raw[i] = (r & 1) ? tc_random_code(t, s) : zero; break;
		case TCP_PAT_SMALLEXP:
			do {
				raw[i] = tc_random_code(t, s);
				v = fabs(tcp_ref_decode(t, raw[i]));
			} while (flt ? !(v >= 1 && v < 2) : v > 3);
			break;
		case TCP_PAT_MAXFINITE: raw[i] = (r & 1) ? pos : neg; break;
		default: raw[i] = tc_random_code(t, s); break;
		}
	}
	return 0;
}

double tcp_tc_rel_tol(const tcp_mma_cfg_t *cfg)
{
	switch (cfg->kind) {
	case TCP_KIND_I8: return 0.0;			/* s32 accumulation is exact */
	case TCP_KIND_F16: case TCP_KIND_TF32: return 1e-5;	/* f32 accumulation of K <= 16 terms */
	default: return 1.0 / 1024;	/* narrow kinds: room for reduced-precision accumulation */
	}
}

double tcp_tc_mma_flop(const tcp_mma_cfg_t *cfg)
{
	return 2.0 * cfg->m * cfg->n * (double)tcp_mma_k(cfg);
}

double tcp_tc_pipeline_depth(double latency, double ii)
{
	if (!(latency > 0) || !(ii > 0) || !isfinite(latency) || !isfinite(ii))
		return NAN;
	return latency / ii;
}

int tcp_tc_tput_iters(const tcp_mma_cfg_t *cfg, double target_cycles, int commit_every)
{
	double peak = tcp_kind_flop_clk_sm(cfg->kind, TCP_GEN_SM100) * cfg->cta_group;
	double ideal = peak > 0 ? tcp_tc_mma_flop(cfg) / peak : 1.0;	/* cycles per MMA at peak */
	int unit = commit_every > 2 ? commit_every : 2;
	double n = ceil(target_cycles / ideal);

	if (n < 2048)
		n = 2048;
	if (n > TCP_TC_TPUT_MAX_MMAS)
		n = TCP_TC_TPUT_MAX_MMAS;
	return ((int)n + unit - 1) / unit * unit;
}

int tcp_tc_issue_bound(double issue_cost_cycles, double ii_cycles)
{
	if (!(issue_cost_cycles > 0) || !(ii_cycles > 0) || !isfinite(issue_cost_cycles) || !isfinite(ii_cycles))
		return -1;
	return ii_cycles <= (1.0 + TCP_TC_ISSUE_BOUND_TOL) * issue_cost_cycles;
}

int tcp_tc_fit_ii(const double *depth, const double *ii, int n, double *a, double *b, double *dsat)
{
	double *x = (double *)calloc(2 * (size_t)(n > 0 ? n : 1), sizeof(double)), *y, aa, bb;
	int m = 0, rc;
	*a = *b = *dsat = NAN;
	if (!x)
		return -1;
	y = x + (n > 0 ? n : 1);	/* (1/D, II) of the usable points */
	for (int i = 0; i < n; i++)
		if (depth[i] > 0 && isfinite(ii[i])) {
			x[m] = 1.0 / depth[i];
			y[m++] = ii[i];
		}
	rc = tcp_aux_fit_line(x, y, m, &aa, &bb);
	free(x);
	if (rc != 0 || !(aa > 0))
		return -1;
	*a = aa;
	*b = bb;
	*dsat = bb > 0 ? fmax(1.0, bb / (0.05 * aa)) : 1.0;
	return 0;
}

uint64_t tcp_tc_tile_desc(const tcp_tile_t *t, uint32_t base, unsigned kstep)
{
	tcp_sdesc_t sd;
	uint64_t v = 0;
	tcp_tile_desc(t, base, kstep, &sd);
	if (tcp_sdesc_encode(&sd, &v) != 0)
		return 0;
	return v;
}

void tcp_tc_mma_data_free(tcp_tc_mma_data_t *d)
{
	free(d->img[0]);
	free(d->img[1]);
	free(d->a_raw);
	free(d->b_raw);
	free(d->ref);
	free(d->mag);
	free(d->sfa);
	free(d->sfb);
	memset(d, 0, sizeof(*d));
}

static uint32_t tc_align_up(uint32_t v, uint32_t a)
{
	return (v + a - 1) / a * a;
}

/* Re-read one CTA's operand (the MMA's K step of the tile) with the model's
 * independent reader; compare. */
static int tc_reread(const tcp_tc_mma_data_t *d, const tcp_tile_t *t, uint32_t off, unsigned c,
		     const uint32_t *raw, const char *what, char *reason, size_t len)
{
	tcp_ref_operand_t op;
	unsigned K = d->k;
	uint32_t *got = (uint32_t *)calloc((size_t)t->rows * K, sizeof(uint32_t));
	int rc = 0;

	if (!got) {
		snprintf(reason, len, "out of host memory");
		return -1;
	}
	memset(&op, 0, sizeof(op));
	op.desc = tcp_tc_tile_desc(t, TCP_TC_SMEM_BASE + off, d->kstep);
	op.major = t->major;
	op.bits = t->bits;
	op.padded = t->padded;
	op.rows = t->rows;
	op.k = K;
	if (tcp_ref_read(&op, d->img[c], TCP_TC_SMEM_BASE, d->img_bytes, got, reason, len) != 0) {
		free(got);
		return -1;
	}
	for (unsigned r = 0; r < t->rows && !rc; r++)
		for (unsigned kk = 0; kk < K; kk++) {
			uint32_t want = raw[(size_t)(c * t->rows + r) * K + kk];
			if (got[(size_t)r * K + kk] != want) {
				snprintf(reason, len,
					 "model disagrees with itself: %s row %u k %u placed 0x%x, reader sees 0x%x",
					 what, c * t->rows + r, kk, want, got[(size_t)r * K + kk]);
				rc = -1;
				break;
			}
		}
	free(got);
	return rc;
}

/* Row r of CTA c's part of an operand into its tile: the MMA's K at step
 * d->kstep, the steps before it random codes of type `t`. */
static void tc_place_row(const tcp_tc_mma_data_t *d, const tcp_tile_t *tl, uint8_t *img, const uint32_t *raw,
			 unsigned row, tcp_type_t t, uint64_t *s)
{
	unsigned K = d->k, k0 = d->kstep * K;

	for (unsigned kk = 0; kk < k0 + K; kk++)
		tcp_bits_put(img, tcp_tile_place(tl, row % tl->rows, kk), tl->bits,
			     kk < k0 ? tc_random_code(t, s) : raw[(size_t)row * K + kk - k0]);
}

int tcp_tc_mma_data_build(tcp_tc_mma_data_t *d, const tcp_mma_cfg_t *cfg, tcp_swizzle_t layout,
			  uint64_t seed, int fill, char *reason, size_t len)
{
	return tcp_tc_mma_data_build_at(d, cfg, layout, 0, seed, fill, reason, len);
}

int tcp_tc_mma_data_build_at(tcp_tc_mma_data_t *d, const tcp_mma_cfg_t *cfg, tcp_swizzle_t layout, unsigned kstep,
			     uint64_t seed, int fill, char *reason, size_t len)
{
	uint64_t s = seed ^ 0x7C5EED0000000000ull;
	unsigned M = cfg->m, N = cfg->n;

	memset(d, 0, sizeof(*d));
	if (!tcp_mma_legal(cfg, reason, len))
		return -1;
	if (cfg->sparse || cfg->ws || cfg->a_major || cfg->b_major) {
		snprintf(reason, len, "the probes build dense, non-.ws, K-major operands only");
		return -1;
	}
	if (kstep > 7 || (kstep && cfg->a_tmem)) {
		snprintf(reason, len, "kstep must be in [0, 7], and 0 with A in TMEM; got %u", kstep);
		return -1;
	}
	d->cfg = *cfg;
	d->ctas = (unsigned)cfg->cta_group;
	d->k = tcp_mma_k(cfg);
	d->kstep = kstep;
	unsigned K = d->k, KT = K * (kstep + 1);
	/* K = 96 (sm_103a): the tiles know one MMA reads 48 bytes per row (model/smem-layout.h) */
	unsigned mk = tcp_mma_k96(cfg) ? TCP_MMA_K96 : 0u;
	d->ta = (tcp_tile_t){ layout, TCP_MAJOR_K, tc_bits(cfg->a), tc_padded(cfg, cfg->a), M / d->ctas, KT, mk };
	d->tb = (tcp_tile_t){ layout, TCP_MAJOR_K, tc_bits(cfg->b), tc_padded(cfg, cfg->b), N / d->ctas, KT, mk };
	if (tcp_tile_check(&d->ta) || tcp_tile_check(&d->tb)) {
		snprintf(reason, len, "model/smem-layout.h cannot place a %ux%u (A) / %ux%u (B) tile of %u-bit elements",
			 d->ta.rows, KT, d->tb.rows, KT, d->ta.bits);
		return -1;
	}
	uint32_t al = tcp_tile_align(&d->ta) > tcp_tile_align(&d->tb) ? tcp_tile_align(&d->ta) : tcp_tile_align(&d->tb);
	if (al < 128)
		al = 128;
	d->a_off = 0;
	d->b_off = tc_align_up(tcp_tile_bytes(&d->ta), al);
	d->img_bytes = tc_align_up(d->b_off + tcp_tile_bytes(&d->tb), al);
	d->a_raw = (uint32_t *)calloc((size_t)M * K, sizeof(uint32_t));
	d->b_raw = (uint32_t *)calloc((size_t)N * K, sizeof(uint32_t));
	d->ref = (double *)calloc((size_t)M * N, sizeof(double));
	d->mag = (double *)calloc((size_t)M * N, sizeof(double));
	for (unsigned c = 0; c < d->ctas; c++)
		d->img[c] = (uint8_t *)calloc(d->img_bytes, 1);
	if (!d->a_raw || !d->b_raw || !d->ref || !d->mag || !d->img[0] || (d->ctas == 2 && !d->img[1])) {
		snprintf(reason, len, "out of host memory");
		tcp_tc_mma_data_free(d);
		return -1;
	}

	/* Operand codes. */
	if (fill == TCP_TC_FILL_UNIQUE) {
		uint32_t one, c256;
		if (cfg->kind != TCP_KIND_F16 && cfg->kind != TCP_KIND_TF32) {
			snprintf(reason, len, "the unique-value fill needs kind f16 or tf32");
			tcp_tc_mma_data_free(d);
			return -1;
		}
		if (tc_code_of(cfg->a, 1.0, &one) || tc_code_of(cfg->a, 256.0, &c256)) {
			snprintf(reason, len, "cannot encode 1 and 256 exactly");
			tcp_tc_mma_data_free(d);
			return -1;
		}
		for (unsigned m = 0; m < M; m++) {
			if (tc_code_of(cfg->a, (double)(m + 1), &d->a_raw[(size_t)m * K])) {
				snprintf(reason, len, "cannot encode %u exactly", m + 1);
				tcp_tc_mma_data_free(d);
				return -1;
			}
			d->a_raw[(size_t)m * K + 1] = c256;
		}
		for (unsigned n = 0; n < N; n++) {
			d->b_raw[(size_t)n * K] = one;
			if (tc_code_of(cfg->b, (double)(n + 1), &d->b_raw[(size_t)n * K + 1])) {
				snprintf(reason, len, "cannot encode %u exactly", n + 1);
				tcp_tc_mma_data_free(d);
				return -1;
			}
		}
	} else if (fill >= TCP_TC_FILL_PATTERN) {
		int pat = fill - TCP_TC_FILL_PATTERN;
		if (tc_pattern_codes(cfg, K, pat, cfg->a, d->a_raw, (size_t)M * K, &s) ||
		    tc_pattern_codes(cfg, K, pat, cfg->b, d->b_raw, (size_t)N * K, &s)) {
			snprintf(reason, len, "pattern %d: no codes for these types", pat);
			tcp_tc_mma_data_free(d);
			return -1;
		}
	} else {
		for (size_t i = 0; i < (size_t)M * K; i++)
			d->a_raw[i] = tc_random_code(cfg->a, &s);
		for (size_t i = 0; i < (size_t)N * K; i++)
			d->b_raw[i] = tc_random_code(cfg->b, &s);
	}

	/* Block scales: one random code per K block of every row, 2^-3..2^3
	 * (ue8m0) or a random finite positive ue4m3 near 1, so that the MMA
	 * result depends on where each lands in TMEM (tcp_tc_sf_image). */
	if (tcp_kind_block_scaled(cfg->kind)) {
		d->nblk = K / tcp_mma_scale_block(cfg);
		d->sfa = (uint32_t *)malloc((size_t)M * d->nblk * sizeof(uint32_t));
		d->sfb = (uint32_t *)malloc((size_t)N * d->nblk * sizeof(uint32_t));
		if (!d->sfa || !d->sfb) {
			snprintf(reason, len, "out of host memory");
			tcp_tc_mma_data_free(d);
			return -1;
		}
		for (size_t i = 0; i < ((size_t)M + N) * d->nblk; i++) {
			uint32_t code;
			if (cfg->sf == TCP_T_UE4M3)
				do
					code = (uint32_t)(tc_rng(&s) % 48u) + 40u;	/* 0.25 .. ~3.5 */
				while (!isfinite(tcp_ref_decode(TCP_T_UE4M3, code)));
			else
				code = 124u + (uint32_t)(tc_rng(&s) % 7u);
			if (i < (size_t)M * d->nblk)
				d->sfa[i] = code;
			else
				d->sfb[i - (size_t)M * d->nblk] = code;
		}
	}

	/* Place: CTA c holds rows [c rows, (c + 1) rows) of each operand. */
	for (unsigned c = 0; c < d->ctas; c++) {
		for (unsigned r = 0; r < d->ta.rows; r++)
			tc_place_row(d, &d->ta, d->img[c] + d->a_off, d->a_raw, c * d->ta.rows + r, cfg->a, &s);
		for (unsigned r = 0; r < d->tb.rows; r++)
			tc_place_row(d, &d->tb, d->img[c] + d->b_off, d->b_raw, c * d->tb.rows + r, cfg->b, &s);
		if (tc_reread(d, &d->ta, d->a_off, c, d->a_raw, "A", reason, len) ||
		    tc_reread(d, &d->tb, d->b_off, c, d->b_raw, "B", reason, len)) {
			tcp_tc_mma_data_free(d);
			return -1;
		}
	}

	/* Reference through the model's interpreter; magnitudes for the tolerance. */
	tcp_tc_ref_with_sf(d, d->sfa, d->sfb, d->ref);
	for (unsigned m = 0; m < M; m++)
		for (unsigned n = 0; n < N; n++) {
			double acc = 0;
			for (unsigned kk = 0; kk < K; kk++)
				acc += fabs(tcp_ref_decode(cfg->a, d->a_raw[(size_t)m * K + kk]) *
					    tcp_ref_decode(cfg->b, d->b_raw[(size_t)n * K + kk])) *
				       tcp_tc_sf(d, 0, m, kk * (d->nblk ? d->nblk : 1) / K) *
				       tcp_tc_sf(d, 1, n, kk * (d->nblk ? d->nblk : 1) / K);
			d->mag[(size_t)m * N + n] = acc;
		}
	d->rel_tol = tcp_tc_rel_tol(cfg);
	return 0;
}

int tcp_tc_ref_with_sf(const tcp_tc_mma_data_t *d, const uint32_t *sfa, const uint32_t *sfb, double *out)
{
	tcp_ref_mma_t rm;
	memset(&rm, 0, sizeof(rm));
	rm.kind = d->cfg.kind;
	rm.m = d->cfg.m;
	rm.n = d->cfg.n;
	rm.k = d->k;
	rm.a = d->cfg.a;
	rm.b = d->cfg.b;
	if (d->nblk) {
		rm.sf_block = d->k / d->nblk;
		rm.sf = d->cfg.sf;
	}
	tcp_ref_mma(&rm, d->a_raw, d->b_raw, d->nblk ? sfa : NULL, d->nblk ? sfb : NULL, out, 0);
	return 0;
}

double tcp_tc_sf(const tcp_tc_mma_data_t *d, int is_b, unsigned row, unsigned blk)
{
	if (!d->nblk)
		return 1.0;
	return tcp_ref_decode(d->cfg.sf, (is_b ? d->sfb : d->sfa)[(size_t)row * d->nblk + blk]);
}

/* First global row of CTA cta's rows of an operand (A: the CTA's slice; B: all). */
static unsigned tc_sf_row0(const tcp_tc_mma_data_t *d, unsigned cta, int is_b)
{
	return is_b ? 0u : cta * tcp_tmem_sf_rows(d->cfg.cta_group, d->cfg.m, d->cfg.n, 0);
}

unsigned tcp_tc_sf_words(const tcp_mma_cfg_t *c)
{
	if (!tcp_kind_block_scaled(c->kind))
		return 0;
	return tcp_tmem_sf_words(tcp_mma_k(c) / tcp_mma_scale_block(c));
}

unsigned tcp_tc_sf_region_cols(const tcp_mma_cfg_t *c, int is_b)
{
	return tcp_tmem_sf_words_cols(c->cta_group, c->m, c->n, is_b, tcp_tc_sf_words(c));
}

int tcp_tc_sf_cell(const tcp_tc_mma_data_t *d, int is_b, unsigned row, unsigned blk, unsigned rep, unsigned *lane,
		   unsigned *col)
{
	const tcp_mma_cfg_t *c = &d->cfg;

	if (blk >= d->nblk || tcp_tmem_sf_cell(c->cta_group, c->m, c->n, is_b, row, rep, lane, col))
		return -1;
	*col += blk / 4 * tcp_tmem_sf_word_stride(c->cta_group, c->m, c->n, is_b);
	return 0;
}

/*
 * Scale factor j of a row is byte j % 4 of its word j / 4 (model/tmem-plan.h:
 * word 0 at tcp_tmem_sf_cell(), word w tcp_tmem_sf_word_stride() columns per
 * word further; K = 96 .block16 has two words, every other MMA one).
 */
void tcp_tc_sf_image(const tcp_tc_mma_data_t *d, unsigned cta, int is_b, uint32_t *img, unsigned cols)
{
	const tcp_mma_cfg_t *c = &d->cfg;
	unsigned rows = tcp_tmem_sf_rows(c->cta_group, c->m, c->n, is_b), r0 = tc_sf_row0(d, cta, is_b);

	memset(img, 0, (size_t)cols * 128 * sizeof(uint32_t));
	for (unsigned r = 0; r < rows && d->nblk; r++)
		for (unsigned w0 = 0; w0 < d->nblk; w0 += 4) {
			uint32_t w = 0;
			for (unsigned j = w0; j < d->nblk && j < w0 + 4; j++)
				w |= ((is_b ? d->sfb : d->sfa)[(size_t)(r0 + r) * d->nblk + j] & 0xffu) << (8 * (j - w0));
			unsigned lane, col;
			for (unsigned rep = 0; !tcp_tc_sf_cell(d, is_b, r, w0, rep, &lane, &col); rep++)
				if (col < cols)
					img[col * 128 + lane] = w;
		}
}

int tcp_tc_sf_readback(const tcp_tc_mma_data_t *d, unsigned cta, int is_b, const uint32_t *img, unsigned cols,
		       uint32_t *codes, char *reason, size_t len)
{
	const tcp_mma_cfg_t *c = &d->cfg;
	unsigned rows = tcp_tmem_sf_rows(c->cta_group, c->m, c->n, is_b);

	(void)cta;	/* every CTA's image holds its own rows at the same cells */
	for (unsigned r = 0; r < rows; r++)
		for (unsigned w0 = 0; w0 < d->nblk; w0 += 4) {
			unsigned lane, col;
			uint32_t w = 0;
			for (unsigned rep = 0; !tcp_tc_sf_cell(d, is_b, r, w0, rep, &lane, &col); rep++) {
				if (col >= cols) {
					snprintf(reason, len, "scale factors of %s row %u map to column %u of a %u-column region",
						 is_b ? "B" : "A", r, col, cols);
					return -1;
				}
				if (rep && img[col * 128 + lane] != w) {
					snprintf(reason, len, "scale-factor replicas of %s row %u disagree (lane %u col %u: "
						 "0x%08x, first: 0x%08x)", is_b ? "B" : "A", r, lane, col, img[col * 128 + lane], w);
					return -1;
				}
				w = img[col * 128 + lane];
			}
			for (unsigned j = w0; j < d->nblk && j < w0 + 4; j++)
				codes[(size_t)r * d->nblk + j] = (w >> (8 * (j - w0))) & 0xffu;
		}
	return 0;
}

static tcp_acc_cfg_t tc_acc_cfg(const tcp_tc_mma_data_t *d, unsigned lane_align)
{
	tcp_acc_cfg_t a;
	memset(&a, 0, sizeof(a));
	a.cta_group = d->cfg.cta_group;
	a.m = d->cfg.m;
	a.n = d->cfg.n;
	a.lane_align = lane_align;
	return a;
}

static double tc_cell_value(const tcp_tc_mma_data_t *d, uint32_t w)
{
	if (d->cfg.kind == TCP_KIND_I8)
		return (double)(int32_t)w;
	float f;
	memcpy(&f, &w, sizeof(f));
	return (double)f;
}

int tcp_tc_fill_tmem(const tcp_tc_mma_data_t *d, uint32_t *tmem, unsigned cols, unsigned lane_align)
{
	tcp_acc_cfg_t ac = tc_acc_cfg(d, lane_align);
	for (unsigned m = 0; m < d->cfg.m; m++)
		for (unsigned n = 0; n < d->cfg.n; n++) {
			tcp_tmem_cell_t cell;
			double v = d->ref[(size_t)m * d->cfg.n + n];
			uint32_t w;
			if (tcp_acc_map(&ac, m, n, &cell) || cell.col >= cols)
				return -1;
			if (d->cfg.kind == TCP_KIND_I8) {
				w = (uint32_t)(int32_t)v;
			} else {
				float f = (float)v;
				memcpy(&w, &f, sizeof(w));
			}
			tmem[((size_t)cell.cta * 128 + cell.lane) * cols + cell.col] = w;
		}
	return 0;
}

long tcp_tc_check_tmem(const tcp_tc_mma_data_t *d, const uint32_t *tmem, unsigned cols,
		       unsigned lane_align, char *reason, size_t len)
{
	tcp_acc_cfg_t ac = tc_acc_cfg(d, lane_align);
	long bad = 0;
	size_t used = 0;

	if (!tcp_acc_layout(&ac)) {
		snprintf(reason, len, "no accumulator layout for cta_group::%d M=%u", d->cfg.cta_group, d->cfg.m);
		return -1;
	}
	reason[0] = '\0';
	for (unsigned m = 0; m < d->cfg.m; m++)
		for (unsigned n = 0; n < d->cfg.n; n++) {
			tcp_tmem_cell_t cell;
			if (tcp_acc_map(&ac, m, n, &cell) || cell.col >= cols) {
				snprintf(reason, len, "D[%u][%u] maps outside the %u dumped columns", m, n, cols);
				return -1;
			}
			double got = tc_cell_value(d, tmem[((size_t)cell.cta * 128 + cell.lane) * cols + cell.col]);
			double ref = d->ref[(size_t)m * d->cfg.n + n];
			double tol = d->rel_tol * d->mag[(size_t)m * d->cfg.n + n] + 1e-30;
			if (!(fabs(got - ref) <= tol)) {
				if (bad < 3 && used < len) {
					int w = snprintf(reason + used, len - used,
							 "%sD[%u][%u] (cta %u lane %u col %u) = %.9g, expected %.9g",
							 bad ? "; " : "", m, n, cell.cta, cell.lane, cell.col, got, ref);
					if (w > 0)
						used += (size_t)w;
				}
				bad++;
			}
		}
	if (bad && used < len)
		snprintf(reason + used, len - used, " (%ld of %u cells bad)", bad, d->cfg.m * d->cfg.n);
	return bad;
}

/* ---- the point of an MMA probe --------------------------------------------- */

const char *const tcp_tc_kind_names[] = { "f16", "tf32", "f8f6f4", "i8", "mxf8f6f4", "mxf4", "mxf4nvf4", NULL };
const char *const tcp_tc_type_names[] = { "auto", "f16", "bf16", "tf32", "e4m3", "e5m2", "e2m3", "e3m2",
					  "e2m1", "s8", "u8", NULL };
const char *const tcp_tc_sf_names[] = { "ue8m0", "ue4m3", NULL };
const char *const tcp_tc_ab_names[] = { "ss", "ts", NULL };
const char *const tcp_tc_grid_names[] = { "all", "1", NULL };
const char *const tcp_tc_cast_names[] = { "local", "multicast", NULL };
const char *const tcp_tc_swizzle_names[] = { "none", "128B", NULL };
const char *const tcp_tc_chain_names[] = { "indep", "same", "alt_acc", "overwrite", NULL };

int tcp_tc_kind_variant(const tcp_mma_cfg_t *c)
{
	if (c->kind == TCP_KIND_MXF4NVF4)
		return tcp_mma_scale_block(c) == 16 ? TCP_TC_KV_NVF4_4X : TCP_TC_KV_NVF4_2X;
	return (int)c->kind;
}

/* Type of an axis value: "auto" -> the kind's default (A) or A's type (B). */
static tcp_type_t tc_type_of(int64_t idx, tcp_type_t dflt)
{
	if (idx <= 0 || idx >= (int64_t)(sizeof(tcp_tc_type_names) / sizeof(tcp_tc_type_names[0]) - 1))
		return dflt;
	int t = tcp_type_parse(tcp_tc_type_names[idx]);
	return t < 0 ? dflt : (tcp_type_t)t;
}

/* The common axes (0 .. TCP_TC_NAXES - 1). */
static int tc_point_common(const tcp_point_t *p, tcp_tc_mma_point_t *o, char *reason, size_t len)
{
	tcp_mma_cfg_t *c = &o->cfg;
	int64_t kind = p->v[TCP_TC_AX_KIND];

	if (p->naxes < TCP_TC_NAXES) {
		snprintf(reason, len, "an MMA point has at least %d axes; got %d", TCP_TC_NAXES, p->naxes);
		return -1;
	}
	if (kind < 0 || kind >= TCP_KIND_COUNT) {
		snprintf(reason, len, "kind index %lld out of range", (long long)kind);
		return -1;
	}
	tcp_mma_cfg_default((tcp_kind_t)kind, c);
	c->a = tc_type_of(p->v[TCP_TC_AX_ATYPE], c->a);
	c->b = tc_type_of(p->v[TCP_TC_AX_BTYPE], c->a);
	c->sf = p->v[TCP_TC_AX_SF] == 1 ? TCP_T_UE4M3 : TCP_T_UE8M0;
	if (tcp_kind_block_scaled(c->kind)) {
		if (p->v[TCP_TC_AX_BLOCK] != 16 && p->v[TCP_TC_AX_BLOCK] != 32) {
			snprintf(reason, len, "block must be 16 or 32; got %lld", (long long)p->v[TCP_TC_AX_BLOCK]);
			return -1;
		}
		/* .block16 (scale_vec::4X) is kind::mxf4nvf4's alone (PTX tcgen05.mma
		 * "scale_vectorsize" table): mxf8f6f4 has 1X and mxf4 2X, both block
		 * 32, so block=16 there would run the block-32 MMA under another
		 * point's name. */
		if (p->v[TCP_TC_AX_BLOCK] == 16 && c->kind != TCP_KIND_MXF4NVF4) {
			snprintf(reason, len, "block=16 (.block16, scale_vec::4X) exists for kind::mxf4nvf4 only; "
				 "kind::%s scales every 32 K elements (block=32)", c->kind == TCP_KIND_MXF8F6F4 ? "mxf8f6f4" : "mxf4");
			return -1;
		}
		c->scale_vec = c->kind == TCP_KIND_MXF8F6F4 ? 1u : p->v[TCP_TC_AX_BLOCK] == 16 ? 4u : 2u;
	} else if (p->v[TCP_TC_AX_BLOCK] != 32) {
		snprintf(reason, len, "block applies to block-scaled kinds only (use 32); got %lld",
			 (long long)p->v[TCP_TC_AX_BLOCK]);
		return -1;
	}
	c->cta_group = (int)p->v[TCP_TC_AX_CG];
	c->m = (unsigned)p->v[TCP_TC_AX_M];
	c->n = (unsigned)p->v[TCP_TC_AX_N];
	o->ts = p->v[TCP_TC_AX_AB] == 1;
	c->a_tmem = (unsigned)o->ts;
	o->grid1 = p->v[TCP_TC_AX_GRID] == 1;
	o->cast = p->v[TCP_TC_AX_CAST] == 1 ? TCP_TC_CAST_MULTICAST : TCP_TC_CAST_LOCAL;
	o->swizzle = p->v[TCP_TC_AX_SWIZZLE] == 1 ? TCP_SW_128B : TCP_SW_NONE;
	if (!tcp_mma_legal(c, reason, len))
		return -1;
	if (o->ts && c->m / (unsigned)c->cta_group != 128 && !(c->cta_group == 2 && c->m == 128)) {
		snprintf(reason, len, "ab=ts is implemented for cta_group::1 M=128 and cta_group::2 M=128, 256 (A's TMEM "
			 "layout for cta_group::1 M=64 is not settled); got M=%u", c->m);
		return -1;
	}
	if (o->ts && c->cta_group == 2 && c->n % 32) {
		/* CUTLASS mma_sm100_umma.hpp SM100_MMA_*_2x1SM_TS: N a multiple of 32. */
		snprintf(reason, len, "ab=ts with cta_group::2 needs N a multiple of 32 (CUTLASS 2x1SM TS atoms); got %u",
			 c->n);
		return -1;
	}
	if (tcp_kind_block_scaled(c->kind) && tcp_tmem_sf_2x2(c->cta_group, c->m, 1) && c->n % 64) {
		/* CUTLASS mma_traits_sm100_frag.hpp ScaleFactorDuplicated2by2: 64-row atoms of B. */
		snprintf(reason, len, "block-scaled cta_group::2 M=128 needs N a multiple of 64 (B's scale factors in the "
			 "2x2 data path, CUTLASS ScaleFactorDuplicated2by2); got %u", c->n);
		return -1;
	}
	o->kv = tcp_tc_kind_variant(c);
	return 0;
}

int tcp_tc_mma_point(const char *probe, const tcp_point_t *p, tcp_tc_mma_point_t *out, char *reason, size_t len)
{
	memset(out, 0, sizeof(*out));
	out->stages = 1;
	out->exact = 1;
	out->cast = TCP_TC_CAST_MULTICAST;
	if (!strcmp(probe, "tc_mma_lat")) {
		int64_t e = p->v[TCP_TC_NAXES];
		if (p->naxes < TCP_TC_NAXES + 1 || (e != 0 && e != 1)) {
			snprintf(reason, len, "enable_input_d must be 0 or 1; got %lld", (long long)e);
			return -1;
		}
		out->opt = (int)e;
	} else if (!strcmp(probe, "tc_mma_ii")) {
		int64_t d = p->v[TCP_TC_NAXES];
		if (p->naxes < TCP_TC_NAXES + 2 || d < 0 || d > 64 || (d & (d - 1))) {
			/* the chains are unrolled at compile time (tc-mma.cuh tc_chain_rest) */
			snprintf(reason, len, "depth must be 0 (fit over 1..64) or a power of two in [1, 64]; got %lld",
				 (long long)d);
			return -1;
		}
		out->depth = (int)d;
		int64_t ch = p->v[TCP_TC_NAXES + 1];
		if (ch < 0 || ch >= TCP_TC_CHAIN_N) {
			snprintf(reason, len, "chain index %lld out of range [0, %d)", (long long)ch, TCP_TC_CHAIN_N);
			return -1;
		}
		out->opt = (int)ch;	/* the kernel's OPT: tc-mma.cuh TC_CHAIN_* */
		out->stages = ch == TCP_TC_CHAIN_INDEP || ch == TCP_TC_CHAIN_ALT_ACC ? 2u : 1u;
	} else if (!strcmp(probe, "tc_mma_tput")) {
		int64_t k = p->v[TCP_TC_NAXES + 1];
		if (p->naxes < TCP_TC_NAXES + 2 || k < 0 || k > 4096 || (k & (k - 1))) {
			snprintf(reason, len, "commit_every must be 0 or a power of two in [1, 4096]; got %lld", (long long)k);
			return -1;
		}
		int64_t e = p->naxes >= TCP_TC_NAXES + 3 ? p->v[TCP_TC_NAXES + 2] : 1;
		if (e != 0 && e != 1) {
			snprintf(reason, len, "enable_input_d must be 0 or 1; got %lld", (long long)e);
			return -1;
		}
		out->opt = e == 0;	/* the kernel's OPT 1: overwrite */
		out->pattern = (int)p->v[TCP_TC_NAXES];
		out->commit_every = (int)k;
		out->stages = 2;	/* two alternating accumulators where they fit */
		out->exact = 0;
	}
	return tc_point_common(p, out, reason, len);
}

unsigned tcp_tc_a_tmem_cols(const tcp_mma_cfg_t *c)
{
	unsigned bits = (unsigned)tcp_type_bits(c->a);
	if ((c->kind == TCP_KIND_F8F6F4 || c->kind == TCP_KIND_MXF8F6F4) && bits < 8)
		bits = 8;
	return (tcp_mma_k(c) * bits + 31) / 32;
}

unsigned tcp_tc_a_cp_fmt(const tcp_mma_cfg_t *c)
{
	if (c->kind != TCP_KIND_F8F6F4 && c->kind != TCP_KIND_MXF8F6F4)
		return 0;
	return tcp_type_bits(c->a) == 4 ? 2u : tcp_type_bits(c->a) == 6 ? 1u : 0u;
}

void tcp_tc_mma_fp(const tcp_tc_mma_point_t *mp, unsigned stages, tcp_tmem_fp_t *fp, unsigned col[4])
{
	const tcp_mma_cfg_t *c = &mp->cfg;
	tcp_tmem_mma_req_t q = { c->cta_group, c->m, c->n, stages, (unsigned)mp->ts,
				 mp->ts ? tcp_tc_a_tmem_cols(c) : 0u, (unsigned)tcp_kind_block_scaled(c->kind),
				 tcp_tc_sf_words(c) };
	tcp_tmem_mma_fp(&q, fp, &col[0], &col[1], &col[2], &col[3]);
}

unsigned tcp_tc_mma_stages(const tcp_tc_mma_point_t *mp)
{
	unsigned s = mp->stages ? mp->stages : 1, col[4];
	tcp_tmem_fp_t fp;
	char why[TCP_REASON_LEN];

	for (; !mp->exact && s > 1; s--) {
		tcp_tc_mma_fp(mp, s, &fp, col);
		if (!tcp_tmem_fp_check(&fp, why, sizeof(why)))
			break;
	}
	return s;
}

int tcp_tc_mma_point_fp(const char *probe, const tcp_point_t *p, tcp_tmem_fp_t *fp, char *reason, size_t len)
{
	tcp_tc_mma_point_t mp;
	unsigned col[4];
	char why[TCP_REASON_LEN];

	if (tcp_tc_mma_point(probe, p, &mp, reason, len))
		return -1;
	tcp_tc_mma_fp(&mp, tcp_tc_mma_stages(&mp), fp, col);
	if (!strcmp(probe, "tc_mma_ii") && mp.stages == 2 && tcp_tmem_fp_check(fp, why, sizeof(why))) {
		/* a two-accumulator chain would silently become a one-accumulator one */
		snprintf(reason, len, "chain=%s needs two accumulator stages: %s", tcp_tc_chain_names[mp.opt], why);
		return -1;
	}
	return 1;
}
