#!/usr/bin/env bash
# sass-rules-test.sh
#	The timed-window rules of scripts/ci/sass-rules.awk on hand-written SASS:
#	each case is a kernel in cuobjdump's layout that one rule must fail (or
#	must pass), so a change to the awk that stops catching what the probes
#	were fixed for fails here, not only on a future object.  Cases:
#	  open-64      a window opened by a 32-bit clock read after an MMA (the
#	               narrowed opening read of tc_mma_ii's depths 1-32) fails;
#	               the 64-bit open / 32-bit close convention passes.
#	  clean-span   an LDCU / S2UR between a span's UTC* fails (tc_mma_tput's
#	               per-batch reloads); the 32-bit clock read closing the
#	               window (S2UR SR_CLOCKLO) does not.
#	  clean-window an R2UR between the opening clock read and the commit
#	               fails (tc_mma_ii's depth-1 barrier address).
#	  WINDOW       every window clean-window checks is listed.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
AWK=$HERE/scripts/ci/sass-rules.awk
fail=0
n=0

# kernel NAME, then instructions (one per line: OPCODE ARGS), in address order
sass() {
	local name=$1 a=0
	shift
	echo "		Function : $name"
	for l in "$@"; do
		printf '        /*%04x*/                   %s ;                /* 0x000000000000000000000000 */\n' $a "$l"
		a=$((a + 16))
	done
}

expect() {	# expect CASE RULE fail|pass|count:N  (SASS on stdin)
	local c=$1 r=$2 want=$3 out nf nr
	out=$(awk -f "$AWK")
	nf=$(printf '%s\n' "$out" | awk -v r="$r" '$1 == "FAIL" && $2 == r' | wc -l)
	nr=$(printf '%s\n' "$out" | awk -v r="$r" '($1 == "RULE" && $2 == r) || ($1 == r)' | wc -l)
	n=$((n + 1))
	case $want in
	fail) [ "$nf" -gt 0 ] && return 0 ;;
	pass) [ "$nr" -gt 0 ] && [ "$nf" -eq 0 ] && return 0 ;;
	count:*) [ "$nr" -eq "${want#count:}" ] && [ "$nf" -eq 0 ] && return 0 ;;
	esac
	echo "sass-rules-test: FAIL $c: rule $r expected $want, got $nf failures, $nr applications:"
	printf '%s\n' "$out" | sed 's/^/    /'
	fail=1
}

MMA="UTCHMMA tmem[UR4], gdesc[UR8], tmem[UR6], tmem[UR10], idesc[UR5], UPT"
BAR="UTCBAR [UR12], URZ"

# 64-bit open, chain, 32-bit close, commit, wait, 32-bit close; twice
expect "64-bit opens" open-64 pass < <(sass "void ok64()" "$MMA" "CS2R R2, SR_CLOCKLO" "$MMA" "$MMA" "CS2R.32 R6, SR_CLOCKLO" "$BAR" \
	"SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [R3+URZ], R4" "CS2R.32 R7, SR_CLOCKLO" \
	"$MMA" "CS2R R2, SR_CLOCKLO" "$MMA" "CS2R.32 R6, SR_CLOCKLO" "$BAR" "CS2R.32 R7, SR_CLOCKLO" "EXIT")
# the second window's opening read narrowed: 32-bit, 32-bit, MMA, 32-bit
expect "narrowed open" open-64 fail < <(sass "void narrowed()" "$MMA" "CS2R R2, SR_CLOCKLO" "$MMA" "CS2R.32 R6, SR_CLOCKLO" "$BAR" "CS2R.32 R7, SR_CLOCKLO" \
	"$MMA" "CS2R.32 R2, SR_CLOCKLO" "$MMA" "CS2R.32 R6, SR_CLOCKLO" "$BAR" "CS2R.32 R7, SR_CLOCKLO" "EXIT")
# tc_mma_lat's issue window: a 32-bit read before the MMA, no MMA since the last 32-bit read
expect "issue window before the MMA" open-64 pass < <(sass "void lat()" "CS2R.32 R1, SR_CLOCKLO" "LDCU UR5, c[0x0][0x3d8]" "$MMA" "$BAR" "CS2R R2, SR_CLOCKLO" \
	"SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [R3+URZ], R4" "CS2R.32 R7, SR_CLOCKLO" \
	"CS2R.32 R1, SR_CLOCKLO" "$MMA" "$BAR" "CS2R R2, SR_CLOCKLO" "CS2R.32 R7, SR_CLOCKLO" "EXIT")

# a batch loop that re-reads k and the barrier's cluster address inside the span
expect "per-batch reload" clean-span fail < <(sass "void reload()" "$MMA" "CS2R R2, SR_CLOCKLO" "$MMA" "LDCU UR6, c[0x0][0x418]" "S2UR UR14, SR_CgaCtaId" "$MMA" \
	"$BAR" "S2UR UR4, SR_CLOCKLO" "$BAR" "CS2R.32 R7, SR_CLOCKLO" "EXIT")
expect "pinned loop, S2UR clock close" clean-span pass < <(sass "void pinned()" "$MMA" "CS2R R2, SR_CLOCKLO" "$MMA" "UIADD3 UR6, UPT, UPT, UR6, 0x1, URZ" "$MMA" "$BAR" \
	"S2UR UR4, SR_CLOCKLO" "$BAR" "CS2R.32 R7, SR_CLOCKLO" "EXIT")

# depth 1: the commit's barrier address converted inside the window
expect "barrier address in the window" clean-window fail < <(sass "void depth1()" "$MMA" "CS2R R18, SR_CLOCKLO" "CS2R.32 R21, SR_CLOCKLO" "R2UR UR4, R0" "UMOV UR5, 0x3" \
	"UTCBAR.2CTA.MULTICAST [UR4], URZ, UR5" "CS2R.32 R7, SR_CLOCKLO" "EXIT")

# two windows: both listed
expect "window list" WINDOW count:2 < <(sass "void two()" "$MMA" "CS2R R2, SR_CLOCKLO" "$MMA" "CS2R.32 R6, SR_CLOCKLO" "$BAR" "CS2R.32 R7, SR_CLOCKLO" \
	"$MMA" "CS2R R2, SR_CLOCKLO" "$MMA" "CS2R.32 R6, SR_CLOCKLO" "$BAR" "CS2R.32 R7, SR_CLOCKLO" "EXIT")

if [ $fail -ne 0 ]; then
	echo "sass-rules-test: FAILED"
	exit 1
fi
echo "sass-rules-test: OK: $n cases"
