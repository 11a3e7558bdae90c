/*
 * test-emulate.c
 *	The harness side of an emulated run (harness/sweep/emulate.h) from the
 *	release build: the emulation options and their refusals, which probes
 *	run emulated and for which target legality is asked (the plan equals
 *	`tcprobe run --dry-run --arch T`'s), the scaled timeouts, the plan
 *	options, the probe context and the provenance; then a whole emulated
 *	sweep of host-only fake probes through tcp_sweep_run (provenance, last
 *	line, summary, a point that only finishes under the slowdown, --resume
 *	by the wrong build), and its readers through the built binary
 *	($TCPROBE, default build/tcprobe): compare refuses an emulated run
 *	against a hardware run and compares two emulated runs on status only,
 *	the report says EMULATED first and shows no times, fleet refuses it;
 *	and ./sweep --emulate's arguments through a dry run.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness/analyze/compare.h"
#include "harness/store/provenance.h"
#include "harness/store/run.h"
#include "harness/sweep/emulate.h"
#include "harness/sweep/supervisor.h"
#include "probes/emu/tc-emu-mutants.h"
#include "probes/probe-list.h"

static const tcp_target_info_t *tgt(const char *name)
{
	const tcp_target_info_t *t = tcp_target_find(name);
	assert_non_null(t);
	return t;
}

static unsigned rnd(void)
{
	static int seeded;
	if (!seeded) {
		srand((unsigned)time(NULL) ^ (unsigned)getpid());
		seeded = 1;
	}
	return (unsigned)rand();
}

/* ------------------------------------------------------------ options */

static void test_options_refused_by_release_build(void **state)
{
	(void)state;
	static const char *const opt[] = { "--emu-tmem", "--emu-trace", "--emu-slowdown" };
	static const char *const val[] = { "stale", "3", "20" };
	char err[512];
	tcp_emu_opts_t e;
	tcp_emu_opts_init(&e);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(tcp_emu_parse_opt(&e, opt[i], val[i], 0, err, sizeof(err)), -1);
		assert_non_null(strstr(err, opt[i]));
		assert_non_null(strstr(err, val[i]));
		assert_non_null(strstr(err, "emulation build"));
		assert_null(strchr(err, '\n'));
	}
	assert_int_equal(tcp_emu_parse_opt(&e, "--reps", "3", 0, err, sizeof(err)), 0);
	assert_null(e.target);
	assert_int_equal(e.flags, 0);
	assert_int_equal(e.trace_cta, -1);
	assert_true(e.slowdown == 1.0);
	/* the release build's finish leaves a real run, whatever --arch says */
	assert_int_equal(tcp_emu_finish(&e, tgt("sm_103a"), 0, err, sizeof(err)), 0);
	assert_null(e.target);
	assert_true(tcp_emu_timeout(&e, 7.5) == 7.5);
	assert_int_equal(tcp_emulate_build(), 0);	/* this test links the release build */
}

