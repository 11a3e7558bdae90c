#!/usr/bin/env bash
#
# speed.sh
#	Issue 21 on one GPU (an H200), four parts, each with its own time limit:
#	  phases  wgmma_tput kind=bf16 (48 points) + calib (3), --reps 10, run
#	          three times: counters none; default with the per-point session
#	          of before (TCPROBE_COUNTERS_SESSION=point); default as shipped.
#	          Every step of every point is recorded (TCPROBE_PHASES), then
#	          summarised; compares: none -> shipped (the timed numbers must not
#	          move: counters on equal off) and point -> shipped (cupti/* rows:
#	          the long-lived session must count what the per-point one did).
#	  sweep   the Hopper default sweep as a user runs it (counters default,
#	          --reps auto), timed, then `tcprobe compare` against the README's
#	          run, and the tensor-instruction check on every wgmma point.
#	  bench   scripts/bench-harness.sh OUT/h200-harness-cost (summary.csv).
#	  replay  the counter pass's replay and image, per phase (after 289726b):
#	          the phases plan four times: counters none; default with CUPTI's
#	          kernel replay (TCPROBE_COUNTERS_REPLAY=kernel, as at 289726b,
#	          image appended); user replay with a fresh image per point
#	          (TCPROBE_COUNTERS_IMAGE=fresh); as shipped (user replay, image
#	          appended).  Each run's session as its self-test settled it
#	          (ctr_session), the phase table, compares none -> shipped (timed
#	          numbers) and kernel -> shipped (cupti/*: the counts must not
#	          depend on who replays), the tensor check on every counters run.
#	  form    the Hopper set's one-pass form (counters.cc, after efadf28):
#	          the phases plan four times: counters none; default as 2
#	          passes (TCPROBE_COUNTERS_FORM=names); the one-pass form under
#	          CUPTI's kernel replay (TCPROBE_COUNTERS_REPLAY=kernel); as
#	          shipped (the one-pass form, user replay, if the worker's check
#	          took it).  Each run's session, the
#	          phase table, compares none -> shipped (timed numbers) and
#	          names -> shipped (cupti/*), the tensor check on both; then the
#	          audit: 432 wgmma_tput points (every kind, f32/s32 accumulators)
#	          with the named tensor-cycle metrics and their one-pass sources
#	          side by side in one pass: equal on every point, exactly?
#	  batch   counter batches (issue 21, after 9ed563b): the phases plan four
#	          times: counters none; default one point per pass
#	          (TCPROBE_COUNTERS_BATCH=1, as before); batches of 4; as shipped
#	          (batches of TCP_COUNTERS_BATCH_DEFAULT); the shipped session
#	          must say ", batches" (its self-test split a batch); compares
#	          none -> shipped (timed numbers) and one, b4 -> shipped (cupti/*:
#	          a batch counts what a point alone does), the tensor check on each.
#	  vsess   does an enabled profiler slow the steps between counter passes
#	          (setup, validate)?  none; one point per pass (session kept:
#	          enabled between points); the per-point session (enabled only
#	          around its pass); as shipped: each step's median and mean.
#	usage: scripts/device/speed.sh OUT_DIR [phases] [sweep] [bench] [replay] [form] [batch] [vsess]
#	       (no part named: phases, sweep, bench, in that order)
#	       issue 21 after 289726b: BENCH_BUDGET_S=240 scripts/device/speed.sh OUT replay bench
#	       (replay ~20 s, at most 4 x 30 s; bench ~200 s, at most 240 s + one run's
#	       20 s wind-down: ~4 min expected, 6.3 min at most)
#	       issue 21, one pass (ctr2): BENCH_BUDGET_S=240 scripts/device/speed.sh OUT form bench
#	       (form ~50 s, at most 4 x 25 s + 90 s; bench ~200 s, at most 260 s: ~4.5 min
#	       expected, 7.5 min at most)
#	env:   TCPROBE (default build/tcprobe, built here and carried), GPU (0),
#	       BENCH_BUDGET_S (bench's budget, default 240; 450 when bench runs alone)
#	limits: phases 140 s (runs of 40, 60, 40 s), sweep 180 s, bench 240 s (+20 s
#	       wind-down): at most ~9.7 min in all; expected ~1 + ~1 + ~4 min when
#	       counters cost what a timer does.
#	writes OUT_DIR/speed.txt (what each part found) and, per part,
#	       phases/, replay/ and form/ (runs, *.phases.csv, phases.csv, compare-*.txt;
#	       form/audit.csv: point, probe, axes, each named metric and its source),
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
	case "$p" in phases | sweep | bench | replay | form | batch | vsess) ;; *) echo "speed: part: got '$p', expected phases, sweep, bench, replay, form, batch or vsess" >&2; exit 2 ;; esac
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
	for cfg in none point shipped; do
		local ctr=default env=() lim=40
		[ $cfg = none ] && ctr=none
		[ $cfg = point ] && env=(TCPROBE_COUNTERS_SESSION=point) lim=60	# 0.45 s a point
		rm -rf "$d/$cfg" "$d/$cfg.phases.csv"
		t0=$(now)
		env "${env[@]}" TCPROBE_PHASES="$d/$cfg.phases.csv" timeout -s INT -k 5 $lim \
			"$bin" run "${plan[@]}" --counters $ctr -o "$d/$cfg" >"$d/$cfg.log" 2>&1
		st=$?
		t1=$(now)
		say "phases: counters $ctr${env:+ (${env[*]})}: exit $st, $(secs "$t0" "$t1") s for 51 points"
		[ $st -eq 0 ] || rc=1
	done
	{
		echo "config,phase,points,median_ms,mean_ms,p90_ms"
		for cfg in none point shipped; do
			[ -s "$d/$cfg.phases.csv" ] && scripts/phases-summary.sh "$cfg" "$d/$cfg.phases.csv"
		done
	} >"$d/phases.csv"
	say "phases: session of the shipped run: $(grep -h ',ctr_session,' "$d/shipped.phases.csv" 2>/dev/null | sed 's/.*,0\.000,//')"
	say "phases: per point, median ms (point = before, shipped = after):"
	awk -F, 'NR == 1 { print "  phase                          none      point    shipped"; next }
		!($2 in seen) { seen[$2] = ++n; name[n] = $2 } { v[$2 "," $1] = $4 }
		END { for (i = 1; i <= n; i++) { p = name[i]
			printf "  %-24s %10s %10s %10s\n", p, v[p ",none"], v[p ",point"], v[p ",shipped"] } }' \
		"$d/phases.csv" | tee -a "$report"
	if [ -d "$d/none" ] && [ -d "$d/shipped" ]; then
		"$bin" compare "$d/none" "$d/shipped" >"$d/compare-none-vs-shipped.txt" 2>&1
		say "phases: timed numbers, none -> shipped: $(tail -1 "$d/compare-none-vs-shipped.txt")"
	fi
	if [ -d "$d/point" ] && [ -d "$d/shipped" ]; then
		"$bin" compare "$d/point" "$d/shipped" --metric 'cupti/*' --all >"$d/compare-point-vs-shipped.txt" 2>&1
		say "phases: counters, per-point session -> shipped: $(tail -1 "$d/compare-point-vs-shipped.txt")"
		say "phases: shipped $(tensor_check "$d/shipped")"
	fi
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

