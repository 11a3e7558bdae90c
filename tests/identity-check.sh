#!/usr/bin/env bash
# identity-check.sh: the readers and the writer of runs behave byte for byte as they did
# at a base commit (default 9460e70, the last commit whose readers predate store/run.c).
#
#   tests/identity-check.sh [BASE_COMMIT]
#
# Both binaries get the SAME inputs: the committed results/ and tests/fixtures/ of this
# checkout, and for the base binary a copy in which every archived measurements.csv.gz /
# plan.txt.gz is inflated (the base cannot read .gz).  Compared, after running each binary:
#   - every run directory under results/ and tests/fixtures/: `tcprobe report --extract` (every .dat,
#     .gpvars, manifest.tsv) and `tcprobe report --no-plots` (report.md, report.html,
#     timer-compare.csv), stdout, stderr and exit status; the commit of the binary
#     that drew them (footers, the report's first lines) is blanked on both sides
#     (scripts/ci/drawing-commit.sed, as scripts/reports.sh --check blanks it);
#   - `tcprobe compare` of the committed comparisons (results/h200-compare/, the README's
#     example, the cupti-timer run against run 3, an N-way, --csv, --all, filters);
#   - `tcprobe fleet` on results/h200-fleet (report, fleet.csv, fleet-gpus.csv);
#   - a sweep of deterministic host-only probes (tests/identity/sweep-driver.c, built
#     against each tree's libtcprobe.a): measurements.csv (timestamps blanked), plan.txt,
#     the provenance keys, the dry-run plan, the end-of-sweep summary before and after a
#     cut file is resumed; and `tcprobe run --dry-run` of sweeps/*.sweep.
# Also: every run the README, docs/, the tests and results/reports.txt cite is here.
#
# Env: BASE_TREE  a checkout of BASE_COMMIT with build/tcprobe and build/libtcprobe.a
#                 (default: a temporary git worktree, built with make: slow)
#      KEEP=DIR   keep both output trees there (default: a temp dir, removed)
# Other issues change these outputs on purpose: after a rebase, pass the commit this
# change sits on as BASE_COMMIT to see this change alone.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
base_commit=${1:-9460e70}
new_tree=$here
work=${KEEP:-$(mktemp -d)}
mkdir -p "$work"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"; [ -z "${made_tree:-}" ] || git -C "$here" worktree remove --force "$made_tree"' EXIT
[ -x "$new_tree/build/tcprobe" ] && [ -f "$new_tree/build/libtcprobe.a" ] ||
	{ echo "identity-check: build this tree first (make build/tcprobe)" >&2; exit 2; }

if [ -z "${BASE_TREE:-}" ]; then
	made_tree=$work/base-tree
	git -C "$here" worktree add --detach "$made_tree" "$base_commit" >/dev/null
	make -C "$made_tree" -s -j"$(nproc)" build/tcprobe >/dev/null
	BASE_TREE=$made_tree
fi
[ -x "$BASE_TREE/build/tcprobe" ] && [ -f "$BASE_TREE/build/libtcprobe.a" ] ||
	{ echo "identity-check: $BASE_TREE has no build/tcprobe and build/libtcprobe.a" >&2; exit 2; }

# --- inputs: the committed results of this checkout, twice ---------------------------
for side in base new; do
	mkdir -p "$work/$side/root"
	git -C "$new_tree" ls-files -z results tests/fixtures | (cd "$new_tree" && tar --null -T - -cf -) |
		tar -x -C "$work/$side/root"
done
find "$work/base/root/results" "$work/base/root/tests/fixtures" \( -name measurements.csv.gz -o -name plan.txt.gz \) -exec gunzip {} +

