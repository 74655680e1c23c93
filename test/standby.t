# TAP: on a streaming standby the generators raise read_only_sql_transaction,
# while the types and accessors keep working.
. test/lib.sh
echo "1..3"
P=$(uid_tmpdir)
S=$(uid_tmpdir)
trap 'uid_cluster_stop "$S"; uid_cluster_stop "$P"; rm -rf "$P" "$S"' EXIT
uid_cluster_init "$P" "wal_level = replica" "max_wal_senders = 4"
uid_cluster_start "$P"
uid_psql "$P" -d postgres -c "CREATE EXTENSION uniqueid" \
	-c "CREATE TABLE t AS SELECT next_id(1) AS id"
uid_as_owner "$UID_PGBIN/pg_basebackup" -h "$P" -p 5432 -U postgres -D "$S/data" -R -X stream -c fast
sed -i "s|^unix_socket_directories = .*|unix_socket_directories = '$S'|" "$S/data/postgresql.conf"
uid_cluster_start "$S" && echo "ok 1 - standby started" || echo "not ok 1 - standby did not start"
err=$(uid_psql "$S" -d postgres -c "\\set VERBOSITY verbose" -c "SELECT next_id(1)" 2>&1)
echo "$err" | grep -q 'ERROR:  25006: cannot generate shardid values during recovery' &&
	echo "ok 2 - next_id on a standby raises 25006" || echo "not ok 2 - got: $err"
out=$(uid_psql "$S" -d postgres -At -c "SELECT id_shard(id) FROM t" 2>&1)
[ "$out" = 1 ] && echo "ok 3 - the standby reads shardids" || echo "not ok 3 - got: $out"
