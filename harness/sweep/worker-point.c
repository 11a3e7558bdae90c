/*
 * worker-point.c
 *	One point in the worker, following probe.h's life of a point: setup,
 *	validate, warmup, timed reps (a fixed count, or under `--reps auto`
 *	until the median is known: tcp_reps_next), the --energy window, the
 *	counter pass (now, or kept for a batch: worker-counters.c), teardown;
 *	then its one message to the supervisor with every sample (the
 *	supervisor does the statistics and the CSV).  A point that poisons the
 *	CUDA context ends the worker (exit 3): a fresh one takes the next.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "harness/measure/contention.h"
#include "harness/measure/cupti-timer.h"
#include "harness/measure/energy.h"
#include "harness/measure/launch-rtt.h"
#include "harness/sweep/worker-int.h"

/* One point on its way through the worker. */
struct point {
	int idx, defer;
	const tcp_plan_point_t *pp;
	const tcp_probe_t *p;
	int gpu_probe;
	int nm, nx_cupti, nx_emu, nx;	/* the probe's series, then the extra ones
					 * (tcp_config_extra_name's order) */
	tcp_ctx_t ctx;
	void *state;
	double *smp;			/* (nm + nx) x reps, metric-major */
	int ns;				/* timed runs done */
	tcp_status_t st;
	tcp_stop_t stop;
	double rtt0, rtt1;		/* launch round trips before / after (us) */
	double clk;			/* timing-pass SM clock (MHz) for the counter rows */
	tcp_counter_row_t *crow;
	int ncrow;
	int nbatch0, deferred, sticky;
	char sticky_why[TCP_REASON_LEN];
};

/*
 *  begin()
 *	the point's context: device facts, seed, emulation, the in-kernel
 *	wait budget; and the contention witness that needs no NVML, before
 *	any work of the point
 */
static void begin(struct wstate *w, struct point *pt)
{
	const tcp_run_config_t *cfg = w->cfg;
	struct phases *ph = &w->ph;
	int nser = pt->nm + pt->nx;
	double t0;

	pt->smp = malloc(sizeof(double) * (size_t)(pt->pp->reps > 0 ? pt->pp->reps : 1) * (size_t)(nser > 0 ? nser : 1));
	if (!pt->smp)
		_exit(5);
	ph->point = pt->idx;
	t0 = wk_now();
	pt->rtt0 = pt->gpu_probe ? tcp_launch_rtt_us(TCP_RTT_LAUNCHES) : NAN;
	pt->rtt1 = NAN;
	wk_ph_add(ph, "rtt", wk_now() - t0, NULL);
	ph->probe = pt->p->name;
	ph->axes = pt->pp->key;
	pt->ctx = w->base;
	pt->ctx.seed = tcp_point_seed(cfg->seed, pt->idx);
	tcp_emu_fill_ctx(&cfg->emu, &pt->ctx);
	pt->ctx.issued_tensor_insts = -1;
	pt->ctx.work_flop = -1;
	pt->ctx.reason[0] = '\0';
	pt->ctx.site[0] = '\0';
	/* a device-side spin should give up well before the supervisor does */
	pt->ctx.wait_budget_cycles =
		(uint64_t)(tcp_emu_timeout(&cfg->emu, pt->pp->timeout) * 0.25 * pt->ctx.sm_clock_max_mhz * 1e6);
}

/* setup, validate, the warmup runs */
static void prepare(struct wstate *w, struct point *pt)
{
	const tcp_probe_t *p = pt->p;
	struct phases *ph = &w->ph;
	double t0 = wk_now();

	pt->st = p->setup ? p->setup(&pt->pp->pt, &pt->ctx, &pt->state) : TCP_OK;
	if (pt->st != TCP_OK)
		wk_hook_reason(&pt->ctx, "setup", pt->st);
	wk_ph_add(ph, "setup", wk_now() - t0, NULL);
	t0 = wk_now();
	if (pt->st == TCP_OK && p->validate && (pt->st = p->validate(pt->state, &pt->ctx)) != TCP_OK)
		wk_hook_reason(&pt->ctx, "validate", pt->st);
	wk_ph_add(ph, "validate", wk_now() - t0, NULL);
	t0 = wk_now();
	for (int i = 0; pt->st == TCP_OK && i < pt->pp->warmup; i++) {
		tcp_sample_t s;
		if ((pt->st = p->run(pt->state, &pt->ctx, &s)) != TCP_OK)
			wk_hook_reason(&pt->ctx, "run", pt->st);
	}
	wk_ph_add(ph, "warmup", wk_now() - t0, NULL);
}

