#!/usr/bin/env bash
# check-cuda128.sh [BUILD_DIR]
#	Every probe's PTX must assemble with CUDA 12.8 (the oldest toolkit with
#	tcgen05, PTX ISA 8.7) as well as with the toolkit that builds tcprobe.
#
#	CUDA 12.8 reaches us as the PyPI wheel nvidia-cuda-nvcc-cu12==12.8.*,
#	which ships ptxas but no nvcc driver and no cicc front end.  So the
#	check is at the layer that can differ between the toolkits, the PTX we
#	write by hand: the build's nvcc emits PTX for each probe and arch (with
#	-DTCP_PTX_ISA_MAX=87 so that CUDA_VERSION-guarded code takes its 12.8
#	branch), the header is set to `.version 8.7`, and ptxas 12.8 assembles
#	it for sm_90a / sm_100a.  A PTX form 12.8 does not know fails here.
#
#	ptxas 12.8 is looked up: $PTXAS128, the nvidia.cuda_nvcc wheel of
#	python3, then .whl/cuda128/nvidia/cuda_nvcc/bin/ptxas in the repo.  Not
#	found = failure (exit 2), never a skip.
set -u
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
NVCC=${NVCC:-$CUDA_HOME/bin/nvcc}
OUT=$BUILD/cuda128

find_ptxas() {
	local c nv
	for c in "${PTXAS128:-}" \
		"$(python3 -c 'import nvidia.cuda_nvcc as m; print(m.__path__[0])' 2>/dev/null)/bin/ptxas" \
		"$ROOT/.whl/cuda128/nvidia/cuda_nvcc/bin/ptxas"; do
		[ -n "$c" ] && [ -f "$c" ] || continue
		[ -x "$c" ] || chmod +x "$c" 2>/dev/null || continue
		if "$c" --version 2>/dev/null | grep -q 'release 12\.8'; then
			echo "$c"
			return 0
		fi
	done
	return 1
}
PTXAS=$(find_ptxas) || {
	echo "check-cuda128: no ptxas from CUDA 12.8 found (\$PTXAS128, python3 -m pip install 'nvidia-cuda-nvcc-cu12==12.8.*', or .whl/cuda128)" >&2
	exit 2
}
[ -x "$NVCC" ] || { echo "check-cuda128: nvcc not found at $NVCC" >&2; exit 2; }
mkdir -p "$OUT"

# One (source, arch): nvcc -ptx, PTX header to 8.7, ptxas 12.8.  ptxas runs
# at -O0: what is checked is that 12.8 accepts every instruction; the code
# itself is optimised and checked (sass-check) by the real build.
check_one() {	# SRC ARCH(90a|100a); prints OK or FAIL lines
	local src=$1 arch=$2 base ptx
	base=$(basename "$src" .cu)
	ptx=$OUT/$base.sm_$arch.ptx
	if ! "$NVCC" -I"$ROOT" -I"$CUDA_HOME/include" -std=c++17 -O3 -DTCP_PTX_ISA_MAX=87 \
		-arch=compute_$arch -ptx "$src" -o "$ptx" 2> "$ptx.log"; then
		echo "check-cuda128: FAIL $src sm_$arch: nvcc -ptx: $(head -3 "$ptx.log")"
		return 1
	fi
	sed -i 's/^\.version [0-9.]*$/.version 8.7/' "$ptx"
	if ! "$PTXAS" -O0 -arch=sm_$arch "$ptx" -o "$OUT/$base.sm_$arch.cubin" 2> "$ptx.ptxas.log"; then
		echo "check-cuda128: FAIL $src sm_$arch: ptxas 12.8: $(grep -m3 -i error "$ptx.ptxas.log")"
		return 1
	fi
	echo "ok $src sm_$arch"
}
export -f check_one
export NVCC ROOT CUDA_HOME OUT PTXAS

cd "$ROOT" || exit 2
{
	for f in probes/sm100/*.cu; do [ -e "$f" ] && echo "$f 100a"; done
	for f in probes/sm90/*.cu; do [ -e "$f" ] && echo "$f 90a"; done
	for f in probes/all/*.cu; do [ -e "$f" ] && { echo "$f 90a"; echo "$f 100a"; }; done
} > "$OUT/jobs.txt"
xargs -P "$(nproc)" -L 1 bash -c 'check_one "$0" "$1"' < "$OUT/jobs.txt" > "$OUT/results.txt"
grep -v '^ok ' "$OUT/results.txt"
n=$(grep -c '^ok ' "$OUT/results.txt")
total=$(wc -l < "$OUT/jobs.txt")
if [ "$n" -ne "$total" ]; then
	echo "check-cuda128: FAILED ($n of $total probe/arch PTX files assemble)"
	exit 1
fi
echo "check-cuda128: OK: $n probe/arch PTX files assemble with $("$PTXAS" --version | sed -n 's/.*\(release [0-9.]*\).*/\1/p') ($PTXAS)"
