#!/usr/bin/env bash
# check-sass.sh BUILD_DIR
#	SASS check for every probe object (make sass-check).  For each
#	BUILD_DIR/probes/{sm90,sm100,all,warp}/NAME.o and each target it is built for
#	($TCP_SM90_TARGETS, $TCP_TCGEN05_TARGETS: the Makefile's selection; warp/:
#	every cubin the object holds, WARP_ARCHS of the build):
#	  1. every instruction the table scripts/ci/sass-expect.txt requires is in
#	     its SASS (cuobjdump --dump-sass), e.g. UTCHMMA, UTCBAR, LDTM;
#	  2. no local memory: no LDL/STL in the SASS, and the ptxas -v report the
#	     Makefile saved (NAME.ptxas.txt) shows 0 bytes stack frame and 0 bytes
#	     spill stores/loads for every function.
#	  3. the protocol and timed-window rules of scripts/ci/sass-rules.awk on
#	     every kernel (its header describes each: cluster barrier before a
#	     cta_group::2 alloc, multicast commit in cta_group::2 MMA kernels,
#	     early relinquish before the hold, no division/conversion between
#	     the MMAs of a timed span, no operand load between a window's clock
#	     read and its first UTC* instruction, no constant-bank or special-
#	     register read inside a span, no opening clock read narrowed to 32
#	     bits, every access of a tc_ldst / tc_ldred depth group kept);
#	     every timed span found is listed ("span ...") so a new probe's
#	     windows are visible, and every window clean-window checked is
#	     written to BUILD_DIR/sass-windows.txt (object, arch, kernel, clock
#	     read - first UTC*).  Release objects only: the DEBUG=1 / TMEMCHECK=1
#	     builds live in their own trees and are never passed here.
#	An object without a line in the table fails: a new probe adds its line
#	(ARCH '*' = every arch the object holds).
#	Table lines "XFAIL OBJECT ARCH RULE..." name rules expected to fail on an
#	object until its owner's fix lands; a listed rule that passes fails the
#	check (remove the line), so the list can only shrink.
#	Exit 0 all green, 1 a check failed, 2 usage / no cuobjdump.
set -u
BUILD=${1:-}
HERE=$(cd "$(dirname "$0")" && pwd)
TABLE=${SASS_EXPECT:-$HERE/sass-expect.txt}
if [ -z "$BUILD" ] || [ ! -d "$BUILD/probes" ]; then
	echo "check-sass: usage: $0 BUILD_DIR (BUILD_DIR/probes must exist; got '${BUILD}')" >&2
	exit 2
fi

# cuobjdump: PATH, then $CUDA_HOME/bin, then the nvidia-cuda-cuobjdump wheel.
find_cuobjdump() {
	local c
	if c=$(command -v cuobjdump 2>/dev/null); then echo "$c"; return 0; fi
	c=${CUDA_HOME:-/usr/local/cuda}/bin/cuobjdump
	if [ -x "$c" ]; then echo "$c"; return 0; fi
	local nv
	nv=$(python3 -c 'import nvidia, os; print(nvidia.__path__[0])' 2>/dev/null) || nv=
	for c in "$nv"/cu13/bin/cuobjdump "$nv"/cuda_cuobjdump/bin/cuobjdump; do
		if [ -n "$nv" ] && [ -x "$c" ]; then echo "$c"; return 0; fi
	done
	return 1
}
CUOBJDUMP=$(find_cuobjdump) || {
	echo "check-sass: no cuobjdump on PATH, in \$CUDA_HOME/bin or in the nvidia-cuda-cuobjdump wheel; install one (pip install nvidia-cuda-cuobjdump)" >&2
	exit 2
}
[ -r "$TABLE" ] || { echo "check-sass: table $TABLE not readable" >&2; exit 2; }

