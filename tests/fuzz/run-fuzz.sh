#!/usr/bin/env bash
# run-fuzz.sh DIR SECONDS [TARGET...]
#	Run each libFuzzer target DIR/fuzz-<t> for SECONDS, starting from its seed
#	corpus tests/fuzz/corpus/<t>/ (every seed and every committed regression
#	input runs first).  New inputs go to DIR/work/<t>/, never into the repo;
#	a finding is saved as DIR/artifacts/<t>-crash-... with the command that
#	reproduces it.  Exit 0 when no target found anything, 1 otherwise, 2 on
#	bad arguments.  (`make fuzz`, `make fuzz-smoke`.)
set -u
dir=${1:?usage: run-fuzz.sh DIR SECONDS [TARGET...]}
secs=${2:?usage: run-fuzz.sh DIR SECONDS [TARGET...]}
shift 2
case $secs in
''|*[!0-9]*) echo "run-fuzz.sh: SECONDS: got '$secs', expected a whole number >= 1" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
	for b in "$dir"/fuzz-*; do
		case $b in *.o) continue ;; esac
		[ -x "$b" ] && targets+=("${b##*/fuzz-}")
	done
fi
[ ${#targets[@]} -gt 0 ] || { echo "run-fuzz.sh: no fuzz targets in $dir (make fuzz-build)" >&2; exit 2; }
mkdir -p "$dir/artifacts"
# leaks are findings; a slow input (> 10 s) is one too
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
fail=0
for t in "${targets[@]}"; do
	bin=$dir/fuzz-$t
	corpus=$here/corpus/$t
	[ -x "$bin" ] || { echo "run-fuzz.sh: no target: got '$t', expected one of $dir/fuzz-*" >&2; exit 2; }
	[ -d "$corpus" ] || { echo "run-fuzz.sh: no seed corpus $corpus" >&2; exit 2; }
	work=$dir/work/$t
	mkdir -p "$work"
	log=$dir/fuzz-$t.log
	"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
		-artifact_prefix="$dir/artifacts/$t-" -print_final_stats=1 \
		"$work" "$corpus" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
	if [ $rc -eq 0 ]; then
		echo "fuzz $t: ok, ${execs:-?} runs in ${secs}s, ${cov:-cov: ?}, $(ls "$corpus" | wc -l) seeds"
	else
		fail=1
		art=$(grep -o "$dir/artifacts/$t-[a-z-]*[0-9a-f]*" "$log" | tail -1)
		echo "fuzz $t: FOUND a bug (exit $rc): $(grep -m1 -E 'ERROR|fuzz property failed|runtime error' "$log")"
		echo "  log: $log"
		[ -n "$art" ] && echo "  reproduce: $bin $art   (then add it to $corpus/ as regress-<what> with a fix)"
	fi
done
exit $fail
