#!/usr/bin/env bash
#
# bench-harness.sh
#	What the harness costs per point, measured on the GPU: the same two
#	plans of wgmma_tput points, A (432: every N, A source and warpgroup
#	count of the f32-accumulator float kinds and s8/u8) and B (A plus the
#	f16-accumulator and mixed-sign kinds: 768), each run by one `tcprobe
#	run` with counters none / default x reps fixed (10) / auto (the default:
#	3..10, --noise 0.5%).  The marginal cost of a point, s_per_point, is the
#	slope of wall time from A to B, so worker start-up (CUDA context, CUPTI
#	session) does not count.  TCPROBE_PHASES records every step of every
#	point of the B runs; phases.csv has each step's median per point.
#	On the B runs it also checks that counters do not move the timed numbers
#	(tcprobe compare none -> default, probe metrics only) and that
#	cupti/check/tensor_insts_delta is 0 (status OK) on every point.
#	The run directories are scratch (deleted); only the summaries stay.
#
#	Order, against drift (GPU clock, the VM's neighbours): BENCH_ROUNDS
#	rounds (default 2), each every config on plan A, then every config on
#	plan B; a config's wall time per plan is the median over the rounds
#	(rounds.csv has each), while the budget lasts.
#
#	usage: scripts/bench-harness.sh [OUT_DIR]  (default results/h200-harness-cost)
#	env:   TCPROBE (default build/tcprobe), GPU (default 0), BENCH_BUDGET_S
#	       (default 450: no run starts after that; each run's limit is what
#	       is left, and a run cut short leaves its config's numbers empty),
#	       BENCH_CONFIGS (default "none-auto default-auto none-fixed
#	       default-fixed": which configs, in this order), BENCH_ROUNDS (2)
#	writes OUT_DIR/summary.csv  config,points,wall_s,s_per_point (one row per
#	                            config and plan; s_per_point, the slope, on both)
#	       OUT_DIR/rounds.csv   config,points,round,wall_s (every run)
#	       OUT_DIR/phases.csv   config,phase,points,median_ms,mean_ms,p90_ms
#	                            (phase "start:<step>": the worker's start)
#	       OUT_DIR/summary.txt  ratios default/none, checks, projection, duration
#	duration: about 3 min a round on an H200 when a point costs ~0.04 s; never more than
#	       BENCH_BUDGET_S plus one run's wind-down.
#	exit:  0 every run finished and every check held, 1 otherwise, 2 usage
set -uo pipefail

