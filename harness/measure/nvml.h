/*
 * nvml.h
 *	NVML (clocks, clock-event reasons, power, energy, temperature, the
 *	processes on a GPU, and the board facts for provenance), loaded at run time with dlopen("libnvidia-ml.so.1"): building
 *	and running tcprobe needs no driver, and every function degrades to -1
 *	with a reason when the library or the GPU is missing.
 *
 *	Safe in the supervisor: NVML never creates a CUDA context.  GPUs are named
 *	by NVML index; CUDA ordinals differ from it (CUDA_VISIBLE_DEVICES,
 *	CUDA_DEVICE_ORDER), so map a CUDA device through its UUID or PCI bus id
 *	(tcp_nvml_index_by_uuid / _by_pci; the worker reports them from
 *	cudaGetDeviceProperties).
 *
 *	The library path can be overridden with TCP_NVML_LIB (tests point it at a
 *	missing file to exercise the absent path).  NVML belongs to the process
 *	that opened it: in a child forked after tcp_nvml_open, every call fails
 *	("opened by the parent process before fork") rather than share the
 *	parent's driver handles.  Not thread-safe: open/close from one thread.
 */
#ifndef TCP_NVML_H
#define TCP_NVML_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Clock-event ("throttle") reason bits, as NVML defines them. */
#define TCP_THR_GPU_IDLE	0x1ULL		/* "idle" */
#define TCP_THR_APP_CLOCKS	0x2ULL		/* "app_clocks": application clocks setting */
#define TCP_THR_SW_POWER_CAP	0x4ULL		/* "sw_power_cap" */
#define TCP_THR_HW_SLOWDOWN	0x8ULL		/* "hw_slowdown" */
#define TCP_THR_SYNC_BOOST	0x10ULL		/* "sync_boost" */
#define TCP_THR_SW_THERMAL	0x20ULL		/* "sw_thermal" */
#define TCP_THR_HW_THERMAL	0x40ULL		/* "hw_thermal" */
#define TCP_THR_HW_POWER_BRAKE	0x80ULL		/* "hw_power_brake" */
#define TCP_THR_DISPLAY_CLOCKS	0x100ULL	/* "display_clocks" */
/* The reasons that actually pull the SM clock down while work runs: what a
 * measurement should be flagged for (idle/app_clocks/sync_boost are not). */
#define TCP_THR_SLOWDOWN (TCP_THR_SW_POWER_CAP | TCP_THR_HW_SLOWDOWN | TCP_THR_SW_THERMAL | \
			  TCP_THR_HW_THERMAL | TCP_THR_HW_POWER_BRAKE)

/*
 * tcp_nvml_open()
 *	Load libnvidia-ml and nvmlInit.  0 on success (idempotent); -1 with the
 *	reason in why ("libnvidia-ml.so.1: cannot open shared object file",
 *	"nvmlInit_v2: Driver Not Loaded", ...).  The failure is remembered: later
 *	calls return -1 with the same reason without retrying.
 */
int tcp_nvml_open(char *why, size_t len);

/* nvmlShutdown and dlclose; a later tcp_nvml_open starts afresh. */
void tcp_nvml_close(void);

/* Number of GPUs NVML sees (all of them, CUDA_VISIBLE_DEVICES does not
 * apply); -1 when NVML is not open. */
int tcp_nvml_count(void);

/* NVML index of the GPU with this UUID ("GPU-8f3e...", as nvidia-smi -L
 * and tcp_prov_collect_gpu print it); -1 when NVML is closed or no match. */
int tcp_nvml_index_by_uuid(const char *uuid);

/* NVML index of the GPU at this PCI bus id ("0000:19:00.0" or "19:00.0",
 * any case); -1 when NVML is closed or no match. */
int tcp_nvml_index_by_pci(const char *bus_id);

/*
 * tcp_nvml_sample()
 *	One instantaneous reading of GPU `gpu` (NVML index): SM clock in MHz,
 *	current clock-event reasons (TCP_THR_* bits), board power in W.  Any
 *	output pointer may be NULL; a value NVML refuses is NaN (clock, power)
 *	or ~0ULL (mask).  0 when every requested value was read, -1 otherwise.
 *	Cheap (tens of microseconds): the supervisor calls it every few ms.
 */
int tcp_nvml_sample(int gpu, double *sm_clock_mhz, unsigned long long *throttle_mask,
		    double *power_w);

/*
 * tcp_nvml_throttle_str()
 *	Render a reason mask as names joined by '|' ("none" for 0, "NA" for
 *	~0ULL, unknown bits as "0x..."), into buf; returns buf.
 */
const char *tcp_nvml_throttle_str(unsigned long long mask, char *buf, size_t len);

