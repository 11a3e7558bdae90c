#!/usr/bin/env bash
# links-check.sh: the user documents hold together.  Every relative link and image in
# README.md and docs/*.md (markdown `[text](target)`, `![alt](target)` and HTML
# `<img src="target">`) resolves, from the file that holds it, to a file or directory
# git tracks; a `#anchor` is dropped, absolute URLs (scheme:) and in-page `#...` links are
# not checked.  Links inside fenced code blocks and `inline code` are text, not links.
# README.md is at most README_MAX_LINES (150) lines.  Outside a git checkout, any existing
# path counts as tracked.  `make test` runs it.
#
#   tests/links-check.sh [FILE.md ...]     (default: README.md docs/*.md)
set -euo pipefail
cd "$(dirname "$0")/.."
max=${README_MAX_LINES:-150}
[ $# -gt 0 ] || set -- README.md docs/*.md

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	tracked=$(mktemp)
	trap 'rm -f "$tracked"' EXIT
	# every tracked file, and every directory above one
	git ls-files | awk '{ print; while (sub(/\/[^\/]*$/, "")) print }' | sort -u > "$tracked"
	is_tracked() { [ -e "$1" ] && grep -qxF -- "$1" "$tracked"; }
else
	is_tracked() { [ -e "$1" ]; }
fi

fail=0 n=0
for md in "$@"; do
	dir=$(dirname "$md")
	# file:line<TAB>target for every link outside code
	while IFS=$'\t' read -r where target; do
		n=$((n + 1))
		path=${target%%#*}
		[ -n "$path" ] || continue
		resolved=$(realpath -m --relative-to=. "$dir/$path")
		if ! is_tracked "$resolved"; then
			echo "links-check: FAIL $where: $target: no tracked file $resolved" >&2
			fail=1
		fi
	done < <(awk -v f="$md" '
		/^[ \t]*```/ { code = !code; next }
		code { next }
		{
			line = $0
			gsub(/`[^`]*`/, "", line)
			while (match(line, /\]\([^) \t]+\)/)) {
				t = substr(line, RSTART + 2, RLENGTH - 3)
				line = substr(line, RSTART + RLENGTH)
				if (t !~ /^[a-zA-Z][a-zA-Z0-9+.-]*:/ && t !~ /^#/) print f ":" NR "\t" t
			}
			line = $0
			while (match(line, /src="[^"]+"/)) {
				t = substr(line, RSTART + 5, RLENGTH - 6)
				line = substr(line, RSTART + RLENGTH)
				if (t !~ /^[a-zA-Z][a-zA-Z0-9+.-]*:/) print f ":" NR "\t" t
			}
		}' "$md")
done

lines=$(wc -l < README.md)
if [ "$lines" -gt "$max" ]; then
	echo "links-check: FAIL README.md is $lines lines, over $max (move detail into docs/)" >&2
	fail=1
fi
[ "$fail" = 0 ] || exit 1
echo "links-check: $n relative links and images in $# files resolve to tracked files; README.md $lines lines (at most $max)"
