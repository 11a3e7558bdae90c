/*
 * options.c
 *	The option-table engine of options.h: parsing argv by a command's
 *	table, the values' checks and their one-line errors, and the --help
 *	text.  The exit-status part of the help is exits.c's.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cmd/options.h"
#include "harness/store/exit.h"

#define HELP_WIDTH	80	/* the widest --help line */
#define HELP_COL_MAX	28	/* the option column is at most this wide */

int tcp_opt_bad(char *err, size_t len, const tcp_opt_t *o, const char *val, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, len, "%s: got '%s', expected ", o->name, val);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < len)
		vsnprintf(err + n, len - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

int tcp_cmd_bad(const tcp_cmd_spec_t *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "tcprobe: %s%s", c->name ? c->name : "", c->name ? ": " : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return TCP_EXIT_USAGE;
}

/* ---- what a value may be ------------------------------------------------------ */

/* "1..100000", ">= 0", "> 0" */
static const char *range_str(const tcp_opt_t *o, char *buf, size_t len)
{
	if (isinf(o->hi))
		snprintf(buf, len, "%s %g", o->flags & TCP_OPT_LO_OPEN ? ">" : ">=", o->lo);
	else if (o->kind == TCP_OPT_INT)
		snprintf(buf, len, "%lld..%lld", (long long)o->lo, (long long)o->hi);
	else
		snprintf(buf, len, "%g..%g", o->lo, o->hi);
	return buf;
}

/* The listed names of a choice, "a, b or c" (sep NULL) or joined by sep. */
static const char *choices_str(const tcp_opt_choice_t *ch, const char *sep, char *buf, size_t len)
{
	int n = 0, k = 0;
	size_t o = 0;

	for (int i = 0; ch[i].name; i++)
		n += !ch[i].hidden;
	buf[0] = '\0';
	for (int i = 0; ch[i].name && o < len; i++) {
		if (ch[i].hidden)
			continue;
		const char *s = !k ? "" : sep ? sep : k == n - 1 ? " or " : ", ";
		o += (size_t)snprintf(buf + o, len - o, "%s%s", s, ch[i].name);
		k++;
	}
	return buf;
}

static const char *default_what(tcp_opt_kind_t k)
{
	switch (k) {
	case TCP_OPT_INT: return "an integer";
	case TCP_OPT_DOUBLE: return "a number";
	case TCP_OPT_PERCENT: return "a percentage";
	case TCP_OPT_FLAG: return "no value";
	default: return "a value";
	}
}

const char *tcp_opt_expected(const tcp_opt_t *o, char *buf, size_t len)
{
	const char *what = o->what ? o->what : default_what(o->kind);
	char r[64];

	if (o->kind == TCP_OPT_CHOICE && !o->what)
		return choices_str(o->choices, NULL, buf, len);
	if (o->kind == TCP_OPT_INT || o->kind == TCP_OPT_DOUBLE || o->kind == TCP_OPT_PERCENT)
		snprintf(buf, len, "%s%s%s", what, isinf(o->hi) ? " " : " in ", range_str(o, r, sizeof(r)));
	else
		snprintf(buf, len, "%s", what);
	return buf;
}

/* ---- the kinds' parses ---------------------------------------------------------- */

static int bad_value(tcp_opt_t *o, const char *val, char *err, size_t len)
{
	char e[512];

	return tcp_opt_bad(err, len, o, val, "%s", tcp_opt_expected(o, e, sizeof(e)));
}

static int in_range(const tcp_opt_t *o, double v)
{
	if (o->flags & TCP_OPT_LO_OPEN ? !(v > o->lo) : !(v >= o->lo))
		return 0;
	return isinf(o->hi) || v <= o->hi;
}

static int take_int(tcp_opt_t *o, const char *val, char *err, size_t len)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(val, &end, o->flags & TCP_OPT_HEX ? 0 : 10);
	if (!*val || *end || errno || val[0] == ' ' || !in_range(o, (double)v))
		return bad_value(o, val, err, len);
	if (o->ival)
		*o->ival = (int)v;
	if (o->uval)
		*o->uval = (unsigned)v;
	return 0;
}

static int take_double(tcp_opt_t *o, const char *val, char *err, size_t len)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(val, &end);
	if (end == val)
		return bad_value(o, val, err, len);
	if (o->kind == TCP_OPT_PERCENT && *end == '%')
		end++;
	if (*end || errno || !isfinite(v) || val[0] == ' ' || !in_range(o, v))
		return bad_value(o, val, err, len);
	if (o->dval)
		*o->dval = v;
	return 0;
}

static int take_choice(tcp_opt_t *o, const char *val, char *err, size_t len)
{
	for (int i = 0; o->choices[i].name; i++)
		if (!strcmp(val, o->choices[i].name)) {
			if (o->ival)
				*o->ival = o->choices[i].value;
			if (o->uval)
				*o->uval = (unsigned)o->choices[i].value;
			if (o->sval)
				*o->sval = o->choices[i].name;
			return 0;
		}
	return bad_value(o, val, err, len);
}

