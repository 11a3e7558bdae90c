# compare-ratio.gp: `tcprobe compare --csv` drawn, one image per probe (a facet) and one
# for the rows only one run has.  scripts/plots.sh passes panel = K:
#   K <= NF  facet K: a row per metric (every row compare gave a verdict on numbers both
#            runs measured), the ratio NEW / BASE on a log2 axis zoomed to the facet's
#            data, tics as the change in % (or x2, x4 .. where the data spread wider);
#            colour = verdict, hollow = the point's SM clock explains the change, triangle
#            = a regression, cross = beyond the axis (drawn at its edge); grey box = the
#            row's noise band (median of its points'); numbered points (regressions, then
#            outliers) listed under the plot with their axes and change
#   K = NF+1 the strip: per probe, rows missing from NEW (OK in BASE), new in NEW (OK
#            there) and status changes (dark: OK -> not OK, a regression)
# Data: compare-ratio.dat (block K-1 a facet; block NF the strip's rows, NF+1 its counts)
# and compare-ratio.gpvars, from `tcprobe report --extract` (report-compare-plot.c).
# 700 px wide, every text 9 pt or more where a report page prints it.
# Run by scripts/plots.sh: gnuplot -e "datadir='D'; out='F'; fmt='png|svg'; plotsdir='P'; panel=K" compare-ratio.gp
load datadir . "/compare-ratio.gpvars"
dat = datadir . "/compare-ratio.dat"
set datafile separator "\t"
set datafile columnheaders
set termoption noenhanced
if (!exists("panel")) { panel = 1 }
W = 700
strip = panel > NF
f = panel
nm = strip ? NSR : fnm[f]
nl = strip ? 0 : flast[f] - flfirst[f] + 1
plotpx = strip ? 30 * NSR : nm * rowpx * NR
if (plotpx < 110) { plotpx = 110 }
H = int(70 + plotpx + 50 + 48 + nl * 15 + 8 + 80)
if (fmt eq "svg") {
	set terminal svg size W, H dynamic noenhanced font "sans,13" background rgb "white"
	sfont = ",12"; tfont = ",15"; fsize = 12; fline = 16; cw = 6.8
} else {
	set terminal pngcairo size W, H noenhanced font "sans,10" background rgb "white"
	sfont = ",9"; tfont = ",11"; fsize = 9; fline = 16; cw = 6.8
}
set output out
load plotsdir . "/footer.gnuplot"
LB = (nl > 0 ? nl * 15 + 8 : 0) * 1.0 / H
set origin 0, FH + LB
set size 1, 1 - FH - LB
set key below horizontal maxcols 4 font sfont samplen 1 width -2
set ytics font sfont nomirror
set xtics font sfont nomirror
set yrange [nm - 0.5:-0.5]
set ytics ()
# the title: two lines centred on the canvas (labels 3001, 3002: a plot's own title
# centres on its axes, which a long metric name pushes right)
set tmargin at screen 1 - 50.0 / H