RULES_AWK=$HERE/sass-rules.awk
[ -r "$RULES_AWK" ] || { echo "check-sass: $RULES_AWK not readable" >&2; exit 2; }
command -v c++filt >/dev/null 2>&1 || { echo "check-sass: c++filt (binutils) not on PATH: needed to read kernel names" >&2; exit 2; }

fail=0
nobj=0
ncheck=0
nspan=0
nrule=0
nxfail=0
bad() { echo "check-sass: FAIL $*"; fail=1; }

SASS_TMP=$(mktemp -d)
trap 'rm -rf "$SASS_TMP"' EXIT
: > "$SASS_TMP/jobs"
for obj in "$BUILD"/probes/sm90/*.o "$BUILD"/probes/sm100/*.o "$BUILD"/probes/all/*.o "$BUILD"/probes/warp/*.o; do
	[ -e "$obj" ] || continue
	dir=$(basename "$(dirname "$obj")")
	name=$(basename "$obj" .o)
	key="$dir/$name"
	[ -e "probes/$dir/$name.c" ] && continue	# host C beside the probes (CPU references), no SASS
	# the targets the Makefile built each folder for (make exports them)
	case $dir in
	sm90) archs=${TCP_SM90_TARGETS:-sm_90a} ;;
	# (a probe that leaves a target out holds no cubin for it: the cubins it holds)
	sm100) archs=$("$CUOBJDUMP" --list-elf "$obj" 2>/dev/null | sed -n 's/.*\.\(sm_[0-9]*a\?\)\.cubin$/\1/p' | sort -u | tr '\n' ' ')
		[ -n "$archs" ] || archs=${TCP_TCGEN05_TARGETS:-sm_100a} ;;
	# probes/all and the warp family: every target the build chose (the Makefile's
	# ALL_PROBE_GENCODE, WARP_ARCHS): the cubins each holds
	all | warp) archs=$("$CUOBJDUMP" --list-elf "$obj" 2>/dev/null | sed -n 's/.*\.\(sm_[0-9]*a\?\)\.cubin$/\1/p' | sort -u | tr '\n' ' ') ;;
	esac
	nobj=$((nobj + 1))

	# 2b. ptxas -v report: no stack frame, no spills (both archs for all/).
	rep="$BUILD/probes/$dir/$name.ptxas.txt"
	if [ ! -r "$rep" ]; then
		bad "$key: no ptxas report $rep (the Makefile saves it with -Xptxas=-v)"
	elif grep -Eq '^ *[1-9][0-9]* bytes stack frame|[1-9][0-9]* bytes spill (stores|loads)' "$rep"; then
		bad "$key: local memory in the ptxas report: $(grep -E '[1-9][0-9]* bytes (stack frame|spill)' "$rep" | head -1 | sed 's/^ *//')"
	fi
	# 2c. Timing probes must not have their wgmmas serialised.  ptxas says so
	# only in *info* lines (C7510, C7515), which -Werror does not catch.
	# Probes that time wgmma are marked NOSERIAL in the table.
	if awk -v k="$key" '$1 == k && / NOSERIAL/ { f = 1 } END { exit !f }' "$TABLE" &&
	   grep -Eq '\(C751[05]\)' "$rep" 2>/dev/null; then
		bad "$key: ptxas serialised wgmma: $(grep -Eo '\(C751[05]\)[^,]*' "$rep" | head -1)"
	fi

	for arch in $archs; do
		echo "$obj $key $arch" >> "$SASS_TMP/jobs"
	done
done

