#!/usr/bin/env bash
#
# soak.sh
#	Long-run stability of a sweep on a real GPU (the H200): run the same sweep
#	again and again for MINUTES, each iteration a fresh `tcprobe run` into
#	OUT/iter-<n>/, and after each one record
#	  - host memory: peak VmRSS of the supervisor and of its worker(s), sampled
#	    from /proc every 0.5 s while the sweep runs;
#	  - device memory: nvidia-smi memory.used before the soak, peak during and
#	    left over after each iteration;
#	  - the point count and statuses of the iteration's measurements.csv.
#	Then OUT/soak.csv (one row per iteration), OUT/spread.csv (per point and
#	metric: the median of every iteration, min / median / max across them and
#	spread_pct = (max - min) / median x 100) and OUT/summary.txt.
#
#	Fails (exit 1) when
#	  - an iteration's point count or status counts differ from the first one,
#	  - host RSS grows: the peak supervisor or worker RSS of an iteration
#	    exceeds the largest peak of iterations 1-3 by more than
#	    --rss-tol-mib (default 16 MiB),
#	  - device memory grows: memory.used left after an iteration exceeds the
#	    level before the soak by more than --dev-tol-mib (default 64 MiB), or
#	    the peak during an iteration exceeds the first iteration's peak by
#	    more than that,
#	  - an iteration exits with a status other than 0.
#
#	usage: scripts/ci/soak.sh [--minutes M] [--spec FILE] [--gpu N] [--out DIR]
#	           [--rss-tol-mib X] [--dev-tol-mib Y] [-- extra tcprobe run options]
#	defaults: 20 minutes, sweeps/quick.sweep, GPU 0, results/soak-<date>-<host>
#	env:   TCPROBE (binary, default build/tcprobe), NVIDIA_SMI (default nvidia-smi)
#	exit:  0 stable, 1 growth / count change / a failed iteration, 2 usage,
#	       3 a tool is missing (nvidia-smi, python3)
set -uo pipefail

die() { echo "soak.sh: $2" >&2; exit "$1"; }

minutes=20
spec=sweeps/quick.sweep
gpu=0
out=
rss_tol=16
dev_tol=64
extra=()
tcprobe=${TCPROBE:-build/tcprobe}
smi=${NVIDIA_SMI:-nvidia-smi}

num() { [[ "$2" =~ ^[0-9]+([.][0-9]+)?$ ]] || die 2 "$1: got '$2', expected a number > 0"; }
while [ $# -gt 0 ]; do
	case "$1" in
	--minutes) num --minutes "${2:-}"; minutes=$2; shift 2 ;;
	--spec) [ -r "${2:-}" ] || die 2 "--spec: got '${2:-}', expected a readable sweep file"; spec=$2; shift 2 ;;
	--gpu) [[ "${2:-}" =~ ^[0-9]+$ ]] || die 2 "--gpu: got '${2:-}', expected a CUDA ordinal 0.."; gpu=$2; shift 2 ;;
	--out) [ -n "${2:-}" ] || die 2 "--out: got '', expected a directory"; out=$2; shift 2 ;;
	--rss-tol-mib) num --rss-tol-mib "${2:-}"; rss_tol=$2; shift 2 ;;
	--dev-tol-mib) num --dev-tol-mib "${2:-}"; dev_tol=$2; shift 2 ;;
	--) shift; extra=("$@"); break ;;
	-h|--help) sed -n '3,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die 2 "unknown argument: got '$1', expected --minutes, --spec, --gpu, --out, --rss-tol-mib, --dev-tol-mib or --" ;;
	esac
done
[ -x "$tcprobe" ] || die 2 "TCPROBE: got '$tcprobe', expected an executable (make first)"
command -v "$smi" >/dev/null || die 3 "nvidia-smi not found: got NVIDIA_SMI='$smi', expected the driver's nvidia-smi"
command -v python3 >/dev/null || die 3 "python3 not found: expected python3 for the CSV summaries"
[ -n "$out" ] || out=results/soak-$(date -u +%Y-%m-%d)-$(hostname -s)
[ -e "$out/soak.csv" ] && die 2 "--out: got '$out', expected a directory without a soak.csv"
mkdir -p "$out" || die 2 "--out: cannot create '$out'"

