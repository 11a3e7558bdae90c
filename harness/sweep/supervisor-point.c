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

void sup_sampler_start(struct sampler *s, int nvml)
{
	memset(s, 0, sizeof(*s));
	s->nvml = nvml;
	s->next = sup_mono() + TCP_NVML_PERIOD_S;
}

void sup_sampler_take(struct sampler *s)
{
	if (s->nvml < 0)
		return;
	double mhz = NAN;
	unsigned long long m = ~0ull;
	tcp_nvml_sample(s->nvml, &mhz, &m, NULL);
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

/* Probe-level UNSUPPORTED reason for this GPU, or NULL when it runs. */
const char *sup_unsupported_why(const tcp_probe_t *p, int cc, char *buf, size_t len)
{
	if (p->unsupported_reason)
		return p->unsupported_reason;
	if (p->arch == TCP_ARCH_HOST || tcp_arch_runs_on(p->arch, cc))
		return NULL;
	snprintf(buf, len, "unsupported on sm_%d: probe needs %s", cc, tcp_arch_name(p->arch));
	return buf;
}

/*
 *  energy_window()
 *	after EB: read NVML's energy counter, sample power / SM clock /
 *	throttle reasons every TCP_ENERGY_PERIOD_S (and, with --sustain, write
 *	a trace.csv row every TCP_TRACE_PERIOD_S) until EE, read the counter
 *	again; returns the next line's sup_worker_line() code (the P line)
 */
static int energy_window(struct sup *s, int idx, double deadline, struct sampler *smp,
			 struct result *res, char **line)
{
	unsigned long long e0 = 0, e1 = 0, ecur;
	int have0 = 0, r;
	char *f[6], e[256];
	long long v;

	memset(&res->en, 0, sizeof(res->en));
	if (s->w.gpu < 0)
		snprintf(res->en.why, sizeof(res->en.why), "host-only run: no GPU to measure");
	else if (s->nvml < 0)
		snprintf(res->en.why, sizeof(res->en.why), "NVML: %s",
			 s->nvml_why[0] ? s->nvml_why : "not open");
	else if (!(have0 = tcp_nvml_energy_mj(s->nvml, &e0) == 0))
		snprintf(res->en.why, sizeof(res->en.why),
			 "NVML has no total-energy counter for this GPU (nvmlDeviceGetTotalEnergyConsumption)");
	if (s->o->sustain_s > 0 && !s->trace && s->dir[0]) {
		char path[PATHLEN];
		if ((s->trace = fopen(sup_path_in(s->dir, "trace.csv", path, sizeof(path)), "w")))
			fprintf(s->trace, "t_s,sm_clock_mhz,power_w,temp_c,throttle,energy_mj\n");
		else
			sup_log(s, "cannot write %s: %s", path, strerror(errno));
	}
	double t0 = sup_mono(), next = t0, tnext = t0;
	for (;;) {
		double now = sup_mono();
		if (now >= next && s->nvml >= 0) {
			double mhz = NAN, w = NAN;
			unsigned long long m = ~0ull;
			tcp_nvml_sample(s->nvml, &mhz, &m, &w);
			tcp_mean_add(&res->en.clock, mhz);
			tcp_mean_add(&res->en.power, w);
			if (m != ~0ull) {
				res->en.mask |= m & ~TCP_THR_GPU_IDLE;
				res->en.mask_ok = 1;
			}
			if (s->trace && now >= tnext) {
				double tc = NAN;
				char tb[128];
				int he = have0 && tcp_nvml_energy_mj(s->nvml, &ecur) == 0;
				tcp_nvml_temp_c(s->nvml, &tc);
				fprintf(s->trace, "%.3f,%.0f,%.3f,%.0f,%s,", now - t0, mhz, w, tc,
					m == ~0ull ? "NA" : tcp_nvml_throttle_str(m & ~TCP_THR_GPU_IDLE, tb, sizeof(tb)));
				if (he)
					fprintf(s->trace, "%lld\n", (long long)tcp_energy_delta_mj(e0, ecur, 64));
				else
					fprintf(s->trace, "NA\n");
				fflush(s->trace);
				tnext += TCP_TRACE_PERIOD_S;
			}
			next = now + TCP_ENERGY_PERIOD_S;
		}
		r = sup_worker_line(&s->w, s->nvml >= 0 && next < deadline ? next : deadline, NULL, line);
		if (r == WL_TIMEOUT && sup_mono() < deadline)
			continue;
		if (r != WL_LINE)
			return r;
		break;
	}
	int he1 = have0 && tcp_nvml_energy_mj(s->nvml, &e1) == 0;
	res->en.window_s = sup_mono() - t0;
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
	if (have0 && !he1)
		snprintf(res->en.why, sizeof(res->en.why), "NVML energy counter read failed at the window end");
	if (have0 && he1) {
		res->en.mj = tcp_energy_delta_mj(e0, e1, 64);
		res->en.have_e = res->en.mj > 0;
		if (res->en.mj == 0)
			snprintf(res->en.why, sizeof(res->en.why),
				 "energy counter did not advance in %.3f s (resolution): use a longer --energy",
				 res->en.window_s);
		else if (res->en.mj < 0)
			snprintf(res->en.why, sizeof(res->en.why), "energy counter went backwards");
	}
	if (res->en.mask_ok)	/* the point's throttle column covers the window too */
		smp->mask |= res->en.mask, smp->mask_ok = 1;
	return sup_worker_line(&s->w, deadline, smp, line);
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
	return rc ? -1 : 0;
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

	for (int attempt = 0;; attempt++) {
		if (s->w.pid == 0) {
			int rc = sup_worker_spawn(s, 0, s->w.gpu, why, sizeof(why));
			if (rc == SPAWN_SIGNAL)
				return RUN_SIGNAL;
			if (rc != SPAWN_OK) {
				sup_die("worker for GPU %d could not be restarted: %s", s->w.gpu, why);
				sup_log(s, "worker could not be restarted: %s", why);
				return RUN_FATAL;
			}
			sup_log(s, "worker restarted (pid %d)", (int)s->w.pid);
		}
		int n = snprintf(msg, sizeof(msg), "RUN\t%d\n", idx);
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
	sup_sampler_start(&smp, gpu_probe ? s->nvml : -1);
	double t0 = sup_mono(), deadline = t0 + pp->timeout + s->energy_s;
	char *line, *f[6], ex[96];
	int r = sup_worker_line(&s->w, deadline, &smp, &line), nf = 0;
	if (r == WL_LINE && strncmp(line, "EB\t", 3) == 0)
		r = energy_window(s, idx, deadline, &smp, res, &line);
	if (r == WL_LINE) {
		char copy[128];
		snprintf(copy, sizeof(copy), "%s", line);
		nf = sup_split_tabs(line, f, 6);
		if (strcmp(f[0], "P") == 0)
			r = sup_parse_point_msg(s, idx, f, nf, deadline, &smp, res);
		else {
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
		snprintf(res->reason, sizeof(res->reason), "no result within the %g s point timeout; worker killed",
			 pp->timeout);
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
		res->clock_mhz = smp.n ? smp.sum / smp.n : NAN;
		if (smp.mask_ok)
			tcp_nvml_throttle_str(smp.mask, res->throttle, sizeof(res->throttle));
		else
			snprintf(res->throttle, sizeof(res->throttle), "NA");
	}
	return RUN_DONE;
}
