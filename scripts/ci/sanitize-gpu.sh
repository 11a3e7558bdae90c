#!/usr/bin/env bash
#
# sanitize-gpu.sh
#	Every probe that runs on sm_90a (the H200), a few points each, under
#	compute-sanitizer's memcheck, racecheck, synccheck and initcheck, through
#	the real `tcprobe run` (supervisor + forked worker: --target-processes all,
#	so the worker that owns the CUDA context is the one checked).
#
#	1. The points: for each probe whose arch includes sm_90a (tcprobe list),
#	   its default plan (`tcprobe run --probe P --dry-run -v`), POINTS points
#	   spread over it (first, ..., last; SKIPPED ones never run), written as
#	   one sweep file, OUT/sanitize.sweep, one group per point.
#	2. Per tool: compute-sanitizer --tool T --target-processes all
#	   --error-exitcode 99 tcprobe run --spec OUT/sanitize.sweep --reps 1
#	   --warmup 0 --counters none (CUPTI and the sanitizer cannot share a
#	   process) --timeout 900 (the sanitizers slow kernels 10-1000x), results
#	   in OUT/<tool>/, the sanitizer's log in OUT/<tool>.log.
#	3. OUT/summary.md: per tool the errors found (sum of every process's
#	   "ERROR SUMMARY"), the exit status, the points by status, and the first
#	   error lines: the text for docs/findings.md.
#
#	One racecheck report is expected and not counted as a failure: a race
#	whose every access lies in wgmma_epilogue's pace_poll/pace_post, the
#	progress counter that pacing=relaxed|acquire (the default) reads and
#	writes with strong ld/st.relaxed|acquire|release.cta: not a data race
#	under the PTX memory model, but racecheck only exempts atomics
#	(docs/findings.md, "The epilogue overlap and its pacing").  Any other race fails.
#	`--classify-racecheck LOG` prints that split for one log and exits 1 if
#	LOG holds an unexpected race (make test runs it on the committed logs).
#
#	usage: scripts/ci/sanitize-gpu.sh [--points N] [--tools memcheck,racecheck,...]
#	           [--gpu N] [--out DIR]
#	       scripts/ci/sanitize-gpu.sh --classify-racecheck LOG
#	defaults: 3 points per probe, memcheck,racecheck,synccheck,initcheck, GPU 0,
#	          results/sanitize-<date>-<host>
#	env:   TCPROBE (default build/tcprobe), COMPUTE_SANITIZER (default: PATH, then
#	       /usr/local/cuda/bin/compute-sanitizer)
#	exit:  0 every tool clean, 1 a tool found errors or a point did not finish
#	       OK, 2 usage, 3 compute-sanitizer or the GPU missing
set -uo pipefail

die() { echo "sanitize-gpu.sh: $2" >&2; exit "$1"; }

# racecheck LOG -> "errors E expected X unexpected U" (see the header)
classify_racecheck() {
	python3 - "$1" <<'PY'
import re, sys
errs = exp = 0
block = None
def close(b):
    global exp
    if b and all(re.search(r' at [^(]*\bpace_(poll|post)<', a) for a in b):
        exp += 1
for line in open(sys.argv[1], errors='replace'):
    if 'Error: Race reported between' in line:
        close(block)
        errs += 1
        block = [line.split('between', 1)[1]]
    elif block is not None and re.match(r'=+\s+and ', line):
        block.append(line)
    elif block is not None:
        close(block)
        block = None
close(block)
print(f"errors {errs} expected {exp} unexpected {errs - exp}")
sys.exit(1 if errs - exp else 0)
PY
}

npts=3
tools=memcheck,racecheck,synccheck,initcheck
gpu=0
out=
tcprobe=${TCPROBE:-build/tcprobe}
while [ $# -gt 0 ]; do
	case "$1" in
	--points) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || die 2 "--points: got '${2:-}', expected an integer >= 1"; npts=$2; shift 2 ;;
	--tools) [[ "${2:-}" =~ ^(memcheck|racecheck|synccheck|initcheck)(,(memcheck|racecheck|synccheck|initcheck))*$ ]] ||
			die 2 "--tools: got '${2:-}', expected a comma list of memcheck, racecheck, synccheck, initcheck"
		tools=$2; shift 2 ;;
	--gpu) [[ "${2:-}" =~ ^[0-9]+$ ]] || die 2 "--gpu: got '${2:-}', expected a CUDA ordinal"; gpu=$2; shift 2 ;;
	--out) [ -n "${2:-}" ] || die 2 "--out: got '', expected a directory"; out=$2; shift 2 ;;
	--classify-racecheck) [ -r "${2:-}" ] || die 2 "--classify-racecheck: got '${2:-}', expected a readable racecheck log"
		classify_racecheck "$2"; exit ;;
	-h|--help) sed -n '3,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die 2 "unknown argument: got '$1', expected --points, --tools, --gpu, --out, --classify-racecheck" ;;
	esac
