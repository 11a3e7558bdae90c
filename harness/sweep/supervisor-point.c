/*
 * supervisor-point.c
 *	One point on the worker under its timeout: send it, sample NVML clocks
 *	and clock-event reasons while it runs, hold the --energy / --sustain
 *	window, and turn what came back (or the timeout, or the crash) into the
 *	point's result with exactly one status.
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
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/sweep/supervisor-int.h"

void sup_sampler_start(struct sampler *s, int nvml, tcp_busy_t *busy, tcp_busy_point_t *bp)
{
	memset(s, 0, sizeof(*s));
	s->nvml = nvml;
	s->next = sup_mono() + TCP_NVML_PERIOD_S;
	s->busy = busy;
	s->bp = bp;
}

void sup_sampler_take(struct sampler *s)
{
	if (s->nvml < 0)
		return;
	double mhz = NAN, tc = NAN;
	unsigned long long m = ~0ull;
	tcp_nvml_sample(s->nvml, &mhz, &m, NULL);
	tcp_nvml_temp_c(s->nvml, &tc);
	tcp_mean_add(&s->temp, tc);
	if (s->busy)
		tcp_busy_point_poll(s->busy, s->bp, sup_mono());
	if (!isnan(mhz)) {
		s->sum += mhz;
		s->n++;
	}
	if (m != ~0ull) {
		s->mask |= m & ~TCP_THR_GPU_IDLE;	/* idle between launches is no throttle */
		s->mask_ok = 1;
	}
	s->next = sup_mono() + TCP_NVML_PERIOD_S;
}

/* Probe-level UNSUPPORTED reason for this GPU, or NULL when it runs; in an
 * emulated run, whether it runs emulated (emulate.h). */
const char *sup_unsupported_why(const struct sup *s, const tcp_probe_t *p, int cc, char *buf, size_t len)
{
	if (p->unsupported_reason)
		return p->unsupported_reason;
	if (s->emu.target)
		return tcp_emu_why_not(p->arch, cc, s->emu.target, tcp_build_targets(), buf, len);
	int o = snprintf(buf, len, "unsupported on sm_%d: ", cc);
	if (o < 0 || (size_t)o >= len || !tcp_arch_why_not(p->arch, cc, buf + o, len - (size_t)o))
		return NULL;
	return buf;
}

/* Send the worker a window command ("EW", "EX"): one write, never blocking long. */
static void window_cmd(struct sup *s, const char *c)
{
	char b[8];
	int n = snprintf(b, sizeof(b), "%s\n", c);
	if (write(s->w.cmd_fd, b, (size_t)n) != n)
		sup_log(s, "energy window: cannot send %s to the worker: %s", c, strerror(errno));
}

/* --sustain's trace.csv row at time t (s since the window opened). */
static void trace_row(struct sup *s, double t, double mhz, double w, unsigned long long m, int have0,
		      unsigned long long e0)
{
	unsigned long long ecur;
	double tc = NAN;
	char tb[128];
	int he = have0 && tcp_nvml_energy_mj(s->nvml, &ecur) == 0;
	tcp_nvml_temp_c(s->nvml, &tc);
	fprintf(s->trace, "%.3f,%.0f,%.3f,%.0f,%s,", t, mhz, w, tc,
		m == ~0ull ? "NA" : tcp_nvml_throttle_str(m & ~TCP_THR_GPU_IDLE, tb, sizeof(tb)));
	if (he)
		fprintf(s->trace, "%lld\n", (long long)tcp_energy_delta_mj(e0, ecur, 64));
	else
		fprintf(s->trace, "NA\n");
	fflush(s->trace);
}

/*
 *  energy_window()
 *	after EB (the worker runs the point's load back to back): hold it until
 *	sampled power is flat (tcp_settle_flat, at most --settle seconds), open
 *	the window on an update of the energy counter (EW), sample power /
 *	clock / temperature / throttle reasons every TCP_ENERGY_PERIOD_S for at
 *	least --energy seconds and TCP_ENERGY_MIN_UPDATES counter updates,
 *	close it on the next update (EX), and check the counter's power against
 *	the sampled one.  Returns the next line's sup_worker_line() code (the P
 *	line, or the C line before it); *deadline grows with the window.
 */
