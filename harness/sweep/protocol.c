/*
 * protocol.c
 *	Every message of the supervisor/worker protocol, encoded and decoded
 *	(protocol.h; worker.h lists them).  Each encoder stands beside its
 *	decoder, in the order of worker.h's list.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/store/provenance.h"
#include "harness/sweep/protocol.h"
#include "harness/sweep/spec.h"

/* Room for any text field the worker sends (a provenance value is the longest). */
#define TEXT_MAX	(TCP_PROV_VALLEN + 8)

/* ---------------------------------------------------------------- buffer */

void tcp_msgbuf_printf(tcp_msgbuf_t *b, const char *fmt, ...)
{
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
		va_end(ap);
		if (k < 0)
			return;
		if (b->s && b->n + (size_t)k < b->cap) {
			b->n += (size_t)k;
			return;
		}
		size_t cap = b->cap ? b->cap * 2 : 4096;
		while (cap < b->n + (size_t)k + 1)
			cap *= 2;
		char *ns = realloc(b->s, cap);
		if (!ns)
			_exit(5);	/* the supervisor sees a crash: FAILED, next point */
		b->s = ns;
		b->cap = cap;
	}
}

void tcp_msgbuf_send(tcp_msgbuf_t *b, int fd)
{
	const char *s = b->s;
	size_t n = b->n;
	while (n) {
		ssize_t w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			_exit(6);	/* the supervisor is gone */
		s += w;
		n -= (size_t)w;
	}
	b->n = 0;
}

const char *tcp_msg_one_line(const char *s, char *buf, size_t len)
{
	snprintf(buf, len, "%s", s ? s : "");
	for (char *c = buf; *c; c++)
		if (*c == '\t' || *c == '\n' || *c == '\r')
			*c = ' ';
	return buf;
}

/* A value exactly, after a TAB; NaN as "nan". */
static void put_double(tcp_msgbuf_t *b, double v)
{
	if (isnan(v))
		tcp_msgbuf_printf(b, "\tnan");
	else
		tcp_msgbuf_printf(b, "\t%.17g", v);
}

/* A text field after a TAB, made one line. */
static void put_field(tcp_msgbuf_t *b, const char *s)
{
	char t[TEXT_MAX];
	tcp_msgbuf_printf(b, "\t%s", tcp_msg_one_line(s, t, sizeof(t)));
}

/* ---------------------------------------------------------------- helpers */

int tcp_msg_split(char *s, char **f, int maxf)
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

const char *tcp_msg_excerpt(const char *s, char *buf, size_t len)
{
	size_t o = 0;
	for (; *s && o + 5 < len && o < 60; s++)
		buf[o++] = (*s >= 32 && *s < 127) ? *s : '?';
	buf[o] = '\0';
	if (*s)
		snprintf(buf + o, len - o, "...");
	return buf;
}

int tcp_msg_double(const char *s, double *v)
{
	char *end;
	if (!*s)
		return -1;
	*v = strtod(s, &end);
	return *end ? -1 : 0;
}

/* A status a worker may send (BLOCKED is the supervisor's, never sent). */
static int get_status(const char *s, tcp_status_t *st)
{
	for (int i = TCP_OK; i <= TCP_UNSUPPORTED; i++)
		if (strcmp(s, tcp_status_name((tcp_status_t)i)) == 0) {
			*st = (tcp_status_t)i;
			return 0;
		}
	return -1;
}

/* The point index field: exactly idx (lo == hi) or in lo..hi. */
static int get_point(const char *s, long long lo, long long hi, long long *v)
{
	char e[256];
	return tcp_parse_int("point", s, lo, hi, v, e, sizeof(e));
}

static int is_tag(char **f, int nf, const char *tag, int want_nf)
{
	return nf == want_nf && strcmp(f[0], tag) == 0;
}

int tcp_msg_is(const char *line, const char *tag)
{
	size_t n = strlen(tag);
	return strncmp(line, tag, n) == 0 && line[n] == '\t';
}

/* ---------------------------------------------------------------- supervisor -> worker */

static const char *const cmd_word[] = {
	[TCP_CMD_FLUSH] = "FLUSH", [TCP_CMD_QUIT] = "QUIT", [TCP_CMD_EW] = "EW", [TCP_CMD_EX] = "EX",
};

int tcp_msg_put_run(char *buf, size_t len, int idx, int defer)
{
	return snprintf(buf, len, "RUN\t%d\t%d\n", idx, defer);
}

int tcp_msg_put_cmd(char *buf, size_t len, tcp_cmd_t cmd)
{
	return snprintf(buf, len, "%s\n", cmd_word[cmd]);
}

