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
set xtics rotate by -35 font ",9"
set key top right font ",9"
color(w) = w == 1 ? '#88aadd' : w == 2 ? '#2255aa' : '#112244'
col(w, f) = 1 + (w - 1) * NF + f

array title[NF] = ["requests/s (higher is better)", "p50 latency, ms", "p99 latency, ms", \
	"503s (lock not acquired in time)", "oversold items", "lock-Redis CPU per request, us (INFO cpu)", \
	"php-fpm CPU per request, us (/proc)", "lock-Redis commands per request from clients (MONITOR)"]
do for [f=1:NF] {
	set title title[f]
	# (a panel of zeros, as 503s and oversold should be, is drawn from 0 to 1: gnuplot would
	# warn of an empty range)
	set autoscale y  # (stats reads within the y range: the last panel's)
	top = 0
	do for [w=1:NW] {
		stats dat using (column(col(w, f))) nooutput
		top = STATS_max > top ? STATS_max : top
	}
	if (top > 0) { set yrange [0:*] } else { set yrange [0:1] }
	plot for [w=1:NW] dat using (column(col(w, f))):xtic(1) title word(workers, w).' workers' lc rgb color(w)
}
unset multiplot
