/*
 * supervisor.c
 *	The parent side of a sweep (design.md's flow): plan, results directory,
 *	one forked worker per GPU (one GPU for now: struct worker is per GPU so
 *	`--gpus` can add more), a per-point timeout, NVML clock sampling while
 *	a point runs, one CSV write per point, progress, resume, SIGINT.
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

#include "harness/store/csvio.h"
#include "harness/measure/cupti-timer.h"
#include "harness/measure/energy.h"
#include "harness/measure/nvml.h"
#include "harness/sweep/plan.h"
#include "harness/store/provenance.h"
#include "harness/store/run.h"
#include "harness/measure/stats.h"
#include "harness/sweep/supervisor.h"
#include "harness/sweep/worker.h"

#define LINE_MAX_BYTES	(512u << 20)	/* a longer protocol line is garbage */
#define PATHLEN		4096

static volatile sig_atomic_t g_signal;

static void on_signal(int sig)
{
	g_signal = sig;
}

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void die_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void die_msg(const char *fmt, ...)
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

/* ---------------------------------------------------------------- lines */

struct linebuf {
	char *buf;
	size_t len, off, cap;
};

/* 1 with the next complete line (NUL-terminated, in place), 0 if none yet. */
static int lb_line(struct linebuf *b, char **line)
{
	char *nl = b->len > b->off ? memchr(b->buf + b->off, '\n', b->len - b->off) : NULL;
	if (!nl)
		return 0;
	*nl = '\0';
	*line = b->buf + b->off;
	b->off = (size_t)(nl - b->buf) + 1;
	return 1;
}

/* Read what is there: >0 bytes, 0 EOF, -1 error, -2 line too long. */
static ssize_t lb_fill(struct linebuf *b, int fd)
{
	if (b->off) {
		memmove(b->buf, b->buf + b->off, b->len - b->off);
		b->len -= b->off;
		b->off = 0;
	}
	if (b->cap - b->len < 65536) {
		if (b->cap >= LINE_MAX_BYTES)
			return -2;
		size_t cap = b->cap ? b->cap * 2 : 131072;
		char *nb = realloc(b->buf, cap);
		if (!nb)
			return -2;
		b->buf = nb;
		b->cap = cap;
	}
	ssize_t r;
	do
		r = read(fd, b->buf + b->len, b->cap - b->len - 1);
	while (r < 0 && errno == EINTR && !g_signal);
	if (r > 0)
		b->len += (size_t)r;
	return r;
}

/* ---------------------------------------------------------------- NVML */

struct sampler {
	int nvml;			/* NVML index, -1 = no sampling */
	double sum;
	int n;
	unsigned long long mask;
	int mask_ok;
	double next;
};

static void sampler_start(struct sampler *s, int nvml)
{
	memset(s, 0, sizeof(*s));
	s->nvml = nvml;
	s->next = mono() + TCP_NVML_PERIOD_S;
}

static void sampler_take(struct sampler *s)
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
	s->next = mono() + TCP_NVML_PERIOD_S;
}

/* ---------------------------------------------------------------- worker */

struct worker {
	pid_t pid;		/* 0 = none */
	int cmd_fd, res_fd;
	int gpu;		/* CUDA ordinal, -1 host-only */
	int cc, sm_count;
	struct linebuf lb;
};

/* The run-wide state of the supervisor. */
struct sup {
	const tcp_probe_t *const *probes;
	int nprobes;
	const tcp_sweep_opts_t *o;
	tcp_plan_t plan;
	uint64_t seed;
	const char *counters;
	int gpu;
	struct worker w;
	tcp_prov_t *gprov;		/* PROV lines of the first worker */
	char ctr_status[TCP_REASON_LEN];
	int timer_cupti;		/* --timer cupti */
	char timer_status[TCP_REASON_LEN];
	int nvml;			/* NVML index of the GPU, -1 none */
	char nvml_why[256];		/* why nvml is -1 */
	double energy_s;		/* max(--energy, --sustain); 0 = off */
	FILE *trace;			/* --sustain: DIR/trace.csv */
	char dir[PATHLEN];
	char run_id[256];
	tcp_csv_writer_t *csv;
	FILE *log;
	const char **header;
	int ncols, naxcols;
	const char **axcols;		/* the axis-union columns */
	unsigned char *done;		/* per plan point: rows on disk */
	int ndone;
	int bad;			/* FAILED/TIMEOUT/INVALID points this session */
	double t_start;
	int nrun, ntorun;		/* points executed / to execute this session */
	double t_run;			/* wall seconds spent in executed points */
	int io_rc;			/* exit status of a results-directory I/O failure */
};

static void logf_(struct sup *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void logf_(struct sup *s, const char *fmt, ...)
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

static const char *sig_name(int sig)
{
	static const struct { int s; const char *n; } t[] = {
		{ SIGSEGV, "SIGSEGV" }, { SIGABRT, "SIGABRT" }, { SIGBUS, "SIGBUS" },
		{ SIGFPE, "SIGFPE" }, { SIGILL, "SIGILL" }, { SIGKILL, "SIGKILL" },
		{ SIGTERM, "SIGTERM" }, { SIGINT, "SIGINT" }, { SIGPIPE, "SIGPIPE" },
		{ SIGTRAP, "SIGTRAP" }, { SIGSYS, "SIGSYS" }, { SIGXCPU, "SIGXCPU" },
		{ SIGHUP, "SIGHUP" }, { SIGQUIT, "SIGQUIT" }, { SIGUSR1, "SIGUSR1" },
		{ SIGUSR2, "SIGUSR2" },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].s == sig)
			return t[i].n;
	return "signal";
}

/* How a worker ended, as a reason. */
static void exit_reason(int status, char *buf, size_t len)
{
	if (WIFSIGNALED(status))
		snprintf(buf, len, "worker killed by %s (%s)%s", sig_name(WTERMSIG(status)),
			 strsignal(WTERMSIG(status)), WCOREDUMP(status) ? ", core dumped" : "");
	else if (WIFEXITED(status))
		snprintf(buf, len, "worker exited with status %d", WEXITSTATUS(status));
	else
		snprintf(buf, len, "worker ended (wait status 0x%x)", status);
}

static void worker_close_fds(struct worker *w)
{
	if (w->cmd_fd >= 0)
		close(w->cmd_fd);
	if (w->res_fd >= 0)
		close(w->res_fd);
	w->cmd_fd = w->res_fd = -1;
	w->lb.len = w->lb.off = 0;
}

/*
 *  worker_kill()
 *	SIGKILL the worker's process group (it and anything it started) and
 *	reap it
 */
