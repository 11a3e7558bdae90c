/*
 * spec.c
 *	Sweep files and --probe/--set into tcp_spec_t groups (see spec.h for the
 *	syntax).  Every error is one line naming where, what, the bad value and
 *	the legal range; nothing here prints or exits.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "harness/store/infile.h"
#include "harness/sweep/spec.h"

/*
 *  trim()
 *	strip leading and trailing white space in place
 */
static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* The enumerated names of an axis as "a, b, c" (for "expected one of"). */
static const char *axis_names(const tcp_axis_t *ax, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (int i = 0; ax->names[i]; i++)
		o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%s", i ? ", " : "",
				      ax->names[i]);
	return buf;
}

int tcp_parse_int(const char *what, const char *text, long long lo, long long hi,
		  long long *out, char *err, size_t len)
{
	char *end;
	errno = 0;
	long long v = strtoll(text, &end, 10);
	while (end && isspace((unsigned char)*end))
		end++;
	if (!*text || isspace((unsigned char)*text) || *end || errno) {
		snprintf(err, len, "%s: got '%s', expected an integer in %lld..%lld", what, text,
			 lo, hi);
		return -1;
	}
	if (v < lo || v > hi) {
		snprintf(err, len, "%s out of range: got '%s', expected %lld..%lld", what, text, lo,
			 hi);
		return -1;
	}
	*out = v;
	return 0;
}

