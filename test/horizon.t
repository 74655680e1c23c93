# TAP: the durable horizon's lease, and a crash in the middle of generation.
# 1-2. The first ID after startup moves the horizon (read from the state file
#      with pg_read_file) just past it: the end of the ID's millisecond plus
#      the 1 s lease.
# 3.   An ID made within 250 ms of the horizon renews the lease early, though
#      the horizon still covers it: the generator that renews writes while
#      the others go on below the old horizon.
# 4.   An ID past the horizon moves it before the ID is returned.
# 5.   The lease runs from the end of the ID's time unit: for objectid, the
#      end of its second, so that a renewal within one second reaches past
#      the next.
# 6-9. Two clients generate next_id(1) and next_sno() without pause across
#      several leases and renewals; the postmaster and its backends are
#      killed with SIGKILL in the middle; the server restarts with its clock
#      30 s behind. The horizon it recovers lies past every ID the clients
#      received, and every new ID is greater than all of them.
. test/lib.sh
echo "1..9"
D=$(uid_tmpdir)
UID_PM_JOB=""
clients=""
cleanup() {
	for p in $clients $UID_PM_JOB; do kill -9 "$p" 2>/dev/null; done
	uid_cluster_stop "$D"
	rm -rf "$D"
}
trap cleanup EXIT
uid_cluster_init "$D"
q() { uid_psql "$D" -d postgres -At -F ' ' -c "$1"; }
uid_postmaster_start "$D" || { echo "Bail out! the server did not start"; exit 1; }
q "CREATE EXTENSION uniqueid"
# the horizon as the state file has it, and an ID's time, in Unix ms
q "CREATE FUNCTION horizon() RETURNS bigint LANGUAGE sql AS \$\$ SELECT trim(pg_read_file('uniqueid.horizon'))::bigint \$\$;
	CREATE FUNCTION ms(shardid) RETURNS bigint LANGUAGE sql AS \$\$ SELECT (extract(epoch FROM id_time(\$1)) * 1000)::bigint \$\$;
	CREATE FUNCTION clock_ms() RETURNS bigint LANGUAGE sql AS \$\$ SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint \$\$"
# one statement: the first ID, then a wait until 240 ms before the horizon, a
# second ID, a wait until 50 ms past the new horizon, and a third ID
read -r id1 h1 id2 h2 id3 h3 <<<"$(q "CREATE TEMP TABLE r (id1 bigint, h1 bigint, id2 bigint, h2 bigint, id3 bigint, h3 bigint);
	DO \$\$
	DECLARE v r;
	BEGIN
		v.id1 := ms(next_id(1));
		v.h1 := horizon();
		WHILE clock_ms() < v.h1 - 240 LOOP PERFORM pg_sleep(0.01); END LOOP;
		v.id2 := ms(next_id(1));
		v.h2 := horizon();
		WHILE clock_ms() < v.h2 + 50 LOOP PERFORM pg_sleep(0.01); END LOOP;
		v.id3 := ms(next_id(1));
		v.h3 := horizon();
		INSERT INTO r SELECT v.*;
	END \$\$;
	SELECT * FROM r")"
[ "$id1" -lt "$h1" ] && echo "ok 1 - the first ID ($id1) lies below the horizon ($h1)" ||
	echo "not ok 1 - the first ID ($id1) is not below the horizon ($h1)"
[ $((h1 - id1)) -ge 1000 ] && [ $((h1 - id1)) -le 1100 ] &&
	echo "ok 2 - the horizon is the end of the ID's millisecond plus the 1 s lease (+$((h1 - id1)) ms)" ||
	echo "not ok 2 - the horizon is $((h1 - id1)) ms past the ID"
[ "$id2" -lt "$h1" ] && [ $((h2 - id2)) -ge 1000 ] &&
	echo "ok 3 - an ID $((h1 - id2)) ms before the horizon renewed the lease (+$((h2 - id2)) ms)" ||
	echo "not ok 3 - ID $id2, horizon before $h1, after $h2"