static void worker_kill(struct worker *w)
{
	if (w->pid > 0) {
		kill(-w->pid, SIGKILL);
		kill(w->pid, SIGKILL);
		while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	w->pid = 0;
	worker_close_fds(w);
}

/*
 *  worker_reap()
 *	the worker closed its pipe: collect how it ended (it may take a moment
 *	to finish dying), then clear away its group
 */
static void worker_reap(struct worker *w, char *why, size_t len)
{
	int status = 0;
	pid_t r = 0;
	for (int i = 0; i < 200 && r == 0; i++) {	/* up to 2 s */
		r = waitpid(w->pid, &status, WNOHANG);
		if (r == 0)
			usleep(10000);
		else if (r < 0 && errno == EINTR)
			r = 0;
	}
	if (r == w->pid) {
		exit_reason(status, why, len);
		kill(-w->pid, SIGKILL);	/* leftovers of its group, if any */
		w->pid = 0;
		worker_close_fds(w);
		return;
	}
	snprintf(why, len, "worker closed its result pipe and did not exit; killed");
	worker_kill(w);
}

enum { WL_LINE = 1, WL_TIMEOUT = -1, WL_SIGNAL = -2, WL_TOOLONG = -3, WL_EOF = -4 };

/* Next line from the worker before `deadline`, sampling NVML meanwhile. */
static int worker_line(struct worker *w, double deadline, struct sampler *smp, char **line)
{
	for (;;) {
		if (lb_line(&w->lb, line))
			return WL_LINE;
		if (g_signal)
			return WL_SIGNAL;
		double now = mono();
		if (now >= deadline)
			return WL_TIMEOUT;
		if (smp && smp->nvml >= 0 && now >= smp->next)
			sampler_take(smp);
		double until = deadline;
		if (smp && smp->nvml >= 0 && smp->next < until)
			until = smp->next;
		int ms = (int)ceil((until - now) * 1000.0);
		if (ms > 100)
			ms = 100;	/* re-check the signal flag now and then */
		struct pollfd pfd = { w->res_fd, POLLIN, 0 };
		int pr = poll(&pfd, 1, ms < 0 ? 0 : ms);
		if (pr < 0 && errno != EINTR)
			return WL_EOF;
		if (pr <= 0)
			continue;
		ssize_t r = lb_fill(&w->lb, w->res_fd);
		if (r == -2)
			return WL_TOOLONG;
		if (r == 0 || (r < 0 && errno != EINTR && errno != EAGAIN))
			return WL_EOF;
	}
}

/* Split a protocol line at TABs in place; returns the field count. */
static int split_tabs(char *s, char **f, int maxf)
{
	int n = 0;
	for (;;) {
		if (n == maxf)
			return n + 1;	/* too many: the caller rejects it */
		f[n++] = s;
		char *t = strchr(s, '\t');
		if (!t)
			return n;
		*t = '\0';
		s = t + 1;
	}
}

/* Printable excerpt of a bad protocol line for the reason. */
static const char *excerpt(const char *s, char *buf, size_t len)
{
	size_t o = 0;
	for (; *s && o + 5 < len && o < 60; s++)
		buf[o++] = (*s >= 32 && *s < 127) ? *s : '?';
	buf[o] = '\0';
	if (*s)
		snprintf(buf + o, len - o, "...");
	return buf;
}

enum { SPAWN_OK = 0, SPAWN_FAIL = -1, SPAWN_NOGPU = -3, SPAWN_BADGPU = -4, SPAWN_SIGNAL = -5,
       SPAWN_OLDDRIVER = -6 };

/*
 *  worker_spawn()
 *	fork a worker for s->gpu and wait for its HELLO; why holds the reason
 *	on failure (NOGPU text, BADGPU count, crash or timeout)
 */
static int worker_spawn(struct sup *s, int collect_prov, int gpu, char *why, size_t len)
{
	struct worker *w = &s->w;
	int cmd[2], res[2];
	if (pipe(cmd) || pipe(res)) {
		snprintf(why, len, "pipe: %s", strerror(errno));
		return SPAWN_FAIL;
	}
	fflush(NULL);	/* nothing buffered gets written twice */
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(why, len, "fork: %s", strerror(errno));
		close(cmd[0]), close(cmd[1]), close(res[0]), close(res[1]);
		return SPAWN_FAIL;
	}
	if (pid == 0) {
		setpgid(0, 0);	/* its own group: one kill takes it and its children */
		close(cmd[1]);
		close(res[0]);
		tcp_worker_args_t a = {
			.plan = &s->plan, .gpu = gpu, .seed = s->seed, .counters = s->counters,
			.timer_cupti = s->timer_cupti, .collect_prov = collect_prov,
			.energy_s = s->energy_s,
			.cmd_fd = cmd[0], .res_fd = res[1],
			.parent = getppid(),
		};
		tcp_worker_main(&a);
	}
	setpgid(pid, pid);	/* both sides: no race with the first kill */
	close(cmd[0]);
	close(res[1]);
	w->pid = pid;
	w->cmd_fd = cmd[1];
	w->res_fd = res[0];
	w->gpu = gpu;
	fcntl(w->cmd_fd, F_SETFD, FD_CLOEXEC);
	fcntl(w->res_fd, F_SETFD, FD_CLOEXEC);

	double deadline = mono() + TCP_WORKER_START_S;
	char *line, *f[4], ex[96];
	for (;;) {
		int r = worker_line(w, deadline, NULL, &line);
		if (r == WL_SIGNAL) {
			worker_kill(w);
			return SPAWN_SIGNAL;
		}
		if (r == WL_TIMEOUT) {
			worker_kill(w);
			snprintf(why, len, "worker did not start within %.0f s", TCP_WORKER_START_S);
			return SPAWN_FAIL;
		}
		if (r != WL_LINE) {
			char how[160];
			worker_reap(w, how, sizeof(how));
			snprintf(why, len, "worker failed while starting: %s", how);
			return SPAWN_FAIL;
		}
		char copy[128];
		snprintf(copy, sizeof(copy), "%s", line);
		int nf = split_tabs(line, f, 3);
		if (strcmp(f[0], "PROV") == 0 && nf == 3) {
			if (s->gprov)
				tcp_prov_set(s->gprov, f[1], f[2]);
		} else if (strcmp(f[0], "CTR") == 0 && nf == 2) {
			snprintf(s->ctr_status, sizeof(s->ctr_status), "%s", f[1]);
		} else if (strcmp(f[0], "TIMER") == 0 && nf == 2) {
			snprintf(s->timer_status, sizeof(s->timer_status), "%s", f[1]);
		} else if (strcmp(f[0], "HELLO") == 0 && nf == 3) {
			w->cc = atoi(f[1]);
			w->sm_count = atoi(f[2]);
			return SPAWN_OK;
		} else if (strcmp(f[0], "NOGPU") == 0 && nf == 2) {
			snprintf(why, len, "%s", f[1]);
			worker_kill(w);
			return SPAWN_NOGPU;
		} else if (strcmp(f[0], "OLDDRIVER") == 0 && nf == 3) {
			/* "OLDDRIVER <driver CUDA version> <runtime version>", e.g. 12080 13000 */
			int dv = atoi(f[1]), rv = atoi(f[2]);
			snprintf(why, len, "the NVIDIA driver supports CUDA %d.%d, this tcprobe needs %d.%d (its CUDA runtime): update the driver or build with an older toolkit",
				 dv / 1000, dv % 1000 / 10, rv / 1000, rv % 1000 / 10);
			worker_kill(w);
			return SPAWN_OLDDRIVER;
		} else if (strcmp(f[0], "BADGPU") == 0 && nf == 2) {
			snprintf(why, len, "%s", f[1]);
			worker_kill(w);
			return SPAWN_BADGPU;
		} else {
			snprintf(why, len, "worker protocol error while starting: '%s'",
				 excerpt(copy, ex, sizeof(ex)));
			worker_kill(w);
			return SPAWN_FAIL;
		}
	}
}