usage() { sed -n '3,/^set -uo/p' "$0" | sed '$d; s/^#\t\{0,1\}//'; }
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
[ $# -le 1 ] || { echo "bench-harness: got $# arguments, expected at most OUT_DIR (see --help)" >&2; exit 2; }
cd "$(dirname "$0")/.." || exit 2
out=${1:-results/h200-harness-cost}
bin=${TCPROBE:-build/tcprobe}
gpu=${GPU:-0}
budget=${BENCH_BUDGET_S:-450}
rounds=${BENCH_ROUNDS:-2}
[[ "$rounds" =~ ^[1-9]$ ]] || { echo "bench-harness: BENCH_ROUNDS: got '$rounds', expected 1 to 9" >&2; exit 2; }
[ -x "$bin" ] || { echo "bench-harness: $bin missing: run make first" >&2; exit 2; }
[[ "$budget" =~ ^[0-9]+$ ]] || { echo "bench-harness: BENCH_BUDGET_S: got '$budget', expected seconds" >&2; exit 2; }
mkdir -p "$out" || exit 2
scratch=$(mktemp -d "${TMPDIR:-/tmp}/bench-harness-XXXXXX") || exit 2
trap 'rm -rf "$scratch"' EXIT
t_begin=$(date +%s.%N)
rc=0

plan_a=(-p wgmma_tput -a kind=f16,bf16,tf32,e4m3,e5m2,e4m3_e5m2,e5m2_e4m3 -a acc=f32
	-p wgmma_tput -a kind=s8,u8 -a acc=s32)
plan_b=("${plan_a[@]}" -p wgmma_tput -a kind=f16,e4m3,e5m2,e4m3_e5m2,e5m2_e4m3 -a acc=f16
	-p wgmma_tput -a kind=s8_u8,u8_s8 -a acc=s32)
npts() { "$bin" run "$@" -n | awk '/^total:/ { print $4 }'; }
na=$(npts "${plan_a[@]}") nb=$(npts "${plan_b[@]}")
[ "$na" -ge 400 ] && [ "$nb" -gt "$na" ] || { echo "bench-harness: plans of $na and $nb points, expected >= 400 and more" >&2; exit 2; }

elapsed() { awk -v a="$t_begin" -v b="$(date +%s.%N)" 'BEGIN { printf "%d", b - a }'; }

# run CONFIG PLAN(a|b) COUNTERS REPS: one tcprobe run, wall time in ms into $scratch/CONFIG-PLAN.wall
run() {
	local cfg=$1 which=$2 ctr=$3 reps=$4 round=$5 dir="$scratch/$1-$2" left
	left=$((budget - $(elapsed)))
	if [ "$left" -le 5 ]; then
		echo "bench-harness: $cfg plan $which not run: the ${budget} s budget is spent" | tee -a "$scratch/notes"
		rc=1
		return
	fi
	local plan=("${plan_a[@]}")
	[ "$which" = b ] && plan=("${plan_b[@]}")
	local env=()
	[ "$which" = b ] && [ "$round" = 1 ] && env=(TCPROBE_PHASES="$scratch/$cfg.phases.csv")
	rm -rf "$dir"	# the last round's run stays, for the checks
	local t0 t1 st
	t0=$(date +%s.%N)
	env "${env[@]}" timeout -s INT -k 20 "$left" "$bin" run "${plan[@]}" --gpu "$gpu" --counters "$ctr" \
		--reps "$reps" -q -o "$dir" >"$scratch/$cfg-$which.log" 2>&1
	st=$?
	t1=$(date +%s.%N)
	if [ $st -ne 0 ]; then
		echo "bench-harness: $cfg plan $which: tcprobe run exit $st (log tail below)" | tee -a "$scratch/notes"
		tail -3 "$scratch/$cfg-$which.log" | tee -a "$scratch/notes"
		rc=1
		return
	fi
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }' >>"$scratch/$cfg-$which.walls"
	echo "bench-harness: round $round, $cfg plan $which ($([ "$which" = a ] && echo "$na" || echo "$nb") points): $(tail -1 "$scratch/$cfg-$which.walls") s" >&2
}

# median of the rounds' wall times of config $1, plan $2 (empty when none ran)
wall() {
	[ -s "$scratch/$1-$2.walls" ] || return
	sort -g "$scratch/$1-$2.walls" | awk '{ v[NR] = $1 } END { printf "%.3f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

read -r -a configs <<<"${BENCH_CONFIGS:-none-auto default-auto none-fixed default-fixed}"
for cfg in "${configs[@]}"; do
	case "$cfg" in none-auto | default-auto | none-fixed | default-fixed) ;;
	*) echo "bench-harness: BENCH_CONFIGS: got '$cfg', expected none-auto, default-auto, none-fixed or default-fixed" >&2
	   exit 2 ;;
	esac
done
for r in $(seq "$rounds"); do
	for which in a b; do
		for cfg in "${configs[@]}"; do
			ctr=${cfg%-*} reps=10
			[ "${cfg#*-}" = auto ] && reps=auto
			run "$cfg" "$which" "$ctr" "$reps" "$r"
		done
	done
done

slope() {
	local a b
	a=$(wall "$1" a) b=$(wall "$1" b)
	[ -n "$a" ] && [ -n "$b" ] || return
	awk -v a="$a" -v b="$b" -v na="$na" -v nb="$nb" 'BEGIN { printf "%.4f", (b - a) / (nb - na) }'
}
{
	echo "config,points,wall_s,s_per_point"
	for cfg in "${configs[@]}"; do
		s=$(slope "$cfg")
		echo "$cfg,$na,$(wall "$cfg" a),$s"
		echo "$cfg,$nb,$(wall "$cfg" b),$s"
	done
} >"$out/summary.csv"
{
	echo "config,points,round,wall_s"
	for cfg in "${configs[@]}"; do
		for which in a b; do
			n=$na
			[ "$which" = b ] && n=$nb
			[ -s "$scratch/$cfg-$which.walls" ] && awk -v c="$cfg" -v n="$n" '{ printf "%s,%s,%d,%s\n", c, n, NR, $1 }' \
				"$scratch/$cfg-$which.walls"
		done
	done
} >"$out/rounds.csv"