static void test_options_emulation_build(void **state)
{
	(void)state;
	char err[512], v[64];
	tcp_emu_opts_t e;
	tcp_emu_opts_init(&e);
	assert_int_equal(tcp_emu_parse_opt(&e, "--emu-tmem", "stale", 1, err, sizeof(err)), 1);
	assert_true(e.flags & TCP_EMU_F_TMEM_STALE);
	assert_string_equal(tcp_emu_tmem_name(e.flags), "stale");
	assert_int_equal(tcp_emu_parse_opt(&e, "--emu-tmem", "poison", 1, err, sizeof(err)), 1);
	assert_false(e.flags & TCP_EMU_F_TMEM_STALE);
	assert_string_equal(tcp_emu_tmem_name(e.flags), "poison");
	int cta = (int)(rnd() % 100000);
	snprintf(v, sizeof(v), "%d", cta);
	assert_int_equal(tcp_emu_parse_opt(&e, "--emu-trace", v, 1, err, sizeof(err)), 1);
	assert_true(e.flags & TCP_EMU_F_TRACE);
	assert_int_equal(e.trace_cta, cta);
	double x = 1.0 + (double)(rnd() % 999900) / 100.0;	/* 1 .. 9999.99 */
	snprintf(v, sizeof(v), "%.2f", x);
	assert_int_equal(tcp_emu_parse_opt(&e, "--emu-slowdown", v, 1, err, sizeof(err)), 1);
	assert_true(fabs(e.slowdown - x) < 1e-9);
	/* out of range or malformed: one line naming the value and the range */
	static const struct { const char *opt, *val, *range; } bad[] = {
		{ "--emu-tmem", "zero", "poison or stale" },	{ "--emu-tmem", "", "poison or stale" },
		{ "--emu-trace", "-1", "0..2147483647" },	{ "--emu-trace", "2147483648", "0..2147483647" },
		{ "--emu-trace", "3x", "0..2147483647" },	{ "--emu-slowdown", "0.5", "1..10000" },
		{ "--emu-slowdown", "10001", "1..10000" },	{ "--emu-slowdown", "nan", "1..10000" },
		{ "--emu-slowdown", "", "1..10000" },		{ "--emu-slowdown", "2x", "1..10000" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[64];
		snprintf(want, sizeof(want), "got '%s'", bad[i].val);
		assert_int_equal(tcp_emu_parse_opt(&e, bad[i].opt, bad[i].val, 1, err, sizeof(err)), -1);
		if (!strstr(err, bad[i].opt) || !strstr(err, want) || !strstr(err, bad[i].range) || strchr(err, '\n'))
			fail_msg("%s %s: %s", bad[i].opt, bad[i].val, err);
	}
}

static void test_finish_picks_the_emulated_target(void **state)
{
	(void)state;
	char err[512];
	tcp_emu_opts_t e;
	tcp_emu_opts_init(&e);
	assert_int_equal(tcp_emu_finish(&e, NULL, 1, err, sizeof(err)), 0);
	assert_ptr_equal(e.target, tgt(TCP_EMU_DEFAULT_TARGET));
	assert_true(e.slowdown == TCP_EMU_SLOWDOWN_DEFAULT);
	double t = 0.05 + (double)(rnd() % 1000) / 10.0;
	assert_true(fabs(tcp_emu_timeout(&e, t) - t * TCP_EMU_SLOWDOWN_DEFAULT) < 1e-9);
	/* a given slowdown stays, 1 included */
	tcp_emu_opts_init(&e);
	assert_int_equal(tcp_emu_parse_opt(&e, "--emu-slowdown", "1", 1, err, sizeof(err)), 1);
	assert_int_equal(tcp_emu_finish(&e, tgt("sm_110a"), 1, err, sizeof(err)), 0);
	assert_ptr_equal(e.target, tgt("sm_110a"));
	assert_true(e.slowdown == 1.0);
	/* only tcgen05 targets are emulated */
	static const char *const no[] = { "sm_90a", "sm_80", "sm_120a", "sm_121a" };
	for (int i = 0; i < 4; i++) {
		tcp_emu_opts_init(&e);
		assert_int_equal(tcp_emu_finish(&e, tgt(no[i]), 1, err, sizeof(err)), -1);
		assert_non_null(strstr(err, no[i]));
		assert_non_null(strstr(err, "sm_100a, sm_103a, sm_110a"));
		assert_null(e.target);
	}
}

/* ------------------------------------------------ which probes run, and where */

static void test_why_not(void **state)
{
	(void)state;
	char buf[TCP_REASON_LEN];
	const unsigned hopper = TCP_TGT_BIT(TCP_TGT_SM90A);
	static const char *const tc[] = { "sm_100a", "sm_103a", "sm_110a" };
	int ntc = 0;
	for (int k = 0; k < 3; k++) {
		const tcp_target_info_t *t = tgt(tc[k]);
		for (int i = 0; i < tcp_nprobes; i++) {
			const tcp_probe_t *p = tcp_probes[i];
			int is_tc = strncmp(p->name, "tc_", 3) == 0;
			const char *w = tcp_emu_why_not(p->arch, 90, t, hopper, buf, sizeof(buf));
			if (p->arch == TCP_ARCH_HOST) {
				assert_null(w);
				continue;
			}
			if (is_tc) {
				ntc += k == 0;
				if (w)
					fail_msg("%s on emulated %s: %s", p->name, t->name, w);
				/* ... but not on another GPU, nor from a binary without sm_90a code */
				assert_non_null(tcp_emu_why_not(p->arch, 100, t, hopper, buf, sizeof(buf)));
				assert_non_null(strstr(buf, "compute capability 10.0"));
				assert_non_null(tcp_emu_why_not(p->arch, 90, t, 0, buf, sizeof(buf)));
				assert_null(tcp_emu_why_not(p->arch, 0, t, 0, buf, sizeof(buf)));	/* dry run */
			} else {
				/* the warp family holds sm_100a code but is no tcgen05 probe: it has no
				 * emulated instructions and is not in the emulation build */
				if (!(p->arch & TCP_TGT_BIT(t->id))) {
					assert_non_null(w);
					assert_true(strncmp(w, "not emulated", 12) == 0);
				}
			}
		}
	}
	assert_int_equal(ntc, 11);	/* probes/probe-list.h TCP_PROBES_TCGEN05 */
	/* the emulation build's registry: exactly the tcgen05 probes */
#define COUNT(n) +1
	assert_int_equal(0 TCP_PROBES_TCGEN05(COUNT), 11);
#undef COUNT
}

static void test_list_built_column(void **state)
{
	(void)state;
	char buf[TCP_REASON_LEN];
	const unsigned hopper = TCP_TGT_BIT(TCP_TGT_SM90A);
	const unsigned all = TCP_ARCH_TCGEN05 | hopper;
	const tcp_probe_t *alloc = tcp_probe_find("tc_alloc"), *wg = tcp_probe_find("wgmma_tput");
	assert_non_null(alloc);
	assert_non_null(wg);
	/* emulation build: tcgen05 probes emulated, whatever cubins it holds */
	assert_string_equal(tcp_emu_built(alloc->arch, tgt("sm_103a"), 1, hopper, "", buf, sizeof(buf)),
			    "emulated on sm_90a (make EMULATE=1)");
	assert_true(strncmp(tcp_emu_built(wg->arch, tgt("sm_100a"), 1, hopper, "", buf, sizeof(buf)),
			    "not emulated", 12) == 0);
	assert_string_equal(tcp_emu_built(TCP_ARCH_HOST, tgt("sm_100a"), 1, hopper, "", buf, sizeof(buf)), "built");
	/* release build: as tcp_arch_why_not_in says */
	assert_string_equal(tcp_emu_built(alloc->arch, tgt("sm_103a"), 0, all, "", buf, sizeof(buf)), "built");
	const char *no = tcp_emu_built(alloc->arch, tgt("sm_103a"), 0, hopper, "x", buf, sizeof(buf));
	assert_non_null(strstr(no, "no sm_103a cubin"));
}

/* The plan lines and SKIPPED reasons of a plan, tcgen05 probes only, one string. */
static char *plan_text(const tcp_plan_t *pl)
{
	size_t cap = 1 << 20, n = 0;
	char *s = malloc(cap), line[2048];
	assert_non_null(s);
	s[0] = '\0';
	for (int i = 0; i < pl->n; i++) {
		if (strncmp(pl->p[i].probe->name, "tc_", 3) != 0)
			continue;
		char *tab = strchr(tcp_plan_line(pl, i, line, sizeof(line)), '\t');	/* without the index */
		int w = snprintf(NULL, 0, "%s\t%s\n", tab + 1, pl->p[i].skipped ? pl->p[i].reason : "");
		while (n + (size_t)w + 1 > cap)
			assert_non_null(s = realloc(s, cap *= 2));
		n += (size_t)sprintf(s + n, "%s\t%s\n", tab + 1, pl->p[i].skipped ? pl->p[i].reason : "");
	}
	return s;
}

static void build_plan(tcp_plan_t *pl, const char *file)
{
	char err[2048];
	tcp_spec_t s;
	tcp_spec_init(&s);
	if (tcp_spec_parse_file(&s, file, tcp_probes, tcp_nprobes, err, sizeof(err)))
		fail_msg("%s", err);
	if (tcp_plan_build(pl, &s, -1, -1, -1, err, sizeof(err)))
		fail_msg("%s", err);
	tcp_spec_free(&s);
}

static void test_plan_is_the_dry_run_plan(void **state)
{
	(void)state;
	static const char *const tc[] = { "sm_100a", "sm_103a", "sm_110a" };
	char err[512];
	for (int k = 0; k < 3; k++) {
		tcp_plan_t dry, emu, def, real;
		tcp_emu_opts_t e;
		tcp_emu_opts_init(&e);
		assert_int_equal(tcp_emu_finish(&e, tgt(tc[k]), 1, err, sizeof(err)), 0);
		build_plan(&dry, "sweeps/blackwell.sweep");
		build_plan(&emu, "sweeps/blackwell.sweep");
		build_plan(&def, "sweeps/default.sweep");
		build_plan(&real, "sweeps/blackwell.sweep");
		tcp_plan_target(&dry, tgt(tc[k]));			/* tcprobe run --dry-run --arch T */
		tcp_plan_target(&emu, tcp_emu_plan_target(&e, 90));	/* the emulated run on the H200 */
		tcp_plan_target(&def, tgt(tc[k]));
		tcp_plan_target(&real, tcp_emu_plan_target(NULL, 90));	/* a real run there */
		assert_ptr_equal(real.target, tgt("sm_90a"));
		char *a = plan_text(&dry), *b = plan_text(&emu), *c = plan_text(&def);
		assert_true(strlen(a) > 1000);
		assert_string_equal(a, b);
		/* ./sweep --emulate runs blackwell.sweep: default.sweep's tcgen05 part */
		assert_string_equal(a, c);
		int skipped = 0;
		for (int i = 0; i < emu.n; i++)
			skipped += emu.p[i].skipped;
		assert_true(skipped > 0);
		free(a), free(b), free(c);
		tcp_plan_free(&dry), tcp_plan_free(&emu), tcp_plan_free(&def), tcp_plan_free(&real);
	}
	/* the forms differ per target: sm_103a has no kind::i8, sm_100a no ld.red */
	tcp_plan_t p0, p3;
	build_plan(&p0, "sweeps/blackwell.sweep");
	build_plan(&p3, "sweeps/blackwell.sweep");
	tcp_plan_target(&p0, tgt("sm_100a"));
	tcp_plan_target(&p3, tgt("sm_103a"));
	char *a = plan_text(&p0), *b = plan_text(&p3);
	assert_string_not_equal(a, b);
	free(a), free(b);
	tcp_plan_free(&p0), tcp_plan_free(&p3);
}

/* --------------------------------------- plan options, context, provenance */

static void test_plan_options_ctx_provenance(void **state)
{
	(void)state;
	char err[512], v[32];
	tcp_emu_opts_t e, back;
	tcp_plan_t pl;
	memset(&pl, 0, sizeof(pl));
	tcp_emu_opts_init(&e);
	/* a real run writes none and reads back as real */
	assert_int_equal(tcp_emu_to_plan(&e, &pl), 0);
	assert_int_equal(pl.nopt, 0);
	assert_int_equal(tcp_emu_from_plan(&back, &pl, err, sizeof(err)), 0);
	assert_null(back.target);

	int cta = (int)(rnd() % 5000);
	double x = 1 + (double)(rnd() % 100000) / 37.0;
	snprintf(v, sizeof(v), "%d", cta);
	assert_int_equal(tcp_emu_parse_opt(&e, "--emu-trace", v, 1, err, sizeof(err)), 1);
	assert_int_equal(tcp_emu_parse_opt(&e, "--emu-tmem", "stale", 1, err, sizeof(err)), 1);
	snprintf(v, sizeof(v), "%.17g", x);
	assert_int_equal(tcp_emu_parse_opt(&e, "--emu-slowdown", v, 1, err, sizeof(err)), 1);
	assert_int_equal(tcp_emu_finish(&e, tgt("sm_103a"), 1, err, sizeof(err)), 0);
	assert_int_equal(tcp_emu_to_plan(&e, &pl), 0);
	assert_string_equal(tcp_plan_option(&pl, "emulated"), "sm_103a");
	assert_string_equal(tcp_plan_option(&pl, "emu_tmem"), "stale");
	assert_int_equal(tcp_emu_from_plan(&back, &pl, err, sizeof(err)), 0);
	assert_ptr_equal(back.target, e.target);
	assert_int_equal(back.flags, e.flags);
	assert_int_equal(back.trace_cta, cta);
	assert_true(back.slowdown == x);

	/* the probe's context */
	tcp_ctx_t c;
	memset(&c, 0x5a, sizeof(c));
	tcp_emu_fill_ctx(&back, &c);
	assert_ptr_equal(c.emu_target, tgt("sm_103a"));
	assert_int_equal(c.emu_flags, TCP_EMU_F_TMEM_STALE | TCP_EMU_F_TRACE);
	assert_int_equal(c.emu_trace_cta, cta);
	assert_true(c.emu_slowdown == x);
	tcp_emu_opts_t real;
	tcp_emu_opts_init(&real);
	tcp_emu_fill_ctx(&real, &c);
	assert_null(c.emu_target);
	assert_int_equal(c.emu_flags, 0);
	assert_int_equal(c.emu_trace_cta, -1);
	assert_true(c.emu_slowdown == 1.0);

	/* a malformed plan option is refused, not guessed */
	tcp_plan_set_option(&pl, "emu_slowdown", "0");
	assert_int_equal(tcp_emu_from_plan(&back, &pl, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "got '0'"));
	tcp_plan_set_option(&pl, "emu_slowdown", "3");
	tcp_plan_set_option(&pl, "emulated", "sm_90a");
	assert_int_equal(tcp_emu_from_plan(&back, &pl, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "sm_90a"));

	/* --resume: each build finishes only its own kind of run */
	assert_int_equal(tcp_emu_resume_check(&e, 1, "d", err, sizeof(err)), 0);
	assert_int_equal(tcp_emu_resume_check(&real, 0, "d", err, sizeof(err)), 0);
	assert_int_equal(tcp_emu_resume_check(&e, 0, "d", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "emulated run (of sm_103a)"));
	assert_int_equal(tcp_emu_resume_check(&real, 1, "d", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "hardware run"));

	/* provenance */
	tcp_prov_t *p = calloc(1, sizeof(*p));
	assert_non_null(p);
	tcp_prov_init(p);
	assert_int_equal(tcp_emu_provenance(&real, p), 0);
	assert_null(tcp_prov_get(p, "emulated"));
	assert_int_equal(tcp_emu_provenance(&e, p), 0);
	assert_string_equal(tcp_prov_get(p, "emulated"), "sm_103a");
	assert_string_equal(tcp_prov_get(p, "emu_tmem"), "stale");
	assert_true(fabs(atof(tcp_prov_get(p, "emu_slowdown")) - x) <= 1e-5 * x);
	free(p);
}

/* ------------------------------------------------- a whole emulated sweep */

enum { M_OK, M_SLOW, M_CTX, M_FLAKY };
static const char *const modes[] = { "ok", "slow", "ctx", "flaky", NULL };
static const tcp_axis_t axes[] = { { "mode", "what the fake does", modes, "ok" } };
static const tcp_metric_t metrics[] = { { "value", "cycles", 0, "a fake time", TCP_ROLE_AUTO, 0, 0 } };

/* What the next sweep's workers (forked: they inherit these) expect and do. */
static const tcp_target_info_t *want_target;
static unsigned want_flags;
static double want_slowdown;
static int flaky_invalid;

static tcp_status_t fake_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	*state = (void *)(intptr_t)p->v[0];
	if (p->v[0] == M_CTX && (c->emu_target != want_target || c->emu_flags != want_flags ||
				 c->emu_slowdown != want_slowdown)) {
		snprintf(c->reason, sizeof(c->reason), "context: got target %s flags %u slowdown %g",
			 c->emu_target ? c->emu_target->name : "none", c->emu_flags, c->emu_slowdown);
		return TCP_INVALID;
	}
	return TCP_OK;
}

