#!/usr/bin/env bash
# racecheck-classify-test.sh: scripts/ci/sanitize-gpu.sh --classify-racecheck on the
# real racecheck logs of the H200 (results/h200-pacing/) and on logs derived from
# them with a foreign race added: only races whose every access is in
# wgmma_epilogue's pace_poll/pace_post count as expected.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
d=results/h200-pacing/one-lane		# relaxed/acquire polled by one lane
w=results/h200-pacing			# polled by the whole warp (the committed probe)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
check() {	# LOG WANT_OUTPUT WANT_RC
	local got rc
	got=$(scripts/ci/sanitize-gpu.sh --classify-racecheck "$1"); rc=$?
	if [ "$got" != "$2" ] || [ "$rc" != "$3" ]; then
		echo "FAIL: $1: got '$got' rc $rc, expected '$2' rc $3"; fail=1
	else
		echo "ok: $(basename "$1"): $got (rc $rc)"
	fi
}
check $d/racecheck-relaxed.log "errors 2 expected 2 unexpected 0" 0
check $d/racecheck-acquire.log "errors 2 expected 2 unexpected 0" 0
check $d/racecheck-atomic.log "errors 0 expected 0 unexpected 0" 0
check $w/racecheck-relaxed.log "errors 2 expected 2 unexpected 0" 0
check $w/racecheck-acquire.log "errors 2 expected 2 unexpected 0" 0
check $w/racecheck-atomic.log "errors 0 expected 0 unexpected 0" 0
check results/h200-sanitize/racecheck.log "errors 2 expected 2 unexpected 0" 0
# a race elsewhere, appended to a real log: unexpected
{ cat $d/racecheck-relaxed.log
  echo "========= Error: Race reported between Write access at void tput_loop<128>(tcp_wg_args_t)+0x1f0 in probe-wgmma-tput.cu:90"
  echo "=========     and Read access at void tput_loop<128>(tcp_wg_args_t)+0x2a0 in probe-wgmma-tput.cu:95 [12 hazards]"
  echo "========= "; } > "$tmp/foreign.log"
check "$tmp/foreign.log" "errors 3 expected 2 unexpected 1" 1
# one side in pace_poll, the other not: unexpected
sed '0,/and Write access at void pace_post/s//and Write access at void tput_store/' $d/racecheck-relaxed.log > "$tmp/half.log"
check "$tmp/half.log" "errors 2 expected 1 unexpected 1" 1
# usage errors
scripts/ci/sanitize-gpu.sh --classify-racecheck "$tmp/none.log" 2>/dev/null; [ $? = 2 ] || { echo "FAIL: missing log not exit 2"; fail=1; }
[ $fail = 0 ] && echo "racecheck-classify-test: all ok"
exit $fail
