# compare-ratio.gp: per point (each probe's primary metric, sweep order) the ratio
# NEW/BASE from `tcprobe compare --csv`, coloured by verdict, on the grey noise band
# 1 +- noise_pct/100; one panel per NEW run.
# Run by scripts/plots.sh: gnuplot -e "datadir='D'; out='F'; fmt='png|svg'; plotsdir='P'" compare-ratio.gp
load datadir . "/compare-ratio.gpvars"
dat = datadir . "/compare-ratio.dat"
set datafile separator "\t"
set datafile columnheaders
set termoption noenhanced
H = 420 * NR + 60
if (fmt eq "svg") {
	set terminal svg size 1100, H dynamic noenhanced font "sans,11" background rgb "white"
} else {
	set terminal pngcairo size 1100, H noenhanced font "sans,10" background rgb "white"
}
set output out
load plotsdir . "/footer.gnuplot"
color(c) = c == 0 ? 0x888888 : (c == 1 ? 0x228833 : (c == 2 ? 0xcc3311 : 0xee7733))
set grid ytics
set xtics () rotate by -30 font ",8"
do for [t = 1:NT] { set xtics add (tlab[t] tpos[t]) }
set xrange [0:NPTS + 1]
set ylabel "ratio NEW / BASE (1 = unchanged)"
set xlabel "point (sweep order; tic = first point of each probe, its primary metric)"
set key outside right top box
set multiplot title "Run-to-run ratio per point with the noise band"
do for [g = 1:NR] {
	set title rtitle[g]
	set origin 0, py(NR, g); set size 1, ph(NR)
	plot dat index (g - 1) using "i":"lo":"hi" with filledcurves fc rgb "#dddddd" title "noise band", \
	     1 with lines lc rgb "black" notitle, \
	     dat index (g - 1) using "i":"ratio":(color(column("color"))) with points pt 7 ps 0.5 \
		lc rgb variable notitle, \
	     NaN with points pt 7 lc rgb "#888888" title "same", \
	     NaN with points pt 7 lc rgb "#228833" title "faster", \
	     NaN with points pt 7 lc rgb "#cc3311" title "slower", \
	     NaN with points pt 7 lc rgb "#ee7733" title "changed"
}
unset multiplot