/* ---------------------------------------------------------------- results */

/* What came back for one point. */
struct result {
	tcp_status_t st;
	char reason[TCP_REASON_LEN + 128];
	int ns, nm;
	char stop[16];			/* why the timed runs ended (reps_stop); "" = none */
	double *smp;			/* nm x ns, metric-major */
	int nk;
	struct krow {
		char *metric, *unit, *reason;
		double v;
		tcp_status_t st;
	} *k;
	double clock_mhz;		/* NVML mean, NAN = none */
	char throttle[128];		/* "" = not sampled */
	int sticky;
	struct {			/* --energy window (EB .. EE) */
		int seen;		/* EE arrived */
		int have_e;		/* both counter readings */
		char why[320];		/* no energy: why */
		int64_t mj;
		double window_s, work_flop, worker_s;
		long long runs;
		tcp_mean_t power, clock;
		unsigned long long mask;
		int mask_ok;
	} en;
};

static void result_free(struct result *r)
{
	for (int i = 0; i < r->nk; i++) {
		free(r->k[i].metric);
		free(r->k[i].unit);
		free(r->k[i].reason);
	}
	free(r->k);
	free(r->smp);
	memset(r, 0, sizeof(*r));
}

static int status_parse(const char *s, tcp_status_t *st)
{
	for (int i = TCP_OK; i <= TCP_UNSUPPORTED; i++)
		if (strcmp(s, tcp_status_name((tcp_status_t)i)) == 0) {
			*st = (tcp_status_t)i;
			return 0;
		}
	return -1;
}

/* Strict double ("nan" allowed). */
static int parse_double(const char *s, double *v)
{
	char *end;
	if (!*s)
		return -1;
	*v = strtod(s, &end);
	return *end ? -1 : 0;
}

/* Series a worker sends beyond the probe's metrics: the --timer cupti span. */
static int extra_series(const struct sup *s, const tcp_probe_t *p)
{
	return s->timer_cupti && s->w.gpu >= 0 && p->arch != TCP_ARCH_HOST;
}

/*
 *  parse_point_msg()
 *	read the rest of one point message (P already split into f) from the
 *	worker; 0, or a WL_* code / 2 for a protocol error with the reason
 */
static int parse_point_msg(struct sup *s, int idx, char **f, int nf, double deadline,
			   struct sampler *smp, struct result *res)
{
	const tcp_probe_t *p = s->plan.p[idx].probe;
	char *line, *g[TCP_MAX_METRICS > 8 ? 8 : 8], ex[96];
	long long v;
	char e[256];
	if (nf != 6 || tcp_parse_int("point", f[1], idx, idx, &v, e, sizeof(e)) ||
	    status_parse(f[2], &res->st) ||
	    tcp_parse_int("samples", f[3], 0, s->plan.p[idx].reps, &v, e, sizeof(e))) {
		snprintf(res->reason, sizeof(res->reason), "worker protocol error: bad point header for point %d",
			 idx);
		return 2;
	}
	res->ns = (int)v;
	snprintf(res->stop, sizeof(res->stop), "%s", strcmp(f[5], "-") ? f[5] : "");
	int nm = p->nmetrics + extra_series(s, p);
	if (tcp_parse_int("metrics", f[4], nm, nm, &v, e, sizeof(e))) {
		snprintf(res->reason, sizeof(res->reason), "worker protocol error: %s", e);
		return 2;
	}
	res->nm = nm;
	res->smp = calloc((size_t)(res->nm ? res->nm : 1) * (size_t)(res->ns ? res->ns : 1), sizeof(double));
	if (!res->smp) {
		snprintf(res->reason, sizeof(res->reason), "supervisor out of memory");
		return 2;
	}
	for (int m = 0; m < res->nm; m++) {
		int r = worker_line(&s->w, deadline, smp, &line);
		if (r != WL_LINE)
			return r;
		char *save = line, *tok = strsep(&save, "\t");
		if (strcmp(tok, "S") != 0 || !save || atoi(strsep(&save, "\t")) != m) {
			snprintf(res->reason, sizeof(res->reason), "worker protocol error: expected samples of metric %d, got '%s'",
				 m, excerpt(tok, ex, sizeof(ex)));
			return 2;
		}
		for (int i = 0; i < res->ns; i++) {
			tok = save ? strsep(&save, "\t") : NULL;
			if (!tok || parse_double(tok, &res->smp[(size_t)m * (size_t)res->ns + (size_t)i])) {
				snprintf(res->reason, sizeof(res->reason), "worker protocol error: bad sample %d of metric %d",
					 i, m);
				return 2;
			}
		}
		if (save) {
			snprintf(res->reason, sizeof(res->reason), "worker protocol error: extra samples for metric %d", m);
			return 2;
		}
	}
	for (;;) {
		int r = worker_line(&s->w, deadline, smp, &line);
		if (r != WL_LINE)
			return r;
		char copy[128];
		snprintf(copy, sizeof(copy), "%s", line);
		int n = split_tabs(line, g, 6);
		if (strcmp(g[0], "K") == 0 && n == 6) {
			struct krow *nk = realloc(res->k, sizeof(*nk) * (size_t)(res->nk + 1));
			if (!nk)
				return 2;
			res->k = nk;
			struct krow *k = &res->k[res->nk];
			if (parse_double(g[3], &k->v) || status_parse(g[4], &k->st)) {
				snprintf(res->reason, sizeof(res->reason), "worker protocol error: bad counter row '%s'",
					 excerpt(copy, ex, sizeof(ex)));
				return 2;
			}
			k->metric = strdup(g[1]);
			k->unit = strdup(g[2]);
			k->reason = strdup(g[5]);
			res->nk++;
			if (!k->metric || !k->unit || !k->reason)
				return 2;
			continue;
		}
		if (strcmp(g[0], "E") == 0 && n == 4 &&
		    tcp_parse_int("point", g[1], idx, idx, &v, e, sizeof(e)) == 0) {
			res->sticky = atoi(g[2]);
			if (res->st != TCP_OK)
				snprintf(res->reason, sizeof(res->reason), "%s",
					 g[3][0] ? g[3] : "no reason given");
			return 0;
		}
		snprintf(res->reason, sizeof(res->reason), "worker protocol error: unexpected '%s'",
			 excerpt(copy, ex, sizeof(ex)));
		return 2;
	}
}

