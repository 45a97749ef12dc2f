# gnuplot -e "dat='FILE.dat'; out='FILE.svg'; ttl='TITLE'" difftest/chart.gp
# The campaign report's chart (difftest report -g, tool/report.c): one bar group per row
# of the report's first table (kernel, filesystem mode, contract), from FILE.dat, whose
# columns are
#   "mode kernel/contract"  ops  scripts  divergent  attributed  unexplained
# Top: the ops run. Bottom: the divergent scripts, stacked: attributed (explained by
# contract switches) and unexplained (by none); the number over each bar is the divergent
# scripts. Written as SVG to FILE.svg.
stats dat using 2 nooutput
rows = STATS_records
opsmax = STATS_max
stats dat using 4 nooutput
divmax = STATS_max
w = rows * 44 + 260
set terminal svg size (w < 900 ? 900 : w), 880 dynamic font "sans,12" background "white"
set output out
set termoption noenhanced
set multiplot layout 2,1 title ttl

set style data histograms
set style fill solid 0.85 border -1
set boxwidth 0.8
set grid ytics
set xtics rotate by -40 left nomirror scale 0
# the same margins in both plots, so that their bars line up
set lmargin 10
set rmargin 12
set bmargin 10

set title "ops run, per filesystem mode and kernel/contract"
set ylabel "ops"
set style histogram clustered gap 0.25
set yrange [0:(opsmax > 0 ? opsmax * 1.12 : 1)]
unset key
plot dat using 2:xtic(1) notitle lc rgb "#4c72b0", \
     '' using 0:2:(sprintf("%d", $2)) with labels offset 0,0.6 font ",9" notitle

set title "divergent scripts, per filesystem mode and kernel/contract: attributed to contract switches, or unexplained"
set ylabel "scripts"
set style histogram rowstacked
set key outside top center horizontal
set yrange [0:(divmax > 0 ? divmax * 1.2 : 1)]
plot dat using 5:xtic(1) title "attributed" lc rgb "#dd8452", \
     '' using 6 title "unexplained" lc rgb "#c44e52", \
     '' using 0:4:(sprintf("%d", $4)) with labels offset 0,0.6 font ",9" notitle
unset multiplot
