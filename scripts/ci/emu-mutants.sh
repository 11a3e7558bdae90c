#!/usr/bin/env bash
# emu-mutants.sh [OUT]
# emu-mutants.sh --list
#	Run every planted defect of the emulation build (probes/emu/
#	tc-emu-mutants.h) on the GPU found: build-emu/tcprobe run --emu-mutant
#	NAME over the defect's points, in each --emu-tmem mode its row names,
#	then compare each row with what the table says it must show (status,
#	and a text its reason contains).  A defect is caught only when every
#	row of every mode matches; the control (none) must be OK.  Writes
#	OUT/mutants.csv (name, tmem, expected, observed, caught) and prints the
#	table; exit 1 when a defect is not caught.  --list prints the table as
#	read from the header (name|points|tmem|status|reason), on any machine.
#	Needs a Hopper GPU (sm_90a); make emu-mutants builds and runs it.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
# the table, from the header: name|points|tmem|status|reason (rows in the
# designated-initializer form { name, plants..., points, status, reason[, tmem] })
table=$(sed -n '/^static const tcp_mutant_row_t tcp_mutants/,/^};/p' probes/emu/tc-emu-mutants.h |
	tr -d '\n\t' | sed 's/\[TCP_MUT_[A-Z0-9_]*\] *= *{/\n/g' | tail -n +2 |
	sed -E 's/^ *"([^"]*)", *"(([^"\\]|\\.)*)"( *"[^"]*")*, *(TCP_MUT_[A-Z0-9]+|"[^"]*"), *"([^"]*)", *"([^"]*)"(, *"([^"]*)")? *}.*/\1|\5|\9|\6|\7/')
declare -A macro
while IFS= read -r l; do
	k=$(sed -E 's/^#define (TCP_MUT_[A-Z0-9]+) "(.*)"$/\1/' <<<"$l"); v=$(sed -E 's/^#define (TCP_MUT_[A-Z0-9]+) "(.*)"$/\2/' <<<"$l")
	macro[$k]=$v
done < <(grep -E '^#define TCP_MUT_[A-Z0-9]+ "' probes/emu/tc-emu-mutants.h)
rows=()
while IFS='|' read -r name pts tmem st why; do
	[ -z "$name" ] && continue
	case $pts in TCP_MUT_*) pts=${macro[$pts]} ;; *) pts=${pts//\"/} ;; esac
	rows+=("$name|$pts|${tmem:-poison}|$st|$why")
done <<<"$table"
if [ "${1:-}" = --list ]; then
	printf '%s\n' "${rows[@]}"
	exit 0
fi
out=${1:-results/emu-mutants}
bin=${TCPROBE_EMU:-build-emu/tcprobe}
mkdir -p "$out"
echo "name,tmem,points,expected_status,expected_reason,observed,caught" >"$out/mutants.csv"
missed=0
runs=0
for row in "${rows[@]}"; do
	IFS='|' read -r name pts tmems st why <<<"$row"
	for tmem in ${tmems//,/ }; do
		runs=$((runs + 1))
		d="$out/$name-$tmem"
		rm -rf "$d"
		# shellcheck disable=SC2086
		timeout -s INT -k 10 300 "$bin" run --reps 1 --warmup 0 --counters none --no-block --timeout 10 \
			--emu-slowdown 1 --emu-tmem "$tmem" --emu-mutant "$name" $pts -o "$d" >"$d.log" 2>&1
		"$bin" query "$d" >"$d.rows.csv" 2>/dev/null
		obs=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "status") s = i; next } { print $s }' "$d.rows.csv" |
			sort | uniq -c | tr -s ' ' | tr '\n' ';')
		ok=1
		[ "$(tail -n +2 "$d.rows.csv" | grep -c .)" -gt 0 ] || ok=0	# no row: not caught
		while IFS= read -r line; do
			case $line in *",$st,"*) ;; *) ok=0 ;; esac
			[ -n "$why" ] && { case $line in *"$why"*) ;; *) ok=0 ;; esac; }
		done < <(tail -n +2 "$d.rows.csv")
		[ $ok = 1 ] || missed=$((missed + 1))
		printf '%-24s %-7s expect %-8s %-32s observed %-40s %s\n' "$name" "$tmem" "$st" "${why:-(any reason)}" "$obs" \
			"$([ $ok = 1 ] && echo caught || echo MISSED)"
		printf '%s,%s,"%s",%s,"%s","%s",%s\n' "$name" "$tmem" "$pts" "$st" "$why" "$obs" \
			"$([ $ok = 1 ] && echo yes || echo no)" >>"$out/mutants.csv"
	done
done
echo "emu-mutants: $missed not caught (of $runs runs, ${#rows[@]} defects and the control)"
[ $missed = 0 ]
