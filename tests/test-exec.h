/*
 * test-exec.h
 *	Run the built binary (build/tcprobe, or $TCPROBE) from a cmocka test
 *	(header only, static): argv, an optional "K=V" environment entry, an
 *	optional text on its stdin, and a time limit, so that a command that
 *	would hang (a FIFO it must refuse) fails the test instead of stalling
 *	it.  Both output pipes are drained together (poll), so neither can fill.
 */
#ifndef TCP_TEST_EXEC_H
#define TCP_TEST_EXEC_H

#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *test_bin(void)
{
	const char *b = getenv("TCPROBE");
	return b ? b : "build/tcprobe";
}

struct out {
	int status;		/* exit status, 128 + signal, or 124 after the time limit */
	int timed_out;
	char out[65536], err[8192];
};

#define TEST_RUN_LIMIT_S 30.0	/* a command of these tests takes well under a second */

static double test_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 *  run_argv()
 *	argv[0] replaced by the binary; env "K=V" or NULL; input fed to stdin
 *	(NULL: stdin is /dev/null); killed (status 124) after limit_s
 */
static void run_argv(struct out *o, const char *env, const char *input, double limit_s, char **argv)
{
	int po[2], pe[2], pi[2];
	size_t no = 0, ne = 0;

	memset(o, 0, sizeof(*o));
	argv[0] = (char *)test_bin();
	if (pipe(po) || pipe(pe) || pipe(pi)) {
		o->status = -1;
		return;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		o->status = -1;
		return;
	}
	if (pid == 0) {
		setpgid(0, 0);	/* a hung child and its workers go in one kill */
		dup2(po[1], 1);
		dup2(pe[1], 2);
		dup2(pi[0], 0);
		close(po[0]), close(pe[0]), close(pi[1]);
		if (env)
			putenv((char *)env);
		execv(argv[0], argv);
		_exit(127);
	}
	close(po[1]), close(pe[1]), close(pi[0]);
	signal(SIGPIPE, SIG_IGN);
	if (input) {	/* small inputs: they fit the pipe; larger ones are cut at EPIPE */
		size_t n = strlen(input), w = 0;
		while (w < n) {
			ssize_t r = write(pi[1], input + w, n - w);
			if (r <= 0)
				break;
			w += (size_t)r;
		}
	}
	close(pi[1]);
	double deadline = test_now() + limit_s;
	struct pollfd pf[2] = { { po[0], POLLIN, 0 }, { pe[0], POLLIN, 0 } };
	int open_fds = 2;
	while (open_fds > 0) {
		int ms = (int)((deadline - test_now()) * 1000);
		if (ms <= 0) {
			o->timed_out = 1;
			kill(-pid, SIGKILL);
			break;
		}
		if (poll(pf, 2, ms) <= 0)
			continue;
		for (int k = 0; k < 2; k++) {
			if (!pf[k].revents || pf[k].fd < 0)
				continue;
			char *buf = k ? o->err : o->out;
			size_t *n = k ? &ne : &no, cap = k ? sizeof(o->err) : sizeof(o->out);
			char sink[4096];
			ssize_t r = *n + 1 < cap ? read(pf[k].fd, buf + *n, cap - 1 - *n)
						 : read(pf[k].fd, sink, sizeof(sink));
			if (r <= 0) {
				close(pf[k].fd);
				pf[k].fd = -1;
				open_fds--;
			} else if (*n + 1 < cap) {
				*n += (size_t)r;
			}
		}
	}
	o->out[no] = o->err[ne] = '\0';
	for (int k = 0; k < 2; k++)
		if (pf[k].fd >= 0)
			close(pf[k].fd);
	int st = 0;
	waitpid(pid, &st, 0);
	o->status = o->timed_out ? 124 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Run the binary with args (NULL-terminated); env "K=V" or NULL. */
static void run(struct out *o, const char *env, ...)
{
	char *argv[40];
	int n = 1;
	va_list ap;
	va_start(ap, env);
	for (char *a; (a = va_arg(ap, char *)) && n < 39;)
		argv[n++] = a;
	va_end(ap);
	argv[n] = NULL;
	run_argv(o, env, NULL, TEST_RUN_LIMIT_S, argv);
}

static int lines(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

#endif /* TCP_TEST_EXEC_H */
