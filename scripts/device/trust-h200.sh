#!/usr/bin/env bash
# trust-h200.sh OUTDIR: the H200 runs behind issue 18's committed-run checks
# (tests/h200-trust-check.sh), in under 9 minutes on one GPU.  Assumes
# build/tcprobe was built here (TCPROBE=... to use another binary); GPU=N picks
# the CUDA ordinal (default 0).  Writes
#
#   OUTDIR/h200-contention/        -> commit as results/h200-contention/
#     main/          a calib sweep (100 points, ~90 s) on an idle GPU, with ...
#     load/          ... a second tcprobe process holding a wgmma_tput bf16 point
#                    (--sustain 25) on the same GPU in the middle of it: main's
#                    points beside the load must say contended=1, the clean
#                    stretches before and after contended=0
#     timeline.txt   when the load started and ended (UTC, ms)
#     require-idle.txt  `run --require-idle` during the load: exit 10, one line
#     idle-ok/       `run --require-idle` after it, on the idle GPU: runs (exit 0)
#   OUTDIR/h200-energy-order/      -> commit as results/h200-energy-order/
#     fwd1/, fwd2/   sweeps/energy-order.sweep with --energy 2 --settle 5, twice
#     rev/           sweeps/energy-order-reversed.sweep (the same 12 points backwards)
#     compare-*.txt  tcprobe compare of the three (pj_per_flop, power rows)
#   OUTDIR/trust-h200.log          what ran, with exit statuses and durations
#
# Durations (H200): contention ~2 min; each energy run 12 points x (settle <= 5 s +
# window >= 2 s + ~0.5 s) = 40-90 s; total 4-7 min.  Every step has its own limit.
set -uo pipefail

out=${1:?usage: scripts/device/trust-h200.sh OUTDIR}
cd "$(dirname "$0")/../.." || exit 2
bin=$(realpath "${TCPROBE:-build/tcprobe}")
gpu=${GPU:-0}
[ -x "$bin" ] || { echo "trust-h200: no $bin (build it first: make build/tcprobe)" >&2; exit 2; }
c=$out/h200-contention e=$out/h200-energy-order
mkdir -p "$c" "$e" || exit 2
log=$out/trust-h200.log
t_start=$(date +%s)
say() { echo "[$(($(date +%s) - t_start))s] $*" | tee -a "$log" >&2; }
utc_ms() { date -u +%Y-%m-%dT%H:%M:%S.%3NZ; }
# count the points already in a run's measurements.csv (5 metric rows per calib point)
points_in() { [ -f "$1/measurements.csv" ] && awk -F, 'NR > 1 { p[$4] = 1 } END { print length(p) }' "$1/measurements.csv" || echo 0; }

say "binary $bin, GPU $gpu, $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader -i "$gpu" 2>/dev/null)"

# ---- (a) contention: a sweep beside a real second process ------------------
# main: 100 calib points of 150 spins of 10M cycles (~0.9 s each)
timeout 240 "$bin" run --probe calib --set spin_kcycles=10000:10099:1 --reps 150 --warmup 1 \
	--counters none --gpu "$gpu" --quiet --out "$c/main" >"$c/main.stdout" 2>"$c/main.stderr" &
main_pid=$!
# a clean stretch first: wait for 25 points
for _ in $(seq 1 120); do
	[ "$(points_in "$c/main")" -ge 25 ] && break
	kill -0 "$main_pid" 2>/dev/null || break
	sleep 0.5
done
say "main sweep at $(points_in "$c/main") points: starting the load"
echo "load_start_utc $(utc_ms)" >"$c/timeline.txt"
# the second process: one sustained bf16 wgmma_tput point (a real tensor-core load)
timeout 120 "$bin" run --probe wgmma_tput --set kind=bf16 --set acc=f32 --set N=256 \
	--set a_src=ss --set wg=2 --reps 3 --sustain 25 --counters none --gpu "$gpu" --quiet \
	--out "$c/load" >"$c/load.stdout" 2>"$c/load.stderr" &
load_pid=$!
# --require-idle while the load runs: must refuse (exit 10), nothing written
sleep 10
timeout 60 "$bin" run --require-idle --probe calib --set spin_kcycles=100 --gpu "$gpu" \
	--out "$c/idle-refused" >/dev/null 2>"$c/require-idle.txt"
echo "exit $?" >>"$c/require-idle.txt"
say "require-idle beside the load: $(tail -1 "$c/require-idle.txt")"
wait "$load_pid"
load_rc=$?
echo "load_end_utc $(utc_ms)" >>"$c/timeline.txt"
echo "load_exit $load_rc" >>"$c/timeline.txt"
say "load done (exit $load_rc); main sweep at $(points_in "$c/main") points"
wait "$main_pid"
main_rc=$?
echo "main_exit $main_rc" >>"$c/timeline.txt"
say "main sweep done (exit $main_rc): $(tail -1 "$c/main.stderr")"
# --require-idle on the idle GPU: runs
timeout 60 "$bin" run --require-idle --probe calib --set spin_kcycles=100 --reps 3 --counters none \
	--gpu "$gpu" --quiet --out "$c/idle-ok" >/dev/null 2>"$c/idle-ok.stderr"
echo "idle_ok_exit $?" >>"$c/timeline.txt"
say "require-idle on the idle GPU: $(tail -1 "$c/timeline.txt")"

# ---- (b) energy independent of point order ----------------------------------
for run in fwd1 fwd2 rev; do
	spec=sweeps/energy-order.sweep
	[ "$run" = rev ] && spec=sweeps/energy-order-reversed.sweep
	timeout 150 "$bin" run --spec "$spec" --energy 2 --settle 5 --counters none --seed 18 \
		--gpu "$gpu" --quiet --out "$e/$run" >"$e/$run.stdout" 2>"$e/$run.stderr"
	say "energy $run ($spec): exit $?"
done
for pair in "fwd1 fwd2" "fwd1 rev"; do
	set -- $pair
	"$bin" compare "$e/$1" "$e/$2" --metric pj_per_flop,power_w_mean,power_w_counter,power_agree_pct \
		--all --threshold 100 >"$e/compare-$1-$2.txt" 2>&1
	say "compare $1 $2: exit $?"
done
say "done in $(($(date +%s) - t_start)) s; commit $c as results/h200-contention and $e as results/h200-energy-order"
