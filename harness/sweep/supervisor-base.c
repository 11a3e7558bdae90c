/*
 * supervisor-base.c
 *	What every part of the supervisor uses: the monotonic clock, one-line
 *	messages to stderr, log.txt, paths in the run directory, the SIGINT /
 *	SIGTERM flag, the exit status of a failed write, and why a probe does
 *	not run on this GPU.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "harness/sweep/supervisor-int.h"

volatile sig_atomic_t sup_signal;

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
const char *sup_fmt_dur(double sec, char *buf, size_t len)
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

const char *sup_path_in(const char *dir, const char *file, char *buf, size_t len)
{
	if (snprintf(buf, len, "%s/%s", dir, file) >= (int)len)
		buf[0] = '\0';	/* too long: the open fails and names the problem */
	return buf;
}

/* Probe-level UNSUPPORTED reason for this GPU, or NULL when it runs; in an
 * emulated run, whether it runs emulated (emulate.h). */
const char *sup_unsupported_why(const struct sup *s, const tcp_probe_t *p, int cc, char *buf, size_t len)
{
	if (p->unsupported_reason)
		return p->unsupported_reason;
	if (s->cfg.emu.target)
		return tcp_emu_why_not(p->arch, cc, s->cfg.emu.target, tcp_build_targets(), buf, len);
	int o = snprintf(buf, len, "unsupported on sm_%d: ", cc);
	if (o < 0 || (size_t)o >= len || !tcp_arch_why_not(p->arch, cc, buf + o, len - (size_t)o))
		return NULL;
	return buf;
}

/* The resume hint after SIGINT/SIGTERM. */
void sup_print_interrupted(const struct sup *s)
{
	if (s->dir[0])
		fprintf(stderr, "interrupted: %d of %d points written to %s; finish with: tcprobe run --resume %s\n",
			s->ndone, s->plan.n, s->dir, s->dir);
	else
		fprintf(stderr, "interrupted before the run directory was created; nothing written\n");
}
