/*
 * test-block.c
 *	The BLOCKED rule and the per-probe verdict lines (harness/sweep/block.h):
 *	the rule on its own
 *	(keys, streaks, resets, --no-block, one state per GPU, the verdict
 *	line's format), then whole sweeps of a host-only fake probe whose
 *	points fail as a pattern says (a wait site named the way trap.cuh's
 *	status word names it, reasons that differ only in CTA and cycle count,
 *	hangs the supervisor kills, crashes, result mismatches), and compare's
 *	verdict for a point OK in BASE and BLOCKED in NEW.  No GPU: the fake's
 *	points run in the real worker under the real supervisor.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness/analyze/compare.h"
#include "harness/store/csvio.h"
#include "harness/store/run.h"
#include "harness/sweep/block.h"
#include "harness/sweep/supervisor.h"
#include "test-exec.h"
#include "test-rows.h"
#include "test-util.h"

/* ---- the rule on its own ------------------------------------------------ */

/* A reason the way a status word decodes: its CTA and time differ per point. */
static const char *wait_reason(const char *site, char *buf, size_t len)
{
	snprintf(buf, len, "mbarrier wait timed out at %s (site 2), CTA %u, after %llu ns", site,
		 (unsigned)(next_u64() % 148), (unsigned long long)(next_u64() % 4000000000ull));
	return buf;
}

static void test_key(void **state)
{
	(void)state;
	char k1[TCP_BLOCK_KEYLEN], k2[TCP_BLOCK_KEYLEN], w[TCP_BLOCK_KEYLEN], r1[256], r2[256];

	/* a named site: the key is status + site, never the reason's CTA or time */
	assert_int_equal(tcp_block_key(TCP_TIMEOUT, "mma completion", wait_reason("mma completion", r1, sizeof(r1)),
				       k1, sizeof(k1), w, sizeof(w)), 1);
	assert_string_equal(w, "mma completion");
	assert_int_equal(tcp_block_key(TCP_TIMEOUT, "mma completion", "other text altogether", k2, sizeof(k2), w,
				       sizeof(w)), 1);
	assert_string_equal(k1, k2);
	assert_int_equal(tcp_block_key(TCP_TIMEOUT, "commit", r1, k2, sizeof(k2), w, sizeof(w)), 1);
	assert_string_not_equal(k1, k2);
	assert_int_equal(tcp_block_key(TCP_FAILED, "mma completion", r1, k2, sizeof(k2), w, sizeof(w)), 1);
	assert_string_not_equal(k1, k2);	/* another status, another key */
	/* no site: the reason with its digits dropped */
	snprintf(r1, sizeof(r1), "launch failed at CTA %u, %u bytes", (unsigned)(next_u64() % 1000),
		 (unsigned)(next_u64() % 100000));
	snprintf(r2, sizeof(r2), "launch failed at CTA %u, %u bytes", (unsigned)(next_u64() % 1000) + 1000,
		 (unsigned)(next_u64() % 100000));
	assert_int_equal(tcp_block_key(TCP_FAILED, "", r1, k1, sizeof(k1), w, sizeof(w)), 1);
	assert_string_equal(w, r1);
	assert_int_equal(tcp_block_key(TCP_FAILED, NULL, r2, k2, sizeof(k2), w, sizeof(w)), 1);
	assert_string_equal(k1, k2);
	assert_int_equal(tcp_block_key(TCP_FAILED, NULL, "worker killed by SIGSEGV", k2, sizeof(k2), w, sizeof(w)), 1);
	assert_string_not_equal(k1, k2);
	/* not eligible: plan decisions, OK, and INVALID from a result check */
	assert_int_equal(tcp_block_key(TCP_OK, NULL, "", k1, sizeof(k1), w, sizeof(w)), 0);
	assert_int_equal(tcp_block_key(TCP_SKIPPED, NULL, "illegal", k1, sizeof(k1), w, sizeof(w)), 0);
	assert_int_equal(tcp_block_key(TCP_UNSUPPORTED, NULL, "sm_90", k1, sizeof(k1), w, sizeof(w)), 0);
	assert_int_equal(tcp_block_key(TCP_BLOCKED, NULL, "x", k1, sizeof(k1), w, sizeof(w)), 0);
	assert_int_equal(tcp_block_key(TCP_INVALID, NULL, "mismatch at element 3", k1, sizeof(k1), w, sizeof(w)), 0);
	/* ... but INVALID the device flagged at a site (a bad TMEM address) is */
	assert_int_equal(tcp_block_key(TCP_INVALID, "alloc", "tcgen05.alloc returned a bad address", k1, sizeof(k1), w,
				       sizeof(w)), 1);
	/* a long reason is cut for the verdict line */
	char longr[200];
	memset(longr, 'x', sizeof(longr) - 1);
	longr[sizeof(longr) - 1] = '\0';
	assert_int_equal(tcp_block_key(TCP_FAILED, NULL, longr, k1, sizeof(k1), w, sizeof(w)), 1);
	assert_int_equal(strlen(w), 63);
}

