# cross-gen.gp: mma.sync -> wgmma -> tcgen05 per kind family.  Top: math rate
# (FLOP/clk/SM; filled = measured in this run, hatched = published peak, mma.sync only
# when measured).  Bottom: accumulator bytes per FLOP = 4 / K (32-bit accumulator),
# which stays put while the rate climbs.
# Run by scripts/plots.sh: gnuplot -e "datadir='D'; out='F'; fmt='png|svg'; plotsdir='P'" cross-gen.gp
load datadir . "/cross-gen.gpvars"
dat = datadir . "/cross-gen.dat"
set datafile separator "\t"
set datafile columnheaders
if (fmt eq "svg") {
	set terminal svg size 1000, 860 dynamic noenhanced font "sans,12" background rgb "white"
} else {
	set terminal pngcairo size 1000, 860 noenhanced font "sans,11" background rgb "white"
}
set output out
H = 860
load plotsdir . "/footer.gnuplot"
set boxwidth 0.8
set offsets 0.6, 0.6, graph 0.12, 0
set grid ytics
set xtics rotate by -30
set key top left box opaque
set multiplot title "Across generations: mma.sync -> wgmma -> tcgen05"
set title "Math rate"
set ylabel "dense math rate (FLOP/clk/SM)"
set yrange [0:*]
set origin 0, py(2, 1); set size 1, ph(2)
plot dat using "x":"measured":xtic(strcol("label")) with boxes fs solid 0.85 border -1 lc rgb "#228833" \
	title "measured in this run (best point)", \
     dat using "x":"published" with boxes fs pattern 4 border -1 lc rgb "#777777" title "published peak", \
     dat using "x":"rate":(sprintf("%.0f", column("rate"))) with labels offset 0, 0.7 font ",9" notitle
set title "Accumulator traffic per FLOP (= 4 / MMA-K)"
set ylabel "accumulator bytes per FLOP (B/FLOP)"
set xlabel "generation and kind"
set yrange [0:*]
set origin 0, py(2, 2); set size 1, ph(2)
plot dat using "x":"acc_bytes_per_flop":xtic(strcol("label")) with boxes fs solid 0.6 border -1 \
	lc rgb "#4477aa" title "accumulator bytes per FLOP", \
     dat using "x":"acc_bytes_per_flop":(sprintf("K=%d", column("mma_k"))) with labels offset 0, 0.7 \
	font ",9" notitle
unset multiplot
