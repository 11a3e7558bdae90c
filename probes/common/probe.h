/*
 * probe.h
 *	The one interface between the harness (C11) and a probe family (CUDA).
 *
 *	A probe family file (probes/<arch>/probe-<family>.cu) exports exactly one
 *	`const tcp_probe_t tcp_probe_<name>` with C linkage and adds one line to
 *	probes/probe-list.h.  Nothing else in the file is non-static.  A probe never
 *	formats output and never touches files: it fills samples, the harness does
 *	statistics, CSV, plots.  The harness never knows a probe's internals beyond
 *	this descriptor.
 *
 *	Life of one sweep point, in the worker process that owns the CUDA context:
 *	  legal()    -- host-only, also in the supervisor and for --dry-run
 *	  setup()    -- allocate, build tiles/descriptors through model/, fresh random inputs
 *	  validate() -- compute one result on the device, compare with a CPU reference
 *	  run() x (warmup + reps) -- each call is one timed sample of every metric
 *	  run() x 1 under the counter pass (optional, separate from the timed runs)
 *	  teardown()
 *	Every status other than TCP_OK carries a one-line reason in ctx->reason.
 */
#ifndef TCP_PROBE_H
#define TCP_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "model/tmem-plan.h"
#include "model/arch.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TCP_MAX_AXES	 16	/* axes per probe */
#define TCP_MAX_METRICS	 16	/* metrics per probe */
#define TCP_REASON_LEN	 256	/* one-line reasons, NUL included */

/*
 * Where a probe's device code exists: a set of model/arch.h targets
 * (TCP_TGT_BIT()s), 0 = host-only.  The binary holds cubins only for the
 * targets the build selected (Makefile ARCHS; tcp_build_targets()), so a
 * probe runs on compute capability cc when (arch & tcp_build_targets())
 * has the target of exactly that cc ('a' cubins run on their own CC only).
 */
typedef unsigned tcp_arch_t;
#define TCP_ARCH_HOST	 0u						/* host-only (tests, fake probes) */
#define TCP_ARCH_SM90A	 TCP_TGT_BIT(TCP_TGT_SM90A)			/* Hopper: wgmma, mma.sync */
#define TCP_ARCH_TCGEN05 (TCP_TGT_BIT(TCP_TGT_SM100A) | TCP_TGT_BIT(TCP_TGT_SM103A) | \
			  TCP_TGT_BIT(TCP_TGT_SM110A))			/* Blackwell datacenter + Thor: tcgen05 */
#define TCP_ARCH_ANY	 (TCP_ARCH_SM90A | TCP_ARCH_TCGEN05)		/* every sm_90a and tcgen05 target (clock calibration) */
#define TCP_ARCH_PTX80	 (1u << 31)					/* + compute_80 PTX: JIT on every GPU from sm_80 */
#define TCP_ARCH_WARP	 (TCP_TGT_BIT(TCP_TGT_SM80) | TCP_TGT_BIT(TCP_TGT_SM86) | TCP_TGT_BIT(TCP_TGT_SM89) | \
			  TCP_TGT_BIT(TCP_TGT_SM90A) | TCP_TGT_BIT(TCP_TGT_SM100A) | TCP_TGT_BIT(TCP_TGT_SM120A) | \
			  TCP_TGT_BIT(TCP_TGT_SM121A) | TCP_ARCH_PTX80)	/* warp-level MMA: the Makefile's WARP_ARCHS
									 * cubins + compute_80 PTX (runs, at least by
									 * JIT, on every GPU from sm_80 on) */

typedef enum {
	TCP_OK = 0,
	TCP_FAILED,		/* CUDA error, trap, crash of the worker */
	TCP_TIMEOUT,		/* bounded device wait expired, or the supervisor killed the point */
	TCP_INVALID,		/* ran, but the result disagrees with the CPU reference / counters */
	TCP_SKIPPED,		/* illegal for the architecture model; never launched */
	TCP_UNSUPPORTED,	/* no code for this GPU (e.g. sm_100a probe on sm_90) */
	TCP_BLOCKED		/* never launched: earlier points of the probe on this GPU failed
				 * the same way 3 times in a row (harness/sweep/block.h) */
} tcp_status_t;

#define TCP_NSTATUS (TCP_BLOCKED + 1)	/* statuses; arrays indexed by status */

/*
 * An axis: an integer axis has names == NULL and its values are integers; an
 * enumerated axis (kind, major, ab) lists its legal names and a point holds the
 * index into names.  `def` is the default value list in sweep syntax
 * ("[8:256:8]", "[64,128]", "f16,bf16").
 */
typedef struct {
	const char *name;		/* "N", "kind": also the CSV column name */
	const char *help;		/* one line for `tcprobe list` */
	const char *const *names;	/* NULL-terminated value names, or NULL for integers */
	const char *def;		/* default values, sweep syntax */
} tcp_axis_t;