/* Feed a pattern to one probe's rule: a/b = TIMEOUT at site a/b, O = OK,
 * S = SKIPPED, U = UNSUPPORTED, I = INVALID (result check); the returned
 * string has B where the rule would write BLOCKED, else the letter fed. */
static void feed(tcp_block_t *b, const char *probe, const char *pat, char *got)
{
	char r[256];
	size_t i;
	for (i = 0; pat[i]; i++) {
		if (tcp_block_why(b, probe)) {
			got[i] = 'B';
			continue;
		}
		got[i] = pat[i];
		switch (pat[i]) {
		case 'a':
		case 'b': {
			const char *site = pat[i] == 'a' ? "site a" : "site b";
			tcp_block_note(b, probe, TCP_TIMEOUT, site, wait_reason(site, r, sizeof(r)));
			break;
		}
		case 'O': tcp_block_note(b, probe, TCP_OK, "", ""); break;
		case 'S': tcp_block_note(b, probe, TCP_SKIPPED, "", "illegal"); break;
		case 'U': tcp_block_note(b, probe, TCP_UNSUPPORTED, "", "no code"); break;
		case 'I': tcp_block_note(b, probe, TCP_INVALID, "", "mismatch at element 3"); break;
		default: fail_msg("bad pattern letter %c", pat[i]);
		}
	}
	got[i] = '\0';
}

