#!/usr/bin/env bash
#
# speed.sh
#	Issue 21 on one GPU (an H200), four parts, each with its own time limit:
#	  phases  wgmma_tput kind=bf16 (48 points) + calib (3), --reps 10, run
#	          twice: counters none; default as shipped.  Every step of every
#	          point is recorded (TCPROBE_PHASES), then summarised; compares
#	          none -> shipped (the timed numbers must not move: counters on
#	          equal off) and the tensor check on the shipped run.
#	  sweep   the Hopper default sweep as a user runs it (counters default,
#	          --reps auto), timed, then `tcprobe compare` against the README's
#	          run, and the tensor-instruction check on every wgmma point.
#	  bench   scripts/bench-harness.sh OUT/h200-harness-cost (summary.csv).
#	  batch   counter batches (issue 21, after 9ed563b): the phases plan four
#	          times: counters none; default one point per pass
#	          (TCPROBE_COUNTERS_BATCH=1, as before); batches of 4; as shipped
#	          (batches of TCP_COUNTERS_BATCH_DEFAULT); the shipped session
#	          must say ", batches" (its self-test split a batch); compares
#	          none -> shipped (timed numbers) and one, b4 -> shipped (cupti/*:
#	          a batch counts what a point alone does), the tensor check on each.
#	usage: scripts/device/speed.sh OUT_DIR [phases] [sweep] [bench] [batch]
#	       (no part named: phases, sweep, bench, in that order)
#	env:   TCPROBE (default build/tcprobe, built here and carried), GPU (0),
#	       BENCH_BUDGET_S (bench's budget, default 240; 450 when bench runs alone)
#	limits: phases 80 s (runs of 40 s), sweep 180 s, bench 240 s (+20 s
#	       wind-down): at most ~9 min in all; expected ~1 + ~1 + ~4 min when
#	       counters cost what a timer does.
#	writes OUT_DIR/speed.txt (what each part found) and, per part,
#	       phases/ and batch/ (runs, *.phases.csv, phases.csv, compare-*.txt),
#	       default-run/ (+ default-run.phases.csv, compare-readme.{txt,csv}),
#	       h200-harness-cost/ (summary.csv, phases.csv, summary.txt, compare-*.txt)
#	exit:  0 all parts ran and their checks held, 1 otherwise, 2 usage
set -uo pipefail

usage() { sed -n '3,/^set -uo/p' "$0" | sed '$d; s/^#\t\{0,1\}//'; }
case "${1:-}" in
-h | --help) usage; exit 0 ;;
"") echo "speed: OUT_DIR missing (see --help)" >&2; exit 2 ;;
esac
out=$1
shift
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(phases sweep bench)
for p in "${parts[@]}"; do
	case "$p" in phases | sweep | bench | batch) ;; *) echo "speed: part: got '$p', expected phases, sweep, bench or batch" >&2; exit 2 ;; esac
