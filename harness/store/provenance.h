/*
 * provenance.h
 *	Where and how a run was taken: the key,value rows of provenance.csv
 *	(docs/results.md lists the keys), the run directory's name, and what
 *	`tcprobe info` prints, as data: no query of the host or the GPU here
 *	(harness/measure/provenance-live.h collects them).
 */
#ifndef TCP_PROVENANCE_H
#define TCP_PROVENANCE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TCP_PROV_MAX	 96	/* keys */
#define TCP_PROV_KEYLEN	 48	/* NUL included */
#define TCP_PROV_VALLEN	 1024	/* NUL included; longer values are cut, ending in "..." */

typedef struct {
	int n;
	char key[TCP_PROV_MAX][TCP_PROV_KEYLEN];
	char val[TCP_PROV_MAX][TCP_PROV_VALLEN];
} tcp_prov_t;

/* Empty *p. */
void tcp_prov_init(tcp_prov_t *p);

/* Set key to val (replace if present, else append in order).  val NULL is
 * stored as "NA".  0; -1 when the table is full or key too long/empty. */
int tcp_prov_set(tcp_prov_t *p, const char *key, const char *val);

/* printf-style tcp_prov_set. */
int tcp_prov_setf(tcp_prov_t *p, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Value of key, NULL when absent. */
const char *tcp_prov_get(const tcp_prov_t *p, const char *key);

/* Copy every key of src into dst, named prefix+key ("gpu1." for the second
 * GPU of a multi-GPU run); prefix NULL or "" copies as is.  0 / -1 (full). */
int tcp_prov_merge(tcp_prov_t *dst, const tcp_prov_t *src, const char *prefix);

/* This binary's tcprobe version, git commit and dirty flag (1: built from a tree with
 * uncommitted changes): what tcp_prov_collect_host records for a run, and what a
 * report stamps as the tcprobe that drew it. */
const char *tcp_build_version(void);
const char *tcp_build_commit(void);
int tcp_build_dirty(void);

/* Current UTC time as ISO 8601 "2026-11-29T18:20:05Z" into buf; returns buf. */
char *tcp_prov_utc_now(char *buf, size_t len);

/* Write p as provenance.csv (key,value; atomic rename).  0 / -1 with err. */
int tcp_prov_write(const tcp_prov_t *p, const char *path, char *err, size_t errlen);

/* Read a provenance.csv back (for compare/report).  0 / -1 with err. */
int tcp_prov_read(tcp_prov_t *p, const char *path, char *err, size_t errlen);

/*
 * tcp_results_dir_name()
 *	"<base>/<YYYY-MM-DD>-<gpu_name>-<driver_version>-<host>" from p's
 *	started_utc, gpu_name, driver_version, host (NA values become
 *	"nogpu", "nodriver", "nohost"); each part sanitised to letters,
 *	digits, '.', '_', '-' (anything else becomes '_', runs collapsed).
 *	When the path exists, "-2", "-3", ... is appended until it does not.
 *	base NULL means "results".  Does not create it.  0; -1 when len is
 *	too small.
 */
int tcp_results_dir_name(char *buf, size_t len, const char *base, const tcp_prov_t *p);

#ifdef __cplusplus
}
#endif
#endif /* TCP_PROVENANCE_H */