int tcp_parse_seconds(const char *what, const char *text, double lo, double hi, double *out,
		      char *err, size_t len)
{
	char *end;
	errno = 0;
	double v = strtod(text, &end);
	while (end && isspace((unsigned char)*end))
		end++;
	if (!*text || isspace((unsigned char)*text) || *end || errno || !isfinite(v)) {
		snprintf(err, len, "%s: got '%s', expected seconds in %g..%g", what, text, lo, hi);
		return -1;
	}
	if (v < lo || v > hi) {
		snprintf(err, len, "%s out of range: got '%s', expected seconds in %g..%g", what,
			 text, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

const char *tcp_axis_value_str(const tcp_axis_t *ax, int64_t v, char *buf, size_t len)
{
	if (ax->names)
		snprintf(buf, len, "%s", ax->names[v]);
	else
		snprintf(buf, len, "%lld", (long long)v);
	return buf;
}

/* A growing list of values with duplicate detection. */
struct vlist {
	int64_t *v;
	int n, cap;
};

static int vlist_add(struct vlist *l, const tcp_axis_t *ax, int64_t x, char *err, size_t len)
{
	if (l->n >= TCP_SPEC_MAX_VALUES) {
		snprintf(err, len, "too many values for axis %s: got more than %d, expected at most %d",
			 ax->name, TCP_SPEC_MAX_VALUES, TCP_SPEC_MAX_VALUES);
		return -1;
	}
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 16;
		int64_t *nv = realloc(l->v, (size_t)cap * sizeof(*nv));
		if (!nv) {
			snprintf(err, len, "out of memory: got %d values, expected fewer", l->n);
			return -1;
		}
		l->v = nv;
		l->cap = cap;
	}
	l->v[l->n++] = x;
	return 0;
}

static int cmp_val_idx(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;
	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

/*
 *  vlist_check_dups()
 *	the first value repeated (in list order) is an error; sorted, so a
 *	100000-value range takes milliseconds, not the minutes of a pairwise
 *	scan (found by fuzz-plan: a plan.txt key "ncols=4:99000")
 */
static int vlist_check_dups(const struct vlist *l, const tcp_axis_t *ax, char *err, size_t len)
{
	int64_t (*p)[2], at = -1, val = 0;
	if (l->n < 2)
		return 0;
	if (!(p = malloc((size_t)l->n * sizeof(*p)))) {
		snprintf(err, len, "out of memory: got %d values, expected fewer", l->n);
		return -1;
	}
	for (int i = 0; i < l->n; i++) {
		p[i][0] = l->v[i];
		p[i][1] = i;
	}
	qsort(p, (size_t)l->n, sizeof(*p), cmp_val_idx);
	for (int i = 1; i < l->n; i++)
		if (p[i][0] == p[i - 1][0] && (at < 0 || p[i][1] < at)) {
			at = p[i][1];
			val = p[i][0];
		}
	free(p);
	if (at >= 0) {
		char b[64];
		snprintf(err, len, "duplicate value for axis %s: got '%s', expected each value once",
			 ax->name, tcp_axis_value_str(ax, val, b, sizeof(b)));
		return -1;
	}
	return 0;
}

/* One integer of a range or list item, for axis ax. */
static int parse_i64(const tcp_axis_t *ax, const char *s, int64_t *out, char *err, size_t len)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (!*s || isspace((unsigned char)*s) || *end || errno) {
		snprintf(err, len, "bad number for axis %s: got '%s', expected an integer", ax->name,
			 s);
		return -1;
	}
	*out = v;
	return 0;
}

static int is_pow2(int64_t x)
{
	return x > 0 && (x & (x - 1)) == 0;
}

/* One value of a list: an integer, or a name of an enumerated axis. */
static int parse_value(const tcp_axis_t *ax, const char *item, struct vlist *l, char *err, size_t len)
{
	char nb[512];
	if (!ax->names) {
		int64_t v;
		return parse_i64(ax, item, &v, err, len) ? -1 : vlist_add(l, ax, v, err, len);
	}
	for (int i = 0; ax->names[i]; i++)
		if (strcasecmp(ax->names[i], item) == 0)
			return vlist_add(l, ax, i, err, len);
	snprintf(err, len, "unknown value for axis %s: got '%s', expected one of %s", ax->name, item,
		 axis_names(ax, nb, sizeof(nb)));
	return -1;
}

/* pow2:lo:hi, bounds parsed: lo, 2lo, 4lo, ... hi. */
static int add_pow2(const tcp_axis_t *ax, const char *item, int64_t lo, int64_t hi, struct vlist *l, char *err,
		    size_t len)
{
	if (!is_pow2(lo) || !is_pow2(hi)) {
		snprintf(err, len, "pow2 bounds of axis %s are not powers of two: got '%s', expected pow2:lo:hi with lo, hi in 1, 2, 4, ...",
			 ax->name, item);
		return -1;
	}
	if (hi < lo) {
		snprintf(err, len, "pow2 range of axis %s ends before it starts: got '%s', expected lo <= hi",
			 ax->name, item);
		return -1;
	}
	for (int64_t v = lo;; v *= 2) {
		if (vlist_add(l, ax, v, err, len))
			return -1;
		if (v == hi)
			return 0;
	}
}

/* lo:hi:step, bounds parsed: lo, lo + step, ... up to hi. */
static int add_range(const tcp_axis_t *ax, const char *item, int64_t lo, int64_t hi, int64_t step, struct vlist *l,
		     char *err, size_t len)
{
	if (step == 0) {
		snprintf(err, len, "range step of axis %s is zero: got '%s', expected lo:hi:step with step > 0",
			 ax->name, item);
		return -1;
	}
	if (step < 0) {
		snprintf(err, len, "range step of axis %s has the wrong sign: got '%s', expected lo:hi:step with lo <= hi and step > 0",
			 ax->name, item);
		return -1;
	}
	if (hi < lo) {
		snprintf(err, len, "range of axis %s ends before it starts: got '%s', expected lo <= hi",
			 ax->name, item);
		return -1;
	}
	/* count first, in unsigned arithmetic: no overflow for any int64 pair */
	uint64_t count = ((uint64_t)hi - (uint64_t)lo) / (uint64_t)step + 1;
	if (count > TCP_SPEC_MAX_VALUES) {
		snprintf(err, len, "range of axis %s is too long: got '%s' (%llu values), expected at most %d",
			 ax->name, item, (unsigned long long)count, TCP_SPEC_MAX_VALUES);
		return -1;
	}
	for (uint64_t i = 0; i < count; i++)
		if (vlist_add(l, ax, (int64_t)((uint64_t)lo + i * (uint64_t)step), err, len))
			return -1;
	return 0;
}

/* The bounds of lo:hi[:step] (step 1 if omitted), or with is_p2 of pow2:lo:hi. */
static int range_bounds(const tcp_axis_t *ax, const char *item, int is_p2, int64_t *lo, int64_t *hi, int64_t *step,
			char *err, size_t len)
{
	char copy[256], *part[4] = { 0 };
	int np = 0;
	snprintf(copy, sizeof(copy), "%s", is_p2 ? item + 5 : item);
	for (char *p = copy, *c; np < 4; p = c + 1) {
		part[np++] = trim(p);
		if (!(c = strchr(p, ':')))
			break;
		*c = '\0';
	}
	if (is_p2 ? np != 2 : (np < 2 || np > 3)) {
		snprintf(err, len, "malformed %s for axis %s: got '%s', expected %s", is_p2 ? "pow2 range" : "range",
			 ax->name, item, is_p2 ? "pow2:lo:hi" : "lo:hi or lo:hi:step");
		return -1;
	}
	*step = 1;
	if (parse_i64(ax, part[0], lo, err, len) || parse_i64(ax, part[1], hi, err, len) ||
	    (np == 3 && parse_i64(ax, part[2], step, err, len)))
		return -1;
	return 0;
}

/*
 *  parse_item()
 *	one comma-separated item: a value, lo:hi[:step] or pow2:lo:hi
 */
static int parse_item(const tcp_axis_t *ax, char *item, struct vlist *l, char *err, size_t len)
{
	char nb[512];
	int is_p2 = strncasecmp(item, "pow2:", 5) == 0;
	int64_t lo, hi, step;
	if (!is_p2 && !strchr(item, ':'))
		return parse_value(ax, item, l, err, len);
	if (ax->names) {
		snprintf(err, len, "ranges need an integer axis, %s is enumerated: got '%s', expected one of %s",
			 ax->name, item, axis_names(ax, nb, sizeof(nb)));
		return -1;
	}
	if (range_bounds(ax, item, is_p2, &lo, &hi, &step, err, len))
		return -1;
	return is_p2 ? add_pow2(ax, item, lo, hi, l, err, len) : add_range(ax, item, lo, hi, step, l, err, len);
}

/* The list inside its brackets, if any (in place), checked: not empty, no
 * nested brackets.  NULL with err. */
static char *unbracket(const tcp_axis_t *ax, char *s, const char *text, char *err, size_t len)
{
	size_t sl = strlen(s);
	if (sl && (s[0] == '[' || s[sl - 1] == ']')) {
		if (s[0] != '[' || s[sl - 1] != ']' || sl < 2) {
			snprintf(err, len, "unbalanced brackets for axis %s: got '%s', expected [values] or values",
				 ax->name, s);
			return NULL;
		}
		s[sl - 1] = '\0';
		s = trim(s + 1);
	}
	if (!*s) {
		snprintf(err, len, "empty value list for axis %s: got '%s', expected at least one value",
			 ax->name, text);
		return NULL;
	}
	if (strpbrk(s, "[]")) {
		snprintf(err, len, "nested brackets for axis %s: got '%s', expected [a,b,...] or [lo:hi:step]",
			 ax->name, text);
		return NULL;
	}
	return s;
}

/* The comma-separated items of s into l. */
static int parse_items(const tcp_axis_t *ax, char *s, const char *text, struct vlist *l, char *err, size_t len)
{
	for (char *p = s, *c;; p = c + 1) {
		c = strchr(p, ',');
		if (c)
			*c = '\0';
		char *item = trim(p);
		if (!*item) {
			snprintf(err, len, "empty item in the list of axis %s: got '%s', expected values separated by single commas",
				 ax->name, text);
			return -1;
		}
		if (parse_item(ax, item, l, err, len))
			return -1;
		if (!c)
			return 0;
	}
}

int tcp_values_parse(const tcp_axis_t *ax, const char *text, int64_t **out, int *n, char *err,
		     size_t len)
{
	size_t tl = strlen(text);
	char *buf = malloc(tl + 1), *s;
	struct vlist l = { 0 };
	if (!buf) {
		snprintf(err, len, "out of memory: got '%s', expected a shorter list", text);
		return -1;
	}
	memcpy(buf, text, tl + 1);
	if (!(s = unbracket(ax, trim(buf), text, err, len)) || parse_items(ax, s, text, &l, err, len) ||
	    vlist_check_dups(&l, ax, err, len)) {
		free(buf);
		free(l.v);
		return -1;
	}
	free(buf);
	*out = l.v;
	*n = l.n;
	return 0;
}

void tcp_spec_init(tcp_spec_t *s)
{
	memset(s, 0, sizeof(*s));
}

void tcp_spec_free(tcp_spec_t *s)
{
	for (int i = 0; i < s->n; i++)
		for (int a = 0; a < TCP_MAX_AXES; a++)
			free(s->g[i].vals[a]);
	free(s->g);
	memset(s, 0, sizeof(*s));
}

static const tcp_probe_t *find_probe(const tcp_probe_t *const *probes, int nprobes,
				     const char *name)
{
	for (int i = 0; i < nprobes; i++)
		if (strcmp(probes[i]->name, name) == 0)
			return probes[i];
	return NULL;
}

static const char *probe_names(const tcp_probe_t *const *probes, int nprobes, char *buf,
			       size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (int i = 0; i < nprobes; i++)
		o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%s", i ? ", " : "",
				      probes[i]->name);
	return buf;
}

static tcp_spec_group_t *add_group(tcp_spec_t *s, const tcp_probe_t *p, const char *where)
{
	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 8;
		tcp_spec_group_t *ng = realloc(s->g, (size_t)cap * sizeof(*ng));
		if (!ng)
			return NULL;
		s->g = ng;
		s->cap = cap;
	}
	tcp_spec_group_t *g = &s->g[s->n++];
	memset(g, 0, sizeof(*g));
	g->probe = p;
	g->reps = g->warmup = -1;
	g->timeout = -1;
	snprintf(g->where, sizeof(g->where), "%s", where);
	return g;
}

