# TAP: many servers.  Three PostgreSQL servers, each with uniqueid preloaded,
# its own uniqueid.node and a disjoint uniqueid.shards range, hold one schema
# per logical shard (as Instagram did) and insert concurrently through
# DEFAULT next_id(shard).  A coordinator database reads all of them through
# postgres_fdw (a table partitioned by id_shard(id) whose partitions are
# foreign tables) and checks: no duplicate across servers, ORDER BY id is
# creation order up to clock skew, and id_shard(id) routes every row to the
# server holding it.  Then logical shard 11 moves from server a to server c,
# whose clock is 30 s behind, with shard_adopt: no ID repeats, order is kept,
# also after c restarts.
. test/lib.sh
echo "1..14"
declare -A DIR NODE SHARDS MINE
for s in a b c; do DIR[$s]=$(uid_tmpdir); done
cleanup() {
	for s in a b c; do uid_cluster_stop "${DIR[$s]}"; rm -rf "${DIR[$s]}"; done
}
trap cleanup EXIT
NODE=([a]=1 [b]=2 [c]=3)
SHARDS=([a]='0-2729' [b]='2730-5459' [c]='5460-8191')
MINE=([a]='10 11' [b]='3000 3001' [c]='6000 6001')
q() { local s=$1; shift; uid_psql "${DIR[$s]}" -d postgres -At -F ' ' -c "$*"; }
qc() { uid_psql "${DIR[a]}" -d coord -At -F ' ' -c "$*"; }

ok=0
for s in a b c; do
	uid_cluster_init "${DIR[$s]}" "uniqueid.node = ${NODE[$s]}" "uniqueid.shards = '${SHARDS[$s]}'" &&
		uid_cluster_start "${DIR[$s]}" && ok=$((ok + 1))
	q "$s" "CREATE EXTENSION uniqueid"
	for n in ${MINE[$s]}; do
		q "$s" "CREATE SCHEMA s$n; CREATE TABLE s$n.photos (id shardid PRIMARY KEY DEFAULT next_id($n),
			server text NOT NULL DEFAULT '$s', made_at timestamptz NOT NULL DEFAULT clock_timestamp(), n int)"
	done
done
[ $ok = 3 ] && echo "ok 1 - three servers, nodes 1-3, shards 0-2729 / 2730-5459 / 5460-8191" || echo "not ok 1 - servers: $ok"

# concurrent inserts: one client per logical shard, 10 batches of 2,000 rows
pids=()
for s in a b c; do
	for n in ${MINE[$s]}; do
		( for b in $(seq 1 10); do echo "INSERT INTO s$n.photos (n) SELECT g FROM generate_series(1, 2000) g;"; done ) |
			uid_psql "${DIR[$s]}" -d postgres &
		pids+=($!)
	done
done
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=1; done
[ $rc = 0 ] && echo "ok 2 - 6 clients on 3 servers inserted concurrently" || echo "not ok 2 - an insert failed"

# the coordinator
q a "CREATE DATABASE coord"
qc "CREATE EXTENSION uniqueid; CREATE EXTENSION postgres_fdw;
	CREATE TABLE shard_map (shard int PRIMARY KEY, server text NOT NULL);
	CREATE TABLE photos (id shardid NOT NULL, server text, made_at timestamptz, n int) PARTITION BY LIST (id_shard(id));"
for s in a b c; do
	qc "CREATE SERVER srv_$s FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '${DIR[$s]}', port '5432', dbname 'postgres');
		CREATE USER MAPPING FOR postgres SERVER srv_$s OPTIONS (user 'postgres')"
	for n in ${MINE[$s]}; do
		qc "INSERT INTO shard_map VALUES ($n, '$s');
			CREATE FOREIGN TABLE photos_$n PARTITION OF photos FOR VALUES IN ($n)
			SERVER srv_$s OPTIONS (schema_name 's$n', table_name 'photos')"
	done
done
# where each row physically is: the server of the foreign partition it came from
qc "CREATE VIEW located AS SELECT p.*, fs.srvname AS held_by, m.server AS mapped_to
	FROM photos p JOIN pg_foreign_table ft ON ft.ftrelid = p.tableoid
	JOIN pg_foreign_server fs ON fs.oid = ft.ftserver JOIN shard_map m ON m.shard = id_shard(p.id)"

read -r total distinct <<<"$(qc "SELECT count(*), count(DISTINCT id) FROM photos")"
[ "$total" = 120000 ] && [ "$distinct" = 120000 ] && echo "ok 3 - 120000 rows through postgres_fdw, no duplicate across servers" ||
	echo "not ok 3 - $total rows, $distinct distinct"
[ "$(qc "SELECT count(*) FROM located WHERE held_by <> 'srv_' || mapped_to OR server <> mapped_to")" = 0 ] &&
	echo "ok 4 - id_shard(id) routes every row to the server that holds it" || echo "not ok 4 - misrouted rows"
[ "$(qc "SELECT count(DISTINCT id_shard(id)) FROM photos")" = 6 ] && echo "ok 5 - six logical shards present" ||
	echo "not ok 5 - shards missing"
# sorted by id, no row was made more than 100 ms before a row sorted ahead of it
skew=$(qc "SELECT coalesce(extract(epoch FROM max(before - made_at)) * 1000, 0)::int FROM (SELECT made_at,
	max(made_at) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before FROM photos) s")
