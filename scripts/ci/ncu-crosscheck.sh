#!/usr/bin/env bash
#
# ncu-crosscheck.sh
#	Cross-check tcprobe's CUPTI counters for one probe point against Nsight
#	Compute reading the same metrics.
#
#	1. `tcprobe run` of the point with --counters default (or --counters LIST):
#	   its cupti/<metric> rows are the counter pass (one run() of the probe).
#	2. `ncu --clock-control none --metrics <the same names>` on a second
#	   `tcprobe run` of the point (--counters none, --warmup 0, --reps 1):
#	   the last K kernels ncu profiled are that run's last run() (teardown
#	   launches nothing).  K = --kernels (default 1: run() launches one kernel).
#	3. Both side by side with ncu/tcprobe ratios; exit 0 when every metric
#	   agrees within --tol percent (default 1), 1 otherwise.
#
#	usage: scripts/ci/ncu-crosscheck.sh [--ncu PATH] [--kernels K] [--tol PCT]
#	           [--counters LIST] [--keep] BINARY PROBE [AXIS=VALUES ...]
#	e.g.   scripts/ci/ncu-crosscheck.sh build/tcprobe wgmma_tput N=256 kind=f16
#	exit:  0 agree, 1 disagree, 2 usage, 3 a run or a tool failed
set -euo pipefail

die() { echo "ncu-crosscheck: $2" >&2; exit "$1"; }

ncu="${NCU:-}"
kernels=1
tol=1
counters=default
keep=0
while [[ $# -gt 0 && "$1" == --* ]]; do
	case "$1" in
	--ncu) ncu="${2:?}"; shift 2 ;;
	--kernels) kernels="${2:?}"; shift 2 ;;
	--tol) tol="${2:?}"; shift 2 ;;
	--counters) counters="${2:?}"; shift 2 ;;
	--keep) keep=1; shift ;;
	--help|-h) sed -n '3,20p' "$0" | sed 's/^#\t\{0,1\}//'; exit 0 ;;
	*) die 2 "unknown option '$1' (legal: --ncu PATH, --kernels K, --tol PCT, --counters LIST, --keep)" ;;
	esac
done
[[ $# -ge 2 ]] || die 2 "need BINARY and PROBE (see --help)"
bin="$1"; probe="$2"; shift 2
[[ -x "$bin" ]] || die 2 "binary '$bin' is not executable"
[[ "$kernels" =~ ^[1-9][0-9]*$ ]] || die 2 "--kernels: got '$kernels', expected an integer >= 1"
[[ "$tol" =~ ^[0-9]+([.][0-9]+)?$ ]] || die 2 "--tol: got '$tol', expected a percentage >= 0"
[[ "$counters" != none ]] || die 2 "--counters: got 'none', expected default or a metric list"
sets=()
for a in "$@"; do
	[[ "$a" == *=* ]] || die 2 "axis setting: got '$a', expected AXIS=VALUES"
	sets+=(-a "$a")
done

if [[ -z "$ncu" ]]; then
	ncu="$(command -v ncu || true)"
	for c in "${CUDA_HOME:-/usr/local/cuda}/bin/ncu" /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu; do
		[[ -z "$ncu" && -x "$c" ]] && ncu="$c"
	done
fi
[[ -n "$ncu" && -x "$ncu" ]] || die 3 "ncu not found: install Nsight Compute, or pass --ncu PATH / NCU=PATH"
command -v python3 >/dev/null || die 3 "python3 is needed to read the CSVs"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/ncu-crosscheck.XXXXXX")"
[[ $keep == 1 ]] || trap 'rm -rf "$tmp"' EXIT

# 1. tcprobe's own counter pass
echo "== tcprobe run -p $probe ${*:-} --counters $counters" >&2
"$bin" run -q -p "$probe" "${sets[@]}" --counters "$counters" -o "$tmp/tcprobe" >&2 ||
	die 3 "tcprobe run failed (see above)"

# the counter rows as tcprobe reads the run (`tcprobe query`), not parsed from its files here
npts=$("$bin" query "$tmp/tcprobe" --summary | sed -n 's/^points,//p')
[ "$npts" = 1 ] || die 3 "$npts points ran, expected 1: set every axis to one value"
"$bin" query "$tmp/tcprobe" --metric 'cupti/*' --cols metric,median,unit,status,reason > "$tmp/tcprobe-cupti.csv" ||
	die 3 "tcprobe query failed"
metrics="$(python3 - "$tmp/tcprobe-cupti.csv" <<'EOF'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline=""))
        if not r["metric"].startswith("cupti/check/")]
names = [r["metric"][6:] for r in rows]
bad = [r for r in rows if r["status"] != "OK"]
if bad:
    sys.exit("ncu-crosscheck: tcprobe's counters are NA: " + bad[0]["reason"])
if not names:
    sys.exit("ncu-crosscheck: no cupti/ rows: counters off?")
print(",".join(names))
EOF
)" || exit 3

