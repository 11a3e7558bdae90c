/*
 * provenance-live.c
 *	The facts of a run collected live (provenance-live.h): the host (build
 *	macros, argv, uname, /proc/cpuinfo) and the GPU (CUDA runtime C API +
 *	NVML), into the key,value rows of harness/store/provenance.h.
 */
#include <cuda_runtime_api.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "harness/measure/nvml.h"
#include "harness/measure/provenance-live.h"
#include "harness/store/columns.h"
#include "probes/common/probe.h"

#ifndef TCP_CUDA_TOOLKIT
#define TCP_CUDA_TOOLKIT ""
#endif
/* The ptxas that assembled the probes' cubins (Makefile: ptxas --version). */
#ifndef TCP_PTXAS_VERSION
#define TCP_PTXAS_VERSION ""
#endif

/* Append arg to dst, single-quoted for a POSIX shell when it needs it. */
static void add_shell_word(char *dst, size_t len, const char *arg)
{
	size_t n = strlen(dst);
	int plain = *arg != '\0';

	for (const char *s = arg; *s && plain; s++)
		plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			       "0123456789@%+=:,./_-", *s) != NULL;
	if (n && n + 1 < len)
		dst[n++] = ' ', dst[n] = '\0';
	if (plain) {
		snprintf(dst + n, len - n, "%s", arg);
		return;
	}
	if (n + 1 < len)
		dst[n++] = '\'', dst[n] = '\0';
	for (const char *s = arg; *s && n + 5 < len; s++) {
		if (*s == '\'') {
			memcpy(dst + n, "'\\''", 4);
			n += 4;
		} else {
			dst[n++] = *s;
		}
	}
	if (n + 1 < len)
		dst[n++] = '\'';
	dst[n < len ? n : len - 1] = '\0';
}

/* First "model name" of /proc/cpuinfo, or NA. */
static void cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	snprintf(buf, len, "NA (/proc/cpuinfo: %s)", f ? "no model name" : strerror(errno));
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *c = strchr(line, ':');
		if (strncmp(line, "model name", 10) != 0 || !c)
			continue;
		c++;
		while (*c == ' ' || *c == '\t')
			c++;
		c[strcspn(c, "\n")] = '\0';
		snprintf(buf, len, "%s", c);
		break;
	}
	fclose(f);
}

/*
 * tcp_prov_collect_host()
 *	Everything that needs no GPU.  NVML is opened here only to record
 *	whether it works (the supervisor samples through it later anyway).
 */
void tcp_prov_collect_host(tcp_prov_t *p, int argc, char *const *argv)
{
	char buf[TCP_PROV_VALLEN];
	struct utsname u;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	tcp_prov_setf(p, "schema_version", "%d", TCP_SCHEMA_VERSION);
	tcp_prov_set(p, "tcprobe_version", tcp_build_version());
	tcp_prov_set(p, "git_commit", tcp_build_commit());
	tcp_prov_setf(p, "git_dirty", "%d", tcp_build_dirty());
	tcp_prov_set(p, "cuda_toolkit_version",
		     TCP_CUDA_TOOLKIT[0] ? TCP_CUDA_TOOLKIT : "NA (nvcc version unknown at build time)");

	buf[0] = '\0';
	for (int i = 0; argv && i < argc && argv[i]; i++)
		add_shell_word(buf, sizeof(buf), argv[i]);
	tcp_prov_set(p, "command_line", argv && argc > 0 ? buf : "NA (no argv given)");
	tcp_prov_set(p, "started_utc", tcp_prov_utc_now(buf, sizeof(buf)));

	if (gethostname(buf, sizeof(buf)) == 0) {
		buf[sizeof(buf) - 1] = '\0';
		tcp_prov_set(p, "host", buf);
	} else {
		tcp_prov_setf(p, "host", "NA (gethostname: %s)", strerror(errno));
	}
	if (uname(&u) == 0)
		tcp_prov_setf(p, "os", "%s %s %s", u.sysname, u.release, u.machine);
	else
		tcp_prov_setf(p, "os", "NA (uname: %s)", strerror(errno));
	cpu_model(buf, sizeof(buf));
	tcp_prov_set(p, "cpu", buf);
	if (ncpu > 0)
		tcp_prov_setf(p, "cpu_count", "%ld", ncpu);
	else
		tcp_prov_set(p, "cpu_count", "NA (sysconf)");

	if (tcp_nvml_open(buf, sizeof(buf)) == 0)
		tcp_prov_set(p, "nvml", "ok");
	else
		tcp_prov_setf(p, "nvml", "NA (%s)", buf);
}

