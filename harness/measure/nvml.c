/*
 * nvml.c
 *	NVML through dlopen/dlsym.  The few types and entry points used are
 *	declared here (they are part of NVML's stable ABI), so the build needs
 *	neither nvml.h nor the driver.
 */
#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "harness/measure/nvml.h"

typedef int nvml_ret_t;			/* nvmlReturn_t: 0 = NVML_SUCCESS */
typedef struct nvml_dev *nvml_dev_t;	/* nvmlDevice_t */

enum { NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2 };	/* nvmlClockType_t */
enum { NVML_ERROR_NOT_SUPPORTED = 3 };

typedef struct {			/* nvmlMemory_t */
	unsigned long long total, free, used;
} nvml_memory_t;

/*
 * Versioned structs, bound explicitly to the versioned entry points below
 * (nvml.h maps the plain names to these versions; a struct of one version
 * passed to another entry point reads garbage).  Layouts from NVIDIA's nvml.h
 * (github.com/NVIDIA/go-nvml gen/nvml/nvml.h).
 */
typedef struct {			/* nvmlProcessInfo_v2_t, for *RunningProcesses_v3 */
	unsigned int pid;
	unsigned long long used_gpu_memory;
	unsigned int gpu_instance_id, compute_instance_id;
} nvml_proc_v2_t;

typedef struct {			/* nvmlProcessUtilizationSample_t */
	unsigned int pid;
	unsigned long long timestamp_us;
	unsigned int sm_util, mem_util, enc_util, dec_util;
} nvml_putil_t;

typedef union {				/* nvmlValue_t */
	double d;
	unsigned int ui;
	unsigned long ul;
	unsigned long long ull;
	long long sll;
	int si;
	unsigned short us;
} nvml_value_t;

typedef struct {			/* nvmlFieldValue_t */
	unsigned int field_id, scope_id;
	long long timestamp_us, latency_us;
	int value_type;			/* nvmlValueType_t */
	nvml_ret_t ret;
	nvml_value_t value;
} nvml_field_t;

typedef struct {			/* nvmlDeviceAttributes_t, for nvmlDeviceGetAttributes_v2 */
	unsigned int multiprocessor_count, shared_ce, shared_dec, shared_enc, shared_jpeg,
		shared_ofa, gi_slices, ci_slices;
	unsigned long long memory_mib;
} nvml_attrs_t;

enum { NVML_FI_DEV_POWER_INSTANT = 186 };	/* nvml.h: "Current GPU power" (mW), scope 0 = GPU */
enum { NVML_VALUE_TYPE_DOUBLE = 0, NVML_VALUE_TYPE_UINT = 1, NVML_VALUE_TYPE_ULONG = 2,
       NVML_VALUE_TYPE_ULL = 3, NVML_VALUE_TYPE_SLL = 4, NVML_VALUE_TYPE_SINT = 5 };
enum { NVML_ERROR_NOT_FOUND = 6, NVML_ERROR_INSUFFICIENT_SIZE = 7 };

typedef struct {			/* nvmlPciInfo_t (v3, current since 2018) */
	char bus_id_legacy[16];
	unsigned int domain, bus, device, pci_device_id, pci_subsystem_id;
	char bus_id[32];
} nvml_pci_t;

