/*
 * protocol.h
 *	The supervisor/worker line protocol (worker.h lists the messages and
 *	their order): every message is encoded and decoded here and nowhere
 *	else.  A message is one line of TAB-separated fields, its tag first;
 *	a text field is made one line first (tcp_msg_one_line), so a reason
 *	never breaks a line, and a number that must come back exactly is
 *	written "%.17g" ("nan" for NaN).
 *
 *	Encoders of the worker's messages append to a tcp_msgbuf_t, so that a
 *	point's whole message leaves in one write (tcp_msgbuf_send); the
 *	supervisor's commands are short and fit a caller's buffer.  Decoders
 *	take a line split in place (tcp_msg_split) and check tag, field count
 *	and every field; which message may come next, and what an index must
 *	be, is the reader's (harness/sweep/supervisor-result.c, worker.c).
 */
#ifndef TCP_PROTOCOL_H
#define TCP_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#include "probes/common/probe.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TCP_MSG_MAXF	8		/* fields of the widest fixed message (P: 7) + 1 */

/* ---------------------------------------------------------------- buffer */

/* A growing message buffer of the worker process: out of memory ends the
 * worker (exit 5), which the supervisor sees as a crash of the point. */
typedef struct {
	char *s;
	size_t n, cap;
} tcp_msgbuf_t;

