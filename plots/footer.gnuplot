# footer.gnuplot: the provenance footer every plot carries, so that a plot pasted alone
# into a slide still says where it came from.  Not a plot itself: loaded by each
# plots/<stem>.gp right after `set output`, with H = the canvas height in pixels and
# W = its width (1000 when not set).
# Reads datadir/footer.gpvars (`footer`: GPU, driver, CUDA, tcprobe version and commit,
# run and its date; written by `tcprobe report --extract`) and the plot's own
# `footnote` from <stem>.gpvars (the runs it mixes, or what in it is published, estimated
# or a model, with the source; "" when none).  A plot may set `fsize` (the footer's font
# size, the terminal's unit: points for PNG, pixels for SVG) and `fline` (a line's height
# in pixels) first.  Lines longer than the canvas is wide wrap at a space.  Sets:
#   FH          the footer's height, a fraction of the canvas: a single plot takes
#               `set origin 0, FH; set size 1, 1 - FH`
#   ph(r), py(r, i)  a multiplot of r rows (`set multiplot title T`, no layout: gnuplot's
#               layout cannot leave room for a footer) places row i (1 = top) with
#               `set origin x, py(r, i); set size w, ph(r)`, under the title's band TT
#   label 1000  the footer text, bottom left, small and grey
# The same text goes into the SVG's <title> and <desc> (scripts/plots.sh, <stem>.svgmeta).
load datadir . "/footer.gpvars"
if (!exists("footnote")) { footnote = "" }
if (!exists("W")) { W = 1000 }
if (!exists("fsize")) {
	fsize = 8
	if (W < 1000) {		# a narrow canvas: the run on a line of its own
		fsize = 7
		k = strstrt(footer, " | run ")
		if (k > 0) { footer = footer[1:k - 1] . "\n" . footer[k + 3:] }
	}
}
if (!exists("fline")) { fline = 2 * fsize - 2 }
# wrap: at most fmaxc characters a line (a sans glyph, digits included, is under 0.62 em; an em is
# fsize pixels in SVG, fsize points at 96 dpi in PNG), broken at the last space before
ftext = strlen(footnote) > 0 ? footer . "\n" . footnote : footer
fmaxc = int((W - 8) / (0.62 * (fmt eq "svg" ? fsize : fsize * 4.0 / 3)))
fout = ""
nfl = 0
while (strlen(ftext) > 0) {
	k = strstrt(ftext, "\n")
	fltext = k > 0 ? ftext[1:k - 1] : ftext
	ftext = k > 0 ? ftext[k + 1:] : ""
	while (strlen(fltext) > fmaxc) {
		k = fmaxc + 1
		while (k > 1 && fltext[k:k] ne " ") { k = k - 1 }
		if (k <= 1) { k = fmaxc + 1 }	# no space: break inside the word
		fout = fout . (nfl > 0 ? "\n" : "") . fltext[1:k - 1]
		nfl = nfl + 1
		fltext = fltext[k:k] eq " " ? fltext[k + 1:] : fltext[k:]
	}
	fout = fout . (nfl > 0 ? "\n" : "") . fltext
	nfl = nfl + 1
}
FH = (1.0 * fline * nfl + 8) / H
TT = 30.0 / H
ph(r) = (1 - TT - FH) / r
py(r, i) = FH + (r - i) * ph(r)
set label 1000 fout at screen 0.006, screen (4.0 + fline * nfl) / H left font sprintf(",%g", fsize) \
	textcolor rgb "#555555" front noenhanced
