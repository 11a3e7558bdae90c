# energy-trace.gp: a sustained point (tcprobe run --sustain SEC): SM clock and board
# power vs time (top), GPU temperature and energy so far (bottom), one NVML sample
# every 100 ms from trace.csv (t_s, sm_clock_mhz, power_w, temp_c, throttle, energy_mj).
# Run by scripts/plots.sh: gnuplot -e "datadir='D'; out='F'; fmt='png|svg'; plotsdir='P'" energy-trace.gp
dat = datadir . "/energy-trace.dat"
set datafile separator ","
set datafile columnheaders
set datafile missing "NA"
set termoption noenhanced
if (fmt eq "svg") {
	set terminal svg size 1100, 800 dynamic noenhanced font "sans,11" background rgb "white"
} else {
	set terminal pngcairo size 1100, 800 noenhanced font "sans,10" background rgb "white"
}
set output out
H = 800
load plotsdir . "/footer.gnuplot"
set grid
set key bottom right box opaque
set multiplot title "Sustained point: SM clock, power and temperature vs time (NVML, 100 ms)"
set xlabel "time since the window began (s)"
set ylabel "SM clock (MHz)"
set y2label "board power (W)"
set ytics nomirror
set y2tics
set yrange [0:*]
set y2range [0:*]
set origin 0, py(2, 1); set size 1, ph(2)
plot dat using "t_s":"sm_clock_mhz" with lines lw 2 lc rgb "#4477aa" title "SM clock (MHz)", \
     dat using "t_s":"power_w" axes x1y2 with lines lw 1 lc rgb "#ee6677" title "power (W)"
set ylabel "GPU temperature (C)"
set y2label "energy since the window began (J)"
set yrange [*:*]
set y2range [0:*]
set origin 0, py(2, 2); set size 1, ph(2)
plot dat using "t_s":"temp_c" with lines lw 2 lc rgb "#228833" title "temperature (C)", \
     dat using "t_s":(column("energy_mj") / 1000.0) axes x1y2 with lines lw 1 lc rgb "#aa3377" title "energy (J)"
unset multiplot
