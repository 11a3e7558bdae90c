/*
 * test-fleet.c
 *	`tcprobe fleet` on synthetic fleets written by the test itself: five
 *	GPUs with fresh random per-point values and small noise, one GPU
 *	planted 10% slow on a subset of points and one GPU planted with a low
 *	clock.  Exactly the planted (point, GPU) pairs and the planted clock
 *	must be flagged; two-GPU fleets flag nothing; bad inputs exit 2.
 *	TCP_TEST_SEED=<n> pins the random draw (the seed is printed).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness/cmd/cmd-list.h"
#include "harness/store/csvio.h"
#include "harness/analyze/fleet.h"
#include "test-rows.h"
#include "test-util.h"

#define NGPU	5
#define NPOINT	40
#define SLOW_GPU 3	/* planted: 10% slow on every 4th point */
#define HOT_GPU	4	/* planted: clock 12% low */

static char root[256];

static double urand(void)	/* uniform in [0, 1) from the shared seeded stream */
{
	return (double)(next_u64() >> 11) / 9007199254740992.0;
}

static void write_run(const char *dir, int gpu, const double *base, int bad_median)
{
	char path[1400], err[512], axes[64], med[64], clk[64];
	tcp_row_t row = { 0 };
	test_row_buf_t buf;
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/measurements.csv", dir);
	tcp_rows_t *w = tcp_rows_open(path, NULL, 0, 0, err, sizeof(err));
	assert_non_null(w);
	for (int p = 0; p < NPOINT; p++) {
		double v = base[p] * (1 + 0.002 * (urand() - 0.5));
		if (gpu == SLOW_GPU && p % 4 == 0)
			v *= 0.90;
		double c = (gpu == HOT_GPU ? 1742.0 : 1980.0) + 4 * (urand() - 0.5);
		snprintf(axes, sizeof(axes), "kind=f16;N=%d", 8 * (p + 1));
		snprintf(med, sizeof(med), "%.6f", v);
		snprintf(clk, sizeof(clk), "%.1f", c);
		if (bad_median && p == 7)
			snprintf(med, sizeof(med), "fast");
		memset(&row, 0, sizeof(row));
		row.c[TCP_COL_probe] = "wgmma_tput";
		row.c[TCP_COL_axes] = axes;
		row.c[TCP_COL_metric] = "flop_per_clk_sm";
		row.c[TCP_COL_unit] = "FLOP/clk/SM";
		row.c[TCP_COL_median] = med;
		row.c[TCP_COL_status] = "OK";
		row.c[TCP_COL_sm_clock_mhz] = clk;
		test_row_finish(&row, &buf);
		assert_int_equal(tcp_rows_write(w, &row, 1), 0);
	}
	/* A failed point counts as bad, never as a value. */
	memset(&row, 0, sizeof(row));
	row.c[TCP_COL_probe] = "wgmma_tput";
	row.c[TCP_COL_axes] = "kind=f16;N=999";
	row.c[TCP_COL_metric] = "flop_per_clk_sm";
	row.c[TCP_COL_unit] = "FLOP/clk/SM";
	row.c[TCP_COL_status] = "FAILED";
	row.c[TCP_COL_reason] = "trap";
	test_row_finish(&row, &buf);
	assert_int_equal(tcp_rows_write(w, &row, 1), 0);
	assert_int_equal(tcp_rows_close(w), 0);

	char idx[8], uuid[64];
	snprintf(idx, sizeof(idx), "%d", gpu % 2);
	snprintf(uuid, sizeof(uuid), "GPU-0000000%d-test", gpu);
	const char *keys[] = { "host", "gpu_index", "gpu_uuid", "gpu_name", "driver_version" };
	const char *host = gpu < 2 ? "nodeA" : gpu < 4 ? "nodeB" : "nodeC";
	const char *vals[] = { host, idx, uuid, "NVIDIA H200", "580.159.04" };
	snprintf(path, sizeof(path), "%s/provenance.csv", dir);
	assert_int_equal(tcp_csv_write_kv(path, keys, vals, 5, err, sizeof(err)), 0);
}