void tcp_msgbuf_printf(tcp_msgbuf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Write all of b to fd and empty it; a write that fails ends the worker
 * (exit 6: the supervisor is gone). */
void tcp_msgbuf_send(tcp_msgbuf_t *b, int fd);

/* s as one line (TAB, CR, LF become spaces; NULL is "") in buf. */
const char *tcp_msg_one_line(const char *s, char *buf, size_t len);

/* ---------------------------------------------------------------- supervisor -> worker */

typedef enum {
	TCP_CMD_BAD = 0,	/* not a command of the protocol */
	TCP_CMD_RUN,		/* RUN <idx> <defer> */
	TCP_CMD_FLUSH,		/* FLUSH */
	TCP_CMD_QUIT,		/* QUIT */
	TCP_CMD_EW,		/* EW: the energy window opens */
	TCP_CMD_EX,		/* EX: ... and closes */
} tcp_cmd_t;

/* RUN, and the one-word commands, with their newline into buf: the length. */
int tcp_msg_put_run(char *buf, size_t len, int idx, int defer);
int tcp_msg_put_cmd(char *buf, size_t len, tcp_cmd_t cmd);

/* A command line (no newline).  RUN: *idx in 0..npoints-1 and *defer, else
 * TCP_CMD_BAD. */
tcp_cmd_t tcp_msg_get_cmd(const char *line, int npoints, int *idx, int *defer);

/* ---------------------------------------------------------------- worker -> supervisor: start */

void tcp_msg_put_prov(tcp_msgbuf_t *b, const char *key, const char *val);
/* One text field after a tag: CTR, TIMER, NOGPU. */
void tcp_msg_put_text(tcp_msgbuf_t *b, const char *tag, const char *text);
void tcp_msg_put_busy(tcp_msgbuf_t *b, long pid, double rtt_us);
/* Two integers after a tag: HELLO <cc> <sm_count>, OLDDRIVER <driver's CUDA
 * version> <runtime's>. */
void tcp_msg_put_pair(tcp_msgbuf_t *b, const char *tag, int x, int y);
void tcp_msg_put_badgpu(tcp_msgbuf_t *b, int count);

/* Decoders: 0 when f[0..nf) is that message, well formed, else -1. */
int tcp_msg_get_prov(char **f, int nf, const char **key, const char **val);
int tcp_msg_get_text(char **f, int nf, const char *tag, const char **text);
int tcp_msg_get_busy(char **f, int nf, long *pid, double *rtt_us);	/* rtt NaN when unreadable */
int tcp_msg_get_pair(char **f, int nf, const char *tag, int *x, int *y);

/* ---------------------------------------------------------------- worker -> supervisor: points */

void tcp_msg_put_eb(tcp_msgbuf_t *b, int idx);
void tcp_msg_put_ee(tcp_msgbuf_t *b, int idx, long long runs, double work_flop, double sec);
void tcp_msg_put_c(tcp_msgbuf_t *b, int idx, double rtt_before, double rtt_after);
void tcp_msg_put_p(tcp_msgbuf_t *b, int idx, tcp_status_t st, int nsamples, int nmetrics, const char *stop,
		   double work_flop);
/* S of metric m: n samples v[0], v[stride], ... */
void tcp_msg_put_s(tcp_msgbuf_t *b, int m, const double *v, int n);
void tcp_msg_put_k(tcp_msgbuf_t *b, const char *metric, const char *unit, double v, tcp_status_t st,
		   const char *reason);
/* E: site and reason "" for an OK point. */
void tcp_msg_put_e(tcp_msgbuf_t *b, int idx, int sticky, const char *site, const char *reason);
void tcp_msg_put_idx(tcp_msgbuf_t *b, const char *tag, int idx);	/* W <idx> */
void tcp_msg_put_x(tcp_msgbuf_t *b, int idx, tcp_status_t st);
void tcp_msg_put_f(tcp_msgbuf_t *b);

/* What a P line holds. */
typedef struct {
	tcp_status_t st;
	int ns;			/* samples per metric */
	char stop[16];		/* why the timed runs ended; "" = none ("-") */
	double work_flop;
} tcp_msg_p_t;

/* Line starts of the two messages a reader looks for before splitting. */
int tcp_msg_is(const char *line, const char *tag);

/* EE of point idx: *runs (0..INT64_MAX), *work_flop, *sec.  0 / -1. */
int tcp_msg_get_ee(char **f, int nf, int idx, long long *runs, double *work_flop, double *sec);
/* C: the launch round trips.  0 / -1. */
int tcp_msg_get_c(char **f, int nf, double *rtt_before, double *rtt_after);
/*
 * tcp_msg_get_p()
 *	P of point idx with at most max_ns samples of nm metrics: 0; -1 for a
 *	bad header (p->ns, p->stop unset); -2 when only the metric count is off
 *	(err: what it was; p filled).
 */
int tcp_msg_get_p(char **f, int nf, int idx, int max_ns, int nm, tcp_msg_p_t *p, char *err, size_t len);
/* The S line of metric m (unsplit): ns samples into v.  0, or -1 with the
 * protocol error in reason. */
int tcp_msg_get_s(char *line, int m, int ns, double *v, char *reason, size_t len);
/* K: 0 well formed; 1 not a K line (or not 6 fields); -1 a K line with a bad value or status. */
int tcp_msg_get_k(char **f, int nf, const char **metric, const char **unit, double *v, tcp_status_t *st,
		  const char **reason);
/* E of point idx.  0 / -1. */
int tcp_msg_get_e(char **f, int nf, int idx, int *sticky, const char **site, const char **reason);
/* W of point idx.  0 / -1. */
int tcp_msg_get_w(char **f, int nf, int idx);
/* X of a point in 0..npoints-1: *idx, *st.  0 / -1. */
int tcp_msg_get_x(char **f, int nf, int npoints, int *idx, tcp_status_t *st);
/* F.  0 / -1. */
int tcp_msg_get_f(char **f, int nf);

/* ---------------------------------------------------------------- helpers */

/* Split a line at TABs in place into f[] (at most maxf): the field count,
 * maxf + 1 when there are more (a decoder then rejects it). */
int tcp_msg_split(char *s, char **f, int maxf);

/* Printable excerpt of a bad line (60 characters, then "...") for a reason. */
const char *tcp_msg_excerpt(const char *s, char *buf, size_t len);

/* A strict double ("nan" allowed): 0, or -1. */
int tcp_msg_double(const char *s, double *v);

#ifdef __cplusplus
}
#endif
#endif /* TCP_PROTOCOL_H */
