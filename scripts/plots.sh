#!/usr/bin/env bash
# plots.sh: render every plot of one run directory, PNG and SVG, into that directory.
#
#   scripts/plots.sh RUN_DIR [--compare FILE]      (make plots RUN=RUN_DIR)
#
# 1. `tcprobe report --extract TMP RUN_DIR` reads RUN_DIR/measurements.csv[.gz] (columns by
#    header name) and writes, per plot with data, TMP/<plot>.dat + <plot>.gpvars, and
#    TMP/manifest.tsv (plot, has data 0/1, note, the plot's images: empty for a plot of
#    one image, <plot>.png/.svg; else one name per image, e.g. tput-vs-n-wgmma_tput-f16).
# 2. gnuplot runs plots/<plot>.gp once per format and image with datadir, out and fmt set
#    (and panel = K for the K-th image of a plot of several); every image carries the
#    run's provenance footer (plots/footer.gnuplot), and the SVG's <title> and <desc> get
#    the same text (TMP/<image>.svgmeta, written by step 1).
# A plot without data is not drawn (its old PNG/SVG, if any, is removed) and the note
# says why; `tcprobe report RUN_DIR` puts that note in the report.  Re-drawing a plot of
# several images removes its old images first (<plot>.png/.svg and <plot>-*.png/.svg).
# Env: TCPROBE (binary, default build/tcprobe), GNUPLOT (default gnuplot).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tcprobe=${TCPROBE:-$here/build/tcprobe}
gnuplot=${GNUPLOT:-gnuplot}

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
[ -f "$run/measurements.csv" ] || [ -f "$run/measurements.csv.gz" ] ||
	{ echo "plots.sh: $run/measurements.csv: no such file (nor .gz), expected a results directory" >&2; exit 2; }
[ -x "$tcprobe" ] || { echo "plots.sh: $tcprobe: not built (run make)" >&2; exit 2; }
command -v "$gnuplot" >/dev/null || { echo "plots.sh: gnuplot not found (apt-get install gnuplot-nox)" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$tcprobe" report --extract "$tmp" "$run" "${compare[@]}"

# render IMAGE of plot STEM in both formats (PANEL: its panel, "" for a plot of one image)
render() {
	local stem=$1 image=$2 panel=$3 fmt ok=1
	for fmt in png svg; do
		if ! "$gnuplot" -e "datadir='$tmp'; out='$run/$image.$fmt'; fmt='$fmt'; plotsdir='$here/plots'${panel:+; panel=$panel}" \
			"$here/plots/$stem.gp" 2> "$tmp/$image.$fmt.log"; then
			echo "plots.sh: $image.$fmt: gnuplot failed:" >&2
			sed 's/^/    /' "$tmp/$image.$fmt.log" >&2
			rm -f "$run/$image.$fmt"
			ok=0
		elif [ "$fmt" = svg ] && [ -f "$tmp/$image.svgmeta" ]; then
			# gnuplot writes <title>Gnuplot</title> and <desc>Produced by GNUPLOT ...</desc>
			awk -v mf="$tmp/$image.svgmeta" 'BEGIN { getline t < mf; getline d < mf }
				!dt && /^<title>/ { print "<title>" t "</title>"; dt = 1; next }
				!dd && /^<desc>/ { print "<desc>" d "</desc>"; dd = 1; next }
				{ print }' "$run/$image.svg" > "$tmp/$image.svg.new" &&
				cat "$tmp/$image.svg.new" > "$run/$image.svg"
		fi
	done
	[ $ok = 1 ]
}

drawn=0 skipped=0 failed=0
while IFS=$'\t' read -r stem has note images; do
	gp=$here/plots/$stem.gp
	if [ "$has" != 1 ]; then
		rm -f "$run/$stem.png" "$run/$stem.svg" "$run/$stem"-*.png "$run/$stem"-*.svg
		echo "  $stem: not drawn: $note"
		skipped=$((skipped + 1))
		continue
	fi
	[ -f "$gp" ] || { echo "plots.sh: $gp missing" >&2; failed=$((failed + 1)); continue; }
	if [ -z "$images" ]; then
		if render "$stem" "$stem" ""; then
			echo "  $stem: $run/$stem.png, .svg ($note)"
			drawn=$((drawn + 1))
		else
			failed=$((failed + 1))
		fi
		continue
	fi
	rm -f "$run/$stem.png" "$run/$stem.svg" "$run/$stem"-*.png "$run/$stem"-*.svg
	k=0 bad=0
	for image in $images; do
		k=$((k + 1))
		render "$stem" "$image" $k || bad=$((bad + 1))
	done
	if [ $bad = 0 ]; then
		echo "  $stem: $k images, $run/$stem-*.png, .svg ($note)"
		drawn=$((drawn + 1))
	else
		failed=$((failed + 1))
	fi
done < "$tmp/manifest.tsv"
echo "plots: $drawn drawn, $skipped without data, $failed failed, in $run"
[ $failed = 0 ]