# 1, 2a and 3 for one (object, target) are a job of their own; the jobs run
# in parallel (xargs -P, one per core), each printing its lines and then one
# line "COUNTS ncheck nspan nrule nxfail fail" that the loop below adds up.
check_job() {	# JOB OBJ KEY ARCH
	local job=$1 obj=$2 key=$3 arch=$4 fail=0 ncheck=0 nspan=0 nrule=0 nxfail=0
	local req must xfail sass insns rules r nf l
	bad() { echo "check-sass: FAIL $*"; fail=1; }
	counts() { echo "COUNTS $ncheck $nspan $nrule $nxfail $fail"; }
	# Table lines: OBJECT ARCH INSN... ('-' = no instruction required;
	# +RULE = that rule of sass-rules.awk must apply to some kernel;
	# !INSN = an instruction the target must not have).  ARCH may be a
	# comma list (sm_100a,sm_110a) or '*': the line applies to each.
	req=$(awk -v k="$key" -v a="$arch" '$1 == k && ($2 == "*" || index("," $2 ",", "," a ",")) { for (i = 3; i <= NF; i++) if ($i != "NOSERIAL" && $i !~ /^\+/) printf "%s ", $i; found = 1 } END { if (!found) print "MISSING" }' "$TABLE")
	must=$(awk -v k="$key" -v a="$arch" '$1 == k && ($2 == "*" || index("," $2 ",", "," a ",")) { for (i = 3; i <= NF; i++) if ($i ~ /^\+/) printf "%s ", substr($i, 2) }' "$TABLE")
	xfail=$(awk -v k="$key" -v a="$arch" '$1 == "XFAIL" && $2 == k && ($3 == "*" || index("," $3 ",", "," a ",")) { for (i = 4; i <= NF; i++) printf "%s ", $i }' "$TABLE")
	if [ "$req" = "MISSING" ]; then
		bad "$key $arch: no line in $(basename "$TABLE"); add '$key $arch <required SASS...>' (or '-')"
		counts
		return
	fi
	sass=$SASS_TMP/job$job.sass
	"$CUOBJDUMP" --dump-sass -arch "$arch" "$obj" > "$sass" 2>&1 || {
		bad "$key $arch: cuobjdump failed: $(head -1 "$sass")"
		counts
		return
	}
	# Only instruction lines: "/*0040*/  OPCODE ..." (predicates stripped).
	insns=$(sed -n 's#^ *\/\*[0-9a-f]\{4,\}\*\/ *\(@!\?U\?P[0-9T] \)\?\([A-Z][A-Za-z0-9_.]*\).*#\2#p' "$sass")
	if printf '%s\n' "$insns" | grep -Eq '^(LDL|STL)(\.|$)'; then
		bad "$key $arch: local memory in SASS: $(printf '%s\n' "$insns" | grep -E '^(LDL|STL)(\.|$)' | sort | uniq -c | tr -s ' ' | tr '\n' ';')"
	fi
	for r in $req; do
		[ "$r" = "-" ] && continue
		ncheck=$((ncheck + 1))
		# !INSN: a form the target must not have (e.g. no UTCIMMA on sm_103a)
		if [ "${r#!}" != "$r" ]; then
			r=${r#!}
			if printf '%s\n' "$insns" | grep -q "^${r//./\\.}"; then
				bad "$key $arch: forbidden instruction $r in SASS"
			fi
			continue
		fi
		# r is a mnemonic prefix: UTCHMMA matches UTCHMMA and UTCHMMA.2CTA,
		# HGMMA.64 matches HGMMA.64x128x16.F32; a longer prefix narrows it
		# (UTCBAR.2CTA.MULTICAST).
		if ! printf '%s\n' "$insns" | grep -q "^${r//./\\.}"; then
			bad "$key $arch: required instruction $r not in SASS"
		fi
	done
	[ -z "$insns" ] && [ "$req" != "- " ] && bad "$key $arch: no SASS for $arch in the object"

	# 3. rules over each kernel (names demangled for the rules that read them).
	rules=$(c++filt < "$sass" | awk -f "$RULES_AWK")
	rm -f "$sass"
	while IFS= read -r l; do
		[ -n "$l" ] && echo "check-sass: span $key $arch ${l#SPAN }" && nspan=$((nspan + 1))
	done < <(printf '%s\n' "$rules" | grep '^SPAN ')
	printf '%s\n' "$rules" | grep '^WINDOW ' | sed "s|^WINDOW |WINDOW $key $arch |"
	for r in $(printf '%s\n' "$rules" | awk '$1 == "RULE" { print $2 }' | sort -u); do
		nrule=$((nrule + 1))
		nf=$(printf '%s\n' "$rules" | awk -v r="$r" '$1 == "FAIL" && $2 == r' | wc -l)
		case " $xfail " in
		*" $r "*)
			if [ "$nf" -gt 0 ]; then
				echo "check-sass: XFAIL $key $arch $r: $nf kernel(s) fail as listed, e.g. $(printf '%s\n' "$rules" | awk -v r="$r" '$1 == "FAIL" && $2 == r' | head -1 | cut -c1-200)"
				nxfail=$((nxfail + 1))
			else
				bad "$key $arch: rule $r passes now but is listed XFAIL in $(basename "$TABLE"): remove it from the XFAIL line"
			fi
			;;
		*)
			if [ "$nf" -gt 0 ]; then
				printf '%s\n' "$rules" | awk -v r="$r" '$1 == "FAIL" && $2 == r' | head -5 |
					while IFS= read -r f; do echo "check-sass: FAIL $key $arch ${f#FAIL }"; done
				[ "$nf" -gt 5 ] && echo "check-sass: FAIL $key $arch $r: ... $nf kernels in all"
				fail=1
			fi
			;;
		esac
	done
	for r in $must; do
		printf '%s\n' "$rules" | awk -v r="$r" '$1 == "RULE" && $2 == r { f = 1 } END { exit !f }' ||
			bad "$key $arch: no kernel the rule $r applies to (the table requires one: +$r)"
	done
	for r in $xfail; do
		printf '%s\n' "$rules" | awk -v r="$r" '$1 == "RULE" && $2 == r { f = 1 } END { exit !f }' ||
			bad "$key $arch: XFAIL $r listed but the rule applies to no kernel: remove it"
	done
	counts
}
export -f check_job
export CUOBJDUMP TABLE RULES_AWK SASS_TMP
awk '{ print NR, $0 }' "$SASS_TMP/jobs" |
	xargs -P "$(nproc)" -L 1 bash -c 'check_job "$0" "$@" > "$SASS_TMP/out.$0"'
