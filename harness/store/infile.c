/*
 * infile.c
 *	Non-blocking, regular-files-only opening of input files (infile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/store/infile.h"

const char *tcp_infile_kind(unsigned int m)
{
	if (S_ISREG(m))
		return "a regular file";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

/* "1 MiB", "300 KiB", "17 bytes": the limit as a person reads it. */
static const char *fmt_bytes(size_t b, char *buf, size_t len)
{
	if (b >= (1u << 20) && b % (1u << 20) == 0)
		snprintf(buf, len, "%zu MiB", b >> 20);
	else if (b >= 1024 && b % 1024 == 0)
		snprintf(buf, len, "%zu KiB", b >> 10);
	else
		snprintf(buf, len, "%zu bytes", b);
	return buf;
}

int tcp_infile_open(const char *path, const char *what, size_t max_bytes, char *err, size_t len)
{
	struct stat st;
	char lim[32];
	int fd;

	if (!path || !*path) {
		snprintf(err, len, "cannot read %s: got an empty path, expected a file", what);
		return -1;
	}
	/* O_NONBLOCK: a FIFO without a writer opens at once instead of waiting */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, len, "%s: cannot read %s: got '%s', expected a readable file", path, what,
			 strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		snprintf(err, len, "%s: cannot read %s: got '%s', expected a readable file", path, what,
			 strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, len, "%s: cannot read %s: got %s, expected a regular file", path, what,
			 tcp_infile_kind(st.st_mode));
		close(fd);
		return -1;
	}
	if (max_bytes > 0 && (unsigned long long)st.st_size > max_bytes) {
		snprintf(err, len, "%s: %s too large: got %lld bytes, expected at most %s", path, what,
			 (long long)st.st_size, fmt_bytes(max_bytes, lim, sizeof(lim)));
		close(fd);
		return -1;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

char *tcp_infile_read(const char *path, const char *what, size_t max_bytes, int allow_stdin,
		      size_t *n, char *err, size_t len)
{
	int is_stdin = allow_stdin && path && strcmp(path, "-") == 0;
	int fd = is_stdin ? STDIN_FILENO : tcp_infile_open(path, what, max_bytes, err, len);
	const char *name = is_stdin ? "stdin" : path;
	size_t cap = 4096, got = 0;
	char *buf, lim[32];

	if (fd < 0)
		return NULL;
	buf = malloc(cap);
	while (buf) {
		if (got + 1 == cap) {
			char *nb = cap > ((size_t)-1) / 4 ? NULL : realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		ssize_t r = read(fd, buf + got, cap - got - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(err, len, "%s: cannot read %s: got '%s', expected a readable file", name,
				 what, strerror(errno));
			free(buf);
			buf = NULL;
			goto out;
		}
		if (r == 0) {
			buf[got] = '\0';
			*n = got;
			goto out;
		}
		got += (size_t)r;
		if (max_bytes > 0 && got > max_bytes) {
			snprintf(err, len, "%s: %s too large: got more than %s, expected at most %s", name,
				 what, fmt_bytes(max_bytes, lim, sizeof(lim)), lim);
			free(buf);
			buf = NULL;
			goto out;
		}
	}
	snprintf(err, len, "%s: cannot read %s: got out of memory, expected a smaller file", name, what);
out:
	if (!is_stdin)
		close(fd);
	return buf;
}
