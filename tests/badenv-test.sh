#!/usr/bin/env bash
#
# badenv-test.sh
#	tcprobe in a bad environment: each case must end with ONE line on stderr
#	naming the problem and its own exit status (docs/exit-codes.md):
#	  no GPU / no driver              run            3
#	  driver older than the runtime   run            5  (a fake libcuda.so.1 that
#	                                                    reports CUDA 12.8, LD_LIBRARY_PATH)
#	  results directory read-only     run            6  (read-only tmpfs; else a
#	                                                    0555 directory when not root)
#	  results directory full          run            7  (a 40 KiB tmpfs; else
#	                                                    ulimit -f), rows kept, the
#	                                                    resume hint, --resume finishes
#	  gnuplot missing                 report         8  (report.md still written)
#	  libcupti missing                counters       1  (named chip, no GPU needed);
#	                                  run            0  on a GPU: counters NA rows with
#	                                                    the reason, timing rows OK
#	  libcsv missing                  moot: linked statically (checked with ldd)
#	A GPU of an unsupported architecture (exit 4) needs a GPU to say its cc:
#	tests/test-badenv.c checks the decision host-side.
#	usage: tests/badenv-test.sh [BINARY]   (default build/tcprobe; `make badenv-check`)
set -uo pipefail
bin=$(realpath "${1:-build/tcprobe}")
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
mounts=()
cleanup() {
	for m in "${mounts[@]}"; do umount "$m" 2>/dev/null; done
	chmod -R u+w "$tmp" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
fails=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fails=$((fails + 1)); }

# expect NAME WANT_RC CMD...: exit status and exactly one line on stderr
expect() {
	local name=$1 want=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$? lines
	lines=$(wc -l <"$tmp/err")
	if [ "$rc" -eq "$want" ] && [ "$lines" -eq 1 ]; then
		ok "$name: exit $rc: $(cat "$tmp/err")"
	else
		bad "$name: got exit $rc and $lines stderr lines, expected exit $want and 1 line:"
		sed 's/^/       /' "$tmp/err" | head -5
	fi
}

can_mount() { [ "$(id -u)" = 0 ] && mkdir -p "$1" && mount -t tmpfs -o "$2" tmpfs "$1" 2>/dev/null && mounts+=("$1"); }
have_gpu() { command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; }

# --- no GPU: CUDA_VISIBLE_DEVICES= hides any GPU; without a driver the same exit
expect "no GPU" 3 env CUDA_VISIBLE_DEVICES= "$bin" run --probe calib -o "$tmp/nogpu"
[ ! -e "$tmp/nogpu" ] && ok "no GPU: no run directory left behind" || bad "no GPU: $tmp/nogpu created"

# --- driver older than the CUDA runtime: a fake libcuda.so.1 reporting CUDA 12.8
mkdir -p "$tmp/fakecuda"
printf 'int cuDriverGetVersion(int *v) { *v = 12080; return 0; }\nint cuInit(unsigned f) { (void)f; return 0; }\n' >"$tmp/fakecuda/fake.c"
if ${CC:-cc} -shared -fPIC -o "$tmp/fakecuda/libcuda.so.1" "$tmp/fakecuda/fake.c"; then
	expect "driver too old" 5 env LD_LIBRARY_PATH="$tmp/fakecuda" "$bin" run --probe calib -o "$tmp/olddrv"
	grep -q "CUDA 12.8" "$tmp/err" && ok "driver too old: names both versions" || bad "driver too old: no version in: $(cat "$tmp/err")"
else
	bad "driver too old: cannot build the fake libcuda.so.1"
fi

# --- read-only results directory
if can_mount "$tmp/ro" ro,size=64k; then how="read-only tmpfs"
elif [ "$(id -u)" != 0 ]; then mkdir -p "$tmp/ro" && chmod 0555 "$tmp/ro"; how="0555 directory"
else how=""; fi
if [ -n "$how" ]; then
	expect "results read-only ($how)" 6 "$bin" run --probe host_timer --reps 2 -q -o "$tmp/ro/run"
