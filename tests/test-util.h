/*
 * test-util.h
 *	What the cmocka tests share (header only, static): the splitmix64
 *	stream their fresh random inputs come from, the run's seed (fresh
 *	every run and printed; TCP_TEST_SEED=<n> replays it), a scratch
 *	directory under $TMPDIR (or /tmp) removed after the group, a
 *	hand-written run's metrics.csv, a command run in-process with its
 *	output captured, and a document's generated table checked against
 *	its generator (include cmocka.h first).
 */
#ifndef TCP_TEST_UTIL_H
#define TCP_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness/store/csvio.h"
#include "harness/store/metrics.h"
#include "test-rows.h"

static uint64_t rng;	/* splitmix64 state, set by test_seed() */

static inline uint64_t next_u64(void)	/* splitmix64 */
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Seed rng: TCP_TEST_SEED when set, else fresh from the clock and pid; printed for a replay. */
static inline void test_seed(const char *name)
{
	const char *pin = getenv("TCP_TEST_SEED");
	uint64_t seed = pin ? strtoull(pin, NULL, 0)
			    : ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid() ^ (uint64_t)clock();

	rng = seed;
	printf("%s: seed %llu (TCP_TEST_SEED=%llu to replay)\n", name, (unsigned long long)seed,
	       (unsigned long long)seed);
}

/* Create $TMPDIR/tcp-test-<tag>-XXXXXX into d; 0, or -1 after perror(). */
static inline int test_mkdtemp(char *d, size_t len, const char *tag)
{
	snprintf(d, len, "%s/tcp-test-%s-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", tag);
	if (!mkdtemp(d)) {
		perror("mkdtemp");
		return -1;
	}
	return 0;
}

/* Remove the scratch directory d and everything in it: 0, or -1. */
static inline int test_rm_tree(const char *d)
{
	char cmd[400];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d);
	return system(cmd) == 0 ? 0 : -1;
}

/* Write text to dir/name (created or truncated): 0, or -1. */
static inline int test_write_file(const char *dir, const char *name, const char *text)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!(f = fopen(path, "w")))
		return -1;
	fputs(text, f);
	return fclose(f) ? -1 : 0;
}

/* s into dir/metrics.csv through the production writer, then freed (s NULL:
 * out of memory).  0, or -1. */
static inline int test_write_meta(const char *dir, tcp_meta_set_t *s)
{
	char path[1024], err[512];
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, TCP_META_FILE);
	rc = !s || tcp_meta_write(s, path, err, sizeof(err)) ? -1 : 0;
	tcp_meta_set_free(s);
	return rc;
}

/*
 * dir/metrics.csv as this binary's sweep describes its metrics (every
 * registered probe, then the rows the harness adds: `tcprobe list
 * --metrics`): for a run a test writes by hand, which compare would
 * otherwise refuse with a partner that has none.  0, or -1.
 */
static inline int test_write_roles(const char *dir)
{
	tcp_meta_set_t *s = tcp_meta_set_new();

	if (s && (tcp_meta_add_probes(s, tcp_probes, tcp_nprobes) || tcp_meta_add_harness(s))) {
		tcp_meta_set_free(s);
		s = NULL;
	}
	return test_write_meta(dir, s);
}

/* dir/metrics.csv of test_declared_roles(): for a run a test writes by hand.  0, or -1. */
static inline int test_write_declared_roles(const char *dir)
{
	return test_write_meta(dir, test_declared_roles());
}

/* A command's exit status, its stdout and stderr (cut to the buffers), its stderr lines. */
typedef struct {
	int rc;
	char out[65536];
	char err[8192];
	int err_lines;
} test_cmd_t;

static inline void test_slurp(FILE *f, char *buf, size_t len)
{
	rewind(f);
	size_t n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
}

/* res = fn(argc, argv) (a tcp_cmd_*), with stdout and stderr captured. */
static inline void test_run_cmd(test_cmd_t *res, int (*fn)(int, char **), int argc, char **argv)
{
	FILE *fo = tmpfile(), *fe = tmpfile();

	if (!fo || !fe) {
		perror("tmpfile");
		exit(1);
	}
	fflush(stdout);
	fflush(stderr);
	int so = dup(1), se = dup(2);
	dup2(fileno(fo), 1);
	dup2(fileno(fe), 2);
	res->rc = fn(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	test_slurp(fo, res->out, sizeof(res->out));
	test_slurp(fe, res->err, sizeof(res->err));
	fclose(fo);
	fclose(fe);
	res->err_lines = 0;
	for (const char *p = res->err; *p; p++)
		res->err_lines += *p == '\n';
}

/*
 * test_generated_doc()
 *	The lines of the document at path between the line that starts with
 *	begin and the line end are gen's output byte for byte; the test fails
 *	otherwise, saying `what` differs (the document is the repository's:
 *	run from its root).
 */
static inline void test_generated_doc(const char *path, const char *begin, const char *end, int (*gen)(FILE *),
				      const char *what)
{
	char err[256], *want = NULL;
	size_t dlen, wlen = 0;
	char *doc = tcp_file_read(path, &dlen, err, sizeof(err));
	FILE *f = open_memstream(&want, &wlen);

	if (!doc)
		fail_msg("%s", err);
	assert_non_null(f);
	assert_int_equal(gen(f), 0);
	fclose(f);
	char *a = strstr(doc, begin), *b = a ? strstr(a, end) : NULL;
	assert_non_null(a);
	assert_non_null(b);
	a = strchr(a, '\n') + 1;
	if ((size_t)(b - a) != wlen || memcmp(a, want, wlen))
		fail_msg("%s: %s differs from its generator: paste its output between the markers", path, what);
	free(want);
	free(doc);
}

#endif /* TCP_TEST_UTIL_H */
