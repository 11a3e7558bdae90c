/*
 * worker-gpu.c
 *	The worker's start on a GPU: the CUDA context (or NOGPU, BADGPU,
 *	OLDDRIVER and exit), which compute process it is and the launch round
 *	trip (BUSY), the device facts every point's context starts from, the
 *	GPU's provenance (first worker only), the counter session (CTR) and the
 *	CUPTI kernel timer (TIMER).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "harness/measure/contention.h"
#include "harness/measure/cupti-timer.h"
#include "harness/measure/launch-rtt.h"
#include "harness/measure/provenance-live.h"
#include "harness/store/provenance.h"
#include "harness/sweep/worker-int.h"

/* Send what is in the buffer and end the worker: no GPU to run on. */
static void __attribute__((noreturn)) give_up(struct wstate *w)
{
	tcp_msgbuf_send(&w->msg, w->a->res_fd);
	_exit(0);
}

/* NOGPU with the CUDA error's text (prefix: "GPU 0: ", or ""). */
static void __attribute__((noreturn)) no_gpu(struct wstate *w, const char *prefix, cudaError_t e)
{
	char t[TCP_PROV_VALLEN];
	snprintf(t, sizeof(t), "%s%s", prefix, cudaGetErrorString(e));
	tcp_msg_put_text(&w->msg, "NOGPU", t);
	give_up(w);
}

/* A usable device a->gpu, or the reason and exit: a driver older than our
 * runtime (exit 5), none at all (exit 3), no such ordinal (2). */
static void find_gpu(struct wstate *w)
{
	int count = 0;
	cudaError_t e = cudaGetDeviceCount(&count);
	if (e == cudaErrorInsufficientDriver) {
		int dv = 0;
		if (cudaDriverGetVersion(&dv) == cudaSuccess && dv > 0 && dv < CUDART_VERSION)
			tcp_msg_put_pair(&w->msg, "OLDDRIVER", dv, CUDART_VERSION);
		else if (dv <= 0)
			tcp_msg_put_text(&w->msg, "NOGPU", "libcuda.so.1 not found: no NVIDIA driver loaded");
		else
			no_gpu(w, "", e);
		give_up(w);
	}
	if (e != cudaSuccess)
		no_gpu(w, "", e);
	if (count == 0) {
		tcp_msg_put_text(&w->msg, "NOGPU", "cudaGetDeviceCount found 0 devices");
		give_up(w);
	}
	if (w->a->gpu >= count) {
		tcp_msg_put_badgpu(&w->msg, count);
		give_up(w);
	}
}

/*
 *  context()
 *	the CUDA context, and which compute process is this one: NVML lists
 *	host pids (containers), so take the list before and after this context
 *	exists; only the first worker can (NVML is not usable in a child forked
 *	after the supervisor opened it: the supervisor diffs for the later ones)
 */
static void context(struct wstate *w)
{
	const tcp_worker_args_t *a = w->a;
	unsigned int before[TCP_BUSY_MAX_PIDS], after[TCP_BUSY_MAX_PIDS];
	int nv = a->collect_prov ? tcp_prov_nvml_index(a->gpu) : -1, nb = -1, na = -1;
	char nw[128];
	cudaError_t e;
	if (nv >= 0)
		nb = tcp_nvml_compute_pids(nv, before, TCP_BUSY_MAX_PIDS, NULL, nw, sizeof(nw));
	double t0 = wk_now();
	if ((e = cudaSetDevice(a->gpu)) != cudaSuccess || (e = cudaFree(NULL)) != cudaSuccess) {
		char pre[32];
		snprintf(pre, sizeof(pre), "GPU %d: ", a->gpu);
		no_gpu(w, pre, e);
	}
	wk_ph_add(&w->ph, "ctx", wk_now() - t0, NULL);
	if (nb >= 0)
		na = tcp_nvml_compute_pids(nv, after, TCP_BUSY_MAX_PIDS, NULL, nw, sizeof(nw));
	tcp_msg_put_busy(&w->msg, na >= 0 ? tcp_busy_self(before, nb, after, na) : -1L,
			 tcp_launch_rtt_us(TCP_RTT_LAUNCHES));
}

