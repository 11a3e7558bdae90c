# acc-bandwidth.gp: per MMA kind, top: the math rate (FLOP/clk/SM, dense) - filled bars
# measured in this run (best point of wgmma_tput / tc_mma_tput), hatched bars the
# published peak where the run has no measurement, cross-hatched orange bars an estimate
# (B300 K=96: derived from a published ratio, the derivation in the footnote), circles
# the published peak; bottom: the implied accumulator bandwidth in B/clk/SM against 1x
# and 2x Hopper f16's, the flat line every tcgen05 kind sits on.  A kind's bar is its best
# point with a 32-bit accumulator (f32, s32: rate / (K/4)); a 16-bit accumulator (f16)
# moves half the bytes (rate / (K/2)) and is a bar of its own, light blue, where the run
# measured one.  Bars select the points that accumulate (enable_input_d = 1, every
# wgmma); diamonds the same kind's best point that overwrites (tc_mma_tput
# enable_input_d = 0: no read of D), where the run has one: a diamond above its bar says
# the accumulator's read limits the rate; level with it, not.
# Run by scripts/plots.sh: gnuplot -e "datadir='D'; out='F'; fmt='png|svg'; plotsdir='P'" acc-bandwidth.gp
load datadir . "/acc-bandwidth.gpvars"
dat = datadir . "/acc-bandwidth.dat"
set datafile separator "\t"
set datafile columnheaders
if (fmt eq "svg") {
	set terminal svg size 1000, 900 dynamic noenhanced font "sans,12" background rgb "white"
} else {
	set terminal pngcairo size 1000, 900 noenhanced font "sans,11" background rgb "white"
}
set output out
W = 1000
H = 900
load plotsdir . "/footer.gnuplot"
set boxwidth 0.7
set offsets 0.5, 0.5, graph 0.1, 0
set grid ytics
set xtics rotate by -25
set rmargin 12		# room for the last rotated kind name
set key top left Left reverse box opaque maxrows 3 font ",10" samplen 2	# two columns, above the bars' labels
# a bar's class: 32-bit measured, 16-bit measured, published, estimate
m32(c) = strcol("source") eq "measured" && column("acc_bits") != 16 ? column(c) : NaN
m16(c) = strcol("source") eq "measured" && column("acc_bits") == 16 ? column(c) : NaN
pub(c) = strcol("source") eq "published" ? column(c) : NaN
est(c) = strcol("source") eq "estimate" ? column(c) : NaN
set multiplot title "Math rate per kind and the implied accumulator bandwidth = rate / (K/4) (32-bit accumulator; K/2: 16-bit)"

set title "Math rate per kind"
set ylabel "dense math rate (FLOP/clk/SM)"
set xlabel ""
set yrange [0:*]
set origin 0, py(2, 1); set size 1, ph(2)
plot dat using "x":(m32("rate")):xtic(strcol("label")) with boxes fs solid 0.85 border -1 lc rgb "#228833" \
	title "measured here (best point, 32-bit acc.)", \
     dat using "x":(m16("rate")) with boxes fs solid 0.85 border -1 lc rgb "#66ccee" \
	title (nacc16 > 0 ? "measured, 16-bit acc. (-> f16)" : ""), \
     dat using "x":(pub("rate")) with boxes fs pattern 4 border -1 lc rgb "#777777" \
	title "published peak (not measured here)", \
     dat using "x":(est("rate")) with boxes fs pattern 5 border -1 lc rgb "#ee7733" \
	title "ESTIMATE (derivation in the footnote)", \
     dat using "x":(strcol("source") eq "estimate" ? NaN : column("peak")) with points pt 6 ps 1.3 lc rgb "black" \
	title "published dense peak", \
     dat using "x":"rate_overwrite" with points pt 13 ps 1.6 lc rgb "#aa3377" \
	title (noverwrite > 0 ? "measured, enable_input_d = 0 (no read of D)" : ""), \
     dat using "x":"rate":(sprintf("%.0f", column("rate"))) with labels offset 0, 0.7 font ",8" notitle

set title "Implied accumulator bandwidth (the K/4 identity: every tcgen05 kind at 2x Hopper)"
set ylabel "accumulator bandwidth (B/clk/SM)"
set xlabel "MMA kind (wgmma on sm_90, tcgen05 on sm_100; B300 K=96 on sm_103a); 32-bit accumulator unless -> f16"
set yrange [0:hopper_f16_acc_bw * 3.4]
set origin 0, py(2, 2); set size 1, ph(2)
plot dat using "x":(m32("acc_bw")):xtic(strcol("label")) \
	with boxes fs solid 0.85 border -1 lc rgb "#228833" title "measured: rate / (K/4)", \
     dat using "x":(m16("acc_bw")) with boxes fs solid 0.85 border -1 lc rgb "#66ccee" \
	title (nacc16 > 0 ? "measured, 16-bit acc.: rate / (K/2)" : ""), \
     dat using "x":(pub("acc_bw")) \
	with boxes fs pattern 4 border -1 lc rgb "#777777" title "from the published peak", \
     dat using "x":(est("acc_bw")) with boxes fs pattern 5 border -1 lc rgb "#ee7733" \
	title "from the ESTIMATE", \
     hopper_f16_acc_bw with lines dt 2 lw 2 lc rgb "#4477aa" \
	title sprintf("1x: Hopper f16 peak, %.0f B/clk/SM", hopper_f16_acc_bw), \
     2 * hopper_f16_acc_bw with lines dt 2 lw 2 lc rgb "#ee6677" \
	title sprintf("2x: %.0f B/clk/SM", 2 * hopper_f16_acc_bw), \
     dat using "x":"acc_bw_overwrite" with points pt 13 ps 1.6 lc rgb "#aa3377" \
	title (noverwrite > 0 ? "overwrite rate / (K/4) (enable_input_d = 0)" : ""), \
     dat using "x":"acc_bw":(sprintf("%.2fx", column("acc_x_hopper"))) with labels offset 0, 0.7 font ",8" notitle
unset multiplot
