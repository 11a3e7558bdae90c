/*
 * trap.cuh
 *	Bounded device waits that stop the kernel when they run out, and the
 *	status word that says which wait it was (sm_90a and sm_100a alike).
 *
 *	Why a trap.  When one CTA's wait gives up, work issued for it (a
 *	tcgen05.mma or cp of its pair, a TMA) may still be in flight and touch
 *	its shared memory or tensor memory: a CTA that deallocated and exited
 *	under it would be torn down under in-flight work (PTX tcgen05
 *	issue-granularity rules; tcgen05-facts.md s.7).  So a wait that runs
 *	out records where it was and executes `trap`: the whole grid stops at
 *	once, nothing exits early, and the CUDA context is lost (the worker
 *	then restarts, harness/sweep/worker.c).
 *
 *	Why mapped pinned host memory.  After a trap no device memory can be
 *	copied back, so the status word lives in host memory mapped into the
 *	device (cudaHostAlloc(cudaHostAllocMapped)); the failing thread stores
 *	it and fences at system scope (fence.sc.sys, __threadfence_system)
 *	before the trap, and the host reads it after the launch failed.  No
 *	atomics on host memory (not atomic across PCIe on every platform): the
 *	first thread that sees the word zero writes it; two CTAs giving up in
 *	the same microsecond may both write, and either word names a real
 *	timeout (the trap stops the rest before any cascade).
 *
 *	The top of this file (the word's codes, its decoder, the host verdict)
 *	is plain C so that the cmocka tests include it; the device and CUDA
 *	host parts compile under nvcc only.
 */
#ifndef TCP_TRAP_CUH
#define TCP_TRAP_CUH

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "model/hd.h"
#include "probes/common/probe.h"

/* ---- the status word: host and device --------------------------------- */

/*
 * One uint64_t per launch, zero before it:
 *	bits  0-7   code (tcp_tc_code_t), 0 = every wait succeeded
 *	bits  8-15  site: which wait in the kernel (probe-defined small integer)
 *	bits 16-31  CTA index (blockIdx.x, saturated at 0xffff)
 *	bits 32-63  nanoseconds spent in the wait when it gave up (saturated);
 *	            for TCP_TC_BAD_TADDR the address tcgen05.alloc returned,
 *	            for TCP_TC_BAD_ARGS the offending argument
 */
typedef enum {
	TCP_TC_OK = 0,
	TCP_TC_MBAR_TIMEOUT = 1,	/* mbarrier phase did not flip within the budget */
	TCP_TC_ALLOC_TIMEOUT = 2,	/* reserved: tcgen05.alloc blocks in hardware, no software bound exists */
	TCP_TC_CLUSTER_TIMEOUT = 3,	/* reserved: barrier.cluster.wait has no bounded form */
	TCP_TC_BAD_TADDR = 4,		/* alloc returned an address outside the allocation */
	TCP_TC_BAD_ARGS = 5,		/* launch arguments outside what the host computes (a harness bug) */
	TCP_TC_NCODES
} tcp_tc_code_t;

TCP_HD uint64_t tcp_tc_status_pack(unsigned code, unsigned site, unsigned cta, unsigned long long ns)
{
	if (cta > 0xffffu)
		cta = 0xffffu;
	if (ns > 0xffffffffull)
		ns = 0xffffffffull;
	return (uint64_t)(code & 0xffu) | ((uint64_t)(site & 0xffu) << 8) | ((uint64_t)cta << 16) |
	       ((uint64_t)ns << 32);
}

/* The site code of a word (what BLOCKED-style grouping compares, not the text). */
TCP_HD unsigned tcp_tc_status_site(uint64_t w)
{
	return (unsigned)((w >> 8) & 0xffu);
}

/*
 * tcp_tc_status_reason()
 *	Decode a status word into a one-line reason; `sites` names the probe's
 *	wait sites (index = site, may be NULL).  Returns 0 when the word says
 *	all waits succeeded, 1 otherwise.
 */
static inline int tcp_tc_status_reason(uint64_t w, const char *const *sites, int nsites, char *buf, size_t len)
{
	static const char *const codes[TCP_TC_NCODES] = {
		"ok", "mbarrier wait timed out", "tcgen05.alloc timed out",
		"cluster peer never arrived", "tcgen05.alloc returned a bad address",
		"kernel argument outside the host's range",
	};
	unsigned code = (unsigned)(w & 0xffu), site = tcp_tc_status_site(w);
	unsigned cta = (unsigned)((w >> 16) & 0xffffu);
	unsigned long long ns = (unsigned long long)(w >> 32);

	const char *where = (sites && (int)site < nsites && sites[site]) ? sites[site] : "?";

	if (code == TCP_TC_OK)
		return 0;
	if (code == TCP_TC_BAD_TADDR || code == TCP_TC_BAD_ARGS)	/* the high word: the value, not a time */
		snprintf(buf, len, "%s at %s (site %u), CTA %u: 0x%08llx", codes[code], where, site, cta, ns);
	else
		snprintf(buf, len, "%s at %s (site %u), CTA %u, after %llu ns",
			 code < TCP_TC_NCODES ? codes[code] : "unknown device status", where, site, cta, ns);
	return 1;
}

