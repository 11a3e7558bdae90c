# k4-identity.gp: FLOP per accumulator byte per MMA kind = MMA-K / 4 (an M x N 32-bit
# accumulator is read and written once per MMA: 2MNK FLOP over 8MN bytes), bars
# labelled with the kind's MMA-K.  K per kind and generation from model/kinds.h.
# Run by scripts/plots.sh: gnuplot -e "datadir='D'; out='F'; fmt='png|svg'; plotsdir='P'" k4-identity.gp
load datadir . "/k4-identity.gpvars"
dat = datadir . "/k4-identity.dat"
set datafile separator "\t"
set datafile columnheaders
if (fmt eq "svg") {
	set terminal svg size 1000, 560 dynamic noenhanced font "sans,12" background rgb "white"
} else {
	set terminal pngcairo size 1000, 560 noenhanced font "sans,11" background rgb "white"
}
set output out
H = 560
load plotsdir . "/footer.gnuplot"
set origin 0, FH
set size 1, 1 - FH
set title "K/4 identity: FLOP per accumulator byte = MMA-K / 4 (fp32/s32 accumulator read and written once per MMA)"
set ylabel "FLOP per accumulator byte (FLOP/B)"
set xlabel "MMA kind (wgmma type family on sm_90, tcgen05 .kind on sm_100)"
set style fill solid 0.85 border -1
set boxwidth 0.7
set yrange [0:*]
set offsets 0.5, 0.5, 2, 0
set grid ytics
set xtics rotate by -25
set rmargin 12		# room for the last rotated kind name (B300's)
set key top left
plot dat using "x":(strcol("gen") eq "sm_90" ? column("flop_per_acc_byte") : NaN) \
	with boxes lc rgb "#4477aa" title "Hopper wgmma (sm_90)", \
     dat using "x":(strcol("gen") eq "sm_100" ? column("flop_per_acc_byte") : NaN) \
	with boxes lc rgb "#ee6677" title "Blackwell tcgen05 (sm_100)", \
     dat using "x":(strcol("gen") eq "sm_103" ? column("flop_per_acc_byte") : NaN) \
	with boxes fs pattern 4 border -1 lc rgb "#777777" title "B300 K=96 (sm_103a, published)", \
     dat using "x":"flop_per_acc_byte":(sprintf("K=%d", column("mma_k"))):xtic(strcol("label")) \
	with labels offset 0, 0.8 notitle
