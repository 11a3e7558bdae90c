/*
 * worker.c
 *	The child side of the supervisor: create the CUDA context (GPU runs
 *	only), then walk the points the supervisor sends, following probe.h's
 *	life of a point: setup, validate, warmup, timed reps (a fixed count, or
 *	under `--reps auto` until the median is known: tcp_reps_next), counter
 *	pass, teardown.  One message per point goes back with every sample; the
 *	supervisor does the statistics and the CSV.  See worker.h for the
 *	protocol.
 *
 *	TCPROBE_PHASES=FILE: every step of every point (and of the worker's
 *	start) is appended to FILE as CSV `pid,point,probe,axes,phase,ms,note`
 *	(harness/README.md lists the phases), for scripts/bench-harness.sh.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "harness/measure/contention.h"
#include "harness/measure/counters.h"
#include "harness/measure/cupti-timer.h"
#include "harness/measure/energy.h"
#include "harness/measure/launch-rtt.h"
#include "harness/measure/provenance-live.h"
#include "harness/measure/stats.h"
#include "harness/store/provenance.h"
#include "harness/sweep/worker.h"

uint64_t tcp_point_seed(uint64_t run_seed, int idx)
{
	uint64_t z = run_seed + 0x9E3779B97F4A7C15ull * (uint64_t)(idx + 1);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* A growing message buffer: a point's whole message leaves in one write. */
struct sbuf {
	char *s;
	size_t n, cap;
};

static void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
		va_end(ap);
		if (k < 0)
			return;
		if (b->s && b->n + (size_t)k < b->cap) {
			b->n += (size_t)k;
			return;
		}
		size_t cap = b->cap ? b->cap * 2 : 4096;
		while (cap < b->n + (size_t)k + 1)
			cap *= 2;
		char *ns = realloc(b->s, cap);
		if (!ns)
			_exit(5);	/* the supervisor sees a crash: FAILED, next point */
		b->s = ns;
		b->cap = cap;
	}
}

/* One-line text: TAB, CR, LF become spaces so a reason never breaks a line. */
/*
 *  gpu_identity()
 *	the chip's name (cudaDeviceProp) and PCI device ID (sysfs, from the bus
 *	id the runtime reports; 0 when unreadable): what model/peaks.h is keyed by
 */
static void gpu_identity(int gpu, tcp_ctx_t *c)
{
	struct cudaDeviceProp prop;
	char path[96];
	unsigned id = 0;
	FILE *f;

	if (cudaGetDeviceProperties(&prop, gpu) != cudaSuccess)
		return;
	snprintf(c->gpu_name, sizeof(c->gpu_name), "%.*s", (int)sizeof(c->gpu_name) - 1, prop.name);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%04x:%02x:%02x.0/device", (unsigned)prop.pciDomainID,
		 (unsigned)prop.pciBusID, (unsigned)prop.pciDeviceID);
	if ((f = fopen(path, "r"))) {
		if (fscanf(f, "%x", &id) == 1)
			c->pci_device_id = id;
		fclose(f);
	}
}

static const char *one_line(const char *s, char *buf, size_t len)
{
	snprintf(buf, len, "%s", s ? s : "");
	for (char *c = buf; *c; c++)
		if (*c == '\t' || *c == '\n' || *c == '\r')
			*c = ' ';
	return buf;
}

static void send_all(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			_exit(6);	/* the supervisor is gone */
		s += w;
		n -= (size_t)w;
	}
}

static void sb_flush(struct sbuf *b, int fd)
{
	send_all(fd, b->s, b->n);
	b->n = 0;
}

/* A sample value exactly, NaN as "nan". */
static void sb_double(struct sbuf *b, double v)
{
	if (isnan(v))
		sb_printf(b, "\tnan");
	else
		sb_printf(b, "\t%.17g", v);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* TCPROBE_PHASES: the steps of one point (or of the worker's start), then one write. */
struct phases {
	int fd;				/* -1: not recording */
	struct sbuf b;
	int point;
	const char *probe, *axes;
};

static void ph_add(struct phases *ph, const char *name, double sec, const char *note)
{
	char nb[TCP_REASON_LEN + 64];
	if (ph->fd < 0)
		return;
	one_line(note, nb, sizeof(nb));
	for (char *c = nb; *c; c++)	/* a quoted CSV field without quotes */
		if (*c == '"')
			*c = '\'';
	sb_printf(&ph->b, "%d,%d,%s,\"%s\",%s,%.3f,\"%s\"\n", (int)getpid(), ph->point, ph->probe,
		  ph->axes, name, sec * 1e3, nb);
}

/* The counter steps of open() (of_open) or of the last measure(), as
 * ctr_<step>, each divided by `share` (a batch's points share its steps). */
static void ph_counters(struct phases *ph, const tcp_counters_t *t, int of_open, int share)
{
	const tcp_counters_phase_t *cp;
	int n = tcp_counters_phases(t, of_open, &cp);
	char name[64];
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "ctr_%s", cp[i].name);
		ph_add(ph, name, cp[i].ms * 1e-3 / share, NULL);
	}
}

