/*
 * sweep-driver.c
 *	A sweep with deterministic host-only probes, for tests/identity-check.sh:
 *	the CSV the supervisor writes, the end-of-sweep summary and --resume of a
 *	cut file must not change across a refactor.  Built by the script against
 *	each tree's libtcprobe.a (it is not one of the make-test binaries).
 *
 *	usage: sweep-driver DIR      writes DIR/run (sweep, cut, resume) and
 *	                             prints the dry-run plan and both summaries
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/sweep/supervisor.h"

static const char *const kinds[] = { "ok", "setupfail", "invalid", "illegal", NULL };
static const tcp_axis_t fake_axes[] = {
	{ "mode", "what the fake does", kinds, "ok,setupfail,invalid,illegal" },
	{ "n", "size", NULL, "1,2,3" },
};
static const tcp_metric_t fake_metrics[] = {
	{ "value", "x", 1, "n + mode", TCP_ROLE_AUTO, 0, 0 },
	{ "cycles", "cycles", 0, "10 n", TCP_ROLE_AUTO, 0, 0 },
};
static const tcp_axis_t other_axes[] = { { "K", "a second axis set", NULL, "8,16" } };
static const tcp_metric_t other_metrics[] = { { "rate", "FLOP/clk/SM", 1, "K / 2", TCP_ROLE_AUTO, 0, 0 } };

struct st {
	int64_t mode, n;
};

static int fake_legal(const tcp_point_t *p, char *reason, size_t len)
{
	if (p->v[0] == 3) {
		snprintf(reason, len, "illegal by construction (n=%lld)", (long long)p->v[1]);
		return 0;
	}
	return 1;
}

static tcp_status_t fake_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	if (p->v[0] == 1) {
		snprintf(c->reason, TCP_REASON_LEN, "setup said no, with a comma, and \"quotes\"");
		return TCP_FAILED;
	}
	struct st *s = calloc(1, sizeof(*s));
	s->mode = p->v[0];
	s->n = p->v[1];
	*state = s;
	return TCP_OK;
}

static tcp_status_t fake_validate(void *state, tcp_ctx_t *c)
{
	if (((struct st *)state)->mode == 2) {
		snprintf(c->reason, TCP_REASON_LEN, "mismatch at element 3: got 1, expected 2");
		return TCP_INVALID;
	}
	return TCP_OK;
}

static tcp_status_t fake_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	const struct st *s = state;
	(void)c;
	out->v[0] = (double)(s->n + s->mode);
	out->v[1] = 10.0 * (double)s->n;
	return TCP_OK;
}

static tcp_status_t other_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	(void)c;
	int64_t *k = malloc(sizeof(*k));
	*k = p->v[0];
	*state = k;
	return TCP_OK;
}

static tcp_status_t other_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	(void)c;
	out->v[0] = (double)*(int64_t *)state / 2.0;
	return TCP_OK;
}

static void st_free(void *state)
{
	free(state);
}

static const tcp_probe_t fake = {
	.name = "idfake", .family = "identity", .help = "deterministic fake", .arch = TCP_ARCH_HOST,
	.axes = fake_axes, .naxes = 2, .metrics = fake_metrics, .nmetrics = 2, .legal = fake_legal,
	.setup = fake_setup, .validate = fake_validate, .run = fake_run, .teardown = st_free,
};
static const tcp_probe_t other = {
	.name = "idother", .family = "identity", .help = "second axis set", .arch = TCP_ARCH_HOST,
	.axes = other_axes, .naxes = 1, .metrics = other_metrics, .nmetrics = 1,
	.setup = other_setup, .run = other_run, .teardown = st_free,
};
static const tcp_probe_t *const probes[] = { &fake, &other };

static int sweep(const char *dir, int dry, int resume)
{
	tcp_spec_t s;
	char err[256];
	tcp_spec_init(&s);
	if (tcp_spec_add_probe(&s, "idfake", "--probe", probes, 2, err, sizeof(err)) ||
	    tcp_spec_add_probe(&s, "idother", "--probe", probes, 2, err, sizeof(err))) {
		fprintf(stderr, "sweep-driver: %s\n", err);
		return 2;
	}
	char *argv[] = { "sweep-driver", NULL };
	tcp_sweep_opts_t o = {
		.spec = resume ? NULL : &s, .reps = resume ? -1 : 3, .warmup = resume ? -1 : 1,
		.timeout = -1, .gpu = -1, .counters = resume ? NULL : "none", .seed_set = !resume, .seed = 42,
		.out_dir = resume ? NULL : dir, .resume_dir = resume ? dir : NULL, .dry_run = dry,
		.verbose = dry, .quiet = 1, .argc = 1, .argv = argv,
	};
	fflush(NULL);
	return tcp_sweep_run(probes, 2, &o);
}

/* Cut measurements.csv in the middle of its 5th-last row: a torn, partial point. */
static int cut(const char *dir)
{
	char path[4096];
	struct stat sb;
	snprintf(path, sizeof(path), "%s/measurements.csv", dir);
	FILE *f = fopen(path, "rb");
	if (!f || stat(path, &sb))
		return -1;
	char *b = malloc((size_t)sb.st_size + 1);
	size_t n = fread(b, 1, (size_t)sb.st_size, f);
	fclose(f);
	int nl = 0;
	size_t at = n;
	while (at > 0 && nl < 5)
		nl += b[--at] == '\n';
	free(b);
	return truncate(path, (off_t)(at + 10));
}

int main(int argc, char **argv)
{
	char run[4096];
	if (argc != 2) {
		fprintf(stderr, "usage: sweep-driver DIR\n");
		return 2;
	}
	snprintf(run, sizeof(run), "%s/run", argv[1]);
	printf("== dry run (exit %d)\n", sweep(run, 1, 0));
	printf("== sweep (exit %d)\n", sweep(run, 0, 0));
	tcp_sweep_summary(run, probes, 2, stdout);
	if (cut(run))
		return 1;
	printf("== the cut file\n");
	tcp_sweep_summary(run, probes, 2, stdout);
	printf("== resume of a cut file (exit %d)\n", sweep(run, 0, 1));
	tcp_sweep_summary(run, probes, 2, stdout);
	return 0;
}
