/*
 * fake-nvml.c
 *	A stand-in libnvidia-ml.so.1 for tests/test-contention.c (built by the
 *	test with `cc -shared`, loaded through TCP_NVML_LIB): one GPU whose
 *	processes, utilization samples, power and modes come from a script file
 *	($FAKE_NVML_SCRIPT), re-read on every call so a test can change the GPU
 *	between calls.  Lines:
 *	    procs PID...               compute contexts (nvmlDeviceGetComputeRunningProcesses_v3)
 *	    mps PID...                 MPS clients
 *	    util PID SM TS_US          one utilization sample (repeatable)
 *	    power_instant MW           NVML_FI_DEV_POWER_INSTANT (absent: NOT_SUPPORTED)
 *	    power_average MW           nvmlDeviceGetPowerUsage
 *	    compute_mode N
 *	    deny procs                 the process list is refused (NO_PERMISSION)
 *	Structs are written in the layouts of NVIDIA's nvml.h for the versioned
 *	entry points, so a mismatch with harness/measure/nvml.c shows up as
 *	garbage pids in the test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int nvmlReturn_t;
typedef struct dev *nvmlDevice_t;

typedef struct {
	unsigned int pid;
	unsigned long long usedGpuMemory;
	unsigned int gpuInstanceId, computeInstanceId;
} nvmlProcessInfo_v2_t;

typedef struct {
	unsigned int pid;
	unsigned long long timeStamp;
	unsigned int smUtil, memUtil, encUtil, decUtil;
} nvmlProcessUtilizationSample_t;

typedef union {
	double dVal;
	unsigned int uiVal;
	unsigned long ulVal;
	unsigned long long ullVal;
	long long sllVal;
	int siVal;
	unsigned short usVal;
} nvmlValue_t;

typedef struct {
	unsigned int fieldId, scopeId;
	long long timestamp, latencyUsec;
	int valueType;
	nvmlReturn_t nvmlReturn;
	nvmlValue_t value;
} nvmlFieldValue_t;

static struct dev { int x; } the_gpu;

struct script {
	unsigned int procs[200], mps[200];
	int nprocs, nmps, deny;
	struct { unsigned int pid, sm; unsigned long long ts; } util[64];
	int nutil;
	long long inst_mw, avg_mw;
	int mode;
};

static void load(struct script *s)
{
	const char *path = getenv("FAKE_NVML_SCRIPT");
	FILE *f = path ? fopen(path, "r") : NULL;
	char line[1024];

	memset(s, 0, sizeof(*s));
	s->inst_mw = s->avg_mw = -1;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *save, *w = strtok_r(line, " \n", &save);
		if (!w)
			continue;
		if (!strcmp(w, "procs") || !strcmp(w, "mps")) {
			unsigned int *v = w[0] == 'p' ? s->procs : s->mps;
			int *n = w[0] == 'p' ? &s->nprocs : &s->nmps;
			while ((w = strtok_r(NULL, " \n", &save)) && *n < 200)
				v[(*n)++] = (unsigned int)strtoul(w, NULL, 10);
		} else if (!strcmp(w, "util") && s->nutil < 64) {
			char *a = strtok_r(NULL, " \n", &save), *b = strtok_r(NULL, " \n", &save),
			     *c = strtok_r(NULL, " \n", &save);
			if (a && b && c) {
				s->util[s->nutil].pid = (unsigned int)strtoul(a, NULL, 10);
				s->util[s->nutil].sm = (unsigned int)strtoul(b, NULL, 10);
				s->util[s->nutil].ts = strtoull(c, NULL, 10);
				s->nutil++;
			}
		} else if (!strcmp(w, "power_instant")) {
			s->inst_mw = atoll(strtok_r(NULL, " \n", &save));
		} else if (!strcmp(w, "power_average")) {
			s->avg_mw = atoll(strtok_r(NULL, " \n", &save));
		} else if (!strcmp(w, "compute_mode")) {
			s->mode = atoi(strtok_r(NULL, " \n", &save));
		} else if (!strcmp(w, "deny")) {
			s->deny = 1;
		}
	}
	fclose(f);
}

nvmlReturn_t nvmlInit_v2(void) { return 0; }
nvmlReturn_t nvmlShutdown(void) { return 0; }
const char *nvmlErrorString(nvmlReturn_t r) { return r == 4 ? "Insufficient Permissions" : r == 3 ? "Not Supported" : "fake error"; }
nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *n) { *n = 1; return 0; }

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int i, nvmlDevice_t *d)
{
	if (i != 0)
		return 2;
	*d = &the_gpu;
	return 0;
}

static nvmlReturn_t list(const unsigned int *pids, int n, unsigned int *count, nvmlProcessInfo_v2_t *out)
{
	if (*count < (unsigned int)n) {
		*count = (unsigned int)n;
		return 7;	/* NVML_ERROR_INSUFFICIENT_SIZE */
	}
	for (int i = 0; i < n; i++) {
		out[i].pid = pids[i];
		out[i].usedGpuMemory = 1ull << 30;
		out[i].gpuInstanceId = out[i].computeInstanceId = 0xFFFFFFFFu;
	}
	*count = (unsigned int)n;
	return 0;
}

nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t d, unsigned int *count,
						     nvmlProcessInfo_v2_t *out)
{
	struct script s;
	(void)d;
	load(&s);
	if (s.deny)
		return 4;	/* NVML_ERROR_NO_PERMISSION */
	return list(s.procs, s.nprocs, count, out);
}

nvmlReturn_t nvmlDeviceGetMPSComputeRunningProcesses_v3(nvmlDevice_t d, unsigned int *count,
							nvmlProcessInfo_v2_t *out)
{
	struct script s;
	(void)d;
	load(&s);
	return list(s.mps, s.nmps, count, out);
}

nvmlReturn_t nvmlDeviceGetProcessUtilization(nvmlDevice_t d, nvmlProcessUtilizationSample_t *u,
					     unsigned int *count, unsigned long long since)
{
	struct script s;
	unsigned int n = 0;
	(void)d;
	load(&s);
	for (int i = 0; i < s.nutil; i++)
		n += s.util[i].ts > since;
	if (n == 0)
		return 6;	/* NVML_ERROR_NOT_FOUND */
	if (!u || *count < n) {
		*count = n;
		return 7;
	}
	n = 0;
	for (int i = 0; i < s.nutil; i++)
		if (s.util[i].ts > since) {
			memset(&u[n], 0, sizeof(u[n]));
			u[n].pid = s.util[i].pid;
			u[n].timeStamp = s.util[i].ts;
			u[n].smUtil = s.util[i].sm;
			n++;
		}
	*count = n;
	return 0;
}

nvmlReturn_t nvmlDeviceGetFieldValues(nvmlDevice_t d, int n, nvmlFieldValue_t *v)
{
	struct script s;
	(void)d;
	load(&s);
	for (int i = 0; i < n; i++) {
		if (v[i].fieldId != 186 || v[i].scopeId != 0 || s.inst_mw < 0) {
			v[i].nvmlReturn = 3;
			continue;
		}
		v[i].nvmlReturn = 0;
		v[i].valueType = 1;	/* unsigned int */
		v[i].value.uiVal = (unsigned int)s.inst_mw;
	}
	return 0;
}

nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned int *mw)
{
	struct script s;
	(void)d;
	load(&s);
	if (s.avg_mw < 0)
		return 3;
	*mw = (unsigned int)s.avg_mw;
	return 0;
}

nvmlReturn_t nvmlDeviceGetComputeMode(nvmlDevice_t d, int *m)
{
	struct script s;
	(void)d;
	load(&s);
	*m = s.mode;
	return 0;
}
