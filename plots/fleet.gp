# fleet.gp: many GPUs' runs of one sweep (tcprobe fleet): per point and GPU the
# deviation from the fleet median (outliers marked), and per GPU its mean NVML SM
# clock during the points.  Reads DIR/fleet.csv and DIR/fleet-gpus.csv by column name.
# The footer names every run the plot mixes (fleet-gpus.csv: gpu, name, driver, dir).
# Run: gnuplot -e "dir='GROUP_DIR'; out='F'; fmt='png|svg'" plots/fleet.gp
# (./sweep --gpus renders it as GROUP_DIR/fleet.png and fleet.svg).
pts = dir . "/fleet.csv"
gpus = dir . "/fleet-gpus.csv"
set datafile separator comma
set datafile columnheaders
if (fmt eq "svg") {
	set terminal svg size 1000, 800 dynamic noenhanced font "sans,12" background rgb "white"
} else {
	set terminal pngcairo size 1000, 800 noenhanced font "sans,11" background rgb "white"
}
set output out
stats gpus using 0 nooutput
ng = STATS_records
labels = system("tail -n +2 '" . gpus . "' | cut -d, -f1")
# the footer names each run it mixes (GPU label, name, driver, run directory), one to a line
H = 800
runs = system("tail -n +2 '" . gpus . "' | awk -F, '{ n = split($10, d, \"/\"); printf \"%s%s = %s, driver %s, run %s\", NR == 1 ? \"\" : \"\\n\", $1, $3, $4, d[n] }'")
nfl = ng
FH = (14.0 * nfl + 8) / H
TT = 30.0 / H
ph = (1 - TT - FH) / 2
set label 1000 sprintf("tcprobe fleet of %d runs: ", ng) . runs at screen 0.006, screen (4.0 + 14 * nfl) / H left \
	font ",8" textcolor rgb "#555555" front noenhanced
set multiplot title sprintf("Fleet: %d GPU run(s); deviation of each GPU from the fleet median, and clocks", ng)
set title "Per point: (value - fleet median) / median; filled = flagged outlier"
set ylabel "deviation from the fleet median (%)"
set xlabel "point (probe, axes, metric), fleet.csv order"
set grid ytics
set key outside right top
set origin 0, FH + ph; set size 1, ph
plot for [i=1:ng] pts using (floor($0 / ng)):(strcol("gpu") eq word(labels, i) ? column("dev_pct") : NaN) \
	with points pt 6 ps 0.8 title word(labels, i), \
     pts using (floor($0 / ng)):(column("outlier") == 1 ? column("dev_pct") : NaN) \
	with points pt 7 ps 1.2 lc rgb "#cc3311" title "outlier"
set title "Mean NVML SM clock over each GPU's OK points"
set ylabel "SM clock (MHz)"
set xlabel "GPU"
set style fill solid 0.8 border -1
set boxwidth 0.6
set yrange [0:*]
unset key
set offsets 0, 0, graph 0.12, 0
set origin 0, FH; set size 1, ph
plot gpus using 0:"clock_mhz":xtic(strcol("gpu")) with boxes lc rgb "#4477aa", \
     gpus using 0:"clock_mhz":(sprintf("%.0f", column("clock_mhz"))) with labels offset 0, 1
unset multiplot
