# TAP: 4 concurrent connections x 50,000 next_objectid(), all from the one
# shared slot: no duplicate, and each connection's IDs strictly increasing.
. test/lib.sh
D=$UID_TEST_DIR
echo "1..3"
uid_psql "$D" -d postgres -c "DROP DATABASE IF EXISTS uid_oid_conc" -c "CREATE DATABASE uid_oid_conc"
uid_psql "$D" -d uid_oid_conc -c "CREATE EXTENSION uniqueid" \
	-c "CREATE TABLE got (conn int, n int, id objectid)"
pids=()
rc=0
for c in 1 2 3 4; do
	uid_psql "$D" -d uid_oid_conc -c \
		"INSERT INTO got SELECT $c, n, next_objectid() FROM generate_series(1, 50000) n" &
	pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || rc=1; done
[ $rc -eq 0 ] && echo "ok 1 - next_objectid(): 4 connections generated concurrently" ||
	echo "not ok 1 - next_objectid(): a connection failed"
dups=$(uid_psql "$D" -d uid_oid_conc -At -c "SELECT count(*) - count(DISTINCT id) + (200000 - count(*)) FROM got")
[ "$dups" = 0 ] && echo "ok 2 - next_objectid(): 200000 IDs, no duplicate" ||
	echo "not ok 2 - next_objectid(): duplicates or missing rows: $dups"
back=$(uid_psql "$D" -d uid_oid_conc -At -c \
	"SELECT count(*) FROM (SELECT id <= lag(id) OVER (PARTITION BY conn ORDER BY n) AS back FROM got) s WHERE back")
[ "$back" = 0 ] && echo "ok 3 - next_objectid(): each connection's IDs strictly increasing" ||
	echo "not ok 3 - next_objectid(): $back steps backwards"
uid_psql "$D" -d postgres -c "DROP DATABASE uid_oid_conc"