n=$(wc -l < "$SASS_TMP/jobs")
for i in $(seq 1 "$n"); do
	if ! grep -q '^COUNTS ' "$SASS_TMP/out.$i" 2>/dev/null; then
		bad "job $i ($(sed -n "${i}p" "$SASS_TMP/jobs")): did not finish"
		continue
	fi
	grep -v '^COUNTS \|^WINDOW ' "$SASS_TMP/out.$i"
	grep '^WINDOW ' "$SASS_TMP/out.$i" | sed 's/^WINDOW //' >> "$SASS_TMP/windows"
	read -r _ c sp ru xf f < <(grep '^COUNTS ' "$SASS_TMP/out.$i")
	ncheck=$((ncheck + c)) nspan=$((nspan + sp)) nrule=$((nrule + ru)) nxfail=$((nxfail + xf))
	[ "$f" -ne 0 ] && fail=1
done

touch "$SASS_TMP/windows"
sort "$SASS_TMP/windows" > "$BUILD/sass-windows.txt"
nwin=$(wc -l < "$BUILD/sass-windows.txt")
if [ "$nobj" -eq 0 ]; then
	echo "check-sass: FAIL no probe objects under $BUILD/probes (run make first)"
	exit 1
fi
if [ $fail -ne 0 ]; then
	echo "check-sass: FAILED ($nobj objects, cuobjdump $CUOBJDUMP)"
	exit 1
fi
echo "check-sass: OK: $nobj objects, $ncheck required instructions present, no local memory, $nrule rule checks ($nxfail expected failures listed), $nspan timed spans, $nwin windows checked clean (listed in $BUILD/sass-windows.txt) ($CUOBJDUMP)"
