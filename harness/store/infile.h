/*
 * infile.h
 *	Opening a file a user names (or a run directory holds) for reading,
 *	without ever blocking on it: `tcprobe run --spec /dev/zero` or a FIFO
 *	must be refused at once, not hang or fill memory.  Every reader of a
 *	user-reachable file (sweep files, plan.txt, every CSV) opens it here.
 *
 *	The file is opened O_NONBLOCK (opening a FIFO with no writer would
 *	otherwise wait forever), fstat'ed, and refused unless it is a regular
 *	file; then O_NONBLOCK is cleared.  A byte limit, when given, is checked
 *	against the size and again while reading (files in /proc say size 0).
 *	"-" means standard input only where the caller allows it, and is read
 *	up to the same limit.  Errors are one line:
 *	    <path>: cannot read <what>: got a FIFO, expected a regular file
 */
#ifndef TCP_INFILE_H
#define TCP_INFILE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * tcp_infile_open()
 *	An fd open for reading on the regular file `path` (blocking reads), or
 *	-1 with the one-line reason in err.  max_bytes > 0: a file larger than
 *	that is refused too.  `what` names the file in the message ("sweep
 *	file", "plan", "CSV").
 */
int tcp_infile_open(const char *path, const char *what, size_t max_bytes, char *err, size_t len);

/*
 * tcp_infile_read()
 *	The whole file, NUL-terminated (malloc'd; *n its length without the
 *	NUL), or NULL with the reason in err.  max_bytes > 0 bounds it (a
 *	longer file or stdin stream is refused, naming the limit); 0 reads any
 *	size.  allow_stdin: "-" reads standard input (a pipe, a terminal, a
 *	file), bounded the same way.
 */
char *tcp_infile_read(const char *path, const char *what, size_t max_bytes, int allow_stdin,
		      size_t *n, char *err, size_t len);

/* "a FIFO", "a directory", "a character device", ... for st_mode. */
const char *tcp_infile_kind(unsigned int st_mode);

#ifdef __cplusplus
}
#endif
#endif /* TCP_INFILE_H */