[ "$skew" -lt 100 ] && echo "ok 6 - ORDER BY id is creation order across servers, up to ${skew} ms" ||
	echo "not ok 6 - ORDER BY id strays ${skew} ms from creation order"
qc "EXPLAIN (COSTS OFF) SELECT * FROM photos WHERE id_shard(id) = 3000" | grep -q 'photos_3000' &&
	! qc "EXPLAIN (COSTS OFF) SELECT * FROM photos WHERE id_shard(id) = 3000" | grep -q 'photos_10' &&
	echo "ok 7 - a query for one logical shard reaches only its server" || echo "not ok 7 - no partition pruning"

# move logical shard 11 from a to c; c's clock is 30 s behind
uid_cluster_stop "${DIR[c]}"
uid_clock_set "${DIR[c]}" -30
uid_cluster_start "${DIR[c]}" $(uid_clock_env "${DIR[c]}")
# a last batch on a, so that the shard's last ID is recent
q a "INSERT INTO s11.photos (n) SELECT g FROM generate_series(1, 1000) g"
# 1. a stops generating for shard 11
uid_psql "${DIR[a]}" -d postgres -c "ALTER SYSTEM SET uniqueid.shards = '0-10,12-2729'" -c "SELECT pg_reload_conf()" >/dev/null
for _ in $(seq 1 50); do q a "SELECT next_id(11)" >/dev/null 2>&1 || break; sleep 0.1; done
err=$(uid_psql "${DIR[a]}" -d postgres -c "\\set VERBOSITY verbose" -c "SELECT next_id(11)" 2>&1)
echo "$err" | grep -q '22023: shard 11 is not owned by this server' &&
	echo "ok 8 - after reload, server a refuses shard 11, naming uniqueid.shards" || echo "not ok 8 - got: $err"
# 2. its data moves; 3. c adopts the shard from its last ID; 4. c owns it
"$UID_PGBIN/pg_dump" -h "${DIR[a]}" -p 5432 -U postgres -d postgres -n s11 | uid_psql "${DIR[c]}" -d postgres >/dev/null
last=$(q a "SELECT max(id) FROM s11.photos")
q c "SELECT shard_adopt(11, '$last'::shardid)" >/dev/null
uid_psql "${DIR[c]}" -d postgres -c "ALTER SYSTEM SET uniqueid.shards = '11,5460-8191'" -c "SELECT pg_reload_conf()" >/dev/null
for _ in $(seq 1 50); do q c "SELECT next_id(11)" >/dev/null 2>&1 && break; sleep 0.1; done
q c "INSERT INTO s11.photos (server, n) SELECT 'c', g FROM generate_series(1, 20000) g"
read -r behind greater <<<"$(q c "SELECT clock_timestamp() < id_time('$last'::shardid) - interval '25 s',
	(SELECT min(id) FROM s11.photos WHERE server = 'c') > '$last'::shardid")"
[ "$behind" = t ] && echo "ok 9 - server c's clock is 30 s behind the shard's last ID" || echo "not ok 9 - clock not behind"
[ "$greater" = t ] && echo "ok 10 - every ID c gives shard 11 is greater than every ID a gave it" ||
	echo "not ok 10 - IDs went back"
# the coordinator follows the move
qc "UPDATE shard_map SET server = 'c' WHERE shard = 11; DROP FOREIGN TABLE photos_11;
	CREATE FOREIGN TABLE photos_11 PARTITION OF photos FOR VALUES IN (11) SERVER srv_c OPTIONS (schema_name 's11', table_name 'photos')"
read -r total distinct <<<"$(qc "SELECT count(*), count(DISTINCT id) FROM photos")"
[ "$total" = 141000 ] && [ "$distinct" = 141000 ] && echo "ok 11 - 141000 rows after the move, no duplicate" ||
	echo "not ok 11 - $total rows, $distinct distinct"
[ "$(qc "SELECT count(*) FROM located WHERE held_by <> 'srv_' || mapped_to")" = 0 ] &&
	echo "ok 12 - routing by id_shard(id) and the shard map still holds" || echo "not ok 12 - misrouted rows"
[ "$(qc "SELECT count(*) FROM (SELECT server, lag(server) OVER (ORDER BY id) AS prev FROM photos WHERE id_shard(id) = 11) s
	WHERE prev = 'c' AND server = 'a'")" = 0 ] && echo "ok 13 - in shard 11, ORDER BY id puts every row of c after every row of a" ||
	echo "not ok 13 - order of shard 11 broken"
# the adoption is durable: c restarts, its clock still behind
uid_cluster_stop "${DIR[c]}"
uid_clock_set "${DIR[c]}" -30
uid_cluster_start "${DIR[c]}" $(uid_clock_env "${DIR[c]}")
q c "INSERT INTO s11.photos (server, n) SELECT 'c2', g FROM generate_series(1, 1000) g"
[ "$(q c "SELECT (SELECT min(id) FROM s11.photos WHERE server = 'c2') > (SELECT max(id) FROM s11.photos WHERE server <> 'c2')")" = t ] &&
	echo "ok 14 - after c restarts, shard 11 still continues above every earlier ID" || echo "not ok 14 - IDs went back after restart"
