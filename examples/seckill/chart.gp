# The seckill demo's chart: the same sale under each lock, at each php-fpm worker count.
# Called by scripts/demo.sh:
#   gnuplot -e "dat='demo.dat'; out='demo.png'; workers='16 64'" examples/seckill/chart.gp
# demo.dat (bin/seckill.php table --dat): one line per lock, its title quoted, then the 8
# medians of lib/compare.php SECKILL_COLUMNS for each worker count in turn.
set terminal pngcairo size 2000,1000 font "sans,10" noenhanced
set output out
NW = words(workers)
NF = 8
set multiplot layout 2,4 title "seckill: the same sale through the same endpoint under each lock (".strftime("%Y-%m-%d", time(0)).")"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set grid ytics
set yrange [0:*]
set xtics rotate by -35 font ",9"
set key top right font ",9"
color(w) = w == 1 ? '#88aadd' : w == 2 ? '#2255aa' : '#112244'
col(w, f) = 1 + (w - 1) * NF + f

set title "requests/s (higher is better)"
plot for [w=1:NW] dat using (column(col(w, 1))):xtic(1) title word(workers, w).' workers' lc rgb color(w)
set title "p50 latency, ms"
plot for [w=1:NW] dat using (column(col(w, 2))):xtic(1) title word(workers, w).' workers' lc rgb color(w)
set title "p99 latency, ms"
plot for [w=1:NW] dat using (column(col(w, 3))):xtic(1) title word(workers, w).' workers' lc rgb color(w)
set title "503s (lock not acquired in time)"
plot for [w=1:NW] dat using (column(col(w, 4))):xtic(1) title word(workers, w).' workers' lc rgb color(w)
set title "oversold items"
plot for [w=1:NW] dat using (column(col(w, 5))):xtic(1) title word(workers, w).' workers' lc rgb color(w)
set title "lock-Redis CPU per request, us (INFO cpu)"
plot for [w=1:NW] dat using (column(col(w, 6))):xtic(1) title word(workers, w).' workers' lc rgb color(w)
set title "php-fpm CPU per request, us (/proc)"
plot for [w=1:NW] dat using (column(col(w, 7))):xtic(1) title word(workers, w).' workers' lc rgb color(w)
set title "lock-Redis commands per request from clients (MONITOR)"
plot for [w=1:NW] dat using (column(col(w, 8))):xtic(1) title word(workers, w).' workers' lc rgb color(w)
unset multiplot