# 2. ncu on a second run of the same point, tcprobe's own counters off
echo "== $ncu --clock-control none --metrics $metrics" >&2
"$ncu" --clock-control none --target-processes all --csv --print-units base \
	--metrics "$metrics" --log-file "$tmp/ncu.csv" \
	"$bin" run -q -p "$probe" "${sets[@]}" --counters none --warmup 0 --reps 1 \
	-o "$tmp/ncu-run" >&2 || die 3 "ncu run failed (log: $tmp/ncu.csv; --keep keeps it)"

# 3. side by side
python3 - "$tmp/tcprobe-cupti.csv" "$tmp/ncu.csv" "$kernels" "$tol" <<'EOF'
import csv, math, sys

tcp_csv, ncu_csv, K, tol = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
BYTES_FLOOR = 4 * 1024 * 1024
tcp = {}
for r in csv.DictReader(open(tcp_csv, newline="")):	# `tcprobe query --metric 'cupti/*'`
    if not r["metric"].startswith("cupti/check/"):
        tcp[r["metric"][6:]] = (float(r["median"]), r["unit"])

# ncu --csv: one row per (kernel, metric): "ID", ..., "Metric Name", "Metric Unit",
# "Metric Value"; ncu's own log lines (==PROF==) come before the header.
lines = open(ncu_csv, newline="").read().splitlines()
start = next((i for i, l in enumerate(lines) if l.startswith('"ID"')), None)
if start is None:
    sys.exit("ncu-crosscheck: no CSV table in ncu's output:\n" + "\n".join(lines[-20:]))
by_id = {}
for r in csv.DictReader(lines[start:]):
    if not r.get("ID", "").isdigit():
        continue
    v = r["Metric Value"].replace(",", "")
    try:
        by_id.setdefault(int(r["ID"]), {})[r["Metric Name"]] = (float(v), r["Metric Unit"])
    except ValueError:
        pass
ids = sorted(by_id)
if len(ids) < K:
    sys.exit(f"ncu-crosscheck: ncu profiled {len(ids)} kernels, expected at least {K}")
last = [by_id[i] for i in ids[-K:]]

SCALE = {  # ncu base-unit name -> factor to the tcprobe CSV unit
    ("nsecond", "ns"): 1, ("usecond", "ns"): 1e3, ("msecond", "ns"): 1e6, ("second", "ns"): 1e9,
    ("cycle/second", "MHz"): 1e-6, ("hz", "MHz"): 1e-6, ("khz", "MHz"): 1e-3, ("mhz", "MHz"): 1,
    ("ghz", "MHz"): 1e3, ("cycle/nsecond", "MHz"): 1e3, ("cycle/usecond", "MHz"): 1,
    ("byte", "B"): 1, ("kbyte", "B"): 1e3, ("mbyte", "B"): 1e6, ("gbyte", "B"): 1e9,
}
def rate(name):
    return any(s in name for s in ("per_second", ".pct", ".ratio", "per_cycle", "peak_"))

worst, rc = 0.0, 0
print(f"{'metric':44} {'unit':8} {'tcprobe':>16} {'ncu':>16} {'ncu/tcprobe':>12}")
for name, (tv, unit) in tcp.items():
    vals = [k.get(name) for k in last]
    if any(v is None for v in vals):
        print(f"{name:44} {unit:8} {tv:16.6g} {'missing':>16}")
        rc = 1
        continue
    f = SCALE.get((vals[0][1].lower(), unit), 1)
    if rate(name):  # kernels weighted by duration, as tcprobe does
        w = [k.get("gpu__time_duration.sum", (1, ""))[0] for k in last]
        nv = sum(v[0] * wi for v, wi in zip(vals, w)) / sum(w) * f
    else:
        nv = sum(v[0] for v in vals) * f
    ratio = nv / tv if tv else (1.0 if nv == 0 else math.inf)
    off = abs(ratio - 1) * 100
    # A kernel that keeps its operands in shared memory moves almost nothing
    # through DRAM: what the counters see below the floor is write-back and
    # eviction of the previous kernel's lines, which differs from run to run.
    if name.startswith("dram__bytes") and max(tv, nv) < BYTES_FLOOR:
        print(f"{name:44} {unit:8} {tv:16.6g} {nv:16.6g} {ratio:12.5f}  (both < {BYTES_FLOOR:.0f} B: not the kernel's traffic, not compared)")
        continue
    worst = max(worst, off)
    flag = "" if off <= tol else "  <-- off by %.2f%%" % off
    rc |= off > tol
    print(f"{name:44} {unit:8} {tv:16.6g} {nv:16.6g} {ratio:12.5f}{flag}")
print(f"# {len(tcp)} metrics, last {K} kernel(s) of {len(ids)} profiled; worst {worst:.3f}% "
      f"(tolerance {tol}%): {'AGREE' if rc == 0 else 'DISAGREE'}")
sys.exit(rc)
EOF
