/*
 * tmem-plan.c
 *	TMEM budget planner (model/tmem-plan.h).
 */
#include <stdio.h>

#include "model/tmem-plan.h"
#include "model/tmem.h"

void tcp_tmem_req_default(tcp_tmem_req_t *r, unsigned m, unsigned n)
{
	*r = (tcp_tmem_req_t){ 0 };
	r->m = m;
	r->n = n;
	r->cta_group = m == 256 ? 2 : 1;
	r->acc = TCP_T_F32;
	r->stages = 1;
	r->a_type = TCP_T_BF16;
	r->a_stages = 1;
	r->sf_stages = 1;
}

static unsigned round_unit(unsigned c)
{
	return (c + TCP_TMEM_ALLOC_UNIT - 1) / TCP_TMEM_ALLOC_UNIT * TCP_TMEM_ALLOC_UNIT;
}

static void add(tcp_tmem_plan_t *p, const char *name, unsigned cols)
{
	tcp_tmem_part_t *q = &p->part[p->nparts++];

	q->name = name;
	q->cols = cols;
	q->cols_rounded = round_unit(cols);
	p->total += q->cols_rounded;
}

/* Columns for `rows` rows of `bytes` scale bytes each in the warpx4 replicated form. */
static unsigned sf_cols(unsigned rows, unsigned bytes)
{
	unsigned reps = (rows + TCP_PLAN_SF_ROWS_PER_REPLICA - 1) / TCP_PLAN_SF_ROWS_PER_REPLICA;

	return reps * ((bytes + 3) / 4);
}

/*
 *  tcp_tmem_plan()
 *	Per-CTA view: for cta_group::2 each CTA of the pair holds its half of
 *	M (and, with Layout B, half of N's columns).
 */
int tcp_tmem_plan(const tcp_tmem_req_t *r, tcp_tmem_plan_t *p, char *reason, size_t len)
{
	tcp_acc_cfg_t ac = { r->cta_group, r->m, r->n, 0, r->sparse, 0 };
	unsigned acc_cols, rows_cta;

	*p = (tcp_tmem_plan_t){ 0 };
	if (r->cta_group != 1 && r->cta_group != 2) {
		snprintf(reason, len, "cta_group must be 1 or 2; got %d", r->cta_group);
		return -1;
	}
	if (!tcp_acc_layout(&ac)) {
		snprintf(reason, len, "M = %u has no accumulator layout with cta_group::%d (legal: %s)", r->m,
			 r->cta_group, r->cta_group == 1 ? "64, 128" : "128, 256");
		return -1;
	}
	if (r->n < 8 || r->n > 256 || r->n % (r->cta_group == 2 ? 16 : 8)) {
		snprintf(reason, len, "N must be in [%u, 256] step %u for cta_group::%d; got %u",
			 r->cta_group == 2 ? 16u : 8u, r->cta_group == 2 ? 16u : 8u, r->cta_group, r->n);
		return -1;
	}
	if (r->stages < 1 || r->stages > 16) {
		snprintf(reason, len, "accumulator stages must be in [1, 16]; got %u", r->stages);
		return -1;
	}
	if (r->acc != TCP_T_F32 && r->acc != TCP_T_S32 && r->acc != TCP_T_F16) {
		snprintf(reason, len, "accumulator type must be f32, s32 or f16; got %s", tcp_type_name(r->acc));
		return -1;
	}
	if (r->sf_block && r->sf_block != 16 && r->sf_block != 32) {
		snprintf(reason, len, "scale-factor block must be 16 or 32 elements; got %u", r->sf_block);
		return -1;
	}
	acc_cols = tcp_acc_cols(&ac) * (r->acc == TCP_T_F16 ? TCP_PLAN_F16_ACC_COLS_PER_ELEM : 1);
	add(p, "accumulator", acc_cols * r->stages);
	rows_cta = r->m / (unsigned)r->cta_group;
	if (r->a_tmem) {
		unsigned bits = (unsigned)tcp_type_bits(r->a_type);

		if (!bits || !r->a_k) {
			snprintf(reason, len, "A in TMEM needs an element type and a K extent; got K = %u", r->a_k);
			return -1;
		}
		add(p, "A operand", (r->a_k * bits + 31) / 32 * (r->a_stages ? r->a_stages : 1));
	}
	if (r->sf_block) {
		unsigned sk = r->sf_k ? r->sf_k : 4 * r->sf_block;
		unsigned bytes = (sk + r->sf_block - 1) / r->sf_block, st = r->sf_stages ? r->sf_stages : 1;

		add(p, "scale A", sf_cols(rows_cta, bytes) * st);
		add(p, "scale B", sf_cols(r->n, bytes) * st);
	}
	if (r->sparse) {
		unsigned mk = r->meta_k ? r->meta_k : 32;

		add(p, "sparsity metadata", (mk * TCP_PLAN_META_BITS_PER_K + 31) / 32);
	}
	p->fits = p->total <= TCP_TMEM_COLS;
	p->alloc = tcp_tmem_alloc_cols(p->total);
	p->ctas = p->alloc ? (int)(TCP_TMEM_COLS / p->alloc) : 0;
	return 0;
}