static void ph_flush(struct phases *ph)
{
	if (ph->fd < 0 || ph->b.n == 0)
		return;
	if (write(ph->fd, ph->b.s, ph->b.n) < 0) {
		/* a benchmark aid: losing a line must not fail the point */
	}
	ph->b.n = 0;
}

/* The counter pass: one extra run() under CUPTI collection. */
struct ctr_arg {
	const tcp_probe_t *probe;
	void *state;
	tcp_ctx_t *ctx;
	tcp_status_t st;
};

static int ctr_run(void *arg)
{
	struct ctr_arg *a = arg;
	tcp_sample_t s;
	a->st = a->probe->run(a->state, a->ctx, &s);
	return a->st == TCP_OK ? 0 : -1;
}

/* A point whose counter pass waits for the batch (counters.h): what the pass
 * and its rows need; the probe's state is kept until then. */
struct pending {
	int idx;
	const tcp_probe_t *p;
	const char *key;		/* the point's axes, for TCPROBE_PHASES */
	void *state;
	tcp_ctx_t ctx;
	double clk;			/* timing-pass SM clock (MHz), NAN unknown */
};

/* Worker-wide state: filled once at start. */
struct wstate {
	const tcp_worker_args_t *a;
	int cc;
	tcp_ctx_t base;			/* device facts, copied into each point's ctx */
	tcp_counters_t *ctr;
	char ctr_reason[TCP_REASON_LEN];
	int ctr_on;			/* 0: counters "off" (no rows at all) */
	int timer_on;			/* --timer cupti opened: CUPTI kernel spans */
	tcp_reps_rule_t rule;		/* the plan's repetition rule (max per point) */
	struct phases ph;		/* TCPROBE_PHASES */
	struct sbuf msg;
	struct pending batch[TCP_COUNTERS_BATCH_MAX];
	int nbatch;
};

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

static const char *hook_reason(tcp_ctx_t *c, const char *hook, tcp_status_t st)
{
	if (!c->reason[0])
		snprintf(c->reason, sizeof(c->reason), "%s() returned %s without a reason", hook,
			 tcp_status_name(st));
	return c->reason;
}

/*
 *  cmd_word()
 *	a whole command line from the supervisor if one is waiting ("EW",
 *	"EX"), without blocking; "" when none
 */
