#!/usr/bin/env bash
# tcprobe-step.sh: what one Slurm task runs on its node (srun from
# scripts/libexec/slurm/tcprobe.sbatch): check that the step sees the GPUs it asked for,
# then the sweep on every GPU it sees, into GROUP/<host>/.
#
# usage: scripts/libexec/slurm/tcprobe-step.sh GROUP GPUS_PER_NODE [SWEEP_ARGS...]
#
# An srun step gets only the GPUs it requests (--gpus-per-node), even inside an
# --exclusive job; on clusters that constrain devices to the request (cgroup
# ConstrainDevices) a step that asked for none sees none.  So the request is
# checked here, in one line on stderr when it is not met:
#   SLURM_GPUS_ON_NODE  what Slurm granted this step on this node
#   CUDA                what the CUDA runtime enumerates (tcprobe info)
# and the sweep still runs on what is there (its own exit status says the rest).
set -uo pipefail

[ $# -ge 2 ] || { echo "usage: tcprobe-step.sh GROUP GPUS_PER_NODE [SWEEP_ARGS...]" >&2; exit 2; }
group=$1 want=$2
shift 2
host=$(hostname -s)
bin=${TCPROBE:-build/tcprobe}

granted=${SLURM_GPUS_ON_NODE:-unset}
# CUDA ordinals the runtime sees: gpuN.gpu_uuid keys of `tcprobe info --csv`
cuda=$("$bin" info --csv 2>/dev/null | grep -c '^gpu[0-9]*\.gpu_uuid,' || true)
echo "tcprobe-step: $host: asked for $want GPU(s); SLURM_GPUS_ON_NODE=$granted," \
	"CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-unset}, CUDA sees $cuda"
if [ "$granted" != "$want" ] || [ "$cuda" != "$want" ]; then
	echo "tcprobe-step: $host: GPU request not met: asked for $want, Slurm granted $granted," \
		"CUDA sees $cuda (check --gpus-per-node against the node's gres; sweeping what is visible)" >&2
fi
exec ./sweep --gpus all --group "$group/$host" "$@"
