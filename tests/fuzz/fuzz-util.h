/*
 * fuzz-util.h
 *	Helpers the libFuzzer targets in tests/fuzz/ share: a private scratch
 *	directory (the readers under test take paths, not buffers), input
 *	bytes as a file or as a C string, and FUZZ_CHECK, which aborts (a
 *	finding libFuzzer saves as crash-<sha1>) when a property the code
 *	promises does not hold.  Header-only: each target is one .c file.
 */
#ifndef TCP_FUZZ_UTIL_H
#define TCP_FUZZ_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FUZZ_CHECK(cond, ...)                                                        \
	do {                                                                         \
		if (!(cond)) {                                                       \
			fprintf(stderr, "fuzz property failed at %s:%d: %s: ", __FILE__, \
				__LINE__, #cond);                                    \
			fprintf(stderr, __VA_ARGS__);                                \
			fputc('\n', stderr);                                         \
			abort();                                                     \
		}                                                                    \
	} while (0)

static char fuzz_dir[256];

static void fuzz_cleanup(void)
{
	char cmd[300];

	if (fuzz_dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fuzz_dir);
		if (system(cmd) != 0)
			fprintf(stderr, "fuzz: could not remove %s\n", fuzz_dir);
	}
}

/* The scratch directory, created on first use (in /dev/shm when it exists:
 * the readers are driven through files thousands of times a second). */
static const char *fuzz_scratch(void)
{
	if (!fuzz_dir[0]) {
		const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";

		snprintf(fuzz_dir, sizeof(fuzz_dir), "%s/tcprobe-fuzz-XXXXXX", base);
		if (!mkdtemp(fuzz_dir)) {
			perror("fuzz: mkdtemp");
			abort();
		}
		atexit(fuzz_cleanup);
	}
	return fuzz_dir;
}

/* "<scratch>/<name>" into buf. */
static const char *fuzz_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", fuzz_scratch(), name);
	return buf;
}

/* Write exactly d[0..n) to path (truncating). */
static void fuzz_write(const char *path, const uint8_t *d, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f || (n && fwrite(d, 1, n, f) != n) || fclose(f) != 0) {
		perror(path);
		abort();
	}
}

/* d[0..n) as a NUL-terminated string (cut at the first NUL); free() it. */
static char *fuzz_cstr(const uint8_t *d, size_t n)
{
	char *s = malloc(n + 1);

	if (!s)
		abort();
	memcpy(s, d, n);
	s[n] = '\0';
	return s;
}

/* An error message must be one non-empty line. */
static void fuzz_check_msg(const char *err)
{
	FUZZ_CHECK(err[0] != '\0', "empty error message");
	FUZZ_CHECK(strchr(err, '\n') == NULL, "error message spans lines: [%s]", err);
}

#endif /* TCP_FUZZ_UTIL_H */
