/*
 * provenance.c
 *	The key,value facts of a run as data: set, get, merge, provenance.csv
 *	written and read, the build's own facts, and the run directory's name.
 *	Collecting them from the host and the GPU (uname, CUDA runtime, NVML)
 *	is harness/measure/provenance-live.c's.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "harness/store/columns.h"
#include "harness/store/csvio.h"
#include "harness/store/provenance.h"

#ifndef TCP_GIT_COMMIT
#define TCP_GIT_COMMIT "unknown"
#endif
#ifndef TCP_GIT_DIRTY
#define TCP_GIT_DIRTY 0
#endif
#ifndef TCP_VERSION
#define TCP_VERSION "0.1.0"
#endif

const char *tcp_build_version(void)
{
	return TCP_VERSION;
}

const char *tcp_build_commit(void)
{
	return TCP_GIT_COMMIT;
}

int tcp_build_dirty(void)
{
	return TCP_GIT_DIRTY;
}

void tcp_prov_init(tcp_prov_t *p)
{
	p->n = 0;
}

/*
 * tcp_prov_set()
 *	Replace or append; a value too long for a slot is cut and ends in "..."
 *	so that a reader can tell it was cut.
 */
int tcp_prov_set(tcp_prov_t *p, const char *key, const char *val)
{
	int i;

	if (!p || !key || !*key || strlen(key) >= TCP_PROV_KEYLEN)
		return -1;
	for (i = 0; i < p->n; i++)
		if (strcmp(p->key[i], key) == 0)
			break;
	if (i == p->n) {
		if (p->n == TCP_PROV_MAX)
			return -1;
		snprintf(p->key[i], TCP_PROV_KEYLEN, "%s", key);
		p->n++;
	}
	if (!val)
		val = "NA";
	if (strlen(val) >= TCP_PROV_VALLEN) {
		memcpy(p->val[i], val, TCP_PROV_VALLEN - 4);
		memcpy(p->val[i] + TCP_PROV_VALLEN - 4, "...", 4);
	} else {
		memcpy(p->val[i], val, strlen(val) + 1);
	}
	return 0;
}

int tcp_prov_setf(tcp_prov_t *p, const char *key, const char *fmt, ...)
{
	char v[TCP_PROV_VALLEN + 4];
	va_list ap;

	va_start(ap, fmt);
	int n = vsnprintf(v, sizeof(v), fmt, ap);
	va_end(ap);
	if (n >= (int)TCP_PROV_VALLEN)	/* make tcp_prov_set see it as too long */
		memset(v + TCP_PROV_VALLEN - 1, '.', 4), v[TCP_PROV_VALLEN + 3] = '\0';
	return tcp_prov_set(p, key, v);
}

const char *tcp_prov_get(const tcp_prov_t *p, const char *key)
{
	if (!p || !key)
		return NULL;
	for (int i = 0; i < p->n; i++)
		if (strcmp(p->key[i], key) == 0)
			return p->val[i];
	return NULL;
}

int tcp_prov_merge(tcp_prov_t *dst, const tcp_prov_t *src, const char *prefix)
{
	char k[2 * TCP_PROV_KEYLEN];
	int rc = 0;

	for (int i = 0; i < src->n; i++) {
		snprintf(k, sizeof(k), "%s%s", prefix ? prefix : "", src->key[i]);
		if (tcp_prov_set(dst, k, src->val[i]) != 0)
			rc = -1;
	}
	return rc;
}

char *tcp_prov_utc_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	if (!buf || !len)
		return buf;
	if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "NA (clock)");
	return buf;
}

int tcp_prov_write(const tcp_prov_t *p, const char *path, char *err, size_t errlen)
{
	const char *k[TCP_PROV_MAX], *v[TCP_PROV_MAX];

	for (int i = 0; i < p->n; i++)
		k[i] = p->key[i], v[i] = p->val[i];
	return tcp_csv_write_kv(path, k, v, p->n, err, errlen);
}

int tcp_prov_read(tcp_prov_t *p, const char *path, char *err, size_t errlen)
{
	tcp_table_t t;

	tcp_prov_init(p);
	if (tcp_table_load(path, &t, err, errlen) != 0)
		return -1;
	int kc = tcp_table_col(&t, "key"), vc = tcp_table_col(&t, "value");
	if (kc < 0 || vc < 0) {
		snprintf(err, errlen, "%s:1: not a provenance file: no \"key\" and \"value\" columns", path);
		tcp_table_free(&t);
		return -1;
	}
	for (int r = 0; r < t.nrows; r++)
		if (tcp_prov_set(p, tcp_table_cell(&t, r, kc), tcp_table_cell(&t, r, vc)) != 0) {
			snprintf(err, errlen, "%s:%d: bad key or more than %d keys", path, r + 2,
				 TCP_PROV_MAX);
			tcp_table_free(&t);
			return -1;
		}
	tcp_table_free(&t);
	return 0;
}

/* Sanitise s into dst: [A-Za-z0-9._-] kept, runs of anything else -> one '_'. */
static void sanitise(char *dst, size_t len, const char *s, const char *fallback)
{
	size_t n = 0;

	if (!s || !*s || strncmp(s, "NA", 2) == 0)
		s = fallback;
	for (; *s && n + 1 < len; s++) {
		char c = *s;
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			 c == '.' || c == '_' || c == '-';
		if (!ok)
			c = '_';
		if (c == '_' && (n == 0 || dst[n - 1] == '_'))
			continue;
		if (c == '.' && n == 0)		/* no hidden names, no ".." */
			continue;
		dst[n++] = c;
	}
	while (n && dst[n - 1] == '_')
		n--;
	dst[n] = '\0';
	if (n == 0)
		snprintf(dst, len, "%s", fallback);
}

/*
 * tcp_results_dir_name()
 *	Date from started_utc (today when absent), then gpu, driver, host.
 */
int tcp_results_dir_name(char *buf, size_t len, const char *base, const tcp_prov_t *p)
{
	char date[16], gpu[128], drv[64], host[128], now[32];
	const char *st = tcp_prov_get(p, "started_utc");
	struct stat sb;

	if (!st || strlen(st) < 10 || st[4] != '-' || st[7] != '-')
		st = tcp_prov_utc_now(now, sizeof(now));
	snprintf(date, sizeof(date), "%.10s", st);
	sanitise(gpu, sizeof(gpu), tcp_prov_get(p, "gpu_name"), "nogpu");
	sanitise(drv, sizeof(drv), tcp_prov_get(p, "driver_version"), "nodriver");
	sanitise(host, sizeof(host), tcp_prov_get(p, "host"), "nohost");
	if (!base)
		base = "results";

	int n = snprintf(buf, len, "%s/%s-%s-%s-%s", base, date, gpu, drv, host);
	if (n < 0 || (size_t)n >= len)
		return -1;
	for (int k = 2; stat(buf, &sb) == 0; k++) {
		n = snprintf(buf, len, "%s/%s-%s-%s-%s-%d", base, date, gpu, drv, host, k);
		if (n < 0 || (size_t)n >= len)
			return -1;
	}
	return 0;
}
