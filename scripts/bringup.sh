#!/usr/bin/env bash
#
# bringup.sh
#	Everything tcprobe proves on a GPU machine, in one command: the default
#	sweep with counters, the layout check, the counter cross-check against
#	ncu, the counters-unavailable path, kill-and-resume on the GPU, the
#	compute-sanitizer pass, the energy sweep and a sustained point, a short
#	soak, and the multi-GPU quick sweep with its fleet report; on request
#	also the default sweep timed by CUPTI (cupti) and the epilogue pacing
#	variants with racecheck (pacing).  With two or more GPUs the work runs in
#	two lanes (GPU 0 and GPU 1) at once; --gpu N runs every step on GPU N,
#	one after another.
#	Every step has its own time limit and log; one failing step does not stop
#	the others.  At the end OUT/bringup.txt lists each step, its exit status
#	and its duration, and OUT/results.tgz holds every results directory made.
#
#	usage: scripts/bringup.sh [--only STEP,...] [--soak-minutes M] [--gpu N] OUT_DIR
#	steps: sweep layout ncu busy resume sanitize energy sustain soak fleet
#	       (default: all of these) cupti pacing (only when --only names them)
#	env:   TCPROBE (default build/tcprobe: build it first, `make`)
#	exit:  0 every step exited 0, 1 otherwise, 2 usage
set -uo pipefail

usage() { sed -n '3,/^set -uo/p' "$0" | sed '$d; s/^#\t\{0,1\}//'; }

only="" soak_min=2 one_gpu=""
while [ $# -gt 0 ]; do
	case "$1" in
	--only) only=$2; shift 2 ;;
	--soak-minutes) soak_min=$2; shift 2 ;;
	--gpu) [[ "${2:-}" =~ ^[0-9]+$ ]] || { echo "bringup: --gpu: got '${2:-}', expected a CUDA ordinal 0.." >&2; exit 2; }
		one_gpu=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	-*) echo "bringup: unknown option '$1' (see --help)" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || { echo "bringup: OUT_DIR missing (see --help)" >&2; exit 2; }
out=$1
cd "$(dirname "$0")/.." || exit 2
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
export PATH="$PATH:${CUDA_HOME:-/usr/local/cuda}/bin"
export TCPROBE=${TCPROBE:-build/tcprobe}
[ -x "$TCPROBE" ] || { echo "bringup: $TCPROBE missing: run make first" >&2; exit 2; }
bin=$TCPROBE
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
[ "$ngpu" -ge 1 ] || { echo "bringup: no GPU (nvidia-smi -L)" >&2; exit 3; }
lane_a_gpu=0 lane_b_gpu=$((ngpu >= 2 ? 1 : 0))
[ -n "$one_gpu" ] && lane_a_gpu=$one_gpu lane_b_gpu=$one_gpu
status="$out/bringup.txt"
: >"$status"

# cupti and pacing run only when named: they answer one-off questions.
want() {
	case "$1" in cupti | pacing) [[ ",$only," == *",$1,"* ]] ;;
	*) [ -z "$only" ] || [[ ",$only," == *",$1,"* ]] ;; esac
}

# step NAME LIMIT_S CMD...: run with a time limit, log to OUT/NAME.log
step() {
	local name=$1 limit=$2 t0 rc
	shift 2
	want "$name" || return 0
	t0=$(date +%s)
	echo "== $name (limit ${limit}s): $*" | tee -a "$out/$name.log" >&2
	# own session, so the limit stops the whole step (tcprobe's worker too):
	# SIGINT first (tcprobe keeps what it measured), SIGKILL 10 s later
	setsid bash -c '"$@"' step "$@" >>"$out/$name.log" 2>&1 &
	local pid=$! t=0
	while kill -0 "$pid" 2>/dev/null && [ "$t" -lt "$limit" ]; do sleep 1; t=$((t + 1)); done
	if kill -0 "$pid" 2>/dev/null; then
		kill -INT -- "-$pid" 2>/dev/null
		for t in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$pid" 2>/dev/null && sleep 1; done
		kill -KILL -- "-$pid" 2>/dev/null
		echo "bringup: $name stopped at its ${limit}s limit" >>"$out/$name.log"
	fi
	wait "$pid"
	rc=$?
	printf '%-9s exit %3d  %4ds  %s\n' "$name" "$rc" $(($(date +%s) - t0)) "$*" | tee -a "$status" >&2
	return 0
}

{
	nvidia-smi
	"$bin" info
} >"$out/machine.txt" 2>&1

