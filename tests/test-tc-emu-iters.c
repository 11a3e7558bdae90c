/*
 * test-tc-emu-iters.c
 *	The emulation build's iteration floors (probes/sm100/tc-aux.h
 *	TCP_AUX_EMU_*, docs/emulation.md "Iteration rules") against the rules
 *	they stand for, on the host: every point keeps its protocol whole.  The
 *	issue schedules of the kernels that the floors size (tc_mma_tput's
 *	commit_every batches, tc_epilogue's batch passes, tc_mma_ii's chains)
 *	are walked as the kernels walk them (tc-mma.cuh, probe-tc-epilogue.cu),
 *	counting what each accumulator stage, mbarrier and waiter sees.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "probes/sm100/tc-aux.h"
#include "test-util.h"

#define MIN_PHASES 3	/* per mbarrier and per waiter: the parity wraps, a phase could alias */
#define MIN_STAGE_USES 2	/* per accumulator stage */

/* tc-mma.cuh TC_MODE_TPUT for `iters` MMAs, commit every k (0: none):
 * uses of stages 0 and 1 and the batch commits (arrivals on bar_aux). */
static void tput_walk(int iters, int k, int use[2], int *commits)
{
	use[0] = use[1] = 0;
	*commits = 0;
	use[0]++;	/* the first MMA, before the window */
	use[1]++;
	if (k == 1) {
		*commits = 2;
		for (int i = 2; i < iters; i += 2) {
			use[0]++;
			use[1]++;
			*commits += 2;
		}
	} else if (k > 1) {
		int i = 2;
		for (int b = 0; b < iters; b += k) {
			for (; i < b + k; i += 2) {
				use[0]++;
				use[1]++;
			}
			(*commits)++;
		}
	} else {
		for (int i = 2; i < iters; i += 2) {
			use[0]++;
			use[1]++;
		}
	}
}

static void test_tput_every_commit_every(void **st)
{
	(void)st;
	/* the default plan's values (0, 1, 4, 16), then random powers of two */
	int ks[12] = { 0, 1, 2, 4, 16 };
	for (int i = 5; i < 12; i++)
		ks[i] = 1 << (int)(next_u64() % 9);
	for (int i = 0; i < 12; i++) {
		const int k = ks[i], it = tcp_aux_emu_tput_iters(k);
		int use[2], commits;
		/* the kernel's own check (TCP_TC_BAD_ARGS): even, >= 2, a multiple of k */
		assert_true(it >= 2 && it % 2 == 0);
		if (k > 0)
			assert_int_equal(it % k, 0);
		tput_walk(it, k, use, &commits);
		assert_int_equal(use[0] + use[1], it);
		assert_true(use[0] >= MIN_STAGE_USES && use[1] >= MIN_STAGE_USES);
		if (k > 0) {
			/* bar_aux is initialised to iters / k arrivals: all of them come,
			 * and more than one, so the count is exercised */
			assert_int_equal(commits, it / k);
			assert_true(commits >= 2);
		}
		/* one stage (two do not fit): the same MMAs land on stage 0 */
		assert_true(use[0] + use[1] >= MIN_STAGE_USES);
	}
}

/* tc-mma.cuh tc_chain_rest: the MMAs after the TC_II_PRE ones, the first
 * block (< 8 or 8), the loop of blocks of 8, the rest. */
static void chain_shape(int opt, int d, int *n, int *first, int *blocks, int *rest)
{
	int pre = opt == 0 && d > 1 ? 2 : 1;
	*n = d - pre;
	*first = *n < 8 ? *n : 8;
	*blocks = (*n - *first) / 8;
	*rest = (*n - *first) % 8;
}