/*
 * How `tcprobe compare` judges a metric (its role; docs/results.md,
 * "metrics.csv").  A run writes every metric's role beside its rows, so that
 * compare reads it from the run, never from this binary's probe list.  A
 * metric that declares none (TCP_ROLE_AUTO, the zero of the trailing fields
 * below) takes the one its unit implies (harness/store/metrics.c,
 * tcp_meta_from_unit): a time (ns, us, ms, s), a frequency (Hz .. GHz) or a
 * per-second rate (TFLOP/s, TB/s) is TCP_ROLE_TIME; everything else (cycles,
 * x/clk rates, %, counts) TCP_ROLE_GATED.  TCP_ROLE_INFO is never derived:
 * a probe declares it.
 */
typedef enum {
	TCP_ROLE_AUTO = 0,	/* from the unit (above) */
	TCP_ROLE_GATED,		/* cycle-domain or per-clock: worse beyond its band and the gate regresses */
	TCP_ROLE_TIME,		/* time-domain (ns, TFLOP/s, MHz): a change its point's own SM clock
				 * explains is not a regression */
	TCP_ROLE_CLOCK,		/* TCP_ROLE_TIME, and the point's in-kernel SM clock (clock64 over
				 * %globaltimer): the reference of its point's time-domain rows */
	TCP_ROLE_INFO		/* host or launch latency, timer resolution, NVML samples: shown,
				 * gated only under `compare --gate-all` */
} tcp_role_t;

/*
 * A metric a probe emits.  Probe files initialise it positionally; the last
 * three fields may be left out (zero: role from the unit, no quantum, no
 * floor).
 */
typedef struct {
	const char *name;	/* "cycles_per_mma", "flop_per_clk_sm": CSV `metric` */
	const char *unit;	/* "cycles", "ns", "FLOP/clk/SM", "TFLOP/s", "B/clk/SM", "MHz" */
	int higher_is_better;	/* 1 rates, 0 latencies; compare reads it */
	const char *help;
	tcp_role_t role;	/* how compare judges it; TCP_ROLE_AUTO = from the unit */
	double quantum;		/* the step its values move in (a timer tick), in the unit:
				 * compare's band is at least one step; 0 = not quantized */
	double abs_floor;	/* for values that sit near zero (a ratio of two small numbers):
				 * changes up to this much, in the unit, are noise; 0 = none */
} tcp_metric_t;

/* One sweep point: v[i] is the value of axes[i] (an index for enumerated axes). */
typedef struct {
	int naxes;
	int64_t v[TCP_MAX_AXES];
} tcp_point_t;

/* Everything a probe may know about where it runs.  Filled by the worker. */
typedef struct {
	int device;			/* CUDA ordinal */
	int cc;				/* compute capability, 90, 100, ... */
	int sm_count;
	int smem_per_block_optin;	/* bytes */
	double sm_clock_max_mhz;	/* cudaDevAttrClockRate */
	unsigned pci_device_id;		/* PCI device ID (0x2335: H200), from sysfs; 0 = unknown */
	char gpu_name[96];		/* cudaDeviceProp.name ("NVIDIA H200"): model/peaks.h keys */
	uint64_t seed;			/* fresh per point: random inputs are drawn from it */
	uint64_t wait_budget_cycles;	/* bound for every device-side spin (mbarrier, alloc) */
	/* Out: set by run() for the CUPTI cross-check (tensor instructions issued
	 * by one run() call, summed over the whole grid); < 0 = not applicable. */
	double issued_tensor_insts;
	/* Out: FLOP (OP) one run() call does, whole grid, for --energy's pJ/FLOP;
	 * < 0 = not applicable.  The worker sets -1 before setup(). */
	double work_flop;
	char reason[TCP_REASON_LEN];	/* out: why a hook did not return TCP_OK */
	/* Out, with a non-OK status: the wait site that failed, by name (the
	 * status word's site code as the probe names it), "" = none.  The
	 * supervisor's BLOCKED rule groups failures by it, never by the reason
	 * text (which carries a CTA and a time).  The worker clears it. */
	char site[64];
	/* The emulation build (make EMULATE=1: the tcgen05 probes compiled for
	 * sm_90a, each tcgen05 instruction emulated by probes/emu/) reads these;
	 * the worker fills them from the run's plan options (harness/sweep/
	 * emulate.h).  In a real run emu_target is NULL, emu_flags 0,
	 * emu_trace_cta -1 and emu_slowdown 1. */
	const tcp_target_info_t *emu_target;	/* the emulated target (sm_100a, sm_103a,
						 * sm_110a): its legality and features */
	unsigned emu_flags;		/* TCP_EMU_F_* */
	int emu_trace_cta;		/* with TCP_EMU_F_TRACE: the linear CTA index whose
					 * tcgen05 operation log is printed; -1 = none */
	double emu_slowdown;		/* factor the point timeout and wait_budget_cycles
					 * were scaled by (already applied to both) */
	int emu_mutant;			/* the planted defect the run selects (probes/emu/
					 * tc-emu-mutants.h tcp_mutant_t); 0 = none */
	long long emu_poison_words;	/* emulation: poison words tcgen05.ld / ld.red
					 * returned since the worker last cleared it
					 * (added after each launch) */
} tcp_ctx_t;

