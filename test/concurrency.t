# TAP: 4 concurrent connections x 50,000 IDs from the same generator slot
# (next_id on one shard, then next_sno): no duplicate, and each connection's
# IDs strictly increasing.
. test/lib.sh
D=$UID_TEST_DIR
echo "1..6"
uid_psql "$D" -d postgres -c "DROP DATABASE IF EXISTS uid_conc" -c "CREATE DATABASE uid_conc"
uid_psql "$D" -d uid_conc -c "CREATE EXTENSION uniqueid"
t=0
# run_generator TYPE EXPR: 4 connections x 50,000 calls of EXPR, then the checks
run_generator() {
	uid_psql "$D" -d uid_conc -c "DROP TABLE IF EXISTS got" -c "CREATE TABLE got (conn int, n int, id $1)"
	local pids=() rc=0 p c dups back
	for c in 1 2 3 4; do
		uid_psql "$D" -d uid_conc -c \
			"INSERT INTO got SELECT $c, n, $2 FROM generate_series(1, 50000) n" &
		pids+=($!)
	done
	for p in "${pids[@]}"; do wait "$p" || rc=1; done
	t=$((t + 1))
	[ $rc -eq 0 ] && echo "ok $t - $2: 4 connections generated concurrently" || echo "not ok $t - $2: a connection failed"
	dups=$(uid_psql "$D" -d uid_conc -At -c "SELECT count(*) - count(DISTINCT id) + (200000 - count(*)) FROM got")
	t=$((t + 1))
	[ "$dups" = 0 ] && echo "ok $t - $2: 200000 IDs, no duplicate" || echo "not ok $t - $2: duplicates or missing rows: $dups"
	back=$(uid_psql "$D" -d uid_conc -At -c \
		"SELECT count(*) FROM (SELECT id <= lag(id) OVER (PARTITION BY conn ORDER BY n) AS back FROM got) s WHERE back")
	t=$((t + 1))
	[ "$back" = 0 ] && echo "ok $t - $2: each connection's IDs strictly increasing" || echo "not ok $t - $2: $back steps backwards"
}
run_generator shardid "next_id(11)"
run_generator sno "next_sno()"
uid_psql "$D" -d postgres -c "DROP DATABASE uid_conc"