int tcp_spec_add_probe(tcp_spec_t *s, const char *name, const char *where,
		       const tcp_probe_t *const *probes, int nprobes, char *err, size_t len)
{
	char nb[1024];
	const tcp_probe_t *p = find_probe(probes, nprobes, name);
	if (!p) {
		snprintf(err, len, "%s: unknown probe: got '%s', expected one of %s", where, name,
			 probe_names(probes, nprobes, nb, sizeof(nb)));
		return -1;
	}
	if (!add_group(s, p, where)) {
		snprintf(err, len, "%s: out of memory: got probe '%s', expected fewer groups", where, name);
		return -1;
	}
	return 0;
}

/* The axes of p and the per-section keys, for "expected one of". */
static const char *key_names(const tcp_probe_t *p, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (int i = 0; i < p->naxes; i++)
		o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s, ", p->axes[i].name);
	snprintf(buf + o, o < len ? len - o : 0, "reps, warmup, timeout");
	return buf;
}

static int duplicate_key(const char *where, const char *key, char *err, size_t len)
{
	snprintf(err, len, "%s: duplicate key: got '%s', expected each key once per section", where, key);
	return -1;
}

/* reps, warmup or timeout into t: 0, or -1 with err; 1 when key is none of them. */
static int set_point_key(tcp_spec_group_t *t, const char *key, const char *val, const char *where, char *err,
			 size_t len)
{
	char e[TCP_SPEC_ERRLEN];
	long long iv;
	if (strcmp(key, "reps") == 0 || strcmp(key, "warmup") == 0) {
		int is_reps = key[0] == 'r';
		int *dst = is_reps ? &t->reps : &t->warmup;
		if (*dst >= 0)
			return duplicate_key(where, key, err, len);
		if (tcp_parse_int(key, val, is_reps ? TCP_REPS_MIN : 0, is_reps ? TCP_REPS_MAX : TCP_WARMUP_MAX, &iv, e,
				  sizeof(e))) {
			snprintf(err, len, "%s: %s", where, e);
			return -1;
		}
		*dst = (int)iv;
		return 0;
	}
	if (strcmp(key, "timeout") != 0)
		return 1;
	if (t->timeout >= 0)
		return duplicate_key(where, key, err, len);
	if (tcp_parse_seconds("timeout", val, TCP_TIMEOUT_MIN, TCP_TIMEOUT_MAX, &t->timeout, e, sizeof(e))) {
		snprintf(err, len, "%s: %s", where, e);
		return -1;
	}
	return 0;
}

