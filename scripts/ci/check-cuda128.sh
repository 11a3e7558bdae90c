#!/usr/bin/env bash
# check-cuda128.sh [BUILD_DIR]
#	Every probe's PTX must assemble with the oldest toolkit of each of its
#	targets as well as with the toolkit that builds tcprobe: CUDA 12.8
#	(PTX ISA 8.7) for sm_90a and sm_100a, CUDA 12.9 (PTX ISA 8.8) for
#	sm_103a.  (sm_110a exists only from 13.0, the build's own toolkit.)
#
#	CUDA 12.8 and 12.9 reach us as the PyPI wheels nvidia-cuda-nvcc-cu12==
#	12.8.* / 12.9.*, which ship ptxas but no nvcc driver and no cicc front
#	end.  So the check is at the layer that can differ between the
#	toolkits, the PTX we write by hand: the PTX the build's nvcc emitted for
#	each probe and target (kept by the Makefile under BUILD_DIR/ptx/, so the
#	front end does not run twice), its header set to that toolkit's
#	`.version` (8.7 / 8.8), assembled by its ptxas.  A PTX form the older
#	ptxas does not know (e.g. .block16, tcgen05.ld.red before 12.9) fails
#	here; a probe whose PTX the build did not keep fails too.
#
#	ptxas 12.8 is looked up: $PTXAS128, the nvidia.cuda_nvcc wheel of
#	python3, then .whl/cuda128/nvidia/cuda_nvcc/bin/ptxas in the repo;
#	ptxas 12.9: $PTXAS129, then .whl/cuda129/nvidia/cuda_nvcc/bin/ptxas
#	(scripts/setup.sh installs both).  Not found = failure (exit 2), never
#	a skip.  The targets checked are those the Makefile built
#	($TCP_SM90_TARGETS, $TCP_TCGEN05_TARGETS).
set -u
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
OUT=$BUILD/cuda128

find_ptxas() {	# VERSION (12.8 | 12.9) CANDIDATE...
	local v=$1 c
	shift
	for c in "$@"; do
		[ -n "$c" ] && [ -f "$c" ] || continue
		[ -x "$c" ] || chmod +x "$c" 2>/dev/null || continue
		if "$c" --version 2>/dev/null | grep -q "release ${v//./\\.}"; then
			echo "$c"
			return 0
		fi
	done
	return 1
}
PTXAS128=$(find_ptxas 12.8 "${PTXAS128:-}" \
	"$(python3 -c 'import nvidia.cuda_nvcc as m; print(m.__path__[0])' 2>/dev/null)/bin/ptxas" \
	"$ROOT/.whl/cuda128/nvidia/cuda_nvcc/bin/ptxas") || {
	echo "check-cuda128: no ptxas from CUDA 12.8 found (\$PTXAS128, python3 -m pip install 'nvidia-cuda-nvcc-cu12==12.8.*', or .whl/cuda128)" >&2
	exit 2
}
SM90=${TCP_SM90_TARGETS:-sm_90a}
TC=${TCP_TCGEN05_TARGETS:-sm_100a}
PTXAS129=
case " $TC " in
*" sm_103a "*)
	PTXAS129=$(find_ptxas 12.9 "${PTXAS129:-}" "$ROOT/.whl/cuda129/nvidia/cuda_nvcc/bin/ptxas") || {
		echo "check-cuda128: no ptxas from CUDA 12.9 found for sm_103a (\$PTXAS129, or python3 -m pip install --no-deps --target .whl/cuda129 'nvidia-cuda-nvcc-cu12==12.9.*')" >&2
		exit 2
	} ;;
esac
mkdir -p "$OUT"

# One (source, target): the build's PTX, its header set to the old toolkit's
# ISA, that toolkit's ptxas.  ptxas runs at -O0: what is checked is that the
# old toolkit accepts every instruction; the code itself is optimised and
# checked (sass-check) by the real build.
check_one() {	# SRC TARGET(sm_100a) ; prints OK or FAIL lines
	local src=$1 tgt=$2 base dir kept ptx ptxas isa
	case $tgt in
	sm_103a) ptxas=$PTXAS129 isa=8.8 ;;
	sm_90a | sm_100a) ptxas=$PTXAS128 isa=8.7 ;;
	*) echo "ok $src $tgt (no older toolkit knows $tgt)"; return 0 ;;
	esac
	base=$(basename "$src" .cu)
	dir=$(basename "$(dirname "$src")")
	kept=$BUILD/ptx/$dir/$base/$base.compute_${tgt#sm_}.ptx
	ptx=$OUT/$base.$tgt.ptx
	# (nvcc names the PTX NAME.ptx, without the target, when it built one target only)
	if [ ! -s "$kept" ] && grep -q "^\.target $tgt\b" "${kept%.compute_*}.ptx" 2>/dev/null; then
		kept=${kept%.compute_*}.ptx
	fi
	if [ ! -s "$kept" ]; then
		echo "check-cuda128: FAIL $src $tgt: no PTX kept by the build at $kept (make $BUILD/probes/$dir/$base.o)"
		return 1
	fi
	sed "s/^\.version [0-9.]*\$/.version $isa/" "$kept" > "$ptx"
	if ! "$ptxas" -O0 -arch=$tgt "$ptx" -o "$OUT/$base.$tgt.cubin" 2> "$ptx.ptxas.log"; then
		echo "check-cuda128: FAIL $src $tgt: ptxas $("$ptxas" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'): $(grep -m3 -i error "$ptx.ptxas.log")"
		return 1
	fi
	rm -f "$ptx" "$OUT/$base.$tgt.cubin"
	echo "ok $src $tgt"
}
export -f check_one
export BUILD ROOT CUDA_HOME OUT PTXAS128 PTXAS129

cd "$ROOT" || exit 2
{
	for f in probes/sm100/*.cu; do [ -e "$f" ] && for t in $TC; do echo "$f $t"; done; done
	for f in probes/sm90/*.cu; do [ -e "$f" ] && for t in $SM90; do echo "$f $t"; done; done
	for f in probes/all/*.cu; do [ -e "$f" ] && for t in $SM90 $TC; do echo "$f $t"; done; done
} > "$OUT/jobs.txt"
xargs -P "$(nproc)" -L 1 bash -c 'check_one "$0" "$1"' < "$OUT/jobs.txt" > "$OUT/results.txt"
grep -v '^ok ' "$OUT/results.txt"
n=$(grep -c '^ok ' "$OUT/results.txt")
total=$(wc -l < "$OUT/jobs.txt")
if [ "$n" -ne "$total" ]; then
	echo "check-cuda128: FAILED ($n of $total probe/target PTX files assemble)"
	exit 1
fi
echo "check-cuda128: OK: $n probe/target PTX files assemble with their oldest toolkit: 12.8 ($PTXAS128)${PTXAS129:+, 12.9 for sm_103a ($PTXAS129)}"
