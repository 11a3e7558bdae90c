/*
 * cmd-list.c
 *	`tcprobe list`: the probe registry as a table (or CSV): name, family,
 *	arch, axes with their defaults, metrics with units; --probe NAME gives
 *	the full descriptor; --metrics every metric's role as metrics.csv
 *	(harness/store/metrics.h).  Everything shown is read from the
 *	descriptors.
 */
#include <stdio.h>
#include <string.h>

#include "harness/store/csvio.h"
#include "harness/store/metrics.h"
#include "harness/store/columns.h"
#include "harness/sweep/emulate.h"
#include "probes/common/probe.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tcprobe list [--arch TARGET|host] [--probe NAME] [--csv | --metrics] | --columns\n"
		"List the probes: family, the GPU targets they are written for, axes (default\n"
		"values in sweep syntax) and metrics (units).  No GPU needed.\n"
		"  --arch TARGET  only probes written for TARGET (sm_90a, sm_100a, sm_103a, sm_110a,\n"
		"                 ...; 'host' = host-only), each with whether this build holds its\n"
		"                 code for TARGET and, if not, why and how to rebuild; the points a\n"
		"                 target lacks: tcprobe run --dry-run --arch TARGET\n"
		"  --probe NAME   the full descriptor of one probe\n"
		"  --csv          CSV on stdout (one row per probe, or per axis/metric with --probe)\n"
		"  --metrics      every metric's role as a run's metrics.csv holds it (docs/results.md):\n"
		"                 the probes' (with --probe: that one's), then the rows the harness adds\n"
		"                 (counters, timer, energy) under probe '*'; `tcprobe compare --roles`\n"
		"                 reads it\n"
		"  --columns      measurements.csv's fixed columns as docs/results.md's markdown\n"
		"                 table (name, type, the schema version that added it, meaning)\n"
		"  -h, --help     this text\n");
}

/* Host-only probes match "host" alone; GPU probes the targets of their set. */
static int runs_on(const tcp_probe_t *p, const char *arch, const tcp_target_info_t *t)
{
	if (!arch)
		return 1;
	if (!strcmp(arch, "host"))
		return p->arch == TCP_ARCH_HOST;
	return t && (p->arch & TCP_TGT_BIT(t->id));
}

/* "built" or why this binary cannot run the probe on t (the rebuild). */
static const char *built_str(const tcp_probe_t *p, const tcp_target_info_t *t, char *buf, size_t len)
{
	return tcp_emu_built(p->arch, t, tcp_emulate_build(), tcp_build_targets(), tcp_build_left_out(), buf, len);
}

static void csv_field(const char *s, int last)
{
	char buf[2048];
	fputs(tcp_csv_quote(s ? s : "", buf, sizeof(buf)), stdout);
	fputc(last ? '\n' : ',', stdout);
}

/* "N=[8:256:8];kind=f16,bf16" */
static const char *axes_str(const tcp_probe_t *p, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (int a = 0; a < p->naxes; a++)
		o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%s=%s", a ? "; " : "",
				      p->axes[a].name, p->axes[a].def ? p->axes[a].def : "");
	return buf;
}

/* "sm_clock_mhz [MHz]; kernel_ns [ns]" */
static const char *metrics_str(const tcp_probe_t *p, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (int m = 0; m < p->nmetrics; m++)
		o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%s [%s]", m ? "; " : "",
				      p->metrics[m].name, p->metrics[m].unit);
	return buf;
}

/* Value names of an enumerated axis, joined by sep (truncated to len). */
static const char *names_str(const tcp_axis_t *ax, const char *sep, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (int i = 0; ax->names && ax->names[i]; i++)
		o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%s", i ? sep : "", ax->names[i]);
	return buf;
}

/* --metrics: the roles of probes[0..n) (and the harness's rows) as metrics.csv. */
static int print_metrics(const tcp_probe_t *const *probes, int n, int harness)
{
	tcp_meta_set_t *s = tcp_meta_set_new();
	int bad = !s || tcp_meta_add_probes(s, probes, n) || (harness && tcp_meta_add_harness(s)) ||
		  tcp_meta_print(s, stdout);
	tcp_meta_set_free(s);
	if (bad)
		fprintf(stderr, "tcprobe: list: --metrics: out of memory or a write error\n");
	return bad ? 1 : 0;
}

static void detail(const tcp_probe_t *p, int csv)
{
	char nb[1024];
	if (csv) {
		printf("probe,family,arch,item,name,values,unit,help\n");
		for (int a = 0; a < p->naxes; a++) {
			const tcp_axis_t *ax = &p->axes[a];
			csv_field(p->name, 0), csv_field(p->family, 0), csv_field(tcp_arch_name(p->arch), 0);
			csv_field("axis", 0), csv_field(ax->name, 0);
			csv_field(ax->names ? names_str(ax, ",", nb, sizeof(nb)) : "integer", 0);
			csv_field(ax->def, 0), csv_field(ax->help, 1);
		}
		for (int m = 0; m < p->nmetrics; m++) {
			const tcp_metric_t *mt = &p->metrics[m];
			csv_field(p->name, 0), csv_field(p->family, 0), csv_field(tcp_arch_name(p->arch), 0);
			csv_field("metric", 0), csv_field(mt->name, 0);
			csv_field(mt->higher_is_better ? "higher is better" : "lower is better", 0);
			csv_field(mt->unit, 0), csv_field(mt->help, 1);
		}
		return;
	}
	printf("%s: %s\n", p->name, p->help);
	printf("  family  %s\n  arch    %s\n", p->family, tcp_arch_name(p->arch));
	if (p->unsupported_reason)
		printf("  not runnable in this build: %s\n", p->unsupported_reason);
	printf("  legality filter: %s\n", p->legal ? "yes (illegal points are SKIPPED)" : "none");
	printf("axes (sweep with --set AXIS=VALUES):\n");
	for (int a = 0; a < p->naxes; a++) {
		const tcp_axis_t *ax = &p->axes[a];
		printf("  %-16s %s\n  %-16s values: %s; default %s\n", ax->name, ax->help, "",
		       ax->names ? names_str(ax, ", ", nb, sizeof(nb)) : "integers", ax->def);
	}
	printf("metrics:\n");
	for (int m = 0; m < p->nmetrics; m++)
		printf("  %-22s %-12s %-6s %s\n", p->metrics[m].name, p->metrics[m].unit,
		       p->metrics[m].higher_is_better ? "higher" : "lower", p->metrics[m].help);
}

