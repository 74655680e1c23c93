# TAP: no duplicate across a crash or a restart with the clock set back.
# 1. IDs are generated, the postmaster is killed with SIGKILL, and the server
#    restarts with its clock 30 s behind: every new ID of every generator is
#    greater than every ID issued before the crash (objectid included, whose
#    random part changes with each start: its seconds alone must order it).
# 2. A clean restart with the clock 60 s behind: the same.
# The postmaster of the first run is started as a child of this script, so
# that once killed it is reaped here and leaves no zombie holding its lock
# file; its backends are waited for before the restart.
. test/lib.sh
echo "1..12"
D=$(uid_tmpdir)
UID_PM_JOB=""
cleanup() {
	[ -n "$UID_PM_JOB" ] && kill -9 "$UID_PM_JOB" 2>/dev/null
	uid_cluster_stop "$D"
	rm -rf "$D"
}
trap cleanup EXIT
uid_cluster_init "$D"
q() { uid_psql "$D" -d postgres -At -F ' ' -c "$1"; }
uid_postmaster_start "$D" || { echo "Bail out! the server did not start"; exit 1; }
q "CREATE EXTENSION uniqueid; CREATE TABLE got (run int, shard_id shardid, sno_id sno, oid_id objectid)"
# the other generators, fewer rows each run (sonyflake gives 256 IDs per 10 ms)
q "CREATE TABLE more (run int, sf snowflake, sy sonyflake, si shortid, sp spreadid, u7 uuid)"
more() { q "INSERT INTO more SELECT $1, next_snowflake(), next_sonyflake(), next_shortid(), next_spreadid('time'), next_uuid7()
	FROM generate_series(1, 5000)"; }
# more_after RUN: whether every column of run RUN is above all of the earlier runs
more_after() {
	q "SELECT bool_and(ok) FROM (
		SELECT (SELECT min(sf) FROM more WHERE run = $1) > (SELECT max(sf) FROM more WHERE run < $1) AS ok
		UNION ALL SELECT (SELECT min(sy) FROM more WHERE run = $1) > (SELECT max(sy) FROM more WHERE run < $1)
		UNION ALL SELECT (SELECT min(si) FROM more WHERE run = $1) > (SELECT max(si) FROM more WHERE run < $1)
		UNION ALL SELECT (SELECT min(sp) FROM more WHERE run = $1) > (SELECT max(sp) FROM more WHERE run < $1)
		UNION ALL SELECT (SELECT u7 FROM more WHERE run = $1 ORDER BY u7 LIMIT 1) > (SELECT u7 FROM more WHERE run < $1 ORDER BY u7 DESC LIMIT 1)) s"
}
q "INSERT INTO got SELECT 1, next_id(1), next_sno(), next_objectid() FROM generate_series(1, 100000)"
# a second burst 1.5 s later, so that the horizon has advanced more than once
sleep 1.5
q "INSERT INTO got SELECT 1, next_id(1), next_sno(), next_objectid() FROM generate_series(1, 100000)"
more 1
q "COPY got TO '$D/run1.copy'"
q "COPY more TO '$D/more1.copy'"
uid_server_kill "$D" &&
	echo "ok 1 - postmaster killed with SIGKILL and reaped, its backends gone" ||
	echo "not ok 1 - processes of the killed server remain"

uid_clock_set "$D" -30
uid_cluster_start "$D" $(uid_clock_env "$D") &&
	echo "ok 2 - restarted after the crash with the clock 30 s behind" || echo "not ok 2 - restart failed"
# the table was not flushed before the crash (fsync off, no checkpoint): take the copy
q "TRUNCATE got; COPY got FROM '$D/run1.copy'"
q "TRUNCATE more; COPY more FROM '$D/more1.copy'"
behind=$(q "SELECT clock_timestamp() < (SELECT max(id_time(shard_id)) FROM got) - interval '25 s'")
q "INSERT INTO got SELECT 2, next_id(1), next_sno(), next_objectid() FROM generate_series(1, 100000)"
more 2
more2_ok=$(more_after 2)
read -r ok_shard ok_sno ok_oid_crash <<<"$(q "SELECT (SELECT min(shard_id) FROM got WHERE run = 2) > (SELECT max(shard_id) FROM got WHERE run = 1),
	(SELECT min(sno_id) FROM got WHERE run = 2) > (SELECT max(sno_id) FROM got WHERE run = 1),
	(SELECT min(oid_id) FROM got WHERE run = 2) > (SELECT max(oid_id) FROM got WHERE run = 1)")"
[ "$behind" = t ] && echo "ok 3 - the restarted server's clock is behind the IDs issued before the crash" ||
	echo "not ok 3 - the clock is not behind ($behind)"
[ "$ok_shard" = t ] && echo "ok 4 - after the crash every next_id is greater than every earlier one" ||
	echo "not ok 4 - next_id repeated or went back"
[ "$ok_sno" = t ] && echo "ok 5 - after the crash every next_sno is greater than every earlier one" ||
	echo "not ok 5 - next_sno repeated or went back"

q "CHECKPOINT; COPY got TO '$D/run2.copy'"
uid_cluster_stop "$D"
uid_clock_set "$D" -60
uid_cluster_start "$D" $(uid_clock_env "$D") &&
	echo "ok 6 - clean restart with the clock 60 s behind" || echo "not ok 6 - restart failed"
q "INSERT INTO got SELECT 3, next_id(1), next_sno(), next_objectid() FROM generate_series(1, 100000)"
more 3
more3_ok=$(more_after 3)
read -r ok_shard ok_sno dups ok_oid_restart <<<"$(q "SELECT (SELECT min(shard_id) FROM got WHERE run = 3) > (SELECT max(shard_id) FROM got WHERE run < 3),
	(SELECT min(sno_id) FROM got WHERE run = 3) > (SELECT max(sno_id) FROM got WHERE run < 3),
	(SELECT count(*) - count(DISTINCT shard_id) + count(*) - count(DISTINCT sno_id) + count(*) - count(DISTINCT oid_id) FROM got),
	(SELECT min(oid_id) FROM got WHERE run = 3) > (SELECT max(oid_id) FROM got WHERE run < 3)")"
[ "$ok_shard" = t ] && [ "$ok_sno" = t ] && echo "ok 7 - after the clean restart every new ID is greater than every earlier one" ||
	echo "not ok 7 - shardid: $ok_shard, sno: $ok_sno"
[ "$dups" = 0 ] && echo "ok 8 - 500000 IDs of each type over three runs, no duplicate" || echo "not ok 8 - $dups duplicates"
[ "$ok_oid_crash" = t ] && echo "ok 9 - after the crash every next_objectid is greater than every earlier one" ||
	echo "not ok 9 - next_objectid repeated or went back after the crash"
[ "$ok_oid_restart" = t ] && echo "ok 10 - after the clean restart every next_objectid is greater than every earlier one" ||
	echo "not ok 10 - next_objectid repeated or went back after the clean restart"
[ "$more2_ok" = t ] &&
	echo "ok 11 - after the crash next_snowflake, next_sonyflake, next_shortid, next_spreadid and next_uuid7 are above all earlier IDs" ||
	echo "not ok 11 - an ID of the other generators repeated or went back after the crash"
[ "$more3_ok" = t ] &&
	echo "ok 12 - after the clean restart they are above all earlier IDs too" ||
	echo "not ok 12 - an ID of the other generators repeated or went back after the clean restart"
