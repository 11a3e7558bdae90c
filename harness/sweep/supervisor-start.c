/*
 * supervisor-start.c
 *	A run up to its first point: the supervisor's state, the run
 *	directory (created, or reopened by --resume) and its files, the first
 *	worker and the target its GPU is planned for (exit 3, 4, 5 when none
 *	fits), provenance (the host's, the GPU's from the first worker, the
 *	run's facts) and who else is on the GPU at the start (--require-idle's
 *	refusal, exit 10).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/measure/counters.h"
#include "harness/measure/provenance-live.h"
#include "harness/store/infile.h"
#include "harness/sweep/supervisor-int.h"

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

/* The per-point arrays, the header's axis columns, the batch queue. */
static int alloc_state(struct sup *s)
{
	size_t n = (size_t)s->plan.n + 1;
	if (!(s->gprov = calloc(1, sizeof(*s->gprov))) || sup_build_header(s))
		return -1;
	if (!(s->done = calloc(n, 1)) || !(s->pst = malloc(n)) || !(s->plast = calloc(n, 1)) || mark_last(s))
		return -1;
	if (!(s->pend_idx = calloc(TCP_COUNTERS_BATCH_MAX, sizeof(int))) ||
	    !(s->pend = calloc(TCP_COUNTERS_BATCH_MAX, sizeof(struct result))))
		return -1;
	return 0;
}

/*
 *  sup_start_state()
 *	the supervisor's state for the plan (prov: the run's provenance, NULL
 *	when it could not be allocated).  0, or TCP_EXIT_USAGE (said).
 */
int sup_start_state(struct sup *s, const tcp_prov_t *prov)
{
	if (!prov || alloc_state(s)) {
		sup_die("out of memory: got %d points, expected fewer", s->plan.n);
		return TCP_EXIT_USAGE;
	}
	tcp_prov_init(s->gprov);
	memset(s->pst, -1, (size_t)s->plan.n + 1);
	s->w.block.off = s->cfg.no_block;
	s->nvml = -1;
	s->power_src = -1;
	s->nodefer_until = -1;
	tcp_busy_init(&s->busy, -1);
	s->w.cmd_fd = s->w.res_fd = -1;
	if (s->cfg.sustain_s > 0 && s->plan.n != 1 && !s->o->dry_run) {
		sup_die("--sustain: holds one point: got %d points, expected 1 (give one value per axis with --set)",
			s->plan.n);
		return TCP_EXIT_USAGE;
	}
	return 0;
}

/* ---------------------------------------------------------------- run directory */

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

/* 1 (said) when --out names a directory that already holds a run. */
static int holds_run(const char *dir)
{
	char path[PATHLEN];
	if (access(sup_path_in(dir, "plan.txt", path, sizeof(path)), F_OK) != 0)
		return 0;
	sup_die("--out: directory already holds a run: got '%s', expected a new directory (or --resume %s)", dir, dir);
	return 1;
}

