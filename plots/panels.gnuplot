# panels.gnuplot: shared body of the x-vs-y plots (tput-vs-n, lat-vs-n, ii-vs-depth,
# tmem-bw).  Not a plot itself: loaded by them after they set
#   dat (data file), maintitle, fit (0 none, 1 a + b x, 2 a + b / x), logx (0/1), fitvar,
#   keypos ("top left", ...), and optionally yhead (headroom above the data, fraction
#   of the panel, so that a key at the top does not cover lines)
# and after <stem>.gpvars defined NP, NS, ptitle/pfirst/plast/ppeak/pcat/pxlabel,
# pylabel, stitle/fa/fb/fr2/fsat, fbrk/fa2/fb2/fr22 (fit 1 in two segments: the second
# from x = fbrk, 0 = one line), fit 1's fx0/fx1/fn (the first segment's x range and
# points, fn 0: not fitted) and fx2/fn2 (the second's, from fbrk), and NCAT/xcat when
# some panel's x is categorical.
# Panel p draws series pfirst[p]..plast[p] (datasets index i-1 of dat, columns x,
# median, lo, hi chosen by header name).  All panels go into one image, a grid; with
# `panel` set (scripts/plots.sh, from the plot's list of images) only that panel, in an
# image of its own: 700 px wide, so that a report page (186 mm of text, 703 px at 96 dpi)
# prints it at its own size and every text at 9 pt or more, two to a page (440 px
# tall); its published peak line thin, grey and behind the data.
set datafile separator "\t"
set datafile columnheaders
set termoption noenhanced
single = exists("panel")
p0 = single ? panel : 1
p1 = single ? panel : NP
cols = single || NP < 2 ? 1 : (NP <= 4 ? 2 : 3)
rows = single ? 1 : int(ceil(NP * 1.0 / cols))
W = single ? 700 : 640 * cols
H = single ? 440 : 480 * rows + 40
kfont = ",8"
if (single) {
	# PNG fonts in points (96 dpi), SVG fonts in pixels: 9 pt = 12 px
	if (fmt eq "svg") {
		set terminal svg size W, H dynamic noenhanced font "sans,13" background rgb "white"
		kfont = ",12"; fsize = 12; fline = 16; tfont = ",15"
	} else {
		set terminal pngcairo size W, H noenhanced font "sans,10" background rgb "white"
		kfont = ",9"; fsize = 9; fline = 16; tfont = ",11"
	}
} else {
	if (fmt eq "svg") {
		set terminal svg size W, H dynamic noenhanced font "sans,11" background rgb "white"
	} else {
		set terminal pngcairo size W, H noenhanced font "sans,10" background rgb "white"
	}
}
set output out
load plotsdir . "/footer.gnuplot"
set grid
set key @keypos Left reverse box opaque font kfont samplen 2
if (single) { set multiplot title maintitle font tfont } else { set multiplot title maintitle }
yh = exists("yhead") ? yhead : 0
do for [p = p0:p1] {
	set title ptitle[p]
	yl = pylabel[p]
	if (single && strstrt(yl, ", median") > 0) {	# the short y label; the rest under the title
		set title ptitle[p] . "\n(median of the repetitions; bar = their spread)" font kfont
		yl = yl[1:strstrt(yl, ", median") - 1]
	}
	set origin ((p - p0) % cols) * 1.0 / cols, py(rows, (p - p0) / cols + 1); set size 1.0 / cols, ph(rows)
	set xlabel pxlabel[p]
	set ylabel yl
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
		# each fitted segment over its own x range, with its points n; a series of fewer
		# than 3 points has no fit (fn = 0) and no line
		plot for [i = pfirst[p]:plast[p]] dat index (i - 1) using "x":"median":"lo":"hi" \
			with yerrorlines lc (i - pfirst[p] + 1) pt (i - pfirst[p] + 1) ps 0.7 \
			title stitle[i] . (fn[i] > 0 ? "" : " (fewer than 3 N: not fitted)"), \
		     for [i = pfirst[p]:plast[p]] [t = (fn[i] > 0 ? fx0[i] : 0):(fn[i] > 0 ? fx1[i] : 1)] "+" \
			using (t):(fn[i] > 0 ? fa[i] + fb[i] * t : NaN) with lines dt 2 lc (i - pfirst[p] + 1) \
			title (fn[i] > 0 ? sprintf("fit %s %g-%g: %.1f + %.4f %s (R2 %.4f, n %d)", fitvar, fx0[i], \
			fx1[i], fa[i], fb[i], fitvar, fr2[i], fn[i]) : ""), \
		     for [i = pfirst[p]:plast[p]] [t = (fn2[i] > 0 ? fbrk[i] : 0):(fn2[i] > 0 ? fx2[i] : 1)] "+" \
			using (t):(fn2[i] > 0 ? fa2[i] + fb2[i] * t : NaN) with lines dt 3 lw 2 lc (i - pfirst[p] + 1) \
			title (fn2[i] > 0 ? sprintf("fit %s %g-%g: %.1f + %.4f %s (R2 %.4f, n %d)", fitvar, fbrk[i], \
			fx2[i], fa2[i], fb2[i], fitvar, fr22[i], fn2[i]) : "")
	}
	if (fit == 2) {
		plot for [i = pfirst[p]:plast[p]] dat index (i - 1) using "x":"median":"lo":"hi" \
			with yerrorlines lc (i - pfirst[p] + 1) pt (i - pfirst[p] + 1) ps 0.7 title stitle[i], \
		     for [i = pfirst[p]:plast[p]] fa[i] + fb[i] / x with lines dt 2 lc (i - pfirst[p] + 1) \
			title sprintf("fit: %.2f + %.2f/%s, saturates at %s = %g", fa[i], fb[i], fitvar, fitvar, fsat[i])
	}
	if (fit == 0 && ppeak[p] > 0) {
		# the published peak first: drawn behind the data
		plot ppeak[p] with lines dt 2 lw 1 lc rgb "#999999" title sprintf("published dense peak %g", ppeak[p]), \
		     for [i = pfirst[p]:plast[p]] dat index (i - 1) using "x":"median":"lo":"hi" \
			with yerrorlines lc (i - pfirst[p] + 1) pt (i - pfirst[p] + 1) ps 0.7 title stitle[i]
	}
	if (fit == 0 && !(ppeak[p] > 0)) {
		# no peak: `for [k = 1:0]` draws nothing, and keeps these plots' SVG group ids
		plot for [i = pfirst[p]:plast[p]] dat index (i - 1) using "x":"median":"lo":"hi" \
			with yerrorlines lc (i - pfirst[p] + 1) pt (i - pfirst[p] + 1) ps 0.7 title stitle[i], \
		     for [k = 1:(ppeak[p] > 0)] ppeak[p] with lines dt 2 lw 2 lc rgb "black" \
			title sprintf("published dense peak %g", ppeak[p])
	}
}
unset multiplot
