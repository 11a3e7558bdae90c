/*
 * worker.c
 *	The worker process, the child side of the supervisor (worker.h): its
 *	start (the CUDA context of a GPU run: worker-gpu.c), HELLO, then the
 *	commands the supervisor sends, one at a time: RUN a point
 *	(worker-point.c), FLUSH the waiting counter batch (worker-counters.c),
 *	QUIT.  Every step's time goes to TCPROBE_PHASES (worker-phases.c).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "harness/measure/cupti-timer.h"
#include "harness/sweep/worker-int.h"

/*
 *  detach()
 *	die with the supervisor (a sweep killed with SIGKILL leaves no worker
 *	holding the GPU); default dispositions, so that a crash kills this
 *	process with its signal (the supervisor names it) whatever handlers
 *	the parent installed; a probe's printf (or a device printf) to stderr,
 *	since stdout of `tcprobe run` is for the run directory or the plan
 */
static void detach(const tcp_worker_args_t *a)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGPIPE, SIGSEGV, SIGBUS, SIGFPE, SIGILL,
				    SIGABRT, SIGTRAP, SIGSYS };
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != a->parent)
		_exit(7);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
	fflush(stdout);
	dup2(STDERR_FILENO, STDOUT_FILENO);
}

/* The next command line (no newline) into cmd; 0 at EOF. */
static int next_command(int fd, char *cmd, size_t len)
{
	size_t cn = 0;
	for (;;) {
		char c;
		ssize_t r = read(fd, &c, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return 0;
		if (c == '\n')
			break;
		if (cn < len - 1)
			cmd[cn++] = c;
	}
	cmd[cn] = '\0';
	return 1;
}

/* The commands until QUIT or EOF. */
static void serve(struct wstate *w)
{
	const tcp_worker_args_t *a = w->a;
	char cmd[64];
	int idx, defer;
	while (next_command(a->cmd_fd, cmd, sizeof(cmd))) {
		tcp_cmd_t c = tcp_msg_get_cmd(cmd, a->plan->n, &idx, &defer);
		if (c == TCP_CMD_QUIT)
			return;
		if (c == TCP_CMD_FLUSH) {	/* the batch's points now: the next is not for us */
			wk_flush_batch(w);
			tcp_msg_put_f(&w->msg);
			tcp_msgbuf_send(&w->msg, a->res_fd);
			continue;
		}
		if (c != TCP_CMD_RUN)
			_exit(8);	/* cannot happen: the supervisor wrote it */
		wk_run_point(w, idx, defer);
		fflush(stdout);	/* a probe's printf reaches the terminal now, not at exit */
	}
}

void tcp_worker_main(const tcp_worker_args_t *a)
{
	static struct wstate w;

	detach(a);
	memset(&w, 0, sizeof(w));
	w.a = a;
	w.cfg = a->cfg;
	wk_ph_open(&w.ph);
	double t_start = wk_now();
	if (a->gpu >= 0)
		wk_init_gpu(&w);
	else
		tcp_msg_put_text(&w.msg, "CTR", "off");
	wk_ph_add(&w.ph, "total", wk_now() - t_start, NULL);
	wk_ph_flush(&w.ph);
	tcp_msg_put_pair(&w.msg, "HELLO", w.cc, w.base.sm_count);
	tcp_msgbuf_send(&w.msg, a->res_fd);
	serve(&w);
	if (w.ctr)
		tcp_counters_close(w.ctr);
	if (w.timer_on)
		tcp_cupti_timer_close();
	fflush(NULL);
	_exit(0);
}
