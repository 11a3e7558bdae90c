/*
 * report-doc.c
 *	The two document formats of `tcprobe report`: markdown and HTML written
 *	through one set of primitives (a paragraph, a heading with its anchor, a
 *	table, escaped text), so that every section is one function for both.
 *	Also the file helpers the writers share (open/close with the first error
 *	kept, whole-file read, base64 for the inlined PNGs).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/analyze/report-int.h"
#include "harness/store/infile.h"

void rpt_outf(struct out *o, const char *fmt, ...)
{
	va_list ap;

	if (!o->f)
		return;
	va_start(ap, fmt);
	if (vfprintf(o->f, fmt, ap) < 0)
		o->bad = 1;
	va_end(ap);
}

int rpt_open(struct out *o, const char *dir, const char *stem, const char *ext,
		    char *err, size_t len)
{
	char path[4096];

	o->bad = 0;
	o->f = NULL;
	if (!dir)
		return 0;
	snprintf(path, sizeof(path), "%s/%s.%s", dir, stem, ext);
	if (!(o->f = fopen(path, "w"))) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int rpt_close(struct out *o, const char *dir, const char *stem, const char *ext,
		     char *err, size_t len)
{
	if (!o->f)
		return 0;
	if (fclose(o->f) || o->bad) {
		snprintf(err, len, "%s/%s.%s: write failed", dir, stem, ext);
		return -1;
	}
	return 0;
}

/* A string as a gnuplot double-quoted literal (no quotes or backslashes survive). */
const char *rpt_gq(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	for (; s && *s && n + 1 < len; s++)
		buf[n++] = (*s == '"' || *s == '\\' || *s == '\n' || *s == '\t') ? '\'' : *s;
	buf[n] = 0;
	return buf;
}

/* A field for a tab-separated .dat cell: no tabs or newlines, never empty. */
const char *rpt_tq(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	for (; s && *s && n + 1 < len; s++)
		buf[n++] = (*s == '\t' || *s == '\n' || *s == '\r') ? ' ' : *s;
	if (!n && len > 1)
		buf[n++] = '-';
	buf[n] = 0;
	return buf;
}

/* ------------------------------------------------------------------ */
/* report.md and report.html                                           */
/* ------------------------------------------------------------------ */

void tcp_base64(const unsigned char *in, size_t n, char *out)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i, o = 0;

	for (i = 0; i + 2 < n; i += 3) {
		unsigned v = (unsigned)in[i] << 16 | (unsigned)in[i + 1] << 8 | in[i + 2];
		out[o++] = tab[v >> 18 & 63];
		out[o++] = tab[v >> 12 & 63];
		out[o++] = tab[v >> 6 & 63];
		out[o++] = tab[v & 63];
	}
	if (i < n) {
		unsigned v = (unsigned)in[i] << 16 | (i + 1 < n ? (unsigned)in[i + 1] << 8 : 0);
		out[o++] = tab[v >> 18 & 63];
		out[o++] = tab[v >> 12 & 63];
		out[o++] = i + 1 < n ? tab[v >> 6 & 63] : '=';
		out[o++] = '=';
	}
	out[o] = 0;
}

/* Text for a markdown table cell (| escaped, no newlines) or HTML (entities). */
void rpt_md(struct out *o, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|')
			rpt_outf(o, "\\|");
		else if (*s == '\n' || *s == '\r')
			rpt_outf(o, " ");
		else
			rpt_outf(o, "%c", *s);
	}
}

void rpt_html(struct out *o, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': rpt_outf(o, "&amp;"); break;
		case '<': rpt_outf(o, "&lt;"); break;
		case '>': rpt_outf(o, "&gt;"); break;
		case '"': rpt_outf(o, "&quot;"); break;
		default: rpt_outf(o, "%c", *s);
		}
	}
}

/* A cell either way: md 0/1. */
void rpt_txt(struct out *o, int html, const char *s)
{
	if (html)
		rpt_html(o, s);
	else
		rpt_md(o, s);
}

const char *rpt_num(double v, char *buf, size_t len, const char *f)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, f, v);
	return buf;
}