/*
 * tcp_trap_verdict()
 *	The point's status after a launch, from the status word `w` and the
 *	launch's CUDA result (`cuda_err` = NULL when it succeeded):
 *	  word set, bad TMEM address -> TCP_INVALID;  bad arguments -> TCP_FAILED
 *	  (the host's bug, not the GPU's);  word set, any other code
 *	  -> TCP_TIMEOUT naming the wait (the kernel trapped on purpose: the
 *	  CUDA error is the trap's, said so in the reason);  word clear, CUDA
 *	  error -> TCP_FAILED with the error;  else TCP_OK.
 */
static inline tcp_status_t tcp_trap_verdict(uint64_t w, const char *cuda_err, const char *const *sites,
					    int nsites, char *buf, size_t len)
{
	if (tcp_tc_status_reason(w, sites, nsites, buf, len)) {
		size_t l = strlen(buf);
		if (cuda_err && l + 1 < len)
			snprintf(buf + l, len - l, "; kernel stopped by trap (%s)", cuda_err);
		if ((w & 0xffu) == TCP_TC_BAD_ARGS)
			return TCP_FAILED;
		return (w & 0xffu) == TCP_TC_BAD_TADDR ? TCP_INVALID : TCP_TIMEOUT;
	}
	if (cuda_err) {
		snprintf(buf, len, "%s", cuda_err);
		return TCP_FAILED;
	}
	return TCP_OK;
}

/* ---- device side and CUDA host side ------------------------------------- */
#ifdef __CUDACC__
#include "probes/common/device.cuh"

#define TCP_DEV static __device__ __forceinline__

TCP_DEV uint32_t tcp_smem_u32(const void *p)
{
	return (uint32_t)__cvta_generic_to_shared(p);
}

/* The emulation build (make EMULATE=1) shadows every mbarrier operation below
 * for its checker (probes/emu/tc-emu.cuh). */
#ifndef TCP_TC_EMU
#define TCP_TC_EMU 0
#endif
#if TCP_TC_EMU
#include "probes/emu/tc-emu.cuh"
#endif

/*
 * tcp_tc_fail()
 *	Record a failure in the status word (mapped pinned host memory) unless
 *	one is there already, and make it visible at system scope.  Does not
 *	stop the kernel: tcp_tc_trap() does.
 */
TCP_DEV void tcp_tc_fail(unsigned long long *status, unsigned code, unsigned site, unsigned long long ns)
{
	volatile unsigned long long *w = status;
	if (*w == 0ull)
		*w = (unsigned long long)tcp_tc_status_pack(code, site, blockIdx.x, ns);
	__threadfence_system();
}

/* Record, then stop the whole grid (see the header: no tear-down under in-flight work). */
TCP_DEV void tcp_tc_trap(unsigned long long *status, unsigned code, unsigned site, unsigned long long ns)
{
	tcp_tc_fail(status, code, site, ns);
	asm volatile("trap;" ::: "memory");
}

/* ---- mbarrier (sm_90+) ---------------------------------------------------- */

TCP_DEV void tcp_mbar_init(uint64_t *bar, unsigned count)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(tcp_smem_u32(bar)), "r"(count) : "memory");
#if TCP_TC_EMU && defined(__CUDA_ARCH__)
	tcp_emu_mbar_init(tcp_smem_u32(bar), count);
#endif
}

/* Make mbarrier.init visible to the async proxy and the cluster. */
TCP_DEV void tcp_mbar_init_fence(void)
{
	asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

TCP_DEV void tcp_mbar_arrive(uint64_t *bar)
{
#if TCP_TC_EMU && defined(__CUDA_ARCH__)
	tcp_emu_bar_arrive(tcp_emu_cta(), tcp_smem_u32(bar), 0, 0);
#endif
	asm volatile("{\n\t.reg .b64 st;\n\t"
		     "mbarrier.arrive.shared::cta.b64 st, [%0];\n\t}" ::"r"(tcp_smem_u32(bar))
		     : "memory");
}

/* Arrive (count one, release at cluster scope) on the mbarrier at `cluster_addr`
 * (a shared::cluster address from mapa: the peer CTA's barrier). */
TCP_DEV void tcp_mbar_remote_arrive(uint32_t cluster_addr)
{
#if TCP_TC_EMU && defined(__CUDA_ARCH__)
	tcp_emu_remote_arrive(cluster_addr);
#endif
	asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(cluster_addr) : "memory");
}

