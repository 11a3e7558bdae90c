#!/usr/bin/env bash
# nvcc-alt-ptxas.sh NVCC-ARGS...
#	nvcc, with another toolkit's ptxas assembling the device code: the
#	build's nvcc front end emits the PTX as usual, its `.version` is set to
#	what the other ptxas reads, and that ptxas makes the cubin the fatbin
#	holds.  So one binary's probes can be assembled by two toolkits and the
#	runs compared (README "Across compilers"):
#	  make ARCHS=sm_90a BUILD=build-ptxas128 NVCC=scripts/nvcc-alt-ptxas.sh \
#	       PTXAS_VERSION=12.8.93
#	How: `nvcc --dryrun` lists the steps nvcc would run; they run here in
#	order, the ptxas step replaced.  An invocation that compiles no device
#	code (a query, a host-only file) runs the real nvcc unchanged.
#	Env: ALT_PTXAS (default: the nvidia-cuda-nvcc-cu12 wheel's ptxas that
#	python3 imports), ALT_PTX_VERSION (default 8.7, CUDA 12.8's PTX ISA),
#	REAL_NVCC (default $CUDA_HOME/bin/nvcc).
set -uo pipefail
real=${REAL_NVCC:-${CUDA_HOME:-/usr/local/cuda}/bin/nvcc}
alt=${ALT_PTXAS:-$(python3 -c 'import nvidia.cuda_nvcc as m; print(m.__path__[0])' 2>/dev/null)/bin/ptxas}
ver=${ALT_PTX_VERSION:-8.7}
compile=0 keepdir= out= deps=0
args=()
for ((i = 1; i <= $#; i++)); do
	a=${!i}
	case $a in
	-c) compile=1 ;;
	-keep-dir | --keep-dir) j=$((i + 1)); keepdir=${!j:-} ;;
	-o) j=$((i + 1)); out=${!j:-} ;;
	esac
	# -MMD / -MP: nvcc's dependency filter is no step --dryrun can list; the
	# dependencies are written apart (below)
	case $a in
	-MMD | -MP) deps=1 ;;
	*) args+=("$a") ;;
	esac
done
if [ $compile -eq 0 ]; then
	exec "$real" "$@"
fi
if [ ! -x "$alt" ]; then
	echo "nvcc-alt-ptxas: no ptxas at '$alt' (set ALT_PTXAS, or python3 -m pip install 'nvidia-cuda-nvcc-cu12==12.8.*')" >&2
	exit 2
fi
if [ $deps -eq 1 ] && [ -n "$out" ]; then
	dargs=()
	for ((i = 0; i < ${#args[@]}; i++)); do
		case ${args[i]} in
		-c) ;;
		-o | -keep-dir | --keep-dir) i=$((i + 1)) ;;
		-keep | --keep) ;;
		*) dargs+=("${args[i]}") ;;
		esac
	done
	"$real" -M -MP -MT "$out" -MF "${out%.o}.d" "${dargs[@]}" >/dev/null || exit 1
fi
tmp=$(mktemp -d /tmp/nvcc-alt.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
[ -n "$keepdir" ] || args+=(--keep --keep-dir "$tmp")
"$real" --dryrun "${args[@]}" 2>"$tmp/dryrun" >/dev/null || { cat "$tmp/dryrun" >&2; exit 1; }
# each step as nvcc would run it; the ptxas step: the PTX's .version rewritten, the other ptxas
: >"$tmp/steps.sh"
while IFS= read -r l; do
	[[ $l == '#$ '* ]] || continue
	a=${l#\#\$ }
	if [[ $a =~ ^[A-Za-z_][A-Za-z_0-9]*= ]]; then
		# nvcc's environment lines are not all shell (SYSTEM_INCLUDES="-isystem" "DIR"):
		# each value is kept as one word; the steps use $CICC_PATH and PATH
		printf '%s=%q\n' "${a%%=*}" "${a#*=}" >>"$tmp/steps.sh"
	elif [[ $a == 'ptxas '* ]]; then
		ptx=$(printf '%s\n' "$a" | grep -o '"[^"]*\.ptx"' | head -1 | tr -d '"')
		if [ -z "$ptx" ]; then
			echo "nvcc-alt-ptxas: no .ptx input in: $a" >&2
			exit 1
		fi
		printf 'sed -i "s/^\\.version [0-9.]*/.version %s/" "%s"\n' "$ver" "$ptx" >>"$tmp/steps.sh"
		printf '"%s" %s\n' "$alt" "${a#ptxas }" >>"$tmp/steps.sh"
	else
		printf '%s\n' "$a" >>"$tmp/steps.sh"
	fi
done <"$tmp/dryrun"
grep -q "^\"$alt\"" "$tmp/steps.sh" || { echo "nvcc-alt-ptxas: nvcc --dryrun listed no ptxas step" >&2; exit 1; }
bash -e "$tmp/steps.sh"
