/*
 * metrics.h
 *	A run's metric metadata, DIR/metrics.csv (docs/results.md,
 *	"metrics.csv"): per (probe, metric) its unit, the role compare judges it
 *	by (gated, time, info), its direction, whether it is its point's SM
 *	clock, its quantum and absolute floor, and its one-line doc.  The sweep
 *	writes it beside measurements.csv; the run model (run.h) reads it back;
 *	compare takes the roles of a pair from it.  The rows the harness adds to
 *	any probe's points (CUPTI counters, energy, the CUPTI timer, emulation)
 *	are described once, under probe "*".
 *
 *	What is derived where a probe declares nothing (tcp_metric_t's trailing
 *	fields left zero):
 *	  role       from the unit: ns, us, ms, s, Hz, kHz, MHz, GHz and any x/s
 *	             rate -> time; every other unit -> gated; info is never
 *	             derived (a probe or the harness table below declares it)
 *	  clock      kernel for a probe metric declared TCP_ROLE_CLOCK; cupti for
 *	             the CUPTI SM clock counter (harness table); else none
 *	  floor      the harness table's for the counter pass's duration and
 *	             cycle counts (one sample each: launch jitter); else none
 *	  direction  the probe's higher_is_better; for harness rows the unit
 *	             (cycles, ns, us, ms, s, J, mJ, pJ/FLOP ... lower; MHz, GHz,
 *	             FLOP and any x/s or x/clk rate higher; else unknown)
 *	  quantum, floor  0 (none) unless declared
 */
#ifndef TCP_METRICS_H
#define TCP_METRICS_H

#include <stddef.h>
#include <stdio.h>

#include "probes/common/probe.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TCP_META_VERSION	1		/* metrics.csv's `meta_version` */
#define TCP_META_FILE		"metrics.csv"
#define TCP_META_ANY		"*"		/* probe of a row the harness adds to every probe */

/* Where a clock metric is read: its point's time-domain rows are judged against it. */
typedef enum {
	TCP_CLOCK_NONE = 0,
	TCP_CLOCK_KERNEL,	/* in-kernel: clock64 cycles over %globaltimer ns (preferred) */
	TCP_CLOCK_CUPTI		/* the counter pass's SM clock */
} tcp_clock_src_t;

/* One described metric.  role is TCP_ROLE_GATED, _TIME or _INFO (never AUTO
 * or CLOCK: a clock is TIME with clock != NONE). */
typedef struct {
	const char *probe;		/* TCP_META_ANY for a harness row */
	const char *metric, *unit;
	tcp_role_t role;
	tcp_clock_src_t clock;
	int better;			/* 1 higher is better, 0 lower, -1 unknown */
	double quantum, abs_floor;	/* in the unit; 0 = none */
	const char *doc;
} tcp_meta_t;

/* A set of described metrics (owns copies of its strings), searchable by
 * (probe, metric). */
typedef struct tcp_meta_set tcp_meta_set_t;

tcp_meta_set_t *tcp_meta_set_new(void);		/* NULL out of memory */
void tcp_meta_set_free(tcp_meta_set_t *s);
int tcp_meta_set_count(const tcp_meta_set_t *s);
const tcp_meta_t *tcp_meta_set_get(const tcp_meta_set_t *s, int i);	/* in the order added */
/* Add a copy of m unless (m->probe, m->metric) is there: 1 added, 0 already
 * there (unchanged), -1 out of memory. */
int tcp_meta_set_add(tcp_meta_set_t *s, const tcp_meta_t *m);
/* The entry of (probe, metric): the probe's own, else the TCP_META_ANY one;
 * NULL when neither (s may be NULL). */
const tcp_meta_t *tcp_meta_find(const tcp_meta_set_t *s, const char *probe, const char *metric);

/* The role and direction a unit implies (the derivation above). */
tcp_role_t tcp_meta_role_of_unit(const char *unit);
int tcp_meta_better_of_unit(const char *unit);

/* A probe metric's entry: its declaration, the rest derived.  Strings point
 * into m (and probe). */
void tcp_meta_from_metric(const char *probe, const tcp_metric_t *m, tcp_meta_t *out);
/* A harness row's entry (probe TCP_META_ANY): the harness table's when it
 * knows the metric, else derived from the unit.  Strings point into the
 * arguments or the table. */
void tcp_meta_from_harness(const char *metric, const char *unit, tcp_meta_t *out);
/* A row no metadata describes (a run that predates metrics.csv, a metric
 * new to both): derived from its unit alone, as tcp_meta_from_harness. */
#define tcp_meta_from_unit tcp_meta_from_harness

/* Every metric of probes[0..n), then every harness row the table knows:
 * what `tcprobe list --metrics` prints.  0, or -1 out of memory. */
int tcp_meta_add_probes(tcp_meta_set_t *s, const tcp_probe_t *const *probes, int n);
int tcp_meta_add_harness(tcp_meta_set_t *s);

/* The set as metrics.csv text on f (header first).  0, or -1 on a write error. */
int tcp_meta_print(const tcp_meta_set_t *s, FILE *f);
/* The set into path, through path.tmp and a rename: a reader never sees half
 * a file.  0, or -1 with the reason in err. */
int tcp_meta_write(const tcp_meta_set_t *s, const char *path, char *err, size_t len);
/* The name a metric has in this schema: the tcgen05 probes' `pct_of_peak`
 * of the runs written before version 3 reads as `pct_peak`, the one name of
 * a point's percentage of its published peak; every other name as it is.
 * The run model reads every metric name through it (rows and metrics.csv). */
const char *tcp_meta_current_name(const char *metric);

/* Read a metrics.csv (a torn last line is dropped, as every reader does).
 * 0 with *out set, or -1 with "path:line: what is wrong" in err. */
int tcp_meta_load(const char *path, tcp_meta_set_t **out, char *err, size_t len);

/* "gated", "time", "info" ("?" for AUTO / CLOCK, which never reach a file). */
const char *tcp_role_name(tcp_role_t r);
/* "kernel", "cupti", "" */
const char *tcp_clock_src_name(tcp_clock_src_t c);
/* 1 for a row of the counter pass (`cupti/<metric>`, docs/results.md): its
 * time-domain rows are set against the CUPTI clock of the same pass. */
int tcp_meta_counter_row(const char *metric);

#ifdef __cplusplus
}
#endif
#endif /* TCP_METRICS_H */
