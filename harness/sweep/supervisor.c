/*
 * supervisor.c
 *	The parent side of a sweep (design.md's flow): options, plan and results
 *	directory, one forked worker per GPU (a sweep process drives one GPU: struct
 *	worker is per GPU so that one process could drive more), the loop over the plan's points
 *	(restarting the worker after a crash), progress, resume, SIGINT.  One
 *	point's run: supervisor-point.c; the worker protocol:
 *	supervisor-worker.c; rows on disk: supervisor-rows.c.
 *	This process never calls CUDA: only workers do.
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

#include "harness/store/infile.h"
#include "harness/measure/counters.h"
#include "harness/sweep/supervisor-int.h"

volatile sig_atomic_t sup_signal;

static void on_signal(int sig)
{
	sup_signal = sig;
}

double sup_mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void sup_die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("tcprobe: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/*
 *  tcp_io_exit()
 *	the exit status of a failed write to the results directory: full
 *	(ENOSPC, EDQUOT, EFBIG) or not writable (read-only, permissions)
 */
int tcp_io_exit(int err)
{
	if (err == ENOSPC || err == EDQUOT || err == EFBIG)
		return TCP_EXIT_RESULTS_FULL;
	return TCP_EXIT_RESULTS_RO;
}

void sup_log(struct sup *s, const char *fmt, ...)
{
	if (!s->log)
		return;
	char ts[40];
	va_list ap;
	va_start(ap, fmt);
	fprintf(s->log, "%s ", tcp_prov_utc_now(ts, sizeof(ts)));
	vfprintf(s->log, fmt, ap);
	fputc('\n', s->log);
	fflush(s->log);
	va_end(ap);
}

/* "1h02m", "4m10s", "12s" */
static const char *fmt_dur(double sec, char *buf, size_t len)
{
	long t = (long)(sec + 0.5);
	if (t >= 3600)
		snprintf(buf, len, "%ldh%02ldm", t / 3600, (t % 3600) / 60);
	else if (t >= 60)
		snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
	else
		snprintf(buf, len, "%lds", t);
	return buf;
}

/* The progress line of a finished point, to stderr and log.txt. */
static void progress(struct sup *s, int idx, const struct result *r)
{
	const tcp_plan_point_t *pp = &s->plan.p[idx];
	const tcp_probe_t *p = pp->probe;
	char what[TCP_REASON_LEN + 200], eta[64] = "", d[32];
	int n = s->plan.n, k = s->ndone;
	if (r->st == TCP_OK && p->nmetrics > 0) {
		tcp_stats_t st;
		tcp_stats_compute(r->smp, r->ns, &st);
		snprintf(what, sizeof(what), "OK  median %.6g %s", st.median, p->metrics[0].unit);
	} else {
		snprintf(what, sizeof(what), "%s  %s", tcp_status_name(r->st), r->reason);
	}
	if (s->nrun > 0 && s->ntorun > s->nrun)
		snprintf(eta, sizeof(eta), "  (eta %s)",
			 fmt_dur(s->t_run / s->nrun * (s->ntorun - s->nrun), d, sizeof(d)));
	int quiet_row = r->st == TCP_SKIPPED || r->st == TCP_UNSUPPORTED || r->st == TCP_BLOCKED;
	if (!s->o->quiet && !quiet_row)
		fprintf(stderr, "[%*d/%d %3d%%] %s %s ... %s%s\n", (int)snprintf(NULL, 0, "%d", n), k, n,
			n ? (int)(100.0 * k / n) : 100, p->name, pp->key, what, eta);
	sup_log(s, "[%d/%d] point %d %s %s: %s", k, n, idx, p->name, pp->key, what);
}

/*
 *  point_done()
 *	the BLOCKED rule (block.h) after a written point, and the probe's
 *	verdict line once its last point in the plan is written: to stderr
 *	(--quiet too: one line per probe is the output worth keeping) and log.txt
 */
static void point_done(struct sup *s, int idx, const struct result *r)
{
	const tcp_probe_t *p = s->plan.p[idx].probe;
	char line[TCP_REASON_LEN + 512];
	s->pst[idx] = (signed char)r->st;
	if (tcp_block_note(&s->w.block, p->name, r->st, r->site, r->reason) == 1) {
		fprintf(stderr, "%s: BLOCKED: %s\n", p->name, tcp_block_why(&s->w.block, p->name));
		sup_log(s, "%s: BLOCKED after point %d: %s", p->name, idx, tcp_block_why(&s->w.block, p->name));
	}
	if (!s->plast[idx])
		return;
	int count[TCP_NSTATUS] = { 0 };
	for (int i = 0; i <= idx; i++)
		if (s->plan.p[i].probe == p && s->pst[i] >= 0 && s->pst[i] < TCP_NSTATUS)
			count[s->pst[i]]++;
	tcp_block_verdict(p->name, count, tcp_block_where(&s->w.block, p->name), line, sizeof(line));
	fprintf(stderr, "%s\n", line);
	sup_log(s, "verdict: %s", line);
}

/* s->plast: each probe's last point in plan order (its sections may be apart).
 * 0, or -1 out of memory. */