/* ---- footprint check and format ------------------------------------------ */

int tcp_tmem_fp_check(const tcp_tmem_fp_t *fp, char *reason, size_t len)
{
	if (fp->overflow) {
		snprintf(reason, len, "more than %d TMEM regions", TCP_FP_MAX_REGIONS);
		return -1;
	}
	if (fp->alloc < TCP_TMEM_ALLOC_UNIT || fp->alloc > TCP_TMEM_COLS || (fp->alloc & (fp->alloc - 1))) {
		snprintf(reason, len, "TMEM allocation of %u columns: tcgen05.alloc takes a power of two in [%d, %d]",
			 fp->alloc, TCP_TMEM_ALLOC_UNIT, TCP_TMEM_COLS);
		return -1;
	}
	for (int i = 0; i < fp->n; i++) {
		const tcp_tmem_region_t *r = &fp->r[i];

		if (r->c1 <= r->c0 || r->l1 <= r->l0) {
			snprintf(reason, len, "TMEM region %s is empty (columns %u-%u, lanes %u-%u)", r->name, r->c0,
				 r->c1, r->l0, r->l1);
			return -1;
		}
		if (r->c1 > fp->alloc) {
			snprintf(reason, len, "TMEM region %s (columns %u-%u) leaves the %u-column allocation%s", r->name,
				 r->c0, r->c1 - 1, fp->alloc,
				 r->c1 > TCP_TMEM_COLS ? " (and the 512 columns of TMEM)" : "");
			return -1;
		}
		if (r->l1 > TCP_TMEM_LANES) {
			snprintf(reason, len, "TMEM region %s (lanes %u-%u) leaves the %d lanes", r->name, r->l0, r->l1 - 1,
				 TCP_TMEM_LANES);
			return -1;
		}
		for (int j = 0; j < i; j++) {
			const tcp_tmem_region_t *o = &fp->r[j];
			unsigned c0 = r->c0 > o->c0 ? r->c0 : o->c0, c1 = r->c1 < o->c1 ? r->c1 : o->c1;
			unsigned l0 = r->l0 > o->l0 ? r->l0 : o->l0, l1 = r->l1 < o->l1 ? r->l1 : o->l1;

			if (c0 < c1 && l0 < l1) {
				snprintf(reason, len, "TMEM regions %s and %s overlap (columns %u-%u, lanes %u-%u)", o->name,
					 r->name, c0, c1 - 1, l0, l1 - 1);
				return -1;
			}
		}
	}
	return 0;
}

const char *tcp_tmem_fp_format(const tcp_tmem_fp_t *fp, char *buf, size_t len)
{
	size_t o = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	o += (size_t)snprintf(buf, len, "alloc=%u", fp->alloc);
	for (int i = 0; i < fp->n && o < len; i++) {
		const tcp_tmem_region_t *r = &fp->r[i];

		o += (size_t)snprintf(buf + o, len - o, " %s=%u-%u", r->name, r->c0, r->c1 ? r->c1 - 1 : 0);
		if (o < len && (r->l0 != 0 || r->l1 != TCP_TMEM_LANES))
			o += (size_t)snprintf(buf + o, len - o, "/L%u-%u", r->l0, r->l1 ? r->l1 - 1 : 0);
	}
	return buf;
}