static void test_rule(void **state)
{
	(void)state;
	static const struct { const char *in, *out; } cases[] = {
		{ "aaaaa", "aaaBB" },		/* 3 in a row at one site: the rest BLOCKED */
		{ "aaa", "aaa" },		/* ... the last point was the third: nothing left */
		{ "ababab", "ababab" },		/* different sites: no streak */
		{ "aabaaa", "aabaaa" },		/* a different site restarts the count */
		{ "aabbbaa", "aabbbBB" },	/* ... and three of the new one block */
		{ "aaOaaaa", "aaOaaaB" },	/* an OK in between resets */
		{ "aaIaaaa", "aaIaaaB" },	/* so does an INVALID result (not eligible) */
		{ "aaSaaa", "aaSaBB" },		/* SKIPPED neither counts nor resets */
		{ "aUaSaa", "aUaSaB" },		/* nor does UNSUPPORTED */
		{ "IIIIII", "IIIIII" },		/* INVALID results are never blocked */
		{ "OOOOO", "OOOOO" },
	};
	char got[64];
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		tcp_block_t b = { 0 };
		feed(&b, "p", cases[k].in, got);
		if (strcmp(got, cases[k].out))
			fail_msg("pattern %s: got %s, want %s", cases[k].in, got, cases[k].out);
		tcp_block_free(&b);
	}

	/* the reason names the status, the site and the first point's reason */
	tcp_block_t b = { 0 };
	char r1[256], r[256];
	wait_reason("site a", r1, sizeof(r1));
	assert_int_equal(tcp_block_note(&b, "p", TCP_TIMEOUT, "site a", r1), 0);
	assert_int_equal(tcp_block_note(&b, "p", TCP_TIMEOUT, "site a", wait_reason("site a", r, sizeof(r))), 0);
	assert_null(tcp_block_why(&b, "p"));
	assert_int_equal(tcp_block_note(&b, "p", TCP_TIMEOUT, "site a", wait_reason("site a", r, sizeof(r))), 1);
	char want[600];
	snprintf(want, sizeof(want), "3 points in a row TIMEOUT at site a (first: %s); --no-block runs them", r1);
	assert_string_equal(tcp_block_why(&b, "p"), want);
	assert_string_equal(tcp_block_where(&b, "p"), "site a");
	/* per probe: another probe's points are untouched */
	assert_null(tcp_block_why(&b, "q"));
	feed(&b, "q", "aaO", got);
	assert_string_equal(got, "aaO");
	/* per GPU: one state per GPU (one supervisor runs one GPU) */
	tcp_block_t gpu1 = { 0 };
	feed(&gpu1, "p", "aaOa", got);
	assert_string_equal(got, "aaOa");
	assert_non_null(tcp_block_why(&b, "p"));
	tcp_block_free(&gpu1);

	/* --resume: the BLOCKED reason read back restores the block and what it names */
	tcp_block_t res = { 0 };
	assert_int_equal(tcp_block_restore(&res, "p", want), 0);
	assert_string_equal(tcp_block_why(&res, "p"), want);
	assert_string_equal(tcp_block_where(&res, "p"), "site a");
	tcp_block_free(&res);
	tcp_block_free(&b);

	/* a reason key: the first reason, whatever its digits */
	tcp_block_t f = { 0 };
	for (int i = 0; i < 3; i++) {
		snprintf(r, sizeof(r), "worker exited with status %d at %d", 9, (int)(next_u64() % 100));
		assert_int_equal(tcp_block_note(&f, "p", TCP_FAILED, NULL, r), i == 2);
	}
	assert_non_null(strstr(tcp_block_why(&f, "p"), "3 points in a row FAILED for the same reason (first: worker exited with status 9 at "));
	tcp_block_t g = { 0 };
	assert_int_equal(tcp_block_restore(&g, "p", tcp_block_why(&f, "p")), 0);
	assert_string_equal(tcp_block_where(&g, "p"), tcp_block_where(&f, "p"));
	tcp_block_free(&f);
	tcp_block_free(&g);

	/* a long first reason is cut: the hint still ends the reason, which fits a row */
	tcp_block_t l = { 0 };
	char lr[TCP_REASON_LEN];
	for (size_t i = 0; i < sizeof(lr) - 1; i++)
		lr[i] = (char)('a' + next_u64() % 26);
	lr[sizeof(lr) - 1] = '\0';
	for (int i = 0; i < 3; i++)
		tcp_block_note(&l, "p", TCP_TIMEOUT, "a site with a name of sixty-three characters, the most ctx.sit", lr);
	const char *lw = tcp_block_why(&l, "p");
	assert_true(strlen(lw) < TCP_REASON_LEN + 128);	/* struct result's reason */
	assert_string_equal(lw + strlen(lw) - strlen("...); --no-block runs them"), "...); --no-block runs them");
	tcp_block_free(&l);

	/* --no-block: never blocks */
	tcp_block_t off = { .off = 1 };
	feed(&off, "p", "aaaaaa", got);
	assert_string_equal(got, "aaaaaa");
	assert_null(tcp_block_where(&off, "p"));
	tcp_block_free(&off);
}

static void test_verdict_format(void **state)
{
	(void)state;
	char b[256];
	int c[TCP_NSTATUS] = { 0 };
	int n = 1 + (int)(next_u64() % 500);

	c[TCP_OK] = n;
	snprintf(b, sizeof(b), "%d/%d OK", n, n);
	char want[64];
	snprintf(want, sizeof(want), "tc_alloc: %d/%d OK", n, n);
	assert_string_equal(tcp_block_verdict("tc_alloc", c, NULL, b, sizeof(b)), want);
	c[TCP_OK] = 12, c[TCP_TIMEOUT] = 3, c[TCP_BLOCKED] = 279;
	assert_string_equal(tcp_block_verdict("tc_mma_lat", c, "tcgen05.mma completion", b, sizeof(b)),
			    "tc_mma_lat: 12 OK, 3 TIMEOUT, 279 BLOCKED (tcgen05.mma completion)");
	memset(c, 0, sizeof(c));
	c[TCP_UNSUPPORTED] = 40;
	assert_string_equal(tcp_block_verdict("tc_alloc", c, NULL, b, sizeof(b)), "tc_alloc: 40/40 UNSUPPORTED");
	/* every status, in the order OK, FAILED, TIMEOUT, INVALID, BLOCKED, SKIPPED, UNSUPPORTED */
	for (int i = 0; i < TCP_NSTATUS; i++)
		c[i] = i + 1;
	assert_string_equal(tcp_block_verdict("p", c, "w", b, sizeof(b)),
			    "p: 1 OK, 2 FAILED, 3 TIMEOUT, 4 INVALID, 7 BLOCKED (w), 5 SKIPPED, 6 UNSUPPORTED");
	memset(c, 0, sizeof(c));
	assert_string_equal(tcp_block_verdict("p", c, NULL, b, sizeof(b)), "p: no points");
	/* a small buffer truncates, never overflows */
	char small[12];
	for (int i = 0; i < TCP_NSTATUS; i++)
		c[i] = 1000 + i;
	tcp_block_verdict("probe", c, "where", small, sizeof(small));
	assert_int_equal(strlen(small), sizeof(small) - 1);
}