/* One non-blocking probe of the phase with the given parity. */
TCP_DEV int tcp_mbar_test(uint64_t *bar, unsigned parity)
{
	uint32_t ok;
#if TCP_TC_EMU && defined(__CUDA_ARCH__)
	tcp_emu_mbar_waiting(tcp_smem_u32(bar));
#endif
	asm volatile("{\n\t.reg .pred p;\n\t"
		     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
		     "selp.u32 %0, 1, 0, p;\n\t}"
		     : "=r"(ok)
		     : "r"(tcp_smem_u32(bar)), "r"(parity)
		     : "memory");
#if TCP_TC_EMU && defined(__CUDA_ARCH__)
	if (ok)
		tcp_emu_mbar_observed(tcp_smem_u32(bar), parity);
#endif
	return (int)ok;
}

/*
 * tcp_mbar_wait()
 *	Wait for the phase with `parity` to complete, for at most `budget_ns`
 *	nanoseconds of %globaltimer.  Returns 1 on completion; on timeout
 *	records (TCP_TC_MBAR_TIMEOUT, site, ns waited) in *status and traps:
 *	it does not return.  (The `return 0` after the trap keeps callers'
 *	code well-formed for the compiler; no thread ever takes it.)
 *	Why %globaltimer and not the SM clock: timed windows read %clock64
 *	(`CS2R Rx, SR_CLOCKLO` in SASS) and scripts/ci/check-sass.sh finds them by
 *	that instruction; a budget on the 32-bit clock would compile to
 *	`S2UR URx, SR_CLOCKLO`, whose uniform register ptxas then takes from
 *	the MMA operands it holds across the timed loop (seen in the SASS).
 *	%globaltimer is a 64-bit read into ordinary registers
 *	(`CS2R Rx, SR_GLOBALTIMERLO`), and its microsecond granularity does not
 *	matter for a budget of seconds.
 */
TCP_DEV int tcp_mbar_wait(uint64_t *bar, unsigned parity, unsigned long long budget_ns,
			  unsigned long long *status, unsigned site)
{
	const unsigned long long t0 = tcp_globaltimer();
	for (;;) {
		if (tcp_mbar_test(bar, parity))
			return 1;
		unsigned long long dt = tcp_globaltimer() - t0;
		if (dt > budget_ns) {
			tcp_tc_trap(status, TCP_TC_MBAR_TIMEOUT, site, dt);
			return 0;
		}
	}
}

/* ---- host: the status word's memory and the check after a launch --------- */

/*
 * tcp_trap_status_alloc() / tcp_trap_status_free()
 *	One zeroed status word in mapped pinned host memory.  The same pointer
 *	serves host and device (unified addressing, which every sm_90+ 64-bit
 *	platform has; anything else is TCP_FAILED with the reason).
 */
static inline tcp_status_t tcp_trap_status_alloc(tcp_ctx_t *c, unsigned long long **status)
{
	void *h = NULL, *d = NULL;
	*status = NULL;
	TCP_CUDA_TRY(c, cudaHostAlloc(&h, sizeof(unsigned long long), cudaHostAllocMapped));
	*status = (unsigned long long *)h;
	**status = 0ull;
	TCP_CUDA_TRY(c, cudaHostGetDevicePointer(&d, h, 0));
	if (d != h) {
		snprintf(c->reason, TCP_REASON_LEN,
			 "mapped host status word has a different device address (no unified addressing)");
		return TCP_FAILED;
	}
#if TCP_TC_EMU
	/* the emulation's buffers, bound into every probe module of the build
	 * (a probe's kernels may live in several: tc-mma-validate.cu) */
	if (tcp_emu_host_bind(c))
		return TCP_FAILED;
#endif
	return TCP_OK;
}

static inline void tcp_trap_status_free(unsigned long long *status)
{
	if (status)
		cudaFreeHost(status);
}

/*
 * tcp_trap_check()
 *	After a launch: its error, a synchronise, then the status word, read
 *	from host memory (valid after a trap too) -> tcp_trap_verdict().  The
 *	word is cleared for the next launch.
 */
static inline tcp_status_t tcp_trap_check(tcp_ctx_t *c, unsigned long long *status, const char *const *sites,
					  int nsites)
{
	cudaError_t e = cudaGetLastError();
	if (e == cudaSuccess)
		e = cudaDeviceSynchronize();
	uint64_t w = *(volatile unsigned long long *)status;
	tcp_status_t st = tcp_trap_verdict(w, e == cudaSuccess ? NULL : cudaGetErrorString(e), sites, nsites,
					   c->reason, TCP_REASON_LEN);
#if TCP_TC_EMU
	/* the checker's rule by name, and what the launch left behind (columns
	 * still allocated: a CTA exited without dealloc) */
	st = tcp_emu_host_after_launch(c, st, e == cudaSuccess);
#endif
	if ((w & 0xffu) != TCP_TC_OK) {	/* the wait by name: the BLOCKED rule's key (probe.h ctx.site) */
		unsigned site = tcp_tc_status_site(w);
		if (sites && site < (unsigned)nsites && sites[site])
			snprintf(c->site, sizeof(c->site), "%s", sites[site]);
		else
			snprintf(c->site, sizeof(c->site), "site %u", site);
	}
	*(volatile unsigned long long *)status = 0ull;
	return st;
}

#endif /* __CUDACC__ */
#endif /* TCP_TRAP_CUH */
