# lat-vs-n.gp: MMA latency (dependent chain; cycles, median with spread) vs N, one image
# per probe and kind (scripts/plots.sh passes panel = the image's panel), with the
# least-squares fit cycles = a + b N per series measured at 3 or more N, in two segments
# where one line does not fit (report-summary.c rpt_fit_lines, the same fit the report's
# summary states), each segment drawn over its own N range; a, b, R^2 and the segment's
# points n in the key.  A series of fewer than 3 points is drawn, not fitted.
# Run by scripts/plots.sh: gnuplot -e "datadir='D'; out='F'; fmt='png|svg'; plotsdir='P'; panel=K" lat-vs-n.gp
# (without panel: every kind in one grid image)
load datadir . "/lat-vs-n.gpvars"
dat = datadir . "/lat-vs-n.dat"
maintitle = exists("panel") ? "MMA latency vs N, fitted cycles = a + b N (3 or more N)" : \
	"MMA latency vs N per kind, fitted cycles = a + b N (two segments where one line does not fit)"
fit = 1; logx = 0; fitvar = "N"
set yrange [0:*]
keypos = "top left"
load plotsdir . "/panels.gnuplot"
