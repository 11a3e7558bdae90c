#!/usr/bin/env bash
# slurm-test.sh: the Slurm path end to end against a real single-node Slurm
# (Debian's slurm-wlm + munge) started on localhost by this script, private
# to a temp dir: scripts/tcprobe-slurm submits a GPU-free sweep (the host-only
# probe host_timer), and the group directory and the fleet report must appear.
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
	rm -rf "$t"
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
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=tcptest Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$t/slurm.conf"
slurmctld -i
slurmd
for _ in $(seq 1 30); do
	scontrol show node "$host" 2>/dev/null | grep -q 'State=IDLE' && break
	sleep 1
done
scontrol show node "$host" | grep -q 'State=IDLE' || { echo "slurm-test: FAIL: node never became idle"; tail -20 "$t/log/"*; exit 1; }

group="$t/group"
set +e
timeout 300 "$repo/scripts/tcprobe-slurm" --nodes 1 --group "$group" --time 00:05:00 --wait -- \
	--probe host_timer --set calls=1000,10000 --reps 3
rc=$?
set -e
echo "slurm-test: job exit $rc"
cat "$group"/slurm-*.out 2>/dev/null | tail -30 || true

fail() { echo "slurm-test: FAIL: $*"; exit 1; }
[ "$rc" -eq 0 ] || fail "the Slurm job exited $rc"
ls -d "$group/$host" >/dev/null 2>&1 || fail "no node directory $group/$host"
runs=$(find "$group/$host" -name measurements.csv | wc -l)
[ "$runs" -ge 1 ] || fail "no measurements.csv under $group/$host"
rows=$(find "$group/$host" -name measurements.csv -printf '%h\n' | while read -r d; do
	"$repo/build/tcprobe" query "$d" --probe host_timer --status OK | tail -n +2; done | wc -l)
[ "$rows" -ge 4 ] || fail "expected >= 4 OK host_timer rows (2 points x 2 metrics), got $rows"
[ -s "$group/fleet.txt" ] || fail "no fleet report $group/fleet.txt"
grep -q '^fleet: ' "$group/fleet.txt" || fail "fleet.txt is not a fleet report"
[ -s "$group/fleet.csv" ] || fail "no fleet.csv"
echo "slurm-test: PASS ($runs run dir(s), $rows OK rows, fleet report written)"
