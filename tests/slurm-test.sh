#!/usr/bin/env bash
# slurm-test.sh: the Slurm path end to end against a real single-node Slurm
# (Debian's slurm-wlm + munge) started on localhost by this script, private
# to a temp dir: scripts/tcprobe-slurm submits a GPU-free sweep (the host-only
# probe host_timer), and the group directory and the fleet report must appear.
# The node declares 2 GPUs in gres.conf (count only: this machine may have no
# GPU); tcprobe-slurm, given no --gpus-per-node, must read 2 from the
# partition's gres, pass it to sbatch and srun, and the step must see
# SLURM_GPUS_ON_NODE=2 and say in one line that CUDA does not see them.  What
# this cannot show: a cluster's device constraint (cgroup ConstrainDevices
# hiding GPUs a step did not request) needs real GPUs behind the gres.
# Needs root (munged/slurmd) and the packages slurm-wlm and munge (.ci/run
# installs them).  Fails loudly when they are missing: never skipped.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
for b in munged slurmctld slurmd sbatch scontrol; do
	command -v "$b" >/dev/null || { echo "slurm-test: FAIL: $b not installed (apt-get install slurm-wlm munge)"; exit 1; }
done

t=$(mktemp -d /tmp/tcp-slurm-XXXXXX)
host=$(hostname -s)
# Ports: pick free ones so a second test run or a real Slurm on this box does not collide.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cleanup() {
	[ -f "$t/slurmd.pid" ] && kill "$(cat "$t/slurmd.pid")" 2>/dev/null || true
	[ -f "$t/slurmctld.pid" ] && kill "$(cat "$t/slurmctld.pid")" 2>/dev/null || true
	[ -f "$t/munge/pid" ] && kill "$(cat "$t/munge/pid")" 2>/dev/null || true
	sleep 1
	if [ -n "${TCP_SLURM_KEEP:-}" ]; then echo "slurm-test: kept $t"; else rm -rf "$t"; fi
}
trap cleanup EXIT

mkdir -p "$t/munge" "$t/state" "$t/spool" "$t/log"
head -c 1024 /dev/urandom >"$t/munge/munge.key"
chmod 400 "$t/munge/munge.key"
munged --force --key-file="$t/munge/munge.key" --socket="$t/munge/sock" \
	--pid-file="$t/munge/pid" --log-file="$t/munge/log" --seed-file="$t/munge/seed"

cat >"$t/slurm.conf" <<CONF
ClusterName=tcptest
SlurmctldHost=$host(127.0.0.1)
AuthType=auth/munge
AuthInfo=socket=$t/munge/sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$t/state
SlurmdSpoolDir=$t/spool
SlurmctldPidFile=$t/slurmctld.pid
SlurmdPidFile=$t/slurmd.pid
SlurmctldLogFile=$t/log/slurmctld.log
SlurmdLogFile=$t/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
GresTypes=gpu
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) Gres=gpu:2 State=UNKNOWN
PartitionName=tcptest Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
# two GPUs: slurmd keeps a gpu gres only with device files, so two stand-ins
# (plain files: task/none binds nothing); it hands them out, sets
# SLURM_GPUS_ON_NODE and CUDA_VISIBLE_DEVICES in the step
mkdir -p "$t/dev"
touch "$t/dev/nvidia0" "$t/dev/nvidia1"
cat >"$t/gres.conf" <<CONF
NodeName=$host Name=gpu File=$t/dev/nvidia[0-1]
CONF
export SLURM_CONF="$t/slurm.conf"
slurmctld -i
slurmd
for _ in $(seq 1 30); do
	scontrol show node "$host" 2>/dev/null | grep -q 'State=IDLE' && break
	sleep 1
done
scontrol show node "$host" | grep -q 'State=IDLE' || { echo "slurm-test: FAIL: node never became idle"; tail -n 20 "$t/log/"*; exit 1; }

fail() { echo "slurm-test: FAIL: $*"; exit 1; }
group="$t/group"
# a bad GPU count is refused before anything is submitted
set +e
msg=$("$repo/scripts/tcprobe-slurm" --nodes 1 --group "$group" --gpus-per-node 0 -- --quick 2>&1)
rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q "^tcprobe-slurm: --gpus-per-node: got '0', expected an integer in 1..1024$" <<<"$msg" ||
	fail "--gpus-per-node 0: exit $rc, '$msg' (want exit 2 and one line)"

# no --gpus-per-node: read from the partition's gres (gpu:2), passed to sbatch and srun
set +e
timeout 300 "$repo/scripts/tcprobe-slurm" --nodes 1 --group "$group" --time 00:05:00 --wait -- \
	--probe host_timer --set calls=1000,10000 --reps 3 >"$t/submit.out" 2>&1
rc=$?
set -e
cat "$t/submit.out"
echo "slurm-test: job exit $rc"
cat "$group"/slurm-*.out 2>/dev/null | tail -30 || true

[ "$rc" -eq 0 ] || fail "the Slurm job exited $rc"
grep -q '^tcprobe-slurm: --gpus-per-node 2 (from the gres of partition (default))$' "$t/submit.out" ||
	fail "tcprobe-slurm did not derive --gpus-per-node 2 from the partition's gres"
grep -q -- '--gpus-per-node=2 ' "$t/submit.out" || fail "sbatch was not given --gpus-per-node=2"
# the request reached the step: Slurm granted it 2 GPUs on the node
grep -q "^tcprobe-step: $host: asked for 2 GPU(s); SLURM_GPUS_ON_NODE=2," "$group"/slurm-*.out ||
	fail "the step did not see SLURM_GPUS_ON_NODE=2"
# ... and said in one line that CUDA does not see them when it does not (no GPU here)
cuda=$("$repo/build/tcprobe" info --csv 2>/dev/null | grep -c '^gpu[0-9]*\.gpu_uuid,' || true)
if [ "$cuda" != 2 ]; then
	n=$(grep -c "^tcprobe-step: $host: GPU request not met: asked for 2, Slurm granted 2, CUDA sees $cuda " "$group"/slurm-*.out || true)
	[ "$n" -eq 1 ] || fail "expected one 'GPU request not met' line (CUDA sees $cuda), got $n"
fi
ls -d "$group/$host" >/dev/null 2>&1 || fail "no node directory $group/$host"
runs=$(find "$group/$host" -name measurements.csv | wc -l)
[ "$runs" -ge 1 ] || fail "no measurements.csv under $group/$host"
rows=$(find "$group/$host" -name measurements.csv -printf '%h\n' | while read -r d; do
	"$repo/build/tcprobe" query "$d" --probe host_timer --status OK | tail -n +2; done | wc -l)
[ "$rows" -ge 4 ] || fail "expected >= 4 OK host_timer rows (2 points x 2 metrics), got $rows"
[ -s "$group/fleet.txt" ] || fail "no fleet report $group/fleet.txt"
grep -q '^fleet: ' "$group/fleet.txt" || fail "fleet.txt is not a fleet report"
[ -s "$group/fleet.csv" ] || fail "no fleet.csv"
echo "slurm-test: PASS ($runs run dir(s), $rows OK rows, SLURM_GPUS_ON_NODE=2 in the step, fleet report written)"
