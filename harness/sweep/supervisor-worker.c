/*
 * supervisor-worker.c
 *	The worker protocol, supervisor side (worker.h has the other side):
 *	fork and exec a worker and wait for its HELLO, read its lines against a
 *	deadline, kill and reap it with the reason, and parse a point's result
 *	message into struct result.
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
	while (r < 0 && errno == EINTR && !sup_signal);
	if (r > 0)
		b->len += (size_t)r;
	return r;
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
 *  sup_worker_kill()
 *	SIGKILL the worker's process group (it and anything it started) and
 *	reap it
 */
void sup_worker_kill(struct worker *w)
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
 *  sup_worker_reap()
 *	the worker closed its pipe: collect how it ended (it may take a moment
 *	to finish dying), then clear away its group
 */
void sup_worker_reap(struct worker *w, char *why, size_t len)
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
	sup_worker_kill(w);
}

/* Next line from the worker before `deadline`, sampling NVML meanwhile. */
int sup_worker_line(struct worker *w, double deadline, struct sampler *smp, char **line)
{
	for (;;) {
		if (lb_line(&w->lb, line))
			return WL_LINE;
		if (sup_signal)
			return WL_SIGNAL;
		double now = sup_mono();
		if (now >= deadline)
			return WL_TIMEOUT;
		if (smp && smp->nvml >= 0 && now >= smp->next)
			sup_sampler_take(smp);
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
int sup_split_tabs(char *s, char **f, int maxf)
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
const char *sup_excerpt(const char *s, char *buf, size_t len)
{
	size_t o = 0;
	for (; *s && o + 5 < len && o < 60; s++)
		buf[o++] = (*s >= 32 && *s < 127) ? *s : '?';
	buf[o] = '\0';
	if (*s)
		snprintf(buf + o, len - o, "...");
	return buf;
}

/* The oldest driver branch of a CUDA runtime version (12080 -> "r570"): the
 * CUDA release notes' minimum driver table (12.8 r570, 12.9 r575, 13.x r580). */
static const char *min_driver(int runtime_version)
{
	return runtime_version >= 13000 ? "r580" : runtime_version >= 12090 ? "r575"
	       : runtime_version >= 12080 ? "r570" : "the driver of that CUDA release";
}

/*
 *  sup_worker_spawn()
 *	fork a worker for s->gpu and wait for its HELLO; why holds the reason
 *	on failure (NOGPU text, BADGPU count, crash or timeout)
 */
int sup_worker_spawn(struct sup *s, int collect_prov, int gpu, char *why, size_t len)
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
			.energy_s = s->energy_s, .settle_s = s->settle_s,
			.ctr_batch_fake = s->o->ctr_batch_fake, .emu = &s->emu,
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
	w->self = -1;
	w->rtt_us = NAN;
	fcntl(w->cmd_fd, F_SETFD, FD_CLOEXEC);
	fcntl(w->res_fd, F_SETFD, FD_CLOEXEC);

	double deadline = sup_mono() + TCP_WORKER_START_S;
	char *line, *f[4], ex[96];
	for (;;) {
		int r = sup_worker_line(w, deadline, NULL, &line);
		if (r == WL_SIGNAL) {
			sup_worker_kill(w);
			return SPAWN_SIGNAL;
		}
		if (r == WL_TIMEOUT) {
			sup_worker_kill(w);
			snprintf(why, len, "worker did not start within %.0f s", TCP_WORKER_START_S);
			return SPAWN_FAIL;
		}
		if (r != WL_LINE) {
			char how[160];
			sup_worker_reap(w, how, sizeof(how));
			snprintf(why, len, "worker failed while starting: %s", how);
			return SPAWN_FAIL;
		}
		char copy[128];
		snprintf(copy, sizeof(copy), "%s", line);
		int nf = sup_split_tabs(line, f, 3);
		if (strcmp(f[0], "PROV") == 0 && nf == 3) {
			if (s->gprov)
				tcp_prov_set(s->gprov, f[1], f[2]);
		} else if (strcmp(f[0], "CTR") == 0 && nf == 2) {
			snprintf(s->ctr_status, sizeof(s->ctr_status), "%s", f[1]);
		} else if (strcmp(f[0], "TIMER") == 0 && nf == 2) {
			snprintf(s->timer_status, sizeof(s->timer_status), "%s", f[1]);
		} else if (strcmp(f[0], "BUSY") == 0 && nf == 3) {
			w->self = atol(f[1]);
			if (sup_parse_double(f[2], &w->rtt_us))
				w->rtt_us = NAN;
		} else if (strcmp(f[0], "HELLO") == 0 && nf == 3) {
			w->cc = atoi(f[1]);
			w->sm_count = atoi(f[2]);
			return SPAWN_OK;
		} else if (strcmp(f[0], "NOGPU") == 0 && nf == 2) {
			snprintf(why, len, "%s", f[1]);
			sup_worker_kill(w);
			return SPAWN_NOGPU;
		} else if (strcmp(f[0], "OLDDRIVER") == 0 && nf == 3) {
			/* "OLDDRIVER <driver CUDA version> <runtime version>", e.g. 12080 13000 */
			int dv = atoi(f[1]), rv = atoi(f[2]);
			snprintf(why, len, "the NVIDIA driver supports CUDA %d.%d, this tcprobe needs %d.%d (its CUDA runtime): update the driver to %s or newer, or build with an older toolkit",
				 dv / 1000, dv % 1000 / 10, rv / 1000, rv % 1000 / 10, min_driver(rv));
			sup_worker_kill(w);
			return SPAWN_OLDDRIVER;
		} else if (strcmp(f[0], "BADGPU") == 0 && nf == 2) {
			snprintf(why, len, "%s", f[1]);
			sup_worker_kill(w);
			return SPAWN_BADGPU;
		} else {
			snprintf(why, len, "worker protocol error while starting: '%s'",
				 sup_excerpt(copy, ex, sizeof(ex)));
			sup_worker_kill(w);
			return SPAWN_FAIL;
		}
	}
}

void sup_result_free(struct result *r)
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
	for (int i = TCP_OK; i <= TCP_UNSUPPORTED; i++)	/* BLOCKED: the supervisor's, never sent */
		if (strcmp(s, tcp_status_name((tcp_status_t)i)) == 0) {
			*st = (tcp_status_t)i;
			return 0;
		}
	return -1;
}