/* Every entry point used: X(name, return, args). */
#define NVML_SYMS(X) \
	X(nvmlInit_v2, nvml_ret_t, (void)) \
	X(nvmlShutdown, nvml_ret_t, (void)) \
	X(nvmlErrorString, const char *, (nvml_ret_t)) \
	X(nvmlSystemGetDriverVersion, nvml_ret_t, (char *, unsigned int)) \
	X(nvmlDeviceGetCount_v2, nvml_ret_t, (unsigned int *)) \
	X(nvmlDeviceGetHandleByIndex_v2, nvml_ret_t, (unsigned int, nvml_dev_t *)) \
	X(nvmlDeviceGetHandleByUUID, nvml_ret_t, (const char *, nvml_dev_t *)) \
	X(nvmlDeviceGetHandleByPciBusId_v2, nvml_ret_t, (const char *, nvml_dev_t *)) \
	X(nvmlDeviceGetIndex, nvml_ret_t, (nvml_dev_t, unsigned int *)) \
	X(nvmlDeviceGetName, nvml_ret_t, (nvml_dev_t, char *, unsigned int)) \
	X(nvmlDeviceGetUUID, nvml_ret_t, (nvml_dev_t, char *, unsigned int)) \
	X(nvmlDeviceGetPciInfo_v3, nvml_ret_t, (nvml_dev_t, nvml_pci_t *)) \
	X(nvmlDeviceGetClockInfo, nvml_ret_t, (nvml_dev_t, int, unsigned int *)) \
	X(nvmlDeviceGetMaxClockInfo, nvml_ret_t, (nvml_dev_t, int, unsigned int *)) \
	X(nvmlDeviceGetApplicationsClock, nvml_ret_t, (nvml_dev_t, int, unsigned int *)) \
	X(nvmlDeviceGetMemoryInfo, nvml_ret_t, (nvml_dev_t, nvml_memory_t *)) \
	X(nvmlDeviceGetEnforcedPowerLimit, nvml_ret_t, (nvml_dev_t, unsigned int *)) \
	X(nvmlDeviceGetPowerUsage, nvml_ret_t, (nvml_dev_t, unsigned int *)) \
	X(nvmlDeviceGetEccMode, nvml_ret_t, (nvml_dev_t, int *, int *)) \
	X(nvmlDeviceGetPersistenceMode, nvml_ret_t, (nvml_dev_t, int *)) \
	X(nvmlDeviceGetCurrentClocksThrottleReasons, nvml_ret_t, (nvml_dev_t, unsigned long long *)) \
	X(nvmlDeviceGetTotalEnergyConsumption, nvml_ret_t, (nvml_dev_t, unsigned long long *)) \
	X(nvmlDeviceGetTemperature, nvml_ret_t, (nvml_dev_t, int, unsigned int *)) \
	X(nvmlDeviceGetComputeRunningProcesses_v3, nvml_ret_t, (nvml_dev_t, unsigned int *, nvml_proc_v2_t *)) \
	X(nvmlDeviceGetMPSComputeRunningProcesses_v3, nvml_ret_t, (nvml_dev_t, unsigned int *, nvml_proc_v2_t *)) \
	X(nvmlDeviceGetProcessUtilization, nvml_ret_t, (nvml_dev_t, nvml_putil_t *, unsigned int *, unsigned long long)) \
	X(nvmlDeviceGetComputeMode, nvml_ret_t, (nvml_dev_t, int *)) \
	X(nvmlDeviceGetMigMode, nvml_ret_t, (nvml_dev_t, unsigned int *, unsigned int *)) \
	X(nvmlDeviceGetMaxMigDeviceCount, nvml_ret_t, (nvml_dev_t, unsigned int *)) \
	X(nvmlDeviceGetMigDeviceHandleByIndex, nvml_ret_t, (nvml_dev_t, unsigned int, nvml_dev_t *)) \
	X(nvmlDeviceGetAttributes_v2, nvml_ret_t, (nvml_dev_t, nvml_attrs_t *)) \
	X(nvmlDeviceGetFieldValues, nvml_ret_t, (nvml_dev_t, int, nvml_field_t *)) \
	X(nvmlSystemGetProcessName, nvml_ret_t, (unsigned int, char *, unsigned int))

#define NVML_PTR(n, r, a) r (*n) a;
static struct {
	NVML_SYMS(NVML_PTR)
} fn;

static void *lib;
static int state;		/* 0 never tried, 1 open, -1 failed (reason below) */
static pid_t owner;		/* the process that ran nvmlInit */
static char fail_reason[256];
static signed char instant_ok[64];	/* per NVML index: 0 untried, 1 the instant power field
					 * works, -1 it does not (tcp_nvml_power_now) */

/*
 * NVML's handles belong to the process that initialised it: a forked child
 * (a worker restarted after NVML was opened in the supervisor) shares its
 * driver file descriptors, so it must neither use them nor shut them down.
 * In such a child every call behaves as if NVML were missing.
 */
static int ready(void)
{
	return state == 1 && owner == getpid();
}

static void copy_why(char *why, size_t len, const char *s)
{
	if (why && len)
		snprintf(why, len, "%s", s);
}

static const char *errstr(nvml_ret_t r)
{
	const char *s = fn.nvmlErrorString ? fn.nvmlErrorString(r) : NULL;

	return s ? s : "unknown NVML error";
}