done
cd "$(dirname "$0")/../.." || exit 2
bin=${TCPROBE:-build/tcprobe}
gpu=${GPU:-0}
[ -x "$bin" ] || { echo "speed: $bin missing: build it (make) and carry it" >&2; exit 2; }
readme_run=results/2026-11-29-NVIDIA_H200-580.159.04-vm-4
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
report="$out/speed.txt"
rc=0
say() { echo "$*" | tee -a "$report"; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

# tensor_check RUN_DIR: how many delta rows are 0 and OK, of how many, for how many wgmma
# points (fields before `reason` never hold a comma); rc=1 unless every wgmma point has its 0
tensor_check() {
	local m="$1/measurements.csv" all zero pts
	all=$(grep -c ',cupti/check/tensor_insts_delta,' "$m")
	zero=$(grep -c ',cupti/check/tensor_insts_delta,insts,0,0,0,0,0,0,1,OK,' "$m")
	pts=$(grep -E ',wgmma_[a-z]+,' "$m" | cut -d, -f4 | sort -u | wc -l)
	echo "cupti/check/tensor_insts_delta: $zero of $all rows are 0 and OK; wgmma points: $pts"
	[ "$zero" -eq "$all" ] && [ "$all" -ge "$pts" ] || rc=1
}

part_phases() {
	local d="$out/phases" t0 t1 st
	mkdir -p "$d"
	local plan=(-p wgmma_tput -a kind=bf16 -p calib --reps 10 --gpu "$gpu" -q)
	for cfg in none shipped; do
		local ctr=default
		[ $cfg = none ] && ctr=none
		rm -rf "$d/$cfg" "$d/$cfg.phases.csv"
		t0=$(now)
		TCPROBE_PHASES="$d/$cfg.phases.csv" timeout -s INT -k 5 40 \
			"$bin" run "${plan[@]}" --counters $ctr -o "$d/$cfg" >"$d/$cfg.log" 2>&1
		st=$?
		t1=$(now)
		say "phases: counters $ctr: exit $st, $(secs "$t0" "$t1") s for 51 points"
		[ $st -eq 0 ] || rc=1
	done
	{
		echo "config,phase,points,median_ms,mean_ms,p90_ms"
		for cfg in none shipped; do
			[ -s "$d/$cfg.phases.csv" ] && scripts/phases-summary.sh "$cfg" "$d/$cfg.phases.csv"
		done
	} >"$d/phases.csv"
	say "phases: session of the shipped run: $(grep -h ',ctr_session,' "$d/shipped.phases.csv" 2>/dev/null | sed 's/.*,0\.000,//')"
	say "phases: per point, median ms:"
	awk -F, 'NR == 1 { print "  phase                          none    shipped"; next }
		!($2 in seen) { seen[$2] = ++n; name[n] = $2 } { v[$2 "," $1] = $4 }
		END { for (i = 1; i <= n; i++) { p = name[i]
			printf "  %-24s %10s %10s\n", p, v[p ",none"], v[p ",shipped"] } }' \
		"$d/phases.csv" | tee -a "$report"
	if [ -d "$d/none" ] && [ -d "$d/shipped" ]; then
		"$bin" compare "$d/none" "$d/shipped" >"$d/compare-none-vs-shipped.txt" 2>&1
		say "phases: timed numbers, none -> shipped: $(tail -1 "$d/compare-none-vs-shipped.txt")"
	fi
	[ -f "$d/shipped/measurements.csv" ] && say "phases: shipped $(tensor_check "$d/shipped")"
}

# config_runs PART CFG...: the phases plan once per CFG, given as "name" or
# "name=VAR=value,VAR=value" (environment of that run; counters none for "none",
# default otherwise), each under 25 s: each run's session (ctr_session), OUT/PART/
# phases.csv, the per-phase table, and compare none -> shipped (the timed numbers)
config_runs() {
	local part=$1 d="$out/$1" t0 t1 st spec cfg ctr names=()
	shift
	mkdir -p "$d"
	local plan=(-p wgmma_tput -a kind=bf16 -p calib --reps 10 --gpu "$gpu" -q)
	for spec in "$@"; do
		local env=()
		cfg=${spec%%=*} ctr=default
		[ "$spec" = "$cfg" ] || IFS=, read -r -a env <<<"${spec#*=}"
		[ "$cfg" = none ] && ctr=none
		names+=("$cfg")
		rm -rf "${d:?}/$cfg" "$d/$cfg.phases.csv"
		t0=$(now)
		env "${env[@]}" TCPROBE_PHASES="$d/$cfg.phases.csv" timeout -s INT -k 5 "${CONFIG_LIMIT_S:-25}" \
			"$bin" run "${plan[@]}" --counters $ctr -o "$d/$cfg" >"$d/$cfg.log" 2>&1
		st=$?
		t1=$(now)
		say "$part: $cfg (counters $ctr${env:+, ${env[*]}}): exit $st, $(secs "$t0" "$t1") s for 51 points"
		[ $st -eq 0 ] || rc=1
		[ "$cfg" = none ] || say "$part: $cfg: session: $(grep -h ',ctr_session,' "$d/$cfg.phases.csv" 2>/dev/null |
			sed 's/.*,0\.000,//')"
	done
	{
		echo "config,phase,points,median_ms,mean_ms,p90_ms"
		for cfg in "${names[@]}"; do
			[ -s "$d/$cfg.phases.csv" ] && scripts/phases-summary.sh "$cfg" "$d/$cfg.phases.csv"
		done
	} >"$d/phases.csv"
	say "$part: per point, median ms:"
	awk -F, -v cfgs="${names[*]}" 'BEGIN { nc = split(cfgs, c, " ") }
		NR == 1 { printf "  %-24s", "phase"; for (j = 1; j <= nc; j++) printf " %10s", c[j]; printf "\n"; next }
		!($2 in seen) { seen[$2] = ++n; name[n] = $2 } { v[$2 "," $1] = $4 }
		END { for (i = 1; i <= n; i++) { printf "  %-24s", name[i]
			for (j = 1; j <= nc; j++) printf " %10s", v[name[i] "," c[j]]; printf "\n" } }' \
		"$d/phases.csv" | tee -a "$report"
	if [ -d "$d/none" ] && [ -d "$d/shipped" ]; then
		"$bin" compare "$d/none" "$d/shipped" >"$d/compare-none-vs-shipped.txt" 2>&1
		say "$part: timed numbers, none -> shipped: $(tail -1 "$d/compare-none-vs-shipped.txt")"
	fi
}

