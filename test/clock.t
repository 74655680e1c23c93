# TAP: the server's clock goes back 10 s (test/clockshift.c) while a client
# generates: no duplicate, no step backwards, and no call waits for the clock.
. test/lib.sh
echo "1..5"
D=$(uid_tmpdir)
trap 'uid_cluster_stop "$D"; rm -rf "$D"' EXIT
mapfile -t conf < <(grep -v '^\s*#' test/postgresql.conf | grep -v '^\s*$')
uid_cluster_init "$D" "${conf[@]}"
# Every process of the server reads the clock the test sets: real at first,
# 10 s behind from the 30th batch on.
uid_cluster_start "$D" $(uid_clock_env "$D") &&
	echo "ok 1 - server started on a clock the test sets" || echo "not ok 1 - server did not start"
uid_psql "$D" -d postgres -c "CREATE EXTENSION uniqueid" \
	-c "CREATE TABLE got (batch int, n int, id shardid)" \
	-c "CREATE TABLE clocks (batch int, t timestamptz)"
# 80 batches of 2,000 IDs about 50 ms apart (paced by the shell, since
# pg_sleep follows the wall clock), through the moment the clock goes back.
# psql's \timing uses the real monotonic clock, so it can time each batch.
(
	for b in $(seq 1 80); do
		[ "$b" = 30 ] && uid_clock_set "$D" -10
		echo "\\timing on"
		echo "INSERT INTO got SELECT $b, n, next_id(3) FROM generate_series(1, 2000) n;"
		echo "\\timing off"
		echo "INSERT INTO clocks VALUES ($b, clock_timestamp());"
		sleep 0.05
	done
) | uid_psql "$D" -d postgres >"$D/gen.out" 2>&1
[ $? -eq 0 ] && echo "ok 2 - generation ran through the clock change" || { echo "not ok 2 - generation failed"; cat "$D/gen.out" >&2; }
stats=$(uid_psql "$D" -d postgres -At -F ' ' -c "SELECT count(*), count(DISTINCT id),
	(SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY batch, n) AS back FROM got) s WHERE back),
	(SELECT max(prev - t) > interval '9 s' FROM (SELECT t, lag(t) OVER (ORDER BY batch) AS prev FROM clocks) c)
	FROM got")
read -r total distinct back regressed <<<"$stats"
[ "$total" = 160000 ] && [ "$distinct" = 160000 ] && echo "ok 3 - 160000 IDs, no duplicate" ||
	echo "not ok 3 - $total IDs, $distinct distinct"
[ "$back" = 0 ] && echo "ok 4 - no step backwards across the clock change" || echo "not ok 4 - $back steps backwards"
# A batch that waited for the clock to catch up would take about 10 s.
slowest=$(grep -oP '^Time: \K[0-9.]+' "$D/gen.out" | sort -n | tail -n 1)
if [ "$regressed" = t ] && awk -v s="${slowest:-99999}" 'BEGIN { exit !(s < 1000) }'; then
	echo "ok 5 - the clock went back mid-run and no batch waited for it (slowest ${slowest} ms)"
else
	echo "not ok 5 - clock went back: $regressed, slowest batch ${slowest} ms"
fi
