#!/usr/bin/env bash
# summary-schema-check.sh: summary.json holds to its contract (results/summary.schema.json).
# `tcprobe report --no-plots` (the production writer) on copies of committed runs, each
# against a baseline where it has one, then tests/summary-schema.py on every summary.json
# it wrote and on the committed README run's: keys, types, units, unique labels.  An
# emulated run writes no summary.json.  `make test` runs it.  Env: TCPROBE (default
# build/tcprobe).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
bin=${TCPROBE:-build/tcprobe}
[ -x "$bin" ] || { echo "summary-schema-check: $bin: not built" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
"$bin" list --metrics >"$tmp/roles.csv" || exit 2
readme=results/2026-11-29-NVIDIA_H200-580.159.04-vm-4
fail=0
# report NAME RUN [OPTS...]: the run's report in a copy of it
report() {
	local name=$1 run=$2
	shift 2
	mkdir -p "$tmp/$name"
	cp -r "$run"/. "$tmp/$name/"
	if ! "$bin" report "$tmp/$name" --no-plots "$@" >"$tmp/$name.out" 2>&1; then
		echo "summary-schema-check: FAIL: tcprobe report $run $*:" >&2
		cat "$tmp/$name.out" >&2
		fail=1
	fi
}
report readme "$readme" --baseline results/2026-11-29-NVIDIA_H200-580.159.04-vm-3 --roles "$tmp/roles.csv"
report readme-alone "$readme"
report gate tests/fixtures/h200-gate-9e01830/default-run --baseline "$readme"
report aa tests/fixtures/h200-aa/aa-killed --baseline tests/fixtures/h200-aa/aa-1
report energy results/h200-energy-sustain --baseline results/h200-energy
report emulated tests/fixtures/h200-emulation-call7-c4b6d31/ldred-sm_103a
if [ -e "$tmp/emulated/summary.json" ]; then
	echo "summary-schema-check: FAIL: an emulated run wrote summary.json" >&2
	fail=1
fi
files=("$readme/summary.json")
for n in readme readme-alone gate aa energy; do
	files+=("$tmp/$n/summary.json")
done
python3 tests/summary-schema.py results/summary.schema.json "${files[@]}" | sed "s|$tmp/|(report of) |" || fail=1
[ "$fail" = 0 ] && echo "summary-schema-check: OK" || { echo "summary-schema-check: FAIL" >&2; exit 1; }
