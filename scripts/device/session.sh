#!/usr/bin/env bash
# session.sh OUT STEP...
#	One device call on a single-GPU machine: the binaries come xz-compressed
#	in .dev/ (built on the development machine from a clean commit:
#	.dev/tcprobe.xz, and .dev/tcprobe-arch80.xz for warpjit), then the steps
#	run in the order given, each into OUT/STEP with its log OUT/STEP.log, and
#	each step's directory is packed into OUT/STEP.tar.gz (the device tool
#	brings back only a few files, two folders deep).
#	Steps:
#	  gate     the Hopper gate: the default sweep (counters default, --reps
#	           auto), compared with the README's run (tcprobe compare; exit 1
#	           = a point slower beyond its noise band)
#	  trap     scripts/device/trap-check.sh (the planted trap, issue 16)
#	  warpjit  scripts/device/warpmma-jit.sh (issue 20: own cubin, forced
#	           JIT, ARCHS=80 binary)
#	  speed    scripts/device/speed.sh $SPEED_PARTS (default "replay bench":
#	           issue 21's counter-pass replay modes and the harness bench)
#	  aa       scripts/device/aa.sh: five default sweeps of this binary (one
#	           killed and resumed, one with counters off) and compare on
#	           every pair: each must exit 0 (tests/aa-check.sh reads them)
#	Every step is bounded (timeout); one failing does not stop the next.
set -uo pipefail
out=${1:?usage: scripts/device/session.sh OUT STEP...}
shift
cd "$(dirname "$0")/../.." || exit 2
mkdir -p "$out" build build-arch80 || exit 2
xz -dc .dev/tcprobe.xz >build/tcprobe && chmod +x build/tcprobe || exit 2
[ -f .dev/tcprobe-arch80.xz ] && { xz -dc .dev/tcprobe-arch80.xz >build-arch80/tcprobe; chmod +x build-arch80/tcprobe; }
export PATH=/usr/local/cuda/bin:$PATH
# the run the README's tables and plots come from (the gate's baseline)
readme_run=${README_RUN:-results/2026-11-29-NVIDIA_H200-580.159.04-vm-4}
nvidia-smi -L >"$out/gpus.txt" 2>&1
build/tcprobe --version >>"$out/gpus.txt" 2>&1
for step in "$@"; do
	d="$out/$step"
	mkdir -p "$d"
	t0=$(date +%s)
	case $step in
	gate)
		timeout -s INT -k 10 300 build/tcprobe run --spec sweeps/default.sweep -o "$d/default-run" >"$d/gate.log" 2>&1
		echo "tcprobe run exit $?" >>"$d/gate.log"
		build/tcprobe compare "$readme_run" "$d/default-run" >"$d/compare-readme.txt" 2>&1
		echo "tcprobe compare exit $?" >>"$d/compare-readme.txt"
		;;
	trap) timeout 180 bash scripts/device/trap-check.sh "$d" ;;
	warpjit) timeout 420 bash scripts/device/warpmma-jit.sh "$d" ;;
	speed) BENCH_BUDGET_S=${BENCH_BUDGET_S:-240} timeout $(( ${BENCH_BUDGET_S:-240} + 240 )) bash scripts/device/speed.sh "$d" ${SPEED_PARTS:-replay bench} ;;
	aa) README_RUN=$readme_run timeout 900 bash scripts/device/aa.sh "$d" ;;
	*) echo "session: unknown step '$step' (gate, trap, warpjit, speed, aa)" ;;
	esac >"$out/$step.log" 2>&1
	echo "step $step exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$out/steps.txt"
	tar -czf "$out/$step.tar.gz" -C "$out" "$step" && rm -rf "$d"
done
