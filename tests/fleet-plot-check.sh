#!/usr/bin/env bash
# fleet-plot-check.sh: plots/fleet.gp renders a committed multi-GPU group
# (results/h200-fleet by default) into a valid PNG and SVG, from the CSVs that
# `tcprobe fleet` writes (regenerated here from the run directories).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
group=${1:-$repo/results/h200-fleet}
bin=${TCPROBE:-$repo/build/tcprobe}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cp -r "$group"/GPU-* "$t"/
"$bin" fleet --csv "$t/fleet.csv" "$t" >/dev/null || [ $? -eq 1 ]
[ "$(tail -n +2 "$t/fleet-gpus.csv" | wc -l)" -ge 2 ] || { echo "fleet-plot-check: FAIL: fewer than 2 GPUs in fleet-gpus.csv"; exit 1; }
for fmt in png svg; do
	gnuplot -e "dir='$t'; out='$t/fleet.$fmt'; fmt='$fmt'" "$repo/plots/fleet.gp"
done
head -c 8 "$t/fleet.png" | od -An -tx1 | grep -q '89 50 4e 47 0d 0a 1a 0a' || { echo "fleet-plot-check: FAIL: fleet.png is not a PNG"; exit 1; }
[ "$(stat -c %s "$t/fleet.png")" -gt 10000 ] || { echo "fleet-plot-check: FAIL: fleet.png implausibly small"; exit 1; }
grep -q '<svg' "$t/fleet.svg" || { echo "fleet-plot-check: FAIL: fleet.svg has no <svg> root"; exit 1; }
echo "fleet-plot-check: fleet.png ($(stat -c %s "$t/fleet.png") B) and fleet.svg valid, from $(basename "$group")"
