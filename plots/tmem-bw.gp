# tmem-bw.gp: tcgen05.ld / st / cp bandwidth (B/clk/SM, median with spread) vs .num
# (log2), one panel per probe and op, one line per shape (and the other axes).
# Run by scripts/plots.sh: gnuplot -e "datadir='D'; out='F'; fmt='png|svg'; plotsdir='P'" tmem-bw.gp
load datadir . "/tmem-bw.gpvars"
dat = datadir . "/tmem-bw.dat"
maintitle = "TMEM bandwidth per shape and .num"
fit = 0; logx = 1; fitvar = "num"
set yrange [0:*]
keypos = "bottom right"
load plotsdir . "/panels.gnuplot"