static void test_ii_depths(void **st)
{
	(void)st;
	int depth_one = 0, short_path[2] = { 0, 0 }, long_path[2] = { 0, 0 }, prev = 0;
	for (int j = 0; j < TCP_AUX_EMU_II_NDEPTHS; j++) {
		const int d = tcp_aux_emu_ii_depth(j);
		assert_true(d > prev);	/* distinct depths: the fit has TCP_AUX_EMU_II_NDEPTHS x values */
		assert_int_equal(d & (d - 1), 0);	/* a value of the depth axis (1, 2, 4 .. 64) */
		assert_true(d <= 64);
		prev = d;
		depth_one |= d == 1;
		for (int opt = 0; opt < 2; opt++) {
			int n, first, blocks, rest;
			chain_shape(opt, d, &n, &first, &blocks, &rest);
			assert_true(n >= 0);
			if (opt == 0)
				assert_int_equal(n % 2, 0);	/* chain=indep: pairs (static_assert) */
			assert_int_equal(first + 8 * blocks + rest, n);
			short_path[opt] |= n > 0 && n < 8;
			long_path[opt] |= blocks >= 1;
		}
	}
	assert_true(depth_one);	/* the first MMA alone: no second stage before the window */
	assert_true(short_path[0] && short_path[1]);
	assert_true(long_path[0] && long_path[1]);
	/* one mbarrier, one phase per chain; the peer waits the same count */
	assert_true((TCP_AUX_EMU_II_WARM + TCP_AUX_EMU_II_TIMED) * TCP_AUX_EMU_II_NDEPTHS >= MIN_PHASES);
	assert_true(TCP_AUX_EMU_II_TIMED >= 1);
	/* chain=indep: each stage is written by every chain of depth > 1 */
	int indep_uses = 0;
	for (int j = 0; j < TCP_AUX_EMU_II_NDEPTHS; j++)
		indep_uses += tcp_aux_emu_ii_depth(j) > 1;
	assert_true(indep_uses * (TCP_AUX_EMU_II_WARM + TCP_AUX_EMU_II_TIMED) >= MIN_STAGE_USES);
}

static void test_ii_fit_recovers_line(void **st)
{
	(void)st;
	/* II(D) = a + b / D through the emulation's depths: the least-squares
	 * line the probe fits (tcp_aux_fit_line) recovers fresh random a, b */
	for (int r = 0; r < 16; r++) {
		double x[TCP_AUX_EMU_II_NDEPTHS], y[TCP_AUX_EMU_II_NDEPTHS], a, b;
		const double a0 = 1.0 + (double)(next_u64() % 100000) / 100.0;
		const double b0 = (double)(next_u64() % 100000) / 50.0;
		for (int j = 0; j < TCP_AUX_EMU_II_NDEPTHS; j++) {
			x[j] = 1.0 / tcp_aux_emu_ii_depth(j);
			y[j] = a0 + b0 * x[j];
		}
		assert_int_equal(tcp_aux_fit_line(x, y, TCP_AUX_EMU_II_NDEPTHS, &a, &b), 0);
		assert_true(a > a0 - 1e-6 * a0 && a < a0 + 1e-6 * a0);
		assert_true(b > b0 - 1e-6 * (b0 + 1) && b < b0 + 1e-6 * (b0 + 1));
	}
}

/* probe-tc-epilogue.cu's issue loop for nbatch batches: batch b commits to
 * bar[b & 1] and (b >= 2) first waits for batch b - 2; then the last two are
 * waited.  Every wait's parity must be that of the completion it waits for. */
static void epi_walk(int nbatch, int *issued, int *passes, int completions[2], int waits[2])
{
	int seen[64] = { 0 };
	int b0 = 2;
	*issued = *passes = 0;
	completions[0] = completions[1] = waits[0] = waits[1] = 0;
#define BATCH(b)                                                                                    \
	do {                                                                                        \
		const int bb = (b);                                                                 \
		assert_true(bb >= 0 && bb < 64);                                                    \
		if (bb >= 2) {                                                                      \
			/* completion (bb - 2) / 2 of bar[bb & 1] has happened: parity as the kernel's */ \
			assert_true(completions[bb & 1] > (bb - 2) >> 1);                          \
			waits[bb & 1]++;                                                            \
		}                                                                                   \
		seen[bb]++;                                                                         \
		completions[bb & 1]++;                                                              \
		(*issued)++;                                                                        \
	} while (0)
	BATCH(0);
	BATCH(1);
	for (; b0 + 4 <= nbatch - 2; b0 += 4) {
		BATCH(b0);
		BATCH(b0 + 1);
		BATCH(b0 + 2);
		BATCH(b0 + 3);
		(*passes)++;
	}
	BATCH(b0);
	BATCH(b0 + 1);
#undef BATCH
	for (int b = nbatch - 2; b < nbatch; b++)
		if (b >= 0)
			waits[b & 1]++;
	for (int b = 0; b < nbatch; b++)
		assert_int_equal(seen[b], 1);	/* every batch once, in order, none past nbatch */
}

