# TAP: streaming replication.  On a standby the generators raise
# read_only_sql_transaction while types and accessors work.  The standby
# learns the primary's horizon from the WAL, so once promoted, with a clock
# 30 s behind the old primary's, its IDs are greater than every ID the old
# primary issued.  A standby without uniqueid preloaded stops with a clear
# message at the first horizon record.
. test/lib.sh
echo "1..8"
P=$(uid_tmpdir)
S=$(uid_tmpdir)
N=$(uid_tmpdir)
trap 'uid_cluster_stop "$N"; uid_cluster_stop "$S"; uid_cluster_stop "$P"; rm -rf "$P" "$S" "$N"' EXIT
uid_cluster_init "$P" "wal_level = replica" "max_wal_senders = 4"
uid_cluster_start "$P"
qp() { uid_psql "$P" -d postgres -At -c "$1"; }
qs() { uid_psql "$S" -d postgres -At -c "$1"; }
qp "CREATE EXTENSION uniqueid; CREATE TABLE got (id shardid, sid sno); INSERT INTO got SELECT next_id(1), next_sno()"
# standby_from DIR [conf...]: a streaming standby of P in DIR
standby_from() {
	local dir=$1
	shift
	uid_as_owner "$UID_PGBIN/pg_basebackup" -h "$P" -p 5432 -U postgres -D "$dir/data" -R -X stream -c fast
	sed -i "s|^unix_socket_directories = .*|unix_socket_directories = '$dir'|" "$dir/data/postgresql.conf"
	local line
	for line in "$@"; do echo "$line" | uid_as_owner tee -a "$dir/data/postgresql.conf" >/dev/null; done
}
standby_from "$S"
uid_clock_set "$S" -30
uid_cluster_start "$S" $(uid_clock_env "$S") &&
	echo "ok 1 - standby started, its clock 30 s behind" || echo "not ok 1 - standby did not start"
standby_from "$N" "shared_preload_libraries = ''"
uid_cluster_start "$N"

# IDs on the primary after the base backups, in two bursts so that the
# horizon advances (and is logged) more than once
qp "INSERT INTO got SELECT next_id(1), next_sno() FROM generate_series(1, 100000)"
sleep 1.5
qp "INSERT INTO got SELECT next_id(1), next_sno() FROM generate_series(1, 100000)"
target=$(qp "SELECT pg_current_wal_lsn()")
for _ in $(seq 1 100); do
	[ "$(qs "SELECT pg_last_wal_replay_lsn() >= '$target'")" = t ] && break
	sleep 0.1
done

err=$(uid_psql "$S" -d postgres -c "\\set VERBOSITY verbose" -c "SELECT next_id(1)" 2>&1)
echo "$err" | grep -q 'ERROR:  25006: cannot generate shardid values during recovery' &&
	echo "ok 2 - next_id on a standby raises 25006" || echo "not ok 2 - got: $err"
err=$(uid_psql "$S" -d postgres -c "\\set VERBOSITY verbose" -c "SELECT next_sno()" 2>&1)
echo "$err" | grep -q 'ERROR:  25006: cannot generate sno values during recovery' &&
	echo "ok 3 - next_sno on a standby raises 25006" || echo "not ok 3 - got: $err"
fails=""
for g in snowflake sonyflake shortid spreadid objectid uuid7; do
	uid_psql "$S" -d postgres -c "\\set VERBOSITY verbose" -c "SELECT next_$g()" 2>&1 |
		grep -q "ERROR:  25006: cannot generate" || fails+=" $g"
done
[ -z "$fails" ] && echo "ok 4 - every other generator raises 25006 on the standby too" || echo "not ok 4 - not 25006:$fails"
[ "$(qs "SELECT count(*) FROM got WHERE id_shard(id) = 1")" = 200001 ] &&
	echo "ok 5 - the standby replayed the primary's IDs and reads them" || echo "not ok 5 - rows missing on the standby"

uid_as_owner "$UID_PGBIN/pg_ctl" -D "$S/data" -w promote >/dev/null
uid_cluster_stop "$P"
behind=$(qs "SELECT clock_timestamp() < (SELECT max(id_time(id)) FROM got) - interval '25 s'")
qs "CREATE TABLE promoted AS SELECT next_id(1) AS id, next_sno() AS sid FROM generate_series(1, 100000)"
read -r ok_shard ok_sno <<<"$(uid_psql "$S" -d postgres -At -F ' ' -c "SELECT
	(SELECT min(id) FROM promoted) > (SELECT max(id) FROM got), (SELECT min(sid) FROM promoted) > (SELECT max(sid) FROM got)")"
[ "$behind" = t ] && [ "$ok_shard" = t ] &&
	echo "ok 6 - promoted with its clock 30 s behind, every next_id exceeds the old primary's" ||
	echo "not ok 6 - clock behind: $behind, next_id greater: $ok_shard"
[ "$ok_sno" = t ] && echo "ok 7 - and every next_sno exceeds the old primary's" || echo "not ok 7 - next_sno: $ok_sno"

for _ in $(seq 1 50); do
	grep -q 'resource manager with ID 201 not registered' "$N/server.log" && break
	sleep 0.1
done
grep -q 'resource manager with ID 201 not registered' "$N/server.log" &&
	grep -q 'shared_preload_libraries' "$N/server.log" &&
	echo "ok 8 - a standby without uniqueid preloaded stops, naming resource manager 201 and shared_preload_libraries" ||
	{ echo "not ok 8 - no clear message"; tail -n 5 "$N/server.log" | sed 's/^/# /'; }
