# bench/charts.gp - draws the CSV that bench/run.sh writes (sections p, t, c
# and f) as PNG charts:
#   gnuplot -e "dir='bench/results/latest'; out='bench'" bench/charts.gp
# Each chart's subtitle is its run (date, machine, commit), from NAME.run.
set datafile separator ','
set terminal pngcairo size 1100,620 font 'sans,10' background rgb 'white'
set style fill solid 0.85 border -1
set grid ytics
set xtics rotate by 30 right nomirror noenhanced
set bmargin 10
set lmargin 12
set key noenhanced
have(f) = system('test -s '.dir.'/'.f.' && echo 1') eq '1'
run_of(f) = system('cat '.dir.'/'.f.'.run 2>/dev/null')
kindcolor(k) = k eq 'uniqueid' ? 0x2a6fb0 : k eq 'peer' ? 0xd9822b : k eq 'floor' ? 0x808080 : 0x4f9a4f

# 1. per-call cost beyond the loop, log scale
if (have('percall.csv')) {
set output out.'/percall.png'
set title "Cost per call beyond the loop, ns (log scale; blue uniqueid, orange peers, green core, grey a clock read)\n".run_of('percall') noenhanced
set logscale y
set yrange [1:*]
set ylabel 'ns per call'
set boxwidth 0.7
set key off
plot dir.'/percall.csv' skip 1 using 0:3:(kindcolor(strcol(2))):xtic(1) with boxes lc rgb variable, \
     '' skip 1 using 0:3:3 with labels offset 0,0.8
}

# 2. IDs/s by number of clients, with each layout's capacity
if (have('throughput.csv')) {
set output out.'/throughput.png'
set title "IDs per second with 1, 2 and 4 clients (pgbench, 1,000 IDs per transaction; log scale);\nblack line: the layout's capacity\n".run_of('throughput') noenhanced
set style data histograms
set style histogram clustered gap 1
set boxwidth 0.9
set yrange [10000:*]
set ylabel 'IDs per second'
set key top right
plot dir.'/throughput.csv' skip 1 using 3:xtic(1) title '1 client' lc rgb 0x9cc3e6, \
     '' skip 1 using 4 title '2 clients' lc rgb 0x4d8fcc, \
     '' skip 1 using 5 title '4 clients' lc rgb 0x1f4e79, \
     '' skip 1 using ($0 - 0.45):($2 > 0 ? $2 : NaN):(0.9):(0) with vectors nohead lw 3 lc rgb 'black' title 'capacity'
}

# 3. inserts per second with 2 clients, and index bytes per row
if (have('inserts.csv')) {
set output out.'/inserts.png'
set title "Rows inserted per second, 2 clients (pgbench, 1,000-row INSERT); label: primary key index bytes per row\n".run_of('inserts') noenhanced
unset logscale y
set style data boxes
set boxwidth 0.7
set yrange [0:*]
set ylabel 'rows per second'
set key off
plot dir.'/inserts.csv' skip 1 using 0:2:xtic(1) with boxes lc rgb 0x2a6fb0, \
     '' skip 1 using 0:2:(sprintf('%.1f B/row', $3)) with labels offset 0,0.8
}

# 4. and 5. section (s): rows/s and WAL bytes per row against the rows in the
# table, one line per key (scale.csv: key, label, rows, rows/s, WAL B/row, ...)
if (have('scale.csv')) {
keys = system('tail -n +2 '.dir.'/scale.csv | cut -d, -f1 | uniq | tr "\n" " "')
label_of(k) = system('grep -m1 "^'.k.'," '.dir.'/scale.csv | cut -d, -f2 | tr -d "\""')
# uniqueid: solid, in blues and greens; peers: dashed orange and red; core: dotted
color_of(k) = k eq 'bigserial' ? 0x000000 : k eq 'bigserial_end' ? 0x909090 : k eq 'gen_uuid' ? 0xd62728 : \
	k eq 'core_uuidv7' ? 0x8c564b : k eq 'peer_snow' ? 0xff7f0e : k eq 'peer_uuidv7' ? 0xe377c2 : \
	k eq 'id5' ? 0x1f77b4 : k eq 'snowflake' ? 0x17becf : k eq 'sno' ? 0x2ca02c : k eq 'objectid' ? 0x98df8a : \
	k eq 'uuid7' ? 0x9467bd : k eq 'ulid' ? 0x3a5fcd : k eq 'ksuid' ? 0x6b8e23 : k eq 'typeid' ? 0x4b0082 : 0x7f7f7f
dash_of(k) = (k eq 'peer_snow' || k eq 'peer_uuidv7') ? 2 : \
	(k eq 'bigserial' || k eq 'bigserial_end' || k eq 'gen_uuid' || k eq 'core_uuidv7') ? 3 : 1
set style data lines
unset xtics
set xtics nomirror norotate
set bmargin 4
set rmargin 42
set key outside right top noenhanced
set grid xtics ytics mytics
set xlabel 'rows in the table (millions)'
set output out.'/scale.png'
set title "Rows inserted per second as the table grows, one client; solid: uniqueid, dashed: peers, dotted: core\n".run_of('scale') noenhanced
set ylabel 'rows per second'
unset logscale y
set yrange [0:*]
set format y '%.0f'
plot for [k in keys] dir.'/scale.csv' skip 1 using ($3 / 1e6):(strcol(1) eq k ? $4 : NaN) lw 2 dt dash_of(k) lc rgb color_of(k) title label_of(k)
set output out.'/scale-wal.png'
set title "WAL bytes per row inserted as the table grows (log scale), full-page images after each checkpoint included;\nsolid: uniqueid, dashed: peers, dotted: core\n".run_of('scale') noenhanced
set ylabel 'WAL bytes per row'
set logscale y
set mytics 10
set yrange [*:*]
plot for [k in keys] dir.'/scale.csv' skip 1 using ($3 / 1e6):(strcol(1) eq k ? $5 : NaN) lw 2 dt dash_of(k) lc rgb color_of(k) title label_of(k)
}
