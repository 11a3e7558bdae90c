#!/usr/bin/env bash
# results-budget.sh: the tracked results/ stays within its budget (docs/results.md,
# "Size budget", which lists the kept set and why each run stays): the bytes of
# the files `git ls-files results` lists, as they are in the working tree (what a clone
# holds and what travels to the GPU machine), at most RESULTS_BUDGET_BYTES (12 000 000);
# and no run file the policy archives (measurements.csv,
# plan.txt, log.txt over 256 KiB) is tracked uncompressed (scripts/results-pack.sh packs
# them).  Outside a git checkout every file under results/ counts.  `make test` runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${RESULTS_BUDGET_BYTES:-12000000}
min=262144
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	list() { git ls-files -z results; }
	what="tracked files"
else
	list() { find results -type f -print0; }
	what="files"
fi
total=0 n=0 fail=0
while IFS= read -r -d '' f; do
	[ -f "$f" ] || continue		# deleted in the working tree, not yet committed
	s=$(stat -c %s "$f")
	total=$((total + s)) n=$((n + 1))
	case $(basename "$f") in
	measurements.csv | plan.txt | log.txt)
		if [ "$s" -gt "$min" ]; then
			echo "results-budget: FAIL $f is $s bytes uncompressed: pack it (scripts/results-pack.sh $(dirname "$f"))" >&2
			fail=1
		fi ;;
	esac
done < <(list)
if [ "$total" -gt "$budget" ]; then
	echo "results-budget: FAIL results/ holds $total bytes in $n $what, over the budget of $budget" \
		"(docs/results.md, Size budget: pack runs, drop regenerable files and runs nothing cites;" \
		"a run that must stay is added to the kept-set table there with the budget)" >&2
	fail=1
fi
[ "$fail" = 0 ] || exit 1
echo "results-budget: results/ holds $total bytes in $n $what, budget $budget ($((total * 100 / budget))%)"