# phases.csv: per config, each step's median / mean / p90 over the B plan's points
{
	echo "config,phase,points,median_ms,mean_ms,p90_ms"
	for cfg in "${configs[@]}"; do
		f="$scratch/$cfg.phases.csv"
		[ -s "$f" ] && scripts/phases-summary.sh "$cfg" "$f"
	done
} >"$out/phases.csv"

# checks on the B runs
checks=""
for mode in fixed auto; do
	base="$scratch/none-$mode-b" new="$scratch/default-$mode-b"
	[ -d "$base" ] && [ -d "$new" ] || continue
	"$bin" compare "$base" "$new" --metric flop_per_clk_sm,tflops,pct_peak,sm_clock_mhz,cycles,regs_per_thread \
		>"$scratch/cmp-$mode.txt" 2>&1
	checks+="timed numbers, counters none -> default, reps $mode: $(tail -1 "$scratch/cmp-$mode.txt")"$'\n'
	cp "$scratch/cmp-$mode.txt" "$out/compare-none-vs-default-$mode.txt"
	m="$new/measurements.csv"
	all=$(grep -c ',cupti/check/tensor_insts_delta,' "$m")
	zero=$(grep -c ',cupti/check/tensor_insts_delta,insts,0,0,0,0,0,0,1,OK,' "$m")
	checks+="cupti/check/tensor_insts_delta, reps $mode: $zero of $all rows 0 and OK ($nb points)"$'\n'
	[ "$all" -eq "$nb" ] && [ "$zero" -eq "$all" ] || rc=1
done
session=$(grep -h ',ctr_session,' "$scratch"/default-*.phases.csv 2>/dev/null | head -1 | sed 's/.*,0\.000,//')

ratio() {
	local d n
	d=$(slope "default-$1") n=$(slope "none-$1")
	[ -n "$d" ] && [ -n "$n" ] && awk -v d="$d" -v n="$n" 'BEGIN { printf "%.2fx (%.4f / %.4f s)", d / n, d, n }' ||
		echo "NA (a run is missing)"
}
# B200 default plan: GPU points of sweeps/default.sweep whose probe runs on sm_100a (host ones too)
b200=$("$bin" run --spec sweeps/default.sweep -n | awk '$2 ~ /sm_100a|^host$/ { n += $4 } END { print n + 0 }')
da=$(slope default-auto)
{
	echo "tcprobe harness cost, $(date -u +%Y-%m-%dT%H:%MZ), $("$bin" --version 2>&1 | head -1)"
	echo "GPU $gpu: $(nvidia-smi -i "$gpu" --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
	echo "plans: A $na, B $nb wgmma_tput points; s_per_point = (wall B - wall A) / $((nb - na)), each wall the median of $rounds rounds (rounds.csv)"
	echo "counters session: ${session:-NA}"
	echo
	cat "$out/summary.csv"
	echo
	echo "marginal cost, counters default / none, reps fixed 10: $(ratio fixed)"
	echo "marginal cost, counters default / none, reps auto:     $(ratio auto)"
	[ -n "$da" ] && echo "projection (not a measurement): B200 default plan, $b200 points x $da s = $(awk -v n="$b200" -v s="$da" 'BEGIN { printf "%.0f", n * s }') s, if a B200 point cost what an H200 wgmma_tput point costs"
	echo
	printf '%s' "$checks"
	[ -s "$scratch/notes" ] && { echo; cat "$scratch/notes"; }
	echo
	echo "per point, median ms (phases.csv), counters default, reps auto | fixed:"
	awk -F, '$1 ~ /^default-/ { if (!($2 in seen)) { seen[$2] = ++n; name[n] = $2 } v[$2 "," $1] = $4 }
		END { for (i = 1; i <= n; i++) printf "  %-28s %10s %10s\n", name[i], v[name[i] ",default-auto"],
			v[name[i] ",default-fixed"] }' "$out/phases.csv"
	echo
	echo "bench-harness took $(elapsed) s"
} >"$out/summary.txt"
cat "$out/summary.txt"
exit $rc
