# tput-vs-n.gp: MMA throughput (FLOP/clk/SM, median with the run's spread as error bar)
# vs N, one panel per probe and kind, one line per remaining axis combination (ab, wg,
# M, cta_group, ...), against the published dense peak of the kind (model/kinds.h).
# Run by scripts/plots.sh: gnuplot -e "datadir='D'; out='F'; fmt='png|svg'; plotsdir='P'" tput-vs-n.gp
load datadir . "/tput-vs-n.gpvars"
dat = datadir . "/tput-vs-n.dat"
maintitle = "MMA throughput vs N per kind (all SMs busy), against the published dense peak"
fit = 0; logx = 0; fitvar = "N"
set yrange [0:*]
keypos = "bottom right"
load plotsdir . "/panels.gnuplot"