/*
 * tcp_nvml_open()
 *	dlopen, resolve every symbol (the clock-event query falls back to its
 *	newer name), nvmlInit_v2.  Optional entry points missing from an old
 *	driver stay NULL and their values read NA.
 */
int tcp_nvml_open(char *why, size_t len)
{
	const char *name = getenv("TCP_NVML_LIB");

	if (state == 1 && owner != getpid()) {
		snprintf(fail_reason, sizeof(fail_reason), "NVML was opened by the parent process "
			 "(pid %ld) before fork; not usable in this child", (long)owner);
		copy_why(why, len, fail_reason);
		return -1;
	}
	if (state == 1)
		return 0;
	if (state == -1) {
		copy_why(why, len, fail_reason);
		return -1;
	}
	if (!name || !*name)
		name = "libnvidia-ml.so.1";
	lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		const char *e = dlerror();
		snprintf(fail_reason, sizeof(fail_reason), "NVML not loadable: %s", e ? e : name);
		goto fail;
	}
#define NVML_RESOLVE(n, r, a) *(void **)&fn.n = dlsym(lib, #n);
	NVML_SYMS(NVML_RESOLVE)
	if (!fn.nvmlDeviceGetCurrentClocksThrottleReasons)
		*(void **)&fn.nvmlDeviceGetCurrentClocksThrottleReasons =
			dlsym(lib, "nvmlDeviceGetCurrentClocksEventReasons");
	if (!fn.nvmlInit_v2 || !fn.nvmlDeviceGetCount_v2 || !fn.nvmlDeviceGetHandleByIndex_v2) {
		snprintf(fail_reason, sizeof(fail_reason), "NVML in %s lacks nvmlInit_v2 (driver too old)",
			 name);
		goto fail_close;
	}
	nvml_ret_t r = fn.nvmlInit_v2();
	if (r != 0) {
		snprintf(fail_reason, sizeof(fail_reason), "nvmlInit_v2: %s", errstr(r));
		goto fail_close;
	}
	state = 1;
	owner = getpid();
	return 0;
fail_close:
	dlclose(lib);
	lib = NULL;
fail:
	memset(&fn, 0, sizeof(fn));
	state = -1;
	copy_why(why, len, fail_reason);
	return -1;
}

void tcp_nvml_close(void)
{
	if (state == 1 && owner != getpid()) {
		/* the library's state is the parent's: a fresh nvmlInit here would
		 * only bump its copied reference count, so stay refused */
		snprintf(fail_reason, sizeof(fail_reason), "NVML was opened by the parent process "
			 "(pid %ld) before fork; not usable in this child", (long)owner);
		state = -1;
		return;
	}
	if (ready() && fn.nvmlShutdown)	/* never from a forked child */
		fn.nvmlShutdown();
	if (lib)
		dlclose(lib);
	lib = NULL;
	memset(&fn, 0, sizeof(fn));
	memset(instant_ok, 0, sizeof(instant_ok));
	state = 0;
	fail_reason[0] = '\0';
}

int tcp_nvml_count(void)
{
	unsigned int n = 0;

	if (!ready() || fn.nvmlDeviceGetCount_v2(&n) != 0)
		return -1;
	return (int)n;
}

static int handle(int gpu, nvml_dev_t *d)
{
	if (!ready() || gpu < 0)
		return -1;
	return fn.nvmlDeviceGetHandleByIndex_v2((unsigned int)gpu, d) == 0 ? 0 : -1;
}

static int index_of(nvml_ret_t r, nvml_dev_t d)
{
	unsigned int i;

	if (r != 0 || !fn.nvmlDeviceGetIndex || fn.nvmlDeviceGetIndex(d, &i) != 0)
		return -1;
	return (int)i;
}

int tcp_nvml_index_by_uuid(const char *uuid)
{
	nvml_dev_t d;

	if (!ready() || !uuid || !fn.nvmlDeviceGetHandleByUUID)
		return -1;
	nvml_ret_t r = fn.nvmlDeviceGetHandleByUUID(uuid, &d);	/* before d is read */
	return index_of(r, d);
}

int tcp_nvml_index_by_pci(const char *bus_id)
{
	nvml_dev_t d;

	if (!ready() || !bus_id || !fn.nvmlDeviceGetHandleByPciBusId_v2)
		return -1;
	nvml_ret_t r = fn.nvmlDeviceGetHandleByPciBusId_v2(bus_id, &d);
	return index_of(r, d);
}