static tcp_status_t fake_validate(void *state, tcp_ctx_t *c)
{
	if ((intptr_t)state == M_FLAKY && flaky_invalid) {
		snprintf(c->reason, sizeof(c->reason), "mismatch at element 0");
		return TCP_INVALID;
	}
	return TCP_OK;
}

static tcp_status_t fake_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	(void)c;
	if ((intptr_t)state == M_SLOW)
		usleep(150000);
	out->v[0] = 100.0 + (double)(rnd() % 1000);
	return TCP_OK;
}

static const tcp_probe_t fake = {
	.name = "tc_fake", .family = "test", .help = "a host stand-in for a tcgen05 probe", .arch = TCP_ARCH_HOST,
	.axes = axes, .naxes = 1, .metrics = metrics, .nmetrics = 1, .setup = fake_setup,
	.validate = fake_validate, .run = fake_run,
};
static const tcp_probe_t *const probes[] = { &fake };

/* One sweep of every mode into dir, stderr into errfile; its exit status. */
static int sweep(const char *dir, const tcp_emu_opts_t *e, const char *errfile, const char *resume)
{
	char err[1024];
	tcp_spec_t s;
	tcp_spec_init(&s);
	assert_int_equal(tcp_spec_add_probe(&s, "tc_fake", "--probe", probes, 1, err, sizeof(err)), 0);
	assert_int_equal(tcp_spec_set(&s, "mode=ok,slow,ctx,flaky", "--set", err, sizeof(err)), 0);
	tcp_sweep_opts_t o = {
		.spec = resume ? NULL : &s, .reps = resume ? -1 : 3, .warmup = resume ? -1 : 0,
		.timeout = resume ? -1 : 0.2, .gpu = -1, .counters = resume ? NULL : "none",
		.out_dir = resume ? NULL : dir, .resume_dir = resume, .quiet = 1,
	};
	o.emu = *e;
	fflush(stderr);
	int save = dup(2), fd = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(save >= 0 && fd >= 0);
	dup2(fd, 2);
	close(fd);
	int rc = tcp_sweep_run(probes, 1, &o);
	fflush(stderr);
	dup2(save, 2);
	close(save);
	tcp_spec_free(&s);
	return rc;
}

