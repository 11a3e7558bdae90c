#!/usr/bin/env bash
# setup.sh: install what tcprobe needs to build, run and test, on Debian or
# Ubuntu with the CUDA toolkit (12.8 or newer) at $CUDA_HOME (/usr/local/cuda).
# Running the probes also needs an NVIDIA driver; nothing here installs one.
#   build + run:  libcsv-dev and zlib1g-dev (linked statically), gnuplot-nox (plots)
#   tests:        libcmocka-dev, slurm-wlm + munge (local Slurm test), clang +
#                 libclang-rt-14-dev (libFuzzer), and from PyPI cuobjdump/nvdisasm
#                 (SASS checks) and CUDA 12.8's ptxas (the oldest-toolkit check)
set -euo pipefail

sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends \
	build-essential git python3-pip libcsv-dev zlib1g-dev libcmocka-dev gnuplot-nox \
	slurm-wlm munge clang libclang-rt-14-dev

# Debian 12's pip needs --break-system-packages outside a virtual environment.
pip=(python3 -m pip install -q nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm 'nvidia-cuda-nvcc-cu12==12.8.*')
"${pip[@]}" 2>/dev/null || "${pip[@]}" --break-system-packages
echo "setup: done (CUDA toolkit expected at ${CUDA_HOME:-/usr/local/cuda})"
