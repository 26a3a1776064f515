# Seven panels of the benchmark, an eighth with the Swoole rows when they ran. Called by run.sh:
#   gnuplot -e "out='bench/out'; libs='phpredis predis ...'" bench/chart.gp
set terminal pngcairo size 2000,900 font "sans,10" noenhanced
set output out.'/bench.png'
set multiplot layout 2,4 title "rlock vs PHP Redis locks (".strftime("%Y-%m-%d", time(0)).")"
set grid ytics

set title "Uncontended lock+unlock, cycles/s (higher is better)"
set style data histograms
set style fill solid 0.7 border -1
set boxwidth 0.7
set yrange [0:*]
unset key
set xtics rotate by -30 font ",9"
plot out.'/uncontended.dat' using 2:xticlabels(1) linecolor rgb "#4477aa"
set key below horizontal font ",9"

set style data linespoints
set logscale x 2
set xtics norotate (1, 4, 8, 32, 128, 256) font ",10"
set xlabel "processes"
set xrange [*:320]
file(l) = out.'/contended-'.l.'.dat'
width(l) = l eq 'rlock' ? 3.5 : l[1:6] eq 'rlock_' ? 2.5 : 1.5
color(l) = l eq 'rlock' ? '#d62728' : l eq 'phpredis' ? '#4477aa' : l eq 'predis' ? '#66ccee' : \
	l eq 'symfony' ? '#228833' : l eq 'malkusch' ? '#aa3377' : l eq 'rlock_redlock' ? '#ee7733' : \
	l eq 'rlock_cluster' ? '#882255' : l eq 'baton' ? '#000000' : l eq 'laravel' ? '#ccbb44' : '#777777'
N = words(libs)

set title "Throughput, sections/s (higher is better)"
plot for [i=1:N] file(word(libs,i)) using 1:2 title word(libs,i) lw width(word(libs,i)) lc rgb color(word(libs,i))

set title "Efficiency: lock busy share of wall time, %"
set yrange [0:105]
plot for [i=1:N] file(word(libs,i)) using 1:3 title word(libs,i) lw width(word(libs,i)) lc rgb color(word(libs,i))

set title "p99 wait / fair share (lower is better)"
set yrange [0.01:*]
set logscale y
plot for [i=1:N] file(word(libs,i)) using 1:4 title word(libs,i) lw width(word(libs,i)) lc rgb color(word(libs,i))
unset logscale y

set title "Redis us per section, commandstats (lower is better)"
set yrange [0:*]
plot for [i=1:N] file(word(libs,i)) using 1:5 title word(libs,i) lw width(word(libs,i)) lc rgb color(word(libs,i))

set title "Client commands per section, MONITOR (lower is better)"
set logscale y
set yrange [1:*]
plot for [i=1:N] file(word(libs,i)) using 1:6 title word(libs,i) lw width(word(libs,i)) lc rgb color(word(libs,i))

unset logscale y
set yrange [0:*]

set title "Lock-Redis CPU us per section, INFO cpu (lower is better)"
plot for [i=1:N] file(word(libs,i)) using 1:8 title word(libs,i) lw width(word(libs,i)) lc rgb color(word(libs,i))

# the flash sale on Swoole (BENCH_SWOOLE=1: bench/swoole.php's rows), when it ran
if (system("test -s ".out."/swoole.dat && echo 1") eq "1") {
	set title "Swoole flash sale, req/s (higher is better)"
	unset logscale x
	unset xlabel
	set xrange [*:*]
	set yrange [0:*]
	set style data histograms
	unset key
	set xtics rotate by -30 font ",9"
	plot out.'/swoole.dat' using 2:xticlabels(1) linecolor rgb "#d62728"
}

unset multiplot
