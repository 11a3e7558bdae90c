/*
 * supervisor-point.c
 *	The point runner: one point on the worker under its timeout.  Send it
 *	(a fresh worker first when the last one is gone), sample NVML clocks
 *	and clock-event reasons while it runs, hold its --energy / --sustain
 *	window (supervisor-energy.c), read its message (supervisor-result.c)
 *	and any counter batch it completes (supervisor-batch.c), and turn what
 *	came back (or the timeout, or the crash) into the point's result with
 *	exactly one status.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness/sweep/protocol.h"
#include "harness/sweep/supervisor-int.h"

enum { SENT = -1 };

/* A worker in place of one that is gone: 0, or RUN_SIGNAL / RUN_FATAL (said). */
static int restart(struct sup *s)
{
	char why[512];
	tcp_busy_spawn_begin(&s->busy);	/* the list the new context will join */
	int rc = sup_worker_spawn(s, 0, s->w.gpu, why, sizeof(why));
	if (rc == SPAWN_SIGNAL)
		return RUN_SIGNAL;
	if (rc != SPAWN_OK) {
		sup_die("worker for GPU %d could not be restarted: %s", s->w.gpu, why);
		sup_log(s, "worker could not be restarted: %s", why);
		return RUN_FATAL;
	}
	tcp_busy_spawn_end(&s->busy, s->w.self);
	sup_log(s, "worker restarted (pid %d)", (int)s->w.pid);
	return 0;
}

/*
 *  send_point()
 *	RUN idx to the worker, restarting it when it is gone (once more when it
 *	dies between points, e.g. after a sticky error): SENT; RUN_DONE when
 *	the worker that held a counter batch is gone (res: the batch is lost);
 *	RUN_SIGNAL or RUN_FATAL
 */
static int send_point(struct sup *s, int idx, int defer, struct result *res)
{
	char msg[32], why[512];
	for (int attempt = 0;; attempt++) {
		if (s->w.pid == 0 && s->npend > 0) {
			/* the worker that held the batch is gone: the caller runs it again */
			res->batch_lost = 1;
			res->st = TCP_FAILED;
			snprintf(res->reason, sizeof(res->reason), "the worker holding a counter batch is gone");
			return RUN_DONE;
		}
		int rc = s->w.pid == 0 ? restart(s) : 0;
		if (rc)
			return rc;
		if (sup_worker_send(&s->w, msg, tcp_msg_put_run(msg, sizeof(msg), idx, defer)) == 0)
			return SENT;
		sup_worker_reap(&s->w, why, sizeof(why));
		sup_log(s, "worker gone before point %d: %s", idx, why);
		if (attempt) {
			sup_die("worker for GPU %d dies before taking a point: %s", s->w.gpu, why);
			return RUN_FATAL;
		}
	}
}

/* The C line (the worker's launch round trips before and after the point),
 * then the next line: its WL_* code. */
static int read_rtt(struct sup *s, char **line, double deadline, struct sampler *smp, struct result *res)
{
	char *f[TCP_MSG_MAXF];
	int nf = tcp_msg_split(*line, f, TCP_MSG_MAXF);
	if (tcp_msg_get_c(f, nf, &res->rtt0, &res->rtt1)) {
		snprintf(res->reason, sizeof(res->reason), "worker protocol error: bad C line");
		return WL_GARBAGE;
	}
	return sup_worker_line(&s->w, deadline, smp, line);
}

/*
 *  read_point()
 *	point idx's message: its energy window (EB .. EE), C, P and the rest,
 *	then the batch it completes when one is owed.  0, or a WL_* code with
 *	the reason in res.
 */
static int read_point(struct sup *s, int idx, double *deadline, struct sampler *smp, struct result *res)
{
	char *line, *f[TCP_MSG_MAXF], copy[128];
	int r = sup_worker_line(&s->w, *deadline, smp, &line);
	if (r == WL_LINE && tcp_msg_is(line, "EB"))
		r = sup_energy_window(s, idx, deadline, smp, res, &line);
	if (r == WL_LINE && tcp_msg_is(line, "C"))
		r = read_rtt(s, &line, *deadline, smp, res);
	if (r != WL_LINE)
		return r;
	snprintf(copy, sizeof(copy), "%s", line);
	int nf = tcp_msg_split(line, f, TCP_MSG_MAXF);
	if (strcmp(f[0], "P") != 0)
		return sup_unexpected(res, copy);
	r = sup_read_point(s, idx, f, nf, *deadline, smp, res);
	if (r == 0 && (res->deferred || s->npend > 0))
		r = sup_batch_read(s, *deadline, smp, idx, res);
	return r;
}

/* A point that did not come back whole: its status and reason, the worker
 * killed or reaped; RUN_SIGNAL on SIGINT/SIGTERM, else RUN_DONE. */
