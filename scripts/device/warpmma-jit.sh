#!/usr/bin/env bash
# warpmma-jit.sh OUTDIR
#	Dispatch and JIT of the warp-level MMA family on real silicon (issue 20),
#	three runs of sweeps/warp.sweep (reps 3, no counters), every point
#	validated against the CPU reference before it is timed:
#	  OUTDIR/normal  build/tcprobe as built: the GPU's own cubin (sm_90a on
#	                 an H200)
#	  OUTDIR/jit     the same binary under CUDA_FORCE_PTX_JIT=1: the driver
#	                 compiles the family's PTX (compute_90a on an H200) instead
#	  OUTDIR/arch80  build-arch80/tcprobe (make ARCHS=80 BUILD=build-arch80):
#	                 the family's only code is sm_80 SASS + compute_80 PTX, so
#	                 the driver JIT-compiles compute_80 PTX for the GPU
#	then OUTDIR/summary.txt: per run and probe, points OK / SKIPPED / other,
#	the code each ran from, and every non-OK, non-SKIPPED point with its reason.
#	Proves the probes' logic and CPU references on hardware through three
#	code paths; it does not prove sm_80 SASS (an H200 cannot run it).
#
#	Expected on an H200: normal and jit: every point of mma_sync and of the
#	sm_80/sm_89 forms of warp_mma OK, the sm_120 forms SKIPPED ("needs
#	sm_120a/121a ... code, this code is sm_90a"); arch80: the fp8 forms
#	SKIPPED too ("needs sm_89 or later code, this code is sm_80"), the rest OK.
#	About 1-2 minutes.  Exit 0 when no point is FAILED/INVALID/TIMEOUT.
#	env: TCPROBE (default build/tcprobe), TCPROBE80 (default build-arch80/tcprobe)
set -uo pipefail
out=${1:?usage: scripts/device/warpmma-jit.sh OUTDIR}
cd "$(dirname "$0")/../.." || exit 2
bin=${TCPROBE:-build/tcprobe}
bin80=${TCPROBE80:-build-arch80/tcprobe}
for b in "$bin" "$bin80"; do
	[ -x "$b" ] || { echo "warpmma-jit: $b missing (make; make ARCHS=80 BUILD=build-arch80 build-arch80/tcprobe)" >&2; exit 2; }
done
mkdir -p "$out" || exit 6
cuda="${CUDA_HOME:-/usr/local/cuda}"
export LD_LIBRARY_PATH="$cuda/lib64:$cuda/extras/CUPTI/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
args=(run --spec sweeps/warp.sweep --reps 3 --warmup 1 --counters none --quiet)

rc=0
run() {	# NAME BINARY [env...]
	local name=$1 b=$2
	shift 2
	echo "== $name: $* $b ${args[*]} --out $out/$name" | tee -a "$out/commands.txt"
	( [ $# -gt 0 ] && export "$@"; timeout 600 "$b" "${args[@]}" --out "$out/$name" ) \
		> "$out/$name.stdout" 2> "$out/$name.stderr"
	local r=$?
	echo "$name exit $r" >> "$out/commands.txt"
	[ $r -eq 0 ] || [ $r -eq 1 ] || rc=1
}
"$bin" info > "$out/info.txt" 2>&1
run normal "$bin"
run jit "$bin" CUDA_FORCE_PTX_JIT=1
run arch80 "$bin80"

# Per point (first metric row of each point): status and reason, by column name.
summarize() {	# RUNDIR
	awk -F, -v run="$(basename "$1")" '
	function split_csv(line, f,    n, i, c, q, cur) {
		n = 0; cur = ""; q = 0
		for (i = 1; i <= length(line); i++) {
			c = substr(line, i, 1)
			if (c == "\"") { q = !q; continue }
			if (c == "," && !q) { f[++n] = cur; cur = ""; continue }
			cur = cur c
		}
		f[++n] = cur
		return n
	}
	NR == 1 { n = split_csv($0, h); for (i = 1; i <= n; i++) col[h[i]] = i; next }
	{
		split_csv($0, f)
		key = f[col["probe"]] ";" f[col["axes"]]
		if (seen[key]++) next
		p = f[col["probe"]]; s = f[col["status"]]
		cnt[p, s]++; probes[p] = 1; stats[s] = 1
		if (s != "OK" && s != "SKIPPED") bad[++nb] = p " " f[col["axes"]] ": " s " " f[col["reason"]]
		if (s == "SKIPPED") { r = f[col["reason"]]; sub(/ \(.*/, "", r); skip[p ": " r]++ }
	}
	END {
		for (p in probes) {
			line = sprintf("%-7s %-9s", run, p)
			for (s in stats) line = line sprintf(" %s=%d", s, cnt[p, s])
			print line
		}
		for (r in skip) printf("  skipped %d x %s\n", skip[r], r)
		for (i = 1; i <= nb; i++) print "  NOT OK: " bad[i]
	}' <("$bin" query "$1" --points --cols probe,axes,status,reason)	# the run as tcprobe reads it
}
{
	echo "warpmma-jit summary ($(date -u +%FT%TZ)); GPU: $(grep -m1 -i 'name' "$out/info.txt" | tr -s ' ')"
	for r in normal jit arch80; do
		if [ -f "$out/$r/measurements.csv" ]; then summarize "$out/$r"; else echo "$r: no measurements.csv"; rc=1; fi
	done
} | tee "$out/summary.txt"
grep -q "NOT OK" "$out/summary.txt" && rc=1
exit $rc