/*
 *  set_key()
 *	key = value inside a probe section (g) or [global] (g == NULL, into *gl)
 */
static int set_key(tcp_spec_group_t *g, tcp_spec_group_t *gl, const char *key, const char *val,
		   const char *where, char *err, size_t len)
{
	char e[TCP_SPEC_ERRLEN], kb[1024];
	int r = set_point_key(g ? g : gl, key, val, where, err, len);
	if (r <= 0)
		return r;
	if (!g) {
		snprintf(err, len, "%s: unknown key in [global]: got '%s', expected reps, warmup or timeout",
			 where, key);
		return -1;
	}
	int a = tcp_axis_index(g->probe, key);
	if (a < 0) {
		snprintf(err, len, "%s: unknown axis of probe %s: got '%s', expected one of %s", where,
			 g->probe->name, key, key_names(g->probe, kb, sizeof(kb)));
		return -1;
	}
	if (g->vals[a]) {
		snprintf(err, len, "%s: duplicate axis: got '%s', expected each axis once per %s",
			 where, key, strcmp(where, "--set") == 0 ? "--probe" : "section");
		return -1;
	}
	if (tcp_values_parse(&g->probe->axes[a], val, &g->vals[a], &g->nvals[a], e, sizeof(e))) {
		snprintf(err, len, "%s: %s", where, e);
		return -1;
	}
	return 0;
}