/* The last line of a file, into buf. */
static const char *last_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	buf[0] = '\0';
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		snprintf(buf, len, "%s", line);
	fclose(f);
	return buf;
}

static const char *status_of(const tcp_run_t *r, const char *axes_key)
{
	const tcp_run_point_t *p = tcp_run_find(r, "tc_fake", axes_key);
	assert_non_null(p);
	return tcp_status_name((tcp_status_t)p->status);
}

/* Run `tcprobe ARGS`, stdout+stderr into out; its exit status. */
static int tcprobe(const char *out, const char *fmt, ...)
{
	const char *bin = getenv("TCPROBE") ? getenv("TCPROBE") : "build/tcprobe";
	char args[2048], cmd[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof(cmd), "%s %s >%s 2>&1", bin, args, out);
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int file_has(const char *path, const char *what)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 22);
	size_t n;
	int has;
	assert_non_null(buf);
	if (!f) {
		free(buf);
		return 0;
	}
	n = fread(buf, 1, (1 << 22) - 1, f);
	buf[n] = '\0';
	fclose(f);
	has = strstr(buf, what) != NULL;
	free(buf);
	return has;
}

static void test_emulated_sweep_and_its_readers(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/test-emulate-XXXXXX", emu1[256], emu2[256], real[256], errf[300], out[300],
	     line[4096], err[1024];
	assert_non_null(mkdtemp(tmpl));
	snprintf(emu1, sizeof(emu1), "%s/emu1", tmpl);
	snprintf(emu2, sizeof(emu2), "%s/emu2", tmpl);
	snprintf(real, sizeof(real), "%s/real", tmpl);
	snprintf(errf, sizeof(errf), "%s/stderr.txt", tmpl);
	snprintf(out, sizeof(out), "%s/out.txt", tmpl);

	/* emulated: sm_110a, stale TMEM, slowdown 40 (the slow point's 0.45 s fits 0.2 s x 40) */
	tcp_emu_opts_t e;
	tcp_emu_opts_init(&e);
	assert_int_equal(tcp_emu_parse_opt(&e, "--emu-tmem", "stale", 1, err, sizeof(err)), 1);
	assert_int_equal(tcp_emu_parse_opt(&e, "--emu-slowdown", "40", 1, err, sizeof(err)), 1);
	assert_int_equal(tcp_emu_finish(&e, tgt("sm_110a"), 1, err, sizeof(err)), 0);
	want_target = e.target;
	want_flags = TCP_EMU_F_TMEM_STALE;
	want_slowdown = 40;
	assert_int_equal(sweep(emu1, &e, errf, NULL), 0);
	last_line(errf, line, sizeof(line));
	if (strncmp(line, "EMULATED sm_110a run:", 21) != 0)
		fail_msg("last line: %s", line);
	assert_true(file_has(errf, "(EMULATED: no times)"));
	tcp_run_t *r;
	if (tcp_run_open(emu1, 0, &r, err, sizeof(err)))
		fail_msg("%s", err);
	assert_string_equal(tcp_run_emulated(r), "sm_110a");
	assert_string_equal(tcp_run_prov(r, "emu_tmem"), "stale");
	assert_string_equal(tcp_run_prov(r, "emu_slowdown"), "40");
	for (int m = 0; modes[m]; m++) {
		char k[32];
		snprintf(k, sizeof(k), "mode=%s", modes[m]);
		if (strcmp(status_of(r, k), "OK") != 0)
			fail_msg("%s: %s %s", k, status_of(r, k), tcp_run_find(r, "tc_fake", k)->reason);
	}
	tcp_run_free(r);
	snprintf(line, sizeof(line), "%s/plan.txt", emu1);
	assert_true(file_has(line, "#option emulated=sm_110a"));

	/* the same plan as a hardware run: the slow point times out, the context is a real run's */
	tcp_emu_opts_t none;
	memset(&none, 0, sizeof(none));
	want_target = NULL;
	want_flags = 0;
	want_slowdown = 1.0;
	assert_int_equal(sweep(real, &none, errf, NULL), TCP_EXIT_POINTS);
	assert_false(file_has(errf, "EMULATED"));
	if (tcp_run_open(real, 0, &r, err, sizeof(err)))
		fail_msg("%s", err);
	assert_null(tcp_run_emulated(r));
	assert_string_equal(status_of(r, "mode=slow"), "TIMEOUT");
	assert_string_equal(status_of(r, "mode=ctx"), "OK");
	assert_string_equal(status_of(r, "mode=ok"), "OK");
	tcp_run_free(r);

	/* a second emulated run in which one point fails its validation */
	want_target = e.target;
	want_flags = TCP_EMU_F_TMEM_STALE;
	want_slowdown = 40;
	flaky_invalid = 1;
	assert_int_equal(sweep(emu2, &e, errf, NULL), TCP_EXIT_POINTS);
	flaky_invalid = 0;

	/* an emulated run counts nothing: --counters other than none is refused */
	tcp_sweep_opts_t co = { .spec = NULL, .reps = 3, .warmup = 0, .timeout = 1, .gpu = -1,
				.counters = "default", .out_dir = emu2, .quiet = 1 };
	tcp_spec_t cs;
	tcp_spec_init(&cs);
	assert_int_equal(tcp_spec_add_probe(&cs, "tc_fake", "--probe", probes, 1, err, sizeof(err)), 0);
	co.spec = &cs;
	co.emu = e;
	assert_int_equal(tcp_sweep_run(probes, 1, &co), TCP_EXIT_USAGE);
	const char *cn = NULL;
	assert_int_equal(tcp_emu_counters(NULL, &cn, err, sizeof(err)), 0);
	assert_string_equal(cn, "none");
	assert_int_equal(tcp_emu_counters("none", &cn, err, sizeof(err)), 0);
	assert_int_equal(tcp_emu_counters("default", &cn, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "got 'default', expected none"));
	tcp_spec_free(&cs);
	snprintf(line, sizeof(line), "%s/provenance.csv", emu1);
	assert_true(file_has(line, "counters,off") || file_has(line, "counters,none"));

	/* --resume by the wrong kind of build is refused, nothing written */
	assert_int_equal(sweep(NULL, &none, errf, emu1), TCP_EXIT_USAGE);
	assert_true(file_has(errf, "an emulated run (of sm_110a)"));
	assert_int_equal(sweep(NULL, &e, errf, real), TCP_EXIT_USAGE);
	assert_true(file_has(errf, "a hardware run"));

	/* compare, as a library: kinds, and status-only verdicts */
	tcp_cmp_run_t runs[3];
	assert_int_equal(tcp_cmp_run_load(emu1, NULL, &runs[0], err, sizeof(err)), 0);
	assert_int_equal(tcp_cmp_run_load(emu2, NULL, &runs[1], err, sizeof(err)), 0);
	assert_int_equal(tcp_cmp_run_load(real, NULL, &runs[2], err, sizeof(err)), 0);
	assert_int_equal(tcp_cmp_same_kind(&runs[0], &runs[1], 1, err, sizeof(err)), 0);
	assert_int_equal(tcp_cmp_same_kind(&runs[2], &runs[0], 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "EMULATED run (sm_110a)"));
	assert_int_equal(tcp_cmp_same_kind(&runs[0], &runs[1], 2, err, sizeof(err)), -1);
	tcp_cmp_t c;
	assert_int_equal(tcp_cmp_join(&runs[0], &runs[1], 1, TCP_CMP_NOISE_FLOOR, TCP_CMP_THRESHOLD, &c, err,
				      sizeof(err)), 0);
	int nsame = 0;
	for (int i = 0; i < c.nrows; i++) {
		const tcp_cmp_cell_t *cl = &c.rows[i].cells[0];
		assert_true(isnan(cl->ratio));
		assert_true(isnan(cl->base->median));
		assert_string_equal(cl->base->median_s, "");
		if (!strcmp(c.rows[i].axes, "mode=flaky")) {
			assert_int_equal(cl->verdict, TCP_V_STATUS);
			assert_int_equal(cl->regression, 1);
		} else {
			assert_int_equal(cl->verdict, TCP_V_SAME);	/* the random times never count */
			nsame++;
		}
	}
	assert_int_equal(nsame, 3);
	assert_int_equal(tcp_cmp_regressions(&c), 1);
	tcp_cmp_free(&c);
	for (int i = 0; i < 3; i++)
		tcp_cmp_run_free(&runs[i]);

	/* the release binary refuses the emulation options and a run-time --arch, one line each */
	assert_int_equal(tcprobe(out, "run -p tc_alloc -n --emu-slowdown 5"), 2);
	assert_true(file_has(out, "tcprobe: run: --emu-slowdown: only in the emulation build: got '5'"));
	assert_int_equal(tcprobe(out, "run -p tc_alloc -n --emu-tmem=stale"), 2);
	assert_true(file_has(out, "tcprobe: run: --emu-tmem: only in the emulation build: got 'stale'"));
	assert_int_equal(tcprobe(out, "run -p tc_alloc -n --emu-trace"), 2);
	assert_true(file_has(out, "--emu-trace: got nothing, expected a CTA index"));
	assert_int_equal(tcprobe(out, "run -p tc_alloc --arch sm_100a"), 2);
	assert_true(file_has(out, "--arch: only with --dry-run"));

	/* compare and report, as the binary does them */
	assert_int_equal(tcprobe(out, "compare %s %s", real, emu1), 2);
	assert_true(file_has(out, "EMULATED run (sm_110a)"));
	FILE *f = fopen(out, "r");
	int nl = 0;
	for (int ch; f && (ch = fgetc(f)) != EOF;)
		nl += ch == '\n';
	fclose(f);
	assert_int_equal(nl, 1);	/* one line */
	assert_int_equal(tcprobe(out, "compare %s %s", emu1, emu1), 0);
	assert_int_equal(tcprobe(out, "compare %s %s", emu1, emu2), 1);
	assert_int_equal(tcprobe(out, "report --no-plots %s", emu1), 0);
	snprintf(line, sizeof(line), "%s/report.md", emu1);
	char first[4096];
	f = fopen(line, "r");
	assert_non_null(f);
	assert_non_null(fgets(first, sizeof(first), f));
	fclose(f);
	if (strncmp(first, "# EMULATED sm_110a run", 22) != 0)
		fail_msg("report's first line: %s", first);
	assert_false(file_has(line, "Best point"));
	assert_false(file_has(line, "## Plots"));
	assert_true(file_has(line, "Validation: 4 points OK"));
	snprintf(line, sizeof(line), "%s/summary.json", emu1);
	assert_int_not_equal(access(line, F_OK), 0);
	assert_int_equal(tcprobe(out, "report --extract %s %s", tmpl, emu1), 2);
	assert_true(file_has(out, "EMULATED run (sm_110a)"));
	assert_int_equal(tcprobe(out, "report --no-plots --baseline %s %s", real, emu1), 2);
	/* fleet spreads hardware times: an emulated run is refused */
	assert_int_equal(tcprobe(out, "fleet --no-csv %s", emu1), 2);
	assert_true(file_has(out, "EMULATED run (sm_110a)"));
	/* a hardware run's report is unchanged: no EMULATED anywhere */
	assert_int_equal(tcprobe(out, "report --no-plots %s", real), 0);
	snprintf(line, sizeof(line), "%s/report.md", real);
	assert_false(file_has(line, "EMULATED"));

	snprintf(line, sizeof(line), "rm -rf %s", tmpl);
	assert_int_equal(system(line), 0);
}