int tcp_prov_cuda_device_count(char *why, size_t len)
{
	int n = 0;
	cudaError_t e = cudaGetDeviceCount(&n);

	if (e != cudaSuccess) {
		if (why && len)
			snprintf(why, len, "no CUDA GPU visible: %s", cudaGetErrorString(e));
		return -1;
	}
	if (n == 0) {
		if (why && len)
			snprintf(why, len, "no CUDA GPU visible: 0 devices");
		return -1;
	}
	return n;
}

static void cuda_version(tcp_prov_t *p, const char *key, cudaError_t e, int v)
{
	if (e != cudaSuccess)
		tcp_prov_setf(p, key, "NA (%s)", cudaGetErrorString(e));
	else
		tcp_prov_setf(p, key, "%d.%d", v / 1000, (v % 1000) / 10);
}

/* An NVML field, or the CUDA fallback when NVML has none. */
static void nvml_or(tcp_prov_t *p, const char *key, const char *nv, const char *fallback)
{
	tcp_prov_set(p, key, (strncmp(nv, "NA", 2) == 0 && fallback) ? fallback : nv);
}

/* CUDA's UUID ("GPU-...") and PCI bus id of a device, from its properties. */
static void cuda_ids(const struct cudaDeviceProp *prop, char *uuid, size_t ulen, char *bus, size_t blen)
{
	const unsigned char *u = (const unsigned char *)prop->uuid.bytes;

	snprintf(uuid, ulen, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
		 u[14], u[15]);
	snprintf(bus, blen, "%04x:%02x:%02x.0", (unsigned)prop->pciDomainID, (unsigned)prop->pciBusID,
		 (unsigned)prop->pciDeviceID);
}

/* The NVML device of CUDA's UUID (a MIG slice's parent by its PCI id). */
static int nvml_match(const char *uuid, const char *bus)
{
	int nv = tcp_nvml_index_by_uuid(uuid);
	return nv >= 0 ? nv : tcp_nvml_index_by_pci(bus);
}

int tcp_prov_nvml_index(int cuda_ordinal)
{
	struct cudaDeviceProp prop;
	char uuid[64], bus[32], why[256];

	if (cudaGetDeviceProperties(&prop, cuda_ordinal) != cudaSuccess) {
		(void)cudaGetLastError();
		return -1;
	}
	if (tcp_nvml_open(why, sizeof(why)) != 0)
		return -1;
	cuda_ids(&prop, uuid, sizeof(uuid), bus, sizeof(bus));
	return nvml_match(uuid, bus);
}

/* mig_mode, mig_slice, mig_slice_sm_count: on a MIG slice, which one and its SMs. */
static void mig_prov(tcp_prov_t *p, int nv, const char *uuid, const char *reason)
{
	char slice[96];
	int sms = -1, m = nv >= 0 ? tcp_nvml_mig(nv, uuid, slice, sizeof(slice), &sms) : -1;

	if (m < 0) {
		tcp_prov_setf(p, "mig_mode", "NA (%s)", nv >= 0 ? "nvmlDeviceGetMigMode failed" : reason);
		return;
	}
	tcp_prov_set(p, "mig_mode", m ? "on" : "off");
	if (!m)
		return;
	/* sm_count (CUDA's multiProcessorCount) is already the slice's own */
	if (slice[0])
		tcp_prov_set(p, "mig_slice", slice);
	else
		tcp_prov_setf(p, "mig_slice", "NA (no MIG device of GPU %d matches %s)", nv, uuid);
	if (sms >= 0)
		tcp_prov_setf(p, "mig_slice_sm_count", "%d", sms);
	else
		tcp_prov_set(p, "mig_slice_sm_count", "NA (nvmlDeviceGetAttributes_v2 failed)");
}

