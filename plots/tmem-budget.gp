# tmem-budget.gp: TMEM columns per CTA for the standard tile grid (128 x N cta_group::1,
# 256 x N cta_group::2; 1-3 accumulator stages) from the model's planner
# (model/tmem-plan.h: a model, not a measurement), stacked by part: accumulator stages,
# A operand, scale factors A and B; the 512-column line; circles = the power-of-two
# allocation tcgen05.alloc would take.  Two scenarios, one panel each.
# Run by scripts/plots.sh: gnuplot -e "datadir='D'; out='F'; fmt='png|svg'; plotsdir='P'" tmem-budget.gp
load datadir . "/tmem-budget.gpvars"
dat = datadir . "/tmem-budget.dat"
set datafile separator "\t"
set datafile columnheaders
if (fmt eq "svg") {
	set terminal svg size 1100, 900 dynamic noenhanced font "sans,11" background rgb "white"
} else {
	set terminal pngcairo size 1100, 900 noenhanced font "sans,10" background rgb "white"
}
set output out
H = 900
load plotsdir . "/footer.gnuplot"
set boxwidth 0.85
set style fill solid 0.85 border -1
set grid ytics
set xtics rotate by -45 font ",8"
set key outside right top box
set ylabel "TMEM columns per CTA (128 lanes x 32 bit each)"
set yrange [0:*]
set offsets 0.6, 0.6, 0, 0
set multiplot title "TMEM budget of the standard tile grid vs the 512 columns (model, not a measurement)"
do for [sc = 1:2] {
	set title (sc == 1 ? sc1 : sc2)
	set origin 0, py(2, sc); set size 1, ph(2)
	set xlabel (sc == 2 ? "tile M x N, accumulator stages s" : "")
	plot dat index (sc - 1) using "x":(column("accumulator") + column("a_operand") + column("scale_a") + column("scale_b")):xtic(strcol("label")) \
		with boxes lc rgb "#ccbb44" title (sc == 2 ? "scale factors B" : ""), \
	     dat index (sc - 1) using "x":(column("accumulator") + column("a_operand") + column("scale_a")) \
		with boxes lc rgb "#ee6677" title (sc == 2 ? "scale factors A" : ""), \
	     dat index (sc - 1) using "x":(column("accumulator") + column("a_operand")) \
		with boxes lc rgb "#66ccee" title (sc == 2 ? "A operand" : ""), \
	     dat index (sc - 1) using "x":"accumulator" with boxes lc rgb "#4477aa" title "accumulator stages", \
	     dat index (sc - 1) using "x":(column("alloc") > 0 ? column("alloc") : NaN) \
		with points pt 6 ps 1 lc rgb "black" title "tcgen05.alloc (power of two)", \
	     tmem_cols with lines dt 2 lw 2 lc rgb "#cc3311" title sprintf("%d columns", tmem_cols)
}
unset multiplot