/* ./sweep --emulate: its arguments, spec and target, through a dry run of $TCPROBE */
static void test_sweep_script(void **state)
{
	(void)state;
	const char *bin = getenv("TCPROBE") ? getenv("TCPROBE") : "build/tcprobe";
	char tmpl[] = "/tmp/test-emulate-sweep-XXXXXX", out[300], cmd[1024];
	assert_non_null(mkdtemp(tmpl));
	snprintf(out, sizeof(out), "%s/out.txt", tmpl);
	snprintf(cmd, sizeof(cmd), "TCPROBE=%s ./sweep --emulate sm_103a --dry-run >%s 2>&1", bin, out);
	assert_int_equal(system(cmd), 0);
	assert_true(file_has(out, "sweep: EMULATED sm_103a: the tcgen05 probes of sweeps/blackwell.sweep"));
	assert_true(file_has(out, "plan for sm_103a (compute capability 10.3"));
	assert_true(file_has(out, "kind::i8"));	/* sm_103a's own SKIPPED reason */
	assert_false(file_has(out, "calib "));	/* the tcgen05 sections only */
	snprintf(cmd, sizeof(cmd), "TCPROBE=%s ./sweep --emulate --dry-run >%s 2>&1", bin, out);
	assert_int_equal(system(cmd), 0);
	assert_true(file_has(out, "plan for sm_100a"));
	snprintf(cmd, sizeof(cmd), "TCPROBE=%s ./sweep --emulate --gpus all >%s 2>&1", bin, out);
	int st = system(cmd);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	assert_true(file_has(out, "--emulate runs on one GPU"));
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpl);
	assert_int_equal(system(cmd), 0);
}