[ "$id3" -ge "$h2" ] && [ "$id3" -lt "$h3" ] &&
	echo "ok 4 - an ID past the horizon moved it before it was returned (+$((h3 - id3)) ms)" ||
	echo "not ok 4 - ID $id3, horizon before $h2, after $h3"
# objectid stands for a whole second: its lease runs from the end of it
# (once the clock is past the horizon, so that the objectid moves it)
read -r o_end oh <<<"$(q "CREATE TEMP TABLE r2 (o_end bigint, oh bigint);
	DO \$\$
	DECLARE v r2;
	BEGIN
		WHILE clock_ms() < horizon() + 50 LOOP PERFORM pg_sleep(0.01); END LOOP;
		v.o_end := (extract(epoch FROM id_time(next_objectid())) * 1000)::bigint + 1000;
		v.oh := horizon();
		INSERT INTO r2 SELECT v.*;
	END \$\$;
	SELECT * FROM r2")"
[ $((oh - o_end)) -ge 1000 ] &&
	echo "ok 5 - an objectid's second ends $((oh - o_end)) ms before the horizon" ||
	echo "not ok 5 - an objectid's second ends at $o_end, the horizon is $oh"

# two clients generating without pause, each printing every ID it receives
gen() {
	yes "SELECT $1 FROM generate_series(1, 2000);" | uid_psql "$D" -d postgres -At >"$D/$2.out" 2>"$D/$2.err"
}
gen "next_id(1)" shard &
clients="$!"
gen "next_sno()" sno &
clients="$clients $!"
sleep 2.5
# the whole server at once, as a power cut would: a backend left running would
# go on generating for its client until it noticed the postmaster's death
killed_ms=$(date +%s%3N)
uid_server_kill "$D" all
gone=$?
for c in $clients; do wait "$c" 2>/dev/null; done
clients=""
n_shard=$(wc -l <"$D/shard.out")
n_sno=$(wc -l <"$D/sno.out")
[ $gone -eq 0 ] && [ "$n_shard" -gt 100000 ] && [ "$n_sno" -gt 100000 ] &&
	echo "ok 6 - the server was killed with SIGKILL while generating, after $n_shard shardids and $n_sno snos were received" ||
	echo "not ok 6 - server gone: $gone (0: yes), received $n_shard shardids and $n_sno snos"
uid_clock_set "$D" -30
uid_cluster_start "$D" $(uid_clock_env "$D") ||
	echo "Bail out! restart failed"
behind=$(q "SELECT clock_ms() < $killed_ms - 25000")
# one client per generator: the last line of each file is its greatest ID;
# the sort makes sure (sno's text sorts as the sno does)
max_shard=$(sort -n "$D/shard.out" | tail -n 1)
max_sno=$(LC_ALL=C sort "$D/sno.out" | tail -n 1)
read -r recovered max_ms sno_ms <<<"$(q "SELECT horizon(), ms('$max_shard'),
	(extract(epoch FROM id_time('$max_sno'::sno)) * 1000)::bigint")"
[ "$recovered" -gt "$max_ms" ] && [ "$recovered" -gt "$sno_ms" ] && [ "$behind" = t ] &&
	echo "ok 7 - the recovered horizon ($recovered) lies past every ID received ($max_ms), with the clock 30 s behind" ||
	echo "not ok 7 - recovered horizon $recovered, last IDs received at $max_ms and $sno_ms, clock behind: $behind"
read -r ok_shard ok_sno <<<"$(q "SELECT min(a) > '$max_shard', min(b) > '$max_sno'
	FROM (SELECT next_id(1) AS a, next_sno() AS b FROM generate_series(1, 50000)) s")"
[ "$ok_shard" = t ] && echo "ok 8 - every next_id after the crash is greater than every one received before" ||
	echo "not ok 8 - next_id repeated or went back"
[ "$ok_sno" = t ] && echo "ok 9 - every next_sno after the crash is greater than every one received before" ||
	echo "not ok 9 - next_sno repeated or went back"