enum { EW_SETTLE, EW_OPEN, EW_WINDOW, EW_CLOSE, EW_DONE };

static int energy_window(struct sup *s, int idx, double *deadline, struct sampler *smp,
			 struct result *res, char **line)
{
	unsigned long long e0 = 0, e1 = 0, ecur = 0, eprev = 0;
	int have0 = 0, have1 = 0, haveprev = 0, r, phase, ref = 0;
	char *f[6], e[256];
	long long v;
	tcp_settle_t st;
	double settle_max = s->o->sustain_s > 0 ? 0 : s->settle_s, tw0 = 0, tw1 = 0, close_at = 0,
	       align_until = 0;

	memset(&res->en, 0, sizeof(res->en));
	res->en.update_s = res->en.agree_pct = NAN;
	if (s->w.gpu < 0)
		snprintf(res->en.why, sizeof(res->en.why), "host-only run: no GPU to measure");
	else if (s->nvml < 0)
		snprintf(res->en.why, sizeof(res->en.why), "NVML: %s",
			 s->nvml_why[0] ? s->nvml_why : "not open");
	else if (!(haveprev = tcp_nvml_energy_mj(s->nvml, &eprev) == 0))
		snprintf(res->en.why, sizeof(res->en.why),
			 "NVML has no total-energy counter for this GPU (nvmlDeviceGetTotalEnergyConsumption)");
	if (s->o->sustain_s > 0 && !s->trace && s->dir[0]) {
		char path[PATHLEN];
		if ((s->trace = fopen(sup_path_in(s->dir, "trace.csv", path, sizeof(path)), "w")))
			fprintf(s->trace, "t_s,sm_clock_mhz,power_w,temp_c,throttle,energy_mj\n");
		else
			sup_log(s, "cannot write %s: %s", path, strerror(errno));
	}
	double t0 = sup_mono(), next = t0, tnext = 0;
	tcp_settle_init(&st, t0);
	phase = settle_max > 0 && s->nvml >= 0 ? EW_SETTLE : EW_OPEN;
	align_until = t0 + 0.25;
	if (haveprev)
		tcp_settle_counter(&st, t0, eprev);
	for (;;) {
		double now = sup_mono();
		if (now >= next && phase != EW_DONE) {
			int align = phase == EW_OPEN || phase == EW_CLOSE;
			int hc = haveprev && tcp_nvml_energy_mj(s->nvml, &ecur) == 0;
			if (hc)
				tcp_settle_counter(&st, now, ecur);
			if (align && hc && !ref) {
				ref = 1;	/* the reading an edge waits to see change */
			} else if (align && (!hc || ecur != eprev || now >= align_until)) {
				/* a window edge, right after the counter moved: no part-update at
				 * either end (without a counter: now, the window is timed only) */
				if (phase == EW_OPEN) {
					e0 = ecur, have0 = hc, tw0 = now, tnext = now;
					window_cmd(s, "EW");
					double len = tcp_energy_window_s(s->energy_s, res->en.update_s);
					close_at = now + len;
					*deadline += len - s->energy_s;
					phase = EW_WINDOW;
				} else {
					e1 = ecur, have1 = hc, tw1 = now;
					window_cmd(s, "EX");
					phase = EW_DONE;
				}
			} else if (!align && s->nvml >= 0) {
				double mhz = NAN, w = NAN, tc = NAN;
				unsigned long long m = ~0ull;
				int src = tcp_nvml_power_now(s->nvml, &w);
				if (src >= 0)
					s->power_src = src;
				if (phase == EW_SETTLE) {
					tcp_settle_power(&st, now, w);
					int flat = tcp_settle_flat(&st, now);
					if (flat || now - t0 >= settle_max) {
						res->en.unsettled = !flat;
						res->en.settle_s = now - t0;
						res->en.update_s = tcp_settle_update_s(&st);
						phase = EW_OPEN;
						ref = 0;
						/* the next update comes within two periods (a guess without one) */
						align_until = now + (res->en.update_s > 0 ? 2 * res->en.update_s + 0.01 : 0.25);
					}
				} else {	/* EW_WINDOW */
					tcp_nvml_sample(s->nvml, &mhz, &m, NULL);
					tcp_nvml_temp_c(s->nvml, &tc);
					tcp_mean_add(&res->en.clock, mhz);
					tcp_mean_add(&res->en.power, w);
					tcp_mean_add(&res->en.temp, tc);
					if (m != ~0ull) {
						res->en.mask |= m & ~TCP_THR_GPU_IDLE;
						res->en.mask_ok = 1;
					}
					if (s->trace && now >= tnext) {
						trace_row(s, now - tw0, mhz, w, m, have0, e0);
						tnext += TCP_TRACE_PERIOD_S;
					}
				}
			}
			if (hc)
				eprev = ecur;
			if (phase == EW_WINDOW && now >= close_at) {
				phase = EW_CLOSE;
				ref = 0;
				align_until = now + (res->en.update_s > 0 ? 2 * res->en.update_s + 0.01 : 0.25);
			}
			if (smp->busy)
				tcp_busy_point_poll(smp->busy, smp->bp, now);
			/* the counter is polled every ms while a window edge waits for it */
			next = now + (phase == EW_OPEN || phase == EW_CLOSE ? 0.001 : TCP_ENERGY_PERIOD_S);
		}
		r = sup_worker_line(&s->w, phase != EW_DONE && next < *deadline ? next : *deadline,
				NULL, line);
		if (r == WL_TIMEOUT && sup_mono() < *deadline)
			continue;
		if (r != WL_LINE)
			return r;
		break;	/* EE: the worker closed the window (or its run() failed) */
	}
	if (s->trace) {
		fclose(s->trace);
		s->trace = NULL;
	}
	if (sup_split_tabs(*line, f, 6) != 5 || strcmp(f[0], "EE") != 0 ||
	    tcp_parse_int("point", f[1], idx, idx, &v, e, sizeof(e)) ||
	    tcp_parse_int("runs", f[2], 0, INT64_MAX, &v, e, sizeof(e)) ||
	    sup_parse_double(f[3], &res->en.work_flop) || sup_parse_double(f[4], &res->en.worker_s)) {
		snprintf(res->reason, sizeof(res->reason), "worker protocol error: bad energy window end");
		return 2;
	}
	res->en.runs = v;
	res->en.seen = 1;
	res->en.window_s = phase == EW_DONE ? tw1 - tw0 : 0;
	if (phase != EW_DONE && !res->en.why[0])
		snprintf(res->en.why, sizeof(res->en.why), "the load stopped before the window closed");
	if (phase == EW_DONE && have0 && have1) {
		res->en.mj = tcp_energy_delta_mj(e0, e1, 64);
		res->en.have_e = res->en.mj > 0;
		if (res->en.mj == 0)
			snprintf(res->en.why, sizeof(res->en.why),
				 "energy counter did not advance in %.3f s (resolution): use a longer --energy",
				 res->en.window_s);
		else if (res->en.mj < 0)
			snprintf(res->en.why, sizeof(res->en.why), "energy counter went backwards");
	}
	/* the check: what the counter implies against what was sampled */
	double cw = res->en.have_e ? tcp_energy_power_w((double)res->en.mj, res->en.window_s) : NAN;
	res->en.agree_pct = tcp_energy_agree_pct(cw, tcp_mean_get(&res->en.power));
	size_t o = 0;
	if (res->en.agree_pct > TCP_ENERGY_AGREE_PCT)
		o += (size_t)snprintf(res->en.check + o, sizeof(res->en.check) - o, "power_mismatch");
	if (res->en.unsettled)
		o += (size_t)snprintf(res->en.check + o, sizeof(res->en.check) - o, "%sunsettled", o ? "|" : "");
	if (!res->en.have_e)
		o += (size_t)snprintf(res->en.check + o, sizeof(res->en.check) - o, "%sno_energy", o ? "|" : "");
	else if (isnan(res->en.agree_pct))
		o += (size_t)snprintf(res->en.check + o, sizeof(res->en.check) - o, "%sno_power", o ? "|" : "");
	if (!o)
		snprintf(res->en.check, sizeof(res->en.check), "ok");
	if (res->en.mask_ok)	/* the point's throttle column covers the window too */
		smp->mask |= res->en.mask, smp->mask_ok = 1;
	return sup_worker_line(&s->w, *deadline, smp, line);
}