part_replay() {
	config_runs replay none kernel=TCPROBE_COUNTERS_REPLAY=kernel,TCPROBE_COUNTERS_IMAGE=append \
		fresh=TCPROBE_COUNTERS_REPLAY=user,TCPROBE_COUNTERS_IMAGE=fresh \
		shipped=TCPROBE_COUNTERS_REPLAY=user,TCPROBE_COUNTERS_IMAGE=append
	counters_vs_shipped replay kernel fresh
}

part_batch() {
	config_runs batch none one=TCPROBE_COUNTERS_BATCH=1 b4=TCPROBE_COUNTERS_BATCH=4 shipped
	grep -h ',ctr_session,' "$out/batch/shipped.phases.csv" 2>/dev/null | grep -q ', batches' ||
		{ say "batch: the shipped run did not prove batches (its session above says why)"; rc=1; }
	counters_vs_shipped batch one b4
}

# Does an enabled profiler slow what runs between counter passes (setup,
# validate)?  none; one point per pass, the session kept (profiler enabled
# between points); point (enabled only around each point's pass)
part_vsess() {
	CONFIG_LIMIT_S=45 config_runs vsess none one=TCPROBE_COUNTERS_BATCH=1 \
		point=TCPROBE_COUNTERS_BATCH=1,TCPROBE_COUNTERS_SESSION=point shipped
	grep -E '^[a-z]+,(setup|validate|warmup|timed),' "$out/vsess/phases.csv" | sed 's/^/vsess: /' | tee -a "$report"
}