static int mark_last(struct sup *s)
{
	const tcp_probe_t **seen = calloc((size_t)s->plan.n + 1, sizeof(*seen));
	int nseen = 0, k;
	if (!seen)
		return -1;
	for (int i = s->plan.n - 1; i >= 0; i--) {
		for (k = 0; k < nseen && seen[k] != s->plan.p[i].probe; k++)
			;
		if (k == nseen)
			seen[nseen++] = s->plan.p[i].probe, s->plast[i] = 1;
	}
	free(seen);
	return 0;
}

/* ---------------------------------------------------------------- helpers */

static int mkdir_p(const char *path, char *err, size_t len)
{
	char buf[PATHLEN];
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *c = buf + 1;; c++) {
		if (*c != '/' && *c)
			continue;
		char save = *c;
		*c = '\0';
		if (mkdir(buf, 0777) && errno != EEXIST) {
			snprintf(err, len, "cannot create directory: got '%s' (%s), expected a writable path",
				 buf, strerror(errno));
			return -1;
		}
		if (!save)
			return 0;
		*c = save;
	}
}

/* ---------------------------------------------------------------- points */

/*
 *  finish_point()
 *	a point's rows on disk and what follows from them (progress line,
 *	BLOCKED rule, verdict); res freed.  0, or the exit status of a failed
 *	write (the message printed).
 */
static int finish_point(struct sup *s, int i, struct result *res)
{
	const tcp_plan_point_t *pp = &s->plan.p[i];
	if (sup_write_rows(s, i, res)) {
		int e = errno;
		sup_die("cannot write %s/measurements.csv: %s; %d of %d points kept, finish with: tcprobe run --resume %s",
			s->dir, strerror(e), s->ndone, s->plan.n, s->dir);
		sup_result_free(res);
		return tcp_io_exit(e);
	}
	s->done[i] = 1;
	s->ndone++;
	s->bad += res->st == TCP_FAILED || res->st == TCP_TIMEOUT || res->st == TCP_INVALID ||
		  res->st == TCP_BLOCKED;
	if (res->st == TCP_SKIPPED)
		sup_log(s, "point %d %s %s: SKIPPED: %s", i, pp->probe->name, pp->key, res->reason);
	else
		progress(s, i, res);
	point_done(s, i, res);
	sup_result_free(res);
	return 0;
}

/* Forget the points waiting for a counter batch (not written: a --resume runs them). */
static void drop_batch(struct sup *s)
{
	for (int k = 0; k < s->npend; k++)
		sup_result_free(&s->pend[k]);
	s->npend = 0;
}

/*
 *  finish_batch()
 *	the waiting points written in plan order, once complete (completed:
 *	they are; else FLUSH first, sup_flush_batch).  0; -1 when the batch is
 *	lost (the worker killed; the caller runs its points again, or with
 *	`final` drops them); or the exit status of a failed write.
 */
static int finish_batch(struct sup *s, int final)
{
	char why[TCP_REASON_LEN];
	int rc = 0;
	if (s->npend > 0 && !s->pend[0].complete && sup_flush_batch(s, why, sizeof(why))) {
		sup_log(s, "a counter batch of %d points was lost: %s", s->npend, why);
		if (final)
			drop_batch(s);
		return -1;
	}
	int k = 0;
	for (; k < s->npend && rc == 0; k++)
		rc = finish_point(s, s->pend_idx[k], &s->pend[k]);
	for (; k < s->npend; k++)
		sup_result_free(&s->pend[k]);
	s->npend = 0;
	return rc;
}

/* ---------------------------------------------------------------- sweep */

static void print_interrupted(struct sup *s)
{
	if (s->dir[0])
		fprintf(stderr, "interrupted: %d of %d points written to %s; finish with: tcprobe run --resume %s\n",
			s->ndone, s->plan.n, s->dir, s->dir);
	else
		fprintf(stderr, "interrupted before the run directory was created; nothing written\n");
}

/* The plan's repetition rule must parse (a hand-edited plan.txt may not). */
static int reps_rule_check(struct sup *s)
{
	tcp_reps_rule_t r;
	char err[256];
	if (tcp_plan_reps_rule(&s->plan, &r, err, sizeof(err)) == 0)
		return 0;
	sup_die("%s", err);
	return -1;
}

