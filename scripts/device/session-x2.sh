#!/usr/bin/env bash
# session-x2.sh OUT
#	One device call on a 2-GPU H200 machine, as the lead ran it on 2026-12-01:
#	GPU 0: scripts/device/speed.sh (counter cost phases, the default sweep with
#	counters and --reps auto compared against the README run = the Hopper gate,
#	the harness bench); GPU 1: scripts/device/trust-h200.sh (contention, energy
#	order) when present, then scripts/device/warpmma-jit.sh (dispatch and JIT).
#	The binaries come xz-compressed in .dev/ (built here from a clean commit):
#	.dev/tcprobe.xz, .dev/tcprobe-arch80.xz.  Each lane's log is OUT/<lane>.log.
set -uo pipefail
out=${1:?usage: scripts/device/session-x2.sh OUT}
cd "$(dirname "$0")/../.." || exit 2
mkdir -p "$out" build build-arch80
xz -dc .dev/tcprobe.xz >build/tcprobe && chmod +x build/tcprobe || exit 2
[ -f .dev/tcprobe-arch80.xz ] && { xz -dc .dev/tcprobe-arch80.xz >build-arch80/tcprobe; chmod +x build-arch80/tcprobe; }
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi -L >"$out/gpus.txt" 2>&1
(GPU=0 scripts/device/speed.sh "$out/speed" >"$out/lane0.log" 2>&1; echo "lane0 exit $?" >>"$out/lane0.log") &
(
	if [ -x scripts/device/trust-h200.sh ]; then
		CUDA_VISIBLE_DEVICES=1 scripts/device/trust-h200.sh "$out/trust"; echo "trust exit $?"
	fi
	if [ -x build-arch80/tcprobe ]; then
		CUDA_VISIBLE_DEVICES=1 scripts/device/warpmma-jit.sh "$out/warpmma"; echo "warpmma exit $?"
	else	# no ARCHS=80 binary carried: the normal and forced-JIT runs only
		for m in normal jit; do
			env $([ $m = jit ] && echo CUDA_FORCE_PTX_JIT=1) CUDA_VISIBLE_DEVICES=1 timeout -s INT -k 10 240 build/tcprobe run \
				--spec sweeps/warp.sweep --reps 3 --warmup 1 --counters none --quiet -o "$out/warp-$m"
			echo "warp $m exit $?"
		done
	fi
) >"$out/lane1.log" 2>&1 &
wait
tail -n 30 "$out/lane0.log" "$out/lane1.log"
