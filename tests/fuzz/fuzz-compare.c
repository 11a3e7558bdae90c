/*
 * fuzz-compare.c
 *	libFuzzer target: the compare joiner (harness/analyze/compare.c): loading two
 *	results directories, joining them on (probe, axes, metric), verdicts,
 *	sorting, the CSV and the printed report.  The input is split at NUL
 *	bytes into up to four files: base measurements.csv, new
 *	measurements.csv, base provenance.csv, new provenance.csv (a missing
 *	part: the new run is the base run again; no provenance).
 *	Properties beyond "no crash, no leak, no UB":
 *	  - a rejected run says why in one line;
 *	  - a run compared with itself has no regression and every verdict is
 *	    `same` or `unmeasured`;
 *	  - every joined row has a base or a new point, and a verdict in range;
 *	  - the completeness rule (harness/store/run.h) counts exactly the
 *	    `missing` rows whose base status is OK; none when self-compared.
 *	Seeds: tests/fuzz/corpus/compare/ (pairs of committed result files).
 */
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/analyze/compare.h"
#include "tests/fuzz/fuzz-util.h"

#define FUZZ_MAX_INPUT	32768

/* Put part [d, d+n) as dir/name (dir created). */
static void put(const char *dir, const char *name, const uint8_t *d, size_t n)
{
	char p[600];

	mkdir(dir, 0700);
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	fuzz_write(p, d, n);
}

static void check_join(const tcp_cmp_t *c, int self)
{
	int miss = 0;
	for (int i = 0; i < c->nrows; i++)
		miss += c->rows[i].cells[0].verdict == TCP_V_MISSING && !strcmp(c->rows[i].base->status, "OK");
	FUZZ_CHECK(miss == c->nmissing[0], "missing rows: run model %d, join %d", c->nmissing[0], miss);
	FUZZ_CHECK(!self || miss == 0, "self-compare: %d missing", miss);
	for (int i = 0; i < c->nrows; i++) {
		const tcp_cmp_cell_t *x = &c->rows[i].cells[0];
		FUZZ_CHECK(x->base || x->cur, "row %d: neither base nor new point", i);
		FUZZ_CHECK((unsigned)x->verdict < TCP_V_COUNT, "row %d: verdict %d", i, (int)x->verdict);
		if (self)
			FUZZ_CHECK(x->verdict == TCP_V_SAME || x->verdict == TCP_V_UNMEASURED,
				   "self-compare %s %s %s: verdict %s (base %g new %g)", c->rows[i].probe,
				   c->rows[i].axes, c->rows[i].metric, tcp_verdict_name(x->verdict),
				   x->base ? x->base->median : 0.0, x->cur ? x->cur->median : 0.0);
	}
	if (self)
		FUZZ_CHECK(tcp_cmp_regressions(c) == 0, "self-compare: %d regressions",
			   tcp_cmp_regressions(c));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *part[4] = { 0 };
	size_t plen[4] = { 0 };
	int nparts = 0;
	char a[512], b[512], p[600], err[TCP_CMP_ERRLEN];
	tcp_cmp_run_t base, cur;
	tcp_cmp_t cmp;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	for (size_t s = 0; nparts < 4;) {
		const uint8_t *z = memchr(data + s, 0, size - s);
		size_t e = z ? (size_t)(z - data) : size;
		part[nparts] = data + s;
		plen[nparts++] = e - s;
		if (!z)
			break;
		s = e + 1;
	}
	int self = nparts < 2;
	fuzz_path(a, sizeof(a), "base");
	fuzz_path(b, sizeof(b), "new");
	put(a, "measurements.csv", part[0], plen[0]);
	put(b, "measurements.csv", part[self ? 0 : 1], plen[self ? 0 : 1]);
	for (int i = 0; i < 2; i++) {
		snprintf(p, sizeof(p), "%s/provenance.csv", i ? b : a);
		if (nparts > 2 + i)
			put(i ? b : a, "provenance.csv", part[2 + i], plen[2 + i]);
		else
			unlink(p);
	}

	err[0] = '\0';
	if (tcp_cmp_run_load(a, NULL, &base, err, sizeof(err)) != 0) {
		fuzz_check_msg(err);
		tcp_cmp_run_free(&base);
		return 0;
	}
	if (tcp_cmp_run_load(b, NULL, &cur, err, sizeof(err)) != 0) {
		fuzz_check_msg(err);
		tcp_cmp_run_free(&cur);
		tcp_cmp_run_free(&base);
		return 0;
	}
	if (tcp_cmp_join(&base, &cur, 1, TCP_CMP_NOISE_FLOOR, TCP_CMP_THRESHOLD, &cmp, err,
			 sizeof(err)) == 0) {
		FILE *null = fopen("/dev/null", "w");
		FUZZ_CHECK(null != NULL, "/dev/null");
		check_join(&cmp, self);
		FUZZ_CHECK(tcp_cmp_write_csv(null, &cmp, &base, &cur) == 0, "CSV write failed");
		tcp_cmp_sort(&cmp);
		check_join(&cmp, self);
		tcp_cmp_print(null, &cmp, &base, &cur, 1, 0);
		tcp_cmp_print(null, &cmp, &base, &cur, 0, 3);
		fclose(null);
		tcp_cmp_free(&cmp);
	} else {
		fuzz_check_msg(err);
	}
	tcp_cmp_run_free(&cur);
	tcp_cmp_run_free(&base);
	return 0;
}