else
	bad "results read-only: root without mount(2): no read-only directory to test with"
fi

# --- results directory full mid-run: rows kept whole, resume hint, --resume finishes
full=$tmp/full
if can_mount "$full" size=40k; then how="40 KiB tmpfs"; lim=""
else mkdir -p "$full"; how="ulimit -f 16"; lim=16; fi
runfull() { if [ -n "$lim" ]; then (ulimit -f "$lim"; exec "$@"); else "$@"; fi; }
expect "results full ($how)" 7 runfull "$bin" run --probe host_timer --set calls=1:400:1 --reps 1 --warmup 0 -q -o "$full/run"
grep -q -- "--resume $full/run" "$tmp/err" && ok "results full: resume hint" || bad "results full: no resume hint"
# points and rows as tcprobe reads the run (`tcprobe query`)
kept=$("$bin" query "$full/run" --points --cols point 2>/dev/null | tail -n +2 | wc -l)
[ "$kept" -gt 0 ] && [ "$kept" -lt 400 ] && ok "results full: $kept whole points kept" || bad "results full: $kept points kept"
[ ! -e "$full/run/provenance.csv.tmp" ] && ok "results full: no provenance.csv.tmp left" || bad "results full: provenance.csv.tmp left behind"
if [ -z "$lim" ]; then mount -o remount,size=4m "$full"; fi
"$bin" run --resume "$full/run" -q >/dev/null 2>"$tmp/err"; rc=$?
pts=$("$bin" query "$full/run" --cols point | tail -n +2 | sort | uniq -c | awk '{print $1}' | sort -u | tr '\n' ' ')
n=$("$bin" query "$full/run" --points --cols point | tail -n +2 | wc -l)
[ "$rc" -eq 0 ] && [ "$n" -eq 400 ] && [ "$pts" = "2 " ] && ok "results full: --resume on space completes 400 points, 2 rows each" ||
	bad "results full: --resume: exit $rc, $n points, rows per point '$pts': $(head -2 "$tmp/err")"

# --- gnuplot missing at report time
cp -r "$here/tests/fixtures/synthetic-run" "$tmp/rep"
rm -f "$tmp/rep/report.md"
expect "gnuplot missing" 8 env GNUPLOT="$tmp/no-gnuplot" "$bin" report "$tmp/rep"
[ -s "$tmp/rep/report.md" ] && ok "gnuplot missing: report.md still written" || bad "gnuplot missing: no report.md"

# --- libcupti missing
expect "libcupti missing (counters --chip)" 1 env TCPROBE_CUPTI_LIB="$tmp/no-libcupti.so" "$bin" counters --list --chip GH100
if have_gpu; then
	TCPROBE_CUPTI_LIB=$tmp/no-libcupti.so "$bin" run --probe calib --set spin_kcycles=100 --reps 2 -q -o "$tmp/nocupti" >/dev/null 2>"$tmp/err"
	rc=$?
	na=$("$bin" query "$tmp/nocupti" --metric 'cupti/*' --status UNSUPPORTED --cols reason | grep -c no-libcupti)
	okt=$("$bin" query "$tmp/nocupti" --probe calib --status OK | tail -n +2 | wc -l)
	[ "$rc" -eq 0 ] && [ "$na" -gt 0 ] && [ "$okt" -gt 0 ] && grep -q '^counters NA' "$tmp/err" &&
		ok "libcupti missing (run on GPU): exit 0, $okt timing rows OK, $na counter rows UNSUPPORTED with the reason" ||
		bad "libcupti missing (run on GPU): exit $rc, $okt OK rows, $na NA rows: $(head -3 "$tmp/err")"
else
	echo "note libcupti missing (run): needs a GPU; the counters NA path is covered by tests/test-counters.c"
fi

# --- libcsv: linked statically, so it cannot be missing at run time
if ldd "$bin" | grep -q csv; then bad "libcsv: dynamically linked: $(ldd "$bin" | grep csv)"
else ok "libcsv: statically linked (ldd lists no libcsv)"; fi

echo "badenv: $fails failure(s)"
[ "$fails" -eq 0 ]