int tcp_spec_set(tcp_spec_t *s, const char *assignment, const char *where, char *err,
		 size_t len)
{
	if (s->n == 0) {
		snprintf(err, len, "%s: no probe to apply it to: got '%s', expected --probe NAME before --set",
			 where, assignment);
		return -1;
	}
	const char *eq = strchr(assignment, '=');
	if (!eq) {
		snprintf(err, len, "%s: missing '=': got '%s', expected AXIS=VALUES", where, assignment);
		return -1;
	}
	char key[128];
	size_t kl = (size_t)(eq - assignment);
	if (kl >= sizeof(key))
		kl = sizeof(key) - 1;
	memcpy(key, assignment, kl);
	key[kl] = '\0';
	char *k = trim(key);
	if (!*k) {
		snprintf(err, len, "%s: missing axis name: got '%s', expected AXIS=VALUES", where,
			 assignment);
		return -1;
	}
	return set_key(&s->g[s->n - 1], NULL, k, eq + 1, where, err, len);
}

/* The files being read, outermost first (their real paths): an include of one
 * of them is a cycle. */
struct inc_stack {
	int n;
	char *path[TCP_SPEC_MAX_INCLUDE_DEPTH + 1];
};

static int parse_text(tcp_spec_t *s, const char *text, const char *name, struct inc_stack *st,
		      const tcp_probe_t *const *probes, int nprobes, char *err, size_t len);

/*
 *  parse_path()
 *	read the sweep file `path` ("-": stdin where `top`) and append its groups;
 *	`where` (NULL for the file the user named) is the include line
 */
