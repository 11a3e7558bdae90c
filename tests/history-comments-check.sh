#!/usr/bin/env bash
# history-comments-check.sh [ROOT]: comments in harness/, probes/ and model/ say what is
# and why, in the present tense; the project's history lives in commit bodies.  Fails,
# naming file, line and pattern, on a comment (a /* */ or // comment of a .c, .h, .cu,
# .cuh or .cc file, or any line of another file, README.md included) that holds
#   - "issue N" or "issue #N" (any case): the project's own tracker;
#   - a commit hash: 7 to 40 hex digits with at least one letter and one digit, not
#     part of a longer word or a hyphenated name (run ids, results/ directories);
#   - a phrase that tells a timeline: "as before", "no longer", "any more", "anymore",
#     "previously", "formerly", "until now", "for now", "now that", "than before",
#     "is now", "are now".  ("again" and "now" alone are not matched: "the supervisor
#     runs them again" and a variable called `now` say what is.)
# Allowed: other projects' trackers and commits, written owner/repo#N and
# owner/repo@COMMIT (NVIDIA/cutlass#3435, SemiAnalysisAI/microbench-blackwell@9a068d8).
# Without ROOT it first proves itself on a planted tree (each pattern must fail, the
# allowed citations must pass), then checks this checkout.  `make test` runs it.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)

check() {	# check ROOT: 0 when clean, 1 with one line per hit on stdout
	python3 - "$1" <<'EOF'
import os, re, sys
root = sys.argv[1]
issue = re.compile(r'\bissue\s+#?[0-9]', re.I)
hexh = re.compile(r'(?<![0-9A-Za-z_@/#-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}(?![0-9A-Za-z_-])')
phrases = re.compile(r'\b(as before|no longer|any ?more|previously|formerly|until now|for now|now that|than before|is now|are now)\b', re.I)
cite = re.compile(r'[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+(#[0-9]+|@[0-9a-f]{7,40})\b')
cext = ('.c', '.h', '.cu', '.cuh', '.cc')

def comments(text):
    """(line, text) of every comment of a C-family file; strings and chars skipped."""
    out, i, n, line = [], 0, len(text), 1
    while i < n:
        c = text[i]
        if c == '\n':
            line += 1; i += 1
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            for k, part in enumerate(text[i:j].split('\n')):
                out.append((line + k, part))
            line += text.count('\n', i, j); i = j
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append((line, text[i:j])); i = j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            i = j + 1
        else:
            i += 1
    return out

bad = 0
for top in ('harness', 'probes', 'model'):
    for d, _, files in sorted(os.walk(os.path.join(root, top))):
        for f in sorted(files):
            p = os.path.join(d, f)
            try:
                text = open(p, encoding='utf-8', errors='replace').read()
            except OSError:
                continue
            lines = comments(text) if f.endswith(cext) else list(enumerate(text.split('\n'), 1))
            for ln, t in lines:
                t = cite.sub('CITATION', t)
                for what, rx in (('issue number', issue), ('commit hash', hexh), ('timeline phrase', phrases)):
                    m = rx.search(t)
                    if m:
                        print(f"{os.path.relpath(p, root)}:{ln}: {what} '{m.group(0)}': {t.strip()[:100]}")
                        bad = 1
sys.exit(bad)
EOF
}

if [ $# -gt 0 ]; then
	check "$1"
	exit
fi

# The check proves itself: every planted pattern fails, the citations pass.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/harness" "$tmp/probes" "$tmp/model"
plant() {	# plant FILE TEXT EXPECT(0|1)
	rm -rf "$tmp"/harness/* "$tmp"/probes/* "$tmp"/model/*
	printf '%s\n' "$2" > "$tmp/$1"
	local rc=0 out
	out=$(check "$tmp") || rc=$?
	if [ "$rc" != "$3" ]; then
		echo "history-comments-check: FAIL the check itself: $1 '$2' gave $rc, expected $3${out:+: $out}" >&2
		exit 1
	fi
}
plant harness/a.c '/* counter batches (issue 21) */' 1
plant probes/b.cuh 'int x; // see Issue #16 defect 4' 1
plant model/c.h '/* measured at 289726b on an H200 */' 1
plant harness/d.c '/* one point per pass, as before */' 1
plant harness/e.h '/* this is no longer needed */' 1
plant harness/README.md 'Batches (issue 21) cost less.' 1
plant probes/f.cu $'/*\n * a window (issue 17 item 4)\n */' 1
plant harness/g.c '/* a pair meets (NVIDIA/cutlass#3435) */' 0
plant probes/h.cu '/* SemiAnalysisAI/microbench-blackwell@9a068d8 fits */' 0
plant harness/i.c 'const char *s = "issue 5"; /* a string, not a comment */' 0
plant harness/j.h '/* run id "20261202T074305Z-b1f238da"; 0x1234abcd; 1048576.0 */' 0
plant harness/k.c '/* the supervisor runs them again; double now = 0; */' 0
echo "history-comments-check: the check catches 7 planted comments and passes 5 clean ones"

if out=$(check "$here"); then
	echo "history-comments-check: OK: no issue number, commit hash or timeline phrase in the comments of harness/ probes/ model/"
else
	echo "$out" >&2
	echo "history-comments-check: FAIL: $(echo "$out" | wc -l) comments tell history (say what is and why; other projects as owner/repo#N)" >&2
	exit 1
fi