/* ---- whole sweeps of a fake probe --------------------------------------- */

/* The point's outcome is seq[i]: see run() below. */
static const char *const seqs[] = { "aaaaa", "ababab", "aaOaaaa", "aaSaa", "NNNNN", "IIIII", "JJJJ", "HHHH",
				    "XXXX", "OOO", NULL };
static const tcp_axis_t axes[] = {
	{ "seq", "outcome of point i: letter i", seqs, "OOO" },
	{ "i", "point index", NULL, "0" },
};
static const tcp_metric_t metrics[] = { { "value", "x", 1, "i + 1", TCP_ROLE_AUTO, 0, 0 } };

struct fstate {
	char c;
	int64_t i;
};

static char letter(const tcp_point_t *p)
{
	const char *s = seqs[p->v[0]];
	return p->v[1] < (int64_t)strlen(s) ? s[p->v[1]] : 'O';
}

static int blk_legal(const tcp_point_t *p, char *reason, size_t len)
{
	if (letter(p) == 'S') {
		snprintf(reason, len, "illegal by construction");
		return 0;
	}
	return 1;
}

static tcp_status_t blk_setup(const tcp_point_t *p, tcp_ctx_t *c, void **state)
{
	(void)c;
	struct fstate *s = calloc(1, sizeof(*s));
	s->c = letter(p);
	s->i = p->v[1];
	*state = s;
	return TCP_OK;
}

/*
 * a, b  TIMEOUT at a named wait site, the reason as a status word decodes
 *       (CTA and time from the point's seed: different every point)
 * N     TIMEOUT, no site, reasons that differ in their digits only
 * H     hang: the supervisor kills it at the point timeout
 * I     INVALID, a result mismatch (no site)
 * J     INVALID at a site (the device flagged a bad TMEM address)
 * X     the worker aborts (FAILED, "worker killed by SIGABRT")
 * O     OK
 */
static tcp_status_t blk_run(void *state, tcp_ctx_t *c, tcp_sample_t *out)
{
	struct fstate *s = state;
	unsigned cta = (unsigned)(c->seed % 148);
	unsigned long long ns = c->seed >> 20;
	switch (s->c) {
	case 'a':
	case 'b':
		snprintf(c->site, sizeof(c->site), "wait %c", s->c);
		snprintf(c->reason, TCP_REASON_LEN, "mbarrier wait timed out at wait %c (site %d), CTA %u, after %llu ns",
			 s->c, s->c - 'a', cta, ns);
		return TCP_TIMEOUT;
	case 'N':
		snprintf(c->reason, TCP_REASON_LEN, "spin gave up at CTA %u after %llu cycles", cta, ns);
		return TCP_TIMEOUT;
	case 'H': sleep(100); break;
	case 'I':
		snprintf(c->reason, TCP_REASON_LEN, "mismatch at element %u: got 1, expected 2", cta);
		return TCP_INVALID;
	case 'J':
		snprintf(c->site, sizeof(c->site), "alloc");
		snprintf(c->reason, TCP_REASON_LEN, "tcgen05.alloc returned a bad address at alloc (site 0), CTA %u: 0x%08llx",
			 cta, ns & 0xffffffffull);
		return TCP_INVALID;
	case 'X': abort();
	default: break;
	}
	out->v[0] = (double)(s->i + 1);
	return TCP_OK;
}

static void blk_teardown(void *state)
{
	free(state);
}

