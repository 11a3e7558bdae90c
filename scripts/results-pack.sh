#!/usr/bin/env bash
# results-pack.sh: put a finished run into its committed (archived) form, the policy of
# docs/results.md "Size budget": in every run directory under each DIR, measurements.csv,
# plan.txt and log.txt over 256 KiB become .gz (gzip -9n: the same bytes give the same
# archive).
#
#   scripts/results-pack.sh DIR...                    (run directories or folders of them)
#
# Every reader (tcprobe report/compare/fleet/query) reads the .gz form the same way; the
# script proves it: `tcprobe query --summary` and the rows (`tcprobe query --cols ...`) of
# each run must be identical before and after, or the plain file is put back.
# `tcprobe run --resume` needs the plain files: gunzip DIR/*.gz first.
# Env: TCPROBE (default build/tcprobe), PACK_MIN_BYTES (default 262144).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tcprobe=${TCPROBE:-$here/build/tcprobe}
min=${PACK_MIN_BYTES:-262144}
[ $# -gt 0 ] || { echo "usage: scripts/results-pack.sh DIR..." >&2; exit 2; }
[ -x "$tcprobe" ] || { echo "results-pack: $tcprobe: not built (make)" >&2; exit 2; }

state() {	# everything a reader sees of the run
	"$tcprobe" query "$1" --summary
	"$tcprobe" query "$1" --cols point,probe,axes,metric,unit,median,min,max,spread_pct,status,reason
}

packed=0
while read -r d; do
	before=$(state "$d")
	did=()
	for f in measurements.csv plan.txt log.txt; do
		[ -f "$d/$f" ] && [ ! -e "$d/$f.gz" ] && [ "$(stat -c %s "$d/$f")" -gt "$min" ] || continue
		gzip -9n "$d/$f"
		did+=("$f")
	done
	[ ${#did[@]} -gt 0 ] || continue
	if [ "$(state "$d")" != "$before" ]; then
		for f in "${did[@]}"; do gunzip "$d/$f.gz"; done
		echo "results-pack: $d: the archived run reads differently; left as it was" >&2
		exit 1
	fi
	echo "results-pack: $d: ${did[*]} -> .gz"
	packed=$((packed + 1))
done < <(find "$@" \( -name measurements.csv -o -name measurements.csv.gz \) -printf '%h\n' | sort -u)
echo "results-pack: $packed run(s) packed"
