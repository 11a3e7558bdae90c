# ii-vs-depth.gp: initiation interval (cycles per MMA) vs chain depth D, one panel per
# probe and kind, with the fit II = a + b / D (stats.h tcp_fit_inverse) and the
# saturating depth (smallest D with b/D <= 5% of a; dotted vertical line).
# Run by scripts/plots.sh: gnuplot -e "datadir='D'; out='F'; fmt='png|svg'; plotsdir='P'" ii-vs-depth.gp
load datadir . "/ii-vs-depth.gpvars"
dat = datadir . "/ii-vs-depth.dat"
maintitle = "Initiation interval vs chain depth, with the fit II = a + b / D"
fit = 2; logx = 1; fitvar = "D"
set yrange [0:*]
keypos = "top right"
load plotsdir . "/panels.gnuplot"