/* scripts/ci/emu-mutants.sh reads the planted-defect table out of the header
 * with sed: every row, in order, with the fields the C table holds. */
static void test_mutants_script_reads_the_table(void **state)
{
	(void)state;
	FILE *f = popen("scripts/ci/emu-mutants.sh --list", "r");
	assert_non_null(f);
	char line[1024];
	int n = 0;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = 0;
		assert_true(n < TCP_MUT_COUNT);
		const tcp_mutant_row_t *m = &tcp_mutants[n];
		char want[1024];
		const char *pts = m->points;
		snprintf(want, sizeof want, "%s|%s|%s|%s|%s", m->name, pts, m->tmem ? m->tmem : "poison", m->status,
			 m->reason);
		assert_string_equal(line, want);
		n++;
	}
	assert_int_equal(pclose(f), 0);
	assert_int_equal(n, TCP_MUT_COUNT);
	/* the modes are ones --emu-tmem takes */
	for (int i = 0; i < TCP_MUT_COUNT; i++)
		if (tcp_mutants[i].tmem)
			assert_true(!strcmp(tcp_mutants[i].tmem, "poison,stale") || !strcmp(tcp_mutants[i].tmem, "stale"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_options_refused_by_release_build),
		cmocka_unit_test(test_options_emulation_build),
		cmocka_unit_test(test_finish_picks_the_emulated_target),
		cmocka_unit_test(test_why_not),
		cmocka_unit_test(test_list_built_column),
		cmocka_unit_test(test_plan_is_the_dry_run_plan),
		cmocka_unit_test(test_plan_options_ctx_provenance),
		cmocka_unit_test(test_emulated_sweep_and_its_readers),
		cmocka_unit_test(test_sweep_script),
		cmocka_unit_test(test_mutants_script_reads_the_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
