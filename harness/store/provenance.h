/*
 * provenance.h
 *	Where and how a run was taken: the key,value rows of provenance.csv
 *	(docs/results.md lists the keys), the run directory's name, and what
 *	`tcprobe info` prints.
 *
 *	Host part (no CUDA, safe in the supervisor): tcp_prov_collect_host.
 *	GPU part (CUDA runtime + NVML; creates a CUDA context, so call it in the
 *	worker or in `tcprobe info`, never in a process that forks workers
 *	afterwards): tcp_prov_collect_gpu.  A source that is missing yields
 *	"NA (<reason>)" values, never a failure or a crash.
 */
#ifndef TCP_PROVENANCE_H
#define TCP_PROVENANCE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TCP_PROV_MAX	 96	/* keys */
#define TCP_PROV_KEYLEN	 48	/* NUL included */
#define TCP_PROV_VALLEN	 1024	/* NUL included; longer values are cut, ending in "..." */

typedef struct {
	int n;
	char key[TCP_PROV_MAX][TCP_PROV_KEYLEN];
	char val[TCP_PROV_MAX][TCP_PROV_VALLEN];
} tcp_prov_t;

/* Empty *p. */
void tcp_prov_init(tcp_prov_t *p);

/* Set key to val (replace if present, else append in order).  val NULL is
 * stored as "NA".  0; -1 when the table is full or key too long/empty. */
int tcp_prov_set(tcp_prov_t *p, const char *key, const char *val);

/* printf-style tcp_prov_set. */
int tcp_prov_setf(tcp_prov_t *p, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Value of key, NULL when absent. */
const char *tcp_prov_get(const tcp_prov_t *p, const char *key);

/* Copy every key of src into dst, named prefix+key ("gpu1." for the second
 * GPU of a multi-GPU run); prefix NULL or "" copies as is.  0 / -1 (full). */
int tcp_prov_merge(tcp_prov_t *dst, const tcp_prov_t *src, const char *prefix);

/* This binary's tcprobe version, git commit and dirty flag (1: built from a tree with
 * uncommitted changes): what tcp_prov_collect_host records for a run, and what a
 * report stamps as the tcprobe that drew it. */
const char *tcp_build_version(void);
const char *tcp_build_commit(void);
int tcp_build_dirty(void);

/*
 * tcp_prov_collect_host()
 *	schema_version, tcprobe_version, git_commit, git_dirty (from the
 *	-DTCP_GIT_COMMIT / -DTCP_GIT_DIRTY the Makefile passes),
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

/* Current UTC time as ISO 8601 "2026-11-29T18:20:05Z" into buf; returns buf. */
char *tcp_prov_utc_now(char *buf, size_t len);

/* Write p as provenance.csv (key,value; atomic rename).  0 / -1 with err. */
int tcp_prov_write(const tcp_prov_t *p, const char *path, char *err, size_t errlen);

/* Read a provenance.csv back (for compare/report).  0 / -1 with err. */
int tcp_prov_read(tcp_prov_t *p, const char *path, char *err, size_t errlen);

/*
 * tcp_results_dir_name()
 *	"<base>/<YYYY-MM-DD>-<gpu_name>-<driver_version>-<host>" from p's
 *	started_utc, gpu_name, driver_version, host (NA values become
 *	"nogpu", "nodriver", "nohost"); each part sanitised to letters,
 *	digits, '.', '_', '-' (anything else becomes '_', runs collapsed).
 *	When the path exists, "-2", "-3", ... is appended until it does not.
 *	base NULL means "results".  Does not create it.  0; -1 when len is
 *	too small.
 */
int tcp_results_dir_name(char *buf, size_t len, const char *base, const tcp_prov_t *p);

#ifdef __cplusplus
}
#endif
#endif /* TCP_PROVENANCE_H */
