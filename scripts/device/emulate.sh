#!/usr/bin/env bash
# emulate.sh OUT STEP...
#	One device call on an H200: the emulation build (build-emu/tcprobe,
#	built by make EMULATE=1 on the development machine and carried, or
#	.dev/tcprobe-emu.xz) runs the tcgen05 probes.
#	Each step writes STEP (a run directory) and STEP.log in a work folder,
#	packed at the end into OUT/emu.tar.gz (the device tool brings back at
#	most 8 files), with OUT/steps.txt beside it.
#	Steps:
#	  cost      tc_mma_lat f16 cta_group::1 M=128 N=256, SS: the emulated
#	            issue -> commit -> wait span is the cost of one emulated MMA
#	  smoke     every tcgen05 probe's default points (sm_100a), each probe
#	            cut off after EMU_SMOKE_LIMIT seconds (default 40)
#	  sm100a    sweeps/blackwell.sweep emulated for sm_100a (poison)
#	  sm103a    the same for sm_103a
#	  stale     tc_layout and tc_mma_lat (sm_100a) with --emu-tmem stale
#	  plans     the four default plans at once, one process each: sm_100a
#	            and sm_103a, poison and stale (plan-sm100a-poison, ...); the
#	            GPU time-slices between them (emulated kernels leave it idle
#	            while a process plans, validates on the CPU and writes rows)
#	  plans-cp  the same for the plans' tc_cp and tc_epilogue sections only
#	  mutants   scripts/ci/emu-mutants.sh: every planted defect, caught or not
#	  sanitize  compute-sanitizer memcheck, racecheck and synccheck over a
#	            subset of the sm_100a plan (one point of each protocol path)
#	  trace     tc_mma_lat f16 cta_group::2 with --emu-trace 1: the odd
#	            CTA's operation log with the checker state at each step
#	EMU_LIMIT (seconds, default 240) bounds each sweep step; rows are flushed
#	per point, so a step cut short keeps what ran (--resume finishes it).
set -uo pipefail
final=${1:?usage: scripts/device/emulate.sh OUT STEP...}
shift
cd "$(dirname "$0")/../.." || exit 2
mkdir -p "$final"
out=$(mktemp -d /tmp/emu.XXXXXX)
bin=build-emu/tcprobe
if [ -f .dev/tcprobe-emu.xz ]; then
	mkdir -p build-emu && xz -dc .dev/tcprobe-emu.xz >$bin && chmod +x $bin || exit 2
fi
limit=${EMU_LIMIT:-240}
common=(--reps 1 --warmup 0 --counters none --emu-slowdown "${EMU_SLOWDOWN:-4}")
smoke_limit=${EMU_SMOKE_LIMIT:-40}
nvidia-smi -L >"$out/gpus.txt" 2>&1
$bin --version >>"$out/gpus.txt" 2>&1
# four_plans SPEC PREFIX: SPEC emulated for sm_100a and sm_103a, poison and
# stale TMEM, one process each at once, into PREFIX-<arch>-<mode>
four_plans() {
	local a m
	for a in sm100a sm103a; do
		for m in poison stale; do
			timeout -s INT -k 10 "$limit" $bin run "${common[@]}" --arch "sm_${a#sm}" --emu-tmem $m \
				--spec "$1" -o "$2-$a-$m" >"$2-$a-$m.log" 2>&1 &
		done
	done
	wait
}
for step in "$@"; do
	d="$out/$step"
	t0=$(date +%s)
	case $step in
	cost)
		timeout -s INT -k 10 "$limit" $bin run "${common[@]}" --probe tc_mma_lat --set kind=f16 --set cta_group=1 \
			--set M=128 --set N=64,128,256 --set ab=ss,ts -o "$d" >"$d.log" 2>&1 ;;
	smoke)
		for p in tc_alloc tc_commit tc_cp tc_layout tc_ldst tc_ldred tc_mma_lat tc_mma_ii tc_mma_tput tc_epilogue; do
			timeout -s INT -k 10 "$smoke_limit" $bin run "${common[@]}" --probe $p -o "$d-$p" >"$d-$p.log" 2>&1
			echo "$p exit $?" >>"$d.log"
		done ;;
	sm100a)
		timeout -s INT -k 10 "$limit" $bin run "${common[@]}" --arch sm_100a --spec sweeps/blackwell.sweep -o "$d" >"$d.log" 2>&1 ;;
	sm103a)
		timeout -s INT -k 10 "${EMU_LIMIT_103:-$limit}" $bin run "${common[@]}" --arch sm_103a --spec sweeps/blackwell.sweep -o "$d" >"$d.log" 2>&1 ;;
	stale)
		timeout -s INT -k 10 "${EMU_STALE_LIMIT:-60}" $bin run "${common[@]}" --arch sm_100a --emu-tmem stale \
			--probe tc_layout --probe tc_mma_lat -o "$d" >"$d.log" 2>&1 ;;
	plans)
		four_plans sweeps/blackwell.sweep "$d" ;;
	plans-cp)
		# the plans' tc_cp and tc_epilogue sections alone ([global] kept)
		awk '/^\[/ { keep = ($0 == "[global]" || $0 == "[tc_cp]" || $0 == "[tc_epilogue]") } keep' \
			sweeps/blackwell.sweep >"$out/cp.sweep"
		four_plans "$out/cp.sweep" "$d" ;;
	sanitize)
		san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
		sub=(--probe tc_layout --set layout=m128,cg2m256 --set N=64 --set mask=0,1
			--probe tc_alloc --set ncols=64 --set ctas_per_sm=2 --set hold_cycles=0
			--probe tc_commit --probe tc_ldst --set shape=32x32b --set num=4 --set op=ld,st --set inflight=1
			--probe tc_mma_lat --set kind=f16,mxf4nvf4 --set cta_group=1,2 --set M=128,256 --set N=64 --set ab=ss)
		for tool in memcheck racecheck synccheck; do
			timeout -s INT -k 10 "${EMU_SANITIZE_LIMIT:-150}" "$san" --tool $tool --target-processes all \
				--error-exitcode 99 $bin run "${common[@]}" --emu-slowdown 50 "${sub[@]}" -o "$d-$tool" \
				>"$d-$tool.log" 2>&1
			echo "$tool exit $?" >>"$d.log"
		done ;;
	trace)
		timeout -s INT -k 10 60 $bin run "${common[@]}" --emu-trace 1 --probe tc_mma_lat --set kind=f16 \
			--set cta_group=2 --set M=256 --set N=64 --set ab=ss -o "$d" >"$d.log" 2>&1 ;;
	mutants)
		TCPROBE_EMU=$bin timeout -s INT -k 10 "${EMU_MUTANTS_LIMIT:-400}" scripts/ci/emu-mutants.sh "$d" >"$d.log" 2>&1 ;;
	*)
		echo "unknown step $step" >"$d.log"; continue ;;
	esac
	echo "$step: exit $? after $(($(date +%s) - t0)) s" >>"$out/steps.txt"
done
cp "$out/steps.txt" "$final/" 2>/dev/null
tar czf "$final/emu.tar.gz" -C "$out" .
ls -la "$final"