static const char *cmd_word(int fd, char *buf, size_t len)
{
	struct pollfd pf = { fd, POLLIN, 0 };
	size_t n = 0;

	buf[0] = '\0';
	if (poll(&pf, 1, 0) <= 0)
		return buf;
	while (n + 1 < len) {	/* the supervisor writes each command whole, in one write() */
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
	return buf;
}

/*
 *  energy_window()
 *	--energy/--sustain: EB, then run() back to back while the supervisor
 *	watches the power settle; its EW opens the window (run() calls counted
 *	and timed from here), its EX closes it, then EE with the run() count,
 *	one run()'s FLOP and the window's seconds.  Bounded on this side too:
 *	without EX the loop ends after settle_s + TCP_ENERGY_MAX_S + 30 s.
 */
static tcp_status_t energy_window(struct wstate *w, const tcp_probe_t *p, void *state,
				  tcp_ctx_t *ctx, int idx)
{
	struct timespec a, b;
	long long runs = 0;
	double sec = 0, start = 0, limit = w->a->settle_s + TCP_ENERGY_MAX_S + 30.0;
	int open = 0;
	char cmd[16];
	tcp_status_t st = TCP_OK;

	sb_printf(&w->msg, "EB\t%d\n", idx);
	sb_flush(&w->msg, w->a->res_fd);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (;;) {
		tcp_sample_t s;
		if ((st = p->run(state, ctx, &s)) != TCP_OK) {
			hook_reason(ctx, "run", st);
			break;
		}
		runs++;
		clock_gettime(CLOCK_MONOTONIC, &b);
		double t = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
		const char *c = cmd_word(w->a->cmd_fd, cmd, sizeof(cmd));
		if (!open && strcmp(c, "EW") == 0) {
			open = 1;	/* the window: count from here */
			runs = 0;
			start = t;
		} else if (strcmp(c, "EX") == 0 || t > limit) {
			sec = t - start;
			break;
		}
	}
	sb_printf(&w->msg, "EE\t%d\t%lld", idx, open ? runs : 0);
	sb_double(&w->msg, ctx->work_flop);
	sb_double(&w->msg, open ? sec : 0.0);
	sb_printf(&w->msg, "\n");
	sb_flush(&w->msg, w->a->res_fd);
	return st;
}

/* Counter rows of one point from a counter pass's values (NULL: NA, why)
 * into *crow (allocated); a failed check makes the point INVALID. */
static int counter_rows(struct wstate *w, const double *vals, const char *why, const tcp_ctx_t *ctx,
			double clk, tcp_counter_row_t **crow, tcp_status_t *st, char *reason, size_t len)
{
	tcp_counters_input_t in = { vals, why, ctx->issued_tensor_insts, clk };
	*crow = calloc(TCP_COUNTERS_MAX_ROWS, sizeof(**crow));
	if (!*crow)
		_exit(5);
	int n = tcp_counters_rows(w->ctr, w->cc, w->a->counters, &in, *crow);
	for (int i = 0; i < n; i++)
		if ((*crow)[i].status == TCP_INVALID && *st == TCP_OK) {
			*st = TCP_INVALID;
			snprintf(reason, len, "%s", (*crow)[i].reason);
		}
	return n;
}

static void send_counter_rows(struct sbuf *b, const tcp_counter_row_t *crow, int n)
{
	char nb[160], ub[64], lb[TCP_REASON_LEN + 64];
	for (int i = 0; i < n; i++) {
		sb_printf(b, "K\t%s\t%s", one_line(crow[i].metric, nb, sizeof(nb)),
			  one_line(crow[i].unit, ub, sizeof(ub)));
		sb_double(b, crow[i].value);
		sb_printf(b, "\t%s\t%s\n", tcp_status_name(crow[i].status),
			  one_line(crow[i].reason, lb, sizeof(lb)));
	}
}

/*
 *  flush_batch()
 *	the counter pass of every waiting point at once (tcp_counters_
 *	measure_batch: CUPTI's Start and Stop paid once for the batch), each
 *	point's completion to the supervisor ("X idx STATUS", K rows, "E idx
 *	..."), its state torn down.  A run() that fails under the batch's pass
 *	ends the worker: the supervisor runs the batch's points again one at a
 *	time, each under its own verdict.  A batch the session cannot split
 *	(too many kernels for the image, ...) is measured point by point.
 */
static void flush_batch(struct wstate *w)
{
	int n = w->nbatch, failed = -1, rc = 0;
	static double vals[TCP_COUNTERS_BATCH_MAX * TCP_COUNTERS_MAX_METRICS];
	int nr[TCP_COUNTERS_BATCH_MAX];
	struct ctr_arg ca[TCP_COUNTERS_BATCH_MAX];
	void *args[TCP_COUNTERS_BATCH_MAX];
	char why[TCP_REASON_LEN] = "", lb[TCP_REASON_LEN + 64];
	int nm = w->ctr ? tcp_counters_nmetrics(w->ctr) : 0;
	double t0 = now_s();

	if (n == 0)
		return;
	for (int i = 0; i < n; i++) {
		struct pending *e = &w->batch[i];
		ca[i] = (struct ctr_arg){ e->p, e->state, &e->ctx, TCP_OK };
		args[i] = &ca[i];
		nr[i] = 0;
	}
	if (w->ctr) {
		rc = tcp_counters_measure_batch(w->ctr, n, ctr_run, args, vals, nr, &failed, why, sizeof(why));
	} else {	/* the tests' stand-in (ctr_batch_fake): one run() each, no rows */
		for (int i = 0; i < n && rc == 0; i++)
			if (ctr_run(&ca[i]))
				rc = -1, failed = i;
	}
	for (int i = 0; i < n; i++)
		if (ca[i].st != TCP_OK && failed < 0)
			failed = i;
	if (failed >= 0) {
		fprintf(stderr, "tcprobe worker: point %d failed under its batch's counter pass: %s\n",
			w->batch[failed].idx, w->batch[failed].ctx.reason[0] ? w->batch[failed].ctx.reason : why);
		fflush(NULL);
		_exit(4);
	}
	double batch_s = now_s() - t0;
	for (int i = 0; i < n; i++) {
		struct pending *e = &w->batch[i];
		double *v = vals + (size_t)i * (size_t)nm, one[TCP_COUNTERS_MAX_METRICS];
		char pwhy[TCP_REASON_LEN];
		int have = rc == 0 && nr[i] > 0;
		double ti = now_s();
		snprintf(pwhy, sizeof(pwhy), "%s", rc ? why : "counter pass: run() launched no kernel");
		if (rc && w->ctr) {	/* this one alone, in a pass of its own */
			struct ctr_arg c1 = { e->p, e->state, &e->ctx, TCP_OK };
			have = tcp_counters_measure(w->ctr, ctr_run, &c1, one, pwhy, sizeof(pwhy)) == 0;
			v = one;
			if (!have && c1.st != TCP_OK) {
				fprintf(stderr, "tcprobe worker: point %d failed under its counter pass: %s\n", e->idx,
					e->ctx.reason);
				fflush(NULL);
				_exit(4);
			}
		}
		tcp_status_t st = TCP_OK;
		tcp_counter_row_t *crow = NULL;
		int ncrow = w->ctr_on ? counter_rows(w, have ? v : NULL, pwhy, &e->ctx, e->clk, &crow, &st,
						     e->ctx.reason, sizeof(e->ctx.reason)) : 0;
		if (e->p->teardown)
			e->p->teardown(e->state);
		struct sbuf *b = &w->msg;
		sb_printf(b, "X\t%d\t%s\n", e->idx, tcp_status_name(st));
		send_counter_rows(b, crow, ncrow);
		sb_printf(b, "E\t%d\t0\t\t%s\n", e->idx, st == TCP_OK ? "" : one_line(e->ctx.reason, lb, sizeof(lb)));
		free(crow);
		/* TCPROBE_PHASES: the batch's cost shared out evenly */
		struct phases *ph = &w->ph;
		ph->point = e->idx;
		ph->probe = e->p->name;
		ph->axes = e->key;
		if (rc && w->ctr) {
			ph_add(ph, "counters", now_s() - ti, tcp_counters_session(w->ctr));
			ph_counters(ph, w->ctr, 0, 1);
		} else {	/* the batch's steps: nothing measured since */
			char note[96];
			snprintf(note, sizeof(note), "batch of %d", n);
			ph_add(ph, "counters", batch_s / n, note);
			ph_counters(ph, w->ctr, 0, n);
		}
		ph_flush(ph);
	}
	w->nbatch = 0;
}

/* 1 when free device memory is under a quarter: the batch's states go now. */
static int memory_low(void)
{
	size_t fr = 0, total = 0;
	if (cudaMemGetInfo(&fr, &total) != cudaSuccess) {
		(void)cudaGetLastError();
		return 1;
	}
	return fr < total / 4;
}

/*
 *  run_point()
 *	one point, start to end, and its one message to the supervisor; with
 *	`defer` the counter pass may wait for a batch (counters.h)
 */
static void run_point(struct wstate *w, int idx, int defer)
{
	const tcp_plan_point_t *pp = &w->a->plan->p[idx];
	const tcp_probe_t *p = pp->probe;
	int gpu_probe = p->arch != TCP_ARCH_HOST && w->a->gpu >= 0;
	int nm = p->nmetrics, ns = 0;
	int nx_cupti = gpu_probe && w->a->timer_cupti;	/* the CUPTI kernel-span series */
	int nx_emu = gpu_probe && w->a->emu && w->a->emu->target;	/* emu_poison_words */
	int nx = nx_cupti + nx_emu;	/* in this order: sup_extra_name() */
	tcp_ctx_t ctx = w->base;
	void *state = NULL;
	char lb[TCP_REASON_LEN + 64], sticky_why[TCP_REASON_LEN] = "";
	double *smp = malloc(sizeof(double) * (size_t)(pp->reps > 0 ? pp->reps : 1) * (size_t)(nm + nx > 0 ? nm + nx : 1));
	tcp_counter_row_t *crow = NULL;
	int ncrow = 0;
	struct phases *ph = &w->ph;
	double t_point = now_s(), t0, t_timed = 0;
	tcp_reps_rule_t rule = w->rule;
	tcp_stop_t stop = TCP_STOP_NONE;

	if (!smp)
		_exit(5);
	ph->point = idx;
	/* the contention witness that needs no NVML: before any work of the point */
	t0 = now_s();
	double rtt0 = gpu_probe ? tcp_launch_rtt_us(TCP_RTT_LAUNCHES) : NAN, rtt1 = NAN;
	ph_add(ph, "rtt", now_s() - t0, NULL);
	ph->probe = p->name;
	ph->axes = pp->key;
	rule.max = pp->reps;
	ctx.seed = tcp_point_seed(w->a->seed, idx);
	if (w->a->emu)
		tcp_emu_fill_ctx(w->a->emu, &ctx);
	else
		ctx.emu_trace_cta = -1, ctx.emu_slowdown = 1.0;
	ctx.issued_tensor_insts = -1;
	ctx.work_flop = -1;
	ctx.reason[0] = '\0';
	ctx.site[0] = '\0';
	/* a device-side spin should give up well before the supervisor does */
	ctx.wait_budget_cycles = (uint64_t)(tcp_emu_timeout(w->a->emu, pp->timeout) * 0.25 * ctx.sm_clock_max_mhz * 1e6);

	t0 = now_s();
	tcp_status_t st = p->setup ? p->setup(&pp->pt, &ctx, &state) : TCP_OK;
	if (st != TCP_OK)
		hook_reason(&ctx, "setup", st);
	ph_add(ph, "setup", now_s() - t0, NULL);
	t0 = now_s();
	if (st == TCP_OK && p->validate && (st = p->validate(state, &ctx)) != TCP_OK)
		hook_reason(&ctx, "validate", st);
	ph_add(ph, "validate", now_s() - t0, NULL);
	t0 = now_s();
	for (int i = 0; st == TCP_OK && i < pp->warmup; i++) {
		tcp_sample_t s;
		if ((st = p->run(state, &ctx, &s)) != TCP_OK)
			hook_reason(&ctx, "run", st);
	}
	ph_add(ph, "warmup", now_s() - t0, NULL);
	/* timed runs: rule.max of them, or under --reps auto until the probe's
	 * first metric is known to --noise (or the time budget is spent) */
	for (int r = 0; st == TCP_OK && stop == TCP_STOP_NONE && r < pp->reps; r++) {
		tcp_sample_t s;
		tcp_cupti_timing_t tm;
		char tw[TCP_REASON_LEN];
		int timed = 0;
		for (int m = 0; m < TCP_MAX_METRICS; m++)
			s.v[m] = NAN;
		t0 = now_s();
		ctx.emu_poison_words = 0;
		if (nx_cupti && w->timer_on)
			timed = tcp_cupti_timer_begin(tw, sizeof(tw)) == 0;
		st = p->run(state, &ctx, &s);
		if (timed)
			timed = tcp_cupti_timer_end(&tm, tw, sizeof(tw)) == 0;
		t_timed += now_s() - t0;
		if (st != TCP_OK) {
			hook_reason(&ctx, "run", st);
			break;
		}
		for (int m = 0; m < nm; m++)
			smp[(size_t)m * (size_t)pp->reps + (size_t)r] = s.v[m];
		if (nx_cupti)	/* NaN when no kernel was seen or records were dropped */
			smp[(size_t)nm * (size_t)pp->reps + (size_t)r] =
				timed && tm.kernels > 0 && !tm.dropped ? tm.span_ns : NAN;
		if (nx_emu)
			smp[(size_t)(nm + nx_cupti) * (size_t)pp->reps + (size_t)r] = (double)ctx.emu_poison_words;
		ns++;
		stop = tcp_reps_next(&rule, nm > 0 ? smp : NULL, ns, t_timed, NULL);
	}
	ph_add(ph, "timed", t_timed, tcp_stop_name(stop));
	ph_add(ph, "timed_per_rep", ns > 0 ? t_timed / ns : 0, NULL);
	/* every probe (host ones too: their rows say NA), so the window's protocol
	 * is testable without a GPU */
	t0 = now_s();
	if (st == TCP_OK && w->a->energy_s > 0)
		st = energy_window(w, p, state, &ctx, idx);
	if (w->a->energy_s > 0)
		ph_add(ph, "energy", now_s() - t0, NULL);
	/* timing-pass clock for the counter rows: mean of the samples */
	double clk = NAN;
	for (int m = 0; m < nm && ns > 0; m++)
		if (strcmp(p->metrics[m].name, "sm_clock_mhz") == 0) {
			double sum = 0;
			for (int r = 0; r < ns; r++)
				sum += smp[(size_t)m * (size_t)pp->reps + (size_t)r];
			clk = sum / ns;
		}
	/* counter pass: OK GPU points only, one run() apart from the timed ones;
	 * kept for the batch when the supervisor allows it or one is waiting
	 * (a batch's points go in order), the state with it */
	int nbatch0 = w->nbatch, deferred = 0;
	if (st == TCP_OK && (defer || nbatch0 > 0) && w->a->energy_s <= 0 &&
	    (gpu_probe ? w->ctr && tcp_counters_batch_ok(w->ctr) : w->a->ctr_batch_fake)) {
		struct pending *e = &w->batch[w->nbatch++];
		*e = (struct pending){ idx, p, pp->key, state, ctx, clk };
		state = NULL;	/* the batch tears it down */
		deferred = 1;
	}
	t0 = now_s();
	if (!deferred && st == TCP_OK && gpu_probe && w->ctr_on) {
		double vals[TCP_COUNTERS_MAX_METRICS];
		char why[TCP_REASON_LEN] = "";
		int have = 0;
		if (w->ctr) {
			struct ctr_arg ca = { p, state, &ctx, TCP_OK };
			have = tcp_counters_measure(w->ctr, ctr_run, &ca, vals, why, sizeof(why)) == 0;
			if (!have && ca.st != TCP_OK) {
				st = ca.st;	/* the probe itself failed under collection */
				char r0[TCP_REASON_LEN];
				snprintf(r0, sizeof(r0), "%s", hook_reason(&ctx, "run", st));
				if (snprintf(ctx.reason, sizeof(ctx.reason), "counter pass: %s", r0) >=
				    (int)sizeof(ctx.reason))
					ctx.reason[sizeof(ctx.reason) - 1] = '\0';
			}
		} else {
			snprintf(why, sizeof(why), "%s", w->ctr_reason);
		}
		if (st == TCP_OK)
			ncrow = counter_rows(w, have ? vals : NULL, why, &ctx, clk, &crow, &st, ctx.reason,
					     sizeof(ctx.reason));
		ph_add(ph, "counters", now_s() - t0, tcp_counters_session(w->ctr));
		ph_counters(ph, w->ctr, 0, 1);
	}
	if (gpu_probe && st == TCP_OK) {	/* ... and after all of it (our kernels are done) */
		t0 = now_s();
		rtt1 = tcp_launch_rtt_us(TCP_RTT_LAUNCHES);
		ph_add(ph, "rtt", now_s() - t0, NULL);
	}
	t0 = now_s();
	int sticky = 0;
	if (gpu_probe && st == TCP_TIMEOUT) {
		/* a bounded device wait gave up: the kernel may still spin, and a
		 * synchronise (cudaFree in teardown too) would hang; no teardown,
		 * this worker exits and a fresh one (new context) takes over */
		sticky = 1;
		snprintf(sticky_why, sizeof(sticky_why), "a kernel may still be running");
	} else if (state && p->teardown) {
		p->teardown(state);
	}
	ph_add(ph, "teardown", now_s() - t0, NULL);
	if (gpu_probe && st != TCP_OK && !sticky) {
		sticky = sticky_error(sticky_why, sizeof(sticky_why));
	}
	if (sticky) {
		size_t l = strlen(ctx.reason);
		snprintf(ctx.reason + l, sizeof(ctx.reason) - l, "%s(%s: %s; worker restarted)",
			 l ? "; " : "", st == TCP_TIMEOUT ? "device wait timed out" : "sticky CUDA error",
			 sticky_why);
	}

	t0 = now_s();
	struct sbuf *b = &w->msg;
	if (gpu_probe) {
		sb_printf(b, "C\t%d", idx);
		sb_double(b, rtt0);
		sb_double(b, rtt1);
		sb_printf(b, "\n");
	}
	sb_printf(b, "P\t%d\t%s\t%d\t%d\t%s", idx, tcp_status_name(st), ns, nm + nx,
		  stop == TCP_STOP_NONE ? "-" : tcp_stop_name(stop));
	sb_double(b, ctx.work_flop);
	sb_printf(b, "\n");
	for (int m = 0; m < nm + nx; m++) {
		sb_printf(b, "S\t%d", m);
		for (int r = 0; r < ns; r++)
			sb_double(b, smp[(size_t)m * (size_t)pp->reps + (size_t)r]);
		sb_printf(b, "\n");
	}
	if (deferred) {
		sb_printf(b, "W\t%d\n", idx);
	} else {
		send_counter_rows(b, crow, ncrow);
		char siteb[sizeof(ctx.site)];
		sb_printf(b, "E\t%d\t%d\t%s\t", idx, sticky,
			  st == TCP_OK ? "" : one_line(ctx.site, siteb, sizeof(siteb)));
		sb_printf(b, "%s\n", st == TCP_OK ? "" : one_line(ctx.reason, lb, sizeof(lb)));
	}
	sb_flush(b, w->a->res_fd);
	ph_add(ph, "send", now_s() - t0, NULL);
	ph_add(ph, "point", now_s() - t_point, tcp_status_name(st));
	ph_flush(ph);
	/* the batch runs when the supervisor says so (no defer), when it is
	 * full, before a point that could not join it, or when device memory
	 * runs low; after a W or with points waiting, F ends the message */
	if (deferred || nbatch0 > 0) {
		if (sticky)
			_exit(3);	/* the batch is lost with the context: the supervisor runs it again */
		if (!defer || !deferred || w->nbatch == TCP_COUNTERS_BATCH_MAX ||
		    (w->a->gpu >= 0 && memory_low()))
			flush_batch(w);
		sb_printf(b, "F\n");
		sb_flush(b, w->a->res_fd);
	}
	free(smp);
	free(crow);
	if (sticky) {
		fflush(NULL);
		_exit(3);
	}
}

/*
 *  worker_init_gpu()
 *	context, device facts, provenance, counters; NOGPU/BADGPU and exit on
 *	failure
 */
static void worker_init_gpu(struct wstate *w)
{
	const tcp_worker_args_t *a = w->a;
	struct sbuf *b = &w->msg;
	char lb[TCP_PROV_VALLEN + 8];
	int count = 0;
	cudaError_t e = cudaGetDeviceCount(&count);
	if (e == cudaErrorInsufficientDriver) {
		/* a driver older than our runtime (exit 5), or none at all (exit 3) */
		int dv = 0;
		if (cudaDriverGetVersion(&dv) == cudaSuccess && dv > 0 && dv < CUDART_VERSION)
			sb_printf(b, "OLDDRIVER\t%d\t%d\n", dv, CUDART_VERSION);
		else if (dv <= 0)
			sb_printf(b, "NOGPU\tlibcuda.so.1 not found: no NVIDIA driver loaded\n");
		else
			sb_printf(b, "NOGPU\t%s\n", one_line(cudaGetErrorString(e), lb, sizeof(lb)));
		sb_flush(b, a->res_fd);
		_exit(0);
	}
	if (e != cudaSuccess || count == 0) {
		sb_printf(b, "NOGPU\t%s\n", e != cudaSuccess ?
			  one_line(cudaGetErrorString(e), lb, sizeof(lb)) : "cudaGetDeviceCount found 0 devices");
		sb_flush(b, a->res_fd);
		_exit(0);
	}
	if (a->gpu >= count) {
		sb_printf(b, "BADGPU\t%d\n", count);
		sb_flush(b, a->res_fd);
		_exit(0);
	}
	/* which compute process is this one: NVML lists host pids (containers),
	 * so take the list before and after this context exists; only the first
	 * worker can (NVML is not usable in a child forked after the supervisor
	 * opened it: the supervisor diffs for the later ones) */
	unsigned int before[TCP_BUSY_MAX_PIDS], after[TCP_BUSY_MAX_PIDS];
	int nv = a->collect_prov ? tcp_prov_nvml_index(a->gpu) : -1, nb = -1, na = -1;
	char nw[128];
	if (nv >= 0)
		nb = tcp_nvml_compute_pids(nv, before, TCP_BUSY_MAX_PIDS, NULL, nw, sizeof(nw));
	double t0 = now_s();
	if ((e = cudaSetDevice(a->gpu)) != cudaSuccess || (e = cudaFree(NULL)) != cudaSuccess) {
		sb_printf(b, "NOGPU\tGPU %d: %s\n", a->gpu, one_line(cudaGetErrorString(e), lb, sizeof(lb)));
		sb_flush(b, a->res_fd);
		_exit(0);
	}
	ph_add(&w->ph, "ctx", now_s() - t0, NULL);
	if (nb >= 0)
		na = tcp_nvml_compute_pids(nv, after, TCP_BUSY_MAX_PIDS, NULL, nw, sizeof(nw));
	sb_printf(b, "BUSY\t%ld", na >= 0 ? tcp_busy_self(before, nb, after, na) : -1L);
	sb_double(b, tcp_launch_rtt_us(TCP_RTT_LAUNCHES));
	sb_printf(b, "\n");
	int major = 0, minor = 0, sms = 0, smem = 0, khz = 0;
	cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, a->gpu);
	cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, a->gpu);
	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, a->gpu);
	cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, a->gpu);
	cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, a->gpu);
	w->cc = major * 10 + minor;
	w->base.device = a->gpu;
	w->base.cc = w->cc;
	w->base.sm_count = sms;
	w->base.smem_per_block_optin = smem;
	w->base.sm_clock_max_mhz = khz / 1000.0;
	gpu_identity(a->gpu, &w->base);
	if (a->collect_prov) {
		tcp_prov_t *prov = malloc(sizeof(*prov));
		char why[256];
		if (prov) {
			tcp_prov_init(prov);
			tcp_prov_collect_gpu(prov, a->gpu, why, sizeof(why));
			for (int i = 0; i < prov->n; i++) {
				char kb[TCP_PROV_KEYLEN];
				sb_printf(b, "PROV\t%s\t%s\n", one_line(prov->key[i], kb, sizeof(kb)),
					  one_line(prov->val[i], lb, sizeof(lb)));
			}
			free(prov);
		}
	}
	if (strcmp(a->counters, "none") == 0) {
		snprintf(w->ctr_reason, sizeof(w->ctr_reason), "off");
	} else {
		t0 = now_s();
		w->ctr = tcp_counters_open(a->gpu, a->counters, w->ctr_reason, sizeof(w->ctr_reason));
		w->ctr_on = w->ctr || strcmp(w->ctr_reason, "off") != 0;
		ph_add(&w->ph, "ctr_open", now_s() - t0, w->ctr ? "ok" : w->ctr_reason);
		ph_counters(&w->ph, w->ctr, 1, 1);
		if (w->ctr) {
			char note[TCP_REASON_LEN + 16];
			snprintf(note, sizeof(note), "%s%s%s%s", tcp_counters_session(w->ctr),
				 *tcp_counters_session_note(w->ctr) ? " (" : "",
				 tcp_counters_session_note(w->ctr),
				 *tcp_counters_session_note(w->ctr) ? ")" : "");
			ph_add(&w->ph, "ctr_session", 0, note);
			if (a->collect_prov)	/* how the counters were collected, for the record */
				sb_printf(b, "PROV\tcounters_session\t%s\n", one_line(note, lb, sizeof(lb)));
			snprintf(w->ctr_reason, sizeof(w->ctr_reason), "ok");
		}
	}
	sb_printf(b, "CTR\t%s\n", one_line(w->ctr_reason, lb, sizeof(lb)));
	if (a->timer_cupti) {
		char why[TCP_REASON_LEN];
		w->timer_on = tcp_cupti_timer_open(why, sizeof(why)) == 0;
		sb_printf(b, "TIMER\t%s\n", w->timer_on ? "ok" : one_line(why, lb, sizeof(lb)));
	}
}

