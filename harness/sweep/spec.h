/*
 * spec.h
 *	Sweep specifications: what to run, as data.  One spec is a list of
 *	groups; a group is one probe with a value list per axis (unset axes take
 *	the probe's default) and optional reps / warmup / timeout.  Groups come
 *	from sweep files (sweeps/NAME.sweep, INI like fio) and from the command line
 *	(`--probe NAME --set AXIS=VALUES`, nvbench style); both go through the
 *	same value-list parser, so both reject the same malformed input with the
 *	same one-line message:
 *	    <file>:<line>: <what>: got '<value>', expected <legal range>
 *
 *	Value lists (integers or enumerated names, per the axis):
 *	    a,b,c   [a,b,c]          explicit values
 *	    lo:hi:step  [lo:hi:step] inclusive range, step > 0 (step 1 if omitted)
 *	    pow2:lo:hi               lo, 2lo, 4lo, ... hi (lo, hi powers of two)
 *	Items of a comma list may themselves be ranges: [8:64:8,128,pow2:256:1024].
 *
 *	`include = FILE` (anywhere in a sweep file; a relative FILE is taken from
 *	the including file's directory) puts FILE's sections at that place, as if
 *	written there.  It ends the section it stands in: keys after it need a
 *	section header.  FILE's [global] applies to FILE's sections; the including
 *	file's [global] fills in what neither a section nor its own file's
 *	[global] sets.  A file that is already being read (a cycle), a missing
 *	file and more than TCP_SPEC_MAX_INCLUDE_DEPTH nested includes are errors
 *	of one line naming the include and the file.
 */
#ifndef TCP_SPEC_H
#define TCP_SPEC_H

#include <stddef.h>
#include <stdint.h>

#include "probes/common/probe.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TCP_SPEC_ERRLEN		512
#define TCP_SPEC_MAX_VALUES	100000	/* values per axis: a typo guard */
#define TCP_SPEC_MAX_BYTES	(1u << 20)	/* a sweep file's size: the largest shipped is ~5 KB */
#define TCP_SPEC_MAX_INCLUDE_DEPTH 8	/* nested `include =` lines */

/* Legal ranges of the per-point keys (also the CLI options). */
#define TCP_REPS_MIN		1
#define TCP_REPS_MAX		100000
#define TCP_WARMUP_MAX		100000
#define TCP_TIMEOUT_MIN		0.05
#define TCP_TIMEOUT_MAX		86400.0

/* --reps auto (harness/measure/stats.h: tcp_reps_next): the CI target and the
 * time budget of a point's timed runs. */
#define TCP_NOISE_MIN		0.001	/* percent */
#define TCP_NOISE_MAX		100.0
#define TCP_NOISE_DEFAULT	0.5
#define TCP_REP_BUDGET_MIN	0.001	/* seconds */
#define TCP_REP_BUDGET_MAX	86400.0
#define TCP_REP_BUDGET_DEFAULT	1.0

/* Built-in defaults when neither the command line nor a spec sets them
 * (reps: the count under --reps N, the cap under --reps auto). */
#define TCP_REPS_DEFAULT	10
#define TCP_WARMUP_DEFAULT	2
#define TCP_TIMEOUT_DEFAULT	30.0

/* One probe's sweep: a value list per axis (NULL = the axis default). */
typedef struct {
	const tcp_probe_t *probe;
	int64_t *vals[TCP_MAX_AXES];	/* owned; NULL = not set */
	int nvals[TCP_MAX_AXES];
	int reps, warmup;		/* -1 = inherit */
	double timeout;			/* seconds; < 0 = inherit */
	char where[160];		/* "sweeps/x.sweep:12" or "command line" */
} tcp_spec_group_t;

typedef struct {
	int n, cap;
	tcp_spec_group_t *g;
} tcp_spec_t;

void tcp_spec_init(tcp_spec_t *s);
void tcp_spec_free(tcp_spec_t *s);

/*
 * tcp_values_parse()
 *	Parse `text` as a value list for axis `ax` into a malloc'd array
 *	(*out, *n).  Enumerated axes hold name indices.  Duplicates, empty
 *	lists, bad numbers, step <= 0, hi < lo, unknown names are errors:
 *	-1 with "<what>: got '<v>', expected <range>" in err (no location).
 */
int tcp_values_parse(const tcp_axis_t *ax, const char *text, int64_t **out, int *n,
		     char *err, size_t len);

/*
 * tcp_spec_parse_file() / tcp_spec_parse_string()
 *	Append the groups of one sweep file (or of `text`, named `name` in
 *	messages) to s, looking probes up in probes[0..nprobes).  The file must
 *	be a regular file of at most TCP_SPEC_MAX_BYTES, or "-" for standard
 *	input (read to its end, same limit; named "stdin" in messages); a FIFO,
 *	device or directory is refused without reading it (harness/store/infile.h).  Keys of
 *	[global] (reps, warmup, timeout) apply to every group of that file that
 *	does not set its own.  `include = FILE` lines are followed (above; in a
 *	string, a relative FILE is taken from the directory of `name`).  0, or -1
 *	with the full one-line message
 *	"<file>:<line>: <what>: got '<v>', expected <range>" in err.
 */
int tcp_spec_parse_file(tcp_spec_t *s, const char *path, const tcp_probe_t *const *probes,
			int nprobes, char *err, size_t len);
int tcp_spec_parse_string(tcp_spec_t *s, const char *text, const char *name,
			  const tcp_probe_t *const *probes, int nprobes, char *err, size_t len);

/* Append a group for probe `name` (command line --probe).  0 / -1 + err. */
int tcp_spec_add_probe(tcp_spec_t *s, const char *name, const char *where,
		       const tcp_probe_t *const *probes, int nprobes, char *err, size_t len);

/* Apply "AXIS=VALUES" (command line --set) to the last group.  0 / -1 + err. */
int tcp_spec_set(tcp_spec_t *s, const char *assignment, const char *where, char *err,
		 size_t len);

/* Parse helpers shared with the CLI: whole-string integer / seconds in a
 * range.  0, or -1 with "<what>: got '<v>', expected <range>" in err. */
int tcp_parse_int(const char *what, const char *text, long long lo, long long hi,
		  long long *out, char *err, size_t len);
int tcp_parse_seconds(const char *what, const char *text, double lo, double hi, double *out,
		      char *err, size_t len);

/* Render value v of axis ax canonically ("bf16", "256") into buf. */
const char *tcp_axis_value_str(const tcp_axis_t *ax, int64_t v, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* TCP_SPEC_H */
