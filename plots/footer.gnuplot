# footer.gnuplot: the provenance footer every plot carries, so that a plot pasted alone
# into a slide still says where it came from.  Not a plot itself: loaded by each
# plots/<stem>.gp right after `set output`, with H = the canvas height in pixels.
# Reads datadir/footer.gpvars (`footer`: GPU, driver, CUDA, tcprobe version and commit,
# run and its date; written by `tcprobe report --extract`) and the plot's own
# `footnote` from <stem>.gpvars (the runs it mixes, or what in it is published or a
# model, with the source; "" when none).  Sets:
#   FH          the footer's height, a fraction of the canvas: a single plot takes
#               `set origin 0, FH; set size 1, 1 - FH`
#   ph(r), py(r, i)  a multiplot of r rows (`set multiplot title T`, no layout: gnuplot's
#               layout cannot leave room for a footer) places row i (1 = top) with
#               `set origin x, py(r, i); set size w, ph(r)`, under the title's band TT
#   label 1000  the footer text, bottom left, small and grey
# The same text goes into the SVG's <title> and <desc> (scripts/plots.sh, <stem>.svgmeta).
load datadir . "/footer.gpvars"
if (!exists("footnote")) { footnote = "" }
fsize = 8
if (exists("W") && W < 1000) {		# a narrow canvas: the run on a line of its own
	fsize = 7
	k = strstrt(footer, " | run ")
	if (k > 0) { footer = footer[1:k - 1] . "\n" . footer[k + 3:] }
}
nfl = (strstrt(footer, "\n") > 0 ? 2 : 1) + (strlen(footnote) > 0 ? 1 : 0)
FH = (2.0 * fsize * nfl - 2 * nfl + 8) / H
TT = 30.0 / H
ph(r) = (1 - TT - FH) / r
py(r, i) = FH + (r - i) * ph(r)
ftext = strlen(footnote) > 0 ? footer . "\n" . footnote : footer
set label 1000 ftext at screen 0.006, screen (4.0 + (2 * fsize - 2) * nfl) / H left font sprintf(",%d", fsize) \
	textcolor rgb "#555555" front noenhanced
