#!/usr/bin/env bash
# sweep-gpus.sh: the multi-GPU half of ./sweep (`./sweep --gpus all|0,2,5`).
# One supervised `tcprobe run` per GPU, all at once, each into its own run
# directory named by the GPU's UUID under one group directory, plus an index
# (group.csv) and the fleet report (`tcprobe fleet`).  One GPU failing does
# not stop the others.  With no GPU visible the sweep runs once as "host"
# (host-only probes run; GPU probes report "no CUDA GPU visible", exit 3).
#
# usage: scripts/libexec/sweep-gpus.sh BIN GPUS GROUP_DIR [tcprobe run args...]
#   GPUS: all, or a comma list of CUDA ordinals (0..count-1)
set -uo pipefail

[ $# -ge 3 ] || { echo "usage: scripts/libexec/sweep-gpus.sh BIN GPUS GROUP_DIR [run args...]" >&2; exit 2; }
bin=$1 gpus=$2 group=$3
shift 3

# CUDA ordinal -> UUID, from the same CUDA enumeration tcprobe run uses.
declare -A uuid=()
count=0
if info=$("$bin" info --csv 2>/dev/null); then
	while IFS=, read -r key val; do
		if [[ "$key" =~ ^gpu([0-9]+)\.gpu_uuid$ ]]; then
			uuid[${BASH_REMATCH[1]}]=$val
			count=$((count > BASH_REMATCH[1] + 1 ? count : BASH_REMATCH[1] + 1))
		fi
	done <<<"$info"
fi

list=()
if [ "$gpus" = all ]; then
	for ((i = 0; i < count; i++)); do list+=("$i"); done
else
	IFS=, read -r -a list <<<"$gpus"
	for g in "${list[@]}"; do
		if ! [[ "$g" =~ ^[0-9]+$ ]] || [ "$g" -ge "$count" ]; then
			echo "sweep: --gpus: got '$g', expected 'all' or CUDA ordinals in 0..$((count - 1)) ($count GPU(s) visible)" >&2
			exit 2
		fi
	done
fi

mkdir -p "$group" || { echo "sweep: --group: cannot create '$group'" >&2; exit 2; }
index="$group/group.csv"
[ -f "$index" ] || echo "gpu,uuid,run_dir,exit_status" >"$index"

pids=() names=() dirs=()
stop() {
	for p in "${pids[@]}"; do kill -INT "$p" 2>/dev/null; done
	wait
	echo "sweep: interrupted; every GPU's partial run is in $group (finish each with tcprobe run --resume DIR)" >&2
	exit 130
}
trap stop INT TERM

if [ "${#list[@]}" -eq 0 ]; then
	echo "sweep: no CUDA GPU visible: running once as 'host' (host-only probes)" >&2
	dirs=("$group/host")
	( "$bin" run --gpu 0 --out "$group/host" "$@" >/dev/null ) &
	pids=($!) names=(host)
else
	echo "sweep: ${#list[@]} GPU(s): ${list[*]} -> $group" >&2
	for g in "${list[@]}"; do
		d="$group/${uuid[$g]:-gpu$g}"
		dirs+=("$d") names+=("$g")
		# progress lines of each GPU, prefixed; stdout (the run dir) is not needed
		( "$bin" run --gpu "$g" --out "$d" "$@" 2> >(sed -u "s/^/[gpu $g] /" >&2) >/dev/null ) &
		pids+=($!)
	done
fi

rc=0
for k in "${!pids[@]}"; do
	wait "${pids[$k]}"
	r=$?
	echo "${names[$k]},${uuid[${names[$k]}]:-NA},${dirs[$k]},$r" >>"$index"
	echo "sweep: gpu ${names[$k]}: exit $r -> ${dirs[$k]}" >&2
	[ "$r" -gt "$rc" ] && rc=$r
done

# Merge: the fleet report (exit 1 = outliers, 9 = an incomplete run: information here;
# each GPU's own exit status is the group's).
"$bin" fleet --csv "$group/fleet.csv" "$group" >"$group/fleet.txt" 2>&1
f=$?
[ "$f" -eq 2 ] && echo "sweep: fleet report failed: $(tail -1 "$group/fleet.txt")" >&2
# 9: a GPU's run lacks rows the others have OK (its sweep stopped early): say which
[ "$f" -eq 9 ] && echo "sweep: $(grep -m1 'tcprobe fleet: INCOMPLETE' "$group/fleet.txt")" >&2
if [ "$f" -ne 2 ] && command -v gnuplot >/dev/null; then
	plots=$(cd "$(dirname "$0")/../../plots" && pwd)
	for fmt in png svg; do
		gnuplot -e "dir='$group'; out='$group/fleet.$fmt'; fmt='$fmt'" "$plots/fleet.gp" 2>>"$group/fleet.txt"
	done
fi
echo "sweep: group index $index; fleet report $group/fleet.txt" >&2
echo "$group"
exit "$rc"