# counters_vs_shipped PART CFG...: compare each CFG's cupti/* rows with the shipped run's,
# then the tensor check on each CFG and on shipped
counters_vs_shipped() {
	local part=$1 d="$out/$1" cfg
	shift
	for cfg in "$@"; do
		[ -d "$d/$cfg" ] && [ -d "$d/shipped" ] || continue
		"$bin" compare "$d/$cfg" "$d/shipped" --metric 'cupti/*' --all >"$d/compare-$cfg-vs-shipped.txt" 2>&1
		say "$part: counters, $cfg -> shipped: $(tail -1 "$d/compare-$cfg-vs-shipped.txt")"
	done
	for cfg in "$@" shipped; do
		[ -f "$d/$cfg/measurements.csv" ] && say "$part: $cfg $(tensor_check "$d/$cfg")"
	done
}

part_batch() {
	config_runs batch none one=TCPROBE_COUNTERS_BATCH=1 b4=TCPROBE_COUNTERS_BATCH=4 shipped
	grep -h ',ctr_session,' "$out/batch/shipped.phases.csv" 2>/dev/null | grep -q ', batches' ||
		{ say "batch: the shipped run did not prove batches (its session above says why)"; rc=1; }
	counters_vs_shipped batch one b4
}

part_sweep() {
	local d="$out/default-run" t0 t1 st
	rm -rf "$d" "$out/default-run.phases.csv"
	t0=$(now)
	TCPROBE_PHASES="$out/default-run.phases.csv" timeout -s INT -k 10 180 \
		"$bin" run --spec sweeps/default.sweep --gpu "$gpu" -q -o "$d" >"$out/default-run.log" 2>&1
	st=$?
	t1=$(now)
	say "sweep: default sweep, counters default, --reps auto: exit $st, $(secs "$t0" "$t1") s (goal < 60 s; README run: 204 s)"
	[ $st -eq 0 ] || rc=1
	[ -f "$d/measurements.csv" ] || return
	say "sweep: reps_stop of the GPU points' rows: $(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["status"] == "OK" && $c["reps_stop"] != "" { n[$c["reps_stop"]]++ } END { for (k in n) printf "%s %d  ", k, n[k] }' "$d/measurements.csv")"
	"$bin" compare "$readme_run" "$d" --csv "$out/compare-readme.csv" >"$out/compare-readme.txt" 2>&1
	say "sweep: tcprobe compare README run -> this: $(tail -1 "$out/compare-readme.txt")"
	# verdicts of the timing rows apart from the counter rows (DRAM bytes have moved in every comparison)
	say "sweep: verdicts (probe metrics | cupti/*): $(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ k = ($c["metric"] ~ /^cupti\// ? "cupti:" : "probe:") $c["verdict"]; n[k]++ }
		END { for (k in n) printf "%s %d  ", k, n[k] }' "$out/compare-readme.csv")"
	say "sweep: $(tensor_check "$d")"
}

part_bench() {
	local t0 st
	t0=$(now)
	BENCH_BUDGET_S=${BENCH_BUDGET_S:-240} TCPROBE="$bin" GPU="$gpu" scripts/bench-harness.sh "$out/h200-harness-cost" \
		>"$out/bench.log" 2>&1
	st=$?
	say "bench: exit $st, $(secs "$t0" "$(now)") s"
	[ $st -eq 0 ] || rc=1
	grep -E '^marginal|^projection|^counters session|tensor_insts|^timed numbers' \
		"$out/h200-harness-cost/summary.txt" | sed 's/^/bench: /' | tee -a "$report"
}

say "speed.sh $(date -u +%Y-%m-%dT%H:%MZ), $("$bin" --version 2>&1 | head -1), parts: ${parts[*]}"
for p in "${parts[@]}"; do
	"part_$p"
done
exit $rc
