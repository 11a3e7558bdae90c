/*
 * test-rows.h
 *	What the tests share to build a run: its measurements.csv through the
 *	production writer (harness/store/rows.h), each row finished the way the
 *	sweep finishes it (supervisor-rows.c): the schema version, the axis
 *	columns from the `axes` key, the point's description from its axes;
 *	and the metric roles a run that carries none is judged by.  Header
 *	only, static.
 */
#ifndef TCP_TEST_ROWS_H
#define TCP_TEST_ROWS_H

#include <stdio.h>

#include "harness/store/declared.h"
#include "harness/store/describe.h"
#include "harness/store/rows.h"

/* A row's own storage for what test_row_finish() points it at. */
typedef struct {
	char schema[16];
	char axes[1024];
} test_row_buf_t;

/* r's schema (unless set), axis values (from its `axes` cell) and description
 * (family as set, else ""); b must outlive the write. */
static inline void test_row_finish(tcp_row_t *r, test_row_buf_t *b)
{
	tcp_point_desc_t d = { .family = r->c[TCP_COL_family] ? r->c[TCP_COL_family] : "" };

	if (!r->c[TCP_COL_schema]) {
		snprintf(b->schema, sizeof(b->schema), "%d", TCP_SCHEMA_VERSION);
		r->c[TCP_COL_schema] = b->schema;
	}
	tcp_row_axes_from_key(r, r->c[TCP_COL_axes], b->axes, sizeof(b->axes));
	tcp_describe_axes(r->naxes, r->an, r->av, &d);
	r->c[TCP_COL_family] = d.family;
	r->c[TCP_COL_mma_kind] = d.mma_kind;
	r->c[TCP_COL_a_type] = d.a_type;
	r->c[TCP_COL_b_type] = d.b_type;
	r->c[TCP_COL_acc_type] = d.acc_type;
	r->c[TCP_COL_mma_sparse] = d.sparse < 0 ? "" : d.sparse ? "1" : "0";
}

/* The header a writer of schema `version` put on measurements.csv: the fixed
 * columns of that version (columns.h), then axcols ("N,kind"; "" none), into
 * buf with its newline: for the files of older builds and for the malformed
 * files the readers must refuse. */
static inline const char *test_header(char *buf, size_t len, int version, const char *axcols)
{
	size_t o = 0;

	buf[0] = 0;
	for (int i = 0; i < TCP_NCOLS && o < len; i++)
		if (tcp_columns[i].version <= version)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? "," : "", tcp_columns[i].name);
	if (o < len)
		snprintf(buf + o, len - o, "%s%s\n", *axcols ? "," : "", axcols);
	return buf;
}

/*
 * The metric roles the probes declared when a run carried none (the frozen
 * declarations, harness/store/declared-old.c), then the rows the harness
 * adds: what `tcprobe list --metrics` prints for those probes, without the
 * probe registry, so that a host test needs no probe.  NULL out of memory.
 */
static inline tcp_meta_set_t *test_declared_roles(void)
{
	tcp_meta_set_t *s = tcp_meta_set_new();

	for (int i = 0; s && tcp_declared_old_metrics[i].probe; i++)
		if (tcp_meta_set_add(s, &tcp_declared_old_metrics[i]) < 0) {
			tcp_meta_set_free(s);
			return NULL;
		}
	if (s && tcp_meta_add_harness(s)) {
		tcp_meta_set_free(s);
		return NULL;
	}
	return s;
}

#endif /* TCP_TEST_ROWS_H */