done
[ -x "$tcprobe" ] || die 2 "TCPROBE: got '$tcprobe', expected an executable (make first)"
cs=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
[ -x "$cs" ] || die 3 "compute-sanitizer not found: got '$cs', expected the CUDA toolkit's (COMPUTE_SANITIZER=path)"
[ -n "$out" ] || out=results/sanitize-$(date -u +%Y-%m-%d)-$(hostname -s)
mkdir -p "$out" || die 2 "--out: cannot create '$out'"

# 1. the points
sweep=$out/sanitize.sweep
{
	echo "# scripts/ci/sanitize-gpu.sh: $npts points per sm_90a probe, one group per point"
	"$tcprobe" list | awk '/^[a-z_0-9]+ / && $3 ~ /sm_90a/ {print $1}' | while read -r p; do
		"$tcprobe" run --probe "$p" --dry-run -v 2>/dev/null |
			awk -F'\t' -v n="$npts" -v p="$p" '
			NF == 6 && $2 == p { k[c++] = $3 }
			END {
				for (i = 0; i < n && i < c; i++) {
					j = (n == 1 || c == 1) ? 0 : int(i * (c - 1) / (n - 1))
					if (seen[j]++) continue
					print "\n[" p "]"
					m = split(k[j], kv, ";")
					for (a = 1; a <= m; a++) { sub("=", " = ", kv[a]); print kv[a] }
				}
			}'
	done
} > "$sweep"
groups=$(grep -c '^\[' "$sweep")
[ "$groups" -gt 0 ] || die 2 "no sm_90a probe in $tcprobe (tcprobe list)"
"$tcprobe" run --spec "$sweep" --dry-run >/dev/null || die 2 "$sweep does not parse (see above)"
echo "sanitize: $groups points of $(grep '^\[' "$sweep" | sort -u | wc -l) probes x tools $tools -> $out"

# 2. the tools
{
	echo "## compute-sanitizer on sm_90a probes ($(date -u +%Y-%m-%d), $("$tcprobe" --version))"
	echo
	echo "Command per tool: \`$cs --tool TOOL --target-processes all --error-exitcode 99 $tcprobe run --spec $sweep --reps 1 --warmup 0 --counters none --timeout 900 --gpu $gpu -o $out/TOOL\`"
	echo "($groups points: $npts per probe spread over its default plan; \`scripts/ci/sanitize-gpu.sh\`.)"
	echo
	echo "| tool | errors | exit | points by status | seconds |"
	echo "|---|---|---|---|---|"
} > "$out/summary.md"
fail=0
details=
for t in ${tools//,/ }; do
	rm -rf "${out:?}/$t"
	t0=$(date +%s)
	"$cs" --tool "$t" --target-processes all --error-exitcode 99 --log-file "$out/$t.log" \
		"$tcprobe" run --spec "$sweep" --reps 1 --warmup 0 --counters none --timeout 900 \
		--gpu "$gpu" -q -o "$out/$t" >/dev/null 2>"$out/$t.stderr"
	rc=$?
	secs=$(( $(date +%s) - t0 ))
	# memcheck/synccheck/initcheck end with "ERROR SUMMARY: N errors",
	# racecheck with "RACECHECK SUMMARY: H hazards displayed (E errors, W warnings)"
	errs=$(sed -n -e 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' \
		-e 's/.*RACECHECK SUMMARY: .*(\([0-9]*\) error.*/\1/p' "$out/$t.log" | awk '{s += $1} END {print s + 0}')
	nsum=$(grep -c -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/$t.log")
	# points by status, as tcprobe reads the run (`tcprobe query --summary`)
	stat=$("$tcprobe" query "$out/$t" --summary 2>/dev/null | sed -n 's/^statuses,//p' | tr '|' ' ')
	[ -n "$stat" ] || stat="no measurements.csv (see $t.stderr)"
	note= bad=$errs brc=$rc
	if [ "$t" = racecheck ] && [ "$errs" -ne 0 ]; then
		read -r _ _ _ xp _ bad < <(classify_racecheck "$out/$t.log")
		note=", $xp of them expected (wgmma_epilogue's relaxed/acquire progress counter)"
		# only expected reports: judged by what racecheck found, not by its exit
		[ "$bad" = 0 ] && [ "$rc" = 99 ] && brc=0
	fi
	echo "| $t | $errs ($nsum processes)$note | $rc | $stat | $secs |" >> "$out/summary.md"
	echo "$t: $errs errors in $nsum processes$note, exit $rc, points: $stat, ${secs}s"
	if [ "$bad" -ne 0 ] || [ "$brc" -ne 0 ] || [ "$nsum" -eq 0 ]; then
		fail=1
		details+=$'\n'"### $t: first errors"$'\n\n```\n'"$(grep -m 12 -E '=====* (Invalid|Race|Barrier|Uninitialized|Error|Program hit)' "$out/$t.log")"$'\n'"$(tail -3 "$out/$t.stderr")"$'\n```\n'
	fi
done
[ -n "$details" ] && echo "$details" >> "$out/summary.md"
echo "summary: $out/summary.md"
exit $fail