/* tcp_ctx_t.emu_flags */
#define TCP_EMU_F_TMEM_STALE	(1u << 0)	/* newly allocated TMEM columns keep what the
						 * previous CTA on that SM left (as hardware
						 * does); clear: they read as poison */
#define TCP_EMU_F_TRACE		(1u << 1)	/* print emu_trace_cta's tcgen05 operation log */

/* One sample: v[m] is the value of metrics[m] in one run() call; NAN = n/a. */
typedef struct {
	double v[TCP_MAX_METRICS];
} tcp_sample_t;

typedef struct tcp_probe {
	const char *name;		/* "wgmma_tput": `--probe` and CSV `probe` */
	const char *family;		/* "wgmma", "tcgen05.mma", "calib" */
	const char *help;		/* one line */
	tcp_arch_t arch;
	const tcp_axis_t *axes;
	int naxes;
	const tcp_metric_t *metrics;
	int nmetrics;
	/* 1 when the point is legal; 0 with a one-line reason (asks model/). May be NULL. */
	int (*legal)(const tcp_point_t *p, char *reason, size_t len);
	tcp_status_t (*setup)(const tcp_point_t *p, tcp_ctx_t *c, void **state);
	tcp_status_t (*validate)(void *state, tcp_ctx_t *c);	/* may be NULL: nothing to check */
	tcp_status_t (*run)(void *state, tcp_ctx_t *c, tcp_sample_t *out);
	void (*teardown)(void *state);
	/* Registered but not runnable in this build: why (stress-ng style). */
	const char *unsupported_reason;
	/* Tensor-memory probes: the point's TMEM footprint (model/tmem-plan.h),
	 * computed on the host from the axes alone, for a point legal() accepted.
	 * 1 = *fp filled; 0 = the point uses no TMEM; -1 = it cannot run (reason).
	 * The planner SKIPs a point whose footprint fails tcp_tmem_fp_check(),
	 * with that reason, and --dry-run --verbose prints it (`tmem=`); setup()
	 * places its regions from the same function.  May be NULL. */
	int (*tmem)(const tcp_point_t *p, tcp_tmem_fp_t *fp, char *reason, size_t len);
	/* 1 when the point's forms exist on target t (model/arch.h); 0 with a
	 * one-line reason: the point is SKIPPED on that GPU ("kind::i8 does not
	 * exist on sm_103a").  NULL: every point exists on every target of `arch`. */
	int (*legal_on)(const tcp_point_t *p, const tcp_target_info_t *t, char *reason, size_t len);
} tcp_probe_t;

/* The registry (harness/sweep/registry.c), built from probes/probe-list.h. */
extern const tcp_probe_t *const tcp_probes[];
extern const int tcp_nprobes;
const tcp_probe_t *tcp_probe_find(const char *name);

/* Helpers the probes share (probes/common/probe-util.c, host side, plain C). */
int tcp_axis_index(const tcp_probe_t *p, const char *axis);	/* -1 if absent */
const char *tcp_status_name(tcp_status_t s);
const char *tcp_arch_name(tcp_arch_t a);			/* "sm_100a,sm_103a,sm_110a" (all of the set) */
int tcp_arch_runs_on(tcp_arch_t a, int cc);			/* 1 if this binary holds code of `a` for cc */

/*
 * The targets this binary holds cubins for (Makefile ARCHS, baked in as
 * TCP_BUILD_TARGETS) and, one line, which targets the build left out and
 * why ("sm_110a: nvcc 12.9 does not know it (needs CUDA 13.0)"; "" = none).
 */
unsigned tcp_build_targets(void);
const char *tcp_build_left_out(void);
const char *tcp_build_toolkit(void);	/* nvcc release that built the probes: "13.0" */
/*
 * tcp_arch_why_not()
 *	Why a probe of set `a` cannot run on compute capability cc in this
 *	binary, with the remedy: "probe built for sm_90a only", "this build
 *	holds no sm_103a cubin (left out: ...); rebuild with CUDA 12.9 or newer:
 *	make ARCHS=..." or "tcprobe knows no target of compute capability 10.7".
 *	Returns NULL (buf untouched) when it runs.
 */
const char *tcp_arch_why_not(tcp_arch_t a, int cc, char *buf, size_t len);
/* The same for a given set of built targets and left-out line (tests). */
const char *tcp_arch_why_not_in(tcp_arch_t a, int cc, unsigned built, const char *left_out, char *buf,
				size_t len);

#ifdef __cplusplus
}
#endif
#endif /* TCP_PROBE_H */
