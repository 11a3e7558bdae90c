/*
 * plan.c
 *	Spec -> ordered points (cartesian product per group, legality, dedup),
 *	and plan.txt out and back in (the --dry-run listing: plan-print.c).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/store/infile.h"
#include "harness/sweep/plan.h"

/* 64-bit FNV-1a, for the duplicate-point set. */
static uint64_t fnv1a(const char *a, const char *b)
{
	uint64_t h = 1469598103934665603ull;
	for (const char *s = a; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	h = (h ^ '|') * 1099511628211ull;
	for (const char *s = b; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* Open-addressing set of point indices keyed by (probe, key). */
struct pset {
	int *slot;	/* -1 empty, else plan index */
	size_t cap;
};

static int pset_grow(struct pset *s, const tcp_plan_t *pl);

/* 1 if an equal point is present; else insert idx and return 0; -1 on OOM. */
static int pset_add(struct pset *s, const tcp_plan_t *pl, int idx)
{
	if ((size_t)pl->n * 2 >= s->cap && pset_grow(s, pl))
		return -1;
	const tcp_plan_point_t *q = &pl->p[idx];
	size_t i = fnv1a(q->probe->name, q->key) & (s->cap - 1);
	for (; s->slot[i] >= 0; i = (i + 1) & (s->cap - 1)) {
		const tcp_plan_point_t *o = &pl->p[s->slot[i]];
		if (o->probe == q->probe && strcmp(o->key, q->key) == 0)
			return 1;
	}
	s->slot[i] = idx;
	return 0;
}

static int pset_grow(struct pset *s, const tcp_plan_t *pl)
{
	size_t cap = s->cap ? s->cap * 2 : 1024;
	int *ns = malloc(cap * sizeof(*ns));
	if (!ns)
		return -1;
	for (size_t i = 0; i < cap; i++)
		ns[i] = -1;
	for (size_t j = 0; j < s->cap; j++) {
		int idx = s->slot[j];
		if (idx < 0)
			continue;
		size_t i = fnv1a(pl->p[idx].probe->name, pl->p[idx].key) & (cap - 1);
		while (ns[i] >= 0)
			i = (i + 1) & (cap - 1);
		ns[i] = idx;
	}
	free(s->slot);
	s->slot = ns;
	s->cap = cap;
	return 0;
}

const char *tcp_point_key(const tcp_probe_t *p, const tcp_point_t *pt, char *buf, size_t len)
{
	size_t o = 0;
	char v[64];
	buf[0] = '\0';
	for (int a = 0; a < p->naxes; a++)
		o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%s=%s", a ? ";" : "",
				      p->axes[a].name,
				      tcp_axis_value_str(&p->axes[a], pt->v[a], v, sizeof(v)));
	return buf;
}

int tcp_point_parse_key(const tcp_probe_t *p, const char *key, tcp_point_t *pt, char *err,
			size_t len)
{
	char buf[1024];
	snprintf(buf, sizeof(buf), "%s", key);
	memset(pt, 0, sizeof(*pt));
	pt->naxes = p->naxes;
	char *s = buf;
	for (int a = 0; a < p->naxes; a++) {
		char *semi = strchr(s, ';');
		if (semi)
			*semi = '\0';
		char *eq = strchr(s, '=');
		size_t nl = strlen(p->axes[a].name);
		if (!eq || (size_t)(eq - s) != nl || strncmp(s, p->axes[a].name, nl) != 0) {
			snprintf(err, len, "bad axes key of probe %s: got '%s', expected %s=... at axis %d",
				 p->name, key, p->axes[a].name, a);
			return -1;
		}
		int64_t *vals = NULL;
		int nv = 0;
		if (tcp_values_parse(&p->axes[a], eq + 1, &vals, &nv, err, len))
			return -1;
		if (nv != 1) {
			free(vals);
			snprintf(err, len, "bad axes key of probe %s: got '%s', expected one value per axis",
				 p->name, key);
			return -1;
		}
		pt->v[a] = vals[0];
		free(vals);
		if (!semi) {
			if (a != p->naxes - 1) {
				snprintf(err, len, "bad axes key of probe %s: got '%s', expected %d axes",
					 p->name, key, p->naxes);
				return -1;
			}
			return 0;
		}
		s = semi + 1;
	}
	if (p->naxes == 0 && !*key)
		return 0;
	snprintf(err, len, "bad axes key of probe %s: got '%s', expected %d axes", p->name, key,
		 p->naxes);
	return -1;
}

static int plan_push(tcp_plan_t *pl, const tcp_plan_point_t *pp)
{
	if (pl->n == pl->cap) {
		int cap = pl->cap ? 2 * pl->cap : 64;
		tcp_plan_point_t *np = realloc(pl->p, (size_t)cap * sizeof(*np));
		if (!np)
			return -1;
		pl->p = np;
		pl->cap = cap;
	}
	pl->p[pl->n++] = *pp;
	return 0;
}

/* Fill in the key and legality of a fresh point. */
static int point_finish(tcp_plan_point_t *pp)
{
	char kb[1024], rb[TCP_REASON_LEN];
	pp->key = strdup(tcp_point_key(pp->probe, &pp->pt, kb, sizeof(kb)));
	pp->reason = NULL;
	pp->skipped = 0;
	if (!pp->key)
		return -1;
	if (pp->probe->legal) {
		rb[0] = '\0';
		if (!pp->probe->legal(&pp->pt, rb, sizeof(rb))) {
			pp->skipped = 1;
			pp->reason = strdup(rb[0] ? rb : "illegal point (legal() gave no reason)");
			if (!pp->reason)
				return -1;
		}
	}
	if (!pp->skipped && tcp_point_tmem(pp->probe, &pp->pt, NULL, rb, sizeof(rb)) < 0) {
		pp->skipped = 1;
		pp->reason = strdup(rb);
		if (!pp->reason)
			return -1;
	}
	return 0;
}

int tcp_point_tmem(const tcp_probe_t *p, const tcp_point_t *pt, tcp_tmem_fp_t *out, char *reason,
		   size_t len)
{
	tcp_tmem_fp_t fp;
	char why[TCP_REASON_LEN];
	int r;

	if (!p->tmem)
		return 0;
	why[0] = '\0';
	tcp_tmem_fp_init(&fp);
	r = p->tmem(pt, &fp, why, sizeof(why));
	if (r < 0) {
		snprintf(reason, len, "TMEM footprint: %s", why[0] ? why : "the probe gave no reason");
		return -1;
	}
	if (r == 0)
		return 0;
	if (tcp_tmem_fp_check(&fp, why, sizeof(why))) {
		snprintf(reason, len, "%s", why);
		return -1;
	}
	if (out)
		*out = fp;
	return 1;
}

/* The command line's per-point values (< 0 = not given): they override a group's. */
struct overrides {
	int reps, warmup;
	double timeout;
};

/*
 *  group_values()
 *	the value list of each axis of group g (an unset axis: its default,
 *	parsed, owned[a] set) and the count of their product, which must fit
 *	the plan.  0, or -1 with err.
 */
static int group_values(const tcp_spec_group_t *g, const tcp_plan_t *pl, int64_t **vals, int *nv, int *owned,
			long long *total, char *err, size_t len)
{
	const tcp_probe_t *p = g->probe;
	int rc = 0;
	*total = 1;
	for (int a = 0; a < p->naxes; a++) {
		if (g->vals[a]) {
			vals[a] = g->vals[a];
			nv[a] = g->nvals[a];
		} else {
			char e[TCP_SPEC_ERRLEN];
			if (tcp_values_parse(&p->axes[a], p->axes[a].def ? p->axes[a].def : "", &vals[a], &nv[a], e,
					     sizeof(e))) {
				snprintf(err, len, "probe %s: bad default of axis %s: %s", p->name, p->axes[a].name, e);
				rc = -1;
			}
			owned[a] = 1;
		}
		*total *= nv[a];
		if (rc == 0 && *total + pl->n > TCP_PLAN_MAX_POINTS) {
			snprintf(err, len, "%s: plan too large: got more than %d points, expected at most %d", g->where,
				 TCP_PLAN_MAX_POINTS, TCP_PLAN_MAX_POINTS);
			rc = -1;
		}
		if (rc)
			break;
	}
	return rc;
}

/* The point of group g at odometer position idx, appended to pl unless an
 * earlier group planned it (then counted as a duplicate).  0, or -1 with err. */
static int add_point(tcp_plan_t *pl, struct pset *set, const tcp_spec_group_t *g, int64_t *const *vals,
		     const int *idx, const struct overrides *o, char *err, size_t len)
{
	const tcp_probe_t *p = g->probe;
	tcp_plan_point_t pp;
	memset(&pp, 0, sizeof(pp));
	pp.probe = p;
	pp.pt.naxes = p->naxes;
	for (int a = 0; a < p->naxes; a++)
		pp.pt.v[a] = vals[a][idx[a]];
	pp.reps = o->reps >= 0 ? o->reps : g->reps >= 0 ? g->reps : TCP_REPS_DEFAULT;
	pp.warmup = o->warmup >= 0 ? o->warmup : g->warmup >= 0 ? g->warmup : TCP_WARMUP_DEFAULT;
	pp.timeout = o->timeout >= 0 ? o->timeout : g->timeout >= 0 ? g->timeout : TCP_TIMEOUT_DEFAULT;
	if (point_finish(&pp) || plan_push(pl, &pp)) {
		free(pp.key);
		free(pp.reason);
		snprintf(err, len, "%s: out of memory: got %d points, expected fewer", g->where, pl->n);
		return -1;
	}
	int d = pset_add(set, pl, pl->n - 1);
	if (d < 0) {
		snprintf(err, len, "%s: out of memory: got %d points, expected fewer", g->where, pl->n);
		return -1;
	}
	if (d == 1) {	/* already planned by an earlier group */
		pl->n--;
		free(pl->p[pl->n].key);
		free(pl->p[pl->n].reason);
		pl->duplicates++;
	}
	return 0;
}

/* Group g's points: the cartesian product of its axes, last axis fastest. */
static int plan_group(tcp_plan_t *pl, struct pset *set, const tcp_spec_group_t *g, const struct overrides *o,
		      char *err, size_t len)
{
	const tcp_probe_t *p = g->probe;
	int64_t *vals[TCP_MAX_AXES] = { 0 };
	int nv[TCP_MAX_AXES] = { 0 }, owned[TCP_MAX_AXES] = { 0 }, idx[TCP_MAX_AXES] = { 0 };
	long long total;
	int rc = group_values(g, pl, vals, nv, owned, &total, err, len);
	for (long long k = 0; rc == 0 && k < total; k++) {
		if ((rc = add_point(pl, set, g, vals, idx, o, err, len)))
			break;
		for (int a = p->naxes - 1; a >= 0; a--) {	/* odometer over the axes */
			if (++idx[a] < nv[a])
				break;
			idx[a] = 0;
		}
	}
	for (int a = 0; a < p->naxes; a++)
		if (owned[a])
			free(vals[a]);
	return rc;
}

int tcp_plan_build(tcp_plan_t *pl, const tcp_spec_t *s, int reps, int warmup, double timeout,
		   char *err, size_t len)
{
	const struct overrides o = { reps, warmup, timeout };
	struct pset set = { 0 };
	memset(pl, 0, sizeof(*pl));
	for (int gi = 0; gi < s->n; gi++) {
		const tcp_spec_group_t *g = &s->g[gi];
		if (g->probe->naxes > TCP_MAX_AXES) {
			snprintf(err, len, "%s: probe %s declares too many axes: got %d, expected at most %d",
				 g->where, g->probe->name, g->probe->naxes, TCP_MAX_AXES);
			goto fail;
		}
		if (plan_group(pl, &set, g, &o, err, len))
			goto fail;
	}
	free(set.slot);
	return 0;
fail:
	free(set.slot);
	tcp_plan_free(pl);
	return -1;
}

void tcp_plan_free(tcp_plan_t *pl)
{
	for (int i = 0; i < pl->n; i++) {
		free(pl->p[i].key);
		free(pl->p[i].reason);
	}
	free(pl->p);
	memset(pl, 0, sizeof(*pl));
}

const char *tcp_plan_line(const tcp_plan_t *pl, int i, char *buf, size_t len)
{
	const tcp_plan_point_t *pp = &pl->p[i];
	snprintf(buf, len, "%d\t%s\t%s\t%d\t%d\t%g", i, pp->probe->name, pp->key, pp->reps,
		 pp->warmup, pp->timeout);
	return buf;
}

int tcp_plan_set_option(tcp_plan_t *pl, const char *key, const char *val)
{
	int i;
	/* truncated keys could merge and values change across --resume (fuzz-plan) */
	if (!*key || strlen(key) >= sizeof(pl->opt_key[0]) || strlen(val) >= sizeof(pl->opt_val[0]) ||
	    strpbrk(key, "=\n") || strchr(val, '\n'))
		return -1;
	for (i = 0; i < pl->nopt; i++)
		if (strcmp(pl->opt_key[i], key) == 0)
			break;
	if (i == TCP_PLAN_MAX_OPTIONS)
		return -1;
	snprintf(pl->opt_key[i], sizeof(pl->opt_key[i]), "%s", key);
	snprintf(pl->opt_val[i], sizeof(pl->opt_val[i]), "%s", val);
	if (i == pl->nopt)
		pl->nopt++;
	return 0;
}

const char *tcp_plan_option(const tcp_plan_t *pl, const char *key)
{
	for (int i = 0; i < pl->nopt; i++)
		if (strcmp(pl->opt_key[i], key) == 0)
			return pl->opt_val[i];
	return NULL;
}

int tcp_plan_write(const tcp_plan_t *pl, const char *path, char *err, size_t len)
{
	char tmp[4096], line[2048];
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f) {
		snprintf(err, len, "%s: cannot write: got '%s', expected a writable directory", tmp,
			 strerror(errno));
		return -1;
	}
	fprintf(f, "# tcprobe plan v1: point\tprobe\taxes\treps\twarmup\ttimeout_s\n");
	for (int i = 0; i < pl->nopt; i++)
		fprintf(f, "#option %s=%s\n", pl->opt_key[i], pl->opt_val[i]);
	for (int i = 0; i < pl->n; i++)
		fprintf(f, "%s\n", tcp_plan_line(pl, i, line, sizeof(line)));
	int bad = fflush(f) != 0 || fsync(fileno(f)) != 0;
	bad |= fclose(f) != 0;
	if (bad || rename(tmp, path) != 0) {
		snprintf(err, len, "%s: cannot write: got '%s', expected a writable directory", path,
			 strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* plan.txt opened: a regular file only (a FIFO or a device named plan.txt must
 * not block --resume).  NULL with err. */
static FILE *open_plan(const char *path, char *err, size_t len)
{
	int fd = tcp_infile_open(path, "plan", TCP_PLAN_MAX_BYTES, err, len);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
	if (!f && fd >= 0) {
		snprintf(err, len, "%s: cannot read plan: got '%s', expected a tcprobe run directory", path,
			 strerror(errno));
		close(fd);
	}
	return f;
}

/* A point line's numbers: its index (the next one), reps, warmup, timeout. */
static int point_numbers(const tcp_plan_t *pl, char **field, int nf, tcp_plan_point_t *pp, char *e, size_t len)
{
	long long idx, reps, warm;
	if (nf != 6) {
		snprintf(e, len, "malformed plan line: got %d fields, expected 6", nf);
		return -1;
	}
	if (tcp_parse_int("point index", field[0], pl->n, pl->n, &idx, e, len) ||
	    tcp_parse_int("reps", field[3], TCP_REPS_MIN, TCP_REPS_MAX, &reps, e, len) ||
	    tcp_parse_int("warmup", field[4], 0, TCP_WARMUP_MAX, &warm, e, len) ||
	    tcp_parse_seconds("timeout", field[5], TCP_TIMEOUT_MIN, TCP_TIMEOUT_MAX, &pp->timeout, e, len))
		return -1;
	pp->reps = (int)reps;
	pp->warmup = (int)warm;
	return 0;
}

/* One point line of plan.txt appended to pl.  0, or -1 with err. */
static int read_point(tcp_plan_t *pl, char *line, const char *where, const tcp_probe_t *const *probes,
		      int nprobes, char *err, size_t len)
{
	char *field[6], e[TCP_SPEC_ERRLEN];
	int nf = 0;
	tcp_plan_point_t pp;
	for (char *s = line, *t; nf < 6; s = t + 1) {
		field[nf++] = s;
		if (!(t = strchr(s, '\t')))
			break;
		*t = '\0';
	}
	memset(&pp, 0, sizeof(pp));
	if (point_numbers(pl, field, nf, &pp, e, sizeof(e))) {
		snprintf(err, len, "%s: %s", where, e);
		return -1;
	}
	for (int i = 0; i < nprobes; i++)
		if (strcmp(probes[i]->name, field[1]) == 0)
			pp.probe = probes[i];
	if (!pp.probe) {
		snprintf(err, len, "%s: unknown probe: got '%s', expected a probe of this build", where, field[1]);
		return -1;
	}
	if (tcp_point_parse_key(pp.probe, field[2], &pp.pt, e, sizeof(e))) {
		snprintf(err, len, "%s: %s", where, e);
		return -1;
	}
	if (point_finish(&pp) || plan_push(pl, &pp)) {
		free(pp.key);
		free(pp.reason);
		snprintf(err, len, "%s: out of memory: got %d points, expected fewer", where, pl->n);
		return -1;
	}
	return 0;
}

/* One line of plan.txt (its newline cut off): the header, an option or a
 * point.  0, or -1 with err. */
static int read_line(tcp_plan_t *pl, char *line, int *header, const char *where, const tcp_probe_t *const *probes,
		     int nprobes, char *err, size_t len)
{
	if (strncmp(line, "# tcprobe plan v1", 17) == 0) {
		*header = 1;
		return 0;
	}
	if (!*header) {
		snprintf(err, len, "%s: not a tcprobe plan: got '%.60s', expected '# tcprobe plan v1' first", where,
			 line);
		return -1;
	}
	if (strncmp(line, "#option ", 8) != 0)
		return read_point(pl, line, where, probes, nprobes, err, len);
	char *eq = strchr(line + 8, '=');
	if (!eq || tcp_plan_set_option(pl, (*eq = '\0', line + 8), eq + 1)) {
		snprintf(err, len, "%s: bad option line: got '%.60s', expected #option key=value", where, line);
		return -1;
	}
	return 0;
}

int tcp_plan_read(tcp_plan_t *pl, const char *path, const tcp_probe_t *const *probes,
		  int nprobes, char *err, size_t len)
{
	memset(pl, 0, sizeof(*pl));
	FILE *f = open_plan(path, err, len);
	if (!f)
		return -1;
	char *line = NULL, where[4096 + 32];
	size_t cap = 0;
	ssize_t r;
	int lineno = 0, header = 0, rc = 0;
	while (rc == 0 && (r = getline(&line, &cap, f)) >= 0) {
		snprintf(where, sizeof(where), "%s:%d", path, ++lineno);
		if (r == 0 || line[r - 1] != '\n') {
			snprintf(err, len, "%s: truncated line: got '%s', expected a whole plan line", where, line);
			rc = -1;
			break;
		}
		line[r - 1] = '\0';
		rc = read_line(pl, line, &header, where, probes, nprobes, err, len);
	}
	free(line);
	fclose(f);
	if (rc == 0 && !header) {
		snprintf(err, len, "%s:1: not a tcprobe plan: got an empty file, expected '# tcprobe plan v1'", path);
		rc = -1;
	}
	if (rc)
		tcp_plan_free(pl);
	return rc;
}

int tcp_plan_compare(const tcp_plan_t *got, const tcp_plan_t *expected, char *err, size_t len)
{
	char a[2048], b[2048];
	int n = got->n < expected->n ? got->n : expected->n;
	for (int i = 0; i < n; i++) {
		tcp_plan_line(got, i, a, sizeof(a));
		tcp_plan_line(expected, i, b, sizeof(b));
		if (strcmp(a, b) != 0) {
			for (char *c = a; *c; c++)
				if (*c == '\t')
					*c = ' ';
			for (char *c = b; *c; c++)
				if (*c == '\t')
					*c = ' ';
			snprintf(err, len, "point %d differs: got '%s', expected '%s'", i, a, b);
			return -1;
		}
	}
	if (got->n != expected->n) {
		snprintf(err, len, "point count differs: got %d points, expected %d", got->n,
			 expected->n);
		return -1;
	}
	return 0;
}

void tcp_plan_target(tcp_plan_t *pl, const tcp_target_info_t *t)
{
	char why[TCP_REASON_LEN];
	pl->target = t;
	for (int i = 0; t && i < pl->n; i++) {
		tcp_plan_point_t *pp = &pl->p[i];
		if (pp->skipped || !pp->probe->legal_on || !(pp->probe->arch & TCP_TGT_BIT(t->id)))
			continue;
		why[0] = '\0';
		if (!pp->probe->legal_on(&pp->pt, t, why, sizeof(why))) {
			free(pp->reason);
			pp->reason = strdup(why[0] ? why : "not on this target");
			pp->skipped = pp->reason != NULL;
		}
	}
}
