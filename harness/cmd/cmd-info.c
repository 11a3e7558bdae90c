/*
 * cmd-info.c
 *	`tcprobe info [--csv]`: the provenance a run would record, host part and
 *	one section per visible GPU (plus the board's clock, clock-event reasons
 *	and power right now).  Exit 0, 2 on bad usage, 3 when no CUDA GPU is
 *	visible (the host part is still printed).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cmd/cmd-list.h"
#include "harness/cmd/options.h"
#include "harness/store/csvio.h"
#include "harness/measure/nvml.h"
#include "harness/measure/provenance-live.h"
#include "harness/store/exit.h"
#include "harness/store/provenance.h"

static const char usage[] = "usage: tcprobe info [--csv]\n";
static const char about[] =
	"Print the provenance tcprobe records with every run: host, build, and for each\n"
	"visible GPU its name, UUID, clocks, driver, ECC, ..., and its SM clock,\n"
	"clock-event reasons and power right now (CUDA_VISIBLE_DEVICES applies).  Values\n"
	"a source cannot give read \"NA (<reason>)\".\n";

/* One section as aligned "key  value" lines. */
static void print_table(const char *title, const tcp_prov_t *p)
{
	int w = 0;

	for (int i = 0; i < p->n; i++) {
		int l = (int)strlen(p->key[i]);
		w = l > w ? l : w;
	}
	printf("%s\n", title);
	for (int i = 0; i < p->n; i++)
		printf("  %-*s  %s\n", w, p->key[i], p->val[i]);
}

static void print_csv(const tcp_prov_t *p, const char *prefix)
{
	char k[2 * TCP_PROV_KEYLEN], qk[4 * TCP_PROV_KEYLEN + 8], qv[2 * TCP_PROV_VALLEN + 8];

	for (int i = 0; i < p->n; i++) {
		snprintf(k, sizeof(k), "%s%s", prefix, p->key[i]);
		printf("%s,%s\n", tcp_csv_quote(k, qk, sizeof(qk)),
		       tcp_csv_quote(p->val[i], qv, sizeof(qv)));
	}
}

/*
 * now_sample()
 *	What the board does right now (not part of provenance.csv: a run
 *	records these per point): SM clock, clock-event reasons, power.
 */
static void now_sample(tcp_prov_t *g)
{
	const char *ni = tcp_prov_get(g, "nvml_index");
	double mhz, w;
	unsigned long long mask;
	char t[160];

	if (!ni || ni[0] < '0' || ni[0] > '9')
		return;
	tcp_nvml_sample(atoi(ni), &mhz, &mask, &w);
	if (isnan(mhz))
		tcp_prov_set(g, "sm_clock_now_mhz", "NA (NVML refused)");
	else
		tcp_prov_setf(g, "sm_clock_now_mhz", "%.0f", mhz);
	tcp_prov_set(g, "throttle_now", tcp_nvml_throttle_str(mask, t, sizeof(t)));
	if (isnan(w))
		tcp_prov_set(g, "power_now_w", "NA (NVML refused)");
	else
		tcp_prov_setf(g, "power_now_w", "%.1f", w);
}

int tcp_cmd_info(int argc, char **argv)
{
	static tcp_prov_t host, gpu;	/* ~100 KB each: not on the stack */
	char why[512], title[64], prefix[32];
	int csv = 0, n;
	tcp_opt_t opts[] = {
		{ .name = "--csv", .kind = TCP_OPT_FLAG, .ival = &csv,
		  .help = "key,value rows (GPU keys prefixed gpu<N>.) instead of a table" },
	};
	tcp_cmd_spec_t cmd = { .name = "info", .usage = usage, .about = about, .opts = opts,
			       .nopts = TCP_NOPTS(opts), .args_what = "an option" };
	int rc = tcp_opts_parse(&cmd, argc, argv, 1);

	if (rc != TCP_OPTS_OK)
		return rc;
	tcp_prov_init(&host);
	tcp_prov_collect_host(&host, argc, argv);
	if (csv) {
		printf("key,value\n");
		print_csv(&host, "");
	} else {
		print_table("host", &host);
	}

	n = tcp_prov_cuda_device_count(why, sizeof(why));
	if (n < 0) {
		/* on stderr under --csv, so that stdout stays a clean CSV */
		fprintf(csv ? stderr : stdout, "%s%s\n", csv ? "tcprobe info: " : "\n", why);
		return TCP_EXIT_NO_GPU;
	}
	for (int d = 0; d < n; d++) {
		tcp_prov_init(&gpu);
		tcp_prov_collect_gpu(&gpu, d, why, sizeof(why));
		now_sample(&gpu);
		if (csv) {
			snprintf(prefix, sizeof(prefix), "gpu%d.", d);
			print_csv(&gpu, prefix);
		} else {
			snprintf(title, sizeof(title), "\ngpu %d", d);
			print_table(title, &gpu);
		}
	}
	return 0;
}
