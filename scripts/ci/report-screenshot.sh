#!/usr/bin/env bash
# report-screenshot.sh: open RUN_DIR/report.html in headless Chromium, fail if the
# page logs a console error or a failed load, and save a screenshot for reference.
#
#   scripts/ci/report-screenshot.sh RUN_DIR [OUT.png]     (default RUN_DIR/report-screenshot.png)
#
# Installs Debian's chromium when it is missing (apt-get; needs root or sudo).
# Env: CHROMIUM (binary), SHOT_SIZE (window, default 1280,3200).
set -euo pipefail

usage="usage: scripts/ci/report-screenshot.sh RUN_DIR [OUT.png]"
case ${1:-} in
-h|--help) echo "$usage"; exit 0 ;;
'') echo "report-screenshot: missing RUN_DIR; $usage" >&2; exit 2 ;;
esac
run=$1
out=${2:-$run/report-screenshot.png}
html=$(realpath "$run/report.html" 2>/dev/null) && [ -f "$html" ] || {
	echo "report-screenshot: $run/report.html missing: run tcprobe report $run first" >&2; exit 2; }

browser=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$browser" ]; then
	sudo=; [ "$(id -u)" = 0 ] || sudo=sudo
	echo "report-screenshot: installing chromium (apt-get)" >&2
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
	browser=$(command -v chromium)
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
# --enable-logging=stderr --v=0 makes Chromium print every console message as
# "...:CONSOLE(line)] "text", source: ..." on stderr.
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
	--enable-logging=stderr --v=0 --window-size="${SHOT_SIZE:-1280,3200}" \
	--screenshot="$(realpath -m "$out")" "file://$html" > /dev/null 2> "$log" || {
	cat "$log" >&2; echo "report-screenshot: chromium failed" >&2; exit 1; }
errors=$(grep -E ':CONSOLE\(|Uncaught|ERR_[A-Z_]+|Failed to load|Not allowed to load' "$log" || true)
if [ -n "$errors" ]; then
	echo "report-screenshot: the page logged errors:" >&2
	echo "$errors" >&2
	exit 1
fi
[ -s "$out" ] || { echo "report-screenshot: no screenshot written to $out" >&2; exit 1; }
echo "report-screenshot: $html opened without console errors; screenshot $out ($(stat -c %s "$out") bytes)"
