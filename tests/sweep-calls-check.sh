#!/usr/bin/env bash
# sweep-calls-check.sh [OBJDIR]: the files of harness/sweep/ call each other without a
# cycle (supervisor-int.h and worker-int.h list each file above the ones it calls).  From
# the objects (OBJDIR, default build/harness/sweep): file A calls file B when A leaves a
# symbol undefined that B defines (functions and data alike; static ones are a file's
# own); the edges are sorted topologically (tsort), and a loop fails, naming the files
# of the cycle.  It first proves itself on two planted objects that call each other.
# `make check` runs it.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
objdir=${1:-$here/build/harness/sweep}

edges() {	# edges DIR: "caller callee" per line, by file name
	local d=$1 o
	for o in "$d"/*.o; do
		nm --defined-only -g "$o" | awk -v f="$(basename "$o" .o)" 'NF >= 3 { print $3, f }'
	done > "$work/defs"
	for o in "$d"/*.o; do
		nm -u "$o" | awk -v f="$(basename "$o" .o)" '{ print $NF, f }'
	done > "$work/uses"
	# join on the symbol: "sym definer" x "sym user" -> "user definer"
	join <(sort "$work/defs") <(sort "$work/uses") | awk '$2 != $3 { print $3, $2 }' | sort -u
}

check() {	# check DIR: 0 when acyclic, 1 with the loop on stderr
	local e
	e=$(edges "$1")
	if ! printf '%s\n' "$e" | tsort > /dev/null 2> "$work/tsort.err"; then
		echo "sweep-calls-check: $1: the files call each other in a cycle:" >&2
		sed 's/^tsort: -: //' "$work/tsort.err" >&2
		return 1
	fi
	echo "$e" | grep -c . > "$work/nedges"
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# the check proves itself: a.c and b.c call each other
mkdir -p "$work/plant"
printf 'int b(int);\nint a(int x) { return x ? b(x - 1) : 0; }\n' > "$work/plant/a.c"
printf 'int a(int);\nint b(int x) { return x ? a(x - 1) : 1; }\n' > "$work/plant/b.c"
for f in a b; do cc -c "$work/plant/$f.c" -o "$work/plant/$f.o"; done
if check "$work/plant" 2> /dev/null; then
	echo "sweep-calls-check: FAIL: the planted cycle a <-> b was not found" >&2
	exit 1
fi

ls "$objdir"/*.o > /dev/null 2>&1 || { echo "sweep-calls-check: no objects in $objdir (build first)" >&2; exit 2; }
check "$objdir"
echo "sweep-calls-check: OK: $(ls "$objdir"/*.o | wc -l) files of harness/sweep, $(cat "$work/nedges") calls between them, no cycle"