static int parse_path(tcp_spec_t *s, const char *path, const char *where, struct inc_stack *st,
		      const tcp_probe_t *const *probes, int nprobes, char *err, size_t len)
{
	size_t n = 0;
	char e[TCP_SPEC_ERRLEN], *real = strcmp(path, "-") ? realpath(path, NULL) : NULL;
	for (int i = 0; real && i < st->n; i++)
		if (strcmp(st->path[i], real) == 0) {
			snprintf(err, len, "%s: include cycle: got '%s', expected a file not already being read",
				 where, path);
			free(real);
			return -1;
		}
	if (st->n > TCP_SPEC_MAX_INCLUDE_DEPTH) {
		snprintf(err, len, "%s: includes too deep: got '%s', expected at most %d nested includes",
			 where, path, TCP_SPEC_MAX_INCLUDE_DEPTH);
		free(real);
		return -1;
	}
	/* a regular file or "-" (stdin), at most TCP_SPEC_MAX_BYTES: never /dev/zero or a FIFO */
	char *buf = tcp_infile_read(path, "sweep file", TCP_SPEC_MAX_BYTES, where == NULL, &n, e, sizeof(e));
	if (!buf) {
		if (where)
			snprintf(err, len, "%s: include: %s", where, e);
		else
			snprintf(err, len, "%s", e);
		free(real);
		return -1;
	}
	buf[n] = '\0';
	if (memchr(buf, '\0', n)) {
		snprintf(err, len, "%s: not a text file: got a NUL byte, expected an INI sweep file", path);
		free(buf);
		free(real);
		return -1;
	}
	if (real)
		st->path[st->n++] = real;
	int rc = parse_text(s, buf, strcmp(path, "-") ? path : "stdin", st, probes, nprobes, err, len);
	if (real)
		free(st->path[--st->n]);
	free(buf);
	return rc;
}

/*
 *  include()
 *	`include = FILE` at `where` in sweep file `name`: FILE's groups, a
 *	relative FILE taken from the directory of `name`
 */
static int include(tcp_spec_t *s, const char *file, const char *name, const char *where,
		   struct inc_stack *st, const tcp_probe_t *const *probes, int nprobes, char *err,
		   size_t len)
{
	char path[4096];
	const char *slash = strrchr(name, '/');
	if (!*file) {
		snprintf(err, len, "%s: missing file: got 'include =', expected include = FILE", where);
		return -1;
	}
	if (file[0] == '/' || !slash)
		snprintf(path, sizeof(path), "%s", file);
	else if ((size_t)snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - name), name, file) >= sizeof(path)) {
		snprintf(err, len, "%s: include: got a path of more than %zu bytes, expected a shorter one",
			 where, sizeof(path) - 1);
		return -1;
	}
	return parse_path(s, path, where, st, probes, nprobes, err, len);
}

int tcp_spec_parse_string(tcp_spec_t *s, const char *text, const char *name,
			  const tcp_probe_t *const *probes, int nprobes, char *err, size_t len)
{
	struct inc_stack st = { 0 };
	return parse_text(s, text, name, &st, probes, nprobes, err, len);
}

/* One sweep file's text on its way into groups. */
struct reader {
	tcp_spec_t *s;
	const char *name;		/* the file, for messages and relative includes */
	struct inc_stack *st;
	const tcp_probe_t *const *probes;
	int nprobes;
	char *err;
	size_t len;
	tcp_spec_group_t global;	/* this file's [global] */
	int in_global, have_section;
	char where[200];		/* "file:line" */
};

/* A section header: [global] or [probe_name]. */
static int section(struct reader *rd, char *l)
{
	char nb[1024];
	size_t ll = strlen(l);
	if (l[ll - 1] != ']' || ll < 3) {
		snprintf(rd->err, rd->len, "%s: malformed section header: got '%s', expected [probe_name] or [global]",
			 rd->where, l);
		return -1;
	}
	l[ll - 1] = '\0';
	char *sec = trim(l + 1);
	rd->have_section = 1;
	rd->in_global = strcmp(sec, "global") == 0;
	if (rd->in_global)
		return 0;
	const tcp_probe_t *p = find_probe(rd->probes, rd->nprobes, sec);
	if (!p) {
		snprintf(rd->err, rd->len, "%s: unknown probe: got '%s', expected one of %s", rd->where, sec,
			 probe_names(rd->probes, rd->nprobes, nb, sizeof(nb)));
		return -1;
	}
	if (!add_group(rd->s, p, rd->where)) {
		snprintf(rd->err, rd->len, "%s: out of memory: got '%s', expected fewer sections", rd->where, sec);
		return -1;
	}
	return 0;
}