# --- kill-and-resume on the GPU: SIGKILL a quick sweep mid-run, check, resume.
resume_test() {
	local d="$out/resume-run"
	rm -rf "$d"
	setsid "$bin" run --spec sweeps/quick.sweep --gpu "$lane_a_gpu" --out "$d" &
	local pid=$!
	sleep "${1:-6}"
	kill -9 -- "-$pid" 2>/dev/null || kill -9 "$pid"
	wait "$pid" 2>/dev/null
	# the run's state as tcprobe reads it (`tcprobe query --summary`: key,value)
	q() { "$bin" query "$d" --summary | sed -n "s/^$1,//p"; }
	echo "killed after ${1:-6}s: $(q rows) rows on disk"
	[ "$(q duplicates)" = 0 ] || { echo "duplicate rows after SIGKILL"; return 1; }
	echo "after kill: rows parse, $(q rows) rows, $(q points) points, no duplicates"
	"$bin" run --resume "$d" || return 1
	[ "$(q duplicates)" = 0 ] || { echo "duplicate rows after resume"; return 1; }
	echo "after resume: $(q rows) rows, $(q points) of $(q planned) planned points, no duplicates"
	[ "$(q unfinished)" = 0 ]
}

# --- counters unavailable: run under ncu, which holds the counters.
busy_test() {
	local d="$out/busy-run"
	rm -rf "$d"
	ncu --clock-control none --target-processes all --metrics sm__cycles_elapsed.max \
		"$bin" run --probe wgmma_tput --set kind=bf16 --set N=256 --set a_src=ss --set wg=2 \
		--reps 3 --gpu "$lane_a_gpu" --out "$d" >/dev/null
	echo "counter rows while ncu holds the counters:"
	"$bin" query "$d" --metric 'cupti/*' --cols metric,status,reason | tail -n +2 | sort | uniq -c | head
	"$bin" query "$d" --metric flop_per_clk_sm --status OK | tail -n +2 | wc -l
}

# --- wgmma_epilogue's pacing variants: every point of each, then racecheck on
# two points of each (the one with the most polls per FFMA and a loaded one).
pacing_test() {
	local g=$lane_a_gpu cs=${COMPUTE_SANITIZER:-compute-sanitizer} r=0 p
	"$bin" run --probe wgmma_epilogue --set pacing=relaxed,acquire,atomic --gpu "$g" \
		--out "$out/pacing-run" || r=1
	command -v "$cs" >/dev/null || cs=/usr/local/cuda/bin/compute-sanitizer
	for p in relaxed acquire atomic; do
		echo "racecheck pacing=$p:"
		"$cs" --tool racecheck --target-processes all --error-exitcode 99 \
			"$bin" run --probe wgmma_epilogue --set N=128 --set mma_wg=1 --set epi_ffma=0,128 \
			--set pacing=$p --reps 1 --warmup 0 --counters none --timeout 300 --gpu "$g" \
			--out "$out/pacing-racecheck-$p" >"$out/pacing-racecheck-$p.log" 2>&1
		echo "  exit $?; $(grep -h 'ERROR SUMMARY' "$out/pacing-racecheck-$p.log" | sort | uniq -c | tr '\n' ' ')"
		grep -h -m3 -E 'Race|Hazard|hazard' "$out/pacing-racecheck-$p.log" | sed 's/^/    /'
	done
	return $r
}

# Step limits keep each lane of a default call (all steps but sanitize and
# soak) under ten minutes; a step cut short keeps every point it wrote.
lane_a() {
	local g=$lane_a_gpu
	step sweep 330 ./sweep --gpu "$g" --out "$out/default-run"
	step cupti 290 ./sweep --gpu "$g" --timer cupti --out "$out/cupti-run"
	step pacing 300 pacing_test
	step ncu 100 env CUDA_VISIBLE_DEVICES="$g" bash -c "r=0; for p in 'kind=bf16 N=256 a_src=ss wg=2' 'kind=e4m3 N=128 a_src=rs wg=3' 'kind=s8 acc=s32 N=64 a_src=ss wg=2'; do scripts/ci/ncu-crosscheck.sh $bin wgmma_tput \$p || r=1; done; exit \$r"
	step busy 60 busy_test
	step resume 80 resume_test 6
	step sanitize 420 scripts/ci/sanitize-gpu.sh --points 2 --gpu "$g" --out "$out/sanitize"
}

lane_b() {
	local g=$lane_b_gpu
	step layout 150 "$bin" run --probe wgmma_layout --reps 1 --warmup 0 --counters none --gpu "$g" --out "$out/layout-run"
	step energy 250 "$bin" run --spec sweeps/energy.sweep --energy 2 --counters none --gpu "$g" --out "$out/energy-run"
	step sustain 100 "$bin" run --probe wgmma_tput --set kind=bf16 --set acc=f32 --set N=256 --set a_src=ss --set wg=2 --sustain 60 --counters none --gpu "$g" --out "$out/sustain-run"
	step soak $((soak_min * 60 + 120)) scripts/ci/soak.sh --minutes "$soak_min" --gpu "$g" --out "$out/soak"
}

export -f step want resume_test busy_test pacing_test
export out bin only status soak_min lane_a_gpu lane_b_gpu
if [ "$ngpu" -ge 2 ] && [ -z "$one_gpu" ]; then
	lane_a &
	lane_b &
	wait
else
	lane_a
	lane_b
fi
step fleet 240 ./sweep --gpus all --quick --group "$out/fleet-group"

tar czf "$out/results.tgz" -C "$out" --exclude=results.tgz . 2>/dev/null
echo "bringup: done; $status" >&2
cat "$status"
! grep -qv ' exit   0 ' "$status"
