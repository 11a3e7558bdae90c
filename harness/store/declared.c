/*
 * declared.c
 *	probes.csv written and read; lookups that fall back to the frozen
 *	declarations of runs written before version 3 (declared.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/store/declared.h"

int tcp_probes_write(const tcp_probe_info_t *p, int n, const char *path, char *err, size_t len)
{
	static const char *const header[] = { "probe", "family", "targets", "axes", "help" };
	const char **cells = calloc((size_t)n * 5 + 1, sizeof(*cells));
	char tmp[1100];
	tcp_csv_writer_t *w;
	int rc;

	if (!cells)
		return tcp_errf(err, len, "%s: out of memory", path);
	for (int i = 0; i < n; i++) {
		cells[i * 5] = p[i].probe;
		cells[i * 5 + 1] = p[i].family;
		cells[i * 5 + 2] = p[i].targets;
		cells[i * 5 + 3] = p[i].axes;
		cells[i * 5 + 4] = p[i].help;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (!(w = tcp_csv_open(tmp, header, 5, 0, err, len))) {
		free(cells);
		return -1;
	}
	rc = tcp_csv_write_rows(w, cells, n);
	free(cells);
	if (tcp_csv_close(w) || rc || rename(tmp, path)) {
		int e = errno;
		remove(tmp);
		return tcp_errf(err, len, "%s: %s", path, strerror(e));
	}
	return 0;
}

int tcp_probes_load(const char *path, tcp_probes_file_t *f, char *err, size_t len)
{
	static const char *const need[] = { "probe", "family", "targets", "axes", "help", NULL };
	FILE *probe = fopen(path, "r");

	memset(f, 0, sizeof(*f));
	if (!probe)
		return errno == ENOENT ? 0 : tcp_errf(err, len, "%s: %s", path, strerror(errno));
	fclose(probe);
	if (tcp_table_load(path, &f->t, err, len))
		return -1;
	for (int i = 0; need[i]; i++)
		if (tcp_table_col(&f->t, need[i]) < 0) {
			tcp_table_free(&f->t);
			return tcp_errf(err, len, "%s:1: missing required column '%s'", path, need[i]);
		}
	f->loaded = 1;
	return 0;
}

void tcp_probes_free(tcp_probes_file_t *f)
{
	if (f && f->loaded)
		tcp_table_free(&f->t);
	if (f)
		f->loaded = 0;
}

int tcp_probes_find(const tcp_probes_file_t *f, const char *probe, tcp_probe_info_t *out)
{
	if (f && f->loaded) {
		for (int i = 0; i < f->t.nrows; i++)
			if (!strcmp(tcp_table_get(&f->t, i, "probe"), probe)) {
				*out = (tcp_probe_info_t){
					.probe = tcp_table_get(&f->t, i, "probe"),
					.family = tcp_table_get(&f->t, i, "family"),
					.targets = tcp_table_get(&f->t, i, "targets"),
					.axes = tcp_table_get(&f->t, i, "axes"),
					.help = tcp_table_get(&f->t, i, "help"),
				};
				return 0;
			}
		return -1;
	}
	for (int i = 0; tcp_declared_old_probes[i].probe; i++)
		if (!strcmp(tcp_declared_old_probes[i].probe, probe)) {
			*out = tcp_declared_old_probes[i];
			return 0;
		}
	return -1;
}

const char *tcp_probe_axis_default(const tcp_probe_info_t *p, const char *name, size_t nlen, char *buf,
				   size_t len)
{
	for (const char *s = p->axes; s && *s;) {
		size_t l = strcspn(s, ";");
		const char *eq = memchr(s, '=', l);
		if (eq && (size_t)(eq - s) == nlen && !strncmp(s, name, nlen)) {
			size_t vl = l - nlen - 1;
			if (!vl || vl >= len || memchr(eq + 1, ',', vl) || memchr(eq + 1, '[', vl) ||
			    memchr(eq + 1, ']', vl) || memchr(eq + 1, ':', vl))
				return NULL;
			memcpy(buf, eq + 1, vl);
			buf[vl] = 0;
			return buf;
		}
		s += l;
		while (*s == ';' || *s == ' ')
			s++;
	}
	return NULL;
}

const tcp_meta_t *tcp_declared_metric(const tcp_meta_set_t *meta, const char *probe, const char *metric)
{
	if (meta) {
		const tcp_meta_t *m = tcp_meta_find(meta, probe, metric);
		return m && strcmp(m->probe, TCP_META_ANY) ? m : NULL;
	}
	for (int i = 0; tcp_declared_old_metrics[i].probe; i++)
		if (!strcmp(tcp_declared_old_metrics[i].probe, probe) &&
		    !strcmp(tcp_declared_old_metrics[i].metric, metric))
			return &tcp_declared_old_metrics[i];
	return NULL;
}

const tcp_meta_t *tcp_declared_first_metric(const tcp_meta_set_t *meta, const char *probe)
{
	if (meta) {
		for (int i = 0; i < tcp_meta_set_count(meta); i++)
			if (!strcmp(tcp_meta_set_get(meta, i)->probe, probe))
				return tcp_meta_set_get(meta, i);
		return NULL;
	}
	for (int i = 0; tcp_declared_old_metrics[i].probe; i++)
		if (!strcmp(tcp_declared_old_metrics[i].probe, probe))
			return &tcp_declared_old_metrics[i];
	return NULL;
}
