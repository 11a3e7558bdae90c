/*
 * report-render.c
 *	tcp_report_render(): every plot of a run drawn into its directory, PNG
 *	and SVG, by gnuplot run on plots/<stem>.gp: the data extracted into a
 *	temporary directory (tcp_report_extract), gnuplot run once per image
 *	and format, the SVG's <title> and <desc> replaced by the plot's own
 *	(<image>.svgmeta).  A plot without data is not drawn and its old images
 *	go; a plot of several images loses its old images before it is drawn.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/analyze/report-int.h"
#include "harness/store/infile.h"

#define PATHLEN 4096

static void remove_glob(const char *pattern)
{
	glob_t g;

	if (glob(pattern, 0, NULL, &g) == 0)
		for (size_t i = 0; i < g.gl_pathc; i++)
			unlink(g.gl_pathv[i]);
	globfree(&g);
}

/* The old images of plot stem in dir: <stem>.png/.svg and <stem>-*.png/.svg. */
static void remove_images(const char *dir, const char *stem)
{
	static const char *const pat[] = { "%s/%s.png", "%s/%s.svg", "%s/%s-*.png", "%s/%s-*.svg" };
	char p[PATHLEN];

	for (int i = 0; i < 4; i++) {
		snprintf(p, sizeof(p), pat[i], dir, stem);
		remove_glob(p);
	}
}