void tcp_worker_main(const tcp_worker_args_t *a)
{
	static struct wstate w;
	char cmd[64];
	size_t cn = 0;

	/* die with the supervisor; a sweep killed with SIGKILL leaves no worker
	 * holding the GPU */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != a->parent)
		_exit(7);
	/* default dispositions: a crash must kill this process with its signal
	 * (the supervisor names it), whatever handlers the parent installed */
	static const int sigs[] = { SIGINT, SIGTERM, SIGPIPE, SIGSEGV, SIGBUS, SIGFPE, SIGILL,
				    SIGABRT, SIGTRAP, SIGSYS };
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
	/* stdout of `tcprobe run` is for the run directory / the plan: a probe's
	 * printf (or a device printf) goes to stderr instead */
	fflush(stdout);
	dup2(STDERR_FILENO, STDOUT_FILENO);
	memset(&w, 0, sizeof(w));
	w.a = a;
	char err[256];
	if (tcp_plan_reps_rule(a->plan, &w.rule, err, sizeof(err)))
		memset(&w.rule, 0, sizeof(w.rule));	/* the supervisor checked it: cannot happen */
	const char *phf = getenv("TCPROBE_PHASES");
	w.ph.fd = phf && *phf ? open(phf, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : -1;
	w.ph.point = -1;
	w.ph.probe = "worker";
	w.ph.axes = "";
	if (w.ph.fd >= 0 && lseek(w.ph.fd, 0, SEEK_END) == 0)
		sb_printf(&w.ph.b, "pid,point,probe,axes,phase,ms,note\n");
	double t_start = now_s();
	if (a->gpu >= 0)
		worker_init_gpu(&w);
	else
		sb_printf(&w.msg, "CTR\toff\n");
	ph_add(&w.ph, "total", now_s() - t_start, NULL);
	ph_flush(&w.ph);
	sb_printf(&w.msg, "HELLO\t%d\t%d\n", w.cc, w.base.sm_count);
	sb_flush(&w.msg, a->res_fd);

	for (;;) {
		char c;
		ssize_t r = read(a->cmd_fd, &c, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (c != '\n') {
			if (cn < sizeof(cmd) - 1)
				cmd[cn++] = c;
			continue;
		}
		cmd[cn] = '\0';
		cn = 0;
		int idx;
		char tail;
		if (strcmp(cmd, "QUIT") == 0)
			break;
		if (strcmp(cmd, "FLUSH") == 0) {	/* the batch's points now: the next is not for us */
			flush_batch(&w);
			sb_printf(&w.msg, "F\n");
			sb_flush(&w.msg, a->res_fd);
			continue;
		}
		int defer = 0;
		if (sscanf(cmd, "RUN\t%d\t%d%c", &idx, &defer, &tail) != 2 || idx < 0 || idx >= a->plan->n)
			_exit(8);	/* cannot happen: the supervisor wrote it */
		run_point(&w, idx, defer);
		fflush(stdout);	/* a probe's printf reaches the terminal now, not at exit */
	}
	if (w.ctr)
		tcp_counters_close(w.ctr);
	if (w.timer_on)
		tcp_cupti_timer_close();
	fflush(NULL);
	_exit(0);
}
