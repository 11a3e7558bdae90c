#!/usr/bin/env bash
# check-cuda-headers.sh [VERSION...]
#	The host code must compile against the headers of every CUDA toolkit
#	tcprobe claims (12.8 on; default: 12.8 12.9), not only the one that
#	builds it here.  The headers come from the PyPI wheels
#	nvidia-cuda-runtime-cu12==X.Y.* and nvidia-cuda-cupti-cu12==X.Y.*,
#	which scripts/setup.sh installs with `pip --target .whl/cudaXY`
#	(they carry headers and libraries, no nvcc front end: the probes
#	themselves are checked at the PTX level by check-cuda128.sh).
#
#	Every host C file (harness, model, probes/common, probes/host, the
#	probes' host references) is compiled (to /dev/null) with the build's C
#	flags plus -Werror, with that toolkit's include directories in place of
#	$CUDA_HOME/include; every harness/*/*.cc (the CUPTI profiler code: its
#	headers are C++ only) as C++ with the flags the build gives it.  A
#	harness/*/*.cu holds kernels and their launch handles only (device
#	code, nvcc's, measure-kernels.h): one that launches a kernel (<<<) or
#	includes a CUPTI header holds host code, and fails here.  Missing wheels
#	= failure (exit 2), never a skip.
#
#	CC=aarch64-linux-gnu-gcc CXX=aarch64-linux-gnu-g++ WHL_ARCH=aarch64 runs
#	the same check as a cross-compile against the aarch64 (sbsa) wheels in
#	.whl/aarch64/cudaXY (check-cross-aarch64 in the Makefile).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CC=${CC:-gcc}
CXX=${CXX:-g++}
CC=${CC#ccache }
WHL=$ROOT/.whl${WHL_ARCH:+/$WHL_ARCH}
versions=${*:-12.8 12.9}
cd "$ROOT" || exit 2

fail=0
nfile=0
for v in $versions; do
	d=$WHL/cuda${v/./}/nvidia
	inc_rt=$d/cuda_runtime/include
	inc_cupti=$d/cuda_cupti/include
	inc_crt=$d/cuda_nvcc/include	# crt/host_defines.h & co., which the runtime headers include
	if [ ! -r "$inc_rt/cuda_runtime_api.h" ] || [ ! -r "$inc_cupti/cupti_version.h" ] ||
	   [ ! -r "$inc_crt/crt/host_defines.h" ]; then
		echo "check-cuda-headers: no CUDA $v headers in $d (scripts/setup.sh installs them: python3 -m pip install --no-deps --target $WHL/cuda${v/./} 'nvidia-cuda-runtime-cu12==$v.*' 'nvidia-cuda-cupti-cu12==$v.*' 'nvidia-cuda-nvcc-cu12==$v.*')" >&2
		exit 2
	fi
	got=$(sed -n 's/^#define CUDA_VERSION \([0-9]*\).*/\1/p' "$inc_rt/cuda.h")
	want=$(( ${v%.*} * 1000 + ${v#*.} * 10 ))
	if [ "$got" != "$want" ]; then
		echo "check-cuda-headers: FAIL $inc_rt/cuda.h says CUDA_VERSION $got, expected $want (CUDA $v)"
		fail=1
		continue
	fi
	inc=(-I. -I"$inc_rt" -I"$inc_cupti" -I"$inc_crt")
	# a cross compiler does not search the build machine's /usr/include (libcsv's csv.h)
	[ -n "${WHL_ARCH:-}" ] && inc+=(-idirafter /usr/include)
	defs=(-DTCP_GIT_COMMIT='"check"' -DTCP_GIT_DIRTY=0 -DTCP_CUDA_TOOLKIT="\"$v\"")
	for f in harness/*/*.c model/*.c probes/*/*.c; do
		[ -e "$f" ] || continue
		nfile=$((nfile + 1))
		# a real compile (to /dev/null), not only a parse: inline asm and
		# builtins of the wrong architecture fail here too
		if ! out=$("$CC" -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Wshadow -Werror -c -o /dev/null "${inc[@]}" "${defs[@]}" "$f" 2>&1); then
			echo "check-cuda-headers: FAIL $f against CUDA $v headers: $(printf '%s\n' "$out" | grep -m2 error)"
			fail=1
		fi
	done
	for f in harness/*/*.cc; do
		[ -e "$f" ] || continue
		nfile=$((nfile + 1))
		if ! out=$("$CXX" -std=c++17 -O2 -Wall -Wextra -Wno-missing-field-initializers -Werror -c -o /dev/null "${inc[@]}" "${defs[@]}" "$f" 2>&1); then
			echo "check-cuda-headers: FAIL $f (host C++) against CUDA $v headers: $(printf '%s\n' "$out" | grep -m2 error)"
			fail=1
		fi
	done
	for f in harness/*/*.cu; do
		[ -e "$f" ] || continue
		if grep -Eq '<<<|#include <cupti' "$f"; then
			echo "check-cuda-headers: FAIL $f holds host code (a launch or CUPTI): host code goes in a .c or .cc file, the kernel's handle in measure-kernels.h"
			fail=1
		fi
	done
done
if [ $fail -ne 0 ]; then
	echo "check-cuda-headers: FAILED"
	exit 1
fi
echo "check-cuda-headers: OK: $nfile host files compile against the CUDA $versions headers ($CC${WHL_ARCH:+, $WHL_ARCH})"