/*
 * gpu_nvml()
 *	The NVML device of CUDA's UUID (else PCI id) into *ni (have: CUDA knows
 *	the device), with the keys nvml and nvml_index; without one, every
 *	field of *ni says why ("NA (...)", reason).  Its NVML index, or -1.
 */
static int gpu_nvml(tcp_prov_t *p, int have, const char *uuid, const char *bus, tcp_nvml_info_t *ni,
		    char *reason, size_t rlen)
{
	int nv = -1;

	if (tcp_nvml_open(reason, rlen) == 0) {
		tcp_prov_set(p, "nvml", "ok");
		if (have)
			nv = nvml_match(uuid, bus);
		if (nv < 0)
			snprintf(reason, rlen, "no NVML device matches %s", have ? uuid : "an unknown CUDA device");
	} else {
		tcp_prov_setf(p, "nvml", "NA (%s)", reason);
	}
	if (nv >= 0) {
		tcp_nvml_info(nv, ni, NULL, 0);
		tcp_prov_setf(p, "nvml_index", "%d", nv);
		return nv;
	}
	/* every NVML field says why precisely: library missing or no match */
	char m[sizeof(ni->name)];
	snprintf(m, sizeof(m), "NA (%.190s)", reason);
	char *f[] = { ni->name, ni->uuid, ni->driver_version, ni->sm_clock_max_mhz, ni->sm_clock_app_mhz,
		      ni->mem_clock_max_mhz, ni->memory_total_bytes, ni->power_limit_w, ni->ecc,
		      ni->persistence_mode, ni->pci_bus_id };
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		memcpy(f[i], m, sizeof(m));	/* every field is TCP_NVML_STRLEN */
	tcp_prov_set(p, "nvml_index", m);
	return -1;
}

/* gpu_name .. pcie_bus_id: CUDA's (prop; NULL: CUDA has no device), else
 * NVML's name, UUID and memory, else na. */
static void gpu_identity(tcp_prov_t *p, const struct cudaDeviceProp *prop, const char *uuid, const char *bus,
			 const tcp_nvml_info_t *ni, const char *na)
{
	if (prop) {
		tcp_prov_set(p, "gpu_name", prop->name);
		tcp_prov_set(p, "gpu_uuid", uuid);
		tcp_prov_setf(p, "compute_capability", "%d.%d", prop->major, prop->minor);
		tcp_prov_setf(p, "sm_count", "%d", prop->multiProcessorCount);
		tcp_prov_setf(p, "memory_total_bytes", "%zu", prop->totalGlobalMem);
		tcp_prov_setf(p, "l2_bytes", "%d", prop->l2CacheSize);
		tcp_prov_set(p, "pcie_bus_id", bus);
		return;
	}
	tcp_prov_set(p, "gpu_name", strncmp(ni->name, "NA", 2) ? ni->name : na);
	tcp_prov_set(p, "gpu_uuid", strncmp(ni->uuid, "NA", 2) ? ni->uuid : na);
	tcp_prov_set(p, "compute_capability", na);
	tcp_prov_set(p, "sm_count", na);
	nvml_or(p, "memory_total_bytes", ni->memory_total_bytes, na);
	tcp_prov_set(p, "l2_bytes", na);
	tcp_prov_set(p, "pcie_bus_id", na);
}

/* CUDA's clock `attr` (kHz) of the device in MHz into buf, or na. */
static const char *cuda_mhz(int have, int cuda_ordinal, enum cudaDeviceAttr attr, char *buf, size_t len,
			    const char *na)
{
	int v = 0;

	if (!have || cudaDeviceGetAttribute(&v, attr, cuda_ordinal) != cudaSuccess)
		return na;
	snprintf(buf, len, "%d", v / 1000);
	return buf;
}

