/*
 * tc-emu-mutants.h
 *	The planted defects of the emulation build: each is a variant of the
 *	real probe code (or of what model/ hands the device), compiled into
 *	the emulation binary beside the real code and selected at run time
 *	(`tcprobe run --emu-mutant NAME`), so one binary runs them all
 *	(scripts/ci/emu-mutants.sh, make emu-mutants).  The table states, before
 *	anything runs, the status and the text each defect's rows must show;
 *	a defect counts as caught only when every point it runs shows them.
 *
 *	In the release build no variant exists: TCP_EMU_MUT(X) is 0 and the
 *	compiler removes the branch (tc-arch.cuh TCP_TC_EMU_DEVICE).
 */
#ifndef TCP_TC_EMU_MUTANTS_H
#define TCP_TC_EMU_MUTANTS_H

typedef enum {
	TCP_MUT_NONE = 0,
	TCP_MUT_STAGE_OVER_A,		/* the accumulator placed over A in TMEM (ts) */
	TCP_MUT_SF_OFF_BY_ONE,		/* scale factors of A read one column off */
	TCP_MUT_MISSING_COMMIT,		/* the MMA's commit left out */
	TCP_MUT_LOCAL_COMMIT_CG2,	/* cta_group::2, local commit, the odd CTA waits on its own barrier */
	TCP_MUT_WRONG_PARITY,		/* the issuer waits on parity 1 for phase 0 */
	TCP_MUT_DEALLOC_BEFORE_WAIT,	/* no wait, no read: straight to the teardown */
	TCP_MUT_NO_CLUSTER_BAR,		/* cta_group::2 alloc with a CTA barrier only before it */
	TCP_MUT_LD_BEFORE_WAIT,		/* accumulator read with no wait on the MMA's commit */
	TCP_MUT_MMA_SKIPPED,		/* the MMA left out, its commit kept (poison or stale TMEM read) */
	TCP_MUT_WRONG_N,		/* instruction descriptor N one step (8) smaller than the tile */
	TCP_MUT_HALF_SPLIT,		/* 16x32bx2: the second half one column off */
	TCP_MUT_CP_INTO_MMA_A,		/* a cp into A's columns while the MMA reading them is in flight */
	TCP_MUT_PEER_NO_BACKPRESSURE,	/* the odd CTA's waiter falls behind a chain of phases */
	TCP_MUT_NO_FENCE_AFTER,		/* no tcgen05.fence::after_thread_sync before the accumulator ld */
	TCP_MUT_ALLOC_AFTER_RELINQUISH,	/* relinquish_alloc_permit before the alloc */
	TCP_MUT_NO_DEALLOC,		/* the CTA exits with its columns allocated */
	TCP_MUT_LBO_SBO_SWAPPED,	/* model: B's descriptor with LBO and SBO swapped */
	TCP_MUT_N_FIELD_SHIFTED,	/* model: idesc N >> 3 written one bit lower */
	TCP_MUT_LANE_PERMUTED,		/* model: the accumulator lane mapping with lanes 0 and 1 swapped */
	TCP_MUT_ST_RACE,		/* tc_ldst: every warpgroup stores at column 0, no barrier between */
	TCP_MUT_COUNT
} tcp_mutant_t;

#ifndef __cplusplus
/*
 * One row per defect: its name (the --emu-mutant value), what it plants,
 * the points it runs (tcprobe run arguments), and what every row must show:
 * the status and a text the reason contains.
 */
typedef struct {
	const char *name;
	const char *plants;
	const char *points;
	const char *status;
	const char *reason;
	const char *tmem;	/* --emu-tmem modes it runs in, comma-separated (NULL: poison) */
} tcp_mutant_row_t;

#define TCP_MUT_LAYOUT "--probe tc_layout --set layout=m128 --set N=64 --set mask=0"
#define TCP_MUT_LAYOUT2 "--probe tc_layout --set layout=cg2m256 --set N=64 --set mask=0"
#define TCP_MUT_TS "--probe tc_mma_lat --set kind=f16 --set cta_group=1 --set M=128 --set N=64 --set ab=ts"
#define TCP_MUT_MX "--probe tc_mma_lat --set kind=mxf8f6f4 --set cta_group=1 --set M=128 --set N=64 --set ab=ss"
#define TCP_MUT_LAT2 "--probe tc_mma_lat --set kind=f16 --set cta_group=2 --set M=256 --set N=64 --set ab=ss"