/*
 * probe-tc-epilogue.cu's drain=cp: the issue loop with MMAs (every batch
 * commits), one batch's copies to slot 3 before the drain-alone window (no
 * commit), then the same loop without MMAs, whose batch 0 does not commit.
 * Batch b's copies go to slot b & 3.  Checked at every step, with the
 * parities the kernel passes (epi_issue's ph0 / ph1):
 *  - every wait is for the last commit issued on its barrier (a parity
 *    wait for an older one could see the phase after it and hang), with
 *    the kernel's parity;
 *  - a slot is rewritten only after a commit issued after its previous
 *    copies has been waited for (a commit covers every earlier copy of the
 *    thread; cp -> cp is not a pipelined pair).
 */
struct epi_cp_sim {
	int issued[2];		/* commits issued on bar[0], bar[1] */
	long commit_t[2][TCP_AUX_EPI_MMAS + 1];	/* issue time of each (at most one batch per MMA) */
	long t, done_t;		/* op clock; issue time of the latest commit waited for */
	long slot_t[4];		/* issue time of each slot's last copies (0: none) */
};

static void epi_cp_wait(struct epi_cp_sim *m, int h, unsigned parity)
{
	const int q = m->issued[h] - 1;
	assert_true(q >= 0);
	assert_int_equal(parity & 1u, (unsigned)q & 1u);
	if (m->commit_t[h][q] > m->done_t)
		m->done_t = m->commit_t[h][q];
}

static void epi_cp_copies(struct epi_cp_sim *m, int slot)
{
	assert_true(m->slot_t[slot] < m->done_t || m->slot_t[slot] == 0);
	m->slot_t[slot] = ++m->t;
}

static void epi_cp_loop(struct epi_cp_sim *m, int nbatch, unsigned ph0, unsigned ph1, int commit0)
{
	const unsigned ph[2] = { ph0, ph1 };
	for (int b = 0; b < nbatch; b++) {	/* epi_walk: the unrolled loop visits 0 .. nbatch - 1 in order */
		const int h = b & 1;
		if (b >= 2)
			epi_cp_wait(m, h, ph[h] + (((unsigned)b - 2) >> 1));
		epi_cp_copies(m, b & 3);
		if (b > 0 || commit0) {
			assert_true(m->issued[h] <= TCP_AUX_EPI_MMAS);
			m->commit_t[h][m->issued[h]++] = ++m->t;
		}
	}
	for (int b = nbatch - 2; b < nbatch; b++)
		epi_cp_wait(m, b & 1, ph[b & 1] + ((unsigned)b >> 1));
}

static void epi_cp_walk(int nb)
{
	struct epi_cp_sim *m = calloc(1, sizeof(*m));
	assert_non_null(m);
	epi_cp_loop(m, nb, 0, 0, 1);	/* with the MMAs */
	assert_int_equal(m->issued[0], (nb + 1) / 2);
	assert_int_equal(m->issued[1], nb / 2);
	epi_cp_copies(m, 3);	/* before the drain-alone window */
	epi_cp_loop(m, nb, ((unsigned)(nb + 1) / 2u + 1u) & 1u, (unsigned)nb / 2u & 1u, 0);
	assert_int_equal(m->issued[0], (nb + 1) / 2 + nb / 2 - 1);
	assert_int_equal(m->issued[1], nb);
	/* the last copies are covered by a waited commit before the kernel moves on */
	for (int s = 0; s < 4; s++)
		assert_true(m->slot_t[s] < m->done_t);
	free(m);
}

