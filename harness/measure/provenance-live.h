/*
 * provenance-live.h
 *	The facts of a run collected from the host and the GPU, into the
 *	key,value rows of harness/store/provenance.h (docs/results.md lists
 *	the keys).
 *
 *	Host part (no CUDA, safe in the supervisor): tcp_prov_collect_host.
 *	GPU part (CUDA runtime + NVML; creates a CUDA context, so call it in the
 *	worker or in `tcprobe info`, never in a process that forks workers
 *	afterwards): tcp_prov_collect_gpu.  A source that is missing yields
 *	"NA (<reason>)" values, never a failure or a crash.
 */
#ifndef TCP_PROVENANCE_LIVE_H
#define TCP_PROVENANCE_LIVE_H

#include <stddef.h>

#include "harness/store/provenance.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * tcp_prov_collect_host()
 *	schema_version, tcprobe_version, git_commit, git_dirty (tcp_build_*:
 *	the -DTCP_GIT_COMMIT / -DTCP_GIT_DIRTY the Makefile passes),
 *	cuda_toolkit_version (-DTCP_CUDA_TOOLKIT), command_line (argv joined,
 *	shell-quoted where needed), started_utc (now), host, os (uname), and
 *	nvml (ok or why not).  argv may be NULL (command_line = NA).
 */
void tcp_prov_collect_host(tcp_prov_t *p, int argc, char *const *argv);

/*
 * tcp_prov_collect_gpu()
 *	gpu_index, gpu_name, gpu_uuid, compute_capability, sm_count,
 *	sm_clock_max_mhz, sm_clock_app_mhz, mem_clock_max_mhz,
 *	memory_total_bytes, l2_bytes, driver_version, cuda_driver_version,
 *	cuda_runtime_version, ecc, power_limit_w, persistence_mode,
 *	pcie_bus_id, nvml, for CUDA ordinal `cuda_ordinal`.  CUDA facts come
 *	from cudaGetDeviceProperties (creates the context); board facts from
 *	NVML, matched by UUID.  0 when the CUDA part worked; -1 when CUDA
 *	could not see the device (the CUDA keys hold "NA (<cuda error>)" and
 *	the reason, "no CUDA GPU visible: <cudaGetErrorString>", goes in why).
 */
int tcp_prov_collect_gpu(tcp_prov_t *p, int cuda_ordinal, char *why, size_t len);

/* Number of CUDA devices, or -1 with "no CUDA GPU visible: <error>" in why
 * (creates no context beyond what cudaGetDeviceCount needs). */
int tcp_prov_cuda_device_count(char *why, size_t len);

/* NVML index of CUDA device `cuda_ordinal` (UUID, else PCI bus id), opening
 * NVML in this process; -1 when none.  Creates no CUDA context (the worker
 * lists the GPU's processes with it before its own context exists). */
int tcp_prov_nvml_index(int cuda_ordinal);

#ifdef __cplusplus
}
#endif
#endif /* TCP_PROVENANCE_LIVE_H */