/* Append one metric row (a krow) to res; 0, or -1 out of memory. */
static int add_row(struct result *res, const char *metric, const char *unit, double v, const char *why)
{
	struct krow *nk = realloc(res->k, sizeof(*nk) * (size_t)(res->nk + 1));
	if (!nk)
		return -1;
	res->k = nk;
	struct krow *k = &res->k[res->nk];
	int ok = !why && !isnan(v);
	k->metric = strdup(metric);
	k->unit = strdup(unit);
	k->reason = strdup(ok ? "" : why ? why : "no NVML reading in the window");
	k->v = ok ? v : NAN;
	k->st = ok ? TCP_OK : TCP_UNSUPPORTED;
	res->nk++;
	return k->metric && k->unit && k->reason ? 0 : -1;
}

/*
 *  energy_rows()
 *	the --energy rows of an OK point: NA (UNSUPPORTED, with the reason)
 *	wherever NVML gave nothing; the cycle metrics are untouched
 */
static int energy_rows(struct sup *s, struct result *res)
{
	const char *ew = res->en.have_e ? NULL : res->en.why[0] ? res->en.why : "no energy reading";
	const char *nf = "the probe reports no FLOP per run() (work_flop n/a)";
	double mj = res->en.have_e ? (double)res->en.mj : NAN;
	double flop = (double)res->en.runs * res->en.work_flop;
	const char *sw = s->nvml < 0 ? ew : NULL;
	int rc = 0;

	if (!res->en.seen)
		return 0;
	rc |= add_row(res, "energy_mj", "mJ", mj, ew);
	rc |= add_row(res, "energy_window_s", "s", res->en.window_s, NULL);
	rc |= add_row(res, "energy_runs", "runs", (double)res->en.runs, NULL);
	rc |= add_row(res, "power_w_mean", "W", tcp_mean_get(&res->en.power), sw);
	rc |= add_row(res, "pj_per_flop", "pJ/FLOP",
		      tcp_energy_pj_per_flop(mj, res->en.runs, res->en.work_flop),
		      ew ? ew : res->en.work_flop > 0 ? NULL : nf);
	rc |= add_row(res, "tflops_energy", "TFLOP/s",
		      res->en.worker_s > 0 && res->en.work_flop > 0 ? flop / res->en.worker_s / 1e12 : NAN,
		      res->en.work_flop > 0 ? NULL : nf);
	rc |= add_row(res, "sm_clock_mhz_energy", "MHz", tcp_mean_get(&res->en.clock), sw);
	rc |= add_row(res, "throttle_mask_energy", "mask", res->en.mask_ok ? (double)res->en.mask : NAN,
		      sw ? sw : res->en.mask_ok ? NULL : "NVML gave no clock-event reasons");
	/* what makes the energy independent of the previous point (energy.h) */
	rc |= add_row(res, "power_w_counter", "W", tcp_energy_power_w(mj, res->en.window_s), ew);
	rc |= add_row(res, "power_agree_pct", "%", res->en.agree_pct,
		      ew ? ew : sw ? sw : isnan(res->en.agree_pct) ? "no power samples in the window" : NULL);
	rc |= add_row(res, "settle_s", "s", res->en.settle_s, sw);
	rc |= add_row(res, "energy_update_ms", "ms", res->en.update_s * 1e3,
		      sw ? sw : isnan(res->en.update_s) ? "the energy counter moved fewer than twice while settling" : NULL);
	rc |= add_row(res, "gpu_temp_c_energy", "C", tcp_mean_get(&res->en.temp), sw);
	return rc ? -1 : 0;
}