static int take_string(tcp_opt_t *o, const char *val, char *err, size_t len)
{
	if (!*val)
		return bad_value(o, val, err, len);
	if (o->kind == TCP_OPT_STRING) {
		*o->sval = val;
		return 0;
	}
	if (*o->nlist >= o->max)
		return tcp_opt_bad(err, len, o, val, "at most %d values", o->max);
	o->list[(*o->nlist)++] = val;
	return 0;
}

int tcp_opt_value(tcp_opt_t *o, const char *val, char *err, size_t len)
{
	switch (o->kind) {
	case TCP_OPT_INT:
		return take_int(o, val, err, len);
	case TCP_OPT_DOUBLE:
	case TCP_OPT_PERCENT:
		return take_double(o, val, err, len);
	case TCP_OPT_CHOICE:
		return take_choice(o, val, err, len);
	case TCP_OPT_STRING:
	case TCP_OPT_LIST:
		return take_string(o, val, err, len);
	default:
		return bad_value(o, val, err, len);
	}
}

/* ---- argv ----------------------------------------------------------------------- */

static int is_help(const char *a)
{
	return !strcmp(a, "-h") || !strcmp(a, "--help");
}

tcp_opt_t *tcp_opts_find(tcp_cmd_spec_t *c, const char *name)
{
	for (int i = 0; i < c->nopts; i++)
		if (c->opts[i].kind != TCP_OPT_HEADING && !strcmp(c->opts[i].name, name))
			return &c->opts[i];
	return NULL;
}

/* The option a names ("--name", "--name=VALUE", "-x"); *val the part after '='. */
static tcp_opt_t *match(tcp_cmd_spec_t *c, const char *a, const char **val)
{
	size_t n = strcspn(a, "=");

	*val = a[n] == '=' && a[1] == '-' ? a + n + 1 : NULL;
	for (int i = 0; i < c->nopts; i++) {
		tcp_opt_t *o = &c->opts[i];
		if (o->kind == TCP_OPT_HEADING)
			continue;
		if (a[1] == '-' ? strlen(o->name) == n && !strncmp(o->name, a, n) : o->shrt && a[1] == o->shrt && !a[2])
			return o;
	}
	return NULL;
}

static int unknown(const tcp_cmd_spec_t *c, const char *a, char *err, size_t len)
{
	size_t o = (size_t)snprintf(err, len, "unknown option: got '%s', expected one of ", a);

	for (int i = 0; i < c->nopts && o < len; i++)
		if (c->opts[i].kind != TCP_OPT_HEADING && !(c->opts[i].flags & TCP_OPT_HIDDEN))
			o += (size_t)snprintf(err + o, len - o, "%s, ", c->opts[i].name);
	if (o < len)
		snprintf(err + o, len - o, "--help");
	return TCP_EXIT_USAGE;
}

static int positional(tcp_cmd_spec_t *c, char *a, char *err, size_t len)
{
	if (c->nargs >= c->max_args) {
		snprintf(err, len, "unexpected argument: got '%s', expected %s", a, c->args_what);
		return TCP_EXIT_USAGE;
	}
	c->args[c->nargs++] = a;
	return TCP_OPTS_OK;
}

/* One option or argument at argv[*i]: TCP_OPTS_OK, 0 (--help printed), or 2 with err. */
static int parse_one(tcp_cmd_spec_t *c, int argc, char **argv, int *i, char *err, size_t len)
{
	const char *a = argv[*i], *val;
	char e[512];

	if (is_help(a)) {
		tcp_opts_usage(c, stdout);
		return 0;
	}
	if (a[0] != '-' || !a[1])
		return positional(c, argv[*i], err, len);
	tcp_opt_t *o = match(c, a, &val);
	if (!o)
		return unknown(c, a, err, len);
	o->seen++;
	if (o->kind == TCP_OPT_FLAG) {
		if (val)
			return tcp_opt_bad(err, len, o, val, "no value"), TCP_EXIT_USAGE;
		if (o->ival)
			*o->ival = 1;
		if (o->uval)
			*o->uval = 1;
		return TCP_OPTS_OK;
	}
	if (!val && *i + 1 >= argc) {
		snprintf(err, len, "%s: got nothing, expected %s", o->name, tcp_opt_expected(o, e, sizeof(e)));
		return TCP_EXIT_USAGE;
	}
	if (!val)
		val = argv[++*i];
	return (o->fn ? o->fn(o, val, err, len) : tcp_opt_value(o, val, err, len)) ? TCP_EXIT_USAGE : TCP_OPTS_OK;
}

int tcp_opts_parse(tcp_cmd_spec_t *c, int argc, char **argv, int first)
{
	char err[TCP_OPT_ERRLEN];
	int rc = TCP_OPTS_OK;

	c->nargs = 0;
	for (int i = first; i < argc && rc == TCP_OPTS_OK; i++)
		rc = parse_one(c, argc, argv, &i, err, sizeof(err));
	if (rc == TCP_OPTS_OK && c->nargs < c->min_args) {
		snprintf(err, sizeof(err), "got %d argument%s, expected %s", c->nargs, c->nargs == 1 ? "" : "s",
			 c->args_what);
		rc = TCP_EXIT_USAGE;
	}
	if (rc == TCP_EXIT_USAGE)
		tcp_cmd_bad(c, "%s", err);
	return rc;
}