int tcp_nvml_sample(int gpu, double *sm_clock_mhz, unsigned long long *throttle_mask,
		    double *power_w)
{
	nvml_dev_t d;
	unsigned int v;
	int ok = handle(gpu, &d) == 0, rc = 0;

	if (sm_clock_mhz) {
		*sm_clock_mhz = NAN;
		if (ok && fn.nvmlDeviceGetClockInfo && fn.nvmlDeviceGetClockInfo(d, NVML_CLOCK_SM, &v) == 0)
			*sm_clock_mhz = v;
		else
			rc = -1;
	}
	if (throttle_mask) {
		*throttle_mask = ~0ULL;
		if (!(ok && fn.nvmlDeviceGetCurrentClocksThrottleReasons &&
		      fn.nvmlDeviceGetCurrentClocksThrottleReasons(d, throttle_mask) == 0)) {
			*throttle_mask = ~0ULL;
			rc = -1;
		}
	}
	if (power_w) {
		*power_w = NAN;
		if (ok && fn.nvmlDeviceGetPowerUsage && fn.nvmlDeviceGetPowerUsage(d, &v) == 0)
			*power_w = v / 1000.0;
		else
			rc = -1;
	}
	return rc;
}

const char *tcp_nvml_throttle_str(unsigned long long mask, char *buf, size_t len)
{
	static const struct {
		unsigned long long bit;
		const char *name;
	} names[] = {
		{ TCP_THR_GPU_IDLE, "idle" },
		{ TCP_THR_APP_CLOCKS, "app_clocks" },
		{ TCP_THR_SW_POWER_CAP, "sw_power_cap" },
		{ TCP_THR_HW_SLOWDOWN, "hw_slowdown" },
		{ TCP_THR_SYNC_BOOST, "sync_boost" },
		{ TCP_THR_SW_THERMAL, "sw_thermal" },
		{ TCP_THR_HW_THERMAL, "hw_thermal" },
		{ TCP_THR_HW_POWER_BRAKE, "hw_power_brake" },
		{ TCP_THR_DISPLAY_CLOCKS, "display_clocks" },
	};
	size_t used = 0;

	if (!buf || !len)
		return buf;
	buf[0] = '\0';
	if (mask == ~0ULL) {
		snprintf(buf, len, "NA");
		return buf;
	}
	if (mask == 0) {
		snprintf(buf, len, "none");
		return buf;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(mask & names[i].bit))
			continue;
		mask &= ~names[i].bit;
		used += (size_t)snprintf(buf + (used < len ? used : len - 1), used < len ? len - used : 1,
					 "%s%s", used ? "|" : "", names[i].name);
	}
	if (mask)
		snprintf(buf + (used < len ? used : len - 1), used < len ? len - used : 1,
			 "%s0x%llx", used ? "|" : "", mask);
	return buf;
}

int tcp_nvml_energy_mj(int gpu, unsigned long long *mj)
{
	nvml_dev_t d;

	if (!mj || handle(gpu, &d) != 0 || !fn.nvmlDeviceGetTotalEnergyConsumption)
		return -1;
	return fn.nvmlDeviceGetTotalEnergyConsumption(d, mj) == 0 ? 0 : -1;
}

int tcp_nvml_temp_c(int gpu, double *temp_c)
{
	nvml_dev_t d;
	unsigned int v;

	*temp_c = NAN;
	if (handle(gpu, &d) != 0 || !fn.nvmlDeviceGetTemperature ||
	    fn.nvmlDeviceGetTemperature(d, 0 /* NVML_TEMPERATURE_GPU */, &v) != 0)
		return -1;
	*temp_c = v;
	return 0;
}

