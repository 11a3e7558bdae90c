/*
 * supervisor-worker.c
 *	The worker process, supervisor side (worker.h, worker.c: the other
 *	side): fork it and wait for its HELLO, read its lines against a
 *	deadline (sampling NVML meanwhile), send it commands, kill and reap it
 *	with the reason.  Messages are encoded and decoded in protocol.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/sweep/protocol.h"
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

/* Sample NVML when due; the poll timeout (ms) until the deadline or the next
 * sample, at most 100 ms so that the signal flag is re-checked now and then. */
static int wait_ms(struct sampler *smp, double now, double deadline)
{
	int sampling = smp && smp->nvml >= 0;
	double until = deadline;
	if (sampling && now >= smp->next)
		sup_sampler_take(smp);
	if (sampling && smp->next < until)
		until = smp->next;
	int ms = (int)ceil((until - now) * 1000.0);
	if (ms > 100)
		ms = 100;
	return ms < 0 ? 0 : ms;
}

/* Wait up to ms for the worker's output and take it in: 0, or WL_EOF /
 * WL_TOOLONG. */
static int take_input(struct worker *w, int ms)
{
	struct pollfd pfd = { w->res_fd, POLLIN, 0 };
	int pr = poll(&pfd, 1, ms);
	if (pr < 0 && errno != EINTR)
		return WL_EOF;
	if (pr <= 0)
		return 0;
	ssize_t r = lb_fill(&w->lb, w->res_fd);
	if (r == -2)
		return WL_TOOLONG;
	if (r == 0 || (r < 0 && errno != EINTR && errno != EAGAIN))
		return WL_EOF;
	return 0;
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
		int r = take_input(w, wait_ms(smp, now, deadline));
		if (r)
			return r;
	}
}

/* A command to the worker in one write: 0, or -1 (it is gone). */
int sup_worker_send(struct worker *w, const char *msg, int n)
{
	return write(w->cmd_fd, msg, (size_t)n) == n ? 0 : -1;
}

/* The oldest driver branch of a CUDA runtime version (12080 -> "r570"): the
 * CUDA release notes' minimum driver table (12.8 r570, 12.9 r575, 13.x r580). */
static const char *min_driver(int runtime_version)
{
	return runtime_version >= 13000 ? "r580" : runtime_version >= 12090 ? "r575"
	       : runtime_version >= 12080 ? "r570" : "the driver of that CUDA release";
}

/* Fork a worker for `gpu` (its own process group: one kill takes it and its
 * children) with pipes both ways.  SPAWN_OK, or SPAWN_FAIL with why. */
static int fork_worker(struct sup *s, int collect_prov, int gpu, char *why, size_t len)
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
		setpgid(0, 0);
		close(cmd[1]);
		close(res[0]);
		tcp_worker_args_t a = {
			.plan = &s->plan, .cfg = &s->cfg, .gpu = gpu, .collect_prov = collect_prov,
			.cmd_fd = cmd[0], .res_fd = res[1], .parent = getppid(),
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
	return SPAWN_OK;
}

/* A start-up message that ends the start: why, the worker killed, code. */
static int start_failed(struct worker *w, int code, const char *text, char *why, size_t len)
{
	snprintf(why, len, "%s", text);
	sup_worker_kill(w);
	return code;
}

/*
 *  start_message()
 *	one line of a starting worker: 1 for more (PROV, CTR, TIMER, BUSY
 *	taken), SPAWN_OK at HELLO, or the SPAWN_* code that ends the start
 *	(the worker killed, why filled)
 */
static int start_message(struct sup *s, char *line, char *why, size_t len)
{
	struct worker *w = &s->w;
	char copy[128], ex[96], *f[TCP_MSG_MAXF], t[512];
	const char *a, *b;
	int dv, rv;
	snprintf(copy, sizeof(copy), "%s", line);
	int nf = tcp_msg_split(line, f, TCP_MSG_MAXF);
	if (tcp_msg_get_prov(f, nf, &a, &b) == 0) {
		if (s->gprov)
			tcp_prov_set(s->gprov, a, b);
		return 1;
	}
	if (tcp_msg_get_text(f, nf, "CTR", &a) == 0)
		return snprintf(s->ctr_status, sizeof(s->ctr_status), "%s", a), 1;
	if (tcp_msg_get_text(f, nf, "TIMER", &a) == 0)
		return snprintf(s->timer_status, sizeof(s->timer_status), "%s", a), 1;
	if (tcp_msg_get_busy(f, nf, &w->self, &w->rtt_us) == 0)
		return 1;
	if (tcp_msg_get_pair(f, nf, "HELLO", &w->cc, &w->sm_count) == 0)
		return SPAWN_OK;
	if (tcp_msg_get_text(f, nf, "NOGPU", &a) == 0)
		return start_failed(w, SPAWN_NOGPU, a, why, len);
	if (tcp_msg_get_pair(f, nf, "OLDDRIVER", &dv, &rv) == 0) {
		/* the driver's CUDA version and the runtime's, e.g. 12080 13000 */
		snprintf(t, sizeof(t), "the NVIDIA driver supports CUDA %d.%d, this tcprobe needs %d.%d (its CUDA runtime): update the driver to %s or newer, or build with an older toolkit",
			 dv / 1000, dv % 1000 / 10, rv / 1000, rv % 1000 / 10, min_driver(rv));
		return start_failed(w, SPAWN_OLDDRIVER, t, why, len);
	}
	if (tcp_msg_get_text(f, nf, "BADGPU", &a) == 0)
		return start_failed(w, SPAWN_BADGPU, a, why, len);
	snprintf(t, sizeof(t), "worker protocol error while starting: '%s'", tcp_msg_excerpt(copy, ex, sizeof(ex)));
	return start_failed(w, SPAWN_FAIL, t, why, len);
}

/*
 *  sup_worker_spawn()
 *	fork a worker for `gpu` and wait for its HELLO; why holds the reason
 *	on failure (NOGPU text, BADGPU count, crash or timeout)
 */
int sup_worker_spawn(struct sup *s, int collect_prov, int gpu, char *why, size_t len)
{
	struct worker *w = &s->w;
	if (fork_worker(s, collect_prov, gpu, why, len))
		return SPAWN_FAIL;
	double deadline = sup_mono() + TCP_WORKER_START_S;
	for (;;) {
		char *line;
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
		if ((r = start_message(s, line, why, len)) != 1)
			return r;
	}
}