#define FAKE(nm) { .name = nm, .family = "test", .help = "fails as its seq axis says", .arch = TCP_ARCH_HOST, \
		   .axes = axes, .naxes = 2, .metrics = metrics, .nmetrics = 1, .legal = blk_legal, \
		   .setup = blk_setup, .run = blk_run, .teardown = blk_teardown }
static const tcp_probe_t blk = FAKE("blk"), blk2 = FAKE("blk2");
static const tcp_probe_t *const probes[] = { &blk, &blk2 };

static char tmproot[256];
static int nruns;

struct swept {
	int rc;
	char dir[512];
	char st[64];		/* per point, plan order: O F T I B S U */
	char reason[64][512];	/* per point */
	char err[16384];	/* what the sweep said on stderr */
	char log[32768];	/* log.txt */
};

static void slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, len - 1, f) : 0;
	buf[n] = '\0';
	if (f)
		fclose(f);
}

/* Run `spec` (sweep-file text) into a fresh directory, or resume `resume`;
 * stderr captured, rows read back. */
static void sweep(struct swept *w, const char *spec, int no_block, const char *resume)
{
	char err[1024], path[700];
	tcp_spec_t s;
	tcp_spec_init(&s);
	memset(w, 0, sizeof(*w));
	if (resume) {
		snprintf(w->dir, sizeof(w->dir), "%s", resume);
	} else {
		snprintf(w->dir, sizeof(w->dir), "%s/run-%d", tmproot, nruns++);
		if (tcp_spec_parse_string(&s, spec, "test", probes, 2, err, sizeof(err)))
			fail_msg("%s", err);
	}
	tcp_sweep_opts_t o = {
		.spec = resume ? NULL : &s, .reps = resume ? -1 : 1, .warmup = resume ? -1 : 0,
		.timeout = resume ? -1 : 0.3, .gpu = -1, .counters = resume ? NULL : "none",
		.out_dir = resume ? NULL : w->dir, .resume_dir = resume, .quiet = 1, .seed_set = !resume,
		.seed = next_u64(), .no_block = no_block,
	};
	snprintf(path, sizeof(path), "%s/stderr-%d.txt", tmproot, nruns++);
	/* stderr (and the run directory printed on stdout) into a file; the
	 * text kept starts with a newline, so that "\nLINE\n" finds any line */
	fflush(NULL);
	int save1 = dup(1), save2 = dup(2), fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(save1 >= 0 && save2 >= 0 && fd >= 0);
	dup2(fd, 1);
	dup2(fd, 2);
	close(fd);
	w->rc = tcp_sweep_run(probes, 2, &o);
	fflush(NULL);
	dup2(save1, 1);
	dup2(save2, 2);
	close(save1);
	close(save2);
	w->err[0] = '\n';
	slurp(path, w->err + 1, sizeof(w->err) - 1);
	tcp_spec_free(&s);

	tcp_table_t t;
	snprintf(path, sizeof(path), "%s/measurements.csv", w->dir);
	if (tcp_table_load(path, &t, err, sizeof(err)))
		fail_msg("%s", err);
	for (int r = 0; r < t.nrows && r < 63; r++) {
		int pt = atoi(tcp_table_get(&t, r, "point"));
		assert_true(pt >= 0 && pt < 63);
		const char *st = tcp_table_get(&t, r, "status");
		w->st[pt] = !strcmp(st, "UNSUPPORTED") ? 'U' : st[0];
		snprintf(w->reason[pt], sizeof(w->reason[pt]), "%s", tcp_table_get(&t, r, "reason"));
	}
	tcp_table_free(&t);
	snprintf(path, sizeof(path), "%s/log.txt", w->dir);
	slurp(path, w->log, sizeof(w->log));
	/* no worker left behind */
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
}

static void expect(const struct swept *w, const char *st, int rc)
{
	if (strcmp(w->st, st) || w->rc != rc)
		fail_msg("statuses %s exit %d, want %s exit %d; stderr:\n%s", w->st, w->rc, st, rc, w->err);
}

static int has(const char *text, const char *s)
{
	return strstr(text, s) != NULL;
}

