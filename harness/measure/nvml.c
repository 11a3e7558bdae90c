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
	X(nvmlDeviceGetTemperature, nvml_ret_t, (nvml_dev_t, int, unsigned int *))

#define NVML_PTR(n, r, a) r (*n) a;
static struct {
	NVML_SYMS(NVML_PTR)
} fn;

static void *lib;
static int state;		/* 0 never tried, 1 open, -1 failed (reason below) */
static pid_t owner;		/* the process that ran nvmlInit */
static char fail_reason[256];

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

/*
 * tcp_nvml_info()
 *	Each field queried on its own, so one refused query (power limit on a
 *	GPU without it, application clocks on newer drivers) leaves the others.
 */
int tcp_nvml_info(int gpu, tcp_nvml_info_t *info, char *why, size_t len)
{
	nvml_dev_t d;
	nvml_ret_t r;
	unsigned int v;
	char reason[256];

	if (!info)
		return -1;
	if (!ready() || handle(gpu, &d) != 0) {
		if (state == 1 && owner != getpid())
			snprintf(reason, sizeof(reason), "NVML opened by the parent before fork");
		else if (state == 1)
			snprintf(reason, sizeof(reason), "no NVML device %d (NVML sees %d)", gpu,
				 tcp_nvml_count());
		else
			snprintf(reason, sizeof(reason), "%s", state == -1 ? fail_reason : "NVML not opened");
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
		copy_why(why, len, reason);
		return -1;
	}

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

	STRQ(name, nvmlDeviceGetName, d, info->name, sizeof(info->name));
	STRQ(uuid, nvmlDeviceGetUUID, d, info->uuid, sizeof(info->uuid));
	STRQ(driver_version, nvmlSystemGetDriverVersion, info->driver_version,
	     sizeof(info->driver_version));

	nvml_pci_t pci;
	memset(&pci, 0, sizeof(pci));
	if (!fn.nvmlDeviceGetPciInfo_v3)
		na(info->pci_bus_id, sizeof(info->pci_bus_id), "nvmlDeviceGetPciInfo_v3 missing");
	else if ((r = fn.nvmlDeviceGetPciInfo_v3(d, &pci)) != 0)
		na(info->pci_bus_id, sizeof(info->pci_bus_id), "%s", errstr(r));
	else
		snprintf(info->pci_bus_id, sizeof(info->pci_bus_id), "%04x:%02x:%02x.0",
			 pci.domain, pci.bus, pci.device);

	UQ(sm_clock_max_mhz, nvmlDeviceGetMaxClockInfo, 1.0, "%.0f", d, NVML_CLOCK_SM, &v);
	UQ(sm_clock_app_mhz, nvmlDeviceGetApplicationsClock, 1.0, "%.0f", d, NVML_CLOCK_SM, &v);
	UQ(mem_clock_max_mhz, nvmlDeviceGetMaxClockInfo, 1.0, "%.0f", d, NVML_CLOCK_MEM, &v);
	UQ(power_limit_w, nvmlDeviceGetEnforcedPowerLimit, 1e-3, "%.1f", d, &v);

	nvml_memory_t mem;
	if (!fn.nvmlDeviceGetMemoryInfo)
		na(info->memory_total_bytes, sizeof(info->memory_total_bytes), "nvmlDeviceGetMemoryInfo missing");
	else if ((r = fn.nvmlDeviceGetMemoryInfo(d, &mem)) != 0)
		na(info->memory_total_bytes, sizeof(info->memory_total_bytes), "%s", errstr(r));
	else
		snprintf(info->memory_total_bytes, sizeof(info->memory_total_bytes), "%llu", mem.total);

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
#undef STRQ
#undef UQ
	return 0;
}
