#!/usr/bin/env bash
#
# trap-check.sh OUT_DIR
#	The planted-trap test on a real GPU (any sm_90a or sm_100a; written for
#	the H200): probe trap_check runs the bounded mbarrier wait every tcgen05
#	probe uses (probes/common/trap.cuh), once with its arrival made, once
#	without, then again with it, then calib.  Without the arrival the wait
#	runs out after 20 ms, writes the status word to mapped pinned host
#	memory with a system-scope fence and executes `trap`: the CUDA context
#	is lost.  Expected, and checked here:
#	  1. the mode=timeout row is TIMEOUT and its reason names the wait
#	     ("planted wait") and the trap, not FAILED "unspecified launch failure";
#	  2. the rows before and after it are OK: the worker was restarted with a
#	     fresh context (OUT_DIR/run/log.txt says "worker restarted");
#	  3. the mode=ok wait took less than the 20 ms budget.
#	Takes about 10-20 s (two worker starts with CUDA context creation).
#	Writes OUT_DIR/run (the results directory), OUT_DIR/trap-check.txt (the
#	verdict lines) and OUT_DIR/tcprobe.log (tcprobe's stderr).
#	env:  TCPROBE (default build/tcprobe, built on the development machine
#	      and carried)
#	exit: 0 all three hold, 1 one does not, 2 usage / no binary
set -uo pipefail
[ $# -eq 1 ] || { echo "trap-check: usage: $0 OUT_DIR" >&2; exit 2; }
out=$1
cd "$(dirname "$0")/../.." || exit 2
mkdir -p "$out" || exit 2
bin=${TCPROBE:-build/tcprobe}
[ -x "$bin" ] || { echo "trap-check: $bin missing: build it (make) and carry it" >&2; exit 2; }
rm -rf "$out/run"
verdict="$out/trap-check.txt"
: >"$verdict"
fail=0
say() { echo "trap-check: $*" | tee -a "$verdict"; }

# Groups run in command-line order; budget_ms=21 keeps the last ok point
# distinct from the first (the plan drops duplicate points).
timeout 120 "$bin" run --counters none --reps 3 --warmup 1 --timeout 20 -o "$out/run" \
	--probe trap_check --set mode=ok --set budget_ms=20 \
	--probe trap_check --set mode=timeout --set budget_ms=20 \
	--probe trap_check --set mode=ok --set budget_ms=21 \
	--probe calib --set spin_kcycles=100 >"$out/tcprobe.out" 2>"$out/tcprobe.log"
rc=$?
say "tcprobe run exit $rc (1 expected: one point is TIMEOUT)"
csv="$out/run/measurements.csv"
[ -r "$csv" ] || { say "FAIL no $csv"; exit 1; }

# One row per point and metric: probe, axes, status and reason are columns of
# docs/results.md; match them by text, the reason may hold commas (quoted).
row() { grep -F "$1" "$csv" | grep -F "$2" | head -1; }
to=$(row 'trap_check' 'mode=timeout;budget_ms=20')
ok1=$(row 'trap_check' 'mode=ok;budget_ms=20')
ok2=$(row 'trap_check' 'mode=ok;budget_ms=21')
cal=$(row 'calib' 'spin_kcycles=100')
say "timeout row: ${to:-<missing>}"
if [[ "$to" == *",TIMEOUT,"* && "$to" == *"planted wait"* && "$to" == *"trap"* ]]; then
	say "PASS 1: TIMEOUT naming the planted wait and the trap"
else
	say "FAIL 1: the mode=timeout row is not TIMEOUT naming \"planted wait\" and the trap"
	fail=1
fi
if [[ "$ok1" == *",OK,"* && "$ok2" == *",OK,"* && "$cal" == *",OK,"* ]] &&
	{ grep -q "worker restarted" "$out/run/log.txt" 2>/dev/null || [[ "$to" == *"worker restarted"* ]]; }; then
	say "PASS 2: OK before and after the trap; worker restarted"
else
	say "FAIL 2: ok1=${ok1:+$(echo "$ok1" | grep -o ',OK,\|,FAILED,\|,TIMEOUT,')} ok2=${ok2:+$(echo "$ok2" | grep -o ',OK,\|,FAILED,\|,TIMEOUT,')} calib=${cal:+$(echo "$cal" | grep -o ',OK,\|,FAILED,\|,TIMEOUT,')}; restart logged: $(grep -c "worker restarted" "$out/run/log.txt" 2>/dev/null)"
	fail=1
fi
# wait_ns is the median column (docs/results.md: median after unit); check it is below 20 ms.
med=$(echo "$ok1" | awk -F, '{ for (i = 1; i <= NF; i++) if ($i == "ns") { print $(i + 1); exit } }')
if [ -n "$med" ] && awk -v m="$med" 'BEGIN { exit !(m + 0 > 0 && m + 0 < 20000000) }'; then
	say "PASS 3: mode=ok wait_ns median $med < 20 ms"
else
	say "FAIL 3: mode=ok wait_ns median '${med}' not in (0, 20 ms)"
	fail=1
fi
exit $fail
