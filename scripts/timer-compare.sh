#!/usr/bin/env bash
#
# timer-compare.sh
#	Three clocks on the same kernels of one `tcprobe run --timer cupti` run
#	(issue 6): the CUPTI Activity kernel span (cupti_kernel_ns: GPU start/end
#	timestamps of the kernels one run() launched), the profiler's
#	cupti/gpu__time_duration.sum from the counter pass (the same kernels,
#	replayed), and the probe's own in-kernel timing (clock64 cycles over
#	%globaltimer).  Per point and probe family it prints how they relate:
#	  calib       kernel_ns (in-kernel %globaltimer span), event_ns (cudaEvent
#	              span) and cupti_kernel_ns of the same spin kernel;
#	  wgmma_tput  the timed loop's length, cycles / sm_clock_mhz, against the
#	              CUPTI span: the loop's share of the kernel and the setup
#	              around it (shared-memory fill, accumulator dump);
#	  every probe cupti_kernel_ns / gpu__time_duration.sum (Activity vs
#	              profiler, two CUPTI paths to one kernel duration).
#	Writes RUN/timer-compare.csv (one row per point) and prints the summary.
#
#	usage: scripts/timer-compare.sh RUN_DIR
#	exit:  0, 1 the run has no cupti_kernel_ns rows, 2 usage
set -uo pipefail

case "${1:-}" in
-h | --help) sed -n '3,20p' "$0" | sed 's/^#\t\{0,1\}//'; exit 0 ;;
"") echo "timer-compare.sh: RUN_DIR missing: expected a tcprobe run directory (see --help)" >&2; exit 2 ;;
esac
[ -r "$1/measurements.csv" ] || { echo "timer-compare.sh: got '$1', expected a run directory with measurements.csv" >&2; exit 2; }

python3 - "$1" <<'PY'
import csv, statistics, sys
run = sys.argv[1]
pts = {}
for r in csv.DictReader(open(f'{run}/measurements.csv', newline='')):
    if r['status'] != 'OK' or r['median'] == '':
        continue
    p = pts.setdefault(r['point'], {'probe': r['probe'], 'axes': r['axes'], 'm': {}})
    p['m'][r['metric']] = (float(r['median']), float(r['min']), float(r['max']))
rows = []
for k, p in sorted(pts.items(), key=lambda x: int(x[0])):
    m = p['m']
    if 'cupti_kernel_ns' not in m:
        continue
    cu = m['cupti_kernel_ns'][0]
    row = {'point': k, 'probe': p['probe'], 'axes': p['axes'], 'cupti_kernel_ns': cu,
           'cupti_spread_pct': 100 * (m['cupti_kernel_ns'][2] - m['cupti_kernel_ns'][1]) / cu if cu else '',
           'gpu_time_duration_ns': '', 'activity_over_profiler': '', 'inkernel_ns': '', 'inkernel_share_pct': '',
           'outside_ns': '', 'event_ns': ''}
    d = m.get('cupti/gpu__time_duration.sum')
    if d and d[0] > 0:
        row['gpu_time_duration_ns'] = d[0]
        row['activity_over_profiler'] = cu / d[0]
    ik = None
    if p['probe'] == 'calib':
        ik = m.get('kernel_ns', (None,))[0]
        row['event_ns'] = m.get('event_ns', ('',))[0]
    elif 'cycles' in m and m.get('sm_clock_mhz', (0,))[0] > 0:
        ik = m['cycles'][0] / (m['sm_clock_mhz'][0] * 1e-3)
    if ik:
        row['inkernel_ns'] = ik
        row['inkernel_share_pct'] = 100 * ik / cu
        row['outside_ns'] = cu - ik
    rows.append(row)
if not rows:
    print(f"timer-compare.sh: no cupti_kernel_ns rows in {run}/measurements.csv (was it run with --timer cupti?)", file=sys.stderr)
    sys.exit(1)
cols = list(rows[0])
with open(f'{run}/timer-compare.csv', 'w', newline='') as f:
    w = csv.writer(f, lineterminator='\n')
    w.writerow(cols)
    for r in rows:
        w.writerow([f'{v:.6g}' if isinstance(v, float) else v for v in (r[c] for c in cols)])

def q(v):
    v = sorted(v)
    return f"median {statistics.median(v):.4g}, min {v[0]:.4g}, max {v[-1]:.4g}"

print(f"timer-compare: {len(rows)} points with a CUPTI kernel span in {run}")
print("\nActivity span / profiler gpu__time_duration (same kernels, counter pass replayed):")
for probe in sorted({r['probe'] for r in rows}):
    v = [r['activity_over_profiler'] for r in rows if r['probe'] == probe and r['activity_over_profiler'] != '']
    if v:
        print(f"  {probe:16s} {len(v):4d} points  {q(v)}")
print("\ncalib (one spin kernel): in-kernel %globaltimer span vs CUPTI span vs cudaEvent span:")
for r in rows:
    if r['probe'] == 'calib' and r['inkernel_ns']:
        print(f"  {r['axes']:18s} in-kernel {r['inkernel_ns']:10.0f} ns  CUPTI {r['cupti_kernel_ns']:10.0f} ns  "
              f"event {r['event_ns']:10.0f} ns  CUPTI - in-kernel {r['outside_ns']:6.0f} ns  event - CUPTI {r['event_ns'] - r['cupti_kernel_ns']:6.0f} ns")
for probe in sorted({r['probe'] for r in rows if r['probe'] != 'calib' and r['inkernel_ns'] != ''}):
    s = [r for r in rows if r['probe'] == probe and r['inkernel_ns'] != '']
    print(f"\n{probe}: timed loop (cycles / sm_clock_mhz) as a share of the CUPTI kernel span, {len(s)} points:")
    print(f"  share %:          {q([r['inkernel_share_pct'] for r in s])}")
    print(f"  outside loop, ns: {q([r['outside_ns'] for r in s])}")
    print(f"  CUPTI span, ns:   {q([r['cupti_kernel_ns'] for r in s])}")
print(f"\nCUPTI span spread over reps (max - min) / median, %: {q([r['cupti_spread_pct'] for r in rows if r['cupti_spread_pct'] != ''])}")
print(f"per point: {run}/timer-compare.csv")
PY
