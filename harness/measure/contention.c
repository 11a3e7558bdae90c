/*
 * contention.c
 *	Other work on the GPU, point by point (see contention.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "harness/measure/contention.h"

static unsigned long long now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);	/* NVML stamps its samples with CPU wall time */
	return (unsigned long long)ts.tv_sec * 1000000ull + (unsigned long long)ts.tv_nsec / 1000ull;
}

static int has(const unsigned int *v, int n, unsigned int x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

long tcp_busy_self(const unsigned int *before, int nb, const unsigned int *after, int na)
{
	long found = -1;

	if (nb < 0)
		return na == 1 ? (long)after[0] : -1;
	for (int i = 0; i < na; i++) {
		if (has(before, nb, after[i]))
			continue;
		if (found >= 0)
			return -1;	/* two newcomers: which one is ours is unknown */
		found = (long)after[i];
	}
	return found;
}

int tcp_busy_others(const unsigned int *pids, int n, long self)
{
	int k = 0;

	if (self < 0)
		return n > 1 ? n - 1 : 0;
	for (int i = 0; i < n; i++)
		k += (long)pids[i] != self;
	return k;
}

int tcp_busy_util_others(const tcp_nvml_util_t *s, int n, long self, unsigned long long since_us)
{
	unsigned int seen[TCP_BUSY_MAX_PIDS];
	int k = 0;

	for (int i = 0; i < n; i++) {
		if (s[i].timestamp_us <= since_us || s[i].sm_util == 0 ||
		    (self >= 0 && (long)s[i].pid == self))
			continue;
		if (!has(seen, k, s[i].pid) && k < TCP_BUSY_MAX_PIDS)
			seen[k++] = s[i].pid;
	}
	if (self < 0)
		return k > 1 ? k - 1 : 0;
	return k;
}

int tcp_busy_decide(int others, int util_others, double rtt_us, char *why, size_t len)
{
	int read = others >= 0 || util_others >= 0 || !isnan(rtt_us);
	int busy = 0;
	size_t o = 0;

	if (why && len)
		why[0] = '\0';
#define SAY(...) do { if (why && o < len) o += (size_t)snprintf(why + o, len - o, __VA_ARGS__); } while (0)
	if (others > 0) {
		busy = 1;
		SAY("%d other compute process%s (NVML)", others, others == 1 ? "" : "es");
	}
	if (util_others > 0) {
		busy = 1;
		SAY("%s%d other process%s with SM utilization in the window (NVML samples)", o ? "; " : "",
		    util_others, util_others == 1 ? "" : "es");
	}
	if (!isnan(rtt_us) && rtt_us > TCP_BUSY_RTT_US) {
		busy = 1;
		SAY("%slaunch round trip %.0f us > %.0f us", o ? "; " : "", rtt_us, TCP_BUSY_RTT_US);
	}
	if (!read)
		SAY("no witness: NVML process lists, utilization samples and the launch round trip all NA");
#undef SAY
	return !read ? -1 : busy;
}

void tcp_busy_init(tcp_busy_t *b, int nvml)
{
	memset(b, 0, sizeof(*b));
	b->nvml = nvml;
	b->self = -1;
	b->nbefore = -1;
}

/* One process-list check: the pids, or -1 (the reason kept once).  ours: our
 * worker holds a context now, so it must be in the list. */
static int list(tcp_busy_t *b, unsigned int *pids, int ours)
{
	char why[128];
	int n;

	if (b->nvml < 0)
		return -1;
	n = tcp_nvml_compute_pids(b->nvml, pids, TCP_BUSY_MAX_PIDS, &b->mps_clients, why, sizeof(why));
	if (n == 0 && ours) {
		/* our worker holds a context, so an empty list means NVML cannot see
		 * processes here (a container without the host's process view) */
		snprintf(why, sizeof(why), "NVML lists no compute process, not even this run's worker");
		n = -1;
	}
	b->procs_ok = n >= 0;
	if (n < 0 && !b->procs_why[0])
		snprintf(b->procs_why, sizeof(b->procs_why), "%s", why);
	return n;
}

void tcp_busy_spawn_begin(tcp_busy_t *b)
{
	b->nbefore = list(b, b->before, 0);
}

void tcp_busy_spawn_end(tcp_busy_t *b, long reported_self)
{
	unsigned int after[TCP_BUSY_MAX_PIDS];
	int na;

	if (reported_self >= 0) {
		b->self = reported_self;
	} else if (b->nbefore >= 0 && (na = list(b, after, 1)) >= 0) {
		b->self = tcp_busy_self(b->before, b->nbefore, after, na);
	} else {
		b->self = -1;
	}
	b->nbefore = -1;
}

/* A list check inside a window: others, and every other pid remembered. */
static void check_procs(tcp_busy_t *b, tcp_busy_point_t *p)
{
	unsigned int pids[TCP_BUSY_MAX_PIDS];
	int n = list(b, pids, 1);

	if (n < 0)
		return;
	/* self unknown and alone on the GPU: the one context is ours */
	if (b->self < 0 && n == 1)
		b->self = (long)pids[0];
	int o = tcp_busy_others(pids, n, b->self);
	if (o > p->others)
		p->others = o;
	if (o > b->max_others)
		b->max_others = o;
	for (int i = 0; i < n && b->self >= 0; i++)
		if ((long)pids[i] != b->self && !has(b->other, b->nother, pids[i]) &&
		    b->nother < TCP_BUSY_MAX_PIDS)
			b->other[b->nother++] = pids[i];
}

static void check_util(tcp_busy_t *b, tcp_busy_point_t *p)
{
	static tcp_nvml_util_t s[TCP_BUSY_MAX_PIDS * 4];
	char why[128];
	int n;

	if (b->nvml < 0)
		return;
	n = tcp_nvml_util_samples(b->nvml, p->seen_us, s, (int)(sizeof(s) / sizeof(s[0])), why, sizeof(why));
	b->util_ok = n >= 0;
	if (n < 0) {
		if (!b->util_why[0])
			snprintf(b->util_why, sizeof(b->util_why), "%s", why);
		return;
	}
	int o = tcp_busy_util_others(s, n, b->self, p->t0_us);
	if (o > p->util_others)
		p->util_others = o;
	for (int i = 0; i < n; i++)
		if (s[i].timestamp_us > p->seen_us)
			p->seen_us = s[i].timestamp_us;
}

static void point_reset(tcp_busy_point_t *p, unsigned long long t0_us)
{
	memset(p, 0, sizeof(*p));
	p->t0_us = p->seen_us = t0_us;
	p->others = p->util_others = -1;
	p->rtt_us = NAN;
	p->contended = -1;
}

void tcp_busy_now(tcp_busy_t *b, double lookback_s, double rtt_us, tcp_busy_point_t *p)
{
	point_reset(p, now_us() - (unsigned long long)(lookback_s * 1e6));
	check_procs(b, p);
	check_util(b, p);
	p->rtt_us = rtt_us;
	p->contended = tcp_busy_decide(p->others, p->util_others, p->rtt_us, p->why, sizeof(p->why));
}

void tcp_busy_point_begin(tcp_busy_t *b, tcp_busy_point_t *p, double mono_now)
{
	point_reset(p, now_us());
	check_procs(b, p);
	p->next_poll = mono_now + TCP_BUSY_POLL_S;
}

void tcp_busy_point_poll(tcp_busy_t *b, tcp_busy_point_t *p, double mono_now)
{
	if (b->nvml < 0 || mono_now < p->next_poll)
		return;
	check_util(b, p);	/* the driver keeps a bounded buffer: read it as it goes */
	p->next_poll = mono_now + TCP_BUSY_POLL_S;
}

void tcp_busy_point_end(tcp_busy_t *b, tcp_busy_point_t *p, double rtt_before_us, double rtt_after_us)
{
	check_procs(b, p);
	check_util(b, p);
	p->rtt_us = isnan(rtt_before_us) ? rtt_after_us
		  : isnan(rtt_after_us) ? rtt_before_us : fmax(rtt_before_us, rtt_after_us);
	p->contended = tcp_busy_decide(p->others, p->util_others, p->rtt_us, p->why, sizeof(p->why));
	if (p->contended >= 0) {
		b->points++;
		b->contended += p->contended;
	}
}
