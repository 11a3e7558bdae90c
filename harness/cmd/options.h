/*
 * options.h
 *	The command line of every `tcprobe` command, as data.  A command
 *	declares each option once (tcp_opt_t: long and short name, metavar,
 *	value kind with its range or choices, default, help) and its
 *	positional arguments (tcp_cmd_spec_t); from that one table come the
 *	parsing (tcp_opts_parse: "--opt VALUE", "--opt=VALUE", "-o VALUE",
 *	positional arguments anywhere), the `--help` text (tcp_opts_usage, its
 *	"exit:" line from harness/store/exit.h) and every bad-input line:
 *	one line on stderr, "tcprobe: CMD: --opt: got 'X', expected Y", and
 *	exit status 2.
 */
#ifndef TCP_OPTIONS_H
#define TCP_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#define TCP_OPTS_OK	-1	/* tcp_opts_parse: parsed, go on */
#define TCP_OPT_ERRLEN	2048	/* a callback's err buffer */

typedef enum {
	TCP_OPT_HEADING,	/* no option: a heading line of --help (.help) */
	TCP_OPT_FLAG,		/* no value: *ival or *uval = 1 */
	TCP_OPT_INT,		/* an integer in lo..hi: *ival or *uval */
	TCP_OPT_DOUBLE,		/* a number in lo..hi: *dval */
	TCP_OPT_PERCENT,	/* "0.5" or "0.5%" in lo..hi: *dval */
	TCP_OPT_CHOICE,		/* one of .choices: *ival or *uval = its value, *sval = its name */
	TCP_OPT_STRING,		/* a non-empty string: *sval */
	TCP_OPT_LIST,		/* repeatable non-empty string: appended to list[*nlist], at most .max */
} tcp_opt_kind_t;

/* flags */
#define TCP_OPT_HIDDEN	1u	/* parsed, left out of --help and of "expected one of" */
#define TCP_OPT_HEX	2u	/* INT: 0x hex too (strtoll base 0) */
#define TCP_OPT_LO_OPEN	4u	/* DOUBLE / PERCENT: > lo, not >= lo */
#define TCP_OPT_NORANGE	8u	/* --help shows no range */

typedef struct {
	const char *name;
	int value;
	int hidden;		/* an alias: accepted, not listed */
} tcp_opt_choice_t;

typedef struct tcp_opt tcp_opt_t;

/* A check more than a range can say: 0, or -1 with the line (without the
 * "tcprobe: CMD: " prefix) in err, e.g. through tcp_opt_bad(). */
typedef int (*tcp_opt_fn)(tcp_opt_t *o, const char *val, char *err, size_t len);

struct tcp_opt {
	const char *name;		/* "--reps" */
	char shrt;			/* 'f' for -f; 0 none */
	const char *metavar;		/* "FILE"; CHOICE without one: its names joined by '|' */
	tcp_opt_kind_t kind;
	double lo, hi;			/* INT, DOUBLE, PERCENT; hi = INFINITY: no upper bound */
	const tcp_opt_choice_t *choices;	/* CHOICE: ends with a NULL name */
	const char *def;		/* the default as --help says it; NULL none */
	const char *help;		/* one paragraph, wrapped; '\n' breaks a line */
	const char *what;		/* what a value is, for errors: "seconds", "a directory" */
	unsigned flags;
	int *ival;
	unsigned *uval;
	double *dval;
	const char **sval;
	const char **list;		/* LIST */
	int *nlist;
	int max;
	tcp_opt_fn fn;			/* when set, takes the value instead of the kind's parse */
	void *ctx;			/* for fn */
	int seen;			/* set by tcp_opts_parse: times given */
};

typedef struct {
	const char *name;		/* "run", "encode idesc": the line prefix; its first
					 * word names the command in the exit table */
	const char *usage;		/* "usage: tcprobe ..." lines */
	const char *about;		/* text between the usage lines and the options */
	const char *epilog;		/* text after the options, before "exit:" */
	tcp_opt_t *opts;
	int nopts;
	const char *args_what;		/* positional arguments, for errors ("RUN_DIR (a results
					 * directory)"); with max_args 0, what is expected instead */
	int min_args, max_args;
	char **args;			/* where they go, in order */
	int nargs;			/* set by tcp_opts_parse */
} tcp_cmd_spec_t;

#define TCP_NOPTS(a) ((int)(sizeof(a) / sizeof((a)[0])))

/*
 * tcp_opts_parse()
 *	argv[first..argc) by c: TCP_OPTS_OK, or the exit status the command
 *	returns now: 0 after --help (printed on stdout), 2 after one line on
 *	stderr naming the bad option or argument and what it takes.
 */
int tcp_opts_parse(tcp_cmd_spec_t *c, int argc, char **argv, int first);

/* The --help text of c on f. */
void tcp_opts_usage(const tcp_cmd_spec_t *c, FILE *f);

/* The kind's parse of val into o's destination (for a callback that
 * wraps it): 0, or -1 with "--opt: got 'val', expected ..." in err. */
int tcp_opt_value(tcp_opt_t *o, const char *val, char *err, size_t len);

/* "--opt: got 'val', expected <fmt ...>" into err; returns -1. */
int tcp_opt_bad(char *err, size_t len, const tcp_opt_t *o, const char *val, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* o's expected value ("an integer in 1..100000", "events or cupti") into buf. */
const char *tcp_opt_expected(const tcp_opt_t *o, char *buf, size_t len);

/* The option of c named name ("--m"), NULL none. */
tcp_opt_t *tcp_opts_find(tcp_cmd_spec_t *c, const char *name);

/* Print "tcprobe: CMD: <fmt ...>" on stderr; returns 2 (TCP_EXIT_USAGE). */
int tcp_cmd_bad(const tcp_cmd_spec_t *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * tcp_text_wrap()
 *	text on f from column col in lines of at most `width` columns (a
 *	longer word stands alone), every further line indented by `indent`;
 *	'\n' in text breaks a line, and TCP_NBSP is a space no line breaks at.
 */
#define TCP_NBSP '\x1f'
void tcp_text_wrap(FILE *f, const char *text, int col, int indent, int width);

/* A command's usage "exit:" line (cmd NULL: every status, briefly). */
void tcp_exit_usage(FILE *f, const char *cmd);

/* docs/exit-codes.md's table from harness/store/exit.h: 0, -1 on a write error. */
int tcp_exit_markdown(FILE *f);

#endif /* TCP_OPTIONS_H */
