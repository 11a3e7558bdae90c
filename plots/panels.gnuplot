# panels.gnuplot: shared body of the x-vs-y plots (tput-vs-n, lat-vs-n, ii-vs-depth,
# tmem-bw).  Not a plot itself: loaded by them after they set
#   dat (data file), maintitle, fit (0 none, 1 a + b x, 2 a + b / x), logx (0/1), fitvar,
#   keypos ("top left", ...), and optionally yhead (headroom above the data, fraction
#   of the panel, so that a key at the top does not cover lines)
# and after <stem>.gpvars defined NP, NS, ptitle/pfirst/plast/ppeak/pcat/pxlabel,
# pylabel, stitle/fa/fb/fr2/fsat, fbrk/fa2/fb2/fr22 (fit 1 in two segments: the second
# from x = fbrk, 0 = one line), and NCAT/xcat when some panel's x is categorical.
# Panel p draws series pfirst[p]..plast[p] (datasets index i-1 of dat, columns x,
# median, lo, hi chosen by header name).
set datafile separator "\t"
set datafile columnheaders
set termoption noenhanced
cols = NP < 2 ? 1 : (NP <= 4 ? 2 : 3)
rows = int(ceil(NP * 1.0 / cols))
W = 640 * cols
H = 480 * rows + 40
if (fmt eq "svg") {
	set terminal svg size W, H dynamic noenhanced font "sans,11" background rgb "white"
} else {
	set terminal pngcairo size W, H noenhanced font "sans,10" background rgb "white"
}
set output out
load plotsdir . "/footer.gnuplot"
set grid
set key @keypos Left reverse box opaque font ",8" samplen 2
set multiplot title maintitle
yh = exists("yhead") ? yhead : 0
do for [p = 1:NP] {
	set title ptitle[p]
	set origin ((p - 1) % cols) * 1.0 / cols, py(rows, (p - 1) / cols + 1); set size 1.0 / cols, ph(rows)
	set xlabel pxlabel[p]
	set ylabel pylabel[p]
	unset arrow
	if (pcat[p]) {
		# x holds category indexes (tcgen05.cp by shape): name the tics, linear axis
		unset logscale x
		set xtics () rotate by -30
		do for [c = 1:NCAT] { set xtics add (xcat[c] c - 1) }
		set xrange [-0.5:NCAT - 0.5]
		set offsets 0, 0, graph yh, 0
	} else {
		set xtics autofreq norotate
		if (logx) { set logscale x 2; set autoscale x; set offsets 0, 0, graph yh, 0 } \
		else { unset logscale x; set xrange [0:*]; set offsets 0, graph 0.04, graph yh, 0 }
	}
	if (fit == 2) {
		do for [i = pfirst[p]:plast[p]] {
			if (fsat[i] > 0) { set arrow from fsat[i], graph 0 to fsat[i], graph 1 nohead dt 3 lc (i - pfirst[p] + 1) }
		}
	}
	if (fit == 1) {
		plot for [i = pfirst[p]:plast[p]] dat index (i - 1) using "x":"median":"lo":"hi" \
			with yerrorlines lc (i - pfirst[p] + 1) pt (i - pfirst[p] + 1) ps 0.7 title stitle[i], \
		     for [i = pfirst[p]:plast[p]] (fbrk[i] > 0 && x > fbrk[i] ? NaN : fa[i] + fb[i] * x) with lines dt 2 \
			lc (i - pfirst[p] + 1) title sprintf("fit%s: %.1f + %.4f %s (R2 %.4f)", \
			fbrk[i] > 0 ? sprintf(" %s <= %g", fitvar, fbrk[i]) : "", fa[i], fb[i], fitvar, fr2[i]), \
		     for [i = pfirst[p]:plast[p]] (fbrk[i] > 0 && x >= fbrk[i] ? fa2[i] + fb2[i] * x : NaN) with lines \
			dt 3 lw 2 lc (i - pfirst[p] + 1) title (fbrk[i] > 0 ? sprintf("fit %s >= %g: %.1f + %.4f %s (R2 %.4f)", \
			fitvar, fbrk[i], fa2[i], fb2[i], fitvar, fr22[i]) : "")
	}
	if (fit == 2) {
		plot for [i = pfirst[p]:plast[p]] dat index (i - 1) using "x":"median":"lo":"hi" \
			with yerrorlines lc (i - pfirst[p] + 1) pt (i - pfirst[p] + 1) ps 0.7 title stitle[i], \
		     for [i = pfirst[p]:plast[p]] fa[i] + fb[i] / x with lines dt 2 lc (i - pfirst[p] + 1) \
			title sprintf("fit: %.2f + %.2f/%s, saturates at %s = %g", fa[i], fb[i], fitvar, fitvar, fsat[i])
	}
	if (fit == 0) {
		plot for [i = pfirst[p]:plast[p]] dat index (i - 1) using "x":"median":"lo":"hi" \
			with yerrorlines lc (i - pfirst[p] + 1) pt (i - pfirst[p] + 1) ps 0.7 title stitle[i], \
		     for [k = 1:(ppeak[p] > 0)] ppeak[p] with lines dt 2 lw 2 lc rgb "black" \
			title sprintf("published dense peak %g", ppeak[p])
	}
}
unset multiplot