/*
 *  device_facts()
 *	what every point's context starts from; the chip's name (cudaDeviceProp)
 *	and PCI device ID (sysfs, from the bus id the runtime reports; 0 when
 *	unreadable): what model/peaks.h is keyed by
 */
static void device_facts(struct wstate *w)
{
	int gpu = w->a->gpu, major = 0, minor = 0, sms = 0, smem = 0, khz = 0;
	struct cudaDeviceProp prop;
	char path[96];
	unsigned id = 0;
	FILE *f;

	cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, gpu);
	cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, gpu);
	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, gpu);
	cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, gpu);
	cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, gpu);
	w->cc = major * 10 + minor;
	w->base.device = gpu;
	w->base.cc = w->cc;
	w->base.sm_count = sms;
	w->base.smem_per_block_optin = smem;
	w->base.sm_clock_max_mhz = khz / 1000.0;
	if (cudaGetDeviceProperties(&prop, gpu) != cudaSuccess)
		return;
	snprintf(w->base.gpu_name, sizeof(w->base.gpu_name), "%.*s", (int)sizeof(w->base.gpu_name) - 1, prop.name);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%04x:%02x:%02x.0/device", (unsigned)prop.pciDomainID,
		 (unsigned)prop.pciBusID, (unsigned)prop.pciDeviceID);
	if ((f = fopen(path, "r"))) {
		if (fscanf(f, "%x", &id) == 1)
			w->base.pci_device_id = id;
		fclose(f);
	}
}

/* The GPU's provenance, as PROV lines (the first worker of a run only). */
static void provenance(struct wstate *w)
{
	tcp_prov_t *prov = malloc(sizeof(*prov));
	char why[256];
	if (!prov)
		return;
	tcp_prov_init(prov);
	tcp_prov_collect_gpu(prov, w->a->gpu, why, sizeof(why));
	for (int i = 0; i < prov->n; i++)
		tcp_msg_put_prov(&w->msg, prov->key[i], prov->val[i]);
	free(prov);
}

/* The counter session (--counters), its steps in TCPROBE_PHASES; CTR says
 * "ok", "off" or why the counters are NA. */
static void open_counters(struct wstate *w)
{
	const char *spec = w->cfg->counters;
	if (strcmp(spec, "none") == 0) {
		snprintf(w->ctr_reason, sizeof(w->ctr_reason), "off");
		tcp_msg_put_text(&w->msg, "CTR", w->ctr_reason);
		return;
	}
	double t0 = wk_now();
	w->ctr = tcp_counters_open(w->a->gpu, spec, w->ctr_reason, sizeof(w->ctr_reason));
	w->ctr_on = w->ctr || strcmp(w->ctr_reason, "off") != 0;
	wk_ph_add(&w->ph, "ctr_open", wk_now() - t0, w->ctr ? "ok" : w->ctr_reason);
	wk_ph_counters(&w->ph, w->ctr, 1, 1);
	if (w->ctr) {
		const char *sn = tcp_counters_session_note(w->ctr);
		char note[TCP_REASON_LEN + 16];
		snprintf(note, sizeof(note), "%s%s%s%s", tcp_counters_session(w->ctr), *sn ? " (" : "", sn,
			 *sn ? ")" : "");
		wk_ph_add(&w->ph, "ctr_session", 0, note);
		if (w->a->collect_prov)	/* how the counters were collected, for the record */
			tcp_msg_put_prov(&w->msg, "counters_session", note);
		snprintf(w->ctr_reason, sizeof(w->ctr_reason), "ok");
	}
	tcp_msg_put_text(&w->msg, "CTR", w->ctr_reason);
}

/*
 *  wk_init_gpu()
 *	context, device facts, provenance, counters, kernel timer; NOGPU,
 *	BADGPU or OLDDRIVER and exit on failure
 */
void wk_init_gpu(struct wstate *w)
{
	find_gpu(w);
	context(w);
	device_facts(w);
	if (w->a->collect_prov)
		provenance(w);
	open_counters(w);
	if (w->cfg->timer_cupti) {
		char why[TCP_REASON_LEN];
		w->timer_on = tcp_cupti_timer_open(why, sizeof(why)) == 0;
		tcp_msg_put_text(&w->msg, "TIMER", w->timer_on ? "ok" : why);
	}
}
