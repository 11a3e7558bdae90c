#!/usr/bin/env bash
# family-hopper-gate.sh OUT
#	Issue 19's Hopper gate on the H200: the binary now holds sm_90a + the
#	three tcgen05 targets and picks probes by exact compute capability, so
#	a default run on the H200 must give back every point the README's run
#	had OK, OK again and inside its noise band.  Assumes build/tcprobe was
#	built on the dev machine (CUDA 13.0) and carried.  About 5 minutes.
#	Writes OUT/run/ (the new default run), OUT/compare.txt and
#	OUT/compare.csv (tcprobe compare against the README's run; exit 1 of
#	compare = a regression), OUT/list-sm_90a.txt and OUT/dryrun-sm_103a.txt
#	(the per-target plan on a real machine), OUT/elf.txt (the cubins held).
set -u
out=${1:?usage: $0 OUT}
base=results/2026-11-29-NVIDIA_H200-580.159.04-vm-4
bin=${TCPROBE:-build/tcprobe}
mkdir -p "$out"
cuobjdump --list-elf "$bin" > "$out/elf.txt" 2>&1 || true
"$bin" list --arch sm_90a > "$out/list-sm_90a.txt" 2>&1
"$bin" run --spec sweeps/default.sweep --dry-run --arch sm_103a > "$out/dryrun-sm_103a.txt" 2>&1
timeout 900 "$bin" run --spec sweeps/default.sweep --out "$out/run" > "$out/run.log" 2>&1
echo "run exit $?" >> "$out/run.log"
"$bin" compare "$base" "$out/run" --csv "$out/compare.csv" > "$out/compare.txt" 2>&1
rc=$?
echo "compare exit $rc" >> "$out/compare.txt"
tail -3 "$out/compare.txt"
exit $rc
