/*
 * hd.h
 *	TCP_HD: one spelling for functions the model shares between host C11
 *	code and CUDA device code.  Everything declared TCP_HD uses no libc, no
 *	globals and no host-only tables, so a probe can call it inside a kernel.
 */
#ifndef TCP_MODEL_HD_H
#define TCP_MODEL_HD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define TCP_HD __host__ __device__ static inline
#else
#define TCP_HD static inline
#endif

/* TCP_HD, and constexpr where the compiler is C++ (a kernel template may then
 * size arrays and offsets with the model's own function: no twin to drift). */
#ifdef __cplusplus
#define TCP_HDC TCP_HD constexpr
#else
#define TCP_HDC TCP_HD
#endif

/* Zero initialiser that is valid C11 and C++ even when the first member is an enum. */
#ifdef __cplusplus
#define TCP_ZERO {}
#else
#define TCP_ZERO { 0 }
#endif

#endif /* TCP_MODEL_HD_H */
