#!/usr/bin/env bash
# check-sass.sh BUILD_DIR
#	SASS check for every probe object (make sass-check).  For each
#	BUILD_DIR/probes/{sm90,sm100,all,warp}/NAME.o and each arch it is built for
#	(warp/: every cubin the object holds, WARP_ARCHS of the build):
#	  1. every instruction the table scripts/sass-expect.txt requires is in
#	     its SASS (cuobjdump --dump-sass), e.g. UTCHMMA, UTCBAR, LDTM;
#	  2. no local memory: no LDL/STL in the SASS, and the ptxas -v report the
#	     Makefile saved (NAME.ptxas.txt) shows 0 bytes stack frame and 0 bytes
#	     spill stores/loads for every function.
#	An object without a line in the table fails: a new probe adds its line
#	(ARCH '*' = every arch the object holds).
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

fail=0
nobj=0
ncheck=0
bad() { echo "check-sass: FAIL $*"; fail=1; }

for obj in "$BUILD"/probes/sm90/*.o "$BUILD"/probes/sm100/*.o "$BUILD"/probes/all/*.o "$BUILD"/probes/warp/*.o; do
	[ -e "$obj" ] || continue
	dir=$(basename "$(dirname "$obj")")
	name=$(basename "$obj" .o)
	key="$dir/$name"
	[ "$dir" = warp ] && [ -e "probes/warp/$name.c" ] && continue	# host C (CPU reference), no SASS
	case $dir in
	sm90) archs="sm_90a" ;;
	sm100) archs="sm_100a" ;;
	all) archs="sm_90a sm_100a" ;;
	# the warp family's targets are a build choice (WARP_ARCHS): the cubins it holds
	warp) archs=$("$CUOBJDUMP" --list-elf "$obj" 2>/dev/null | sed -n 's/.*\.\(sm_[0-9]*a\?\)\.cubin$/\1/p' | sort -u | tr '\n' ' ') ;;
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
		# Table lines: OBJECT ARCH INSN... ('-' = no instruction required).
		req=$(awk -v k="$key" -v a="$arch" '$1 == k && ($2 == a || $2 == "*") { for (i = 3; i <= NF; i++) if ($i != "NOSERIAL") printf "%s ", $i; found = 1 } END { if (!found) print "MISSING" }' "$TABLE")
		if [ "$req" = "MISSING" ]; then
			bad "$key $arch: no line in $(basename "$TABLE"); add '$key $arch <required SASS...>' (or '-')"
			continue
		fi
		sass=$("$CUOBJDUMP" --dump-sass -arch "$arch" "$obj" 2>&1) || {
			bad "$key $arch: cuobjdump failed: $(echo "$sass" | head -1)"
			continue
		}
		# Only instruction lines: "/*0040*/  OPCODE ..." (predicates stripped).
		insns=$(printf '%s\n' "$sass" | sed -n 's#^ *\/\*[0-9a-f]\{4,\}\*\/ *\(@!\?U\?P[0-9T] \)\?\([A-Z][A-Za-z0-9_.]*\).*#\2#p')
		if printf '%s\n' "$insns" | grep -Eq '^(LDL|STL)(\.|$)'; then
			bad "$key $arch: local memory in SASS: $(printf '%s\n' "$insns" | grep -E '^(LDL|STL)(\.|$)' | sort | uniq -c | tr -s ' ' | tr '\n' ';')"
		fi
		for r in $req; do
			[ "$r" = "-" ] && continue
			ncheck=$((ncheck + 1))
			# r is a mnemonic prefix: UTCHMMA matches UTCHMMA and UTCHMMA.2CTA,
			# HGMMA.64 matches HGMMA.64x128x16.F32; a longer prefix narrows it
			# (UTCBAR.2CTA.MULTICAST).
			if ! printf '%s\n' "$insns" | grep -q "^${r//./\\.}"; then
				bad "$key $arch: required instruction $r not in SASS"
			fi
		done
		[ -z "$insns" ] && [ "$req" != "- " ] && bad "$key $arch: no SASS for $arch in the object"
	done
done

if [ "$nobj" -eq 0 ]; then
	echo "check-sass: FAIL no probe objects under $BUILD/probes (run make first)"
	exit 1
fi
if [ $fail -ne 0 ]; then
	echo "check-sass: FAILED ($nobj objects, cuobjdump $CUOBJDUMP)"
	exit 1
fi
echo "check-sass: OK: $nobj objects, $ncheck required instructions present, no local memory ($CUOBJDUMP)"