/* ---- --help --------------------------------------------------------------------- */

void tcp_text_wrap(FILE *f, const char *text, int col, int indent, int width)
{
	int start = 1, kept = 0;	/* at a line's start; kept: after a '\n' (its spaces count) */

	for (const char *p = text; *p;) {
		if (*p == '\n') {
			fprintf(f, "\n%*s", indent, "");
			col = indent, start = kept = 1, p++;
			continue;
		}
		int gap = (int)strspn(p, " "), n = (int)strcspn(p + gap, " \n");
		if (!start && col + gap + n > width)
			fprintf(f, "\n%*s", indent, ""), col = indent, start = 1;
		if (!start || kept)
			col += fprintf(f, "%*s", gap, "");
		for (const char *w = p + gap; w < p + gap + n; w++)
			fputc(*w == TCP_NBSP ? ' ' : *w, f);
		col += n;
		p += gap + n, start = kept = 0;
	}
}

/* "  -f, --spec FILE" */
static int left_str(const tcp_opt_t *o, char *buf, size_t len)
{
	char ch[256], sh[8] = "";
	const char *mv = o->metavar;

	if (!mv && o->kind == TCP_OPT_CHOICE)
		mv = choices_str(o->choices, "|", ch, sizeof(ch));
	if (o->shrt)
		snprintf(sh, sizeof(sh), "-%c, ", o->shrt);
	return snprintf(buf, len, "  %s%s%s%s", sh, o->name, mv ? " " : "", mv ? mv : "");
}

/* A default as --help says it: a number as %g ("30.0" -> "30"), else as written. */
static const char *default_str(const char *def, char *buf, size_t len)
{
	char *end;
	double v = strtod(def, &end);

	if (end != def && !*end)
		snprintf(buf, len, "%g", v);
	else
		snprintf(buf, len, "%s", def);
	return buf;
}

/* The help paragraph with its range and default: "... (0..100; default 2)". */
static const char *help_str(const tcp_opt_t *o, char *buf, size_t len)
{
	char r[64] = "", d[256] = "";
	int ranged = (o->kind == TCP_OPT_INT || o->kind == TCP_OPT_DOUBLE || o->kind == TCP_OPT_PERCENT) &&
		     !(o->flags & TCP_OPT_NORANGE);

	if (ranged)
		range_str(o, r, sizeof(r));
	if (o->def)
		default_str(o->def, d, sizeof(d));
	if (!ranged && !o->def)
		snprintf(buf, len, "%s", o->help);
	else
		snprintf(buf, len, "%s (%s%s%s%s)", o->help, r, *r && o->def ? "; " : "", o->def ? "default " : "", d);
	return buf;
}

static void print_opt(FILE *f, const char *left, const char *help, int col)
{
	int n = fprintf(f, "%s", left);

	if (n + 2 > col)
		fprintf(f, "\n%*s", col, "");
	else
		fprintf(f, "%*s", col - n, "");
	tcp_text_wrap(f, help, col, col, HELP_WIDTH);
	fputc('\n', f);
}

static int column(const tcp_cmd_spec_t *c)
{
	char left[256];
	int w = (int)strlen("  -h, --help");

	for (int i = 0; i < c->nopts; i++) {
		const tcp_opt_t *o = &c->opts[i];
		if (o->kind == TCP_OPT_HEADING || (o->flags & TCP_OPT_HIDDEN))
			continue;
		int n = left_str(o, left, sizeof(left));
		if (n + 2 <= HELP_COL_MAX && n > w)
			w = n;
	}
	return w + 2;
}

void tcp_opts_usage(const tcp_cmd_spec_t *c, FILE *f)
{
	char left[256], help[2048], cmd[32];
	int col = column(c);

	fputs(c->usage, f);
	if (c->about)
		fputs(c->about, f);
	if (!c->nopts || c->opts[0].kind != TCP_OPT_HEADING)
		fputs("options:\n", f);
	for (int i = 0; i < c->nopts; i++) {
		const tcp_opt_t *o = &c->opts[i];
		if (o->kind == TCP_OPT_HEADING)
			fprintf(f, "%s\n", o->help);
		else if (!(o->flags & TCP_OPT_HIDDEN))
			left_str(o, left, sizeof(left)), print_opt(f, left, help_str(o, help, sizeof(help)), col);
	}
	print_opt(f, "  -h, --help", "this text", col);
	if (c->epilog)
		fputs(c->epilog, f);
	snprintf(cmd, sizeof(cmd), "%.*s", (int)strcspn(c->name ? c->name : "", " "), c->name ? c->name : "");
	tcp_exit_usage(f, c->name ? cmd : NULL);
}