static void make_fleet(const char *name, int ngpu, int bad_median_gpu)
{
	double base[NPOINT];
	for (int p = 0; p < NPOINT; p++)
		base[p] = 1000 + 3000 * urand();
	char dir[1024];
	snprintf(dir, sizeof(dir), "%s/%s", root, name);
	mkdir(dir, 0755);
	for (int g = 0; g < ngpu; g++) {
		char run[1200];
		snprintf(run, sizeof(run), "%s/node%d", dir, g / 2);	/* group/node/run nesting */
		mkdir(run, 0755);
		snprintf(run, sizeof(run), "%s/node%d/gpu%d", dir, g / 2, g);
		write_run(run, g, base, g == bad_median_gpu);
	}
}

static int setup(void **state)
{
	(void)state;
	test_seed("test-fleet");
	if (test_mkdtemp(root, sizeof(root), "fleet") != 0)
		return -1;
	make_fleet("five", NGPU, -1);
	make_fleet("two", 2, -1);
	make_fleet("bad", 3, 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return test_rm_tree(root);
}

static void test_planted_outliers_found(void **state)
{
	(void)state;
	char dir[512], err[1024];
	snprintf(dir, sizeof(dir), "%s/five", root);
	char *paths[] = { dir };
	tcp_fleet_opts_t o = { .mad_k = 3, .floor_pct = 2, .metric = NULL };
	tcp_fleet_t *f = tcp_fleet_load(paths, 1, &o, err, sizeof(err));
	assert_non_null(f);
	assert_int_equal(tcp_fleet_ngpus(f), NGPU);
	assert_int_equal(tcp_fleet_npoints(f), NPOINT);
	for (int g = 0; g < NGPU; g++) {
		const tcp_fleet_gpu_t *gp = tcp_fleet_gpu(f, g);
		/* scandir order: node0/gpu0, node0/gpu1, node1/gpu2, ... */
		assert_int_equal(gp->ok_points, NPOINT);
		assert_int_equal(gp->bad_points, 1);
		assert_int_equal(gp->outlier_points, g == SLOW_GPU ? NPOINT / 4 : 0);
		assert_int_equal(gp->clock_outlier, g == HOT_GPU);
	}
	assert_int_equal(tcp_fleet_noutliers(f), NPOINT / 4 + 1);
	assert_string_equal(tcp_fleet_gpu(f, 2)->label, "nodeB:gpu0");

	char csv[600];
	snprintf(csv, sizeof(csv), "%s/fleet.csv", dir);
	assert_int_equal(tcp_fleet_write_csv(f, csv, err, sizeof(err)), 0);
	tcp_table_t t;
	assert_int_equal(tcp_table_load(csv, &t, err, sizeof(err)), 0);
	assert_int_equal(t.nrows, NPOINT * NGPU);
	int flagged = 0;
	for (int r = 0; r < t.nrows; r++)
		if (strcmp(tcp_table_get(&t, r, "outlier"), "1") == 0) {
			flagged++;
			assert_string_equal(tcp_table_get(&t, r, "gpu_uuid"), "GPU-00000003-test");
			assert_true(atof(tcp_table_get(&t, r, "dev_pct")) < -5);
		}
	assert_int_equal(flagged, NPOINT / 4);
	tcp_table_free(&t);
	tcp_fleet_free(f);
}

static void test_metric_filter_and_floor(void **state)
{
	(void)state;
	char dir[512], err[1024];
	snprintf(dir, sizeof(dir), "%s/five", root);
	char *paths[] = { dir };
	/* A floor above the planted 10% hides the slow GPU; the 12% clock stays. */
	tcp_fleet_opts_t o = { .mad_k = 3, .floor_pct = 11, .metric = "flop_per_clk_sm" };
	tcp_fleet_t *f = tcp_fleet_load(paths, 1, &o, err, sizeof(err));
	assert_non_null(f);
	assert_int_equal(tcp_fleet_noutliers(f), 1);
	tcp_fleet_free(f);
	o.metric = "no_such_metric";
	f = tcp_fleet_load(paths, 1, &o, err, sizeof(err));
	assert_non_null(f);
	assert_int_equal(tcp_fleet_npoints(f), 0);
	tcp_fleet_free(f);
}

static void test_two_gpus_flag_nothing(void **state)
{
	(void)state;
	char dir[512], err[1024];
	snprintf(dir, sizeof(dir), "%s/two", root);
	char *paths[] = { dir };
	tcp_fleet_opts_t o = { .mad_k = 3, .floor_pct = 2, .metric = NULL };
	tcp_fleet_t *f = tcp_fleet_load(paths, 1, &o, err, sizeof(err));
	assert_non_null(f);
	assert_int_equal(tcp_fleet_ngpus(f), 2);
	assert_int_equal(tcp_fleet_noutliers(f), 0);
	tcp_fleet_free(f);
}

static int run_cmd(int argc, char **argv)
{
	/* the command's report goes to /dev/null: the exit status is the contract */
	fflush(stdout);
	int saved = dup(1), devnull = open("/dev/null", O_WRONLY);
	assert_true(saved >= 0 && devnull >= 0);
	dup2(devnull, 1);
	int rc = tcp_cmd_fleet(argc, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(devnull);
	return rc;
}

static void test_cmd_exit_codes(void **state)
{
	(void)state;
	char five[512], two[512], bad[512], missing[512];
	snprintf(five, sizeof(five), "%s/five", root);
	snprintf(two, sizeof(two), "%s/two", root);
	snprintf(bad, sizeof(bad), "%s/bad", root);
	snprintf(missing, sizeof(missing), "%s/nope", root);
	char *a1[] = { "fleet", five, NULL };
	assert_int_equal(run_cmd(2, a1), 1);
	/* beside DIR/fleet.csv, the per-GPU summary: the planted clock is flagged */
	char gp[600], err[512];
	tcp_table_t t;
	snprintf(gp, sizeof(gp), "%s/fleet-gpus.csv", five);
	assert_int_equal(tcp_table_load(gp, &t, err, sizeof(err)), 0);
	assert_int_equal(t.nrows, NGPU);
	for (int r = 0; r < t.nrows; r++)
		assert_string_equal(tcp_table_get(&t, r, "clock_outlier"), r == HOT_GPU ? "1" : "0");
	assert_true(atof(tcp_table_get(&t, HOT_GPU, "clock_mhz")) < 1800);
	tcp_table_free(&t);
	char *a2[] = { "fleet", "--no-csv", two, NULL };
	assert_int_equal(run_cmd(3, a2), 0);
	char *a3[] = { "fleet", "--no-csv", bad, NULL };	/* non-numeric median */
	assert_int_equal(run_cmd(3, a3), 2);
	char *a4[] = { "fleet", missing, NULL };
	assert_int_equal(run_cmd(2, a4), 2);
	char *a5[] = { "fleet", "--mad", "0", five, NULL };
	assert_int_equal(run_cmd(4, a5), 2);
	char *a6[] = { "fleet", "--floor", "x", five, NULL };
	assert_int_equal(run_cmd(4, a6), 2);
	char *a7[] = { "fleet", NULL };
	assert_int_equal(run_cmd(1, a7), 2);
	char *a8[] = { "fleet", "--bogus", five, NULL };
	assert_int_equal(run_cmd(3, a8), 2);
	char *a9[] = { "fleet", root, NULL };	/* the whole tree: three fleets, 10 runs */
	assert_int_equal(run_cmd(2, a9), 2);	/* ... one of which has a bad median */
}

static void test_bad_median_names_file_and_line(void **state)
{
	(void)state;
	char dir[512], err[1024];
	snprintf(dir, sizeof(dir), "%s/bad", root);
	char *paths[] = { dir };
	tcp_fleet_opts_t o = { .mad_k = 3, .floor_pct = 2, .metric = NULL };
	assert_null(tcp_fleet_load(paths, 1, &o, err, sizeof(err)));
	assert_non_null(strstr(err, "gpu1/measurements.csv:9: median: got 'fast', expected a number"));
	char empty[512];
	snprintf(empty, sizeof(empty), "%s/empty", root);
	mkdir(empty, 0755);
	paths[0] = empty;
	assert_null(tcp_fleet_load(paths, 1, &o, err, sizeof(err)));
	assert_non_null(strstr(err, "no run directory"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_planted_outliers_found),
		cmocka_unit_test(test_metric_filter_and_floor),
		cmocka_unit_test(test_two_gpus_flag_nothing),
		cmocka_unit_test(test_cmd_exit_codes),
		cmocka_unit_test(test_bad_median_names_file_and_line),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
