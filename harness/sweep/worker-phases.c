/*
 * worker-phases.c
 *	TCPROBE_PHASES=FILE: every step of every point (and of the worker's
 *	start) appended to FILE as CSV `pid,point,probe,axes,phase,ms,note`
 *	(harness/README.md lists the phases), one write per point, for
 *	scripts/bench-harness.sh.  A benchmark aid, not part of the results.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness/sweep/worker-int.h"

double wk_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* FILE from TCPROBE_PHASES (fd -1 when unset), its header when it is new. */
void wk_ph_open(struct phases *ph)
{
	const char *phf = getenv("TCPROBE_PHASES");
	ph->fd = phf && *phf ? open(phf, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : -1;
	ph->point = -1;
	ph->probe = "worker";
	ph->axes = "";
	if (ph->fd >= 0 && lseek(ph->fd, 0, SEEK_END) == 0)
		tcp_msgbuf_printf(&ph->b, "pid,point,probe,axes,phase,ms,note\n");
}

void wk_ph_add(struct phases *ph, const char *name, double sec, const char *note)
{
	char nb[TCP_REASON_LEN + 64];
	if (ph->fd < 0)
		return;
	tcp_msg_one_line(note, nb, sizeof(nb));
	for (char *c = nb; *c; c++)	/* a quoted CSV field without quotes */
		if (*c == '"')
			*c = '\'';
	tcp_msgbuf_printf(&ph->b, "%d,%d,%s,\"%s\",%s,%.3f,\"%s\"\n", (int)getpid(), ph->point, ph->probe,
			  ph->axes, name, sec * 1e3, nb);
}

/* The counter steps of open() (of_open) or of the last measure(), as
 * ctr_<step>, each divided by `share` (a batch's points share its steps). */
void wk_ph_counters(struct phases *ph, const tcp_counters_t *t, int of_open, int share)
{
	const tcp_counters_phase_t *cp;
	int n = tcp_counters_phases(t, of_open, &cp);
	char name[64];
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "ctr_%s", cp[i].name);
		wk_ph_add(ph, name, cp[i].ms * 1e-3 / share, NULL);
	}
}

void wk_ph_flush(struct phases *ph)
{
	if (ph->fd < 0 || ph->b.n == 0)
		return;
	if (write(ph->fd, ph->b.s, ph->b.n) < 0) {
		/* a benchmark aid: losing a line must not fail the point */
	}
	ph->b.n = 0;
}
