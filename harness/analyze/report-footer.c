/*
 * report-footer.c
 *	The provenance every plot carries: the footer line (GPU, driver, CUDA,
 *	the run's unique id and directory, the tcprobe version and commit that
 *	measured it, dirty or not, and the commit that drew the plot) that
 *	plots/footer.gnuplot draws under each plot, the plot's own footnote (the
 *	runs it mixes, what in it is published or a model), and the SVG's
 *	<title>/<desc> text (<stem>.svgmeta, put in by scripts/plots.sh).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "harness/analyze/report-int.h"
#include "harness/store/provenance.h"

/* A commit and whether its tree was dirty: "<commit>", "<commit> (dirty)". */
static const char *commit_text(const char *commit, const char *dirty, char *b, size_t len)
{
	snprintf(b, len, "%s%s", commit ? commit : "?", !dirty ? " (git_dirty not recorded)" :
		 !strcmp(dirty, "0") ? "" : !strcmp(dirty, "1") ? " (dirty)" : " (git_dirty not recorded)");
	return b;
}

void rpt_run_commit(const tcp_run_t *r, char *b, size_t len)
{
	commit_text(tcp_run_prov(r, "git_commit"), tcp_run_prov(r, "git_dirty"), b, len);
}

void rpt_report_commit(char *b, size_t len)
{
	commit_text(tcp_build_commit(), tcp_build_dirty() ? "1" : "0", b, len);
}

/* The first footer line of every plot: the GPU and software it ran on, the run (its
 * unique id, then its directory), the tcprobe that measured it and the one that drew it. */
static void footer_text(const tcp_run_t *r, char *b, size_t len)
{
	const char *gpu = tcp_run_prov(r, "gpu_name"), *drv = tcp_run_prov(r, "driver_version");
	const char *cuda = tcp_run_prov(r, "cuda_runtime_version"), *ver = tcp_run_prov(r, "tcprobe_version");
	char uid[128], run[160], drew[160];

	rpt_run_commit(r, run, sizeof(run));
	rpt_report_commit(drew, sizeof(drew));
	snprintf(b, len, "%s | driver %s | CUDA %s | run %s (%s) | measured by tcprobe %s %s | drawn by tcprobe %s",
		 gpu ? gpu : "GPU not recorded", drv ? drv : "?", cuda ? cuda : "?", tcp_run_uid(r, uid, sizeof(uid)),
		 r->name, ver ? ver : "?", run, drew);
}

static void xml_cat(char *b, size_t len, const char *s)
{
	size_t n = strlen(b);

	for (; s && *s && n + 7 < len; s++) {
		const char *e = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : *s == '\n' ? " " : NULL;
		if (e)
			n += (size_t)snprintf(b + n, len - n, "%s", e);
		else
			b[n++] = *s;
	}
	b[n] = 0;
}

/* <image>.svgmeta: the SVG's <title> (the plot's title, what the image shows,
 * the footer) and <desc> (the footer, the note, the footnote), one line each. */
static int svgmeta(const char *dir, const char *image, int i, const char *what, const char *foot,
		   const tcp_plot_state_t *st, char *err, size_t len)
{
	char b[2400];
	struct out o;

	if (rpt_open(&o, dir, image, "svgmeta", err, len))
		return -1;
	b[0] = 0;
	xml_cat(b, sizeof(b), tcp_plot_title(i));
	if (what) {
		xml_cat(b, sizeof(b), ": ");
		xml_cat(b, sizeof(b), what);
	}
	xml_cat(b, sizeof(b), " -- ");
	xml_cat(b, sizeof(b), foot);
	rpt_outf(&o, "%s\n", b);
	b[0] = 0;
	xml_cat(b, sizeof(b), "tcprobe report: ");
	xml_cat(b, sizeof(b), foot);
	xml_cat(b, sizeof(b), ". ");
	xml_cat(b, sizeof(b), st->note);
	if (st->footnote[0]) {
		xml_cat(b, sizeof(b), ". ");
		xml_cat(b, sizeof(b), st->footnote);
	}
	rpt_outf(&o, "%s\n", b);
	return rpt_close(&o, dir, image, "svgmeta", err, len);
}

/* footer.gpvars (once), `footnote` appended to <stem>.gpvars, <stem>.svgmeta
 * or each image's <image>.svgmeta. */
int rpt_plot_footer(const tcp_run_t *r, const char *dir, int i, const tcp_plot_state_t *st, char *err, size_t len)
{
	char foot[1024], q[1200], path[4200];
	struct out o;
	FILE *f;

	footer_text(r, foot, sizeof(foot));
	if (rpt_open(&o, dir, "footer", "gpvars", err, len))
		return -1;
	rpt_outf(&o, "# footer: the provenance line of every plot (plots/footer.gnuplot)\nfooter = \"%s\"\n",
		 rpt_gq(foot, q, sizeof(q)));
	if (rpt_close(&o, dir, "footer", "gpvars", err, len))
		return -1;
	snprintf(path, sizeof(path), "%s/%s.gpvars", dir, tcp_plot_stem(i));
	if (!(f = fopen(path, "a")) || fprintf(f, "footnote = \"%s\"\n", rpt_gq(st->footnote, q, sizeof(q))) < 0 ||
	    fclose(f)) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!st->nimages)
		return svgmeta(dir, tcp_plot_stem(i), i, NULL, foot, st, err, len);
	for (int k = 0; k < st->nimages; k++)
		if (svgmeta(dir, st->image[k], i, st->image_title[k], foot, st, err, len))
			return -1;
	return 0;
}
