/*
 * block.c
 *	The BLOCKED rule and the per-probe verdict line (block.h says the rule).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/sweep/block.h"

#define TCP_BLOCK_HINT "; --no-block runs them"	/* ends every BLOCKED reason */

/* `s` with every run of digits dropped: the same failure at another CTA, cycle
 * count or size gets the same text. */
static void strip_digits(const char *s, char *buf, size_t len)
{
	size_t o = 0;
	for (; s && *s && o + 1 < len; s++)
		if (!isdigit((unsigned char)*s))
			buf[o++] = *s;
	if (len)
		buf[o] = '\0';
}

int tcp_block_key(tcp_status_t st, const char *site, const char *reason, char *key, size_t klen, char *where,
		  size_t wlen)
{
	int has_site = site && *site;
	if (st != TCP_TIMEOUT && st != TCP_FAILED && !(st == TCP_INVALID && has_site))
		return 0;
	char norm[TCP_BLOCK_KEYLEN];
	if (has_site) {
		snprintf(key, klen, "%s site %s", tcp_status_name(st), site);
		snprintf(where, wlen, "%s", site);
	} else {
		strip_digits(reason, norm, sizeof(norm));
		snprintf(key, klen, "%s reason %s", tcp_status_name(st), norm);
		/* the first reason, cut to what fits a verdict line */
		snprintf(where, wlen, "%.60s%s", reason ? reason : "", reason && strlen(reason) > 60 ? "..." : "");
	}
	return 1;
}

static tcp_block_probe_t *find(const tcp_block_t *b, const char *probe)
{
	for (int i = 0; i < b->n; i++)
		if (!strcmp(b->p[i].probe, probe))
			return &b->p[i];
	return NULL;
}

static tcp_block_probe_t *find_or_add(tcp_block_t *b, const char *probe)
{
	tcp_block_probe_t *q = find(b, probe);
	if (q)
		return q;
	if (b->n == b->cap) {
		int cap = b->cap ? 2 * b->cap : 16;
		tcp_block_probe_t *np = realloc(b->p, sizeof(*np) * (size_t)cap);
		if (!np)
			return NULL;
		b->p = np;
		b->cap = cap;
	}
	q = &b->p[b->n++];
	memset(q, 0, sizeof(*q));
	snprintf(q->probe, sizeof(q->probe), "%s", probe);
	return q;
}

const char *tcp_block_why(const tcp_block_t *b, const char *probe)
{
	const tcp_block_probe_t *q = find(b, probe);
	return q && q->blocked && !b->off ? q->why : NULL;
}

const char *tcp_block_where(const tcp_block_t *b, const char *probe)
{
	const tcp_block_probe_t *q = find(b, probe);
	return q && q->blocked && !b->off ? q->where : NULL;
}

int tcp_block_note(tcp_block_t *b, const char *probe, tcp_status_t st, const char *site, const char *reason)
{
	char key[TCP_BLOCK_KEYLEN], where[TCP_BLOCK_KEYLEN];
	if (st == TCP_SKIPPED || st == TCP_UNSUPPORTED || st == TCP_BLOCKED)
		return 0;	/* never launched: neither counts nor ends a streak */
	tcp_block_probe_t *q = find_or_add(b, probe);
	if (!q)
		return -1;
	if (q->blocked)
		return 0;
	if (!tcp_block_key(st, site, reason, key, sizeof(key), where, sizeof(where))) {
		q->n = 0;	/* OK (or an INVALID result): the streak ends */
		return 0;
	}
	if (q->n == 0 || strcmp(key, q->key) != 0) {
		q->n = 0;
		q->st = st;
		snprintf(q->key, sizeof(q->key), "%s", key);
		snprintf(q->where, sizeof(q->where), "%s", where);
		snprintf(q->first, sizeof(q->first), "%s", reason ? reason : "");
	}
	if (++q->n < TCP_BLOCK_AFTER || b->off)
		return 0;
	q->blocked = 1;
	/* the first reason cut so that the hint at the end fits a row's reason */
	const char *cut = strlen(q->first) > 150 ? "..." : "";
	if (site && *site)
		snprintf(q->why, sizeof(q->why), "%d points in a row %s at %s (first: %.150s%s)" TCP_BLOCK_HINT,
			 q->n, tcp_status_name(st), q->where, q->first, cut);
	else
		snprintf(q->why, sizeof(q->why), "%d points in a row %s for the same reason (first: %.150s%s)" TCP_BLOCK_HINT,
			 q->n, tcp_status_name(st), q->first, cut);
	return 1;
}

int tcp_block_restore(tcp_block_t *b, const char *probe, const char *why)
{
	tcp_block_probe_t *q = find_or_add(b, probe);
	if (!q)
		return -1;
	if (q->blocked)
		return 0;
	q->blocked = 1;
	snprintf(q->why, sizeof(q->why), "%s", why ? why : "");
	/* what the verdict names: the site of "... at SITE (first: ...)", else
	 * the first reason (block_note's two forms) */
	const char *at = strstr(q->why, " at "), *first = strstr(q->why, " (first: ");
	if (at && first && at < first)
		snprintf(q->where, sizeof(q->where), "%.*s", (int)(first - at - 4), at + 4);
	else if (first) {
		const char *end = strstr(first, ")" TCP_BLOCK_HINT);
		int n = end ? (int)(end - first - 9) : (int)strlen(first + 9);
		snprintf(q->where, sizeof(q->where), "%.*s", n < 60 ? n : 60, first + 9);
	} else {
		snprintf(q->where, sizeof(q->where), "%.60s", q->why);
	}
	return 0;
}

void tcp_block_free(tcp_block_t *b)
{
	free(b->p);
	b->p = NULL;
	b->n = b->cap = 0;
}

const char *tcp_block_verdict(const char *probe, const int *count, const char *where, char *buf, size_t len)
{
	static const tcp_status_t order[] = { TCP_OK, TCP_FAILED, TCP_TIMEOUT, TCP_INVALID, TCP_BLOCKED,
					      TCP_SKIPPED, TCP_UNSUPPORTED };
	int total = 0, kinds = 0;
	size_t o;
	for (int i = 0; i < TCP_NSTATUS; i++) {
		total += count[i];
		kinds += count[i] > 0;
	}
	o = (size_t)snprintf(buf, len, "%s:", probe);
	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]) && o < len; k++) {
		int n = count[order[k]];
		if (!n)
			continue;
		if (kinds == 1)
			o += (size_t)snprintf(buf + o, len - o, " %d/%d %s", n, total, tcp_status_name(order[k]));
		else
			o += (size_t)snprintf(buf + o, len - o, "%s %d %s", buf[o - 1] == ':' ? "" : ",", n,
					      tcp_status_name(order[k]));
		if (order[k] == TCP_BLOCKED && where && o < len)
			o += (size_t)snprintf(buf + o, len - o, " (%s)", where);
	}
	if (!total && o < len)
		snprintf(buf + o, len - o, " no points");
	return buf;
}
