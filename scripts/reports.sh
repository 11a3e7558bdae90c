#!/usr/bin/env bash
# reports.sh: every report results/ keeps (results/reports.txt), regenerated or checked.
#
#   scripts/reports.sh            regenerate each in place: report.md, summary.json, and for
#                                 the full one report.pdf (headless Chromium, from report.html),
#                                 the PNG plots, plot-data/ and pages/ (the PDF pages the
#                                 README shows, by pdftoppm); fleet: fleet.txt and its CSVs
#   scripts/reports.sh --check    (make reports-check) regenerate report.md, summary.json,
#                                 plot-data/ and the fleet files in a scratch copy and
#                                 require each byte-identical to the committed one: exit 1
#                                 naming every stale file, 0 when all are current
#
# The drawing tcprobe's own commit (scripts/ci/drawing-commit.sed: summary.json's
# "report" object, "(tcprobe C)" and "drawn by tcprobe C" in the text) is the one
# difference --check allows: a report is current when this tree draws it the same.  Each
# report runs from a scratch root whose results/ holds a copy of the run (the report
# writes into it) and links to the runs it reads, so every path the report prints is the
# one under results/.
# Env: TCPROBE (default build/tcprobe), GNUPLOT, CHROMIUM (as tcprobe report uses them).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
bin=${TCPROBE:-build/tcprobe}
case $bin in /*) ;; *) bin=$here/$bin ;; esac
check=0
case ${1:-} in
--check) check=1 ;;
"") ;;
-h|--help) sed -n '2,/^# Env:/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
*) echo "reports.sh: unknown argument '$1', expected --check or nothing" >&2; exit 2 ;;
esac
[ -x "$bin" ] || { echo "reports.sh: $bin: not built (make build/tcprobe)" >&2; exit 2; }
list=results/reports.txt
mkdir -p build
"$bin" list --metrics >build/roles.csv

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
stale=0 n=0

# A report file with the drawing tcprobe's commit blanked.
mask() {
	sed -E -f scripts/ci/drawing-commit.sed "$1"
}

# same NAME COMMITTED NEW: compare one file (masked), note a stale one; COMMITTED may be
# kept gzipped (COMMITTED.gz: plot-data's .dat files)
same() {
	local name=$1 old=$2 new=$3
	if [ ! -e "$old" ] && [ -e "$old.gz" ]; then
		gzip -dc "$old.gz" >"$tmp/unzipped"
		old=$tmp/unzipped
	fi
	if [ ! -e "$old" ]; then
		echo "reports.sh: STALE: $name: not committed" >&2
		stale=1
	elif [ ! -e "$new" ]; then
		echo "reports.sh: STALE: $name: committed, not written by this tree" >&2
		stale=1
	elif ! cmp -s <(mask "$old") <(mask "$new"); then
		echo "reports.sh: STALE: $name differs from what this tree writes:" >&2
		diff <(mask "$old") <(mask "$new") | head -8 | sed 's/^/    /' >&2
		stale=1
	fi
}

# scratch ROOT RUN: ROOT/results/RUN a copy of the run; at each level from results/ down
# to it, every other entry a link
scratch() {
	local root=$1 path=results/$2 dir=results next e
	mkdir -p "$root"
	ln -s "$here/build" "$root/build"
	ln -s "$here/plots" "$root/plots"
	ln -s "$here/scripts" "$root/scripts"
	while [ "$dir" != "$path" ]; do
		next=${path#"$dir"/}
		next=$dir/${next%%/*}
		mkdir -p "$root/$dir"
		for e in "$dir"/*; do
			[ "$e" = "$next" ] || ln -s "$here/$e" "$root/$e"
		done
		dir=$next
	done
	cp -r "$path" "$root/$path"
}

# pages RUN: PNG renders of the PDF pages holding the summary, the baseline section and
# the first per-kind throughput plot
pages() {
	local dir=$1 pdf=$1/report.pdf p np what
	command -v pdftoppm >/dev/null && command -v pdftotext >/dev/null ||
		{ echo "reports.sh: pdftoppm/pdftotext not found (apt-get install poppler-utils): no pages/" >&2; return 0; }
	[ -f "$pdf" ] || return 0
	rm -rf "$dir/pages"
	mkdir -p "$dir/pages"
	np=$(pdfinfo "$pdf" | awk '/^Pages:/ { print $2 }')
	for what in "^Summary$|summary" "^Against the baseline$|baseline" "MMA throughput vs N, one plot per kind|tput-vs-n"; do
		for ((p = 1; p <= np; p++)); do
			if pdftotext -f "$p" -l "$p" "$pdf" - | grep -Eq "${what%|*}"; then
				pdftoppm -f "$p" -l "$p" -r 72 -png -singlefile "$pdf" "$dir/pages/${what#*|}"
				break
			fi
		done
	done
}

while read -r keep run opts; do
	case $keep in ''|'#'*) continue ;; esac
	n=$((n + 1))
	opts=${opts//@roles/build/roles.csv}
	[ -d "results/$run" ] || { echo "reports.sh: results/$run: listed in $list, not there" >&2; stale=1; continue; }
	root=$tmp/$n
	scratch "$root" "$run"
	out=$root/results/$run
	case $keep in
	fleet)
		# shellcheck disable=SC2086
		(cd "$root" && "$bin" fleet $opts "results/$run" >"$out/fleet.txt" 2>"$root.log") || true
		for f in fleet.txt fleet.csv fleet-gpus.csv; do
			if [ $check = 1 ]; then same "$run/$f" "results/$run/$f" "$out/$f"; else cp "$out/$f" "results/$run/$f"; fi
		done
		if [ $check = 0 ]; then	# its plot, as ./sweep --gpus draws it (PNG only)
			rm -f "results/$run/fleet.svg"
			gnuplot -e "dir='results/$run'; out='results/$run/fleet.png'; fmt='png'" plots/fleet.gp
			echo "reports.sh: results/$run ($keep)"
		fi
		continue ;;
	md|full) ;;
	*) echo "reports.sh: $list: '$keep': expected full, md or fleet" >&2; exit 2 ;;
	esac
	# A report embeds the images its directory holds: an md run is reported without any,
	# the full one with the images it draws (regenerating) or has committed (checking).
	extra=(--no-plots)
	if [ "$keep" = md ] || [ $check = 0 ]; then
		rm -f "$out"/*.png "$out"/*.svg "$out/report.html" "$out/report.pdf"
	fi
	# the full run: plots drawn first, the SVGs dropped (the PNGs are what the report,
	# its PDF and the README embed), then the report written over the images kept
	if [ $check = 0 ] && [ "$keep" = full ]; then
		extra=(--no-plots --pdf)
		# shellcheck disable=SC2086
		(cd "$root" && "$bin" report "results/$run" $opts) >"$root.log" 2>&1 || true
		rm -f "$out"/*.svg
	fi
	# shellcheck disable=SC2086
	if ! (cd "$root" && "$bin" report "results/$run" $opts "${extra[@]}") >>"$root.log" 2>&1; then
		echo "reports.sh: tcprobe report results/$run $opts ${extra[*]} failed:" >&2
		sed 's/^/    /' "$root.log" >&2
		stale=1
		continue
	fi
	if [ "$keep" = full ]; then	# the plots' data, the ratio plot's from the report's own comparison
		mkdir -p "$out/plot-data"
		rm -f "$out/plot-data"/*
		# shellcheck disable=SC2086
		(cd "$root" && "$bin" report --extract "results/$run/plot-data" "results/$run" $opts) >/dev/null
	fi
	if [ $check = 1 ]; then
		same "$run/report.md" "results/$run/report.md" "$out/report.md"
		[ ! -e "$out/summary.json" ] && [ ! -e "results/$run/summary.json" ] ||
			same "$run/summary.json" "results/$run/summary.json" "$out/summary.json"
		if [ "$keep" = full ]; then
			for b in $( (ls "$out/plot-data"; ls "results/$run/plot-data" | sed 's/\.gz$//') 2>/dev/null | sort -u); do
				same "$run/plot-data/$b" "results/$run/plot-data/$b" "$out/plot-data/$b"
			done
		fi
		continue
	fi
	# regenerate: the kept files replace the committed ones
	cp "$out/report.md" "results/$run/"
	if [ -e "$out/summary.json" ]; then cp "$out/summary.json" "results/$run/"; else rm -f "results/$run/summary.json"; fi
	rm -f "results/$run"/*.png "results/$run"/*.svg "results/$run/report.html" "results/$run/report.pdf"
	if [ "$keep" = full ]; then
		cp "$out"/*.png "results/$run/"	# report.html is the PDF's source: not kept
		[ -e "$out/report.pdf" ] && cp "$out/report.pdf" "results/$run/"
		rm -rf "results/$run/plot-data"
		cp -r "$out/plot-data" "results/$run/"
		gzip -n -9 "results/$run/plot-data"/*.dat
		pages "results/$run"
	fi
	echo "reports.sh: results/$run ($keep)"
done <"$list"

if [ $check = 1 ]; then
	[ $stale = 0 ] && { echo "reports-check: OK: $n kept reports current ($list)"; exit 0; }
	echo "reports-check: FAIL: regenerate with scripts/reports.sh and commit" >&2
	exit 1
fi
exit $stale
