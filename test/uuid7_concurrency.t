# TAP: 4 concurrent connections x 50,000 next_uuid7() from the one shared
# uuid7 slot: no duplicate, each connection strictly increasing, the lead
# over the clock within uniqueid.max_clock_lead, and each backend draws its
# own random tails (a PRNG seeded per backend, not one sequence for all).
. test/lib.sh
D=$UID_TEST_DIR
echo "1..6"
uid_psql "$D" -d postgres -c "DROP DATABASE IF EXISTS uid_uuid7" -c "CREATE DATABASE uid_uuid7"
q() { uid_psql "$D" -d uid_uuid7 -At -c "$1"; }
q "CREATE EXTENSION uniqueid"
q "CREATE TABLE got (conn int, n int, u uuid, after timestamptz)"
pids=()
rc=0
for c in 1 2 3 4; do
	uid_psql "$D" -d uid_uuid7 -c \
		"INSERT INTO got SELECT $c, n, next_uuid7(), clock_timestamp() FROM generate_series(1, 50000) n" &
	pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || rc=1; done
[ $rc -eq 0 ] && echo "ok 1 - 4 connections generated concurrently" || echo "not ok 1 - a connection failed"
q "CREATE TABLE f AS SELECT conn, n, u, after,
	substr(u::text, 15, 1) AS version, substr(u::text, 20, 1) AS variant_nibble,
	substring(('x' || substr(u::text, 20, 4) || substr(u::text, 25, 12))::bit(64) FROM 3) AS tail FROM got"
dups=$(q "SELECT count(*) - count(DISTINCT u) + (200000 - count(*)) FROM f")
[ "$dups" = 0 ] && echo "ok 2 - 200000 values, no duplicate" || echo "not ok 2 - duplicates or missing rows: $dups"
back=$(q "SELECT count(*) FROM (SELECT u <= lag(u) OVER (PARTITION BY conn ORDER BY n) AS back FROM f) s WHERE back")
[ "$back" = 0 ] && echo "ok 3 - each connection's values strictly increasing" || echo "not ok 3 - $back steps backwards"
bad=$(q "SELECT count(*) FROM f WHERE version <> '7' OR variant_nibble NOT IN ('8', '9', 'a', 'b')")
[ "$bad" = 0 ] && echo "ok 4 - all version 7, variant 10" || echo "not ok 4 - $bad values of another version or variant"
lead=$(q "SELECT max(id_time(u) - after) <= current_setting('uniqueid.max_clock_lead')::interval FROM f")
[ "$lead" = t ] && echo "ok 5 - the time never leads the clock by more than uniqueid.max_clock_lead" ||
	echo "not ok 5 - lead over the clock: $(q "SELECT max(id_time(u) - after) FROM f")"
# a tail drawn by two backends would mean a shared seed: 62 random bits make a
# chance repeat among 200,000 values about 4e-9
shared=$(q "SELECT count(*) FROM (SELECT tail FROM f GROUP BY tail HAVING count(DISTINCT conn) > 1) s")
first=$(q "SELECT count(DISTINCT tail) FROM f WHERE n = 1")
[ "$shared" = 0 ] && [ "$first" = 4 ] && echo "ok 6 - every connection draws its own random tails" ||
	echo "not ok 6 - tails shared between connections: $shared; distinct first tails: $first of 4"
uid_psql "$D" -d postgres -c "DROP DATABASE uid_uuid7"
