#!/usr/bin/env bash
# aa-check.sh: the regression gate does not cry wolf (README "Comparing runs").
# `tcprobe compare` must exit 0 on every pair tests/aa-pairs.txt lists or finds: runs of
# one binary with the same flags on one GPU (A/A: scripts/device/aa.sh takes them), and
# pairs of committed runs that exited 1 before metric roles.  Prints every pair's exit
# status and the false-positive rate (A/A pairs exiting non-zero / A/A pairs); fails on
# any pair that exits non-zero, on a `pair` whose runs are not one binary on one GPU, and
# when the list yields no A/A pair at all.  Runs written before metrics.csv existed are
# compared under this binary's roles (--roles, `tcprobe list --metrics`).  `make test`
# runs it.  Env: TCPROBE (default build/tcprobe), AA_PAIRS (default tests/aa-pairs.txt).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
bin=${TCPROBE:-build/tcprobe}
list=${AA_PAIRS:-tests/aa-pairs.txt}
[ -x "$bin" ] || { echo "aa-check: $bin: not built" >&2; exit 2; }
[ -r "$list" ] || { echo "aa-check: $list: cannot read" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
"$bin" list --metrics >"$tmp/roles.csv" || { echo "aa-check: tcprobe list --metrics failed" >&2; exit 2; }

# prov DIR KEY: a provenance value (key,value; these keys' values hold no comma)
prov() { awk -F, -v k="$2" '$1 == k { sub(/^[^,]*,/, ""); print; exit }' "$1/provenance.csv" 2>/dev/null; }
binary() { echo "$(prov "$1" git_commit) $(prov "$1" git_dirty) $(prov "$1" tcprobe_version)"; }
isrun() { "$bin" query "$1" --summary >/dev/null 2>&1; }

naa=0 nbad=0 nfix=0 fail=0
# check KIND BASE NEW [OPTS...]: compare; KIND aa counts toward the rate
check() {
	local kind=$1 base=$2 new=$3
	shift 3
	local roles=()
	[ -f "$base/metrics.csv" ] || [ -f "$new/metrics.csv" ] || roles=(--roles "$tmp/roles.csv")
	"$bin" compare "$base" "$new" --quiet "${roles[@]}" "$@" >"$tmp/out" 2>&1
	local rc=$?
	local note=""
	[ ${#roles[@]} = 0 ] || note="  (roles: tcprobe list --metrics)"
	printf '%-5s exit %d  %s  %s%s\n' "$kind" "$rc" "$base" "$new" "$note"
	if [ "$kind" = aa ]; then
		naa=$((naa + 1))
		[ "$rc" = 0 ] || nbad=$((nbad + 1))
	else
		nfix=$((nfix + 1))
	fi
	if [ "$rc" != 0 ]; then
		sed 's/^/      /' "$tmp/out"
		fail=1
	fi
}

# same DIR DIR: one binary on one GPU
same() {
	[ "$(binary "$1")" = "$(binary "$2")" ] && [ -n "$(prov "$1" gpu_uuid)" ] &&
		[ "$(prov "$1" gpu_uuid)" = "$(prov "$2" gpu_uuid)" ]
}

# ordered BASE NEW: the pair as compared (counters off as the base of counters on)
ordered() {
	if [ "$(prov "$1" counters)" != off ] && [ "$(prov "$2" counters)" = off ]; then
		echo "$2 $1"
	else
		echo "$1 $2"
	fi
}

while read -r kind a b rest; do
	case "$kind" in
	'' | '#'*) continue ;;
	group)
		runs=()
		for d in $a; do
			d=${d%/}
			[ -d "$d" ] && isrun "$d" && runs+=("$(prov "$d" started_utc) $d")
		done
		[ ${#runs[@]} -gt 0 ] || { echo "group $a: no run directory (yet)"; continue; }
		mapfile -t sorted < <(printf '%s\n' "${runs[@]}" | sort)
		for ((i = 0; i < ${#sorted[@]}; i++)); do
			for ((j = i + 1; j < ${#sorted[@]}; j++)); do
				x=${sorted[i]#* } y=${sorted[j]#* }
				same "$x" "$y" || continue
				check aa $(ordered "$x" "$y")
			done
		done
		;;
	pair)
		if ! same "$a" "$b"; then
			echo "aa-check: FAIL pair $a $b: not one binary on one GPU ($(binary "$a") $(prov "$a" gpu_uuid) vs $(binary "$b") $(prov "$b" gpu_uuid))" >&2
			fail=1
			continue
		fi
		check aa "$a" "$b"
		;;
	fixed)
		check fixed "$a" "$b" $rest
		;;
	*)
		echo "aa-check: $list: unknown entry '$kind' (group, pair, fixed)" >&2
		exit 2
		;;
	esac
done <"$list"

if [ "$naa" = 0 ]; then
	echo "aa-check: FAIL: no A/A pair committed ($list)" >&2
	exit 1
fi
echo "aa-check: $naa A/A pairs, $nbad exit non-zero (false-positive rate $(awk -v b=$nbad -v n=$naa 'BEGIN { printf "%.0f%%", 100 * b / n }')); $nfix fixed pairs"
[ "$fail" = 0 ] && echo "aa-check: OK" || { echo "aa-check: FAIL" >&2; exit 1; }