static void test_sweep_blocks(void **state)
{
	(void)state;
	struct swept *w = calloc(1, sizeof(*w));

	/* three TIMEOUTs at one wait site (their reasons differ in CTA and time) */
	sweep(w, "[blk]\nseq = aaaaa\ni = 0:4\n", 0, NULL);
	expect(w, "TTTBB", TCP_EXIT_POINTS);
	assert_true(has(w->reason[3], "3 points in a row TIMEOUT at wait a (first: mbarrier wait timed out at wait a (site 0), CTA "));
	assert_string_equal(w->reason[3], w->reason[4]);
	assert_true(has(w->err, "blk: BLOCKED: 3 points in a row TIMEOUT at wait a"));
	assert_true(has(w->err, "\nblk: 3 TIMEOUT, 2 BLOCKED (wait a)\n"));
	assert_true(has(w->log, "verdict: blk: 3 TIMEOUT, 2 BLOCKED (wait a)\n"));
	/* the summary counts them, the run model reads them */
	assert_true(has(w->err, "BLOCKED"));
	tcp_run_t *rm;
	char err[512];
	assert_int_equal(tcp_run_open(w->dir, 0, &rm, err, sizeof(err)), 0);
	assert_int_equal(tcp_run_count(rm, "blk", TCP_BLOCKED), 2);
	tcp_run_free(rm);
	/* ... and so do `tcprobe query --summary` and the report's status counts */
	struct out *o = calloc(1, sizeof(*o));
	run(o, NULL, "query", w->dir, "--summary", NULL);
	assert_int_equal(o->status, 0);
	assert_true(has(o->out, "\nstatuses,BLOCKED=2|TIMEOUT=3\n"));
	run(o, NULL, "report", w->dir, "--no-plots", NULL);
	assert_int_equal(o->status, 0);
	char md[700], *text = calloc(1, 1 << 20);
	snprintf(md, sizeof(md), "%s/report.md", w->dir);
	slurp(md, text, 1 << 20);
	if (!has(text, "BLOCKED 2") && !has(text, "| BLOCKED |"))
		fail_msg("report.md does not count the BLOCKED points:\n%s", text);
	free(text);
	free(o);

	/* --no-block runs them all */
	sweep(w, "[blk]\nseq = aaaaa\ni = 0:4\n", 1, NULL);
	expect(w, "TTTTT", TCP_EXIT_POINTS);
	assert_true(has(w->err, "\nblk: 5/5 TIMEOUT\n"));
	assert_false(has(w->err, "BLOCKED:"));

	/* different sites: no block; an OK in between resets; SKIPPED does not */
	sweep(w, "[blk]\nseq = ababab\ni = 0:5\n", 0, NULL);
	expect(w, "TTTTTT", TCP_EXIT_POINTS);
	sweep(w, "[blk]\nseq = aaOaaaa\ni = 0:6\n", 0, NULL);
	expect(w, "TTOTTTB", TCP_EXIT_POINTS);
	assert_true(has(w->err, "\nblk: 1 OK, 5 TIMEOUT, 1 BLOCKED (wait a)\n"));
	sweep(w, "[blk]\nseq = aaSaa\ni = 0:4\n", 0, NULL);
	expect(w, "TTSTB", TCP_EXIT_POINTS);
	assert_true(has(w->err, "\nblk: 3 TIMEOUT, 1 BLOCKED (wait a), 1 SKIPPED\n"));

	/* no site: the reason with its digits dropped is the key */
	sweep(w, "[blk]\nseq = NNNNN\ni = 0:4\n", 0, NULL);
	expect(w, "TTTBB", TCP_EXIT_POINTS);
	assert_true(has(w->reason[3], "3 points in a row TIMEOUT for the same reason (first: spin gave up at CTA "));
	/* INVALID results are never blocked; INVALID at a device site is */
	sweep(w, "[blk]\nseq = IIIII\ni = 0:4\n", 0, NULL);
	expect(w, "IIIII", TCP_EXIT_POINTS);
	sweep(w, "[blk]\nseq = JJJJ\ni = 0:3\n", 0, NULL);
	expect(w, "IIIB", TCP_EXIT_POINTS);
	assert_true(has(w->reason[3], "3 points in a row INVALID at alloc (first: tcgen05.alloc returned a bad address"));
	/* the supervisor's kill at the point timeout, and a crashing worker */
	sweep(w, "[blk]\nseq = HHHH\ni = 0:3\n", 0, NULL);
	expect(w, "TTTB", TCP_EXIT_POINTS);
	assert_true(has(w->reason[3], "3 points in a row TIMEOUT at " TCP_BLOCK_SUPERVISOR " (first: no result within the 0.3 s point timeout; worker killed)"));
	sweep(w, "[blk]\nseq = XXXX\ni = 0:3\n", 0, NULL);
	expect(w, "FFFB", TCP_EXIT_POINTS);
	if (!has(w->reason[3], "(first: worker killed by SIGABRT"))
		fail_msg("reason: %s", w->reason[3]);
	/* all OK: exit 0, "n/n OK" */
	sweep(w, "[blk]\nseq = OOO\ni = 0:2\n", 0, NULL);
	expect(w, "OOO", 0);
	assert_true(has(w->err, "\nblk: 3/3 OK\n"));
	free(w);
}

