/*
 * supervisor-energy.c
 *	A point's --energy / --sustain window, supervisor side (the worker
 *	runs the load: worker-point.c).  After EB the load runs back to back;
 *	this side holds it until sampled power is flat (tcp_settle_flat, at
 *	most --settle seconds), opens the window on an update of the energy
 *	counter (EW), samples power, clock, temperature and clock-event
 *	reasons every TCP_ENERGY_PERIOD_S for at least --energy seconds and
 *	TCP_ENERGY_MIN_UPDATES counter updates, closes it on the next update
 *	(EX), reads EE and checks the counter's power against the sampled one.
 *	--sustain adds DIR/trace.csv.  Then the point's energy rows.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness/sweep/protocol.h"
#include "harness/sweep/supervisor-int.h"

enum { EW_SETTLE, EW_OPEN, EW_WINDOW, EW_CLOSE, EW_DONE };

/* One window on its way. */
struct ewin {
	struct sup *s;
	struct result *res;
	struct sampler *smp;
	double *deadline;			/* the point's; grows with the window */
	unsigned long long e0, e1, ecur, eprev;	/* energy counter readings (mJ) */
	int have0, have1, haveprev;
	int phase, ref;				/* ref: an edge has its reading to see change */
	tcp_settle_t st;
	double settle_max, t0, tw0, tw1, close_at, align_until, next, tnext;
};