/* What the waiting points' counter pass may take: their timeouts, summed. */
static double batch_timeout(const struct sup *s)
{
	double t = 0;
	for (int k = 0; k < s->npend; k++)
		t += tcp_emu_timeout(&s->emu, s->plan.p[s->pend_idx[k]].timeout);
	return t;
}

/*
 *  sup_run_point()
 *	send point idx to the worker, collect its message under the timeout,
 *	turn a hang, a crash or garbage into a TIMEOUT / FAILED result and
 *	replace the worker
 */
int sup_run_point(struct sup *s, int idx, struct result *res)
{
	const tcp_plan_point_t *pp = &s->plan.p[idx];
	struct sampler smp;
	char msg[32], why[512];
	int gpu_probe = pp->probe->arch != TCP_ARCH_HOST && s->w.gpu >= 0;
	/* the worker may keep this point's counter pass for a batch: not with an
	 * energy window, not after a lost batch, and a batch ends before it is full */
	int defer = s->batch > 1 && s->energy_s <= 0 && idx > s->nodefer_until && s->npend + 1 < s->batch &&
		    idx + 1 < s->plan.n;

	for (int attempt = 0;; attempt++) {
		if (s->w.pid == 0 && s->npend > 0) {
			/* the worker that held the batch is gone: the caller runs it again */
			res->batch_lost = 1;
			res->st = TCP_FAILED;
			snprintf(res->reason, sizeof(res->reason), "the worker holding a counter batch is gone");
			return RUN_DONE;
		}
		if (s->w.pid == 0) {
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
		}
		int n = snprintf(msg, sizeof(msg), "RUN\t%d\t%d\n", idx, defer);
		if (write(s->w.cmd_fd, msg, (size_t)n) == n)
			break;
		/* died between points (e.g. after a sticky error): replace, retry once */
		sup_worker_reap(&s->w, why, sizeof(why));
		sup_log(s, "worker gone before point %d: %s", idx, why);
		if (attempt) {
			sup_die("worker for GPU %d dies before taking a point: %s", s->w.gpu, why);
			return RUN_FATAL;
		}
	}
	tcp_busy_point_t bp;
	double t0 = sup_mono();
	if (gpu_probe)
		tcp_busy_point_begin(&s->busy, &bp, t0);
	sup_sampler_start(&smp, gpu_probe ? s->nvml : -1, gpu_probe ? &s->busy : NULL, &bp);
	/* an energy window adds its settle period (bounded) and its length */
	double deadline = t0 + tcp_emu_timeout(&s->emu, pp->timeout) + (s->energy_s > 0 ? s->energy_s + s->settle_s + 2.0 : 0);
	deadline += batch_timeout(s);	/* a batch's counter pass may run now */
	char *line, *f[7], ex[96];
	int r = sup_worker_line(&s->w, deadline, &smp, &line), nf = 0;
	if (r == WL_LINE && strncmp(line, "EB\t", 3) == 0)
		r = energy_window(s, idx, &deadline, &smp, res, &line);
	if (r == WL_LINE && strncmp(line, "C\t", 2) == 0) {
		/* the worker's launch round trips before and after the point */
		nf = sup_split_tabs(line, f, 5);
		if (nf != 4 || sup_parse_double(f[2], &res->rtt0) || sup_parse_double(f[3], &res->rtt1)) {
			snprintf(res->reason, sizeof(res->reason), "worker protocol error: bad C line");
			r = 2;
		} else {
			r = sup_worker_line(&s->w, deadline, &smp, &line);
		}
	}
	if (r == WL_LINE) {
		char copy[128];
		snprintf(copy, sizeof(copy), "%s", line);
		nf = sup_split_tabs(line, f, 7);
		if (strcmp(f[0], "P") == 0) {
			r = sup_parse_point_msg(s, idx, f, nf, deadline, &smp, res);
			if (r == 0 && (res->deferred || s->npend > 0))
				r = sup_read_batch(s, deadline, &smp, idx, res);
		} else {
			snprintf(res->reason, sizeof(res->reason), "worker protocol error: unexpected '%s'",
				 sup_excerpt(copy, ex, sizeof(ex)));
			r = 2;
		}
	}
	if (gpu_probe && s->nvml >= 0)
		sup_sampler_take(&smp);	/* at least one reading, even for a short point */
	s->t_run += sup_mono() - t0;
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
			 tcp_emu_timeout(&s->emu, pp->timeout), s->emu.target ? " (emulated: x --emu-slowdown)" : "");
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
	default:	/* 2: garbage; the reason is set */
		sup_worker_kill(&s->w);
		res->st = TCP_FAILED;
		break;
	}
	if (r != 0 && (s->npend > 0 || res->deferred)) {
		res->batch_lost = 1;	/* the caller runs the batch's points again */
		sup_log(s, "point %d %s %s: %s: %s (a counter batch of %d points was waiting)", idx,
			pp->probe->name, pp->key, tcp_status_name(res->st), res->reason, s->npend);
	}
	if (r != 0) {	/* what the worker sent before failing is not trusted */
		for (int i = 0; i < res->nk; i++) {
			free(res->k[i].metric);
			free(res->k[i].unit);
			free(res->k[i].reason);
		}
		res->nk = 0;
		res->ns = 0;
		res->nm = pp->probe->nmetrics + sup_extra_series(s, pp->probe);
		sup_log(s, "point %d %s %s: %s: %s", idx, pp->probe->name, pp->key,
		      tcp_status_name(res->st), res->reason);
	}
	if (r == 0 && s->energy_s > 0 && res->st == TCP_OK && energy_rows(s, res)) {
		res->st = TCP_FAILED;
		snprintf(res->reason, sizeof(res->reason), "supervisor out of memory");
	}
	if (gpu_probe) {
		tcp_busy_point_end(&s->busy, &bp, res->rtt0, res->rtt1);
		res->contended = bp.contended;
		if (bp.contended > 0)
			sup_log(s, "point %d %s %s: contended: %s", idx, pp->probe->name, pp->key, bp.why);
		res->temp_c = res->en.seen && !isnan(tcp_mean_get(&res->en.temp)) ? tcp_mean_get(&res->en.temp)
										 : tcp_mean_get(&smp.temp);
		res->clock_mhz = smp.n ? smp.sum / smp.n : NAN;
		if (smp.mask_ok)
			tcp_nvml_throttle_str(smp.mask, res->throttle, sizeof(res->throttle));
		else
			snprintf(res->throttle, sizeof(res->throttle), "NA");
	}
	return RUN_DONE;
}

/*
 *  sup_flush_batch()
 *	the points waiting for a counter batch (s->pend), completed now: FLUSH,
 *	then their completions and F (sup_read_batch).  0; or -1 with why, the
 *	worker killed (the caller runs those points again).
 */
int sup_flush_batch(struct sup *s, char *why, size_t len)
{
	struct result none;
	struct sampler smp;
	double deadline = sup_mono() + 5.0 + batch_timeout(s);
	int r = -1;

	memset(&none, 0, sizeof(none));
	sup_sampler_start(&smp, -1, NULL, NULL);
	if (s->w.pid > 0 && write(s->w.cmd_fd, "FLUSH\n", 6) == 6)
		r = sup_read_batch(s, deadline, &smp, -1, &none);
	else
		snprintf(none.reason, sizeof(none.reason), "the worker is gone");
	if (r == 0)
		return 0;
	snprintf(why, len, "%s", r == WL_TIMEOUT ? "no answer in time" : r == WL_EOF ? "the worker exited" :
		 none.reason[0] ? none.reason : "worker protocol error");
	sup_worker_kill(&s->w);
	return -1;
}