/* gnuplot -e VARS plotsdir/stem.gp, its stderr into log; its exit status, -1 not started. */
static int gnuplot_run(const char *gnuplot, const char *vars, const char *script, const char *log)
{
	pid_t pid;
	int st;

	fflush(NULL);
	if ((pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0)
			dup2(fd, 2);
		execlp(gnuplot, gnuplot, "-e", vars, script, (char *)NULL);
		fprintf(stderr, "%s: %s\n", gnuplot, strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* First two lines of path (the SVG's title and desc), 0 when both read. */
static int read_svgmeta(const char *path, char *t, size_t tl, char *d, size_t dl)
{
	FILE *f = fopen(path, "r");
	int ok = f && fgets(t, (int)tl, f) && fgets(d, (int)dl, f);

	if (f)
		fclose(f);
	if (!ok)
		return -1;
	t[strcspn(t, "\n")] = 0;
	d[strcspn(d, "\n")] = 0;
	return 0;
}

/* gnuplot writes <title>Gnuplot</title> and <desc>Produced by GNUPLOT ...</desc>:
 * the first of each becomes the plot's own. */
static void svg_retitle(const char *svg, const char *meta)
{
	char t[1024], d[4096], line[8192];
	FILE *in, *out;
	char tmp[PATHLEN + 8];
	int dt = 0, dd = 0;

	if (read_svgmeta(meta, t, sizeof(t), d, sizeof(d)) || !(in = fopen(svg, "r")))
		return;
	snprintf(tmp, sizeof(tmp), "%s.new", svg);
	if (!(out = fopen(tmp, "w"))) {
		fclose(in);
		return;
	}
	while (fgets(line, sizeof(line), in)) {
		if (!dt && !strncmp(line, "<title>", 7)) {
			fprintf(out, "<title>%s</title>\n", t);
			dt = 1;
		} else if (!dd && !strncmp(line, "<desc>", 6)) {
			fprintf(out, "<desc>%s</desc>\n", d);
			dd = 1;
		} else {
			fputs(line, out);
		}
	}
	fclose(in);
	if (fclose(out) == 0)
		rename(tmp, svg);
	else
		unlink(tmp);
}

/* One image of plot i in both formats; 0 drawn, -1 failed (said on stderr). */
static int render(const char *run, const char *tmp, const char *plotsdir, const char *gnuplot, int i,
		  const char *image, int panel)
{
	static const char *const fmts[] = { "png", "svg" };
	char vars[3 * PATHLEN], script[PATHLEN], out[PATHLEN], log[PATHLEN], meta[PATHLEN];
	int ok = 1;

	snprintf(script, sizeof(script), "%s/%s.gp", plotsdir, tcp_plot_stem(i));
	for (int f = 0; f < 2; f++) {
		snprintf(out, sizeof(out), "%s/%s.%s", run, image, fmts[f]);
		snprintf(log, sizeof(log), "%s/%s.%s.log", tmp, image, fmts[f]);
		int n = snprintf(vars, sizeof(vars), "datadir='%s'; out='%s'; fmt='%s'; plotsdir='%s'", tmp, out,
				 fmts[f], plotsdir);
		if (panel && n > 0 && (size_t)n < sizeof(vars))
			snprintf(vars + n, sizeof(vars) - (size_t)n, "; panel=%d", panel);
		if (gnuplot_run(gnuplot, vars, script, log) != 0) {
			fprintf(stderr, "tcprobe report: %s.%s: gnuplot failed:\n", image, fmts[f]);
			size_t len;
			char e[256], *text = tcp_file_read(log, &len, e, sizeof(e));
			for (char *l = text; l && *l;) {
				char *nl = strchr(l, '\n');
				fprintf(stderr, "    %.*s\n", nl ? (int)(nl - l) : (int)strlen(l), l);
				l = nl ? nl + 1 : NULL;
			}
			free(text);
			unlink(out);
			ok = 0;
		} else if (f == 1) {
			snprintf(meta, sizeof(meta), "%s/%s.svgmeta", tmp, image);
			if (access(meta, R_OK) == 0)
				svg_retitle(out, meta);
		}
	}
	return ok ? 0 : -1;
}

int tcp_report_render(const tcp_run_t *r, const char *run, const char *compare, const char *gnuplot,
		      const char *plotsdir, char *err, size_t len)
{
	tcp_plot_state_t *st = calloc(TCP_PLOTS_MAX, sizeof(*st));
	char tmp[] = "/tmp/tcprobe-plots-XXXXXX", cmd[PATHLEN], b[512], gp[PATHLEN];
	int drawn = 0, skipped = 0, failed = 0;

	if (!st)
		return tcp_errf(err, len, "out of memory");
	if (!mkdtemp(tmp)) {
		free(st);
		return tcp_errf(err, len, "%s: %s", tmp, strerror(errno));
	}
	if (tcp_report_extract(r, compare, tmp, st, err, len)) {
		failed = -1;
		goto out;
	}
	for (int i = 0; i < tcp_nplots(); i++) {
		const char *stem = tcp_plot_stem(i), *note = rpt_tq(st[i].note, b, sizeof(b));
		if (!st[i].has_data) {
			remove_images(run, stem);
			printf("  %s: not drawn: %s\n", stem, note);
			skipped++;
			continue;
		}
		snprintf(gp, sizeof(gp), "%s/%s.gp", plotsdir, stem);
		if (access(gp, R_OK) != 0) {
			fprintf(stderr, "tcprobe report: %s missing\n", gp);
			failed++;
			continue;
		}
		if (!st[i].nimages) {
			if (render(run, tmp, plotsdir, gnuplot, i, stem, 0) == 0) {
				printf("  %s: %s/%s.png, .svg (%s)\n", stem, run, stem, note);
				drawn++;
			} else {
				failed++;
			}
			continue;
		}
		remove_images(run, stem);
		int bad = 0;
		for (int k = 0; k < st[i].nimages; k++)
			bad += render(run, tmp, plotsdir, gnuplot, i, st[i].image[k], k + 1) != 0;
		if (!bad) {
			printf("  %s: %d images, %s/%s-*.png, .svg (%s)\n", stem, st[i].nimages, run, stem, note);
			drawn++;
		} else {
			failed++;
		}
	}
	printf("plots: %d drawn, %d without data, %d failed, in %s\n", drawn, skipped, failed, run);
out:
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);	/* mkdtemp's name: no quote in it */
	if (system(cmd) != 0)
		fprintf(stderr, "tcprobe report: could not remove %s\n", tmp);
	free(st);
	return failed;
}
