/*
 * deepbind-shim.c
 *	Linked only into SANITIZE=1 binaries (Makefile).  libcupti dlopens
 *	libnvperf_host.so with RTLD_DEEPBIND, which AddressSanitizer refuses
 *	outright (google/sanitizers#611: "remove RTLD_DEEPBIND from dlopen
 *	flags").  This dlopen() is exported from the executable, so it
 *	interposes on every library's dlopen, drops that one flag and hands
 *	the call on to the next dlopen (ASan's interceptor, then libc's).
 *	Production builds never contain it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>

void *dlopen(const char *file, int flags)
{
	static void *(*next)(const char *, int);

	if (!next)
		next = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
	return next(file, flags & ~RTLD_DEEPBIND);
}