/* seed, counters, gpu, the repetition rule from the options (or the resumed plan). */
static int resolve_options(struct sup *s, const tcp_sweep_opts_t *o)
{
	const char *v;
	char e[512];
	if (o->resume_dir) {
		/* an emulated run is finished emulated, on its own target; a real one, real */
		if (tcp_emu_from_plan(&s->emu, &s->plan, e, sizeof(e)) ||
		    tcp_emu_resume_check(&s->emu, o->emu.target != NULL, o->resume_dir, e, sizeof(e))) {
			sup_die("%s", e);
			return -1;
		}
		if (o->arch && s->emu.target && o->arch != s->emu.target) {
			sup_die("--arch: differs from the emulated run being resumed: got '%s', expected '%s'",
				o->arch->name, s->emu.target->name);
			return -1;
		}
		if ((v = tcp_plan_option(&s->plan, "seed")))
			s->seed = strtoull(v, NULL, 10);
		v = tcp_plan_option(&s->plan, "counters");
		if (o->counters && v && strcmp(v, o->counters) != 0) {
			sup_die("--counters: differs from the run being resumed: got '%s', expected '%s'",
				o->counters, v);
			return -1;
		}
		s->counters = v ? v : "default";
		v = tcp_plan_option(&s->plan, "timer");
		if (o->timer && strcmp(o->timer, v ? v : "events") != 0) {
			sup_die("--timer: differs from the run being resumed: got '%s', expected '%s'",
				o->timer, v ? v : "events");
			return -1;
		}
		s->timer_cupti = v && strcmp(v, "cupti") == 0;
		v = tcp_plan_option(&s->plan, "gpu");
		s->gpu = o->gpu >= 0 ? o->gpu : v ? atoi(v) : 0;
		return reps_rule_check(s);
	}
	s->seed = o->seed_set ? o->seed
			      : ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid() ^ (uint64_t)(sup_mono() * 1e9);
	s->counters = o->counters ? o->counters : "default";
	s->gpu = o->gpu >= 0 ? o->gpu : 0;
	s->emu = o->emu;
	if (s->emu.target && tcp_emu_counters(o->counters, &s->counters, e, sizeof(e))) {
		sup_die("%s", e);
		return -1;
	}
	if (!s->emu.target)
		tcp_emu_opts_init(&s->emu);
	if (tcp_emu_to_plan(&s->emu, &s->plan)) {
		sup_die("plan options: no room for the emulation options: got %d options, expected at most %d",
			s->plan.nopt, TCP_PLAN_MAX_OPTIONS);
		return -1;
	}
	char b[32];
	snprintf(b, sizeof(b), "%llu", (unsigned long long)s->seed);
	tcp_plan_set_option(&s->plan, "seed", b);
	if (tcp_plan_set_option(&s->plan, "counters", s->counters)) {
		sup_die("--counters: got a list of %zu characters, expected at most %zu",
			strlen(s->counters), sizeof(s->plan.opt_val[0]) - 1);
		return -1;
	}
	s->timer_cupti = o->timer && strcmp(o->timer, "cupti") == 0;
	tcp_plan_set_option(&s->plan, "timer", s->timer_cupti ? "cupti" : "events");
	snprintf(b, sizeof(b), "%d", s->gpu);
	tcp_plan_set_option(&s->plan, "gpu", b);
	/* --reps auto: the worker reads the rule from the plan (so does --resume) */
	tcp_plan_set_option(&s->plan, "reps", o->reps_auto ? "auto" : "fixed");
	if (o->reps_auto) {
		snprintf(b, sizeof(b), "%g", o->noise_pct > 0 ? o->noise_pct : TCP_NOISE_DEFAULT);
		tcp_plan_set_option(&s->plan, "noise", b);
		snprintf(b, sizeof(b), "%g", o->rep_budget_s > 0 ? o->rep_budget_s : TCP_REP_BUDGET_DEFAULT);
		tcp_plan_set_option(&s->plan, "rep_budget", b);
	}
	return reps_rule_check(s);
}

/* The exit-4 message: the targets the planned GPU probes hold in this binary,
 * and why none is this GPU's (with the rebuild that would add it). */
static void planned_archs(const struct sup *s, char *buf, size_t len)
{
	tcp_arch_t a = 0;
	for (int i = 0; i < s->plan.n; i++)
		a |= s->plan.p[i].probe->arch;
	tcp_target_list(a & tcp_build_targets(), buf, len);
	size_t o = strlen(buf);
	if (!o)
		o = (size_t)snprintf(buf, len, "none");
	if (o + 4 < len) {	/* " (why)" */
		memcpy(buf + o, " (", 3);
		if (!tcp_arch_why_not(a, s->w.cc, buf + o + 2, len - o - 3))
			snprintf(buf + o + 2, len - o - 3, "?");
		strcat(buf, ")");
	}
}

/*
 *  open_run_dir()
 *	create (or reopen, for --resume) the run directory and its files
 */