/* Send the worker a window command (EW, EX): one write, never blocking long. */
static void window_cmd(struct sup *s, tcp_cmd_t c)
{
	char b[8];
	int n = tcp_msg_put_cmd(b, sizeof(b), c);
	if (sup_worker_send(&s->w, b, n))
		sup_log(s, "energy window: cannot send %s to the worker: %s", c == TCP_CMD_EW ? "EW" : "EX",
			strerror(errno));
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

/* Why there will be no energy, as far as known before the load; the first
 * counter reading; --sustain's trace.csv opened. */
static void ew_begin(struct ewin *ew)
{
	struct sup *s = ew->s;
	struct energy *en = &ew->res->en;
	memset(en, 0, sizeof(*en));
	en->update_s = en->agree_pct = NAN;
	if (s->w.gpu < 0)
		snprintf(en->why, sizeof(en->why), "host-only run: no GPU to measure");
	else if (s->nvml < 0)
		snprintf(en->why, sizeof(en->why), "NVML: %s", s->nvml_why[0] ? s->nvml_why : "not open");
	else if (!(ew->haveprev = tcp_nvml_energy_mj(s->nvml, &ew->eprev) == 0))
		snprintf(en->why, sizeof(en->why),
			 "NVML has no total-energy counter for this GPU (nvmlDeviceGetTotalEnergyConsumption)");
	if (s->cfg.sustain_s > 0 && !s->trace && s->dir[0]) {
		char path[PATHLEN];
		if ((s->trace = fopen(sup_path_in(s->dir, "trace.csv", path, sizeof(path)), "w")))
			fprintf(s->trace, "t_s,sm_clock_mhz,power_w,temp_c,throttle,energy_mj\n");
		else
			sup_log(s, "cannot write %s: %s", path, strerror(errno));
	}
	ew->settle_max = s->cfg.sustain_s > 0 ? 0 : s->cfg.settle_s;
	ew->t0 = ew->next = sup_mono();
	tcp_settle_init(&ew->st, ew->t0);
	ew->phase = ew->settle_max > 0 && s->nvml >= 0 ? EW_SETTLE : EW_OPEN;
	ew->align_until = ew->t0 + 0.25;
	if (ew->haveprev)
		tcp_settle_counter(&ew->st, ew->t0, ew->eprev);
}

/* The next update of the counter comes within two periods (a guess without one). */
static double align_until(const struct ewin *ew, double now)
{
	double u = ew->res->en.update_s;
	return now + (u > 0 ? 2 * u + 0.01 : 0.25);
}

/* A window edge, right after the counter moved: no part-update at either end
 * (without a counter: now, the window is timed only). */
static void ew_edge(struct ewin *ew, double now, int hc)
{
	struct sup *s = ew->s;
	if (ew->phase == EW_OPEN) {
		ew->e0 = ew->ecur, ew->have0 = hc, ew->tw0 = now, ew->tnext = now;
		window_cmd(s, TCP_CMD_EW);
		double len = tcp_energy_window_s(s->cfg.energy_s, ew->res->en.update_s);
		ew->close_at = now + len;
		*ew->deadline += len - s->cfg.energy_s;
		ew->phase = EW_WINDOW;
	} else {
		ew->e1 = ew->ecur, ew->have1 = hc, ew->tw1 = now;
		window_cmd(s, TCP_CMD_EX);
		ew->phase = EW_DONE;
	}
}

/* Settling: power sampled until it is flat or the bound runs out. */
static void ew_settle(struct ewin *ew, double now, double w)
{
	struct energy *en = &ew->res->en;
	tcp_settle_power(&ew->st, now, w);
	int flat = tcp_settle_flat(&ew->st, now);
	if (flat || now - ew->t0 >= ew->settle_max) {
		en->unsettled = !flat;
		en->settle_s = now - ew->t0;
		en->update_s = tcp_settle_update_s(&ew->st);
		ew->phase = EW_OPEN;
		ew->ref = 0;
		ew->align_until = align_until(ew, now);
	}
}

/* In the window: clock, power, temperature, clock-event reasons; trace.csv. */
static void ew_sample(struct ewin *ew, double now, double w)
{
	struct sup *s = ew->s;
	struct energy *en = &ew->res->en;
	double mhz = NAN, tc = NAN;
	unsigned long long m = ~0ull;
	tcp_nvml_sample(s->nvml, &mhz, &m, NULL);
	tcp_nvml_temp_c(s->nvml, &tc);
	tcp_mean_add(&en->clock, mhz);
	tcp_mean_add(&en->power, w);
	tcp_mean_add(&en->temp, tc);
	if (m != ~0ull) {
		en->mask |= m & ~TCP_THR_GPU_IDLE;
		en->mask_ok = 1;
	}
	if (s->trace && now >= ew->tnext) {
		trace_row(s, now - ew->tw0, mhz, w, m, ew->have0, ew->e0);
		ew->tnext += TCP_TRACE_PERIOD_S;
	}
}

/* A power reading, for the settle period or the window. */
static void ew_power(struct ewin *ew, double now)
{
	double w = NAN;
	int src = tcp_nvml_power_now(ew->s->nvml, &w);
	if (src >= 0)
		ew->s->power_src = src;
	if (ew->phase == EW_SETTLE)
		ew_settle(ew, now, w);
	else
		ew_sample(ew, now, w);
}

/* An edge waits for the counter to move (or for align_until). */
static void ew_align(struct ewin *ew, double now, int hc)
{
	if (hc && !ew->ref)
		ew->ref = 1;	/* the reading an edge waits to see change */
	else if (!hc || ew->ecur != ew->eprev || now >= ew->align_until)
		ew_edge(ew, now, hc);
}

/* One step of the window at `now`; the next one's time in ew->next. */
static void ew_step(struct ewin *ew, double now)
{
	struct sup *s = ew->s;
	int align = ew->phase == EW_OPEN || ew->phase == EW_CLOSE;
	int hc = ew->haveprev && tcp_nvml_energy_mj(s->nvml, &ew->ecur) == 0;
	if (hc)
		tcp_settle_counter(&ew->st, now, ew->ecur);
	if (align)
		ew_align(ew, now, hc);
	else if (s->nvml >= 0)
		ew_power(ew, now);
	if (hc)
		ew->eprev = ew->ecur;
	if (ew->phase == EW_WINDOW && now >= ew->close_at) {
		ew->phase = EW_CLOSE;
		ew->ref = 0;
		ew->align_until = align_until(ew, now);
	}
	if (ew->smp->busy)
		tcp_busy_point_poll(ew->smp->busy, ew->smp->bp, now);
	/* the counter is polled every ms while a window edge waits for it */
	ew->next = now + (ew->phase == EW_OPEN || ew->phase == EW_CLOSE ? 0.001 : TCP_ENERGY_PERIOD_S);
}

/* The energy the counter measured, and why not. */
static void ew_energy(struct ewin *ew)
{
	struct energy *en = &ew->res->en;
	en->window_s = ew->phase == EW_DONE ? ew->tw1 - ew->tw0 : 0;
	if (ew->phase != EW_DONE && !en->why[0])
		snprintf(en->why, sizeof(en->why), "the load stopped before the window closed");
	if (ew->phase == EW_DONE && ew->have0 && ew->have1) {
		en->mj = tcp_energy_delta_mj(ew->e0, ew->e1, 64);
		en->have_e = en->mj > 0;
		if (en->mj == 0)
			snprintf(en->why, sizeof(en->why),
				 "energy counter did not advance in %.3f s (resolution): use a longer --energy",
				 en->window_s);
		else if (en->mj < 0)
			snprintf(en->why, sizeof(en->why), "energy counter went backwards");
	}
}

/* The check: what the counter implies against what was sampled (energy_check). */
static void ew_check(struct energy *en)
{
	double cw = en->have_e ? tcp_energy_power_w((double)en->mj, en->window_s) : NAN;
	size_t o = 0;
	en->agree_pct = tcp_energy_agree_pct(cw, tcp_mean_get(&en->power));
	if (en->agree_pct > TCP_ENERGY_AGREE_PCT)
		o += (size_t)snprintf(en->check + o, sizeof(en->check) - o, "power_mismatch");
	if (en->unsettled)
		o += (size_t)snprintf(en->check + o, sizeof(en->check) - o, "%sunsettled", o ? "|" : "");
	if (!en->have_e)
		o += (size_t)snprintf(en->check + o, sizeof(en->check) - o, "%sno_energy", o ? "|" : "");
	else if (isnan(en->agree_pct))
		o += (size_t)snprintf(en->check + o, sizeof(en->check) - o, "%sno_power", o ? "|" : "");
	if (!o)
		snprintf(en->check, sizeof(en->check), "ok");
}

/*
 *  sup_energy_window()
 *	after EB (the worker runs the point's load back to back): the window,
 *	then its EE line.  Returns the next line's sup_worker_line() code (the
 *	P line, or the C line before it); *deadline grows with the window.
 */
int sup_energy_window(struct sup *s, int idx, double *deadline, struct sampler *smp, struct result *res,
		      char **line)
{
	struct ewin ew = { .s = s, .res = res, .smp = smp, .deadline = deadline };
	char *f[TCP_MSG_MAXF];
	long long runs;
	int r;

	ew_begin(&ew);
	for (;;) {
		double now = sup_mono();
		if (now >= ew.next && ew.phase != EW_DONE)
			ew_step(&ew, now);
		r = sup_worker_line(&s->w, ew.phase != EW_DONE && ew.next < *deadline ? ew.next : *deadline, NULL,
				    line);
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
	int nf = tcp_msg_split(*line, f, TCP_MSG_MAXF);
	if (tcp_msg_get_ee(f, nf, idx, &runs, &res->en.work_flop, &res->en.worker_s)) {
		snprintf(res->reason, sizeof(res->reason), "worker protocol error: bad energy window end");
		return WL_GARBAGE;
	}
	res->en.runs = runs;
	res->en.seen = 1;
	ew_energy(&ew);
	ew_check(&res->en);
	if (res->en.mask_ok)	/* the point's throttle column covers the window too */
		smp->mask |= res->en.mask, smp->mask_ok = 1;
	return sup_worker_line(&s->w, *deadline, smp, line);
}

/* Append one energy row: NA (UNSUPPORTED, with the reason) wherever NVML
 * gave nothing.  0, or -1 out of memory. */
static int add_row(struct result *res, const char *metric, const char *unit, double v, const char *why)
{
	int ok = !why && !isnan(v);
	return sup_result_add_row(res, metric, unit, ok ? v : NAN, ok ? TCP_OK : TCP_UNSUPPORTED,
				  ok ? "" : why ? why : "no NVML reading in the window");
}

/* The energy, its rate and its work (ew: why no energy; sw: why no samples). */
static int rows_energy(struct result *res, const char *ew, const char *sw, double mj)
{
	const struct energy *en = &res->en;
	const char *nf = "the probe reports no FLOP per run() (work_flop n/a)";
	double flop = (double)en->runs * en->work_flop;
	int rc = 0;
	rc |= add_row(res, "energy_mj", "mJ", mj, ew);
	rc |= add_row(res, "energy_window_s", "s", en->window_s, NULL);
	rc |= add_row(res, "energy_runs", "runs", (double)en->runs, NULL);
	rc |= add_row(res, "power_w_mean", "W", tcp_mean_get(&en->power), sw);
	rc |= add_row(res, "pj_per_flop", "pJ/FLOP", tcp_energy_pj_per_flop(mj, en->runs, en->work_flop),
		      ew ? ew : en->work_flop > 0 ? NULL : nf);
	rc |= add_row(res, "tflops_energy", "TFLOP/s",
		      en->worker_s > 0 && en->work_flop > 0 ? flop / en->worker_s / 1e12 : NAN,
		      en->work_flop > 0 ? NULL : nf);
	rc |= add_row(res, "sm_clock_mhz_energy", "MHz", tcp_mean_get(&en->clock), sw);
	rc |= add_row(res, "throttle_mask_energy", "mask", en->mask_ok ? (double)en->mask : NAN,
		      sw ? sw : en->mask_ok ? NULL : "NVML gave no clock-event reasons");
	return rc;
}

/* What makes the energy independent of the previous point (energy.h). */
static int rows_independence(struct result *res, const char *ew, const char *sw, double mj)
{
	const struct energy *en = &res->en;
	int rc = 0;
	rc |= add_row(res, "power_w_counter", "W", tcp_energy_power_w(mj, en->window_s), ew);
	rc |= add_row(res, "power_agree_pct", "%", en->agree_pct,
		      ew ? ew : sw ? sw : isnan(en->agree_pct) ? "no power samples in the window" : NULL);
	rc |= add_row(res, "settle_s", "s", en->settle_s, sw);
	rc |= add_row(res, "energy_update_ms", "ms", en->update_s * 1e3,
		      sw ? sw : isnan(en->update_s) ? "the energy counter moved fewer than twice while settling" : NULL);
	rc |= add_row(res, "gpu_temp_c_energy", "C", tcp_mean_get(&en->temp), sw);
	return rc;
}

/*
 *  sup_energy_rows()
 *	the --energy rows of an OK point: NA (UNSUPPORTED, with the reason)
 *	wherever NVML gave nothing; the cycle metrics are untouched
 */
int sup_energy_rows(struct sup *s, struct result *res)
{
	const struct energy *en = &res->en;
	const char *ew = en->have_e ? NULL : en->why[0] ? en->why : "no energy reading";
	double mj = en->have_e ? (double)en->mj : NAN;
	const char *sw = s->nvml < 0 ? ew : NULL;

	if (!en->seen)
		return 0;
	int rc = rows_energy(res, ew, sw, mj);
	rc |= rows_independence(res, ew, sw, mj);
	return rc ? -1 : 0;
}
