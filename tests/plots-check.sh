#!/usr/bin/env bash
# plots-check.sh: render every plot of a committed results directory and check each
# image: PNG = PNG signature + IHDR chunk with a plausible width and height, SVG = XML
# whose root element is <svg> with drawing in it; both of plausible file size; the
# provenance footer drawn, every footer line wrapped to the canvas (none runs past its
# right edge) and the plot's footnote drawn whole.  A plot drawn one image per panel
# (tput-vs-n, lat-vs-n: one per kind; compare-ratio: one per probe) has one image per
# panel of its data, each printable at its own size on a report page (at most 703 px
# wide) with no text under 9 pt (12 px in the SVG).  The data files: a latency series
# of fewer than 3 N is not fitted; a 16-bit accumulator's bandwidth is rate / (K/2); the
# B300 K=96 figure is an estimate; the ratio plot holds every row of the run's
# compare.csv that has a verdict on numbers, in its probe's facet.  Also writes the
# report and checks that report.html inlines every PNG that was drawn.
# `make test` runs it (target plots-check).  The run directory is ONE variable:
RUN_DIR=${PLOTS_CHECK_RUN:-results/2026-11-29-NVIDIA_H200-580.159.04-vm-4}	# a committed H200 run
# (set it to the committed H200 run once there is one; the synthetic fixture holds
# every probe the plots read so that every script is exercised).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
tcprobe=${TCPROBE:-build/tcprobe}
[ -f "$RUN_DIR/measurements.csv" ] || [ -f "$RUN_DIR/measurements.csv.gz" ] ||
	{ echo "plots-check: $RUN_DIR/measurements.csv (or .gz) missing" >&2; exit 2; }

