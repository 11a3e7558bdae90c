# lat-vs-n.gp: MMA latency (dependent chain; cycles, median with spread) vs N, one panel
# per probe and kind, with the least-squares fit cycles = a + b N per series, in two
# segments where one line does not fit (report-summary.c rpt_fit_lines, the same fit
# the report's summary states; a and b printed in the key).
# Run by scripts/plots.sh: gnuplot -e "datadir='D'; out='F'; fmt='png|svg'; plotsdir='P'" lat-vs-n.gp
load datadir . "/lat-vs-n.gpvars"
dat = datadir . "/lat-vs-n.dat"
maintitle = "MMA latency vs N per kind, fitted cycles = a + b N (two segments where one line does not fit)"
fit = 1; logx = 0; fitvar = "N"
set yrange [0:*]
keypos = "top left"
load plotsdir . "/panels.gnuplot"
