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
#include "harness/measure/counters.h"

static const char usage[] =
	"usage: tcprobe counters [--list] [--chip NAME] [--all]\n"
	"  --list       the default counter set for the chip (what `run --counters default` records)\n"
	"  --chip NAME  a CUPTI chip name (GH100, GB100, ...); no GPU needed.  Default: GPU 0's chip\n"
	"  --all        also every base metric CUPTI lists for the chip (add a rollup such as\n"
	"               .sum/.avg/.max to use one in `run --counters name,name,...`)\n";

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

int tcp_cmd_counters(int argc, char **argv)
{
	const char *chip = NULL;
	int all = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--list")) {
			continue;
		} else if (!strcmp(argv[i], "--all")) {
			all = 1;
		} else if (!strcmp(argv[i], "--chip") || !strncmp(argv[i], "--chip=", 7)) {
			chip = argv[i][6] == '=' ? argv[i] + 7 : (i + 1 < argc ? argv[++i] : NULL);
			if (!chip || !*chip) {
				fprintf(stderr, "counters: --chip needs a chip name (e.g. GH100, GB100)\n");
				return 2;
			}
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			return 0;
		} else {
			fprintf(stderr, "counters: unknown option '%s' (legal: --list, --chip NAME, --all)\n",
				argv[i]);
			return 2;
		}
	}

	char reason[TCP_REASON_LEN], found[32];
	if (!chip) {
		if (gpu_chip(found, sizeof(found), reason, sizeof(reason))) {
			fprintf(stderr, "counters: %s\n", reason);
			return 2;
		}
		chip = found;
	}

	/* a bad chip name is a usage error (2); CUPTI missing is not (1) */
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

	if (all) {
		printf("\n# every base metric CUPTI lists for %s\n", chip);
		printf("%-10s  %-64s  %-18s  %s\n", "type", "metric", "unit", "description");
		int n = tcp_counters_base_metrics(chip, print_base, NULL, reason, sizeof(reason));
		if (n < 0) {
			fprintf(stderr, "counters: %s\n", reason);
			return 1;
		}
		printf("# %d base metrics\n", n);
	}
	return 0;
}