/* Timed run r: its samples (and the extra series) into column r; the seconds
 * it took added to *t_timed. */
static tcp_status_t timed_run(struct wstate *w, struct point *pt, int r, double *t_timed)
{
	const size_t reps = (size_t)pt->pp->reps;
	tcp_sample_t s;
	tcp_cupti_timing_t tm;
	char tw[TCP_REASON_LEN];
	int timed = 0;
	for (int m = 0; m < TCP_MAX_METRICS; m++)
		s.v[m] = NAN;
	double t0 = wk_now();
	pt->ctx.emu_poison_words = 0;
	if (pt->nx_cupti && w->timer_on)
		timed = tcp_cupti_timer_begin(tw, sizeof(tw)) == 0;
	tcp_status_t st = pt->p->run(pt->state, &pt->ctx, &s);
	if (timed)
		timed = tcp_cupti_timer_end(&tm, tw, sizeof(tw)) == 0;
	*t_timed += wk_now() - t0;
	if (st != TCP_OK) {
		wk_hook_reason(&pt->ctx, "run", st);
		return st;
	}
	for (int m = 0; m < pt->nm; m++)
		pt->smp[(size_t)m * reps + (size_t)r] = s.v[m];
	if (pt->nx_cupti)	/* NaN when no kernel was seen or records were dropped */
		pt->smp[(size_t)pt->nm * reps + (size_t)r] = timed && tm.kernels > 0 && !tm.dropped ? tm.span_ns : NAN;
	if (pt->nx_emu)
		pt->smp[(size_t)(pt->nm + pt->nx_cupti) * reps + (size_t)r] = (double)pt->ctx.emu_poison_words;
	return st;
}

/* The timed runs: reps of them, or under --reps auto until the probe's first
 * metric is known to --noise (or the time budget is spent). */
static void timed(struct wstate *w, struct point *pt)
{
	tcp_reps_rule_t rule = w->cfg->reps;
	double t_timed = 0;

	rule.max = pt->pp->reps;
	pt->stop = TCP_STOP_NONE;
	for (int r = 0; pt->st == TCP_OK && pt->stop == TCP_STOP_NONE && r < pt->pp->reps; r++) {
		if ((pt->st = timed_run(w, pt, r, &t_timed)) != TCP_OK)
			break;
		pt->ns++;
		pt->stop = tcp_reps_next(&rule, pt->nm > 0 ? pt->smp : NULL, pt->ns, t_timed, NULL);
	}
	wk_ph_add(&w->ph, "timed", t_timed, tcp_stop_name(pt->stop));
	wk_ph_add(&w->ph, "timed_per_rep", pt->ns > 0 ? t_timed / pt->ns : 0, NULL);
}

/* A whole command from the supervisor if one is waiting (EW, EX), without
 * blocking; TCP_CMD_BAD when none. */