# render into a copy: the committed directory stays untouched
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run=$tmp/$(basename "$RUN_DIR")
cp -r "$RUN_DIR" "$run"
rm -f "$run"/*.png "$run"/*.svg "$run"/report.md "$run"/report.html

start=$(date +%s)
TCPROBE=$tcprobe scripts/plots.sh "$run" > "$tmp/plots.log" || { cat "$tmp/plots.log"; exit 1; }
secs=$(( $(date +%s) - start ))
mkdir "$tmp/x"
"$tcprobe" report --extract "$tmp/x" "$run" > /dev/null

fail=0 drawn=0
bad() { echo "plots-check: FAIL $*" >&2; fail=1; }
while IFS=$'\t' read -r stem has note images; do
	if [ "$has" != 1 ]; then
		[ ! -e "$run/$stem.png" ] || bad "$stem.png drawn although the run has no data for it"
		echo "  $stem: no data ($note)"
		continue
	fi
	per_panel=0
	if [ -n "$images" ]; then
		per_panel=1
		n=$(wc -w <<< "$images")
		# one image per panel of the data: NP panels (x-vs-y plots), NF facets + the strip (compare-ratio)
		want=$(awk -F' = ' '$1 == "NP" { np = $2 } $1 == "NF" { nf = $2 } $1 == "NSR" { ns = $2 }
			END { print np != "" ? np : nf + (ns > 0) }' "$tmp/x/$stem.gpvars")
		[ "$n" = "$want" ] || bad "$stem: $n images for $want panels"
		[ ! -e "$run/$stem.png" ] || bad "$stem.png: a plot of one image per panel left its grid image"
	else
		images=$stem
	fi
	for image in $images; do
	drawn=$((drawn + 1))
	python3 - "$run/$image.png" "$run/$image.svg" "$tmp/x/footer.gpvars" "$tmp/x/$stem.gpvars" $per_panel <<'EOF' || fail=1
import re, struct, sys, xml.etree.ElementTree as ET
png, svg, footer_vars, plot_vars, per_panel = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5] == "1"
def bad(msg):
    print(f"plots-check: FAIL {msg}", file=sys.stderr); sys.exit(1)
try:
    b = open(png, "rb").read()
except OSError as e:
    bad(f"{png}: {e.strerror}")
if b[:8] != b"\x89PNG\r\n\x1a\n": bad(f"{png}: no PNG signature")
if b[12:16] != b"IHDR": bad(f"{png}: first chunk is not IHDR")
w, h = struct.unpack(">II", b[16:24])
if not (300 <= w <= 8000 and 200 <= h <= 8000): bad(f"{png}: implausible size {w}x{h}")
if not (8000 <= len(b) <= 20_000_000): bad(f"{png}: implausible file size {len(b)} bytes")
if b[-12:-8] != b"\x00\x00\x00\x00" or b[-8:-4] != b"IEND": bad(f"{png}: no IEND chunk (truncated)")
try:
    root = ET.parse(svg).getroot()
except (OSError, ET.ParseError) as e:
    bad(f"{svg}: not well-formed XML ({e})")
if root.tag not in ("svg", "{http://www.w3.org/2000/svg}svg"): bad(f"{svg}: root element is <{root.tag}>, not <svg>")
n = sum(1 for _ in root.iter())
size = len(open(svg, "rb").read())
if n < 50 or not (5000 <= size <= 50_000_000): bad(f"{svg}: implausible ({n} elements, {size} bytes)")
# the provenance footer (plots/footer.gnuplot): drawn in the plot and in the SVG's title and desc
footer = re.search(r'^footer = "(.*)"$', open(footer_vars).read(), re.M).group(1)
head = footer.split(" | run ")[0]
texts = "\n".join("".join(e.itertext()) for e in root.iter() if e.tag.endswith("text"))
if head not in texts: bad(f"{svg}: the footer '{head}' is not drawn")
title = "".join(e.text or "" for e in root if e.tag.endswith("title"))
desc = "".join(e.text or "" for e in root if e.tag.endswith("desc"))
if footer not in title or footer not in desc: bad(f"{svg}: <title>/<desc> lack the footer ({title!r})")
# the footer's lines (grey #555555, footer.gnuplot): each fits the canvas (wrapped at a
# space, at most 0.62 em a character), and together they hold the whole footnote
width = float(root.get("viewBox").split()[2])
groups = [g for g in root.iter() if g.tag.endswith("g") and (g.get("fill") or "").replace(" ", "") == "rgb(85,85,85)"]
lines = ["".join(e.itertext()) for g in groups for e in g if e.tag.endswith("text")]
for g in groups:
    fs = float(g.get("font-size"))
    for e in g:
        t = "".join(e.itertext())
        if e.tag.endswith("text") and len(t) * 0.62 * fs > width - 8:
            bad(f"{svg}: footer line runs past the canvas ({len(t)} characters at {fs:g} px, {width:g} px wide): {t!r}")
m = re.search(r'^footnote = "(.*)"$', open(plot_vars).read(), re.M)
note = " ".join(m.group(1).split()) if m else ""
if note and note not in " ".join(" ".join(lines).split()):
    bad(f"{svg}: the footnote is not drawn whole: {note!r}")
# an image of one panel prints at its own size on a report page: 186 mm = 703 px at 96 dpi,
# where 9 pt = 12 px; every font in its SVG (the same sizes in px) at least that
if per_panel:
    if w > 703: bad(f"{png}: {w} px wide, over the 703 px a report page prints at its own size")
    small = sorted({float(e.get("font-size")) for e in root.iter() if e.get("font-size") and float(e.get("font-size")) < 12})
    if small: bad(f"{svg}: text under 9 pt (12 px): font sizes {small}")
print(f"  {png.rsplit('/', 1)[1]}: PNG {w}x{h} {len(b)} B; SVG {n} elements {size} B")
EOF
	done
done < "$tmp/x/manifest.tsv"

# lat-vs-n: no fit through fewer than 3 points; a fitted segment holds the points it says
if [ -f "$tmp/x/lat-vs-n.gpvars" ]; then
python3 - "$tmp/x/lat-vs-n.dat" "$tmp/x/lat-vs-n.gpvars" <<'EOF' || fail=1
import re, sys
blocks = open(sys.argv[1]).read().split("\n\n\n")
xs = [[float(l.split("\t")[0]) for l in b.splitlines() if l and not l.startswith("#") and not l.startswith("x\t")]
      for b in blocks]
v = {k: float(x) for k, x in re.findall(r'(f\w+\[\d+\]) = (-?[\d.e+-]+|nan)', open(sys.argv[2]).read())}
fitted = 0
for i, x in enumerate(xs, 1):
    fn, fn2 = v[f"fn[{i}]"], v[f"fn2[{i}]"]
    if len(x) < 3 and (fn or fn2):
        sys.exit(f"plots-check: FAIL lat-vs-n series {i}: {len(x)} points, fitted (n {fn:g})")
    if fn and (fn < 3 or fn != sum(v[f"fx0[{i}]"] <= a <= v[f"fx1[{i}]"] for a in x)):
        sys.exit(f"plots-check: FAIL lat-vs-n series {i}: first segment n {fn:g} does not match its range")
    if fn2 and (fn2 < 3 or fn2 != sum(v[f"fbrk[{i}]"] <= a <= v[f"fx2[{i}]"] for a in x)):
        sys.exit(f"plots-check: FAIL lat-vs-n series {i}: second segment n {fn2:g} does not match its range")
    fitted += fn > 0
print(f"  lat-vs-n: {fitted} of {len(xs)} series fitted, none below 3 points")
EOF
fi

# acc-bandwidth: a 16-bit accumulator's bandwidth is rate / (K/2), a 32-bit one's rate / (K/4);
# B300 K=96 is an estimate unless measured
python3 - "$tmp/x/acc-bandwidth.dat" <<'EOF' || fail=1
import sys
lines = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if not l.startswith("#") and l.strip()]
rows = [dict(zip(lines[0], l)) for l in lines[1:]]
n16 = 0
for r in rows:
    k, bits, rate = int(r["mma_k"]), int(r["acc_bits"]), float(r["rate"])
    per_byte = k / (2 if bits == 16 else 4)
    if float(r["flop_per_acc_byte"]) != per_byte or abs(float(r["acc_bw"]) - rate / per_byte) > 1e-9 * rate:
        sys.exit(f"plots-check: FAIL acc-bandwidth.dat {r['label']}: {bits}-bit accumulator, acc_bw {r['acc_bw']} is not rate / {per_byte:g}")
    n16 += bits == 16
b300 = [r for r in rows if r["label"].startswith("B300")]
if len(b300) != 1 or b300[0]["source"] not in ("estimate", "measured"):
    sys.exit(f"plots-check: FAIL acc-bandwidth.dat: the B300 K=96 row is not marked an estimate ({b300})")
print(f"  acc-bandwidth.dat: {len(rows)} bars, {n16} of 16-bit accumulators at rate / (K/2); B300 {b300[0]['source']}")
EOF

# compare-ratio: every row of the run's compare.csv with a verdict on numbers, in its probe's facet
if [ -f "$run/compare.csv" ] && [ -f "$tmp/x/compare-ratio.dat" ]; then
python3 - "$run/compare.csv" "$tmp/x/compare-ratio.dat" <<'EOF' || fail=1
import csv, sys
want = {}
for r in csv.DictReader(open(sys.argv[1])):
    if r["verdict"] in ("same", "faster", "slower", "changed"):
        want[(r["probe"], r["axes"], r["metric"])] = r["verdict"]
got = {}
for l in open(sys.argv[2]):
    f = l.rstrip("\n").split("\t")
    if len(f) == 18 and f[0] != "facet":
        got[(f[0], f[3], f[2])] = f[9]
if got != want:
    miss = [k for k in want if got.get(k) != want[k]][:3]
    sys.exit(f"plots-check: FAIL compare-ratio.dat holds {len(got)} verdict rows, compare.csv {len(want)} (e.g. {miss})")
print(f"  compare-ratio.dat: all {len(want)} verdict rows of compare.csv, each in its probe's facet")
EOF
fi

# the K/4 plot's numbers are the model's own table (`tcprobe k4 --csv`), row for row
"$tcprobe" k4 --csv > "$tmp/k4.csv"
python3 - "$tmp/k4.csv" "$tmp/x/k4-identity.dat" <<'EOF' || fail=1
import csv, sys
k4 = {(r["gen"], r["kind"]): r for r in csv.DictReader(open(sys.argv[1]))}
lines = [l.rstrip("\n").split("\t") for l in open(sys.argv[2]) if not l.startswith("#") and l.strip()]
rows = [dict(zip(lines[0], l)) for l in lines[1:]]
if len(rows) != len(k4):
    sys.exit(f"plots-check: FAIL k4-identity.dat has {len(rows)} kinds, tcprobe k4 --csv {len(k4)}")
for r in rows:
    m = k4.get((r["gen"], r["kind"]))
    if not m or int(m["mma_k"]) != int(r["mma_k"]) or float(m["flop_per_acc_byte"]) != float(r["flop_per_acc_byte"]) \
       or float(m["flop_clk_sm"]) != float(r["peak"]):
        sys.exit(f"plots-check: FAIL k4-identity.dat row {r['label']} disagrees with tcprobe k4 --csv ({m})")
print(f"  k4-identity.dat: {len(rows)} kinds agree with tcprobe k4 --csv")
EOF

# the TMEM budget's accumulator-only panel is the model's own grid (`tcprobe tmem_plan --all --csv`)
# (the command is tmem_plan in the table; tmem-plan is accepted if it gets that spelling)
"$tcprobe" tmem-plan --all --csv > "$tmp/tmem-plan.csv" 2> /dev/null ||
	"$tcprobe" tmem_plan --all --csv > "$tmp/tmem-plan.csv"
python3 - "$tmp/tmem-plan.csv" "$tmp/x/tmem-budget.dat" <<'EOF' || fail=1
import csv, sys
plan = {f"{r['m']}x{r['n']} s{r['stages']}": r for r in csv.DictReader(open(sys.argv[1]))}
block = open(sys.argv[2]).read().split("\n\n\n")[0]
lines = [l.split("\t") for l in block.splitlines() if l and not l.startswith("#")]
rows = [dict(zip(lines[0], l)) for l in lines[1:]]
if len(rows) != len(plan):
    sys.exit(f"plots-check: FAIL tmem-budget.dat has {len(rows)} tiles, tcprobe tmem_plan --all {len(plan)}")
for r in rows:
    m = plan.get(r["label"])
    if not m or (int(m["columns"]), int(m["alloc"]), int(m["fits"])) != (int(r["total"]), int(r["alloc"]), int(r["fits"])):
        sys.exit(f"plots-check: FAIL tmem-budget.dat {r['label']} disagrees with tcprobe tmem_plan --all ({m})")
print(f"  tmem-budget.dat: {len(rows)} tiles agree with tcprobe tmem_plan --all --csv")
EOF

"$tcprobe" report --no-plots "$run" > /dev/null
imgs=$(grep -o 'src="data:image/png;base64,' "$run/report.html" | wc -l)
[ "$imgs" = "$drawn" ] || bad "report.html inlines $imgs PNGs, expected $drawn"
grep -q '^<!DOCTYPE html>' "$run/report.html" && grep -q '</html>' "$run/report.html" || bad "report.html incomplete"
[ "$secs" -lt 30 ] || bad "rendering took ${secs}s (limit 30 s)"
[ "$drawn" -gt 0 ] || bad "no plot drawn from $RUN_DIR"
[ $fail = 0 ] || exit 1
echo "plots-check: $drawn images from $RUN_DIR valid (PNG + SVG), report.html inlines $imgs, rendered in ${secs}s"