if (!strip) {
	lm = (flm[f] * cw + 16) / W
	set lmargin at screen (lm < 0.55 ? lm : 0.55)
	do for [m = 0:nm - 1] { set ytics add (mlab[fmfirst[f] + m] m) }
	set xtics ()
	do for [t = ftfirst[f]:ftlast[f]] { set xtics add (tlab[t] tpos[t]) }
	set xrange [fx0[f]:fx1[f]]
	set grid xtics lc rgb "#dddddd"
	set label 3001 fname[f] . ": NEW / BASE per metric, log2 axis" at screen 0.5, screen 1 - 16.0 / H center font tfont
	set label 3002 ftitle[f] at screen 0.5, screen 1 - 34.0 / H center
	set xlabel "change NEW vs BASE (the ratio on a log2 axis)"
	do for [m = 0:nm - 1] {
		set object (m + 1) rect from mblo[fmfirst[f] + m], m - 0.45 to mbhi[fmfirst[f] + m], m + 0.45 \
			fc rgb "#e8e8e8" fs solid noborder behind
		if (m > 0) { set arrow (m + 1) from graph 0, first m - 0.5 to graph 1, first m - 0.5 nohead lc rgb "#eeeeee" back }
	}
	if (fx0[f] < 0 && fx1[f] > 0) { set arrow 1000 from 0, graph 0 to 0, graph 1 nohead lc rgb "#555555" back }
	do for [j = flfirst[f]:flast[f]] {
		set label (2000 + j) ltext[j] at screen 0.01, screen (FH * H + (flast[f] - j) * 15 + 12) / H left \
			font sfont noenhanced textcolor rgb "#222222"
	}
	color(c) = c == 0 ? 0xaaaaaa : (c == 1 ? 0x228833 : (c == 2 ? 0xee7733 : (c == 3 ? 0xaa3377 : 0xcc3311)))
	size(c) = c == 0 ? 0.5 : (c == 4 ? 1.3 : 0.8)
	plot dat index (f - 1) using "x":"y":(size(column("color"))):(column("pt")):(color(column("color"))) \
		with points ps variable pt variable lc rgb variable notitle, \
	     dat index (f - 1) using "x":"y":(strcol("num") eq "-" ? "" : strcol("num")) \
		with labels offset 0.9, 0 left font sfont textcolor rgb "#222222" notitle, \
	     NaN with points pt 7 ps 0.5 lc rgb "#aaaaaa" title "same", \
	     NaN with points pt 7 ps 0.8 lc rgb "#228833" title "faster", \
	     NaN with points pt 7 ps 0.8 lc rgb "#ee7733" title "slower", \
	     NaN with points pt 7 ps 0.8 lc rgb "#aa3377" title "changed", \
	     NaN with points pt 9 ps 1.3 lc rgb "#cc3311" title "regression", \
	     NaN with points pt 6 ps 0.8 lc rgb "#555555" title "hollow: SM clock", \
	     NaN with points pt 2 ps 0.8 lc rgb "#555555" title "beyond axis", \
	     NaN with boxes fs solid fc rgb "#e8e8e8" title "noise band"
} else {
	set lmargin at screen 0.3
	set label 3001 "Rows only one run measured (OK in that run), and status changes" at screen 0.5, \
		screen 1 - 16.0 / H center font tfont
	set label 3002 sprintf("(%d rows never OK in either run left out: UNSUPPORTED, SKIPPED, ...)", never_ok) \
		at screen 0.5, screen 1 - 34.0 / H center
	set xlabel "rows"
	set xrange [0:*]
	set offsets 0, graph 0.15, 0, 0
	set grid xtics lc rgb "#dddddd"
	bar(c) = column(c) > 0 ? column(c) : NaN
	plot dat index (NF + 1) using (bar("missing") / 2):(column("srow") - 0.25):(bar("missing") / 2):(0.11):ytic(strcol("label")) \
		with boxxyerror fs solid 0.85 noborder lc rgb "#cc3311" title "missing from NEW (OK in BASE)", \
	     dat index (NF + 1) using (bar("new") / 2):(column("srow")):(bar("new") / 2):(0.11) \
		with boxxyerror fs solid 0.85 noborder lc rgb "#4477aa" title "new in NEW (OK there)", \
	     dat index (NF + 1) using (bar("status") / 2):(column("srow") + 0.25):(bar("status") / 2):(0.11) \
		with boxxyerror fs solid 0.5 noborder lc rgb "#aa3377" title "status changed", \
	     dat index (NF + 1) using (bar("status_bad") / 2):(column("srow") + 0.25):(bar("status_bad") / 2):(0.11) \
		with boxxyerror fs solid 0.95 noborder lc rgb "#662244" title "... OK -> not OK (regression)", \
	     for [c in "missing new status"] dat index (NF + 1) using (column(c)):(column("srow") + \
		(c eq "missing" ? -0.25 : (c eq "new" ? 0 : 0.25))):(column(c) > 0 ? sprintf(" %d", int(column(c))) : "") \
		with labels left font sfont notitle
}