static int outcome(struct sup *s, int idx, int r, struct result *res)
{
	const tcp_plan_point_t *pp = &s->plan.p[idx];
	char why[512];
	switch (r) {
	case 0:
		if (res->sticky) {
			sup_worker_reap(&s->w, why, sizeof(why));
			sup_log(s, "worker exited after a sticky CUDA error at point %d (%s)", idx, why);
		}
		break;
	case WL_SIGNAL:
		sup_worker_kill(&s->w);
		return RUN_SIGNAL;
	case WL_TIMEOUT:
		sup_worker_kill(&s->w);
		res->st = TCP_TIMEOUT;
		snprintf(res->reason, sizeof(res->reason), "no result within the %g s point timeout%s; worker killed",
			 tcp_emu_timeout(&s->cfg.emu, pp->timeout), s->cfg.emu.target ? " (emulated: x --emu-slowdown)" : "");
		snprintf(res->site, sizeof(res->site), "%s", TCP_BLOCK_SUPERVISOR);
		break;
	case WL_EOF:
		sup_worker_reap(&s->w, why, sizeof(why));
		res->st = TCP_FAILED;
		if (snprintf(res->reason, sizeof(res->reason), "%s", why) >= (int)sizeof(res->reason))
			res->reason[sizeof(res->reason) - 1] = '\0';
		break;
	case WL_TOOLONG:
		sup_worker_kill(&s->w);
		res->st = TCP_FAILED;
		snprintf(res->reason, sizeof(res->reason), "worker protocol error: a line longer than %u bytes",
			 LINE_MAX_BYTES);
		break;
	default:	/* WL_GARBAGE: the reason is set */
		sup_worker_kill(&s->w);
		res->st = TCP_FAILED;
		break;
	}
	return RUN_DONE;
}

/* After a failure: a batch that was waiting is lost (the caller runs its
 * points again), and what the worker sent is not trusted. */
static void failed(struct sup *s, int idx, struct result *res)
{
	const tcp_plan_point_t *pp = &s->plan.p[idx];
	const tcp_probe_t *p = pp->probe;
	if (s->npend > 0 || res->deferred) {
		res->batch_lost = 1;
		sup_log(s, "point %d %s %s: %s: %s (a counter batch of %d points was waiting)", idx, p->name,
			pp->key, tcp_status_name(res->st), res->reason, s->npend);
	}
	sup_result_distrust(res, p->nmetrics + tcp_config_extra_series(&s->cfg, s->w.gpu >= 0 && p->arch != TCP_ARCH_HOST));
	sup_log(s, "point %d %s %s: %s: %s", idx, p->name, pp->key, tcp_status_name(res->st), res->reason);
}

/* A GPU point's contention verdict, temperature, clock and clock-event reasons. */
static void gpu_facts(struct sup *s, int idx, tcp_busy_point_t *bp, const struct sampler *smp, struct result *res)
{
	const tcp_plan_point_t *pp = &s->plan.p[idx];
	tcp_busy_point_end(&s->busy, bp, res->rtt0, res->rtt1);
	res->contended = bp->contended;
	if (bp->contended > 0)
		sup_log(s, "point %d %s %s: contended: %s", idx, pp->probe->name, pp->key, bp->why);
	res->temp_c = res->en.seen && !isnan(tcp_mean_get(&res->en.temp)) ? tcp_mean_get(&res->en.temp)
									   : tcp_mean_get(&smp->temp);
	res->clock_mhz = smp->n ? smp->sum / smp->n : NAN;
	if (smp->mask_ok)
		tcp_nvml_throttle_str(smp->mask, res->throttle, sizeof(res->throttle));
	else
		snprintf(res->throttle, sizeof(res->throttle), "NA");
}

/* The worker may keep this point's counter pass for a batch: not with an
 * energy window, not after a lost batch, and a batch ends before it is full. */
static int may_defer(const struct sup *s, int idx)
{
	const tcp_run_config_t *c = &s->cfg;
	return c->batch > 1 && c->energy_s <= 0 && idx > s->nodefer_until && s->npend + 1 < c->batch &&
	       idx + 1 < s->plan.n;
}

/* When the point's message must be in: its timeout (x the slowdown when
 * emulated), an energy window's settle period (bounded) and length, and the
 * counter pass of a batch that may run now. */
static double point_deadline(const struct sup *s, int idx, double t0)
{
	const tcp_run_config_t *c = &s->cfg;
	double deadline = t0 + tcp_emu_timeout(&c->emu, s->plan.p[idx].timeout) +
			  (c->energy_s > 0 ? c->energy_s + c->settle_s + 2.0 : 0);
	return deadline + sup_batch_timeout(s);
}

/* After the message: a failure's consequences, or an OK point's energy rows. */
static void after(struct sup *s, int idx, int r, struct result *res)
{
	if (r != 0) {
		failed(s, idx, res);
	} else if (s->cfg.energy_s > 0 && res->st == TCP_OK && sup_energy_rows(s, res)) {
		res->st = TCP_FAILED;
		snprintf(res->reason, sizeof(res->reason), "supervisor out of memory");
	}
}

/*
 *  sup_run_point()
 *	send point idx to the worker, collect its message under the timeout,
 *	turn a hang, a crash or garbage into a TIMEOUT / FAILED result and
 *	replace the worker
 */
int sup_run_point(struct sup *s, int idx, struct result *res)
{
	struct sampler smp;
	tcp_busy_point_t bp;
	int gpu_probe = s->plan.p[idx].probe->arch != TCP_ARCH_HOST && s->w.gpu >= 0;
	int r = send_point(s, idx, may_defer(s, idx), res);
	if (r != SENT)
		return r;
	double t0 = sup_mono();
	if (gpu_probe)
		tcp_busy_point_begin(&s->busy, &bp, t0);
	sup_sampler_start(&smp, gpu_probe ? s->nvml : -1, gpu_probe ? &s->busy : NULL, &bp);
	double deadline = point_deadline(s, idx, t0);
	r = read_point(s, idx, &deadline, &smp, res);
	if (gpu_probe && s->nvml >= 0)
		sup_sampler_take(&smp);	/* at least one reading, even for a short point */
	s->t_run += sup_mono() - t0;
	if (outcome(s, idx, r, res) == RUN_SIGNAL)
		return RUN_SIGNAL;
	after(s, idx, r, res);
	if (gpu_probe)
		gpu_facts(s, idx, &bp, &smp, res);
	return RUN_DONE;
}