/* Strict double ("nan" allowed). */
int sup_parse_double(const char *s, double *v)
{
	char *end;
	if (!*s)
		return -1;
	*v = strtod(s, &end);
	return *end ? -1 : 0;
}

/* Series a worker sends beyond the probe's metrics, in this order: the
 * --timer cupti span; in an emulated run, the poison words ld returned. */
int sup_extra_series(const struct sup *s, const tcp_probe_t *p)
{
	const int gpu = s->w.gpu >= 0 && p->arch != TCP_ARCH_HOST;
	return (s->timer_cupti && gpu) + (s->emu.target && gpu);
}

/* Name and unit of extra series i (0-based, after the probe's metrics). */
void sup_extra_name(const struct sup *s, int i, const char **name, const char **unit)
{
	if (s->timer_cupti && i == 0) {
		*name = TCP_CUPTI_TIMER_METRIC;
		*unit = "ns";
	} else {
		*name = TCP_EMU_POISON_METRIC;
		*unit = "words";
	}
}

/*
 *  parse_tail()
 *	the rest of point idx's message: its counter rows (K) and E; or, where
 *	may_defer, W alone: its counter pass waits for the batch
 *	(res->deferred).  0, or a WL_* code / 2 with the reason in res.
 */
/* The next line, split into at most maxf fields g[] (*n of them), its start
 * kept in copy[] for an error's excerpt: WL_LINE or another WL_* code. */
static int next_fields(struct sup *s, double deadline, struct sampler *smp, char *copy, size_t clen,
		       char **g, int maxf, int *n)
{
	char *line;
	int r = sup_worker_line(&s->w, deadline, smp, &line);
	if (r != WL_LINE)
		return r;
	snprintf(copy, clen, "%s", line);
	*n = sup_split_tabs(line, g, maxf);
	return WL_LINE;
}