static void fmt_num(char *buf, size_t len, double v)
{
	if (isfinite(v))
		snprintf(buf, len, "%.10g", v);
	else
		buf[0] = '\0';
}

/*
 *  write_rows()
 *	one row per declared metric (and per counter) of point idx, in ONE
 *	write through csvio; values only for OK points
 */
static int write_rows(struct sup *s, int idx, const struct result *r)
{
	const tcp_plan_point_t *pp = &s->plan.p[idx];
	const tcp_probe_t *p = pp->probe;
	int nrows = r->nm + r->nk, nc = s->ncols;
	const char **cells = calloc((size_t)nrows * (size_t)nc, sizeof(*cells));
	char (*num)[9][40] = calloc((size_t)nrows, sizeof(*num));
	char fixed[6][64], ts[40], clk[40], ax[TCP_MAX_AXES][64];
	if (!cells || !num) {
		free(cells);
		free(num);
		return -1;
	}
	snprintf(fixed[0], sizeof(fixed[0]), "%d", TCP_SCHEMA_VERSION);
	snprintf(fixed[1], sizeof(fixed[1]), "%d", s->w.gpu >= 0 ? s->w.gpu : s->gpu);
	snprintf(fixed[2], sizeof(fixed[2]), "%d", idx);
	tcp_prov_utc_now(ts, sizeof(ts));
	fmt_num(clk, sizeof(clk), r->clock_mhz);
	for (int a = 0; a < p->naxes; a++)
		tcp_axis_value_str(&p->axes[a], pp->pt.v[a], ax[a], sizeof(ax[a]));
	for (int row = 0; row < nrows; row++) {
		const char **c = cells + (size_t)row * (size_t)nc;
		int is_k = row >= r->nm, is_x = !is_k && row >= p->nmetrics;
		const struct krow *k = is_k ? &r->k[row - r->nm] : NULL;
		tcp_status_t st = is_k ? k->st : r->st;
		c[0] = fixed[0];
		c[1] = s->run_id;
		c[2] = fixed[1];
		c[3] = fixed[2];
		c[4] = p->name;
		c[5] = tcp_arch_name(p->arch);
		c[6] = pp->key;
		c[7] = is_k ? k->metric : is_x ? TCP_CUPTI_TIMER_METRIC : p->metrics[row].name;
		c[8] = is_k ? k->unit : is_x ? "ns" : p->metrics[row].unit;
		if (is_k && st == TCP_OK) {
			fmt_num(num[row][0], 40, k->v);
			for (int i = 9; i <= 12; i++)
				c[i] = num[row][0];
			c[13] = "0";
			c[14] = "0";
			c[15] = "1";
		} else if (!is_k && st == TCP_OK) {
			tcp_stats_t stt;
			tcp_stats_compute(r->smp + (size_t)row * (size_t)r->ns, r->ns, &stt);
			double vals[6] = { stt.median, stt.min, stt.max, stt.mean, stt.stddev, stt.spread_pct };
			for (int i = 0; i < 6; i++) {
				fmt_num(num[row][i], 40, stt.n ? vals[i] : NAN);
				c[9 + i] = num[row][i];
			}
			snprintf(num[row][6], 40, "%d", stt.n);
			c[15] = num[row][6];
			fmt_num(num[row][8], 40, tcp_stats_median_ci_pct(r->smp + (size_t)row * (size_t)r->ns, r->ns));
			c[21] = num[row][8];
			c[22] = r->stop;
		} else {
			snprintf(num[row][6], 40, "%d", is_k ? 0 : r->ns);
			c[15] = num[row][6];
		}
		c[16] = tcp_status_name(st);
		c[17] = st == TCP_OK ? "" : is_k ? k->reason : r->reason;
		c[18] = clk;
		c[19] = r->throttle;
		c[20] = ts;
		for (int a = 0; a < p->naxes; a++)
			for (int j = 0; j < s->naxcols; j++)
				if (strcmp(s->axcols[j], p->axes[a].name) == 0)
					c[s->ncols - s->naxcols + j] = ax[a];
	}
	int rc = tcp_csv_write_rows(s->csv, cells, nrows);
	free(cells);
	free(num);
	return rc;
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
	int quiet_row = r->st == TCP_SKIPPED || r->st == TCP_UNSUPPORTED;
	if (!s->o->quiet && !quiet_row)
		fprintf(stderr, "[%*d/%d %3d%%] %s %s ... %s%s\n", (int)snprintf(NULL, 0, "%d", n), k, n,
			n ? (int)(100.0 * k / n) : 100, p->name, pp->key, what, eta);
	logf_(s, "[%d/%d] point %d %s %s: %s", k, n, idx, p->name, pp->key, what);
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

static const char *path_in(const char *dir, const char *file, char *buf, size_t len)
{
	if (snprintf(buf, len, "%s/%s", dir, file) >= (int)len)
		buf[0] = '\0';	/* too long: the open fails and names the problem */
	return buf;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Fixed columns (results/SCHEMA.md) + the axis union of `probes`, sorted. */
static int build_header(struct sup *s)
{
	static const char *fixed[] = {
		"schema", "run_id", "gpu", "point", "probe", "arch", "axes", "metric", "unit",
		"median", "min", "max", "mean", "stddev", "spread_pct", "reps", "status",
		"reason", "sm_clock_mhz", "throttle", "timestamp", "ci_pct", "reps_stop",
	};
	int nf = (int)(sizeof(fixed) / sizeof(fixed[0])), na = 0, cap = 0;
	for (int i = 0; i < s->nprobes; i++)
		cap += s->probes[i]->naxes;
	s->axcols = calloc((size_t)cap + 1, sizeof(*s->axcols));
	s->header = calloc((size_t)(nf + cap), sizeof(*s->header));
	if (!s->axcols || !s->header)
		return -1;
	for (int i = 0; i < s->nprobes; i++)
		for (int a = 0; a < s->probes[i]->naxes; a++) {
			const char *n = s->probes[i]->axes[a].name;
			int dup = 0;
			for (int j = 0; j < na && !dup; j++)
				dup = strcmp(s->axcols[j], n) == 0;
			if (!dup)
				s->axcols[na++] = n;
		}
	qsort(s->axcols, (size_t)na, sizeof(*s->axcols), cmp_str);
	for (int i = 0; i < nf; i++)
		s->header[i] = fixed[i];
	for (int j = 0; j < na; j++)
		s->header[nf + j] = s->axcols[j];
	s->naxcols = na;
	s->ncols = nf + na;
	return 0;
}

/*
 *  load_done()
 *	--resume: which points already have all their rows (the run model
 *	reads them); a partial point (a write cut by SIGKILL across pages) is
 *	removed from the CSV so it runs again.  0, or -1 with the message printed.
 */
static int load_done(struct sup *s)
{
	char err[1024];
	tcp_run_t *run;
	if (tcp_run_open(s->dir, TCP_RUN_MAY_BE_EMPTY | TCP_RUN_NEED_POINT, &run, err, sizeof(err))) {
		die_msg("--resume %s: %s", s->dir, err);
		return -1;
	}
	int *decl = calloc((size_t)s->plan.n + 1, sizeof(int));
	unsigned char *keep = calloc((size_t)run->nrows + 1, 1);
	int rc = -1, partial = 0;
	if (!decl || !keep) {
		die_msg("--resume %s: out of memory", s->dir);
		goto out;
	}
	for (int r = 0; r < run->nrows; r++) {
		const tcp_run_row_t *w = &run->rows[r];
		long long idx;
		char e[256];
		if (tcp_parse_int("point", w->id, 0, s->plan.n - 1, &idx, e, sizeof(e))) {
			die_msg("--resume %s: measurements.csv row %d: %s", s->dir, w->line, e);
			goto out;
		}
		const tcp_plan_point_t *pp = &s->plan.p[idx];
		if (strcmp(w->probe, pp->probe->name) || strcmp(w->axes, pp->key)) {
			die_msg("--resume %s: measurements.csv row %d does not match plan.txt: got '%s %s', expected '%s %s'",
				s->dir, w->line, w->probe, w->axes, pp->probe->name, pp->key);
			goto out;
		}
		/* count the probe's declared metrics only: counter and other extra
		 * rows may come and go, the declared ones are always written */
		for (int m = 0; m < pp->probe->nmetrics; m++)
			if (strcmp(w->metric, pp->probe->metrics[m].name) == 0)
				decl[idx]++;
	}
	for (int i = 0; i < s->plan.n; i++) {
		if (decl[i] == s->plan.p[i].probe->nmetrics && decl[i] > 0)
			s->done[i] = 1;
		else if (decl[i])
			partial++;
	}
	if (partial) {
		for (int r = 0; r < run->nrows; r++)
			keep[r] = s->done[atoll(run->rows[r].id)];
		if (tcp_run_keep_rows(run, keep, err, sizeof(err))) {
			die_msg("--resume %s: %s", s->dir, err);
			goto out;
		}
		logf_(s, "resume: dropped the rows of %d partially written point(s)", partial);
	}
	if (run->torn_tail)
		logf_(s, "resume: dropped a torn last line of measurements.csv");
	rc = 0;
out:
	free(decl);
	free(keep);
	tcp_run_free(run);
	return rc;
}

/* Write provenance.csv: host part + the worker's GPU part + run facts. */
static void write_provenance(struct sup *s, tcp_prov_t *prov)
{
	char path[PATHLEN], err[512];
	if (tcp_prov_write(prov, path_in(s->dir, "provenance.csv", path, sizeof(path)), err,
			   sizeof(err)))
		logf_(s, "provenance.csv: %s", err);
}

/* Probe-level UNSUPPORTED reason for this GPU, or NULL when it runs. */
static const char *unsupported_why(const tcp_probe_t *p, int cc, char *buf, size_t len)
{
	if (p->unsupported_reason)
		return p->unsupported_reason;
	if (p->arch == TCP_ARCH_HOST || tcp_arch_runs_on(p->arch, cc))
		return NULL;
	snprintf(buf, len, "unsupported on sm_%d: probe needs %s", cc, tcp_arch_name(p->arch));
	return buf;
}

/* ---------------------------------------------------------------- run one */

enum { RUN_DONE = 0, RUN_SIGNAL = 1, RUN_FATAL = 2 };

/*
 *  energy_window()
 *	after EB: read NVML's energy counter, sample power / SM clock /
 *	throttle reasons every TCP_ENERGY_PERIOD_S (and, with --sustain, write
 *	a trace.csv row every TCP_TRACE_PERIOD_S) until EE, read the counter
 *	again; returns the next line's worker_line() code (the P line)
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
		if ((s->trace = fopen(path_in(s->dir, "trace.csv", path, sizeof(path)), "w")))
			fprintf(s->trace, "t_s,sm_clock_mhz,power_w,temp_c,throttle,energy_mj\n");
		else
			logf_(s, "cannot write %s: %s", path, strerror(errno));
	}
	double t0 = mono(), next = t0, tnext = t0;
	for (;;) {
		double now = mono();
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
		r = worker_line(&s->w, s->nvml >= 0 && next < deadline ? next : deadline, NULL, line);
		if (r == WL_TIMEOUT && mono() < deadline)
			continue;
		if (r != WL_LINE)
			return r;
		break;
	}
	int he1 = have0 && tcp_nvml_energy_mj(s->nvml, &e1) == 0;
	res->en.window_s = mono() - t0;
	if (s->trace) {
		fclose(s->trace);
		s->trace = NULL;
	}
	if (split_tabs(*line, f, 6) != 5 || strcmp(f[0], "EE") != 0 ||
	    tcp_parse_int("point", f[1], idx, idx, &v, e, sizeof(e)) ||
	    tcp_parse_int("runs", f[2], 0, INT64_MAX, &v, e, sizeof(e)) ||
	    parse_double(f[3], &res->en.work_flop) || parse_double(f[4], &res->en.worker_s)) {
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
	return worker_line(&s->w, deadline, smp, line);
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
 *  run_remote()
 *	send point idx to the worker, collect its message under the timeout,
 *	turn a hang, a crash or garbage into a TIMEOUT / FAILED result and
 *	replace the worker
 */
static int run_remote(struct sup *s, int idx, struct result *res)
{
	const tcp_plan_point_t *pp = &s->plan.p[idx];
	struct sampler smp;
	char msg[32], why[512];
	int gpu_probe = pp->probe->arch != TCP_ARCH_HOST && s->w.gpu >= 0;

	for (int attempt = 0;; attempt++) {
		if (s->w.pid == 0) {
			int rc = worker_spawn(s, 0, s->w.gpu, why, sizeof(why));
			if (rc == SPAWN_SIGNAL)
				return RUN_SIGNAL;
			if (rc != SPAWN_OK) {
				die_msg("worker for GPU %d could not be restarted: %s", s->w.gpu, why);
				logf_(s, "worker could not be restarted: %s", why);
				return RUN_FATAL;
			}
			logf_(s, "worker restarted (pid %d)", (int)s->w.pid);
		}
		int n = snprintf(msg, sizeof(msg), "RUN\t%d\n", idx);
		if (write(s->w.cmd_fd, msg, (size_t)n) == n)
			break;
		/* died between points (e.g. after a sticky error): replace, retry once */
		worker_reap(&s->w, why, sizeof(why));
		logf_(s, "worker gone before point %d: %s", idx, why);
		if (attempt) {
			die_msg("worker for GPU %d dies before taking a point: %s", s->w.gpu, why);
			return RUN_FATAL;
		}
	}
	sampler_start(&smp, gpu_probe ? s->nvml : -1);
	double t0 = mono(), deadline = t0 + pp->timeout + s->energy_s;
	char *line, *f[6], ex[96];
	int r = worker_line(&s->w, deadline, &smp, &line), nf = 0;
	if (r == WL_LINE && strncmp(line, "EB\t", 3) == 0)
		r = energy_window(s, idx, deadline, &smp, res, &line);
	if (r == WL_LINE) {
		char copy[128];
		snprintf(copy, sizeof(copy), "%s", line);
		nf = split_tabs(line, f, 6);
		if (strcmp(f[0], "P") == 0)
			r = parse_point_msg(s, idx, f, nf, deadline, &smp, res);
		else {
			snprintf(res->reason, sizeof(res->reason), "worker protocol error: unexpected '%s'",
				 excerpt(copy, ex, sizeof(ex)));
			r = 2;
		}
	}
	if (gpu_probe && s->nvml >= 0)
		sampler_take(&smp);	/* at least one reading, even for a short point */
	s->t_run += mono() - t0;
	switch (r) {
	case 0:
		if (res->sticky) {
			worker_reap(&s->w, why, sizeof(why));
			logf_(s, "worker exited after a sticky CUDA error at point %d (%s)", idx, why);
		}
		break;
	case WL_SIGNAL:
		worker_kill(&s->w);
		return RUN_SIGNAL;
	case WL_TIMEOUT:
		worker_kill(&s->w);
		res->st = TCP_TIMEOUT;
		snprintf(res->reason, sizeof(res->reason), "no result within the %g s point timeout; worker killed",
			 pp->timeout);
		break;
	case WL_EOF:
		worker_reap(&s->w, why, sizeof(why));
		res->st = TCP_FAILED;
		if (snprintf(res->reason, sizeof(res->reason), "%s", why) >= (int)sizeof(res->reason))
			res->reason[sizeof(res->reason) - 1] = '\0';
		break;
	case WL_TOOLONG:
		worker_kill(&s->w);
		res->st = TCP_FAILED;
		snprintf(res->reason, sizeof(res->reason), "worker protocol error: a line longer than %u bytes",
			 LINE_MAX_BYTES);
		break;
	default:	/* 2: garbage; the reason is set */
		worker_kill(&s->w);
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
		res->nm = pp->probe->nmetrics + extra_series(s, pp->probe);
		logf_(s, "point %d %s %s: %s: %s", idx, pp->probe->name, pp->key,
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
	die_msg("%s", err);
	return -1;
}

/* seed, counters, gpu, the repetition rule from the options (or the resumed plan). */
static int resolve_options(struct sup *s, const tcp_sweep_opts_t *o)
{
	const char *v;
	if (o->resume_dir) {
		if ((v = tcp_plan_option(&s->plan, "seed")))
			s->seed = strtoull(v, NULL, 10);
		v = tcp_plan_option(&s->plan, "counters");
		if (o->counters && v && strcmp(v, o->counters) != 0) {
			die_msg("--counters: differs from the run being resumed: got '%s', expected '%s'",
				o->counters, v);
			return -1;
		}
		s->counters = v ? v : "default";
		v = tcp_plan_option(&s->plan, "timer");
		if (o->timer && strcmp(o->timer, v ? v : "events") != 0) {
			die_msg("--timer: differs from the run being resumed: got '%s', expected '%s'",
				o->timer, v ? v : "events");
			return -1;
		}
		s->timer_cupti = v && strcmp(v, "cupti") == 0;
		v = tcp_plan_option(&s->plan, "gpu");
		s->gpu = o->gpu >= 0 ? o->gpu : v ? atoi(v) : 0;
		return reps_rule_check(s);
	}
	s->seed = o->seed_set ? o->seed
			      : ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid() ^ (uint64_t)(mono() * 1e9);
	s->counters = o->counters ? o->counters : "default";
	s->gpu = o->gpu >= 0 ? o->gpu : 0;
	char b[32];
	snprintf(b, sizeof(b), "%llu", (unsigned long long)s->seed);
	tcp_plan_set_option(&s->plan, "seed", b);
	if (tcp_plan_set_option(&s->plan, "counters", s->counters)) {
		die_msg("--counters: got a list of %zu characters, expected at most %zu",
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

/* The archs the planned GPU probes could run on, for the exit-4 message. */
static void planned_archs(const struct sup *s, char *buf, size_t len)
{
	int has90 = 0, has100 = 0;
	for (int i = 0; i < s->plan.n; i++) {
		const tcp_probe_t *p = s->plan.p[i].probe;
		has90 |= p->arch != TCP_ARCH_HOST && tcp_arch_runs_on(p->arch, 90);
		has100 |= p->arch != TCP_ARCH_HOST && tcp_arch_runs_on(p->arch, 100);
	}
	snprintf(buf, len, "%s%s%s", has90 ? "sm_90a" : "", has90 && has100 ? ", " : "",
		 has100 ? "sm_100a" : "");
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
			if (access(path_in(s->dir, "plan.txt", path, sizeof(path)), F_OK) == 0) {
				die_msg("--out: directory already holds a run: got '%s', expected a new directory (or --resume %s)",
					s->dir, s->dir);
				return -1;
			}
		} else if (tcp_results_dir_name(s->dir, sizeof(s->dir), o->results_base, prov)) {
			die_msg("results directory name too long: got base '%s', expected a shorter path",
				o->results_base ? o->results_base : "results");
			return -1;
		}
		if (mkdir_p(s->dir, err, sizeof(err))) {
			s->io_rc = tcp_io_exit(errno);
			die_msg("--out: %s", err);
			return -1;
		}
	}
	while (strlen(s->dir) > 1 && s->dir[strlen(s->dir) - 1] == '/')
		s->dir[strlen(s->dir) - 1] = '\0';
	const char *base = strrchr(s->dir, '/');
	if (snprintf(s->run_id, sizeof(s->run_id), "%s", base ? base + 1 : s->dir) >= (int)sizeof(s->run_id))
		s->run_id[sizeof(s->run_id) - 1] = '\0';
	s->log = fopen(path_in(s->dir, "log.txt", path, sizeof(path)), "a");
	if (!s->log) {
		s->io_rc = tcp_io_exit(errno);
		die_msg("cannot write log: got '%s' (%s), expected a writable run directory", path,
			strerror(errno));
		return -1;
	}
	if (o->resume_dir && load_done(s))
		return -1;
	errno = 0;
	s->csv = tcp_csv_open(path_in(s->dir, "measurements.csv", path, sizeof(path)), s->header,
			      s->ncols, o->resume_dir != NULL, err, sizeof(err));
	if (!s->csv) {
		s->io_rc = errno ? tcp_io_exit(errno) : 0;
		die_msg("%s", err);
		return -1;
	}
	if (!o->resume_dir &&
	    tcp_plan_write(&s->plan, path_in(s->dir, "plan.txt", path, sizeof(path)), err, sizeof(err))) {
		s->io_rc = tcp_io_exit(errno);
		die_msg("%s", err);
		return -1;
	}
	return 0;
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
	if (!prov || !(s->gprov = calloc(1, sizeof(*s->gprov))) || build_header(s) ||
	    !(s->done = calloc((size_t)s->plan.n + 1, 1))) {
		die_msg("out of memory: got %d points, expected fewer", s->plan.n);
		free(prov);
		return TCP_EXIT_USAGE;
	}
	tcp_prov_init(s->gprov);
	s->nvml = -1;
	s->w.cmd_fd = s->w.res_fd = -1;
	s->energy_s = o->energy_s > o->sustain_s ? o->energy_s : o->sustain_s;
	if (o->sustain_s > 0 && s->plan.n != 1 && !o->dry_run) {
		die_msg("--sustain: holds one point: got %d points, expected 1 (give one value per axis with --set)",
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
		logf_(s, "resume: %d of %d points already written", s->ndone, s->plan.n);
	}
	if (!o->resume_dir && o->out_dir) {	/* before a GPU is touched: fail fast */
		char path[PATHLEN];
		if (access(path_in(o->out_dir, "plan.txt", path, sizeof(path)), F_OK) == 0) {
			die_msg("--out: directory already holds a run: got '%s', expected a new directory (or --resume %s)",
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
		int r = worker_spawn(s, 1, s->w.gpu, why, sizeof(why));
		if (r == SPAWN_SIGNAL) {
			print_interrupted(s);
			rc = TCP_EXIT_INTERRUPTED;
			goto out;
		}
		if (r == SPAWN_NOGPU) {
			die_msg("no CUDA GPU visible (%s)", why);
			rc = TCP_EXIT_NO_GPU;
			goto out;
		}
		if (r == SPAWN_OLDDRIVER) {
			die_msg("driver too old: %s", why);
			rc = TCP_EXIT_DRIVER;
			goto out;
		}
		if (r == SPAWN_BADGPU) {
			die_msg("--gpu: no such GPU: got '%d', expected 0..%d", s->gpu, atoi(why) - 1);
			rc = TCP_EXIT_USAGE;
			goto out;
		}
		if (r != SPAWN_OK) {
			die_msg("worker for GPU %d did not start: %s", s->w.gpu, why);
			rc = TCP_EXIT_POINTS;
			goto out;
		}
		if (need_gpu) {
			int runs = 0;
			for (int i = 0; i < s->plan.n && !runs; i++) {
				const tcp_plan_point_t *pp = &s->plan.p[i];
				runs = !s->done[i] && !pp->skipped && pp->probe->arch != TCP_ARCH_HOST &&
				       !unsupported_why(pp->probe, s->w.cc, ua, sizeof(ua));
			}
			if (!runs) {
				planned_archs(s, ua, sizeof(ua));
				die_msg("no probe set for sm_%d; supported: %s", s->w.cc, ua);
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
	if (o->resume_dir) {
		tcp_prov_t *old = calloc(1, sizeof(*old));
		char e[512], path[PATHLEN];
		if (old && tcp_prov_read(old, path_in(s->dir, "provenance.csv", path, sizeof(path)), e,
					 sizeof(e)) == 0) {
			const char *ou = tcp_prov_get(old, "gpu_uuid"), *nu = tcp_prov_get(prov, "gpu_uuid");
			if (need_gpu && ou && nu && strncmp(ou, "GPU-", 4) == 0 && strcmp(ou, nu) != 0)
				logf_(s, "warning: resumed on another GPU: %s (was %s)", nu, ou);
			/* the run keeps its original provenance; each resume adds when and how */
			const char *prev = tcp_prov_get(old, "resumed_utc");
			char *was = strdup(prev ? prev : "");	/* prev lives in the slot being set */
			tcp_prov_setf(old, "resumed_utc", "%s%s%s", was ? was : "", was && *was ? " " : "",
				      tcp_prov_utc_now(ts, sizeof(ts)));
			free(was);
			tcp_prov_set(old, "resume_command_line", tcp_prov_get(prov, "command_line"));
			if (need_gpu)
				tcp_prov_set(old, "resume_gpu_uuid", nu);
			memcpy(prov, old, sizeof(*prov));
		}
		free(old);
	} else if (open_run_dir(s, prov)) {
		rc = s->io_rc ? s->io_rc : TCP_EXIT_USAGE;
		goto out;
	}
	write_provenance(s, prov);
	logf_(s, "%s: %d points, seed %llu, counters %s, worker on %s", o->resume_dir ? "resume" : "run",
	      s->plan.n, (unsigned long long)s->seed, s->counters,
	      s->w.gpu >= 0 ? "a GPU" : "the host only");
	/* counters unreadable: said once here; each point's cupti/ rows carry it too */
	if (need_gpu && strcmp(s->ctr_status, "ok") != 0 && strcmp(s->ctr_status, "off") != 0) {
		fprintf(stderr, "counters NA (timing still recorded): %s\n", s->ctr_status);
		logf_(s, "counters NA: %s", s->ctr_status);
	}

	for (int i = 0; i < s->plan.n; i++)
		s->ntorun += !s->done[i] && !s->plan.p[i].skipped;
	s->t_start = mono();
	for (int i = 0; i < s->plan.n; i++) {
		const tcp_plan_point_t *pp = &s->plan.p[i];
		struct result res;
		const char *u;
		if (s->done[i])
			continue;
		if (g_signal) {
			print_interrupted(s);
			rc = TCP_EXIT_INTERRUPTED;
			break;
		}
		memset(&res, 0, sizeof(res));
		res.clock_mhz = NAN;
		res.nm = pp->probe->nmetrics;
		if (pp->skipped) {
			res.st = TCP_SKIPPED;
			snprintf(res.reason, sizeof(res.reason), "%s", pp->reason);
		} else if ((u = unsupported_why(pp->probe, s->w.cc, ua, sizeof(ua))) &&
			   (pp->probe->unsupported_reason || s->w.gpu >= 0)) {
			res.st = TCP_UNSUPPORTED;
			snprintf(res.reason, sizeof(res.reason), "%s", u);
			s->ntorun--;	/* takes no time: keep it out of the ETA */
		} else {
			int r = run_remote(s, i, &res);
			if (r == RUN_SIGNAL) {
				result_free(&res);
				print_interrupted(s);
				rc = TCP_EXIT_INTERRUPTED;
				break;
			}
			if (r == RUN_FATAL) {
				result_free(&res);
				fprintf(stderr, "stopped: %d of %d points written to %s; finish with: tcprobe run --resume %s\n",
					s->ndone, s->plan.n, s->dir, s->dir);
				rc = TCP_EXIT_POINTS;
				break;
			}
			s->nrun++;
		}
		if (write_rows(s, i, &res)) {
			int e = errno;
			die_msg("cannot write %s/measurements.csv: %s; %d of %d points kept, finish with: tcprobe run --resume %s",
				s->dir, strerror(e), s->ndone, s->plan.n, s->dir);
			result_free(&res);
			rc = tcp_io_exit(e);
			break;
		}
		s->done[i] = 1;
		s->ndone++;
		s->bad += res.st == TCP_FAILED || res.st == TCP_TIMEOUT || res.st == TCP_INVALID;
		if (res.st == TCP_SKIPPED)
			logf_(s, "point %d %s %s: SKIPPED: %s", i, pp->probe->name, pp->key, res.reason);
		else
			progress(s, i, &res);
		result_free(&res);
	}
	if (s->w.pid > 0) {
		if (write(s->w.cmd_fd, "QUIT\n", 5) == 5) {
			char w2[256];
			worker_reap(&s->w, w2, sizeof(w2));
		} else {
			worker_kill(&s->w);
		}
	}
	if (s->csv && tcp_csv_close(s->csv) && rc == TCP_EXIT_OK) {
		die_msg("cannot finish %s/measurements.csv: %s", s->dir, strerror(errno));
		rc = TCP_EXIT_POINTS;
	}
	s->csv = NULL;
	tcp_prov_set(prov, rc == TCP_EXIT_INTERRUPTED ? "interrupted_utc" : "finished_utc",
		     tcp_prov_utc_now(ts, sizeof(ts)));
	write_provenance(s, prov);
	if (rc == TCP_EXIT_OK) {
		logf_(s, "done: %d points in %s", s->plan.n, fmt_dur(mono() - s->t_start, ts, sizeof(ts)));
		int sr = tcp_sweep_summary(s->dir, s->probes, s->nprobes, stderr);
		if (sr != 0)
			rc = TCP_EXIT_POINTS;
		fprintf(stderr, "results: %s\n", s->dir);
		if (!isatty(STDOUT_FILENO)) {	/* for scripts: dir=$(tcprobe run ...) */
			printf("%s\n", s->dir);
			fflush(stdout);
		}
	} else if (rc == TCP_EXIT_INTERRUPTED) {
		logf_(s, "interrupted: %d of %d points written", s->ndone, s->plan.n);
	}
out:
	if (s->w.pid > 0)
		worker_kill(&s->w);
	if (s->csv)
		tcp_csv_close(s->csv);
	if (s->log)
		fclose(s->log);
	free(s->w.lb.buf);
	free(s->header);
	free(s->axcols);
	free(s->done);
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
		if (access(path_in(o->resume_dir, "measurements.csv.gz", path, sizeof(path)), F_OK) == 0) {
			die_msg("--resume %s: an archived run (measurements.csv.gz, results/SCHEMA.md): "
				"gunzip %s/*.gz first", o->resume_dir, o->resume_dir);
			return TCP_EXIT_USAGE;
		}
		if (tcp_plan_read(&s.plan, path_in(o->resume_dir, "plan.txt", path, sizeof(path)),
				  probes, nprobes, err, sizeof(err))) {
			die_msg("--resume: %s", err);
			return TCP_EXIT_USAGE;
		}
		if (o->spec && o->spec->n) {
			tcp_plan_t again;
			if (tcp_plan_build(&again, o->spec, o->reps, o->warmup, o->timeout, err, sizeof(err))) {
				die_msg("%s", err);
				tcp_plan_free(&s.plan);
				return TCP_EXIT_USAGE;
			}
			rc = tcp_plan_compare(&again, &s.plan, err, sizeof(err));
			tcp_plan_free(&again);
			if (rc) {
				die_msg("--resume %s: the plan differs from its plan.txt: %s", o->resume_dir, err);
				tcp_plan_free(&s.plan);
				return TCP_EXIT_USAGE;
			}
		} else if (o->reps >= 0 || o->warmup >= 0 || o->timeout >= 0 || o->seed_set || o->reps_auto ||
			   o->noise_pct > 0 || o->rep_budget_s > 0) {
			die_msg("--resume %s: --reps/--noise/--rep-budget/--warmup/--timeout/--seed cannot change a planned run: got one, expected none (plan.txt fixes them)",
				o->resume_dir);
			tcp_plan_free(&s.plan);
			return TCP_EXIT_USAGE;
		}
	} else {
		if (!o->spec || o->spec->n == 0) {
			die_msg("run: nothing to run: got no --probe or --spec, expected at least one (tcprobe run --help)");
			return TCP_EXIT_USAGE;
		}
		if (tcp_plan_build(&s.plan, o->spec, o->reps, o->warmup, o->timeout, err, sizeof(err))) {
			die_msg("%s", err);
			return TCP_EXIT_USAGE;
		}
	}
	if (resolve_options(&s, o)) {
		tcp_plan_free(&s.plan);
		return TCP_EXIT_USAGE;
	}
	if (o->dry_run) {	/* no worker, no CUDA, no files */
		tcp_plan_print(&s.plan, stdout, o->verbose);
		fflush(stdout);
		tcp_plan_free(&s.plan);
		return TCP_EXIT_OK;
	}

	struct sigaction sa, old_int, old_term, old_pipe, old_xfsz;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: poll() returns EINTR */
	sigemptyset(&sa.sa_mask);
	g_signal = 0;
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
