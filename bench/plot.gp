# gnuplot -e "dir='DIR'; title='...'" bench/plot.gp: DIR/throughput.png from
# DIR/scaling.dat and DIR/interference.dat (written by report.awk, mode=dat).
set terminal pngcairo size 1400,560 font "sans,11"
set output dir."/throughput.png"
set multiplot layout 1,2 title title
set key autotitle columnhead

set title "Readers reporting, writer sets a new error every 100 us"
set xlabel "reader threads"
set ylabel "million reports/s per reader (log)"
set logscale y
set grid ytics mytics xtics
set key outside bottom center horizontal
set xtics 1
set offsets 0.2, 0.2, 0, 0
plot for [i=2:7] dir."/scaling.dat" using 1:i with linespoints lw 2 pt 7 ps 1.2

set title "Checkers while a writer sets errors (1.00 = as fast as with the writer idle)"
set xlabel ""
set ylabel "reader checks/s, relative to writer idle"
unset logscale y
set yrange [0:1.25]
set ytics 0.1
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics nomirror rotate by 0
set key outside bottom center horizontal
plot dir."/interference.dat" using 2:xtic(1) title "writer repeats the same unseen error" lc rgb "#2ca02c", \
     '' using 3 title "writer alternates EIO/ENOSPC (every set writes)" lc rgb "#d62728", \
     1 with lines dt 2 lc rgb "black" notitle
unset multiplot
