/*
 * plan-print.c
 *	--dry-run's listing of a plan (tcp_plan_print, plan.h): points per
 *	probe, skipped ones by reason, the probes without code for the plan's
 *	target as UNSUPPORTED, and with --verbose every point.
 */
#include <stdio.h>
#include <string.h>

#include "harness/sweep/emulate.h"
#include "harness/sweep/plan.h"

enum { PRINT_MAXP = 256, PRINT_MAXR = 8 };

/* One probe's points in the --dry-run listing: skipped ones by reason
 * (the first PRINT_MAXR reasons, each with an example; the rest "other"). */
struct probe_count {
	int n, sk, other, nr;
	const char *reason[PRINT_MAXR], *example[PRINT_MAXR];
	int count[PRINT_MAXR];
};

static void count_points(const tcp_plan_t *pl, const tcp_probe_t *p, struct probe_count *c)
{
	memset(c, 0, sizeof(*c));
	for (int j = 0; j < pl->n; j++) {
		const tcp_plan_point_t *q = &pl->p[j];
		if (q->probe != p)
			continue;
		c->n++;
		if (!q->skipped)
			continue;
		c->sk++;
		int r = 0;
		while (r < c->nr && strcmp(c->reason[r], q->reason) != 0)
			r++;
		if (r < c->nr) {
			c->count[r]++;
		} else if (c->nr < PRINT_MAXR) {
			c->reason[c->nr] = q->reason;
			c->example[c->nr] = q->key;
			c->count[c->nr++] = 1;
		} else {
			c->other++;
		}
	}
}

/* Probe p's line (and why it is unsupported on the plan's target), then its
 * skip reasons; the totals grow. */
static void print_probe(const tcp_plan_t *pl, const tcp_probe_t *p, FILE *f, int *total_skip, int *total_unsup)
{
	struct probe_count c;
	char unsup[TCP_REASON_LEN];
	count_points(pl, p, &c);
	const char *no = !pl->target || p->arch == TCP_ARCH_HOST ? NULL
		: pl->emulated ? tcp_emu_why_not(p->arch, 0, pl->target, tcp_build_targets(), unsup, sizeof(unsup))
		: tcp_arch_why_not(p->arch, pl->target->cc, unsup, sizeof(unsup));
	if (no) {
		*total_unsup += c.n - c.sk;
		fprintf(f, "%-24s %-24s %8d %8d %8d\n    unsupported on %s: %s\n", p->name, tcp_arch_name(p->arch), c.n,
			0, c.sk, pl->target->name, no);
	} else {
		fprintf(f, "%-24s %-24s %8d %8d %8d\n", p->name, tcp_arch_name(p->arch), c.n, c.n - c.sk, c.sk);
	}
	*total_skip += c.sk;
	for (int r = 0; r < c.nr; r++)
		fprintf(f, "    skipped %d x: %s (e.g. %s)\n", c.count[r], c.reason[r], c.example[r]);
	if (c.other)
		fprintf(f, "    skipped %d x: other reasons (see --dry-run --verbose)\n", c.other);
}

/* --verbose: every point's plan line, its TMEM footprint, SKIPPED and why. */
static void print_points(const tcp_plan_t *pl, FILE *f)
{
	char line[2048], fps[512], why[TCP_REASON_LEN];
	for (int i = 0; i < pl->n; i++) {
		const tcp_plan_point_t *q = &pl->p[i];
		tcp_tmem_fp_t fp;
		fps[0] = '\0';
		if (!q->skipped && tcp_point_tmem(q->probe, &q->pt, &fp, why, sizeof(why)) > 0)
			tcp_tmem_fp_format(&fp, fps, sizeof(fps));
		fprintf(f, "%s%s%s%s%s\n", tcp_plan_line(pl, i, line, sizeof(line)), fps[0] ? "\ttmem=" : "", fps,
			q->skipped ? "\tSKIPPED: " : "", q->skipped ? q->reason : "");
	}
}

void tcp_plan_print(const tcp_plan_t *pl, FILE *f, int verbose)
{
	const tcp_probe_t *probe[PRINT_MAXP];
	int np = 0, total_skip = 0, total_unsup = 0;
	/* distinct probes, in order of first appearance */
	for (int i = 0; i < pl->n; i++) {
		int k = 0;
		while (k < np && probe[k] != pl->p[i].probe)
			k++;
		if (k == np && np < PRINT_MAXP)
			probe[np++] = pl->p[i].probe;
	}
	if (pl->target)
		fprintf(f, "plan for %s (compute capability %d.%d: %s)%s\n", pl->target->name,
			pl->target->cc / 10, pl->target->cc % 10, pl->target->chips,
			pl->emulated ? ", EMULATED on an sm_90a GPU (make EMULATE=1)" : "");
	fprintf(f, "%-24s %-24s %8s %8s %8s\n", "probe", "arch", "points", "run", "skipped");
	for (int k = 0; k < np; k++)
		print_probe(pl, probe[k], f, &total_skip, &total_unsup);
	fprintf(f, "total: %d points, %d to run, %d skipped", pl->n, pl->n - total_skip - total_unsup,
		total_skip);
	if (total_unsup)
		fprintf(f, ", %d unsupported on %s", total_unsup, pl->target->name);
	if (pl->duplicates)
		fprintf(f, ", %d duplicates of earlier groups dropped", pl->duplicates);
	fprintf(f, "\n");
	if (verbose)
		print_points(pl, f);
}
