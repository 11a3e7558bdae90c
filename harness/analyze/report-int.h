/*
 * report-int.h
 *	What the files of `tcprobe report` share, private to harness/analyze/report*.c:
 *	  report.c         the document: its sections, in one table walked for
 *	                   markdown and for HTML; best points of a probe
 *	  report-plots.c   the plot table and the one loop that extracts each
 *	                   plot's data files
 *	  report-timers.c  the --timer cupti section and timer-compare.csv
 *	  report-doc.c     the markdown/HTML primitives every section writes with
 */
#ifndef TCP_REPORT_INT_H
#define TCP_REPORT_INT_H

#include <stddef.h>
#include <stdio.h>

#include "harness/analyze/report.h"

#define NSTATUS 6	/* TCP_OK .. TCP_UNSUPPORTED */

/* printf into a file; remembers the first failure.  f NULL: writes nothing. */
struct out {
	FILE *f;
	int bad;
};

void rpt_outf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* dir/stem.ext for writing (dir NULL: a no-op writer); 0, or -1 with the reason. */
int rpt_open(struct out *o, const char *dir, const char *stem, const char *ext, char *err, size_t len);
/* Close; -1 with the reason when any write or the close failed. */
int rpt_close(struct out *o, const char *dir, const char *stem, const char *ext, char *err, size_t len);

/* The two formats (html 0: markdown): escaped text, tables, headings, paragraphs. */
void rpt_md(struct out *o, const char *s);
void rpt_html(struct out *o, const char *s);
void rpt_txt(struct out *o, int html, const char *s);
const char *rpt_num(double v, char *buf, size_t len, const char *f);	/* "-" when not finite */
void rpt_tab_begin(struct out *o, int html, const char *const *h, int n);
void rpt_tab_row(struct out *o, int html, const char *const *c, int n);
void rpt_tab_end(struct out *o, int html);
void rpt_heading(struct out *o, int html, int level, const char *text, const char *id);
void rpt_para(struct out *o, int html, const char *text);
/* Anchor of a heading as GitHub renders markdown: lower case, ' ' -> '-', punctuation dropped. */
void rpt_slug(const char *text, char *buf, size_t len);

/* Bytes of a whole file, NULL when unreadable (or larger than 64 MiB). */
unsigned char *rpt_slurp(const char *path, size_t *n);
int rpt_file_exists(const char *dir, const char *stem, const char *ext);
int rpt_in_list(const char *s, const char *const *list);	/* s in a NULL-terminated list */

/* A point's MMA kind (tcp_kind_t, -1) and generation (90, 100, 0) as the report reads them. */
int rpt_point_kind(const tcp_run_point_t *p);
int rpt_point_gen(const tcp_run_t *r, const tcp_run_point_t *p);
double rpt_published_peak(int kind, int gen);	/* dense FLOP/clk/SM, NaN when none */
int rpt_is_flop_rate(const char *unit);

/* report-timers.c */
int rpt_timer_csv(const tcp_timer_row_t *t, int n, const char *dir, char *err, size_t len);
void rpt_timer_section(struct out *o, int html, const tcp_run_t *r, const char *dir,
		       const tcp_timer_row_t *t, int n);

#endif /* TCP_REPORT_INT_H */
