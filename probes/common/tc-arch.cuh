/*
 * tc-arch.cuh
 *	Which PTX forms this device pass may emit, one macro per feature of
 *	model/arch.h, from the architecture macros nvcc defines for the target
 *	being compiled (../shared/docs/arch-matrix.md s.6: sm_100a defines
 *	__CUDA_ARCH_FEAT_SM100_ALL, sm_103a ..._SM103_ALL, sm_110a ..._SM110_ALL;
 *	CUDA 12.8/12.9 call Thor sm_101a, ..._SM101_ALL).  The keys are the
 *	per-target FEAT macros, not __CUDA_ARCH_SPECIFIC__ / __CUDA_ARCH__ >= 1000,
 *	which are also true for sm_120a/sm_121a (no tcgen05 there), and not
 *	__CUDA_ARCH_FAMILY_SPECIFIC__, which CUDA 12.8 lacks (CUTLASS
 *	cutlass/arch/config.h keys its SM100A/SM103A/SM110A on the same macros).
 *
 *	Every wrapper that emits a form wraps its asm in the feature's macro, so
 *	no instantiation carries a form its target's ptxas rejects; the host
 *	never launches such a kernel (the point is SKIPPED through
 *	probe->legal_on and model/arch.c).  The host pass sees all macros 0.
 *
 *	  TCP_TC_DEVICE	tcgen05 at all (sm_100a, sm_103a, sm_110a)
 *	  TCP_TC_I8	tcgen05.mma kind::i8 (sm_100a, sm_110a; not sm_103a)
 *	  TCP_TC_LD_RED	tcgen05.ld.red (sm_103a, sm_110a; PTX 8.8, CUDA 12.9+)
 *	  TCP_TC_SCALE_D	kind::f16/tf32 scale-input-d (sm_100a, sm_103a; not Thor)
 *	  TCP_TC_K96	mxf4nvf4 K = 96 through idesc bit 31 (sm_103a): same PTX,
 *			so only the host's choice of idesc depends on it
 *	  TCP_TC_EMU_DEVICE	the emulation build's device pass (make EMULATE=1,
 *			TCP_TC_EMU=1, sm_90a): every wrapper calls the emulation
 *			(probes/emu/tc-emu.cuh) instead of emitting a tcgen05 form
 */
#ifndef TCP_TC_ARCH_CUH
#define TCP_TC_ARCH_CUH

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM100_ALL)
#define TCP_TC_SM 100
#elif defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM103_ALL)
#define TCP_TC_SM 103
#elif defined(__CUDA_ARCH__) && (defined(__CUDA_ARCH_FEAT_SM110_ALL) || defined(__CUDA_ARCH_FEAT_SM101_ALL))
#define TCP_TC_SM 110
#else
#define TCP_TC_SM 0
#endif

#define TCP_TC_DEVICE	(TCP_TC_SM != 0)
#define TCP_TC_I8	(TCP_TC_SM == 100 || TCP_TC_SM == 110)
#define TCP_TC_LD_RED	(TCP_TC_SM == 103 || TCP_TC_SM == 110)
#define TCP_TC_SCALE_D	(TCP_TC_SM == 100 || TCP_TC_SM == 103)
#define TCP_TC_K96	(TCP_TC_SM == 103)

#ifndef TCP_TC_EMU
#define TCP_TC_EMU 0
#endif
#if TCP_TC_EMU && defined(__CUDA_ARCH__)
#define TCP_TC_EMU_DEVICE 1
#else
#define TCP_TC_EMU_DEVICE 0
#endif
/* TCP_EMU_MUT(X): the emulation run's planted defect is X (probes/emu/
 * tc-emu-mutants.h); 0 everywhere else, so the branch compiles away. */
#if !TCP_TC_EMU_DEVICE
#undef TCP_EMU_MUT
#define TCP_EMU_MUT(X) 0
#endif

#endif /* TCP_TC_ARCH_CUH */
