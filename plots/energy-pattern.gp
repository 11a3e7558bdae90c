# energy-pattern.gp: TFLOP/s held over the --energy window (run() calls x FLOP per
# call / window seconds, host gaps between ~1 ms launches included) vs input
# pattern, one panel per accumulator type, one line per kind.  FLOP/clk/SM is the
# same for every pattern (the flop_per_clk_sm rows); what moves is the clock the
# power limit allows.
# Run by scripts/plots.sh: gnuplot -e "datadir='D'; out='F'; fmt='png|svg'; plotsdir='P'" energy-pattern.gp
load datadir . "/energy-pattern.gpvars"
dat = datadir . "/energy-pattern.dat"
maintitle = "TFLOP/s held over the energy window per input pattern (same FLOP/clk/SM)"
fit = 0; logx = 0; fitvar = "pattern"
set yrange [0:*]
keypos = "bottom right"
load plotsdir . "/panels.gnuplot"