static int parse_tail(struct sup *s, int idx, double deadline, struct sampler *smp, struct result *res,
		      int may_defer)
{
	char *g[8], ex[96], copy[128];
	long long v;
	char e[256];
	for (;;) {
		int n, r = next_fields(s, deadline, smp, copy, sizeof(copy), g, 6, &n);
		if (r != WL_LINE)
			return r;
		if (strcmp(g[0], "K") == 0 && n == 6) {
			struct krow *nk = realloc(res->k, sizeof(*nk) * (size_t)(res->nk + 1));
			if (!nk)
				return 2;
			res->k = nk;
			struct krow *k = &res->k[res->nk];
			if (sup_parse_double(g[3], &k->v) || status_parse(g[4], &k->st)) {
				snprintf(res->reason, sizeof(res->reason), "worker protocol error: bad counter row '%s'",
					 sup_excerpt(copy, ex, sizeof(ex)));
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
		if (strcmp(g[0], "E") == 0 && n == 5 &&
		    tcp_parse_int("point", g[1], idx, idx, &v, e, sizeof(e)) == 0) {
			res->sticky = atoi(g[2]);
			if (res->st != TCP_OK) {
				snprintf(res->site, sizeof(res->site), "%s", g[3]);
				snprintf(res->reason, sizeof(res->reason), "%s",
					 g[4][0] ? g[4] : "no reason given");
			}
			return 0;
		}
		if (strcmp(g[0], "W") == 0 && n == 2 && may_defer && res->nk == 0 && res->st == TCP_OK &&
		    tcp_parse_int("point", g[1], idx, idx, &v, e, sizeof(e)) == 0) {
			res->deferred = 1;
			return 0;
		}
		snprintf(res->reason, sizeof(res->reason), "worker protocol error: unexpected '%s'",
			 sup_excerpt(copy, ex, sizeof(ex)));
		return 2;
	}
}

/*
 *  sup_parse_point_msg()
 *	read the rest of one point message (P already split into f) from the
 *	worker; 0, or a WL_* code / 2 for a protocol error with the reason
 */
int sup_parse_point_msg(struct sup *s, int idx, char **f, int nf, double deadline,
			   struct sampler *smp, struct result *res)
{
	const tcp_probe_t *p = s->plan.p[idx].probe;
	char *line, ex[96];
	long long v;
	char e[256];
	if (nf != 7 || tcp_parse_int("point", f[1], idx, idx, &v, e, sizeof(e)) ||
	    status_parse(f[2], &res->st) || sup_parse_double(f[6], &res->work_flop) ||
	    tcp_parse_int("samples", f[3], 0, s->plan.p[idx].reps, &v, e, sizeof(e))) {
		snprintf(res->reason, sizeof(res->reason), "worker protocol error: bad point header for point %d",
			 idx);
		return 2;
	}
	res->ns = (int)v;
	snprintf(res->stop, sizeof(res->stop), "%s", strcmp(f[5], "-") ? f[5] : "");
	int nm = p->nmetrics + sup_extra_series(s, p);
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
		int r = sup_worker_line(&s->w, deadline, smp, &line);
		if (r != WL_LINE)
			return r;
		char *save = line, *tok = strsep(&save, "\t");
		if (strcmp(tok, "S") != 0 || !save || atoi(strsep(&save, "\t")) != m) {
			snprintf(res->reason, sizeof(res->reason), "worker protocol error: expected samples of metric %d, got '%s'",
				 m, sup_excerpt(tok, ex, sizeof(ex)));
			return 2;
		}
		for (int i = 0; i < res->ns; i++) {
			tok = save ? strsep(&save, "\t") : NULL;
			if (!tok || sup_parse_double(tok, &res->smp[(size_t)m * (size_t)res->ns + (size_t)i])) {
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
	return parse_tail(s, idx, deadline, smp, res, 1);
}

/*
 *  sup_read_batch()
 *	after point idx's message (res), when the worker owes an F line: its
 *	batch's completions, each "X idx STATUS", counter rows, "E idx ...",
 *	for a waiting point (s->pend) or idx itself, then F.  Every waiting
 *	point is completed, or none (idx deferred, the batch not yet run).
 *	0, or a WL_* code / 2 with the reason in res.
 */
int sup_read_batch(struct sup *s, double deadline, struct sampler *smp, int idx, struct result *res)
{
	char *g[4], ex[96], e[256], copy[128];
	int nx = 0;
	for (;;) {
		int n, r = next_fields(s, deadline, smp, copy, sizeof(copy), g, 4, &n);
		if (r != WL_LINE)
			return r;
		if (strcmp(g[0], "F") == 0 && n == 1)
			break;
		struct result *t = NULL;
		long long v = -1;
		if (strcmp(g[0], "X") == 0 && n == 3 &&
		    tcp_parse_int("point", g[1], 0, s->plan.n - 1, &v, e, sizeof(e)) == 0) {
			if (v == idx && res->deferred && !res->complete)
				t = res;
			for (int k = 0; !t && k < s->npend; k++)
				if (s->pend_idx[k] == v && !s->pend[k].complete)
					t = &s->pend[k];
		}
		if (!t || status_parse(g[2], &t->st)) {
			snprintf(res->reason, sizeof(res->reason), "worker protocol error: unexpected '%s'",
				 sup_excerpt(copy, ex, sizeof(ex)));
			return 2;
		}
		r = parse_tail(s, (int)v, deadline, smp, t, 0);
		if (r) {
			if (t != res)
				snprintf(res->reason, sizeof(res->reason), "%s", t->reason);
			return r;
		}
		t->complete = 1;
		nx++;
	}
	int left = 0;
	for (int k = 0; k < s->npend; k++)
		left += !s->pend[k].complete;
	/* all or nothing: a flush completes every waiting point; none only while idx waits too */
	if ((nx && (left || (res->deferred && !res->complete))) ||
	    (!nx && !(res->deferred && left == s->npend))) {
		snprintf(res->reason, sizeof(res->reason),
			 "worker protocol error: a batch of %d waiting points came back with %d completions",
			 s->npend + (res->deferred ? 1 : 0), nx);
		return 2;
	}
	return 0;
}