/* A new run's directory: --out, or <results>/<name from provenance>, created. */
static int new_run_dir(struct sup *s, tcp_prov_t *prov)
{
	const tcp_sweep_opts_t *o = s->o;
	char err[PATHLEN + 256];
	if (o->out_dir) {
		snprintf(s->dir, sizeof(s->dir), "%s", o->out_dir);
		if (holds_run(s->dir))
			return -1;
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
	return 0;
}

/* log.txt, appended to.  A FIFO or device named log.txt (a --resume of a
 * tampered directory) is refused before the open, which would block on a FIFO. */
static int open_log(struct sup *s)
{
	char path[PATHLEN];
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
	return 0;
}

/* measurements.csv opened (appended to by --resume), plan.txt of a new run. */
static int open_files(struct sup *s)
{
	const tcp_sweep_opts_t *o = s->o;
	char path[PATHLEN], err[PATHLEN + 256];
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
	return 0;
}

/*
 *  sup_open_run_dir()
 *	create (or reopen, for --resume: s->dir set) the run directory and its
 *	files.  0, or -1 (said; s->io_rc the exit status of an I/O failure).
 */
int sup_open_run_dir(struct sup *s, tcp_prov_t *prov)
{
	const tcp_sweep_opts_t *o = s->o;
	if (!o->resume_dir && new_run_dir(s, prov))
		return -1;
	while (strlen(s->dir) > 1 && s->dir[strlen(s->dir) - 1] == '/')
		s->dir[strlen(s->dir) - 1] = '\0';
	const char *base = strrchr(s->dir, '/');
	if (snprintf(s->run_id, sizeof(s->run_id), "%s", base ? base + 1 : s->dir) >= (int)sizeof(s->run_id))
		s->run_id[sizeof(s->run_id) - 1] = '\0';
	if (open_log(s) || (o->resume_dir && sup_load_done(s)) || open_files(s))
		return -1;
	if (sup_meta_start(s)) {
		sup_die("out of memory describing the metrics of %d points", s->plan.n);
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------- worker */

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

/* The first worker did not start: said, the exit status. */
static int spawn_failed(struct sup *s, int r, const char *why)
{
	switch (r) {
	case SPAWN_SIGNAL:
		sup_print_interrupted(s);
		return TCP_EXIT_INTERRUPTED;
	case SPAWN_NOGPU:
		sup_die("no CUDA GPU visible (%s)", why);
		return TCP_EXIT_NO_GPU;
	case SPAWN_OLDDRIVER:
		sup_die("driver too old: %s", why);
		return TCP_EXIT_DRIVER;
	case SPAWN_BADGPU:
		sup_die("--gpu: no such GPU: got '%d', expected 0..%d", s->cfg.gpu, atoi(why) - 1);
		return TCP_EXIT_USAGE;
	default:
		sup_die("worker for GPU %d did not start: %s", s->w.gpu, why);
		return TCP_EXIT_POINTS;
	}
}

/* The plan for the GPU's target (points whose forms it lacks: SKIPPED, never
 * launched); exit 4 when no GPU point left runs on it. */
static int target_check(struct sup *s)
{
	char ua[TCP_REASON_LEN];
	int runs = 0;
	tcp_plan_target(&s->plan, tcp_emu_plan_target(&s->cfg.emu, s->w.cc));
	for (int i = 0; i < s->plan.n && !runs; i++) {
		const tcp_plan_point_t *pp = &s->plan.p[i];
		runs = !s->done[i] && !pp->skipped && pp->probe->arch != TCP_ARCH_HOST &&
		       !sup_unsupported_why(s, pp->probe, s->w.cc, ua, sizeof(ua));
	}
	if (runs)
		return 0;
	planned_archs(s, ua, sizeof(ua));
	sup_die("no probe set for sm_%d; supported: %s", s->w.cc, ua);
	return TCP_EXIT_NO_ARCH;
}

/* The first worker, on the GPU when a point to run needs one, host-only
 * when none does, none when nothing is left to run.  0, or the exit status. */
static int start_worker(struct sup *s)
{
	char why[1024];
	int need_worker = 0;
	for (int i = 0; i < s->plan.n; i++) {
		const tcp_plan_point_t *pp = &s->plan.p[i];
		if (s->done[i] || pp->skipped || pp->probe->unsupported_reason)
			continue;
		need_worker = 1;
		if (pp->probe->arch != TCP_ARCH_HOST)
			s->need_gpu = 1;
	}
	s->w.gpu = s->need_gpu ? s->cfg.gpu : -1;
	if (!need_worker)
		return 0;
	int r = sup_worker_spawn(s, 1, s->w.gpu, why, sizeof(why));
	if (r != SPAWN_OK)
		return spawn_failed(s, r, why);
	return s->need_gpu ? target_check(s) : 0;
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
	if (s->cfg.require_idle && now->contended != 0) {
		sup_die("--require-idle: GPU %d is not idle: got %s, expected no other work on it",
			s->cfg.gpu, now->contended < 0 ? "no witness to tell (no NVML, no launch round trip)" : now->why);
		return -1;
	}
	return 0;
}

/* A provenance key with its prefix ("resume_" on a resume). */
static const char *key(char *k, size_t len, const char *pre, const char *name)
{
	snprintf(k, len, "%s%s", pre, name);
	return k;
}

/* The other processes on the GPU (their names with --show-process-names). */
static void busy_procs(struct sup *s, tcp_prov_t *prov, const tcp_busy_point_t *now, const char *pre)
{
	const tcp_busy_t *b = &s->busy;
	char k[64], names[TCP_PROV_VALLEN] = "";
	if (now->others >= 0)
		tcp_prov_setf(prov, key(k, sizeof(k), pre, "gpu_other_processes"), "%d", now->others);
	else
		tcp_prov_setf(prov, key(k, sizeof(k), pre, "gpu_other_processes"), "NA (%s)",
			      b->procs_why[0] ? b->procs_why : s->nvml_why[0] ? s->nvml_why : "NVML not open");
	if (!s->cfg.show_process_names || now->others <= 0)
		return;
	size_t o = 0;
	for (int i = 0; i < b->nother && o < sizeof(names); i++) {
		char nm[256];
		tcp_nvml_process_name(b->other[i], nm, sizeof(nm));
		o += (size_t)snprintf(names + o, sizeof(names) - o, "%s%s (pid %u)", o ? ", " : "", nm, b->other[i]);
	}
	tcp_prov_set(prov, key(k, sizeof(k), pre, "gpu_other_process_names"), names);
}

/* How the GPU is shared: process samples, compute mode, MPS. */
static void busy_sharing(struct sup *s, tcp_prov_t *prov, const tcp_busy_point_t *now, const char *pre)
{
	const tcp_busy_t *b = &s->busy;
	char k[64];
	if (now->util_others >= 0)
		tcp_prov_set(prov, key(k, sizeof(k), pre, "gpu_process_samples"), "ok");
	else
		tcp_prov_setf(prov, key(k, sizeof(k), pre, "gpu_process_samples"), "NA (%s)",
			      b->util_why[0] ? b->util_why : "NVML not open");
	tcp_prov_set(prov, key(k, sizeof(k), pre, "gpu_compute_mode"), compute_mode_name(tcp_nvml_compute_mode(s->nvml)));
	if (b->mps_clients > 0)
		tcp_prov_setf(prov, key(k, sizeof(k), pre, "gpu_mps"),
			      "active: %d client(s) of an MPS server share the GPU", b->mps_clients);
	else
		tcp_prov_set(prov, key(k, sizeof(k), pre, "gpu_mps"), b->procs_ok ? "off" : "NA (no NVML process list)");
}

/* The run-start findings as provenance keys (prefix "resume_" on a resume). */
static void busy_prov(struct sup *s, tcp_prov_t *prov, const tcp_busy_point_t *now, const char *pre)
{
	char k[64];
	busy_procs(s, prov, now, pre);
	busy_sharing(s, prov, now, pre);
	if (isnan(s->w.rtt_us))
		tcp_prov_set(prov, key(k, sizeof(k), pre, "launch_rtt_us_start"), "NA (the worker could not time a launch)");
	else
		tcp_prov_setf(prov, key(k, sizeof(k), pre, "launch_rtt_us_start"), "%.1f", s->w.rtt_us);
	tcp_prov_setf(prov, key(k, sizeof(k), pre, "gpu_busy_at_start"), "%s%s%s",
		      now->contended < 0 ? "NA" : now->contended ? "yes" : "no", now->why[0] ? ": " : "", now->why);
}

/* ---------------------------------------------------------------- provenance */

/* The host's provenance (it opens NVML, which must not precede the first
 * fork), the GPU's from the first worker, the run's facts. */
static void host_provenance(struct sup *s, tcp_prov_t *prov)
{
	tcp_prov_collect_host(prov, s->o->argc, s->o->argv);
	tcp_prov_merge(prov, s->gprov, NULL);
	tcp_prov_setf(prov, "seed", "%llu", (unsigned long long)s->cfg.seed);
	tcp_prov_setf(prov, "points_planned", "%d", s->plan.n);
	tcp_emu_provenance(&s->cfg.emu, prov);
	tcp_prov_set(prov, "counters", s->need_gpu ? s->ctr_status : "off");
	if (!s->cfg.timer_cupti || !s->need_gpu)
		tcp_prov_set(prov, "timer", "events");
	else if (strcmp(s->timer_status, "ok") == 0)
		tcp_prov_set(prov, "timer", "cupti");
	else
		tcp_prov_setf(prov, "timer", "events (cupti NA: %s)", s->timer_status);
}

/* NVML's index of the worker's GPU (by the index or UUID it reported). */
static void open_nvml(struct sup *s)
{
	const char *ni = tcp_prov_get(s->gprov, "nvml_index");
	const char *uuid = tcp_prov_get(s->gprov, "gpu_uuid");
	char nw[256];
	if (tcp_nvml_open(nw, sizeof(nw)) == 0) {
		s->nvml = ni && ni[0] >= '0' && ni[0] <= '9' ? atoi(ni) : uuid ? tcp_nvml_index_by_uuid(uuid) : -1;
		if (s->nvml < 0)
			snprintf(s->nvml_why, sizeof(s->nvml_why), "NVML does not know this GPU");
	} else {
		snprintf(s->nvml_why, sizeof(s->nvml_why), "%s", nw);
	}
}

/* --resume: the run keeps its original provenance; each resume adds when and
 * how (prov becomes the run's, with those keys). */
static void resume_provenance(struct sup *s, tcp_prov_t *prov, const tcp_busy_point_t *now)
{
	tcp_prov_t *old = calloc(1, sizeof(*old));
	char e[512], path[PATHLEN], ts[40];
	if (old && tcp_prov_read(old, sup_path_in(s->dir, "provenance.csv", path, sizeof(path)), e, sizeof(e)) == 0) {
		const char *ou = tcp_prov_get(old, "gpu_uuid"), *nu = tcp_prov_get(prov, "gpu_uuid");
		if (s->need_gpu && ou && nu && strncmp(ou, "GPU-", 4) == 0 && strcmp(ou, nu) != 0)
			sup_log(s, "warning: resumed on another GPU: %s (was %s)", nu, ou);
		const char *prev = tcp_prov_get(old, "resumed_utc");
		char *was = strdup(prev ? prev : "");	/* prev lives in the slot being set */
		tcp_prov_setf(old, "resumed_utc", "%s%s%s", was ? was : "", was && *was ? " " : "",
			      tcp_prov_utc_now(ts, sizeof(ts)));
		free(was);
		tcp_prov_set(old, "resume_command_line", tcp_prov_get(prov, "command_line"));
		if (s->need_gpu) {
			tcp_prov_set(old, "resume_gpu_uuid", nu);
			busy_prov(s, old, now, "resume_");
		}
		memcpy(prov, old, sizeof(*prov));
	}
	free(old);
}

/* The start said: other work on the GPU, the run line of log.txt, counters NA. */
static void announce(struct sup *s, const tcp_busy_point_t *now)
{
	if (s->need_gpu && now->contended > 0) {
		fprintf(stderr, "warning: GPU %d is not idle at the start: %s (--require-idle refuses such a GPU)\n",
			s->cfg.gpu, now->why);
		sup_log(s, "GPU busy at start: %s", now->why);
	}
	sup_log(s, "%s: %d points, seed %llu, counters %s, worker on %s", s->o->resume_dir ? "resume" : "run",
		s->plan.n, (unsigned long long)s->cfg.seed, s->cfg.counters, s->w.gpu >= 0 ? "a GPU" : "the host only");
	/* counters unreadable: said once here; each point's cupti/ rows carry it too */
	if (s->need_gpu && strcmp(s->ctr_status, "ok") != 0 && strcmp(s->ctr_status, "off") != 0) {
		fprintf(stderr, "counters NA (timing still recorded): %s\n", s->ctr_status);
		sup_log(s, "counters NA: %s", s->ctr_status);
	}
}

/* Provenance and contention at the start, the run directory of a new run.
 * 0, or the exit status (said). */
static int start_provenance(struct sup *s, tcp_prov_t *prov)
{
	tcp_busy_point_t now;
	memset(&now, 0, sizeof(now));
	host_provenance(s, prov);
	if (s->need_gpu)
		open_nvml(s);
	if (s->need_gpu && busy_start(s, &now))
		return TCP_EXIT_BUSY;
	if (s->o->resume_dir)
		resume_provenance(s, prov, &now);
	else if (sup_open_run_dir(s, prov))
		return s->io_rc ? s->io_rc : TCP_EXIT_USAGE;
	else if (s->need_gpu)
		busy_prov(s, prov, &now, "");
	sup_write_provenance(s, prov);
	announce(s, &now);
	return 0;
}

/* --resume: the run directory reopened first, so a worker is forked only
 * for real work.  0, or the exit status (said). */
static int reopen_run_dir(struct sup *s, tcp_prov_t *prov)
{
	snprintf(s->dir, sizeof(s->dir), "%s", s->o->resume_dir);
	if (sup_open_run_dir(s, prov))
		return s->io_rc ? s->io_rc : TCP_EXIT_USAGE;
	for (int i = 0; i < s->plan.n; i++)
		s->ndone += s->done[i];
	sup_log(s, "resume: %d of %d points already written", s->ndone, s->plan.n);
	return 0;
}

/*
 *  sup_start()
 *	everything before the first point: the run directory (--resume's
 *	first; a new run's --out checked before a GPU is touched), the first
 *	worker, provenance.  0, or the exit status (said).
 */
int sup_start(struct sup *s, tcp_prov_t *prov)
{
	const tcp_sweep_opts_t *o = s->o;
	int rc;
	if (o->resume_dir && (rc = reopen_run_dir(s, prov)))
		return rc;
	if (!o->resume_dir && o->out_dir && holds_run(o->out_dir))
		return TCP_EXIT_USAGE;
	if ((rc = start_worker(s)))
		return rc;
	return start_provenance(s, prov);
}
