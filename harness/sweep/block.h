/*
 * block.h
 *	A sweep that explains what it skips: the BLOCKED rule and the
 *	per-probe verdict line.  Plain C, no I/O: the supervisor feeds it each
 *	point's status and prints what it returns; tests/test-block.c drives it
 *	directly.
 *
 *	The rule.  When TCP_BLOCK_AFTER points of one probe in a row on one GPU
 *	end with the same non-OK status for the same reason key, the probe's
 *	remaining points on that GPU are not launched: they are written as
 *	BLOCKED, with the reason "3 points in a row TIMEOUT at <where> (first:
 *	<reason of the first>)".  One tcp_block_t per GPU (one supervisor runs
 *	one GPU).  `tcprobe run --no-block` runs them anyway.
 *	  - Eligible: TIMEOUT, FAILED, and INVALID carrying a wait site (the
 *	    device flagged a protocol fault, e.g. a bad TMEM address).  INVALID
 *	    from a result check (no site) is never blocked: it ran in its normal
 *	    time and which points disagree with the reference is the finding.
 *	  - The key: status + the wait site when the probe names one (ctx.site:
 *	    the status word's site code, never the reason text, which carries a
 *	    CTA index and a time); a point the supervisor killed at its timeout
 *	    is TCP_BLOCK_SUPERVISOR; otherwise status + the reason with every run
 *	    of digits dropped (CTA numbers, cycle counts, sizes).
 *	  - An OK point ends the streak; a non-OK point with another key starts
 *	    a new one; SKIPPED / UNSUPPORTED points (plan decisions, never
 *	    launched) neither count nor end it.
 *	  - Points of other probes in between do not matter: the streak is the
 *	    probe's own points in plan order.
 */
#ifndef TCP_BLOCK_H
#define TCP_BLOCK_H

#include <stddef.h>

#include "probes/common/probe.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TCP_BLOCK_AFTER		3	/* points in a row that block the rest */
#define TCP_BLOCK_SUPERVISOR	"the supervisor's point timeout"	/* the site of a killed point */
#define TCP_BLOCK_KEYLEN	192

/* One probe's streak on one GPU. */
typedef struct {
	char probe[64];
	int n;				/* points in the current streak, 0 = none */
	tcp_status_t st;		/* the streak's status */
	char key[TCP_BLOCK_KEYLEN];	/* the streak's key (tcp_block_key) */
	char where[TCP_BLOCK_KEYLEN];	/* the same, for people: the site, or the reason */
	char first[TCP_REASON_LEN];	/* reason of the streak's first point */
	int blocked;			/* 1: the remaining points are BLOCKED */
	char why[TCP_REASON_LEN + TCP_BLOCK_KEYLEN];	/* their reason (fits a row's reason) */
} tcp_block_probe_t;

typedef struct {
	int off;			/* --no-block: never block */
	int n, cap;
	tcp_block_probe_t *p;
} tcp_block_t;

/*
 * tcp_block_key()
 *	The key a non-OK point is grouped by, and `where` (what the verdict and
 *	the BLOCKED reason name).  Returns 1 when the status is eligible, 0 when
 *	it is not (OK, SKIPPED, UNSUPPORTED, BLOCKED, INVALID without a site).
 *	`site` may be NULL or "".
 */
int tcp_block_key(tcp_status_t st, const char *site, const char *reason, char *key, size_t klen, char *where,
		  size_t wlen);

/* The reason of the probe's BLOCKED points, or NULL when it is not blocked. */
const char *tcp_block_why(const tcp_block_t *b, const char *probe);

/* What blocked the probe (the site, or the reason), or NULL. */
const char *tcp_block_where(const tcp_block_t *b, const char *probe);

/*
 * tcp_block_note()
 *	A finished point of `probe`: its status, wait site and reason.  Returns
 *	1 when this point blocked the probe (the caller says so once), 0
 *	otherwise, -1 out of memory (the point is noted nowhere: nothing blocks).
 */
int tcp_block_note(tcp_block_t *b, const char *probe, tcp_status_t st, const char *site, const char *reason);

/* --resume: the run already holds BLOCKED rows of `probe` with this reason:
 * keep its remaining points BLOCKED (unless --no-block).  0, -1 out of memory. */
int tcp_block_restore(tcp_block_t *b, const char *probe, const char *why);

void tcp_block_free(tcp_block_t *b);

/*
 * tcp_block_verdict()
 *	The one line said when a probe's last point on a GPU is done, from its
 *	points per status (count[TCP_NSTATUS]) and what blocked it (NULL none):
 *	  "tc_alloc: 40/40 OK"                 every point has one status
 *	  "tc_mma_lat: 12 OK, 3 TIMEOUT, 279 BLOCKED (tcgen05.mma completion)"
 *	Statuses in the order OK, FAILED, TIMEOUT, INVALID, BLOCKED, SKIPPED,
 *	UNSUPPORTED, zero counts left out.  Returns buf.
 */
const char *tcp_block_verdict(const char *probe, const int *count, const char *where, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* TCP_BLOCK_H */
