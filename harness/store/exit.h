/*
 * exit.h
 *	tcprobe's exit statuses: one table for every command, kept in the
 *	lowest layer so that the engines of every layer (the sweep, compare,
 *	fleet, report) return them without including each other.  From the
 *	table come the TCP_EXIT_* names, every command's usage "exit:" line
 *	and the table of docs/exit-codes.md (`tcprobe list --exit-codes`,
 *	harness/cmd/exits.c; tests/test-options.c checks the document).
 *
 *	X(code, NAME, brief, meaning, commands, example):
 *	  brief     a few words: the status in a usage "exit:" line
 *	  meaning   the document's cell (markdown, one line)
 *	  commands  where the status is returned: "all", or items
 *	            "CMD" / "CMD: what it means there" joined by "; " (a
 *	            command's usage line says the latter instead of brief)
 *	  example   a stderr line as the document shows it ("" none)
 */
#ifndef TCP_EXIT_H
#define TCP_EXIT_H

#define TCP_EXITS(X) \
	X(0, OK, "ok", "done, nothing to act on", \
	  "all; compare: no regression; fleet: no outlier; report: written", "") \
	X(1, POINTS, "a result to act on", \
	  "a result to act on: a point FAILED, TIMEOUT, INVALID or BLOCKED (`run`; a BLOCKED point was not " \
	  "run because 3 points of its probe before it failed the same way, docs/results.md), a regression " \
	  "beyond the gate (`compare`, on a complete run or with `--allow-missing`; see 9; a point OK in " \
	  "BASE and not OK in NEW, BLOCKED included, is one: a BLOCKED row is written, so it is not " \
	  "missing), an outlier GPU (`fleet`), a plot that failed (`report --plots-only`), libcupti " \
	  "unusable (`counters --list`), a tile that does not fit in TMEM (`tmem-plan`)", \
	  "run: some point FAILED/TIMEOUT/INVALID/BLOCKED; compare: a regression beyond the gate; " \
	  "fleet: outliers flagged; report: --plots-only and a plot failed; counters: libcupti unusable; " \
	  "tmem-plan: the tile does not fit", \
	  "`counters: TCPROBE_CUPTI_LIB: ...: cannot open shared object file ...; remedy: install CUDA 13 " \
	  "CUPTI, ...`") \
	X(2, USAGE, "bad input", \
	  "bad input: option, sweep file, plan, malformed CSV, `--out` already holds a run; a sweep file, " \
	  "plan.txt, CSV or log.txt that is not a regular file (a FIFO, `/dev/zero`, a directory: refused " \
	  "at once, never read or waited on), a sweep file over 1 MiB (`TCP_SPEC_MAX_BYTES`; `--spec -` " \
	  "reads stdin up to the same size)", \
	  "all", \
	  "`tcprobe: run: --reps: got '0', expected an integer in 1..100000, or auto`; `tcprobe: run: " \
	  "my.sweep:2: range of axis N ends before it starts: got '7:3', expected lo <= hi`; `tcprobe: run: " \
	  "/dev/zero: cannot read sweep file: got a character device, expected a regular file`") \
	X(3, NO_GPU, "no CUDA GPU", "no CUDA GPU visible, or no NVIDIA driver at all", \
	  "run; info", \
	  "`tcprobe: no CUDA GPU visible (libcuda.so.1 not found: no NVIDIA driver loaded)`") \
	X(4, NO_ARCH, "no probe for this GPU's architecture", \
	  "the GPU's architecture has no probe in the plan, or this binary holds no cubin for it (an 'a' " \
	  "cubin runs on its own compute capability only): the line names the targets the binary holds " \
	  "and how to rebuild", \
	  "run", \
	  "`tcprobe: no probe set for sm_103; supported: sm_90a, sm_100a (this build holds no sm_103a cubin " \
	  "(it holds sm_90a, sm_100a; left out: sm_103a: nvcc 12.8 does not know it (needs CUDA 12.9)); " \
	  "rebuild with CUDA 12.9 or newer: make ARCHS=sm_103a (or plain make))`") \
	X(5, DRIVER, "driver older than the CUDA runtime", \
	  "driver/toolkit mix: the NVIDIA driver is older than the CUDA runtime tcprobe was built with; " \
	  "the line names the driver branch needed (CUDA 13.x: r580, 12.9: r575, 12.8: r570)", \
	  "run", \
	  "`tcprobe: driver too old: the NVIDIA driver supports CUDA 12.8, this tcprobe needs 13.0 (its " \
	  "CUDA runtime): update the driver to r580 or newer, or build with an older toolkit`") \
	X(6, RESULTS_RO, "results directory not writable", \
	  "the results directory cannot be created or written (read-only file system, permissions)", \
	  "run", \
	  "`tcprobe: --out: cannot create directory: got 'results/x' (Read-only file system), expected a " \
	  "writable path`") \
	X(7, RESULTS_FULL, "results directory full (finish with --resume)", \
	  "the results directory is full (ENOSPC, EDQUOT, or EFBIG from `ulimit -f`); every point written " \
	  "so far is kept whole", \
	  "run", \
	  "`tcprobe: cannot write results/x/measurements.csv: No space left on device; 52 of 400 points " \
	  "kept, finish with: tcprobe run --resume results/x`") \
	X(8, NO_TOOL, "a tool missing", \
	  "a tool missing at run time: gnuplot for `report` (report.md / report.html are still written, " \
	  "without new plots), or for `report --pdf` a headless Chromium (report.md / .html written, no " \
	  "report.pdf)", \
	  "report: a tool missing: gnuplot (report written without new plots) or, with --pdf, Chromium", \
	  "`tcprobe report: gnuplot not found (got 'gnuplot' from $PATH): report written without new " \
	  "plots; install gnuplot-nox or pass --no-plots`; `tcprobe report: --pdf: no headless Chromium " \
	  "(none of chromium, chromium-browser, google-chrome on $PATH): report.md and report.html " \
	  "written, report.pdf not; install Debian's chromium package or set CHROMIUM`") \
	X(9, INCOMPLETE, "an incomplete run (takes precedence over 1)", \
	  "an incomplete run: a NEW run has no row of a (probe, axes, metric) that is OK in BASE " \
	  "(`compare`), or a run lacks a row that another run of the group has OK (`fleet`): never " \
	  "written, or cut off with a torn tail. Rows a `--probe`/`--metric`/`--gpu` filter leaves out " \
	  "are never missing; `--allow-missing` compares a subset on purpose (quick vs default plan, H200 " \
	  "vs B200). **Precedence:** when rows are missing and something is also slower (or an outlier), " \
	  "the status is 9, not 1: the verdict covers only part of the run, so rerunning or copying it " \
	  "whole comes first; the report's `Result:` line still says whether the common rows regressed, " \
	  "and with `--allow-missing` the status is that of the common rows (1 or 0)", \
	  "compare: a NEW run is incomplete (takes precedence over 1); " \
	  "fleet: a run is incomplete (takes precedence over 1)", \
	  "`tcprobe compare: INCOMPLETE: results/cut: 7382 of the 7434 rows OK in " \
	  "results/2026-11-29-NVIDIA_H200-580.159.04-vm-4 are missing (torn: results/cut/measurements.csv, " \
	  "results/cut/provenance.csv); to compare a subset on purpose (quick vs default plan, another " \
	  "GPU) pass --allow-missing or --probe/--metric`") \
	X(10, BUSY, "--require-idle and the GPU is busy", \
	  "`--require-idle` and the GPU is not idle: another process holds a compute context on it, " \
	  "another process had SM time in the last second (NVML's per-process samples), or an empty " \
	  "kernel's launch round trip is over 250 us (a GPU time-sliced with other work); nothing is " \
	  "written", \
	  "run", \
	  "`tcprobe: --require-idle: GPU 0 is not idle: got 1 other compute process (NVML); launch round " \
	  "trip 2410 us > 250 us, expected no other work on it`") \
	X(130, INTERRUPTED, "interrupted (finish with --resume)", \
	  "interrupted (SIGINT / SIGTERM): the points written so far are kept", \
	  "run", \
	  "`interrupted: 12 of 40 points written to results/x; finish with: tcprobe run --resume " \
	  "results/x`")

#define TCP_EXIT_ENUM(code, name, brief, meaning, cmds, example) TCP_EXIT_##name = code,
enum { TCP_EXITS(TCP_EXIT_ENUM) };
#undef TCP_EXIT_ENUM

#endif /* TCP_EXIT_H */
