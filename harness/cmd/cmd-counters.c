/*
 * cmd-counters.c
 *	`tcprobe counters --list [--chip NAME] [--all]`: the CUPTI metrics a
 *	run records for a chip (the default set, as a table), and with --all
 *	every base metric CUPTI lists for it.  Works with no GPU for a named
 *	chip (Profiler Host API); without --chip it asks GPU 0 which chip it is.
 */
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "harness/cmd/cmd-list.h"
#include "harness/cmd/options.h"
#include "harness/measure/counters.h"

static const char usage[] = "usage: tcprobe counters [--list] [--chip NAME] [--all]\n";
static const char about[] =
	"The CUPTI counter metrics a run records for a chip.  No GPU needed with --chip.\n";

static const char *rollup_name(tcp_rollup_t r)
{
	return r == TCP_ROLLUP_SUM ? "sum" : "avg";
}

/*
 * print_base()
 *	One line of --all: type, name, CUPTI's dimension, description.
 */
static void print_base(const char *type, const char *name, const char *unit, const char *desc, void *arg)
{
	(void)arg;
	printf("%-10s  %-64s  %-18s  %s\n", type, name, unit, desc);
}

/*
 * gpu_chip()
 *	CUPTI's name for GPU 0, or the chip implied by its compute capability
 *	when CUPTI cannot tell.  0, or -1 with a reason.
 */
static int gpu_chip(char *chip, size_t len, char *reason, size_t rlen)
{
	int n = 0;
	if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
		snprintf(reason, rlen, "no GPU here: name a chip with --chip (e.g. GH100, GB100)");
		return -1;
	}
	if (tcp_counters_device_chip(0, chip, len, reason, rlen) == 0)
		return 0;
	struct cudaDeviceProp p;
	if (cudaGetDeviceProperties(&p, 0) == cudaSuccess) {
		const char *c = tcp_counters_chip_for_cc(p.major * 10 + p.minor);
		if (c) {
			snprintf(chip, len, "%s", c);
			return 0;
		}
	}
	return -1;
}

/*
 * print_default()
 *	--list: the chip's default counter set as a table.  0, or the exit
 *	status after one line on stderr: 2 a chip name CUPTI does not know,
 *	1 CUPTI missing or unusable.
 */
static int print_default(const char *chip)
{
	char reason[TCP_REASON_LEN];
	const char *const *chips = tcp_counters_chips(reason, sizeof(reason));
	if (!chips) {
		fprintf(stderr, "counters: %s\n", reason);
		return 1;
	}
	int known = 0;
	for (int i = 0; chips[i]; i++)
		known |= !strcmp(chips[i], chip);
	int passes = 0;
	tcp_counters_t *t = tcp_counters_open_chip(chip, "default", &passes, reason, sizeof(reason));
	if (!t) {
		fprintf(stderr, "counters: %s\n", reason);
		return known ? 1 : 2;
	}

	int nd;
	const char *set_name;
	tcp_counters_default_set(chip, &nd, &set_name);
	printf("# chip %s: default counter set \"%s\", %d metrics, %d replay pass%s per kernel\n",
	       chip, set_name, tcp_counters_nmetrics(t), passes, passes == 1 ? "" : "es");
	printf("# CSV metric = cupti/<metric>; rollup = how kernels of one run() combine; "
	       "* = checked against the probe's issued count\n");
	printf("%-44s  %-9s  %-6s  %s\n", "metric", "unit", "rollup", "purpose");
	for (int i = 0; i < tcp_counters_nmetrics(t); i++) {
		const tcp_counter_metric_t *m = tcp_counters_info(t, i);
		printf("%-44s  %-9s  %-6s  %s%s\n", m->name, m->unit, rollup_name(m->rollup),
		       m->role == TCP_CTR_TENSOR_INSTS ? "* " : "", m->purpose);
	}
	printf("%-44s  %-9s  %-6s  %s\n", "check/tensor_insts_delta", "insts", "-",
	       "counted - issued tensor instructions; != 0 marks the point INVALID");
	printf("%-44s  %-9s  %-6s  %s\n", "check/sm_clock_ratio", "ratio", "-",
	       "counter SM clock / timing-pass SM clock");
	tcp_counters_close(t);
	return 0;
}

/* --all: every base metric CUPTI lists for chip.  0, or 1 after one line on stderr. */
static int print_all(const char *chip)
{
	char reason[TCP_REASON_LEN];

	printf("\n# every base metric CUPTI lists for %s\n", chip);
	printf("%-10s  %-64s  %-18s  %s\n", "type", "metric", "unit", "description");
	int n = tcp_counters_base_metrics(chip, print_base, NULL, reason, sizeof(reason));
	if (n < 0) {
		fprintf(stderr, "counters: %s\n", reason);
		return 1;
	}
	printf("# %d base metrics\n", n);
	return 0;
}

int tcp_cmd_counters(int argc, char **argv)
{
	const char *chip = NULL;
	int all = 0, list = 0, rc;
	tcp_opt_t opts[] = {
		{ .name = "--list", .kind = TCP_OPT_FLAG, .ival = &list,
		  .help = "the default counter set for the chip (what `run --counters default` records; "
			  "what the command prints with or without it)" },
		{ .name = "--chip", .metavar = "NAME", .kind = TCP_OPT_STRING, .sval = &chip,
		  .what = "a CUPTI chip name (GH100, GB100, ...)", .def = "GPU 0's chip",
		  .help = "a CUPTI chip name (GH100, GB100, ...); no GPU needed" },
		{ .name = "--all", .kind = TCP_OPT_FLAG, .ival = &all,
		  .help = "also every base metric CUPTI lists for the chip (add a rollup such as "
			  ".sum/.avg/.max to use one in `run --counters name,name,...`)" },
	};
	tcp_cmd_spec_t cmd = { .name = "counters", .usage = usage, .about = about, .opts = opts,
			       .nopts = TCP_NOPTS(opts), .args_what = "an option" };
	char reason[TCP_REASON_LEN], found[32];

	if ((rc = tcp_opts_parse(&cmd, argc, argv, 1)) != TCP_OPTS_OK)
		return rc;
	if (!chip) {
		if (gpu_chip(found, sizeof(found), reason, sizeof(reason))) {
			fprintf(stderr, "counters: %s\n", reason);
			return 2;
		}
		chip = found;
	}
	if ((rc = print_default(chip)))
		return rc;
	return all ? print_all(chip) : 0;
}
