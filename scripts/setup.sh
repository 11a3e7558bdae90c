#!/usr/bin/env bash
# setup.sh [--tests]: install what tcprobe needs on Debian or Ubuntu (x86_64 or
# arm64) with the CUDA toolkit (12.8 or newer) at $CUDA_HOME (/usr/local/cuda).
# Running the probes also needs an NVIDIA driver; nothing here installs one.
#   (default)  building and sweeping: a C toolchain, git, libcsv-dev and
#              zlib1g-dev (linked statically), gnuplot-nox (plots).  Nothing
#              else: no daemon, no Python package.
#   --tests    also what only the tests need (.ci/run, `make check`, `make
#              test`): libcmocka-dev (unit tests), slurm-wlm + munge (the local
#              Slurm test; munge runs a daemon), clang + libclang-rt-14-dev
#              (libFuzzer), and from PyPI cuobjdump/nvdisasm (SASS checks), CUDA
#              12.8's and 12.9's ptxas (the oldest-toolkit checks), the CUDA 12.8 /
#              12.9 headers (host-code check), CUTLASS's CuTe headers
#              (emu-cute-check) and, on x86_64, the aarch64 cross compiler with
#              the aarch64 12.8 headers (cross-compile check).
set -euo pipefail

tests=0
case "${1:-}" in
--tests) tests=1 ;;
"") ;;
-h | --help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
*) echo "setup: unknown option: got '$1', expected --tests or nothing" >&2; exit 2 ;;
esac

sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
pkgs=(build-essential git libcsv-dev zlib1g-dev gnuplot-nox)
[ $tests = 1 ] && pkgs+=(python3-pip libcmocka-dev slurm-wlm munge clang libclang-rt-14-dev)
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${pkgs[@]}"
if [ $tests = 0 ]; then
	echo "setup: done on $(uname -m): build and sweep (CUDA toolkit expected at ${CUDA_HOME:-/usr/local/cuda}; scripts/setup.sh --tests adds what the tests need)"
	exit 0
fi

# Debian 12's pip needs --break-system-packages outside a virtual environment.
pip=(python3 -m pip install -q nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm 'nvidia-cuda-nvcc-cu12==12.8.*')
"${pip[@]}" 2>/dev/null || "${pip[@]}" --break-system-packages

# The older toolkits tcprobe claims, each in its own folder (the wheels share
# package names): CUDA 12.8 and 12.9 headers for the host-code check, and
# 12.9's ptxas for the sm_103a PTX check (make cuda-headers-check,
# cuda128-check).  The wheels exist for x86_64 and aarch64 (sbsa) alike.
root=$(cd "$(dirname "$0")/.." && pwd)
whl() {	# DIR [PIP OPTION...] -- PACKAGE...: install once (a stamp names what is there)
	local dir=$root/.whl/$1 want opts=()
	shift
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	want="${opts[*]} $*"
	[ -r "$dir/.installed" ] && [ "$(cat "$dir/.installed")" = "$want" ] && return 0
	rm -rf "$dir"
	python3 -m pip install -q --no-deps "${opts[@]}" --target "$dir" "$@" 2>/dev/null ||
		python3 -m pip install -q --no-deps "${opts[@]}" --target "$dir" "$@" --break-system-packages
	echo "$want" > "$dir/.installed"
}
# nvcc wheels: ptxas, and the crt/ headers the runtime headers include
whl cuda128 -- 'nvidia-cuda-runtime-cu12==12.8.*' 'nvidia-cuda-cupti-cu12==12.8.*' 'nvidia-cuda-nvcc-cu12==12.8.*'
whl cuda129 -- 'nvidia-cuda-runtime-cu12==12.9.*' 'nvidia-cuda-cupti-cu12==12.9.*' 'nvidia-cuda-nvcc-cu12==12.9.*'
# CUTLASS's CuTe headers (cutlass_library/source/include) for make emu-cute-check
whl cutlass -- 'nvidia-cutlass==4.2.0.0'
# The aarch64 (sbsa) headers for the cross-compile check (CUPTI 12.9 has no
# aarch64 wheel on PyPI: the cross check uses 12.8's) and the cross compiler.
if [ "$(uname -m)" = x86_64 ]; then
	$sudo apt-get install -y -q --no-install-recommends gcc-aarch64-linux-gnu g++-aarch64-linux-gnu
	whl aarch64/cuda128 --platform manylinux2014_aarch64 --only-binary=:all: -- \
		'nvidia-cuda-runtime-cu12==12.8.*' 'nvidia-cuda-cupti-cu12==12.8.*' 'nvidia-cuda-nvcc-cu12==12.8.*'
fi
echo "setup: done on $(uname -m): build, sweep and tests (CUDA toolkit expected at ${CUDA_HOME:-/usr/local/cuda})"