tcp_cmd_t tcp_msg_get_cmd(const char *line, int npoints, int *idx, int *defer)
{
	char tail;
	for (int c = TCP_CMD_FLUSH; c <= TCP_CMD_EX; c++)
		if (strcmp(line, cmd_word[c]) == 0)
			return (tcp_cmd_t)c;
	*defer = 0;
	if (sscanf(line, "RUN\t%d\t%d%c", idx, defer, &tail) != 2 || *idx < 0 || *idx >= npoints)
		return TCP_CMD_BAD;
	return TCP_CMD_RUN;
}

/* ---------------------------------------------------------------- worker -> supervisor: start */

void tcp_msg_put_prov(tcp_msgbuf_t *b, const char *key, const char *val)
{
	tcp_msgbuf_printf(b, "PROV");
	put_field(b, key);
	put_field(b, val);
	tcp_msgbuf_printf(b, "\n");
}

int tcp_msg_get_prov(char **f, int nf, const char **key, const char **val)
{
	if (!is_tag(f, nf, "PROV", 3))
		return -1;
	*key = f[1];
	*val = f[2];
	return 0;
}

void tcp_msg_put_text(tcp_msgbuf_t *b, const char *tag, const char *text)
{
	tcp_msgbuf_printf(b, "%s", tag);
	put_field(b, text);
	tcp_msgbuf_printf(b, "\n");
}

int tcp_msg_get_text(char **f, int nf, const char *tag, const char **text)
{
	if (!is_tag(f, nf, tag, 2))
		return -1;
	*text = f[1];
	return 0;
}

void tcp_msg_put_busy(tcp_msgbuf_t *b, long pid, double rtt_us)
{
	tcp_msgbuf_printf(b, "BUSY\t%ld", pid);
	put_double(b, rtt_us);
	tcp_msgbuf_printf(b, "\n");
}

int tcp_msg_get_busy(char **f, int nf, long *pid, double *rtt_us)
{
	if (!is_tag(f, nf, "BUSY", 3))
		return -1;
	*pid = atol(f[1]);
	if (tcp_msg_double(f[2], rtt_us))
		*rtt_us = NAN;
	return 0;
}

void tcp_msg_put_pair(tcp_msgbuf_t *b, const char *tag, int x, int y)
{
	tcp_msgbuf_printf(b, "%s\t%d\t%d\n", tag, x, y);
}

int tcp_msg_get_pair(char **f, int nf, const char *tag, int *x, int *y)
{
	if (!is_tag(f, nf, tag, 3))
		return -1;
	*x = atoi(f[1]);
	*y = atoi(f[2]);
	return 0;
}

void tcp_msg_put_badgpu(tcp_msgbuf_t *b, int count)
{
	tcp_msgbuf_printf(b, "BADGPU\t%d\n", count);
}

/* ---------------------------------------------------------------- worker -> supervisor: points */

void tcp_msg_put_eb(tcp_msgbuf_t *b, int idx)
{
	tcp_msgbuf_printf(b, "EB\t%d\n", idx);
}

void tcp_msg_put_ee(tcp_msgbuf_t *b, int idx, long long runs, double work_flop, double sec)
{
	tcp_msgbuf_printf(b, "EE\t%d\t%lld", idx, runs);
	put_double(b, work_flop);
	put_double(b, sec);
	tcp_msgbuf_printf(b, "\n");
}

int tcp_msg_get_ee(char **f, int nf, int idx, long long *runs, double *work_flop, double *sec)
{
	char e[256];
	long long v;
	if (!is_tag(f, nf, "EE", 5) || get_point(f[1], idx, idx, &v) ||
	    tcp_parse_int("runs", f[2], 0, INT64_MAX, runs, e, sizeof(e)) || tcp_msg_double(f[3], work_flop) ||
	    tcp_msg_double(f[4], sec))
		return -1;
	return 0;
}

void tcp_msg_put_c(tcp_msgbuf_t *b, int idx, double rtt_before, double rtt_after)
{
	tcp_msgbuf_printf(b, "C\t%d", idx);
	put_double(b, rtt_before);
	put_double(b, rtt_after);
	tcp_msgbuf_printf(b, "\n");
}

int tcp_msg_get_c(char **f, int nf, double *rtt_before, double *rtt_after)
{
	if (!is_tag(f, nf, "C", 4) || tcp_msg_double(f[2], rtt_before) || tcp_msg_double(f[3], rtt_after))
		return -1;
	return 0;
}

void tcp_msg_put_p(tcp_msgbuf_t *b, int idx, tcp_status_t st, int nsamples, int nmetrics, const char *stop,
		   double work_flop)
{
	tcp_msgbuf_printf(b, "P\t%d\t%s\t%d\t%d\t%s", idx, tcp_status_name(st), nsamples, nmetrics,
			  stop && *stop ? stop : "-");
	put_double(b, work_flop);
	tcp_msgbuf_printf(b, "\n");
}