# --- every run the README, docs/, the tests and the kept-report list cite is here ------
# A cited run is a path results/h200-... or results/20... (the two ways runs are named)
# in README.md, docs/*.md, tests/ (sources, scripts, aa-pairs.txt), the Makefile and
# results/reports.txt; it must exist as a directory or a file (plain or .gz).  Runs
# nothing cites may leave the tree (git history keeps them); a `git show C:results/...`
# cites history, a make target's default output directory is not a citation.
cite='results/(h200-[a-z0-9]|20[0-9]{2}-[0-9])[A-Za-z0-9_.*/-]*'
lost=0 kept=0
while read -r p; do
	while case $p in *[.,\;:\)\`\'\"]) true ;; *) false ;; esac; do p=${p%?}; done
	p=${p%/}
	case $p in *'*'*) compgen -G "$new_tree/$p" >/dev/null && { kept=$((kept + 1)); continue; } ;; esac
	if [ -e "$new_tree/$p" ] || [ -e "$new_tree/$p.gz" ]; then kept=$((kept + 1))
	else echo "identity-check: $p: cited, not in this tree" >&2; lost=1; fi
done < <(cd "$new_tree" && { grep -hE "$cite" README.md docs/*.md tests/*.c tests/*.sh tests/*.txt Makefile |
		grep -vE 'git show|\$\(OUT\)' | grep -oE "$cite"; sed 's/#.*//' results/reports.txt |
		awk 'NF >= 2 { print "results/" $2; for (i = 3; i <= NF; i++) if ($i ~ /^results\//) print $i }'; } | sort -u)

# --- one side's outputs --------------------------------------------------------------
record() {	# record SIDE BIN TREE
	local side=$1 bin=$2 tree=$3
	local out=$work/$side/out root=$work/$side/root
	mkdir -p "$out"
	cd "$root"
	run() {	# run NAME CMD...: stdout, stderr, exit status of one command
		local name=$1; shift
		local rc=0
		"$@" > "$out/$name.stdout" 2> "$out/$name.stderr" || rc=$?
		echo "$rc" > "$out/$name.rc"
	}
	local dirs
	dirs=$(find results tests/fixtures \( -name measurements.csv -o -name measurements.csv.gz \) -printf '%h\n' | sort)
	for d in $dirs; do
		local tag=${d//\//_}
		mkdir -p "$out/extract/$tag"
		run "extract-$tag" "$bin" report --extract "../out/extract/$tag" "$d"	# the same text on both sides
		run "report-$tag" "$bin" report --no-plots "$d"
		mkdir -p "$out/report/$tag"
		for f in report.md report.html timer-compare.csv; do
			[ ! -f "$d/$f" ] || cp "$d/$f" "$out/report/$tag/"
		done
	done
	local r=results/2026-11-29-NVIDIA_H200-580.159.04-vm
	run cmp-1-2 "$bin" compare "$r" "$r-2" --top 60
	run cmp-1-3 "$bin" compare "$r" "$r-3" --top 60
	run cmp-3-4 "$bin" compare "$r-3" "$r-4" --top 60
	run cmp-3-timer "$bin" compare "$r-3" results/h200-cupti-timer --top 60
	run cmp-readme "$bin" compare "$r" "$r-3" --metric flop_per_clk_sm --metric tflops --probe 'wgmma_*' --top 6
	run cmp-nway "$bin" compare "$r" "$r-2" "$r-3" "$r-4" --top 40
	run cmp-csv-1-3 "$bin" compare "$r" "$r-3" --csv "../out/cmp-1-3.csv"
	run cmp-csv-nway "$bin" compare "$r-3" "$r-4" results/h200-cupti-timer --csv "../out/cmp-nway.csv"
	run cmp-all-fleet "$bin" compare results/h200-fleet/GPU-0fc4d156-a226-fce9-2dc0-6e9bf98b10a7 \
		results/h200-fleet/GPU-9f6bfce4-08e9-5158-cfd1-c0b6fa35a447 --all --threshold 1
	run cmp-gpu0 "$bin" compare "$r" "$r-2" --gpu 0 --probe calib --top 10
	run cmp-pacing "$bin" compare results/h200-pacing/run results/h200-pacing/one-lane/run --all
	run cmp-energy "$bin" compare results/h200-energy results/h200-energy-sustain --top 20
	run cmp-missing "$bin" compare "$r" results/no-such-run
	run fleet "$bin" fleet --csv "../out/fleet.csv" results/h200-fleet
	run fleet-counters "$bin" fleet --with-counters --mad 1 --floor 0 --csv "../out/fleet-c.csv" results/h200-fleet
	run fleet-metric "$bin" fleet --metric launch_overhead_ns --no-csv results/h200-fleet
	for s in "$new_tree"/sweeps/*.sweep; do
		run "dry-$(basename "$s" .sweep)" "$bin" run --spec "$s" --dry-run
	done

	# the writer: deterministic host-only probes against this tree's library
	local sw=$work/$side/sweep
	mkdir -p "$sw"
	gcc -std=c11 -D_GNU_SOURCE -I"$tree" -I/usr/local/cuda/include -c "$here/tests/identity/sweep-driver.c" -o "$sw/driver.o"
	g++ -o "$sw/driver" "$sw/driver.o" "$tree/build/libtcprobe.a" -L/usr/local/cuda/lib64 -lcudart_static \
		-l:libcsv.a -l:libz.a -lm -ldl -lpthread -lrt
	(cd "$sw" && ./driver out > "$out/sweep.stdout" 2> "$out/sweep.stderr") || echo "rc $?" >> "$out/sweep.stdout"
	python3 - "$sw/out/run/measurements.csv" > "$out/sweep-measurements.csv" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
t = rows[0].index("timestamp")
w = csv.writer(sys.stdout, lineterminator="\n")
for i, r in enumerate(rows):
    if i:
        r[t] = "T"
    w.writerow(r)
EOF
	cp "$sw/out/run/plan.txt" "$out/sweep-plan.txt"
	cut -d, -f1 "$sw/out/run/provenance.csv" > "$out/sweep-provenance-keys.txt"
	sed -i 's/[0-9]\{4\}-[0-9-]*T[0-9:]*Z/T/g; s/[0-9.]* s\b/S s/g' "$out/sweep.stdout" "$out/sweep.stderr"
	cd "$here"
}

record base "$BASE_TREE/build/tcprobe" "$BASE_TREE"
record new "$new_tree/build/tcprobe" "$new_tree"
# the commit of the binary that drew a report or a plot footer is each side's own
find "$work/base/out" "$work/new/out" -type f -exec sed -i -E -f "$here/scripts/ci/drawing-commit.sed" {} +

n=$(find "$work/base/out" -type f | wc -l)
if diff -r "$work/base/out" "$work/new/out" > "$work/diff.txt"; then
	echo "identity-check: $n output files identical (base $base_commit vs this tree); the $kept runs cited are all here"
else
	echo "identity-check: FAIL: outputs differ from $base_commit (diff -r below; KEEP=DIR keeps both trees)" >&2
	head -c 20000 "$work/diff.txt" >&2
	exit 1
fi
[ "$lost" = 0 ] || { echo "identity-check: FAIL: committed data lost (above)" >&2; exit 1; }