/* One line that is not blank: a section header, `include = FILE` (it ends
 * the section it stands in) or key = value. */
static int read_line(struct reader *rd, char *l)
{
	if (*l == '[')
		return section(rd, l);
	char *eq = strchr(l, '=');
	if (!eq) {
		snprintf(rd->err, rd->len, "%s: missing '=': got '%s', expected key = value", rd->where, l);
		return -1;
	}
	*eq = '\0';
	char *key = trim(l), *val = trim(eq + 1);
	if (!*key) {
		snprintf(rd->err, rd->len, "%s: missing key: got '= %s', expected key = value", rd->where, val);
		return -1;
	}
	if (strcmp(key, "include") == 0) {
		rd->in_global = rd->have_section = 0;
		return include(rd->s, val, rd->name, rd->where, rd->st, rd->probes, rd->nprobes, rd->err, rd->len);
	}
	if (!rd->have_section) {
		snprintf(rd->err, rd->len, "%s: key outside a section: got '%s', expected a [probe_name] or [global] header first",
			 rd->where, key);
		return -1;
	}
	tcp_spec_group_t *g = rd->in_global ? NULL : &rd->s->g[rd->s->n - 1];
	return set_key(g, &rd->global, key, val, rd->where, rd->err, rd->len);
}

/* The file's [global] fills in what its sections (from `first`) leave unset. */
static void inherit_global(tcp_spec_t *s, int first, const tcp_spec_group_t *global)
{
	for (int i = first; i < s->n; i++) {
		if (s->g[i].reps < 0)
			s->g[i].reps = global->reps;
		if (s->g[i].warmup < 0)
			s->g[i].warmup = global->warmup;
		if (s->g[i].timeout < 0)
			s->g[i].timeout = global->timeout;
	}
}

static int parse_text(tcp_spec_t *s, const char *text, const char *name, struct inc_stack *st,
		      const tcp_probe_t *const *probes, int nprobes, char *err, size_t len)
{
	struct reader rd = { .s = s, .name = name, .st = st, .probes = probes, .nprobes = nprobes, .err = err,
			     .len = len };
	char *buf = strdup(text);
	int first = s->n, lineno = 0, rc = -1;
	if (!buf) {
		snprintf(err, len, "%s: out of memory: got a %zu-byte file, expected less", name, strlen(text));
		return -1;
	}
	rd.global.reps = rd.global.warmup = -1;
	rd.global.timeout = -1;
	for (char *line = buf, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else if (!*line)
			break;	/* after the last newline: no line */
		lineno++;
		snprintf(rd.where, sizeof(rd.where), "%s:%d", name, lineno);
		line[strcspn(line, "#;")] = '\0';	/* comments: '#' or ';' to end of line */
		char *l = trim(line);
		if (*l && read_line(&rd, l))
			goto out;
	}
	if (s->n == first) {
		snprintf(err, len, "%s:%d: no probe section: got 'none', expected at least one [probe_name] section",
			 name, lineno ? lineno : 1);
		goto out;
	}
	inherit_global(s, first, &rd.global);
	rc = 0;
out:
	free(buf);
	return rc;
}

int tcp_spec_parse_file(tcp_spec_t *s, const char *path, const tcp_probe_t *const *probes,
			int nprobes, char *err, size_t len)
{
	struct inc_stack st = { 0 };
	return parse_path(s, path, NULL, &st, probes, nprobes, err, len);
}
