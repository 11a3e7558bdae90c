# energy-pj-per-flop.gp: energy per FLOP (pJ; NVML total-energy counter over the
# --energy window / (run() calls x FLOP per call)) vs input pattern, one panel per
# accumulator type, one line per kind (and the other axes).  Whole-board energy:
# memory, fans and idle power included, at the clock the board held.
# Run by scripts/plots.sh: gnuplot -e "datadir='D'; out='F'; fmt='png|svg'; plotsdir='P'" energy-pj-per-flop.gp
load datadir . "/energy-pj-per-flop.gpvars"
dat = datadir . "/energy-pj-per-flop.dat"
maintitle = "Energy per FLOP (board, NVML energy counter) per kind and input pattern"
fit = 0; logx = 0; fitvar = "pattern"
set yrange [0:*]
yhead = 0.5	# headroom: the key sits above the lines, not on them
keypos = "top right"
load plotsdir . "/panels.gnuplot"