devmem() { "$smi" -i "$gpu" --query-gpu=memory.used --format=csv,noheader,nounits 2>/dev/null | head -1 | tr -d ' '; }

# Peak VmRSS (KiB) of pid and of its children while pid lives: "sup worker devpeak".
sample() {
	local pid=$1 sup=0 wrk=0 dpk=0 r c w d
	while kill -0 "$pid" 2>/dev/null; do
		r=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
		[ "${r:-0}" -gt "$sup" ] && sup=$r
		for c in $(cat /proc/"$pid"/task/*/children 2>/dev/null); do
			w=$(awk '/^VmRSS:/ {print $2}' "/proc/$c/status" 2>/dev/null || echo 0)
			[ "${w:-0}" -gt "$wrk" ] && wrk=$w
		done
		d=$(devmem); [ "${d:-0}" -gt "$dpk" ] 2>/dev/null && dpk=$d
		sleep 0.5
	done
	echo "$sup $wrk $dpk"
}

dev0=$(devmem)
[[ "$dev0" =~ ^[0-9]+$ ]] || die 3 "nvidia-smi -i $gpu --query-gpu=memory.used: got '$dev0', expected MiB"
echo "iter,start_utc,seconds,exit,points,statuses,sup_rss_peak_kib,worker_rss_peak_kib,dev_mem_before_mib,dev_mem_peak_mib,dev_mem_after_mib" > "$out/soak.csv"
echo "soak: $spec on GPU $gpu for $minutes min into $out (device memory before: $dev0 MiB)"
end=$(( $(date +%s) + $(printf '%.0f' "$(echo "$minutes * 60" | bc -l 2>/dev/null || echo $((minutes * 60)))") ))
i=0
while [ "$i" -eq 0 ] || [ "$(date +%s)" -lt "$end" ]; do
	i=$((i + 1))
	dir=$out/iter-$i
	before=$(devmem)
	t0=$(date +%s.%N); start=$(date -u +%Y-%m-%dT%H:%M:%SZ)
	"$tcprobe" run --spec "$spec" --gpu "$gpu" -q -o "$dir" "${extra[@]}" >/dev/null 2>"$out/iter-$i.stderr" &
	pid=$!
	read -r sup wrk dpk < <(sample "$pid")
	wait "$pid"; rc=$?
	secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')	# no bc on the GPU image
	after=$(devmem)
	# points and statuses as tcprobe reads the run (`tcprobe query --summary`)
	read -r npts stats < <("$tcprobe" query "$dir" --summary 2>/dev/null |
		awk -F, '$1 == "points" { p = $2 } $1 == "statuses" { s = $2 } END { print (p == "" ? 0 : p), (s == "" ? "none" : s) }')
	echo "$i,$start,$secs,$rc,$npts,$stats,$sup,$wrk,$before,$dpk,$after" >> "$out/soak.csv"
	echo "iter $i: exit $rc, $npts points ($stats), ${secs}s, RSS sup $((sup / 1024)) MiB worker $((wrk / 1024)) MiB, device $before -> peak $dpk -> $after MiB"
done

python3 - "$out" "$i" "$dev0" "$rss_tol" "$dev_tol" "$tcprobe" <<'PY'
import csv, statistics, subprocess, sys
out, n, dev0, rss_tol, dev_tol = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
tcprobe = sys.argv[6]
it = list(csv.DictReader(open(f'{out}/soak.csv', newline='')))
bad = []
first = it[0]
for r in it:
    k = r['iter']
    if r['exit'] != '0':
        bad.append(f"iteration {k}: tcprobe exited {r['exit']} (see iter-{k}.stderr)")
    if (r['points'], r['statuses']) != (first['points'], first['statuses']):
        bad.append(f"iteration {k}: {r['points']} points ({r['statuses']}), iteration 1 had {first['points']} ({first['statuses']})")
    for col, what in (('sup_rss_peak_kib', 'supervisor'), ('worker_rss_peak_kib', 'worker')):
        # baseline: the largest peak of the first three iterations (0.5 s sampling)
        g = (int(r[col]) - max(int(x[col]) for x in it[:3])) / 1024
        if g > rss_tol:
            bad.append(f"iteration {k}: {what} peak RSS grew {g:.1f} MiB over iterations 1-3 (tolerance {rss_tol:g} MiB)")
    if int(r['dev_mem_after_mib']) - dev0 > dev_tol:
        bad.append(f"iteration {k}: {int(r['dev_mem_after_mib']) - dev0} MiB of device memory left used after the run (tolerance {dev_tol:g} MiB)")
    if int(r['dev_mem_peak_mib']) - int(first['dev_mem_peak_mib']) > dev_tol:
        bad.append(f"iteration {k}: device memory peak {r['dev_mem_peak_mib']} MiB, iteration 1 {first['dev_mem_peak_mib']} MiB (tolerance {dev_tol:g} MiB)")
# per-point spread of the per-iteration medians
med = {}
units = {}
for j in range(1, n + 1):
    # the iteration's OK rows as tcprobe reads them (`tcprobe query`), not the file itself
    q = subprocess.run([tcprobe, 'query', f'{out}/iter-{j}', '--status', 'OK',
                        '--cols', 'probe,axes,metric,unit,median,status'],
                       capture_output=True, text=True)
    if q.returncode != 0:
        continue
    rows = csv.DictReader(q.stdout.splitlines())
    for r in rows:
        if r['status'] != 'OK' or r['median'] == '':
            continue
        key = (r['probe'], r['axes'], r['metric'])
        med.setdefault(key, []).append(float(r['median']))
        units[key] = r['unit']
spread = []
with open(f'{out}/spread.csv', 'w', newline='') as f:
    w = csv.writer(f, lineterminator='\n')
    w.writerow(['probe', 'axes', 'metric', 'unit', 'iterations', 'min', 'median', 'max', 'spread_pct'])
    for key in sorted(med):
        v = med[key]
        m = statistics.median(v)
        sp = (max(v) - min(v)) / abs(m) * 100 if m else float('nan')
        spread.append((sp, key, v, m))
        w.writerow([*key, units[key], len(v), f'{min(v):.6g}', f'{m:.6g}', f'{max(v):.6g}', f'{sp:.3g}'])
lines = [f"soak: {n} iterations of {first['points']} points ({first['statuses']}); device memory before {dev0} MiB",
         f"host RSS peak (MiB): supervisor {min(int(r['sup_rss_peak_kib']) for r in it)/1024:.1f}..{max(int(r['sup_rss_peak_kib']) for r in it)/1024:.1f}, "
         f"worker {min(int(r['worker_rss_peak_kib']) for r in it)/1024:.1f}..{max(int(r['worker_rss_peak_kib']) for r in it)/1024:.1f}",
         f"device memory (MiB): peak {min(int(r['dev_mem_peak_mib']) for r in it)}..{max(int(r['dev_mem_peak_mib']) for r in it)}, "
         f"after {min(int(r['dev_mem_after_mib']) for r in it)}..{max(int(r['dev_mem_after_mib']) for r in it)}",
         f"per-point spread of the medians across iterations (spread.csv, {len(spread)} point-metrics)"]
# The probes' own metrics first; CUPTI counters apart (their DRAM byte counts are
# a few KiB of noise on compute-bound probes and would crowd out everything else).
for title, sel in (("probe metrics", lambda k: not k[2].startswith('cupti/')),
                   ("CUPTI counters", lambda k: k[2].startswith('cupti/'))):
    part = [x for x in spread if sel(x[1]) and x[0] == x[0]]
    if not part:
        continue
    sps = sorted(x[0] for x in part)
    lines.append(f"{title}: {len(part)} point-metrics, spread median {statistics.median(sps):.4f}%, "
                 f"90th percentile {sps[int(0.9 * (len(sps) - 1))]:.4f}%, widest:")
    for sp, key, v, m in sorted(part, key=lambda x: -x[0])[:8]:
        lines.append(f"  {sp:9.4f}%  {key[0]} {key[1]} {key[2]} (median {m:.6g} {units[key]}, {len(v)} iterations)")
lines.append('verdict: ' + ('FAIL' if bad else 'stable'))
lines += ['  ' + b for b in bad]
open(f'{out}/summary.txt', 'w').write('\n'.join(lines) + '\n')
print('\n'.join(lines))
sys.exit(1 if bad else 0)
PY