/* Per probe, sections apart, one verdict line per probe after its last point. */
static void test_sweep_probes(void **state)
{
	(void)state;
	struct swept *w = calloc(1, sizeof(*w));
	sweep(w,
	      "[blk]\nseq = aaaaa\ni = 0:1\n"
	      "[blk2]\nseq = aaaaa\ni = 0:1\n"
	      "[blk2]\nseq = OOO\ni = 0\n"
	      "[blk]\nseq = aaaaa\ni = 2:4\n",
	      0, NULL);
	/* blk's third failure is its fifth point; blk2's two do not add to it */
	expect(w, "TTTTOTBB", TCP_EXIT_POINTS);
	const char *v2 = strstr(w->err, "\nblk2: 1 OK, 2 TIMEOUT\n"), *v1 = strstr(w->err, "\nblk: 3 TIMEOUT, 2 BLOCKED (wait a)\n");
	if (!v1 || !v2 || v2 > v1)
		fail_msg("want blk2's verdict, then blk's; stderr:\n%s", w->err);
	/* one verdict line per probe */
	assert_null(strstr(v1 + 1, "\nblk: "));
	assert_null(strstr(v2 + 1, "\nblk2: "));

	/* --resume: the rows of the last point lost; the block is read back */
	char path[700], cmd[1600];
	snprintf(path, sizeof(path), "%s/measurements.csv", w->dir);
	snprintf(cmd, sizeof(cmd), "sed -i '$d' %s", path);
	assert_int_equal(system(cmd), 0);
	char dir[512];
	snprintf(dir, sizeof(dir), "%s", w->dir);
	char want_reason[512];
	snprintf(want_reason, sizeof(want_reason), "%s", w->reason[6]);
	sweep(w, NULL, 0, dir);
	expect(w, "TTTTOTBB", TCP_EXIT_POINTS);
	assert_string_equal(w->reason[7], want_reason);
	assert_true(has(w->err, "blk: 3 TIMEOUT, 2 BLOCKED (wait a)\n"));
	free(w);
}

/* ---- compare: OK in BASE, BLOCKED in NEW is worse, not missing ------------- */

/* A run of two tc_alloc points of median v, the second with `status` (not OK: no values). */
static void write_run(const char *dir, const char *status, double v)
{
	static const char *const axcols[] = { "ncols" };
	char path[600], err[512], med[3][40];
	int ok = !strcmp(status, "OK");
	tcp_row_t rows[2];
	test_row_buf_t buf[2];
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(path, sizeof(path), "%s/measurements.csv", dir);
	tcp_rows_t *w = tcp_rows_open(path, axcols, 1, 0, err, sizeof(err));
	assert_non_null(w);
	snprintf(med[0], sizeof(med[0]), "%.0f", v);
	snprintf(med[1], sizeof(med[1]), "%.0f", v - 1);
	snprintf(med[2], sizeof(med[2]), "%.0f", v + 1);
	memset(rows, 0, sizeof(rows));
	for (int i = 0; i < 2; i++) {
		const char **c = rows[i].c;
		int row_ok = i == 0 || ok;
		c[TCP_COL_probe] = "tc_alloc";
		c[TCP_COL_axes] = i ? "ncols=64" : "ncols=32";
		c[TCP_COL_metric] = "alloc_cycles";
		c[TCP_COL_unit] = "cycles";
		c[TCP_COL_status] = row_ok ? "OK" : status;
		if (row_ok) {
			c[TCP_COL_median] = med[0];
			c[TCP_COL_min] = med[1];
			c[TCP_COL_max] = med[2];
			c[TCP_COL_spread_pct] = "0.5";
			c[TCP_COL_reps] = "10";
		} else {
			c[TCP_COL_reason] = "3 points in a row TIMEOUT at wait a (first: x)";
		}
		test_row_finish(&rows[i], &buf[i]);
	}
	assert_int_equal(tcp_rows_write(w, rows, 2), 0);
	assert_int_equal(tcp_rows_close(w), 0);
	assert_int_equal(test_write_roles(dir), 0);
}