/* A table: header cells, then rows through row_cell / row_end. */
void rpt_tab_begin(struct out *o, int html, const char *const *h, int n)
{
	if (html) {
		rpt_outf(o, "<table>\n<thead><tr>");
		for (int i = 0; i < n; i++) {
			rpt_outf(o, "<th>");
			rpt_html(o, h[i]);
			rpt_outf(o, "</th>");
		}
		rpt_outf(o, "</tr></thead>\n<tbody>\n");
		return;
	}
	rpt_outf(o, "\n|");
	for (int i = 0; i < n; i++) {
		rpt_outf(o, " ");
		rpt_md(o, h[i]);
		rpt_outf(o, " |");
	}
	rpt_outf(o, "\n|");
	for (int i = 0; i < n; i++)
		rpt_outf(o, "---|");
	rpt_outf(o, "\n");
}

/* A table cell in HTML: escaped, with a line-break opportunity after each ';' (an
 * axes key has no space: without one it would push a printed table off the page). */
static void html_cell(struct out *o, const char *s)
{
	for (const char *p = s; p && *p;) {
		size_t n = strcspn(p, ";");
		char part[512];
		while (n) {
			size_t k = n < sizeof(part) - 1 ? n : sizeof(part) - 1;
			memcpy(part, p, k);
			part[k] = 0;
			rpt_html(o, part);
			p += k;
			n -= k;
		}
		if (*p == ';') {
			rpt_outf(o, ";<wbr>");
			p++;
		}
	}
}

void rpt_tab_row(struct out *o, int html, const char *const *c, int n)
{
	rpt_outf(o, html ? "<tr>" : "|");
	for (int i = 0; i < n; i++) {
		if (html) {
			rpt_outf(o, "<td>");
			html_cell(o, c[i]);
			rpt_outf(o, "</td>");
		} else {
			rpt_outf(o, " ");
			rpt_md(o, c[i]);
			rpt_outf(o, " |");
		}
	}
	rpt_outf(o, html ? "</tr>\n" : "\n");
}

void rpt_tab_end(struct out *o, int html)
{
	rpt_outf(o, html ? "</tbody>\n</table>\n" : "\n");
}

void rpt_heading(struct out *o, int html, int level, const char *text, const char *id)
{
	if (html) {
		rpt_outf(o, "<h%d id=\"%s\">", level, id ? id : "");
		rpt_html(o, text);
		rpt_outf(o, "</h%d>\n", level);
	} else {
		rpt_outf(o, "\n%.*s ", level, "######");
		rpt_md(o, text);
		rpt_outf(o, "\n\n");
	}
}

void rpt_para(struct out *o, int html, const char *text)
{
	rpt_outf(o, html ? "<p>" : "");
	rpt_txt(o, html, text);
	rpt_outf(o, html ? "</p>\n" : "\n\n");
}

/* Bytes of a whole file, NULL when unreadable, not a regular file (a FIFO
 * would block) or larger than 64 MiB. */
unsigned char *rpt_slurp(const char *path, size_t *n)
{
	char why[256];
	int fd = tcp_infile_open(path, "image", 64u << 20, why, sizeof(why));
	FILE *f = fd < 0 ? NULL : fdopen(fd, "rb");
	unsigned char *buf = NULL;
	long sz;

	if (!f) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) == 0 && (sz = ftell(f)) > 0 && sz < (64l << 20) &&
	    fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)sz))) {
		if (fread(buf, 1, (size_t)sz, f) != (size_t)sz) {
			free(buf);
			buf = NULL;
		} else {
			*n = (size_t)sz;
		}
	}
	fclose(f);
	return buf;
}

int rpt_file_exists(const char *dir, const char *stem, const char *ext)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s.%s", dir, stem, ext);
	return access(path, R_OK) == 0;
}

/* Slug of a heading as GitHub renders it: lower case, spaces to '-', punctuation dropped. */
void rpt_slug(const char *text, char *buf, size_t len)
{
	size_t n = 0;

	for (; *text && n + 1 < len; text++) {
		unsigned char c = (unsigned char)*text;
		if (isalnum(c) || c == '_' || c == '-')
			buf[n++] = (char)tolower(c);
		else if (c == ' ')
			buf[n++] = '-';
	}
	buf[n] = 0;
}

int rpt_in_list(const char *s, const char *const *list)
{
	for (int i = 0; list && list[i]; i++)
		if (!strcmp(s, list[i]))
			return 1;
	return 0;
}
