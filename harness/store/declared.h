/*
 * declared.h
 *	What a run's probes declared, read from the run itself: DIR/probes.csv
 *	(per probe its family, the targets its code was built for, its axes with
 *	their defaults and its one-line help; docs/results.md, "probes.csv"),
 *	written by the sweep when the run starts, beside metrics.csv (metrics.h).
 *	A run written before version 3 has no probes.csv (and most have no
 *	metrics.csv): the run model answers for it from the declarations of that
 *	time, frozen in declared-old.c.  Readers of runs (analyze/) ask these,
 *	never the probe registry of their own binary, so that an archived run
 *	reads the same with a binary that lacks its probes.
 */
#ifndef TCP_DECLARED_H
#define TCP_DECLARED_H

#include <stddef.h>

#include "harness/store/csvio.h"
#include "harness/store/metrics.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TCP_PROBES_FILE		"probes.csv"

/* One probe as probes.csv holds it. */
typedef struct {
	const char *probe, *family;
	const char *targets;	/* the targets its code was built for: "sm_90a,sm_100a" */
	const char *axes;	/* "name=default; name=default" (sweep syntax) */
	const char *help;	/* one line */
} tcp_probe_info_t;

/* The frozen declarations (declared-old.c), each ending in a NULL probe. */
extern const tcp_meta_t tcp_declared_old_metrics[];
extern const tcp_probe_info_t tcp_declared_old_probes[];

/* probes.csv of rows p[0..n), through path.tmp and a rename.  0, or -1 with
 * the reason in err. */
int tcp_probes_write(const tcp_probe_info_t *p, int n, const char *path, char *err, size_t len);

/* A loaded probes.csv (or none: every lookup then answers from the frozen
 * declarations). */
typedef struct {
	int loaded;
	tcp_table_t t;
} tcp_probes_file_t;

/* Read path into f; a missing file leaves f unloaded.  0, or -1 with
 * "path:line: what" in err (a file that is there and does not read). */
int tcp_probes_load(const char *path, tcp_probes_file_t *f, char *err, size_t len);
void tcp_probes_free(tcp_probes_file_t *f);

/* The probe's entry (into *out): the file's when it is loaded, else the
 * frozen one.  0, or -1 when neither describes the probe. */
int tcp_probes_find(const tcp_probes_file_t *f, const char *probe, tcp_probe_info_t *out);

/* The default of axis name[0..nlen) of a described probe when that is a
 * single value ("f16", not "f16,bf16" or "[1:4]"), into buf; NULL otherwise. */
const char *tcp_probe_axis_default(const tcp_probe_info_t *p, const char *name, size_t nlen, char *buf,
				   size_t len);

/*
 * tcp_declared_metric()
 *	The entry of (probe, metric) in meta (a run's metrics.csv); where meta
 *	is NULL (a run that predates metrics.csv), the frozen declaration of a
 *	probe metric.  NULL when neither describes it (a harness row: then
 *	tcp_meta_from_harness()).
 */
const tcp_meta_t *tcp_declared_metric(const tcp_meta_set_t *meta, const char *probe, const char *metric);

/* The probe's first declared metric (meta's first entry of it, else the
 * frozen first), NULL when none. */
const tcp_meta_t *tcp_declared_first_metric(const tcp_meta_set_t *meta, const char *probe);

#ifdef __cplusplus
}
#endif
#endif /* TCP_DECLARED_H */