static void test_compare(void **state)
{
	(void)state;
	/* OK -> BLOCKED: it worked, now it was not even run: a regression */
	static const struct { const char *base, *cur; tcp_verdict_t v; int regression; } cases[] = {
		{ "OK", "BLOCKED", TCP_V_STATUS, 1 },
		{ "BLOCKED", "OK", TCP_V_STATUS, 0 },
		{ "BLOCKED", "BLOCKED", TCP_V_UNMEASURED, 0 },
		{ "TIMEOUT", "BLOCKED", TCP_V_STATUS, 0 },
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		int bok = !strcmp(cases[k].base, "OK"), cok = !strcmp(cases[k].cur, "OK");
		tcp_cmp_point_t b = { .status = cases[k].base, .median = bok ? 5 : NAN, .spread_pct = bok ? 1 : NAN };
		tcp_cmp_point_t n = { .status = cases[k].cur, .median = cok ? 5 : NAN, .spread_pct = cok ? 1 : NAN };
		tcp_cmp_cell_t c;
		tcp_cmp_cell(&b, &n, 1, 1, 3, &c);
		if (c.verdict != cases[k].v || c.regression != cases[k].regression)
			fail_msg("%s -> %s: verdict %s regression %d, want %s %d", cases[k].base, cases[k].cur,
				 tcp_verdict_name(c.verdict), c.regression, tcp_verdict_name(cases[k].v),
				 cases[k].regression);
	}

	/* whole runs: the BLOCKED row is read as BLOCKED (not an unknown word) */
	char base[600], cur[600], err[TCP_CMP_ERRLEN];
	snprintf(base, sizeof(base), "%s/cmp-base", tmproot);
	snprintf(cur, sizeof(cur), "%s/cmp-new", tmproot);
	double v = 100 + (double)(next_u64() % 1000);
	write_run(base, "OK", v);
	write_run(cur, "BLOCKED", v);
	tcp_cmp_run_t rn;
	memset(&rn, 0, sizeof(rn));
	tcp_cmp_filter_t f = { .gpu = -1 };
	if (tcp_cmp_run_load(cur, &f, &rn, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(rn.nstatus[TCP_OK], 1);
	assert_int_equal(rn.nstatus[TCP_BLOCKED], 1);
	assert_int_equal(rn.nstatus[TCP_NSTATUS], 0);
	tcp_cmp_run_free(&rn);
	/* ... and `tcprobe compare` fails the gate on it (exit 1), naming it */
	struct out *o = calloc(1, sizeof(*o));
	run(o, NULL, "compare", base, cur, NULL);
	if (o->status != 1 || !strstr(o->out, "OK->BLOCKED") || lines(o->out) < 2)
		fail_msg("compare: exit %d, want 1 naming OK->BLOCKED; stdout:\n%s\nstderr:\n%s", o->status, o->out,
			 o->err);
	/* a BLOCKED point in BASE that runs OK now is no regression */
	run(o, NULL, "compare", cur, base, NULL);
	assert_int_equal(o->status, 0);
	free(o);
}

int main(void)
{
	struct rlimit nocore = { 0, 0 };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key),
		cmocka_unit_test(test_rule),
		cmocka_unit_test(test_verdict_format),
		cmocka_unit_test(test_sweep_blocks),
		cmocka_unit_test(test_sweep_probes),
		cmocka_unit_test(test_compare),
	};
	test_seed("test-block");
	if (test_mkdtemp(tmproot, sizeof(tmproot), "block"))
		return 1;
	setrlimit(RLIMIT_CORE, &nocore);	/* the aborting fake leaves no core file */
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	return test_rm_tree(tmproot) ? 1 : rc;
}
