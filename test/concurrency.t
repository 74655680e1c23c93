# TAP: 4 concurrent connections x 50,000 IDs from the same generator slot
# (next_id on one shard, next_sno, next_snowflake, next_sonyflake,
# next_shortid, next_spreadid in both modes): no duplicate, and each
# connection's IDs strictly increasing (but for spreadid's SPREAD mode).
. test/lib.sh
D=$UID_TEST_DIR
echo "1..21"
uid_psql "$D" -d postgres -c "DROP DATABASE IF EXISTS uid_conc" -c "CREATE DATABASE uid_conc"
uid_psql "$D" -d uid_conc -c "CREATE EXTENSION uniqueid"
t=0
# run_generator TYPE EXPR [unordered]: 4 connections x 50,000 calls of EXPR,
# then the checks (for an unordered generator, the order of the IDs' times)
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
	t=$((t + 1))
	if [ "${3:-}" = unordered ]; then
		back=$(uid_psql "$D" -d uid_conc -At -c \
			"SELECT count(*) FROM (SELECT id_time(id) < lag(id_time(id)) OVER (PARTITION BY conn ORDER BY n) AS back FROM got) s WHERE back")
		[ "$back" = 0 ] && echo "ok $t - $2: keys scattered, but each connection's times never go back" ||
			echo "not ok $t - $2: $back times went back"
		return
	fi
	back=$(uid_psql "$D" -d uid_conc -At -c \
		"SELECT count(*) FROM (SELECT id <= lag(id) OVER (PARTITION BY conn ORDER BY n) AS back FROM got) s WHERE back")
	[ "$back" = 0 ] && echo "ok $t - $2: each connection's IDs strictly increasing" || echo "not ok $t - $2: $back steps backwards"
}
run_generator shardid "next_id(11)"
run_generator sno "next_sno()"
run_generator snowflake "next_snowflake()"
run_generator sonyflake "next_sonyflake()"
run_generator shortid "next_shortid()"
run_generator spreadid "next_spreadid('time')"
run_generator spreadid "next_spreadid()" unordered
uid_psql "$D" -d postgres -c "DROP DATABASE uid_conc"
