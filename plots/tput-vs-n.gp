# tput-vs-n.gp: MMA throughput (FLOP/clk/SM, median with the run's spread as error bar)
# vs N, one image per probe and kind (scripts/plots.sh passes panel = the image's panel),
# one line per remaining axis combination (ab, wg, M, cta_group, ...), against the
# published dense peak of the kind (model/kinds.h): a thin grey line behind the data.
# Run by scripts/plots.sh: gnuplot -e "datadir='D'; out='F'; fmt='png|svg'; plotsdir='P'; panel=K" tput-vs-n.gp
# (without panel: every kind in one grid image)
load datadir . "/tput-vs-n.gpvars"
dat = datadir . "/tput-vs-n.dat"
maintitle = exists("panel") ? "MMA throughput vs N (all SMs busy)" : \
	"MMA throughput vs N per kind (all SMs busy), against the published dense peak"
fit = 0; logx = 0; fitvar = "N"
set yrange [0:*]
keypos = "bottom right"
load plotsdir . "/panels.gnuplot"