static int open_run_dir(struct sup *s, tcp_prov_t *prov)
{
	const tcp_sweep_opts_t *o = s->o;
	char path[PATHLEN], err[PATHLEN + 256];
	if (!o->resume_dir) {
		if (o->out_dir) {
			snprintf(s->dir, sizeof(s->dir), "%s", o->out_dir);
			if (access(sup_path_in(s->dir, "plan.txt", path, sizeof(path)), F_OK) == 0) {
				sup_die("--out: directory already holds a run: got '%s', expected a new directory (or --resume %s)",
					s->dir, s->dir);
				return -1;
			}
		} else if (tcp_results_dir_name(s->dir, sizeof(s->dir), o->results_base, prov)) {
			sup_die("results directory name too long: got base '%s', expected a shorter path",
				o->results_base ? o->results_base : "results");
			return -1;
		}
		if (mkdir_p(s->dir, err, sizeof(err))) {
			s->io_rc = tcp_io_exit(errno);
			sup_die("--out: %s", err);
			return -1;
		}
	}
	while (strlen(s->dir) > 1 && s->dir[strlen(s->dir) - 1] == '/')
		s->dir[strlen(s->dir) - 1] = '\0';
	const char *base = strrchr(s->dir, '/');
	if (snprintf(s->run_id, sizeof(s->run_id), "%s", base ? base + 1 : s->dir) >= (int)sizeof(s->run_id))
		s->run_id[sizeof(s->run_id) - 1] = '\0';
	/* a FIFO or device named log.txt (a --resume of a tampered directory) is
	 * refused before the open, which would block on a FIFO */
	struct stat lst;
	if (stat(sup_path_in(s->dir, "log.txt", path, sizeof(path)), &lst) == 0 && !S_ISREG(lst.st_mode)) {
		sup_die("cannot write log: got %s at '%s', expected a regular file", tcp_infile_kind(lst.st_mode),
			path);
		return -1;
	}
	int lfd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0644);
	s->log = lfd >= 0 ? fdopen(lfd, "a") : NULL;
	if (!s->log) {
		s->io_rc = tcp_io_exit(errno);
		sup_die("cannot write log: got '%s' (%s), expected a writable run directory", path,
			strerror(errno));
		return -1;
	}
	if (o->resume_dir && sup_load_done(s))
		return -1;
	errno = 0;
	s->rows = tcp_rows_open(sup_path_in(s->dir, "measurements.csv", path, sizeof(path)), s->axcols,
				s->naxcols, o->resume_dir != NULL, err, sizeof(err));
	if (!s->rows) {
		s->io_rc = errno ? tcp_io_exit(errno) : 0;
		sup_die("%s", err);
		return -1;
	}
	if (!o->resume_dir &&
	    tcp_plan_write(&s->plan, sup_path_in(s->dir, "plan.txt", path, sizeof(path)), err, sizeof(err))) {
		s->io_rc = tcp_io_exit(errno);
		sup_die("%s", err);
		return -1;
	}
	if (sup_meta_start(s)) {
		sup_die("out of memory describing the metrics of %d points", s->plan.n);
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------- contention */

static const char *compute_mode_name(int m)
{
	return m == 0 ? "default" : m == 2 ? "prohibited" : m == 3 ? "exclusive_process"
	     : m == 1 ? "exclusive_thread" : "NA (nvmlDeviceGetComputeMode failed)";
}

/*
 *  busy_start()
 *	run start: who else is on the GPU (contention.h), and --require-idle's
 *	refusal before anything is written.  0, or -1 (refused, said).
 */
static int busy_start(struct sup *s, tcp_busy_point_t *now)
{
	tcp_busy_init(&s->busy, s->nvml);
	tcp_busy_spawn_end(&s->busy, s->w.self);	/* the first worker's own diff */
	tcp_busy_now(&s->busy, 1.0, s->w.rtt_us, now);
	if (s->o->require_idle && now->contended != 0) {
		sup_die("--require-idle: GPU %d is not idle: got %s, expected no other work on it",
			s->gpu, now->contended < 0 ? "no witness to tell (no NVML, no launch round trip)" : now->why);
		return -1;
	}
	return 0;
}

/* The run-start findings as provenance keys (prefix "resume_" on a resume). */
static void busy_prov(struct sup *s, tcp_prov_t *prov, const tcp_busy_point_t *now, const char *pre)
{
	tcp_busy_t *b = &s->busy;
	char k[64], names[TCP_PROV_VALLEN] = "";

#define KEY(name) (snprintf(k, sizeof(k), "%s%s", pre, name), k)
	if (now->others >= 0)
		tcp_prov_setf(prov, KEY("gpu_other_processes"), "%d", now->others);
	else
		tcp_prov_setf(prov, KEY("gpu_other_processes"), "NA (%s)",
			      b->procs_why[0] ? b->procs_why : s->nvml_why[0] ? s->nvml_why : "NVML not open");
	if (s->o->show_process_names && now->others > 0) {
		size_t o = 0;
		for (int i = 0; i < b->nother && o < sizeof(names); i++) {
			char nm[256];
			tcp_nvml_process_name(b->other[i], nm, sizeof(nm));
			o += (size_t)snprintf(names + o, sizeof(names) - o, "%s%s (pid %u)", o ? ", " : "", nm,
					      b->other[i]);
		}
		tcp_prov_set(prov, KEY("gpu_other_process_names"), names);
	}
	if (now->util_others >= 0)
		tcp_prov_set(prov, KEY("gpu_process_samples"), "ok");
	else
		tcp_prov_setf(prov, KEY("gpu_process_samples"), "NA (%s)",
			      b->util_why[0] ? b->util_why : "NVML not open");
	tcp_prov_set(prov, KEY("gpu_compute_mode"), compute_mode_name(tcp_nvml_compute_mode(s->nvml)));
	if (b->mps_clients > 0)
		tcp_prov_setf(prov, KEY("gpu_mps"), "active: %d client(s) of an MPS server share the GPU",
			      b->mps_clients);
	else
		tcp_prov_set(prov, KEY("gpu_mps"), b->procs_ok ? "off" : "NA (no NVML process list)");
	if (isnan(s->w.rtt_us))
		tcp_prov_set(prov, KEY("launch_rtt_us_start"), "NA (the worker could not time a launch)");
	else
		tcp_prov_setf(prov, KEY("launch_rtt_us_start"), "%.1f", s->w.rtt_us);
	tcp_prov_setf(prov, KEY("gpu_busy_at_start"), "%s%s%s",
		      now->contended < 0 ? "NA" : now->contended ? "yes" : "no", now->why[0] ? ": " : "", now->why);
#undef KEY
}

/*
 *  sweep()
 *	everything after the plan exists: worker, directory, the point loop
 */
static int sweep(struct sup *s)
{
	const tcp_sweep_opts_t *o = s->o;
	char why[1024], ua[TCP_REASON_LEN], ts[40];
	tcp_prov_t *prov = calloc(1, sizeof(*prov));
	int rc = TCP_EXIT_OK, need_gpu = 0, need_worker = 0;
	if (!prov || !(s->gprov = calloc(1, sizeof(*s->gprov))) || sup_build_header(s) ||
	    !(s->done = calloc((size_t)s->plan.n + 1, 1)) || !(s->pst = malloc((size_t)s->plan.n + 1)) ||
	    !(s->plast = calloc((size_t)s->plan.n + 1, 1)) || mark_last(s) ||
	    !(s->pend_idx = calloc(TCP_COUNTERS_BATCH_MAX, sizeof(int))) ||
	    !(s->pend = calloc(TCP_COUNTERS_BATCH_MAX, sizeof(struct result)))) {
		sup_die("out of memory: got %d points, expected fewer", s->plan.n);
		free(prov);
		return TCP_EXIT_USAGE;
	}
	tcp_prov_init(s->gprov);
	memset(s->pst, -1, (size_t)s->plan.n + 1);
	s->w.block.off = o->no_block;
	s->nvml = -1;
	s->power_src = -1;
	/* counter batches (counters.h); opts from tests may leave it 0: the default */
	s->batch = o->ctr_batch > 0 ? o->ctr_batch : TCP_COUNTERS_BATCH_DEFAULT;
	if (s->batch > TCP_COUNTERS_BATCH_MAX)
		s->batch = TCP_COUNTERS_BATCH_MAX;
	s->nodefer_until = -1;
	s->settle_s = o->settle_s >= 0 ? o->settle_s : TCP_SETTLE_MAX_S;
	tcp_busy_init(&s->busy, -1);
	s->w.cmd_fd = s->w.res_fd = -1;
	s->energy_s = o->energy_s > o->sustain_s ? o->energy_s : o->sustain_s;
	if (o->sustain_s > 0 && s->plan.n != 1 && !o->dry_run) {
		sup_die("--sustain: holds one point: got %d points, expected 1 (give one value per axis with --set)",
			s->plan.n);
		free(prov);
		return TCP_EXIT_USAGE;
	}
	if (o->resume_dir) {
		snprintf(s->dir, sizeof(s->dir), "%s", o->resume_dir);
		/* done-set first, so we fork a worker only for real work */
		if (open_run_dir(s, prov)) {
			rc = s->io_rc ? s->io_rc : TCP_EXIT_USAGE;
			goto out;
		}
		for (int i = 0; i < s->plan.n; i++)
			s->ndone += s->done[i];
		sup_log(s, "resume: %d of %d points already written", s->ndone, s->plan.n);
	}
	if (!o->resume_dir && o->out_dir) {	/* before a GPU is touched: fail fast */
		char path[PATHLEN];
		if (access(sup_path_in(o->out_dir, "plan.txt", path, sizeof(path)), F_OK) == 0) {
			sup_die("--out: directory already holds a run: got '%s', expected a new directory (or --resume %s)",
				o->out_dir, o->out_dir);
			rc = TCP_EXIT_USAGE;
			goto out;
		}
	}
	for (int i = 0; i < s->plan.n; i++) {
		const tcp_plan_point_t *pp = &s->plan.p[i];
		if (s->done[i] || pp->skipped || pp->probe->unsupported_reason)
			continue;
		need_worker = 1;
		if (pp->probe->arch != TCP_ARCH_HOST)
			need_gpu = 1;
	}
	s->w.gpu = need_gpu ? s->gpu : -1;
	if (need_worker) {
		int r = sup_worker_spawn(s, 1, s->w.gpu, why, sizeof(why));
		if (r == SPAWN_SIGNAL) {
			print_interrupted(s);
			rc = TCP_EXIT_INTERRUPTED;
			goto out;
		}
		if (r == SPAWN_NOGPU) {
			sup_die("no CUDA GPU visible (%s)", why);
			rc = TCP_EXIT_NO_GPU;
			goto out;
		}
		if (r == SPAWN_OLDDRIVER) {
			sup_die("driver too old: %s", why);
			rc = TCP_EXIT_DRIVER;
			goto out;
		}
		if (r == SPAWN_BADGPU) {
			sup_die("--gpu: no such GPU: got '%d', expected 0..%d", s->gpu, atoi(why) - 1);
			rc = TCP_EXIT_USAGE;
			goto out;
		}
		if (r != SPAWN_OK) {
			sup_die("worker for GPU %d did not start: %s", s->w.gpu, why);
			rc = TCP_EXIT_POINTS;
			goto out;
		}
		if (need_gpu) {
			int runs = 0;
			/* points whose forms this GPU's target lacks: SKIPPED, never launched */
			tcp_plan_target(&s->plan, tcp_emu_plan_target(&s->emu, s->w.cc));
			for (int i = 0; i < s->plan.n && !runs; i++) {
				const tcp_plan_point_t *pp = &s->plan.p[i];
				runs = !s->done[i] && !pp->skipped && pp->probe->arch != TCP_ARCH_HOST &&
				       !sup_unsupported_why(s, pp->probe, s->w.cc, ua, sizeof(ua));
			}
			if (!runs) {
				planned_archs(s, ua, sizeof(ua));
				sup_die("no probe set for sm_%d; supported: %s", s->w.cc, ua);
				rc = TCP_EXIT_NO_ARCH;
				goto out;
			}
		}
	}
	/* host provenance now: it opens NVML, which must not precede the first fork */
	tcp_prov_collect_host(prov, o->argc, o->argv);
	tcp_prov_merge(prov, s->gprov, NULL);
	tcp_prov_setf(prov, "seed", "%llu", (unsigned long long)s->seed);
	tcp_prov_setf(prov, "points_planned", "%d", s->plan.n);
	tcp_emu_provenance(&s->emu, prov);
	tcp_prov_set(prov, "counters", need_gpu ? s->ctr_status : "off");
	if (!s->timer_cupti || !need_gpu)
		tcp_prov_set(prov, "timer", "events");
	else if (strcmp(s->timer_status, "ok") == 0)
		tcp_prov_set(prov, "timer", "cupti");
	else
		tcp_prov_setf(prov, "timer", "events (cupti NA: %s)", s->timer_status);
	if (need_gpu) {
		const char *ni = tcp_prov_get(s->gprov, "nvml_index");
		const char *uuid = tcp_prov_get(s->gprov, "gpu_uuid");
		char nw[256];
		if (tcp_nvml_open(nw, sizeof(nw)) == 0) {
			s->nvml = ni && ni[0] >= '0' && ni[0] <= '9' ? atoi(ni)
			       : uuid ? tcp_nvml_index_by_uuid(uuid) : -1;
			if (s->nvml < 0)
				snprintf(s->nvml_why, sizeof(s->nvml_why), "NVML does not know this GPU");
		} else {
			snprintf(s->nvml_why, sizeof(s->nvml_why), "%s", nw);
		}
	}
	tcp_busy_point_t busy_now;
	if (need_gpu && busy_start(s, &busy_now)) {
		rc = TCP_EXIT_BUSY;
		goto out;
	}
	if (o->resume_dir) {
		tcp_prov_t *old = calloc(1, sizeof(*old));
		char e[512], path[PATHLEN];
		if (old && tcp_prov_read(old, sup_path_in(s->dir, "provenance.csv", path, sizeof(path)), e,
					 sizeof(e)) == 0) {
			const char *ou = tcp_prov_get(old, "gpu_uuid"), *nu = tcp_prov_get(prov, "gpu_uuid");
			if (need_gpu && ou && nu && strncmp(ou, "GPU-", 4) == 0 && strcmp(ou, nu) != 0)
				sup_log(s, "warning: resumed on another GPU: %s (was %s)", nu, ou);
			/* the run keeps its original provenance; each resume adds when and how */
			const char *prev = tcp_prov_get(old, "resumed_utc");
			char *was = strdup(prev ? prev : "");	/* prev lives in the slot being set */
			tcp_prov_setf(old, "resumed_utc", "%s%s%s", was ? was : "", was && *was ? " " : "",
				      tcp_prov_utc_now(ts, sizeof(ts)));
			free(was);
			tcp_prov_set(old, "resume_command_line", tcp_prov_get(prov, "command_line"));
			if (need_gpu) {
				tcp_prov_set(old, "resume_gpu_uuid", nu);
				busy_prov(s, old, &busy_now, "resume_");
			}
			memcpy(prov, old, sizeof(*prov));
		}
		free(old);
	} else if (open_run_dir(s, prov)) {
		rc = s->io_rc ? s->io_rc : TCP_EXIT_USAGE;
		goto out;
	} else if (need_gpu) {
		busy_prov(s, prov, &busy_now, "");
	}
	sup_write_provenance(s, prov);
	if (need_gpu && busy_now.contended > 0) {
		fprintf(stderr, "warning: GPU %d is not idle at the start: %s (--require-idle refuses such a GPU)\n",
			s->gpu, busy_now.why);
		sup_log(s, "GPU busy at start: %s", busy_now.why);
	}
	sup_log(s, "%s: %d points, seed %llu, counters %s, worker on %s", o->resume_dir ? "resume" : "run",
	      s->plan.n, (unsigned long long)s->seed, s->counters,
	      s->w.gpu >= 0 ? "a GPU" : "the host only");
	/* counters unreadable: said once here; each point's cupti/ rows carry it too */
	if (need_gpu && strcmp(s->ctr_status, "ok") != 0 && strcmp(s->ctr_status, "off") != 0) {
		fprintf(stderr, "counters NA (timing still recorded): %s\n", s->ctr_status);
		sup_log(s, "counters NA: %s", s->ctr_status);
	}

	for (int i = 0; i < s->plan.n; i++)
		s->ntorun += !s->done[i] && !s->plan.p[i].skipped;
	s->t_start = sup_mono();
	for (int i = 0; i < s->plan.n; i++) {
		const tcp_plan_point_t *pp = &s->plan.p[i];
		struct result res;
		const char *u;
		int ran = 0;
		if (s->done[i])
			continue;
		if (sup_signal) {
			/* the points waiting for a batch were measured: keep them if it completes */
			if (s->npend > 0 && (rc = finish_batch(s, 1)) > 0)
				break;
			print_interrupted(s);
			rc = TCP_EXIT_INTERRUPTED;
			break;
		}
		memset(&res, 0, sizeof(res));
		res.clock_mhz = res.rtt0 = res.rtt1 = res.temp_c = NAN;
		res.contended = -1;
		res.nm = pp->probe->nmetrics;
		if (pp->skipped) {
			res.st = TCP_SKIPPED;
			snprintf(res.reason, sizeof(res.reason), "%s", pp->reason);
		} else if ((u = sup_unsupported_why(s, pp->probe, s->w.cc, ua, sizeof(ua))) &&
			   (pp->probe->unsupported_reason || s->w.gpu >= 0)) {
			res.st = TCP_UNSUPPORTED;
			snprintf(res.reason, sizeof(res.reason), "%s", u);
			s->ntorun--;	/* takes no time: keep it out of the ETA */
		} else if ((u = tcp_block_why(&s->w.block, pp->probe->name))) {
			res.st = TCP_BLOCKED;	/* never launched (block.h) */
			snprintf(res.reason, sizeof(res.reason), "%s", u);
			s->ntorun--;
		} else {
			int r = sup_run_point(s, i, &res);
			if (r == RUN_SIGNAL) {
				sup_result_free(&res);
				drop_batch(s);
				print_interrupted(s);
				rc = TCP_EXIT_INTERRUPTED;
				break;
			}
			if (r == RUN_FATAL) {
				sup_result_free(&res);
				drop_batch(s);
				fprintf(stderr, "stopped: %d of %d points written to %s; finish with: tcprobe run --resume %s\n",
					s->ndone, s->plan.n, s->dir, s->dir);
				rc = TCP_EXIT_POINTS;
				break;
			}
			s->nrun++;
			ran = 1;
		}
		int lost = res.batch_lost;
		if (!ran && s->npend > 0) {	/* the batch ends before a point the worker does not run */
			int fr = finish_batch(s, 0);
			if (fr > 0) {
				rc = fr;
				sup_result_free(&res);
				break;
			}
			lost = fr < 0;
		}
		if (lost) {
			/* the waiting points and this one again, one at a time */
			int first = s->npend > 0 ? s->pend_idx[0] : i;
			s->nrun -= s->npend + ran;
			s->nodefer_until = i;
			if (!ran && (res.st == TCP_UNSUPPORTED || res.st == TCP_BLOCKED))
				s->ntorun++;	/* counted out again when it comes round */
			sup_log(s, "a counter batch was lost at point %d: points %d to %d run again without batches",
				i, first, i);
			drop_batch(s);
			sup_result_free(&res);
			i = first - 1;
			continue;
		}
		if (res.deferred && !res.complete) {	/* its counters come with the batch */
			s->pend_idx[s->npend] = i;
			s->pend[s->npend++] = res;
			continue;
		}
		if (s->npend > 0 && (rc = finish_batch(s, 1)) != 0) {	/* completed: written first, in plan order */
			sup_result_free(&res);
			break;
		}
		if ((rc = finish_point(s, i, &res)) != 0)
			break;
	}
	if (s->npend > 0 && rc == TCP_EXIT_OK) {	/* cannot happen: a batch ends before the plan does */
		int fr = finish_batch(s, 1);
		rc = fr > 0 ? fr : fr < 0 ? TCP_EXIT_POINTS : rc;
	}
	if (s->w.pid > 0) {
		if (write(s->w.cmd_fd, "QUIT\n", 5) == 5) {
			char w2[256];
			sup_worker_reap(&s->w, w2, sizeof(w2));
		} else {
			sup_worker_kill(&s->w);
		}
	}
	if (s->rows && tcp_rows_close(s->rows) && rc == TCP_EXIT_OK) {
		sup_die("cannot finish %s/measurements.csv: %s", s->dir, strerror(errno));
		rc = TCP_EXIT_POINTS;
	}
	s->rows = NULL;
	tcp_prov_set(prov, rc == TCP_EXIT_INTERRUPTED ? "interrupted_utc" : "finished_utc",
		     tcp_prov_utc_now(ts, sizeof(ts)));
	if (need_gpu) {
		tcp_prov_setf(prov, o->resume_dir ? "resume_contended_points" : "contended_points",
			      "%d of %d", s->busy.contended, s->busy.points);
		if (s->energy_s > 0)
			tcp_prov_set(prov, "power_source", tcp_nvml_power_source_name(s->power_src));
	}
	sup_write_provenance(s, prov);
	if (rc == TCP_EXIT_OK) {
		sup_log(s, "done: %d points in %s", s->plan.n, fmt_dur(sup_mono() - s->t_start, ts, sizeof(ts)));
		int sr = tcp_sweep_summary(s->dir, s->probes, s->nprobes, stderr);
		if (sr != 0)
			rc = TCP_EXIT_POINTS;
		fprintf(stderr, "results: %s\n", s->dir);
		/* the last line, where a reader of the sweep's output looks */
		if (s->busy.contended > 0)
			fprintf(stderr, "WARNING: %d of %d GPU points ran beside other work on the GPU (contended=1 in measurements.csv, why in log.txt)%s: their time-based numbers are not an idle GPU's\n",
				s->busy.contended, s->busy.points,
				s->resumed_contended ? "; so did points kept from before --resume" : "");
		else if (s->resumed_contended > 0)
			fprintf(stderr, "WARNING: %d points kept from before --resume ran beside other work on the GPU (contended=1 in measurements.csv): their time-based numbers are not an idle GPU's\n",
				s->resumed_contended);
		if (s->emu.target)
			fprintf(stderr, "%s\n", tcp_run_emulated_banner(s->emu.target->name, why, sizeof(why)));
		if (!isatty(STDOUT_FILENO)) {	/* for scripts: dir=$(tcprobe run ...) */
			printf("%s\n", s->dir);
			fflush(stdout);
		}
	} else if (rc == TCP_EXIT_INTERRUPTED) {
		sup_log(s, "interrupted: %d of %d points written", s->ndone, s->plan.n);
	}
out:
	if (s->w.pid > 0)
		sup_worker_kill(&s->w);
	if (s->rows)
		tcp_rows_close(s->rows);
	if (s->log)
		fclose(s->log);
	free(s->w.lb.buf);
	free(s->axcols);
	tcp_meta_set_free(s->meta);
	free(s->done);
	free(s->pst);
	free(s->plast);
	drop_batch(s);
	free(s->pend);
	free(s->pend_idx);
	tcp_block_free(&s->w.block);
	free(s->gprov);
	free(prov);
	return rc;
}

int tcp_sweep_run(const tcp_probe_t *const *probes, int nprobes, const tcp_sweep_opts_t *o)
{
	struct sup s;
	char err[2048], path[PATHLEN];
	int rc;
	memset(&s, 0, sizeof(s));
	s.probes = probes;
	s.nprobes = nprobes;
	s.o = o;
	if (o->resume_dir) {
		if (access(sup_path_in(o->resume_dir, "measurements.csv.gz", path, sizeof(path)), F_OK) == 0) {
			sup_die("--resume %s: an archived run (measurements.csv.gz, docs/results.md): "
				"gunzip %s/*.gz first", o->resume_dir, o->resume_dir);
			return TCP_EXIT_USAGE;
		}
		if (tcp_plan_read(&s.plan, sup_path_in(o->resume_dir, "plan.txt", path, sizeof(path)),
				  probes, nprobes, err, sizeof(err))) {
			sup_die("--resume: %s", err);
			return TCP_EXIT_USAGE;
		}
		if (o->spec && o->spec->n) {
			tcp_plan_t again;
			if (tcp_plan_build(&again, o->spec, o->reps, o->warmup, o->timeout, err, sizeof(err))) {
				sup_die("%s", err);
				tcp_plan_free(&s.plan);
				return TCP_EXIT_USAGE;
			}
			rc = tcp_plan_compare(&again, &s.plan, err, sizeof(err));
			tcp_plan_free(&again);
			if (rc) {
				sup_die("--resume %s: the plan differs from its plan.txt: %s", o->resume_dir, err);
				tcp_plan_free(&s.plan);
				return TCP_EXIT_USAGE;
			}
		} else if (o->reps >= 0 || o->warmup >= 0 || o->timeout >= 0 || o->seed_set || o->reps_auto ||
			   o->noise_pct > 0 || o->rep_budget_s > 0) {
			sup_die("--resume %s: --reps/--noise/--rep-budget/--warmup/--timeout/--seed cannot change a planned run: got one, expected none (plan.txt fixes them)",
				o->resume_dir);
			tcp_plan_free(&s.plan);
			return TCP_EXIT_USAGE;
		}
	} else {
		if (!o->spec || o->spec->n == 0) {
			sup_die("run: nothing to run: got no --probe or --spec, expected at least one (tcprobe run --help)");
			return TCP_EXIT_USAGE;
		}
		if (tcp_plan_build(&s.plan, o->spec, o->reps, o->warmup, o->timeout, err, sizeof(err))) {
			sup_die("%s", err);
			return TCP_EXIT_USAGE;
		}
	}
	if (resolve_options(&s, o)) {
		tcp_plan_free(&s.plan);
		return TCP_EXIT_USAGE;
	}
	if (o->dry_run) {	/* no worker, no CUDA, no files */
		/* the emulation build plans for its emulated target as the release build's --arch does */
		tcp_plan_target(&s.plan, s.emu.target ? s.emu.target : o->arch);
		s.plan.emulated = s.emu.target != NULL;
		tcp_plan_print(&s.plan, stdout, o->verbose);
		fflush(stdout);
		tcp_plan_free(&s.plan);
		return TCP_EXIT_OK;
	}

	struct sigaction sa, old_int, old_term, old_pipe, old_xfsz;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: poll() returns EINTR */
	sigemptyset(&sa.sa_mask);
	sup_signal = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sa.sa_handler = SIG_IGN;	/* a dead worker's pipe gives EPIPE, not death */
	sigaction(SIGPIPE, &sa, &old_pipe);
	sigaction(SIGXFSZ, &sa, &old_xfsz);	/* over RLIMIT_FSIZE: EFBIG (exit 7), not death */

	rc = sweep(&s);

	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGPIPE, &old_pipe, NULL);
	sigaction(SIGXFSZ, &old_xfsz, NULL);
	tcp_plan_free(&s.plan);
	return rc;
}
