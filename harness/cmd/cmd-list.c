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

#include "harness/cmd/options.h"
#include "harness/store/csvio.h"
#include "harness/store/metrics.h"
#include "harness/store/columns.h"
#include "harness/sweep/emulate.h"
#include "probes/common/probe.h"

static const char usage[] =
	"usage: tcprobe list [--arch TARGET|host] [--probe NAME] [--csv | --metrics]\n"
	"       tcprobe list --columns\n";
static const char about[] =
	"List the probes: family, the GPU targets they are written for, axes (default\n"
	"values in sweep syntax) and metrics (units).  No GPU needed.\n";

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

/* "calib, wgmma_tput, ...": every registered probe. */
static const char *probe_names(char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int i = 0; i < tcp_nprobes && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "", tcp_probes[i]->name);
	return buf;
}

/* What the command line sets. */
typedef struct {
	const char *arch;			/* --arch: a target's name or "host" */
	const tcp_target_info_t *tgt;		/* its target, NULL for host or none */
	const tcp_probe_t *probe;		/* --probe */
	int csv, metrics, columns, exit_codes;
} list_args_t;

/* --arch: "host" or a GPU target. */
static int arch_cb(tcp_opt_t *o, const char *val, char *err, size_t len)
{
	list_args_t *a = o->ctx;
	char tl[256];

	a->tgt = NULL;
	if (strcmp(val, "host") && !(a->tgt = tcp_target_find(val)))
		return tcp_opt_bad(err, len, o, val, "host or one of %s",
				   tcp_target_list((1u << TCP_TGT_COUNT) - 1, tl, sizeof(tl)));
	a->arch = val;
	return 0;
}

/* --probe: a registered probe. */
static int probe_cb(tcp_opt_t *o, const char *val, char *err, size_t len)
{
	list_args_t *a = o->ctx;
	char nb[1024];

	if (!(a->probe = tcp_probe_find(val))) {
		snprintf(err, len, "%s: unknown probe: got '%s', expected one of %s", o->name, val,
			 probe_names(nb, sizeof(nb)));
		return -1;
	}
	return 0;
}

/* The command line into a: TCP_OPTS_OK, or the exit status (help, one bad-input line). */
static int parse(list_args_t *a, int argc, char **argv)
{
	tcp_opt_t opts[] = {
		{ .name = "--arch", .metavar = "TARGET", .kind = TCP_OPT_STRING, .fn = arch_cb, .ctx = a,
		  .what = "a GPU target (sm_103a) or host", .help = "only probes written for TARGET (sm_90a, "
		  "sm_100a, sm_103a, sm_110a, ...; 'host' = host-only), each with whether this build holds its "
		  "code for TARGET and, if not, why and how to rebuild; the points a target lacks: tcprobe run "
		  "--dry-run --arch TARGET" },
		{ .name = "--probe", .metavar = "NAME", .kind = TCP_OPT_STRING, .fn = probe_cb, .ctx = a,
		  .what = "a probe name", .help = "the full descriptor of one probe" },
		{ .name = "--csv", .kind = TCP_OPT_FLAG, .ival = &a->csv,
		  .help = "CSV on stdout (one row per probe, or per axis/metric with --probe)" },
		{ .name = "--metrics", .kind = TCP_OPT_FLAG, .ival = &a->metrics, .help = "every metric's role as "
		  "a run's metrics.csv holds it (docs/results.md): the probes' (with --probe: that one's), then "
		  "the rows the harness adds (counters, timer, energy) under probe '*'; `tcprobe compare "
		  "--roles` reads it" },
		{ .name = "--columns", .kind = TCP_OPT_FLAG, .ival = &a->columns, .help = "measurements.csv's "
		  "fixed columns as docs/results.md's markdown table (name, type, the schema version that added "
		  "it, meaning)" },
		{ .name = "--exit-codes", .kind = TCP_OPT_FLAG, .ival = &a->exit_codes, .flags = TCP_OPT_HIDDEN,
		  .help = "the exit statuses as docs/exit-codes.md's markdown table" },
	};
	tcp_cmd_spec_t cmd = { .name = "list", .usage = usage, .about = about, .opts = opts,
			       .nopts = TCP_NOPTS(opts), .args_what = "an option" };

	return tcp_opts_parse(&cmd, argc, argv, 1);
}

/* --metrics without --probe: the probes --arch keeps, and the harness's rows. */
static int all_metrics(const list_args_t *a)
{
	const tcp_probe_t *sel[tcp_nprobes + 1];
	int n = 0;

	for (int i = 0; i < tcp_nprobes; i++)
		if (runs_on(tcp_probes[i], a->arch, a->tgt))
			sel[n++] = tcp_probes[i];
	return print_metrics(sel, n, 1);
}

/* The table's (or CSV's) header: what this build holds, for --arch the target. */
static void header(const tcp_target_info_t *tgt, int csv)
{
	char held[256];

	if (csv) {
		printf("probe,family,arch,axes,metrics,help%s\n", tgt ? ",built" : "");
		return;
	}
	printf("this build holds code for: %s (CUDA %s)%s%s\n",
	       *tcp_target_list(tcp_build_targets(), held, sizeof(held)) ? held : "no GPU target",
	       tcp_build_toolkit(), *tcp_build_left_out() ? "; left out: " : "", tcp_build_left_out());
	if (tgt)
		printf("probes written for %s (compute capability %d.%d: %s):\n", tgt->name, tgt->cc / 10,
		       tgt->cc % 10, tgt->chips);
	printf("%-20s %-14s %-24s %s\n", "probe", "family", "arch", "what it measures");
}

/* One probe's line(s) of the table or its CSV row. */
static void summary_row(const tcp_probe_t *p, const tcp_target_info_t *tgt, int csv)
{
	char ab[2048], mb[2048], bb[TCP_REASON_LEN];

	axes_str(p, ab, sizeof(ab));
	metrics_str(p, mb, sizeof(mb));
	if (csv) {
		csv_field(p->name, 0), csv_field(p->family, 0), csv_field(tcp_arch_name(p->arch), 0);
		csv_field(ab, 0), csv_field(mb, 0), csv_field(p->help, !tgt);
		if (tgt)
			csv_field(built_str(p, tgt, bb, sizeof(bb)), 1);
		return;
	}
	printf("%-20s %-14s %-24s %s\n    axes:    %s\n    metrics: %s\n", p->name, p->family,
	       tcp_arch_name(p->arch), p->help, ab, mb);
	if (tgt)
		printf("    on %s: %s\n", tgt->name, built_str(p, tgt, bb, sizeof(bb)));
	if (p->unsupported_reason)
		printf("    not runnable in this build: %s\n", p->unsupported_reason);
}

int tcp_cmd_list(int argc, char **argv)
{
	list_args_t a = { 0 };
	int rc = parse(&a, argc, argv);

	if (rc != TCP_OPTS_OK)
		return rc;
	if (a.exit_codes)
		return tcp_exit_markdown(stdout) ? 1 : 0;
	if (a.columns)
		return tcp_columns_markdown(stdout) ? 1 : 0;
	if (a.probe && a.metrics)
		return print_metrics(&a.probe, 1, 0);
	if (a.probe) {
		detail(a.probe, a.csv);
		return 0;
	}
	if (a.metrics)
		return all_metrics(&a);
	header(a.tgt, a.csv);
	for (int i = 0; i < tcp_nprobes; i++)
		if (runs_on(tcp_probes[i], a.arch, a.tgt))
			summary_row(tcp_probes[i], a.tgt, a.csv);
	return 0;
}
