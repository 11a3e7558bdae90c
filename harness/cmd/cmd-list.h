/*
 * cmd-list.h
 *	Every `tcprobe <command>`, one line each: name, one-line help.
 *	Each command lives in harness/cmd-<name>.c as
 *	    int tcp_cmd_<name>(int argc, char **argv);
 *	(argv[0] is the command name) and returns the process exit status:
 *	0 success, 1 a result the caller should act on (regression, FAIL),
 *	2 usage or input error (one line on stderr naming the bad value).
 *	harness/cmd/main.c expands this table for dispatch and for `tcprobe --help`.
 */
#ifndef TCP_CMD_LIST_H
#define TCP_CMD_LIST_H

#define TCP_COMMANDS(X) \
	X(list, "list probes, their axes, metrics and the archs they run on") \
	X(info, "print the GPU(s) and the full provenance tcprobe would record") \
	X(fleet, "merge many GPUs' runs: median and spread per point, outlier GPUs and clocks") \
	X(run,  "run a sweep (spec files and/or --probe/--set) into a results directory") \
	X(counters, "CUPTI counter metrics per chip (--list [--chip NAME] [--all]); works with no GPU") \
	X(compare, "compare runs (drivers, toolkits, GPUs) point by point; exit 1 on a regression") \
	X(report, "a run's findings, plots and tables: RUN_DIR/report.md, report.html, summary.json (--baseline, --pdf)") \
	X(query, "rows or the state of a run (plain or archived .gz) as CSV, for scripts (--summary)") \
	X(encode, "encode a tcgen05 instruction descriptor or a shared-memory (sm_100/wgmma) descriptor") \
	X(decode, "name every field of an idesc or sdesc given in hex") \
	X(layout, "where tcgen05.mma puts D[m][n] in TMEM (CTA, lane, column); tcgen05.ld maps") \
	X(tmem_plan, "TMEM columns a tile needs (accumulator stages, A, scales, metadata): fits? CTAs/SM") \
	X(k4, "the K/4 table: MMA-K, FLOP per accumulator byte, published rates per kind (--csv)")

#define TCP_CMD_DECL(n, h) int tcp_cmd_##n(int argc, char **argv);
TCP_COMMANDS(TCP_CMD_DECL)

#endif