static const tcp_mutant_row_t tcp_mutants[TCP_MUT_COUNT] = {
	[TCP_MUT_NONE] = { "none", "nothing (the control)", TCP_MUT_LAYOUT, "OK", "" },
	[TCP_MUT_STAGE_OVER_A] = { "stage_over_a", "the accumulator over A's TMEM columns (ts)", TCP_MUT_TS, "INVALID", "" },
	[TCP_MUT_SF_OFF_BY_ONE] = { "sf_off_by_one", "A's scale factors read one column to the right", TCP_MUT_MX,
				    "INVALID", "" },
	[TCP_MUT_MISSING_COMMIT] = { "missing_commit", "the MMA's commit left out", TCP_MUT_LAYOUT, "TIMEOUT",
				     "tcgen05.mma completion" },
	[TCP_MUT_LOCAL_COMMIT_CG2] = { "local_commit_cg2", "cta_group::2 local commit, the odd CTA waits on its own barrier",
				       TCP_MUT_LAYOUT2, "TIMEOUT", "tcgen05.mma completion" },
	[TCP_MUT_WRONG_PARITY] = { "wrong_parity",
				   "the issuer waits on parity 1 for phase 0: the emulated commit has completed phase 0, so the wait is for phase 1",
				   TCP_MUT_LAYOUT, "TIMEOUT", "tcgen05.mma completion" },
	[TCP_MUT_DEALLOC_BEFORE_WAIT] = { "dealloc_before_wait", "no wait and no read: dealloc under the MMA",
					  TCP_MUT_LAYOUT, "FAILED", "dealloc with an MMA" },
	[TCP_MUT_NO_CLUSTER_BAR] = { "no_cluster_bar", "cta_group::2 alloc after a CTA barrier only", TCP_MUT_LAYOUT2,
				     "FAILED", "no cluster barrier" },
	[TCP_MUT_LD_BEFORE_WAIT] = { "ld_before_wait", "the accumulator read with no wait on the commit",
				     TCP_MUT_LAYOUT, "FAILED", "not yet known complete" },
	[TCP_MUT_MMA_SKIPPED] = { "mma_skipped", "the MMA left out (its commit kept): TMEM as allocated",
				  TCP_MUT_LAYOUT, "INVALID", "", "poison,stale" },
	[TCP_MUT_WRONG_N] = { "wrong_n", "idesc N one step (8) smaller than the tile: its last 8 columns never written",
			      TCP_MUT_LAYOUT, "INVALID", "" },
	[TCP_MUT_HALF_SPLIT] = { "half_split", "16x32bx2 loads: the second half one column off (stores right)",
				 "--probe tc_ldst --set shape=16x32bx2 --set num=4 --set pack=0 --set warpgroups=1 --set op=ld --set inflight=1",
				 "INVALID", "" },
	[TCP_MUT_CP_INTO_MMA_A] = { "cp_into_mma_a", "a cp into A's columns while the MMA reading them is in flight",
				    TCP_MUT_TS, "FAILED", "tcgen05.cp writes columns" },
	[TCP_MUT_PEER_NO_BACKPRESSURE] = { "peer_no_backpressure",
					   "the odd CTA's waiter starts late on a chain of phases (no back-pressure)",
					   TCP_MUT_LAT2, "FAILED", "phase k+2" },
	[TCP_MUT_NO_FENCE_AFTER] = { "no_fence_after", "no tcgen05.fence::after_thread_sync before the accumulator ld",
				     TCP_MUT_LAYOUT, "FAILED", "not yet known complete" },
	[TCP_MUT_ALLOC_AFTER_RELINQUISH] = { "alloc_after_relinquish", "relinquish_alloc_permit before the alloc",
					     TCP_MUT_LAYOUT, "FAILED", "alloc after relinquish" },
	[TCP_MUT_NO_DEALLOC] = { "no_dealloc", "the CTA exits with its columns allocated", TCP_MUT_LAYOUT, "FAILED",
				 "exited with columns allocated" },
	[TCP_MUT_LBO_SBO_SWAPPED] = { "lbo_sbo_swapped", "model: B's descriptor with LBO and SBO swapped",
				      "--probe tc_layout --set layout=m128 --set N=64 --set mask=0", "INVALID", "" },
	[TCP_MUT_N_FIELD_SHIFTED] = { "n_field_shifted", "model: idesc N >> 3 one bit lower (N halved)", TCP_MUT_LAYOUT,
				      "INVALID", "" },
	[TCP_MUT_LANE_PERMUTED] = { "lane_permuted", "model: accumulator lanes 0 and 1 swapped", TCP_MUT_LAYOUT,
				    "INVALID", "" },
	[TCP_MUT_ST_RACE] = { "st_race", "tc_ldst st: both warpgroups store at column 0 with no barrier between",
			      "--probe tc_ldst --set shape=32x32b --set num=4 --set pack=0 --set warpgroups=2 --set op=st --set inflight=1",
			      "FAILED", "another warp stored" },
};

#endif /* !__cplusplus */
#endif /* TCP_TC_EMU_MUTANTS_H */
