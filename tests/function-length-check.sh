#!/usr/bin/env bash
# function-length-check.sh: no function in harness/ is over 80 lines, signature to closing
# brace (docs/architecture.md, "Code size").  A function opens with `{` alone in column 0
# and closes with `}` in column 0 (the house style; a file that breaks it is reported);
# its signature starts at the last line before the `{` that begins in column 0 (not a
# comment, not a preprocessor line).  Lines counted as lizard counts a function's length.
#
#   tests/function-length-check.sh [DIR...]   (default: harness)
#   FUNCTION_MAX_LINES=N                       the limit (default 80)
#
# Prints each function over the limit as FILE:LINE: NAME is N lines, and exits 1 if any.
# `make check` runs it; it proves itself on a planted 81-line function first.
set -euo pipefail
cd "$(dirname "$0")/.."
max=${FUNCTION_MAX_LINES:-80}

scan() {
	awk -v max="$max" '
	FNR == 1 { sig = 0; open = 0 }
	/^[A-Za-z_]/ && !open { sig = FNR; sigtext = $0 }
	/^\{[ \t]*$/ && !open {
		if (!sig) { printf "%s:%d: a function brace with no signature before it\n", FILENAME, FNR; bad = 1 }
		open = 1; start = sig; name = sigtext
		sub(/\(.*/, "", name); n = split(name, w, /[ \t*]+/); name = w[n]
		next
	}
	/^\}/ && open {
		open = 0; len = FNR - start + 1
		if (len > max) { printf "%s:%d: %s is %d lines (at most %d)\n", FILENAME, start, name, len, max; bad = 1 }
		sig = 0
	}
	END { exit bad }' "$@"
}

# The check proves itself: a planted 81-line function fails it, an 80-line one passes.
plant=$(mktemp -d)
trap 'rm -rf "$plant"' EXIT
planted() {
	{
		echo "/* planted */"
		echo "static int"
		echo "planted_$1(int a,"
		echo "	int b)"
		echo "{"
		for ((i = 0; i < $1 - 5; i++)); do echo "	a += b;"; done
		echo "	return a;"
		echo "}"
	} > "$plant/p$1.c"
}
planted 80
planted 81
scan "$plant/p80.c" >/dev/null || { echo "function-length-check: an 80-line function failed the check" >&2; exit 2; }
if scan "$plant/p81.c" >/dev/null; then
	echo "function-length-check: a planted 81-line function passed the check" >&2
	exit 2
fi

dirs=("$@")
[ ${#dirs[@]} -gt 0 ] || dirs=(harness)
mapfile -d '' files < <(git ls-files -z -- "${dirs[@]/%//*.c}" "${dirs[@]/%//*.cc}" \
	"${dirs[@]/%//*.cu}" "${dirs[@]/%//*.h}" 2>/dev/null || find "${dirs[@]}" -type f \
	\( -name '*.c' -o -name '*.cc' -o -name '*.cu' -o -name '*.h' \) -print0)
if scan "${files[@]}"; then
	echo "function-length-check: ${#files[@]} files, no function over $max lines"
else
	echo "function-length-check: FAIL: the functions above are over $max lines" >&2
	exit 1
fi
