#!/usr/bin/env bash
# compilers.sh OUT
#	One device call: the default sweep with the same code assembled by two
#	ptxas, back to back on one GPU, then `tcprobe compare` (README "Across
#	compilers").  Binaries, built on the development machine and carried:
#	  .dev/tcprobe.xz           make (ptxas of the build's toolkit, 13.0)
#	  .dev/tcprobe-ptxas128.xz  make ARCHS=sm_90a BUILD=build-ptxas128
#	                            NVCC=scripts/nvcc-alt-ptxas.sh PTXAS_VERSION=12.8.93
#	                            (CUDA 12.8's ptxas on the same PTX)
#	Into OUT: ptxas130/ and ptxas128/ (each run's provenance says its
#	sass_compiler), their logs, compare.txt and compare.csv (ptxas130 the
#	base), each run archived (scripts/results-pack.sh); the reports are
#	rendered afterwards on the development machine (gnuplot).
#	Exit: compare's exit status (0 = no gated number moved beyond noise),
#	2 a sweep could not run.
set -uo pipefail
out=${1:?usage: scripts/device/compilers.sh OUT}
cd "$(dirname "$0")/../.." || exit 2
mkdir -p "$out" build build-ptxas128 || exit 2
xz -dc .dev/tcprobe.xz >build/tcprobe && chmod +x build/tcprobe || exit 2
xz -dc .dev/tcprobe-ptxas128.xz >build-ptxas128/tcprobe && chmod +x build-ptxas128/tcprobe || exit 2
nvidia-smi -L >"$out/gpus.txt" 2>&1
for b in build build-ptxas128; do
	$b/tcprobe --version >>"$out/gpus.txt" 2>&1
done
rc=0
sweep() {	# NAME BINARY
	local t0=$(date +%s)
	timeout -s INT -k 10 300 "$2" run --spec sweeps/default.sweep -q -o "$out/$1" >"$out/$1.log" 2>&1
	local s=$?
	echo "$1: $2 run exit $s in $(($(date +%s) - t0)) s" | tee -a "$out/steps.txt"
	[ $s -eq 0 ] || rc=2
}
sweep ptxas130 build/tcprobe
sweep ptxas128 build-ptxas128/tcprobe
build/tcprobe compare "$out/ptxas130" "$out/ptxas128" --csv "$out/compare.csv" >"$out/compare.txt" 2>&1
c=$?
echo "compare ptxas130 ptxas128: exit $c" | tee -a "$out/steps.txt"
[ $rc -eq 0 ] && rc=$c
TCPROBE=build/tcprobe scripts/results-pack.sh "$out/ptxas130" "$out/ptxas128" >>"$out/steps.txt" 2>&1
gzip -9n "$out/compare.csv"
exit $rc