static void test_epilogue_batches(void **st)
{
	(void)st;
	int issued, passes, completions[2], waits[2];
	const int nb = TCP_AUX_EMU_EPI_BATCHES;
	assert_int_equal(nb % 4, 0);	/* the kernel's passes of four (k divides 4096 / 4 in the release) */
	epi_walk(nb, &issued, &passes, completions, waits);
	assert_int_equal(issued, nb);
	assert_true(passes >= 1);	/* the loop of passes runs */
	for (int i = 0; i < 2; i++) {
		assert_true(completions[i] >= MIN_PHASES);
		assert_true(waits[i] >= MIN_PHASES);
	}
	/* the release count walks the same schedule */
	epi_walk(TCP_AUX_EPI_MMAS / 4 > 60 ? 60 : TCP_AUX_EPI_MMAS / 4, &issued, &passes, completions, waits);
	assert_true(passes >= 1);
	assert_true(TCP_AUX_EMU_EPI_ALONE_PASSES >= 2);
	/* drain=cp's slots and parities, with and without the MMAs */
	epi_cp_walk(nb);
	for (int k = 1; k <= 16; k *= 4)	/* the release batch counts at k = 1, 4, 16 */
		epi_cp_walk(TCP_AUX_EPI_MMAS / k);
}

static void test_sample_floors(void **st)
{
	(void)st;
	/* tc_mma_lat / k96 lat: the first sample writes D (dropped), the rest
	 * accumulate or overwrite; one mbarrier phase per sample */
	assert_true(TCP_AUX_EMU_LAT_WARMUP >= 1);
	assert_true(TCP_AUX_EMU_LAT_SAMPLES >= 1);
	assert_true(TCP_AUX_EMU_LAT_WARMUP + TCP_AUX_EMU_LAT_SAMPLES >= MIN_PHASES);
	assert_true(TCP_AUX_EMU_LAT_SAMPLES <= 64);	/* records per CTA (tc-mma.cuh TC_REC) */
	/* tc_commit: own, peer and ack barriers one phase per sample */
	assert_true(TCP_AUX_EMU_COMMIT_WARMUP >= 1);
	assert_true(TCP_AUX_EMU_COMMIT_WARMUP + TCP_AUX_EMU_COMMIT_SAMPLES >= MIN_PHASES);
	/* tc_cp: warm-up, n1, 2 n1 windows (3 phases on the window barrier
	 * regardless); passes alternate between two halves with a barrier
	 * each: the shorter depth writes both halves, and each half's barrier
	 * completes b1 / 2 + b1 / 2 + b1 phases, the longer window waiting on
	 * it inside (the path that orders cp after cp on the same columns) */
	assert_true(TCP_AUX_EMU_CP_BATCHES1 >= 2);
	assert_true(TCP_AUX_EMU_CP_BATCHES1 / 2 * 2 + TCP_AUX_EMU_CP_BATCHES1 >= MIN_PHASES);
	assert_true(2 * TCP_AUX_EMU_CP_BATCHES1 > 2);
	assert_true(TCP_AUX_EMU_CP_BATCHES1 <= tcp_aux_cp_batches1(4096));
	/* loops that only average: they still repeat */
	assert_true(TCP_AUX_EMU_LDST_ITERS >= 2);
	assert_true(TCP_AUX_EMU_LDRED_ITERS >= 2);
	/* each build launches its own counts */
	assert_int_equal(TCP_AUX_LDST_ITERS, TCP_AUX_EMU ? TCP_AUX_EMU_LDST_ITERS : 256);
}

int main(void)
{
	test_seed("test-tc-emu-iters");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tput_every_commit_every),
		cmocka_unit_test(test_ii_depths),
		cmocka_unit_test(test_ii_fit_recovers_line),
		cmocka_unit_test(test_epilogue_batches),
		cmocka_unit_test(test_sample_floors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