int tcp_cmd_list(int argc, char **argv)
{
	const char *arch = NULL, *probe = NULL;
	const tcp_target_info_t *tgt = NULL;
	int csv = 0, metrics = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--csv")) {
			csv = 1;
		} else if (!strcmp(a, "--metrics")) {
			metrics = 1;
		} else if (!strcmp(a, "--columns")) {
			return tcp_columns_markdown(stdout) ? 1 : 0;
		} else if (!strcmp(a, "--arch") || !strncmp(a, "--arch=", 7) || !strcmp(a, "--probe") ||
			   !strncmp(a, "--probe=", 8)) {
			int is_arch = a[2] == 'a';
			const char *v = strchr(a, '=');
			if (v) {
				v++;
			} else if (i + 1 < argc) {
				v = argv[++i];
			} else {
				fprintf(stderr, "tcprobe: list: %s needs a value: got nothing, expected %s\n",
					a, is_arch ? "a GPU target (sm_103a) or host" : "a probe name");
				return 2;
			}
			if (is_arch) {
				if (strcmp(v, "host") && !(tgt = tcp_target_find(v))) {
					char tl[256];
					fprintf(stderr, "tcprobe: list: --arch: got '%s', expected host or one of %s\n", v,
						tcp_target_list((1u << TCP_TGT_COUNT) - 1, tl, sizeof(tl)));
					return 2;
				}
				arch = v;
			} else {
				probe = v;
			}
		} else {
			fprintf(stderr, "tcprobe: list: unknown argument: got '%s', expected --arch, --probe, --csv, --metrics, --columns or --help\n",
				a);
			return 2;
		}
	}
	if (probe) {
		const tcp_probe_t *p = tcp_probe_find(probe);
		if (!p) {
			char nb[1024];
			size_t o = 0;
			nb[0] = '\0';
			for (int i = 0; i < tcp_nprobes; i++)
				o += (size_t)snprintf(nb + o, o < sizeof(nb) ? sizeof(nb) - o : 0, "%s%s",
						      i ? ", " : "", tcp_probes[i]->name);
			fprintf(stderr, "tcprobe: list: --probe: unknown probe: got '%s', expected one of %s\n",
				probe, nb);
			return 2;
		}
		if (metrics)
			return print_metrics(&p, 1, 0);
		detail(p, csv);
		return 0;
	}
	if (metrics) {
		const tcp_probe_t *sel[tcp_nprobes + 1];
		int n = 0;
		for (int i = 0; i < tcp_nprobes; i++)
			if (runs_on(tcp_probes[i], arch, tgt))
				sel[n++] = tcp_probes[i];
		return print_metrics(sel, n, 1);
	}
	char ab[2048], mb[2048], held[256], bb[TCP_REASON_LEN];
	if (csv) {
		printf("probe,family,arch,axes,metrics,help%s\n", tgt ? ",built" : "");
	} else {
		printf("this build holds code for: %s (CUDA %s)%s%s\n",
		       *tcp_target_list(tcp_build_targets(), held, sizeof(held)) ? held : "no GPU target",
		       tcp_build_toolkit(), *tcp_build_left_out() ? "; left out: " : "", tcp_build_left_out());
		if (tgt)
			printf("probes written for %s (compute capability %d.%d: %s):\n", tgt->name, tgt->cc / 10,
			       tgt->cc % 10, tgt->chips);
		printf("%-20s %-14s %-24s %s\n", "probe", "family", "arch", "what it measures");
	}
	for (int i = 0; i < tcp_nprobes; i++) {
		const tcp_probe_t *p = tcp_probes[i];
		if (!runs_on(p, arch, tgt))
			continue;
		axes_str(p, ab, sizeof(ab));
		metrics_str(p, mb, sizeof(mb));
		if (csv) {
			csv_field(p->name, 0), csv_field(p->family, 0), csv_field(tcp_arch_name(p->arch), 0);
			csv_field(ab, 0), csv_field(mb, 0), csv_field(p->help, !tgt);
			if (tgt)
				csv_field(built_str(p, tgt, bb, sizeof(bb)), 1);
		} else {
			printf("%-20s %-14s %-24s %s\n    axes:    %s\n    metrics: %s\n", p->name,
			       p->family, tcp_arch_name(p->arch), p->help, ab, mb);
			if (tgt)
				printf("    on %s: %s\n", tgt->name, built_str(p, tgt, bb, sizeof(bb)));
			if (p->unsupported_reason)
				printf("    not runnable in this build: %s\n", p->unsupported_reason);
		}
	}
	return 0;
}