static void na(char *dst, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void na(char *dst, size_t len, const char *fmt, ...)
{
	char tmp[TCP_NVML_STRLEN - 6];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	snprintf(dst, len, "NA (%s)", tmp);
}

static const char *onoff(int v)
{
	return v ? "on" : "off";
}

/* Every field of *info "NA (reason)". */
static void info_all_na(tcp_nvml_info_t *info, const char *reason)
{
	char *f[] = { info->name, info->uuid, info->pci_bus_id, info->driver_version,
		      info->sm_clock_max_mhz, info->sm_clock_app_mhz, info->mem_clock_max_mhz,
		      info->memory_total_bytes, info->power_limit_w, info->ecc,
		      info->persistence_mode };
	size_t sz[] = { sizeof(info->name), sizeof(info->uuid), sizeof(info->pci_bus_id),
			sizeof(info->driver_version), sizeof(info->sm_clock_max_mhz),
			sizeof(info->sm_clock_app_mhz), sizeof(info->mem_clock_max_mhz),
			sizeof(info->memory_total_bytes), sizeof(info->power_limit_w),
			sizeof(info->ecc), sizeof(info->persistence_mode) };
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		na(f[i], sz[i], "%s", reason);
}

/* Why NVML device `gpu` cannot be asked, into reason. */
static void info_why_not(int gpu, char *reason, size_t len)
{
	if (state == 1 && owner != getpid())
		snprintf(reason, len, "NVML opened by the parent before fork");
	else if (state == 1)
		snprintf(reason, len, "no NVML device %d (NVML sees %d)", gpu, tcp_nvml_count());
	else
		snprintf(reason, len, "%s", state == -1 ? fail_reason : "NVML not opened");
}

/*
 * One field from one query: NA naming the entry point when this NVML lacks
 * it, NA with NVML's error when it refuses; else, for UQ, the unsigned `v`
 * the query wrote, times scale, printed with fmt (r and v are the caller's).
 */
#define STRQ(field, fnname, ...)                                                         \
	do {                                                                             \
		if (!fn.fnname)                                                          \
			na(info->field, sizeof(info->field), "%s", #fnname " missing");  \
		else if ((r = fn.fnname(__VA_ARGS__)) != 0)                              \
			na(info->field, sizeof(info->field), "%s", errstr(r));           \
	} while (0)
#define UQ(field, fnname, scale, fmt, ...)                                               \
	do {                                                                             \
		if (!fn.fnname)                                                          \
			na(info->field, sizeof(info->field), "%s", #fnname " missing");  \
		else if ((r = fn.fnname(__VA_ARGS__)) != 0)                              \
			na(info->field, sizeof(info->field), "%s", errstr(r));           \
		else                                                                     \
			snprintf(info->field, sizeof(info->field), fmt, v * (scale));    \
	} while (0)

/* name, uuid, driver_version. */
static void info_names(nvml_dev_t d, tcp_nvml_info_t *info)
{
	nvml_ret_t r;

	STRQ(name, nvmlDeviceGetName, d, info->name, sizeof(info->name));
	STRQ(uuid, nvmlDeviceGetUUID, d, info->uuid, sizeof(info->uuid));
	STRQ(driver_version, nvmlSystemGetDriverVersion, info->driver_version,
	     sizeof(info->driver_version));
}

/* The clocks (MHz) and the power limit (W). */
static void info_clocks(nvml_dev_t d, tcp_nvml_info_t *info)
{
	nvml_ret_t r;
	unsigned int v;

	UQ(sm_clock_max_mhz, nvmlDeviceGetMaxClockInfo, 1.0, "%.0f", d, NVML_CLOCK_SM, &v);
	UQ(sm_clock_app_mhz, nvmlDeviceGetApplicationsClock, 1.0, "%.0f", d, NVML_CLOCK_SM, &v);
	UQ(mem_clock_max_mhz, nvmlDeviceGetMaxClockInfo, 1.0, "%.0f", d, NVML_CLOCK_MEM, &v);
	UQ(power_limit_w, nvmlDeviceGetEnforcedPowerLimit, 1e-3, "%.1f", d, &v);
}
#undef STRQ
#undef UQ

/* pci_bus_id ("0000:19:00.0") and memory_total_bytes. */
static void info_bus_memory(nvml_dev_t d, tcp_nvml_info_t *info)
{
	nvml_ret_t r;
	nvml_pci_t pci;
	nvml_memory_t mem;

	memset(&pci, 0, sizeof(pci));
	if (!fn.nvmlDeviceGetPciInfo_v3)
		na(info->pci_bus_id, sizeof(info->pci_bus_id), "nvmlDeviceGetPciInfo_v3 missing");
	else if ((r = fn.nvmlDeviceGetPciInfo_v3(d, &pci)) != 0)
		na(info->pci_bus_id, sizeof(info->pci_bus_id), "%s", errstr(r));
	else
		snprintf(info->pci_bus_id, sizeof(info->pci_bus_id), "%04x:%02x:%02x.0",
			 pci.domain, pci.bus, pci.device);
	if (!fn.nvmlDeviceGetMemoryInfo)
		na(info->memory_total_bytes, sizeof(info->memory_total_bytes), "nvmlDeviceGetMemoryInfo missing");
	else if ((r = fn.nvmlDeviceGetMemoryInfo(d, &mem)) != 0)
		na(info->memory_total_bytes, sizeof(info->memory_total_bytes), "%s", errstr(r));
	else
		snprintf(info->memory_total_bytes, sizeof(info->memory_total_bytes), "%llu", mem.total);
}

/* ecc ("on", "off", "on (pending off)") and persistence_mode. */
static void info_modes(nvml_dev_t d, tcp_nvml_info_t *info)
{
	nvml_ret_t r;
	int cur = 0, pend = 0;

	if (!fn.nvmlDeviceGetEccMode)
		na(info->ecc, sizeof(info->ecc), "nvmlDeviceGetEccMode missing");
	else if ((r = fn.nvmlDeviceGetEccMode(d, &cur, &pend)) != 0)
		na(info->ecc, sizeof(info->ecc), "%s", errstr(r));
	else if (cur != pend)	/* a reboot away from changing: say so */
		snprintf(info->ecc, sizeof(info->ecc), "%s (pending %s)", onoff(cur), onoff(pend));
	else
		snprintf(info->ecc, sizeof(info->ecc), "%s", onoff(cur));

	if (!fn.nvmlDeviceGetPersistenceMode)
		na(info->persistence_mode, sizeof(info->persistence_mode), "nvmlDeviceGetPersistenceMode missing");
	else if ((r = fn.nvmlDeviceGetPersistenceMode(d, &cur)) != 0)
		na(info->persistence_mode, sizeof(info->persistence_mode), "%s", errstr(r));
	else
		snprintf(info->persistence_mode, sizeof(info->persistence_mode), "%s", onoff(cur));
}

/*
 * tcp_nvml_info()
 *	Each field queried on its own, so one refused query (power limit on a
 *	GPU without it, application clocks on newer drivers) leaves the others.
 */
int tcp_nvml_info(int gpu, tcp_nvml_info_t *info, char *why, size_t len)
{
	nvml_dev_t d;

	if (!info)
		return -1;
	if (!ready() || handle(gpu, &d) != 0) {
		char reason[256];
		info_why_not(gpu, reason, sizeof(reason));
		info_all_na(info, reason);
		copy_why(why, len, reason);
		return -1;
	}
	info_names(d, info);
	info_bus_memory(d, info);
	info_clocks(d, info);
	info_modes(d, info);
	return 0;
}

/* ---------------------------------------------------------------- other work on the GPU */

/* Append the pids of one process list (compute or MPS) to pids[0..*n), distinct. */
static int list_pids(nvml_ret_t (*get)(nvml_dev_t, unsigned int *, nvml_proc_v2_t *), nvml_dev_t d,
		     unsigned int *pids, int max, int *n, int *listed, char *why, size_t len)
{
	nvml_proc_v2_t stack[64], *p = stack;
	unsigned int cnt = 64;
	nvml_ret_t r = get(d, &cnt, p);

	if (r == NVML_ERROR_INSUFFICIENT_SIZE) {	/* more processes than fit: ask again */
		cnt += 16;
		if (!(p = calloc(cnt, sizeof(*p)))) {
			copy_why(why, len, "out of memory for the process list");
			return -1;
		}
		r = get(d, &cnt, p);
	}
	if (r != 0) {
		copy_why(why, len, errstr(r));
		if (p != stack)
			free(p);
		return -1;
	}
	*listed = (int)cnt;
	for (unsigned int i = 0; i < cnt; i++) {
		int seen = 0;
		for (int k = 0; k < *n && !seen; k++)
			seen = pids[k] == p[i].pid;
		if (!seen && *n < max)
			pids[(*n)++] = p[i].pid;
	}
	if (p != stack)
		free(p);
	return 0;
}

int tcp_nvml_compute_pids(int gpu, unsigned int *pids, int max, int *nmps, char *why, size_t len)
{
	nvml_dev_t d;
	int n = 0, listed = 0, mps = 0;
	char w2[128];

	if (nmps)
		*nmps = 0;
	if (handle(gpu, &d) != 0) {
		copy_why(why, len, ready() ? "no such NVML device" : "NVML not open");
		return -1;
	}
	if (!fn.nvmlDeviceGetComputeRunningProcesses_v3) {
		copy_why(why, len, "nvmlDeviceGetComputeRunningProcesses_v3 missing (driver older than r470)");
		return -1;
	}
	if (list_pids(fn.nvmlDeviceGetComputeRunningProcesses_v3, d, pids, max, &n, &listed, why, len))
		return -1;
	/* MPS clients run inside the MPS server's context: listed apart; a driver
	 * without the query (or not running MPS) simply has none */
	if (fn.nvmlDeviceGetMPSComputeRunningProcesses_v3 &&
	    list_pids(fn.nvmlDeviceGetMPSComputeRunningProcesses_v3, d, pids, max, &n, &mps, w2,
		      sizeof(w2)) == 0 && nmps)
		*nmps = mps;
	return n;
}

int tcp_nvml_util_samples(int gpu, unsigned long long since_us, tcp_nvml_util_t *out, int max,
			  char *why, size_t len)
{
	nvml_dev_t d;
	unsigned int cnt = 0;

	if (handle(gpu, &d) != 0 || !fn.nvmlDeviceGetProcessUtilization) {
		copy_why(why, len, !ready() ? "NVML not open" : fn.nvmlDeviceGetProcessUtilization ?
			 "no such NVML device" : "nvmlDeviceGetProcessUtilization missing");
		return -1;
	}
	/* the size first (buffer NULL), then the samples newer than since_us */
	nvml_ret_t r = fn.nvmlDeviceGetProcessUtilization(d, NULL, &cnt, since_us);
	if (r == NVML_ERROR_NOT_FOUND || (r == 0 && cnt == 0))
		return 0;	/* no process had work since then */
	if (r != 0 && r != NVML_ERROR_INSUFFICIENT_SIZE) {
		copy_why(why, len, errstr(r));
		return -1;
	}
	cnt += 8;
	nvml_putil_t *u = calloc(cnt, sizeof(*u));
	if (!u) {
		copy_why(why, len, "out of memory for utilization samples");
		return -1;
	}
	r = fn.nvmlDeviceGetProcessUtilization(d, u, &cnt, since_us);
	if (r == NVML_ERROR_NOT_FOUND) {
		free(u);
		return 0;
	}
	if (r != 0) {
		copy_why(why, len, errstr(r));
		free(u);
		return -1;
	}
	int n = 0;
	for (unsigned int i = 0; i < cnt && n < max; i++, n++) {
		out[n].pid = u[i].pid;
		out[n].timestamp_us = u[i].timestamp_us;
		out[n].sm_util = u[i].sm_util;
	}
	free(u);
	return n;
}

int tcp_nvml_compute_mode(int gpu)
{
	nvml_dev_t d;
	int m = -1;

	if (handle(gpu, &d) != 0 || !fn.nvmlDeviceGetComputeMode || fn.nvmlDeviceGetComputeMode(d, &m) != 0)
		return -1;
	return m;
}

/* Hex digits of a UUID string, prefix ("GPU-", "MIG-") and dashes dropped. */
static void uuid_hex(const char *u, char *out, size_t len)
{
	size_t n = 0;
	const char *dash = strchr(u, '-');

	if (dash && dash - u == 3)
		u = dash + 1;
	for (; *u && n + 1 < len; u++)
		if (*u != '-')
			out[n++] = (char)((*u >= 'A' && *u <= 'F') ? *u - 'A' + 'a' : *u);
	out[n] = '\0';
}

/* The MIG device of d whose UUID's hex digits are `want`: its UUID into
 * slice (when asked) and its SMs into *slice_sms (when asked and known). */
static void mig_find(nvml_dev_t d, const char *want, char *slice, size_t slen, int *slice_sms)
{
	nvml_dev_t m;
	unsigned int max = 0;
	char got[64], u[96];
	nvml_attrs_t at;

	if (!fn.nvmlDeviceGetMaxMigDeviceCount || !fn.nvmlDeviceGetMigDeviceHandleByIndex ||
	    !fn.nvmlDeviceGetUUID || fn.nvmlDeviceGetMaxMigDeviceCount(d, &max) != 0)
		return;
	for (unsigned int i = 0; i < max; i++) {
		if (fn.nvmlDeviceGetMigDeviceHandleByIndex(d, i, &m) != 0 ||
		    fn.nvmlDeviceGetUUID(m, u, sizeof(u)) != 0)
			continue;
		uuid_hex(u, got, sizeof(got));
		if (strcmp(got, want) != 0)
			continue;
		if (slice && slen)
			snprintf(slice, slen, "%s", u);
		if (slice_sms && fn.nvmlDeviceGetAttributes_v2 && fn.nvmlDeviceGetAttributes_v2(m, &at) == 0)
			*slice_sms = (int)at.multiprocessor_count;
		return;
	}
}

int tcp_nvml_mig(int gpu, const char *cuda_uuid, char *slice, size_t slen, int *slice_sms)
{
	nvml_dev_t d;
	unsigned int cur = 0, pend = 0;
	char want[64];

	if (slice && slen)
		slice[0] = '\0';
	if (slice_sms)
		*slice_sms = -1;
	if (handle(gpu, &d) != 0 || !fn.nvmlDeviceGetMigMode)
		return -1;
	if (fn.nvmlDeviceGetMigMode(d, &cur, &pend) != 0)
		return 0;	/* NOT_SUPPORTED: a GPU without MIG */
	if (!cur)
		return 0;
	/* which slice is ours: the MIG device whose UUID CUDA reports */
	uuid_hex(cuda_uuid ? cuda_uuid : "", want, sizeof(want));
	mig_find(d, want, slice, slen, slice_sms);
	return 1;
}

static double field_double(const nvml_field_t *f)
{
	switch (f->value_type) {
	case NVML_VALUE_TYPE_DOUBLE: return f->value.d;
	case NVML_VALUE_TYPE_UINT: return f->value.ui;
	case NVML_VALUE_TYPE_ULONG: return (double)f->value.ul;
	case NVML_VALUE_TYPE_ULL: return (double)f->value.ull;
	case NVML_VALUE_TYPE_SLL: return (double)f->value.sll;
	case NVML_VALUE_TYPE_SINT: return f->value.si;
	default: return NAN;
	}
}

int tcp_nvml_power_now(int gpu, double *w)
{
	nvml_dev_t d;
	int k = gpu >= 0 && gpu < 64 ? gpu : 0;

	*w = NAN;
	if (handle(gpu, &d) != 0)
		return -1;
	if (instant_ok[k] >= 0 && fn.nvmlDeviceGetFieldValues) {
		nvml_field_t f;
		memset(&f, 0, sizeof(f));
		f.field_id = NVML_FI_DEV_POWER_INSTANT;
		f.scope_id = 0;		/* NVML_POWER_SCOPE_GPU */
		if (fn.nvmlDeviceGetFieldValues(d, 1, &f) == 0 && f.ret == 0 && isfinite(field_double(&f))) {
			instant_ok[k] = 1;
			*w = field_double(&f) / 1000.0;
			return TCP_POWER_INSTANT;
		}
		if (!instant_ok[k])
			instant_ok[k] = -1;	/* this driver has no instant field: stop asking */
	}
	if (tcp_nvml_sample(gpu, NULL, NULL, w) == 0)
		return TCP_POWER_AVERAGE;
	return -1;
}

const char *tcp_nvml_power_source_name(int source)
{
	switch (source) {
	case TCP_POWER_INSTANT:
		return "instant: NVML_FI_DEV_POWER_INSTANT (nvmlDeviceGetFieldValues)";
	case TCP_POWER_AVERAGE:
		return "average: nvmlDeviceGetPowerUsage (a 1 s trailing average on Ampere and newer)";
	default:
		return "NA (no NVML power reading)";
	}
}

int tcp_nvml_process_name(unsigned int pid, char *buf, size_t len)
{
	if (!ready() || !fn.nvmlSystemGetProcessName || !len ||
	    fn.nvmlSystemGetProcessName(pid, buf, (unsigned int)len) != 0) {
		if (buf && len)
			snprintf(buf, len, "?");
		return -1;
	}
	return 0;
}