/* The clocks: NVML's max is the board's; CUDA's peak clock is the fallback. */
static void gpu_clocks(tcp_prov_t *p, int have, int cuda_ordinal, const tcp_nvml_info_t *ni, const char *na)
{
	char fb[64];

	nvml_or(p, "sm_clock_max_mhz", ni->sm_clock_max_mhz,
		cuda_mhz(have, cuda_ordinal, cudaDevAttrClockRate, fb, sizeof(fb), na));
	tcp_prov_set(p, "sm_clock_app_mhz", ni->sm_clock_app_mhz);
	nvml_or(p, "mem_clock_max_mhz", ni->mem_clock_max_mhz,
		cuda_mhz(have, cuda_ordinal, cudaDevAttrMemoryClockRate, fb, sizeof(fb), na));
}

/*
 * gpu_software()
 *	The driver, and what made the SASS that ran: it decides what every
 *	timed span holds (ptxas deletes dead loads, moves operand setup, builds
 *	tcgen05.alloc as a software loop).  CUDA_FORCE_PTX_JIT=1 makes the
 *	driver compile the kept PTX instead of loading the build's cubins.
 */
static void gpu_software(tcp_prov_t *p, const tcp_nvml_info_t *ni)
{
	const char *jit = getenv("CUDA_FORCE_PTX_JIT");
	int v = 0;
	cudaError_t e;

	tcp_prov_set(p, "driver_version", ni->driver_version);
	tcp_prov_set(p, "cuda_force_ptx_jit", jit ? jit : "");
	if (jit && !strcmp(jit, "1"))
		tcp_prov_setf(p, "sass_compiler", "driver JIT (driver %s)", ni->driver_version);
	else
		tcp_prov_setf(p, "sass_compiler", "ptxas %s",
			      TCP_PTXAS_VERSION[0] ? TCP_PTXAS_VERSION : "NA (ptxas version unknown at build time)");
	e = cudaDriverGetVersion(&v);
	cuda_version(p, "cuda_driver_version", e, v);
	e = cudaRuntimeGetVersion(&v);
	cuda_version(p, "cuda_runtime_version", e, v);
}

/*
 * tcp_prov_collect_gpu()
 *	CUDA properties first (they identify the device: UUID, PCI id), then the
 *	NVML device with the same UUID for what CUDA does not know.
 */
int tcp_prov_collect_gpu(tcp_prov_t *p, int cuda_ordinal, char *why, size_t len)
{
	struct cudaDeviceProp prop;
	char na[TCP_PROV_VALLEN] = "NA (cudaDeviceGetAttribute failed)", uuid[64] = "", bus[32] = "", reason[256];
	int rc = 0, have = 0;
	tcp_nvml_info_t ni;

	tcp_prov_setf(p, "gpu_index", "%d", cuda_ordinal);
	memset(&prop, 0, sizeof(prop));
	cudaError_t e = cudaGetDeviceProperties(&prop, cuda_ordinal);
	if (e == cudaSuccess) {
		have = 1;
		cuda_ids(&prop, uuid, sizeof(uuid), bus, sizeof(bus));
	} else {
		snprintf(reason, sizeof(reason), "no CUDA GPU visible: %s", cudaGetErrorString(e));
		if (why && len)
			snprintf(why, len, "%s", reason);
		snprintf(na, sizeof(na), "NA (%s)", cudaGetErrorString(e));
		rc = -1;
	}
	int nv = gpu_nvml(p, have, uuid, bus, &ni, reason, sizeof(reason));
	mig_prov(p, nv, uuid, reason);
	gpu_identity(p, have ? &prop : NULL, uuid, bus, &ni, na);
	gpu_clocks(p, have, cuda_ordinal, &ni, na);
	gpu_software(p, &ni);
	nvml_or(p, "ecc", ni.ecc, have ? (prop.ECCEnabled ? "on" : "off") : na);
	tcp_prov_set(p, "power_limit_w", ni.power_limit_w);
	tcp_prov_set(p, "persistence_mode", ni.persistence_mode);
	return rc;
}