# The GH100 rows with a one-pass source (counters.cc set_hopper): named metric, source.
form_pairs=(sm__pipe_tensor_cycles_active.max TPC.TriageCompute.sm__pipe_tensor_cycles_active_realtime.max
	sm__pipe_tensor_cycles_active.avg TPC.TriageCompute.sm__pipe_tensor_cycles_active_realtime.avg)

part_form() {
	local d="$out/form" t0 st
	config_runs form none names=TCPROBE_COUNTERS_FORM=names \
		kernel=TCPROBE_COUNTERS_FORM=one-pass,TCPROBE_COUNTERS_REPLAY=kernel shipped=TCPROBE_COUNTERS_FORM=one-pass
	grep -h ',ctr_session,' "$d/shipped.phases.csv" 2>/dev/null | grep -q ', 1 pass' ||
		{ say "form: the shipped run did not take the one-pass form (its session above says why)"; rc=1; }
	counters_vs_shipped form names kernel
	# the audit: each named metric beside its source, one pass, every wgmma_tput point
	local list
	list=$(IFS=,; echo "${form_pairs[*]}")
	rm -rf "${d:?}/audit"
	t0=$(now)
	timeout -s INT -k 5 90 "$bin" run -p wgmma_tput -a kind=f16,bf16,tf32,e4m3,e5m2,e4m3_e5m2,e5m2_e4m3 -a acc=f32 \
		-p wgmma_tput -a kind=s8,u8 -a acc=s32 --reps 3 --gpu "$gpu" -q --counters "$list" \
		-o "$d/audit" >"$d/audit.log" 2>&1
	st=$?
	say "form: audit run (counters $list): exit $st, $(secs "$t0" "$(now)") s"
	[ $st -eq 0 ] || rc=1
	[ -d "$d/audit" ] || return
	"$bin" query "$d/audit" --metric 'cupti/*pipe_tensor_cycles*' --cols point,probe,axes,metric,median,status \
		>"$d/audit-rows.csv" 2>"$d/audit-query.err"
	# one line per point: point,probe,axes,name1,source1,name2,source2 (axes never hold a comma)
	local res
	res=$(awk -F, -v pairs="${form_pairs[*]}" '
		BEGIN { np = split(pairs, pr, " ") }
		NR == 1 { next }
		{ k = $1 "," $2 "," $3; m = $4; sub(/^cupti\//, "", m); v[k, m] = $5; st[k, m] = $6
		  if (!(k in seen)) { seen[k] = 1; key[++n] = k } }
		END {
			hdr = "point,probe,axes"; for (j = 1; j <= np; j++) hdr = hdr "," pr[j]; print hdr > out
			bad = 0; zero = 0
			for (i = 1; i <= n; i++) { k = key[i]; line = k
				for (j = 1; j <= np; j++) line = line "," v[k, pr[j]]
				print line > out
				for (j = 1; j <= np; j += 2) {
					a = v[k, pr[j]]; b = v[k, pr[j + 1]]
					if (a == "" || b == "" || st[k, pr[j]] != "OK" || st[k, pr[j + 1]] != "OK" || a != b) bad++
					else if (a + 0 == 0) zero++
				}
			}
			printf "%d points, %d pairs unequal or missing, %d pairs zero", n, bad, zero
		}' out="$d/audit.csv" "$d/audit-rows.csv")
	say "form: audit, named metric = one-pass source, exactly: $res (form/audit.csv)"
	case "$res" in *" 0 pairs unequal or missing, 0 pairs zero") ;; *) rc=1 ;; esac
	case "$res" in 0\ points*) rc=1 ;; esac
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
