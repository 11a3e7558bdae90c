/*
 * fuzz-spec.c
 *	libFuzzer target: the sweep-spec parser (harness/sweep/spec.c), over this
 *	binary's real probe registry, then the plan it expands into
 *	(harness/sweep/plan.c).  The input is the text of a sweep file.
 *	Properties checked beyond "no crash, no leak, no UB":
 *	  - a rejected spec says why in one line ("<file>:<line>: ...");
 *	  - an accepted spec whose plan is small (<= FUZZ_MAX_POINTS points)
 *	    expands into a plan that survives plan.txt: written, read back,
 *	    equal point by point (what --resume relies on).
 *	Seeds: tests/fuzz/corpus/spec/ (the shipped sweeps and malformed ones).
 */
#include <stdint.h>

#include "harness/sweep/plan.h"
#include "harness/sweep/spec.h"
#include "tests/fuzz/fuzz-util.h"

#define FUZZ_MAX_INPUT	8192
#define FUZZ_MAX_POINTS	4096

/* Points group g expands into (unset axes: their default list), capped. */
static long group_points(const tcp_spec_group_t *g)
{
	long n = 1;

	for (int a = 0; a < g->probe->naxes; a++) {
		int k = g->nvals[a];
		if (!g->vals[a]) {
			int64_t *v = NULL;
			char e[TCP_SPEC_ERRLEN];
			if (tcp_values_parse(&g->probe->axes[a], g->probe->axes[a].def, &v, &k, e,
					     sizeof(e)) != 0)
				return -1;	/* a probe's own default must parse */
			free(v);
		}
		n *= k;
		if (n > FUZZ_MAX_POINTS)
			return FUZZ_MAX_POINTS + 1;
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[TCP_SPEC_ERRLEN], path[512];
	tcp_spec_t s;
	tcp_plan_t pl, back;
	long total = 0;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	char *text = fuzz_cstr(data, size);
	tcp_spec_init(&s);
	err[0] = '\0';
	if (tcp_spec_parse_string(&s, text, "fuzz.sweep", tcp_probes, tcp_nprobes, err,
				  sizeof(err)) != 0) {
		fuzz_check_msg(err);
		FUZZ_CHECK(strncmp(err, "fuzz.sweep", 10) == 0, "error without its location: [%s]", err);
		goto out;
	}
	for (int i = 0; i < s.n; i++) {
		long n = group_points(&s.g[i]);
		FUZZ_CHECK(n >= 0, "probe %s: default axis list does not parse", s.g[i].probe->name);
		total += n;
	}
	if (total > FUZZ_MAX_POINTS)
		goto out;
	if (tcp_plan_build(&pl, &s, -1, -1, -1, err, sizeof(err)) != 0) {
		fuzz_check_msg(err);
		goto out;
	}
	tcp_plan_set_option(&pl, "seed", "42");
	fuzz_path(path, sizeof(path), "plan.txt");
	FUZZ_CHECK(tcp_plan_write(&pl, path, err, sizeof(err)) == 0, "plan write: %s", err);
	FUZZ_CHECK(tcp_plan_read(&back, path, tcp_probes, tcp_nprobes, err, sizeof(err)) == 0,
		   "plan.txt of an accepted spec does not read back: %s", err);
	FUZZ_CHECK(tcp_plan_compare(&back, &pl, err, sizeof(err)) == 0,
		   "plan.txt read back differs: %s", err);
	tcp_plan_free(&back);
	tcp_plan_free(&pl);
out:
	tcp_spec_free(&s);
	free(text);
	return 0;
}