/* Total energy since the driver loaded, in millijoules
 * (nvmlDeviceGetTotalEnergyConsumption, Volta and later).  0 / -1. */
int tcp_nvml_energy_mj(int gpu, unsigned long long *mj);

/* GPU die temperature in C (nvmlDeviceGetTemperature, NVML_TEMPERATURE_GPU):
 * 0, or -1 with *temp_c NaN. */
int tcp_nvml_temp_c(int gpu, double *temp_c);

/*
 * Other work on the GPU (harness/measure/contention.c decides from these).
 *
 * tcp_nvml_compute_pids()
 *	The distinct pids holding a compute context on GPU `gpu` (the compute
 *	list of nvmlDeviceGetComputeRunningProcesses_v3, plus MPS clients from
 *	nvmlDeviceGetMPSComputeRunningProcesses_v3), at most max of them into
 *	pids; *nmps = MPS clients listed.  Inside a container these are host
 *	pids: never compare them with getpid().  Returns the count, or -1 with
 *	the reason (no permission, old driver, NVML closed).
 */
int tcp_nvml_compute_pids(int gpu, unsigned int *pids, int max, int *nmps, char *why, size_t len);

/* One per-process utilization sample (nvmlDeviceGetProcessUtilization). */
typedef struct {
	unsigned int pid;
	unsigned long long timestamp_us;	/* CPU time, us since 1970 */
	unsigned int sm_util;			/* % over the driver's sample period */
} tcp_nvml_util_t;

/*
 * tcp_nvml_util_samples()
 *	The driver's per-process utilization samples newer than since_us (us
 *	since 1970; 0 = all it keeps): a process that started and ended between
 *	two process-list checks still left samples here.  Count (0 when no
 *	process had work), or -1 with the reason (not supported: MIG, old GPU).
 */
int tcp_nvml_util_samples(int gpu, unsigned long long since_us, tcp_nvml_util_t *out, int max,
			  char *why, size_t len);

/* nvmlComputeMode_t: 0 default, 2 prohibited, 3 exclusive process; -1 unknown. */
int tcp_nvml_compute_mode(int gpu);

/*
 * tcp_nvml_mig()
 *	0 MIG off (or not a MIG GPU), 1 on, -1 unknown.  When on, the MIG
 *	device whose UUID matches cuda_uuid (as CUDA reports it: the slice the
 *	worker runs on) names slice ("MIG-...") and its SM count (-1 unknown).
 */
int tcp_nvml_mig(int gpu, const char *cuda_uuid, char *slice, size_t slen, int *slice_sms);

/*
 * tcp_nvml_power_now()
 *	Board power in W, *w NaN when none: the instant field
 *	(NVML_FI_DEV_POWER_INSTANT through nvmlDeviceGetFieldValues) where the
 *	driver has it, else nvmlDeviceGetPowerUsage (a trailing 1 s average on
 *	Ampere and newer: it lags a change of load).  Returns the source used
 *	(TCP_POWER_INSTANT / TCP_POWER_AVERAGE), -1 when neither read.
 */
#define TCP_POWER_AVERAGE	0
#define TCP_POWER_INSTANT	1
int tcp_nvml_power_now(int gpu, double *w);
/* The source as provenance's power_source says it. */
const char *tcp_nvml_power_source_name(int source);

/* Process name of a pid (nvmlSystemGetProcessName): 0, or -1 with "?". */
int tcp_nvml_process_name(unsigned int pid, char *buf, size_t len);

/*
 * The board facts provenance records.  Every field is a printable string:
 * the value, or "NA (<reason>)" when NVML could not give it.
 */
#define TCP_NVML_STRLEN 200

typedef struct {
	char name[TCP_NVML_STRLEN];
	char uuid[TCP_NVML_STRLEN];
	char pci_bus_id[TCP_NVML_STRLEN];	/* "0000:19:00.0", as cudaDeviceGetPCIBusId */
	char driver_version[TCP_NVML_STRLEN];
	char sm_clock_max_mhz[TCP_NVML_STRLEN];
	char sm_clock_app_mhz[TCP_NVML_STRLEN];
	char mem_clock_max_mhz[TCP_NVML_STRLEN];
	char memory_total_bytes[TCP_NVML_STRLEN];
	char power_limit_w[TCP_NVML_STRLEN];		/* enforced limit */
	char ecc[TCP_NVML_STRLEN];			/* "on", "off", "on (pending off)", ... */
	char persistence_mode[TCP_NVML_STRLEN];	/* "on", "off" */
} tcp_nvml_info_t;

/* Fill *info for NVML index `gpu`.  0 on success (some fields may still be
 * NA); -1 when NVML is not open or the index is bad (every field NA, reason
 * in why). */
int tcp_nvml_info(int gpu, tcp_nvml_info_t *info, char *why, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* TCP_NVML_H */