int tcp_msg_get_p(char **f, int nf, int idx, int max_ns, int nm, tcp_msg_p_t *p, char *err, size_t len)
{
	long long v;
	char e[256];
	if (!is_tag(f, nf, "P", 7) || get_point(f[1], idx, idx, &v) || get_status(f[2], &p->st) ||
	    tcp_msg_double(f[6], &p->work_flop) || tcp_parse_int("samples", f[3], 0, max_ns, &v, e, sizeof(e)))
		return -1;
	p->ns = (int)v;
	snprintf(p->stop, sizeof(p->stop), "%s", strcmp(f[5], "-") ? f[5] : "");
	if (tcp_parse_int("metrics", f[4], nm, nm, &v, err, len))
		return -2;
	return 0;
}

void tcp_msg_put_s(tcp_msgbuf_t *b, int m, const double *v, int n)
{
	tcp_msgbuf_printf(b, "S\t%d", m);
	for (int i = 0; i < n; i++)
		put_double(b, v[i]);
	tcp_msgbuf_printf(b, "\n");
}

int tcp_msg_get_s(char *line, int m, int ns, double *v, char *reason, size_t len)
{
	char ex[96], *save = line, *tok = strsep(&save, "\t");
	if (strcmp(tok, "S") != 0 || !save || atoi(strsep(&save, "\t")) != m) {
		snprintf(reason, len, "worker protocol error: expected samples of metric %d, got '%s'", m,
			 tcp_msg_excerpt(tok, ex, sizeof(ex)));
		return -1;
	}
	for (int i = 0; i < ns; i++) {
		tok = save ? strsep(&save, "\t") : NULL;
		if (!tok || tcp_msg_double(tok, &v[i])) {
			snprintf(reason, len, "worker protocol error: bad sample %d of metric %d", i, m);
			return -1;
		}
	}
	if (save) {
		snprintf(reason, len, "worker protocol error: extra samples for metric %d", m);
		return -1;
	}
	return 0;
}

void tcp_msg_put_k(tcp_msgbuf_t *b, const char *metric, const char *unit, double v, tcp_status_t st,
		   const char *reason)
{
	tcp_msgbuf_printf(b, "K");
	put_field(b, metric);
	put_field(b, unit);
	put_double(b, v);
	tcp_msgbuf_printf(b, "\t%s", tcp_status_name(st));
	put_field(b, reason);
	tcp_msgbuf_printf(b, "\n");
}

int tcp_msg_get_k(char **f, int nf, const char **metric, const char **unit, double *v, tcp_status_t *st,
		  const char **reason)
{
	if (!is_tag(f, nf, "K", 6))
		return 1;
	if (tcp_msg_double(f[3], v) || get_status(f[4], st))
		return -1;
	*metric = f[1];
	*unit = f[2];
	*reason = f[5];
	return 0;
}

void tcp_msg_put_e(tcp_msgbuf_t *b, int idx, int sticky, const char *site, const char *reason)
{
	tcp_msgbuf_printf(b, "E\t%d\t%d", idx, sticky);
	put_field(b, site);
	put_field(b, reason);
	tcp_msgbuf_printf(b, "\n");
}

int tcp_msg_get_e(char **f, int nf, int idx, int *sticky, const char **site, const char **reason)
{
	long long v;
	if (!is_tag(f, nf, "E", 5) || get_point(f[1], idx, idx, &v))
		return -1;
	*sticky = atoi(f[2]);
	*site = f[3];
	*reason = f[4];
	return 0;
}

void tcp_msg_put_idx(tcp_msgbuf_t *b, const char *tag, int idx)
{
	tcp_msgbuf_printf(b, "%s\t%d\n", tag, idx);
}

int tcp_msg_get_w(char **f, int nf, int idx)
{
	long long v;
	return is_tag(f, nf, "W", 2) && get_point(f[1], idx, idx, &v) == 0 ? 0 : -1;
}

void tcp_msg_put_x(tcp_msgbuf_t *b, int idx, tcp_status_t st)
{
	tcp_msgbuf_printf(b, "X\t%d\t%s\n", idx, tcp_status_name(st));
}

int tcp_msg_get_x(char **f, int nf, int npoints, int *idx, tcp_status_t *st)
{
	long long v;
	if (!is_tag(f, nf, "X", 3) || get_point(f[1], 0, npoints - 1, &v) || get_status(f[2], st))
		return -1;
	*idx = (int)v;
	return 0;
}

void tcp_msg_put_f(tcp_msgbuf_t *b)
{
	tcp_msgbuf_printf(b, "F\n");
}

int tcp_msg_get_f(char **f, int nf)
{
	return is_tag(f, nf, "F", 1) ? 0 : -1;
}
