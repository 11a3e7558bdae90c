#!/usr/bin/env bash
# aa.sh OUT
#	The A/A check of `tcprobe compare` on one GPU: one binary, the same
#	flags, nothing changed between the runs, so every comparison must exit
#	0 (README "Comparing runs", docs/results.md "metrics.csv").  Into OUT:
#	  aa-1, aa-2, aa-3  three default sweeps, back to back
#	  aa-killed         a fourth, SIGKILLed (with its worker) after
#	                    $AA_KILL_S seconds (default 5), then --resume'd
#	  aa-none           the default sweep with --counters none (the default
#	                    sweep reads CUPTI counters: `tcprobe run --counters`
#	                    defaults to `default`, and ./sweep passes it on)
#	then `tcprobe compare` on every pair, each exit status printed and kept
#	in OUT/aa-pairs.txt ("BASE NEW EXIT"), each output (its 60 worst rows:
#	a default run lists ~15,000 rows SKIPPED in both) in OUT/compare/:
#	  the default-flag runs (aa-1, aa-2, aa-3, aa-killed), each pair once,
#	  the earlier run as the base; aa-none as the base of each of them
#	  (counters off vs on: the counter rows are new in NEW, not missing).
#	The README run against each run is printed too, apart (another
#	binary and GPU: not A/A; OUT/readme-pairs.txt).  The false-positive
#	rate is the A/A pairs that exit non-zero over all A/A pairs.  Finally
#	each run is archived (scripts/results-pack.sh), so that OUT can be
#	committed as it is (tests/fixtures/h200-aa/: tests/aa-check.sh reads it).
#	Env: TCPROBE (default build/tcprobe), GPU (default 0), README_RUN.
#	Exit: 0 every A/A pair exited 0, 1 otherwise, 2 a sweep could not run.
set -uo pipefail
out=${1:?usage: scripts/device/aa.sh OUT}
cd "$(dirname "$0")/../.." || exit 2
bin=${TCPROBE:-build/tcprobe}
gpu=${GPU:-0}
readme_run=${README_RUN:-results/2026-11-29-NVIDIA_H200-580.159.04-vm-4}
[ -x "$bin" ] || { echo "aa: $bin: not built" >&2; exit 2; }
mkdir -p "$out/compare" || exit 2
: >"$out/aa-pairs.txt"
: >"$out/readme-pairs.txt"

sweep() {	# sweep NAME [tcprobe run options...]
	local d="$out/$1"
	shift
	local t0=$(date +%s)
	timeout -s INT -k 10 300 "$bin" run --spec sweeps/default.sweep --gpu "$gpu" -q -o "$d" "$@" >"$d.log" 2>&1
	local rc=$?
	echo "$(basename "$d"): tcprobe run exit $rc in $(( $(date +%s) - t0 )) s" | tee -a "$out/runs.txt"
	[ "$rc" -le 1 ]
}

for r in aa-1 aa-2 aa-3; do
	sweep "$r" || exit 2
done

# aa-killed: its own session, so that the SIGKILL takes the worker too
d="$out/aa-killed"
setsid "$bin" run --spec sweeps/default.sweep --gpu "$gpu" -q -o "$d" >"$d.log" 2>&1 &
pid=$!
sleep "${AA_KILL_S:-5}"
kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid"
wait "$pid" 2>/dev/null
q() { "$bin" query "$d" --summary | sed -n "s/^$1,//p"; }
echo "aa-killed: SIGKILL after ${AA_KILL_S:-5} s: $(q points) of $(q planned) points on disk, $(q duplicates) duplicates" |
	tee -a "$out/runs.txt"
[ "$(q unfinished)" != 0 ] || echo "aa-killed: WARNING: the sweep had finished before the kill (AA_KILL_S)" | tee -a "$out/runs.txt"
timeout -s INT -k 10 300 "$bin" run --resume "$d" -q >>"$d.log" 2>&1
echo "aa-killed: tcprobe run --resume exit $?, $(q unfinished) points unfinished" | tee -a "$out/runs.txt"

sweep aa-none --counters none || exit 2

# every pair, the earlier run as the base; counters off as the base of counters on
pairs=()
runs=(aa-1 aa-2 aa-3 aa-killed)
for ((i = 0; i < ${#runs[@]}; i++)); do
	for ((j = i + 1; j < ${#runs[@]}; j++)); do
		pairs+=("${runs[i]} ${runs[j]}")
	done
done
for r in "${runs[@]}"; do
	pairs+=("aa-none $r")
done
n=0 bad=0
for p in "${pairs[@]}"; do
	set -- $p
	"$bin" compare "$out/$1" "$out/$2" --top 60 >"$out/compare/$1-vs-$2.txt" 2>&1
	rc=$?
	n=$((n + 1))
	[ "$rc" = 0 ] || bad=$((bad + 1))
	echo "$1 $2 $rc" >>"$out/aa-pairs.txt"
	echo "compare $1 $2: exit $rc"
done
for r in "${runs[@]}" aa-none; do
	"$bin" compare "$readme_run" "$out/$r" --top 60 >"$out/compare/readme-vs-$r.txt" 2>&1
	rc=$?
	echo "$(basename "$readme_run") $r $rc" >>"$out/readme-pairs.txt"
	echo "compare README-run $r: exit $rc (not A/A: another binary and GPU)"
done
echo "A/A: $bad of $n pairs exit non-zero: false-positive rate $(awk -v b=$bad -v n=$n 'BEGIN { printf "%.0f%%", 100 * b / n }')" |
	tee "$out/aa-summary.txt"

for r in "${runs[@]}" aa-none; do
	TCPROBE=$bin scripts/results-pack.sh "$out/$r" >/dev/null || echo "aa: results-pack $r failed"
done
[ "$bad" = 0 ]
