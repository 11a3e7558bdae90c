/*
 * columns.h
 *	The fixed columns of measurements.csv, in file order: one X-macro line
 *	per column (name, type, the schema version it appeared in, one-line
 *	doc).  The sweep's writer (harness/sweep/supervisor-rows.c) builds its
 *	header and fills its cells from it, the run model (run.c) finds its
 *	columns by it, and `tcprobe list --columns` prints it as the column
 *	table of docs/results.md (tests/test-columns.c checks the committed
 *	document equals it).  After the fixed columns come the axis columns
 *	(the union of the probes' axis names, sorted).
 *
 *	X(name, type, version, doc): name is the header cell (a C identifier),
 *	type one of int, float, text, 0/1.
 */
#ifndef TCP_COLUMNS_H
#define TCP_COLUMNS_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever the columns or their meaning change (docs/results.md). */
#define TCP_SCHEMA_VERSION 3

#define TCP_COLUMNS(X) \
	X(schema, int, 1, "this schema's version (`TCP_SCHEMA_VERSION`)") \
	X(run_id, text, 1, "the run directory's name") \
	X(gpu, int, 1, "CUDA ordinal of the GPU the point ran on") \
	X(point, int, 1, "index of the point in `plan.txt` (0-based)") \
	X(probe, text, 1, "probe name (`tcprobe list`)") \
	X(arch, text, 1, "the target the point ran on: `sm_90a`, `sm_100a`, ... (model/arch.h: the GPU's compute capability, or the emulated target of an emulated run); `host` for a host-only probe. Before version 3: the probe's target set (`sm_90a,sm_100a`); the run model reads such a row as the one target it ran on") \
	X(axes, text, 1, "canonical point key: `name=value` pairs joined by `;`, in the probe's axis order") \
	X(metric, text, 1, "metric name (probe-declared), or `cupti/<metric>` for hardware counters") \
	X(unit, text, 1, "`cycles`, `ns`, `MHz`, `FLOP/clk/SM`, `TFLOP/s`, `B/clk/SM`, ...") \
	X(median, float, 1, "median over `reps` samples; empty when the point is not OK") \
	X(min, float, 1, "minimum over the samples; empty when the point is not OK") \
	X(max, float, 1, "maximum over the samples; empty when the point is not OK") \
	X(mean, float, 1, "mean over the samples; empty when the point is not OK") \
	X(stddev, float, 1, "standard deviation of the samples; empty when the point is not OK") \
	X(spread_pct, float, 1, "(max - min) / median x 100") \
	X(reps, int, 1, "samples taken (finite ones): under `--reps auto` between 3 and the cap, see `reps_stop`") \
	X(status, text, 1, "`OK`, `FAILED`, `TIMEOUT`, `INVALID`, `SKIPPED`, `UNSUPPORTED`, `BLOCKED` (v2, below)") \
	X(reason, text, 1, "one line, empty when OK") \
	X(sm_clock_mhz, float, 1, "NVML SM clock, mean over the point's samples; empty = NA") \
	X(throttle, text, 1, "NVML clock-event reasons seen during the point (`none`, `sw_power_cap`, ...); `NA` when NVML is missing") \
	X(timestamp, text, 1, "ISO 8601 UTC time the point finished") \
	X(ci_pct, float, 2, "half-width of the 95% confidence interval of the median, in % of the median: t(0.975, reps - 1) x sqrt(pi/2) x stddev / sqrt(reps) / \\|median\\| x 100 (the normal-theory standard error of a median); 0 when every sample is equal; empty with fewer than 2 samples, for counter / energy rows and for points that are not OK") \
	X(reps_stop, text, 2, "why the point's timed runs stopped: `fixed` (`--reps N`: exactly N), `noise` (`--reps auto`: the first metric's `ci_pct` fell to `--noise`), `max` (auto: reached the cap without that), `budget` (auto: `--rep-budget` seconds of timed runs spent); the same on every probe-metric row of the point; empty for counter / energy rows and points that are not OK") \
	X(contended, 0/1, 2, "`1` when other work was on the GPU during the point: another process's compute context (NVML's compute and MPS process lists at the point's start and end, our own worker excluded), another process's SM utilization in NVML's per-process samples of the point's window, or an empty kernel's launch round trip over 250 us before or after the point; `0` when a witness was read and none said so; empty for host-only points (and when no witness could be read). The evidence is in `log.txt`. Readers count the points marked 1 through `tcp_run_contended()` (harness/store/run.h): `tcprobe compare` and `tcprobe fleet` warn, `tcprobe query --summary` says `contended,N`, the sweep's last line warns") \
	X(gpu_temp_c, float, 2, "GPU temperature (NVML), mean over the point (over its energy window when it has one); empty = NA") \
	X(energy_check, text, 2, "`--energy` points only, else empty: `ok`, or what makes the energy rows not clean, joined by `\\|`: `power_mismatch` (counter power and sampled power differ by more than 5%), `unsettled` (the settle bound ran out before power was flat), `no_energy` (no energy counter reading), `no_power` (no power samples)") \
	X(family, text, 3, "the probe's family (`wgmma`, `tcgen05.mma`, `warp`, `calib`, ...), as the probe declares it") \
	X(mma_kind, text, 3, "the MMA kind the point runs (model/kinds.h: `f16`, `tf32`, `f8f6f4`, `i8`, `mxf8f6f4`, ...); empty when the point runs no MMA") \
	X(a_type, text, 3, "element type of A (model/kinds.h: `bf16`, `e4m3`, `s8`, ...); empty when the probe does not say") \
	X(b_type, text, 3, "element type of B; empty when the probe does not say") \
	X(acc_type, text, 3, "accumulator type (`f32`, `f16`, `s32`); empty when the point runs no MMA") \
	X(mma_sparse, 0/1, 3, "`1` when the point's MMA is 2:4 structured sparse, `0` when dense; empty when the point runs no MMA") \
	X(flop_per_run, float, 3, "FLOP (OP) one `run()` call does over the whole grid, as the probe counts it (`tcp_ctx_t.work_flop`, the figure `--energy` divides by); empty when not applicable or the point is not OK")

/* Column ids, in file order: TCP_COL_schema .. TCP_COL_flop_per_run. */
enum {
#define TCP_COL_ENUM(name, type, version, doc) TCP_COL_##name,
	TCP_COLUMNS(TCP_COL_ENUM)
#undef TCP_COL_ENUM
	TCP_NCOLS
};

/* The header cell of column id: TCP_COL_NAME(ci_pct) is "ci_pct". */
#define TCP_COL_NAME(name) (#name)

typedef struct {
	const char *name;
	const char *type;	/* int, float, text, 0/1 */
	int version;		/* the schema version that added it */
	const char *doc;	/* one line, markdown */
} tcp_column_t;

extern const tcp_column_t tcp_columns[TCP_NCOLS];

/* The fixed columns as docs/results.md's markdown table (header first).
 * 0, or -1 on a write error. */
int tcp_columns_markdown(FILE *f);

#ifdef __cplusplus
}
#endif
#endif /* TCP_COLUMNS_H */