static tcp_cmd_t window_cmd(int fd)
{
	struct pollfd pf = { fd, POLLIN, 0 };
	char buf[16];
	size_t n = 0;
	int idx, defer;

	if (poll(&pf, 1, 0) <= 0)
		return TCP_CMD_BAD;
	while (n + 1 < sizeof(buf)) {	/* the supervisor writes each command whole, in one write() */
		char c;
		ssize_t r = read(fd, &c, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			_exit(0);	/* supervisor gone */
		if (c == '\n')
			break;
		buf[n++] = c;
	}
	buf[n] = '\0';
	return tcp_msg_get_cmd(buf, 0, &idx, &defer);
}

/*
 *  energy_window()
 *	--energy/--sustain: EB, then run() back to back while the supervisor
 *	watches the power settle; its EW opens the window (run() calls counted
 *	and timed from here), its EX closes it, then EE with the run() count,
 *	one run()'s FLOP and the window's seconds.  Bounded on this side too:
 *	without EX the loop ends after settle_s + TCP_ENERGY_MAX_S + 30 s.
 */
static tcp_status_t energy_window(struct wstate *w, struct point *pt)
{
	struct timespec a, b;
	double sec = 0, start = 0, limit = w->cfg->settle_s + TCP_ENERGY_MAX_S + 30.0;
	long long runs = 0;
	int open = 0;
	tcp_status_t st = TCP_OK;

	tcp_msg_put_eb(&w->msg, pt->idx);
	tcp_msgbuf_send(&w->msg, w->a->res_fd);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (;;) {
		tcp_sample_t s;
		if ((st = pt->p->run(pt->state, &pt->ctx, &s)) != TCP_OK) {
			wk_hook_reason(&pt->ctx, "run", st);
			break;
		}
		runs++;
		clock_gettime(CLOCK_MONOTONIC, &b);
		double t = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
		tcp_cmd_t c = window_cmd(w->a->cmd_fd);
		if (!open && c == TCP_CMD_EW) {
			open = 1;	/* the window: count from here */
			runs = 0;
			start = t;
		} else if (c == TCP_CMD_EX || t > limit) {
			sec = t - start;
			break;
		}
	}
	tcp_msg_put_ee(&w->msg, pt->idx, open ? runs : 0, pt->ctx.work_flop, open ? sec : 0.0);
	tcp_msgbuf_send(&w->msg, w->a->res_fd);
	return st;
}

/* The --energy window (every probe, host ones too: their rows say NA, so the
 * window's protocol is testable without a GPU); the timing-pass clock for
 * the counter rows: mean of the samples. */
static void energy_and_clock(struct wstate *w, struct point *pt)
{
	double t0 = wk_now();
	if (pt->st == TCP_OK && w->cfg->energy_s > 0)
		pt->st = energy_window(w, pt);
	if (w->cfg->energy_s > 0)
		wk_ph_add(&w->ph, "energy", wk_now() - t0, NULL);
	pt->clk = NAN;
	for (int m = 0; m < pt->nm && pt->ns > 0; m++)
		if (strcmp(pt->p->metrics[m].name, "sm_clock_mhz") == 0) {
			double sum = 0;
			for (int r = 0; r < pt->ns; r++)
				sum += pt->smp[(size_t)m * (size_t)pt->pp->reps + (size_t)r];
			pt->clk = sum / pt->ns;
		}
}

/* The point may wait for a batch: GPU points with a session that batches, host
 * points under the tests' stand-in. */
static int may_batch(const struct wstate *w, const struct point *pt)
{
	return pt->gpu_probe ? w->ctr && tcp_counters_batch_ok(w->ctr) : w->cfg->batch_fake;
}

/*
 *  counters()
 *	the counter pass: OK GPU points only, one run() apart from the timed
 *	ones; kept for the batch when the supervisor allows it or one is
 *	waiting (a batch's points go in order), the state with it
 */
static void counters(struct wstate *w, struct point *pt)
{
	pt->nbatch0 = w->nbatch;
	if (pt->st == TCP_OK && (pt->defer || pt->nbatch0 > 0) && w->cfg->energy_s <= 0 && may_batch(w, pt)) {
		struct pending *e = &w->batch[w->nbatch++];
		*e = (struct pending){ pt->idx, pt->p, pt->pp->key, pt->state, pt->ctx, pt->clk };
		pt->state = NULL;	/* the batch tears it down */
		pt->deferred = 1;
	}
	double t0 = wk_now();
	if (!pt->deferred && pt->st == TCP_OK && pt->gpu_probe && w->ctr_on) {
		pt->ncrow = wk_counter_pass(w, pt->p, pt->state, &pt->ctx, pt->clk, &pt->st, &pt->crow);
		wk_ph_add(&w->ph, "counters", wk_now() - t0, tcp_counters_session(w->ctr));
		wk_ph_counters(&w->ph, w->ctr, 0, 1);
	}
}

/*
 *  sticky_error()
 *	after a failed GPU point: 1 (with the error) when the CUDA context is
 *	poisoned, i.e. the error survives clearing and a fresh synchronise
 */
static int sticky_error(char *why, size_t len)
{
	cudaError_t e = cudaDeviceSynchronize();
	if (e == cudaSuccess)
		return 0;
	(void)cudaGetLastError();
	e = cudaDeviceSynchronize();
	if (e == cudaSuccess)
		return 0;
	snprintf(why, len, "%s", cudaGetErrorString(e));
	return 1;
}

/* The launch round trip after all of it (our kernels are done), teardown,
 * and whether the context survived. */
static void end(struct wstate *w, struct point *pt)
{
	struct phases *ph = &w->ph;
	double t0;
	if (pt->gpu_probe && pt->st == TCP_OK) {
		t0 = wk_now();
		pt->rtt1 = tcp_launch_rtt_us(TCP_RTT_LAUNCHES);
		wk_ph_add(ph, "rtt", wk_now() - t0, NULL);
	}
	t0 = wk_now();
	if (pt->gpu_probe && pt->st == TCP_TIMEOUT) {
		/* a bounded device wait gave up: the kernel may still spin, and a
		 * synchronise (cudaFree in teardown too) would hang; no teardown,
		 * this worker exits and a fresh one (new context) takes over */
		pt->sticky = 1;
		snprintf(pt->sticky_why, sizeof(pt->sticky_why), "a kernel may still be running");
	} else if (pt->state && pt->p->teardown) {
		pt->p->teardown(pt->state);
	}
	wk_ph_add(ph, "teardown", wk_now() - t0, NULL);
	if (pt->gpu_probe && pt->st != TCP_OK && !pt->sticky)
		pt->sticky = sticky_error(pt->sticky_why, sizeof(pt->sticky_why));
	if (pt->sticky) {
		size_t l = strlen(pt->ctx.reason);
		snprintf(pt->ctx.reason + l, sizeof(pt->ctx.reason) - l, "%s(%s: %s; worker restarted)",
			 l ? "; " : "", pt->st == TCP_TIMEOUT ? "device wait timed out" : "sticky CUDA error",
			 pt->sticky_why);
	}
}

/* The point's message: C (GPU points), P, its S lines, then W (its counter
 * pass waits for the batch) or its K rows and E. */
static void send_point(struct wstate *w, struct point *pt, double t_point)
{
	tcp_msgbuf_t *b = &w->msg;
	int ok = pt->st == TCP_OK;
	double t0 = wk_now();
	if (pt->gpu_probe)
		tcp_msg_put_c(b, pt->idx, pt->rtt0, pt->rtt1);
	tcp_msg_put_p(b, pt->idx, pt->st, pt->ns, pt->nm + pt->nx,
		      pt->stop == TCP_STOP_NONE ? NULL : tcp_stop_name(pt->stop), pt->ctx.work_flop);
	for (int m = 0; m < pt->nm + pt->nx; m++)
		tcp_msg_put_s(b, m, pt->smp + (size_t)m * (size_t)pt->pp->reps, pt->ns);
	if (pt->deferred) {
		tcp_msg_put_idx(b, "W", pt->idx);
	} else {
		wk_send_counter_rows(b, pt->crow, pt->ncrow);
		tcp_msg_put_e(b, pt->idx, pt->sticky, ok ? "" : pt->ctx.site, ok ? "" : pt->ctx.reason);
	}
	tcp_msgbuf_send(b, w->a->res_fd);
	wk_ph_add(&w->ph, "send", wk_now() - t0, NULL);
	wk_ph_add(&w->ph, "point", wk_now() - t_point, tcp_status_name(pt->st));
	wk_ph_flush(&w->ph);
}

/*
 *  batch_turn()
 *	the batch runs when the supervisor says so (no defer), when it is full,
 *	before a point that could not join it, or when device memory runs low;
 *	after a W or with points waiting, F ends the message
 */
static void batch_turn(struct wstate *w, struct point *pt)
{
	if (!pt->deferred && pt->nbatch0 == 0)
		return;
	if (pt->sticky)
		_exit(3);	/* the batch is lost with the context: the supervisor runs it again */
	if (!pt->defer || !pt->deferred || w->nbatch == TCP_COUNTERS_BATCH_MAX ||
	    (w->a->gpu >= 0 && wk_memory_low()))
		wk_flush_batch(w);
	tcp_msg_put_f(&w->msg);
	tcp_msgbuf_send(&w->msg, w->a->res_fd);
}

/*
 *  wk_run_point()
 *	one point, start to end, and its one message to the supervisor; with
 *	`defer` the counter pass may wait for a batch (counters.h)
 */
void wk_run_point(struct wstate *w, int idx, int defer)
{
	struct point pt;
	double t_point = wk_now();

	memset(&pt, 0, sizeof(pt));
	pt.idx = idx;
	pt.defer = defer;
	pt.pp = &w->a->plan->p[idx];
	pt.p = pt.pp->probe;
	pt.gpu_probe = pt.p->arch != TCP_ARCH_HOST && w->a->gpu >= 0;
	pt.nm = pt.p->nmetrics;
	pt.nx_cupti = pt.gpu_probe && w->cfg->timer_cupti;
	pt.nx_emu = pt.gpu_probe && w->cfg->emu.target;
	pt.nx = tcp_config_extra_series(w->cfg, pt.gpu_probe);
	begin(w, &pt);
	prepare(w, &pt);
	timed(w, &pt);
	energy_and_clock(w, &pt);
	counters(w, &pt);
	end(w, &pt);
	send_point(w, &pt, t_point);
	batch_turn(w, &pt);
	free(pt.smp);
	free(pt.crow);
	if (pt.sticky) {
		fflush(NULL);
		_exit(3);
	}
}
