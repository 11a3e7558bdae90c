#!/usr/bin/env bash
# plots.sh: render every plot of one run directory, PNG and SVG, into that directory.
#
#   scripts/plots.sh RUN_DIR [--compare FILE]      (make plots RUN=RUN_DIR)
#
# `tcprobe report RUN_DIR --plots-only` does the work (harness/analyze/report-render.c):
# it extracts each plot's data (what `tcprobe report --extract` writes) into a temporary
# directory and runs gnuplot on plots/<plot>.gp once per format and image, with the run's
# provenance footer on every image and the SVG's <title> and <desc> set to the plot's.
# A plot without data is not drawn (its old PNG/SVG, if any, is removed) and the line
# says why; `tcprobe report RUN_DIR` draws the same plots before it writes the report.
# Env: TCPROBE (binary, default build/tcprobe), GNUPLOT (default gnuplot).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tcprobe=${TCPROBE:-$here/build/tcprobe}

usage() { echo "usage: scripts/plots.sh RUN_DIR [--compare FILE]"; }
run= compare=()
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) usage; exit 0 ;;
	--compare) [ $# -ge 2 ] || { echo "plots.sh: --compare: missing FILE" >&2; exit 2; }
		compare=(--compare "$2"); shift ;;
	-*) echo "plots.sh: unknown option '$1', expected --compare FILE or --help" >&2; exit 2 ;;
	*) [ -z "$run" ] || { echo "plots.sh: extra argument '$1': one RUN_DIR only" >&2; exit 2; }
		run=$1 ;;
	esac
	shift
done
[ -n "$run" ] || { echo "plots.sh: missing RUN_DIR (make plots RUN=results/<dir>)" >&2; exit 2; }
[ -x "$tcprobe" ] || { echo "plots.sh: $tcprobe: not built (run make)" >&2; exit 2; }
TCPROBE_PLOTS_DIR=${TCPROBE_PLOTS_DIR:-$here/plots} exec "$tcprobe" report "$run" --plots-only "${compare[@]}"
