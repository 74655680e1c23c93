# TAP: removing the library, as README's "Upgrading and removing" says.
# After a crash the WAL to replay holds horizon records, so a server started
# without uniqueid in shared_preload_libraries refuses to start (and starts
# again once the library is back).  The documented procedure: a clean
# shutdown with the library still loaded, then remove it and start: the
# server starts, every stored ID reads back, and a generator says it needs
# the library.
. test/lib.sh
echo "1..7"
D=$(uid_tmpdir)
trap 'uid_cluster_stop "$D"; rm -rf "$D"' EXIT
uid_cluster_init "$D"
q() { uid_psql "$D" -d postgres -At -F ' ' -c "$1"; }
# preload LIST: sets shared_preload_libraries (the last line of the file wins)
preload() { echo "shared_preload_libraries = '$1'" | uid_as_owner tee -a "$D/data/postgresql.conf" >/dev/null; }

uid_postmaster_start "$D" || echo "Bail out! the server did not start"
q "CREATE EXTENSION uniqueid; CREATE TABLE t (id shardid PRIMARY KEY, s sno)"
q "INSERT INTO t SELECT next_id(1), next_sno() FROM generate_series(1, 1000)"
# a checkpoint, then a horizon record after it: the lease (1 s) runs out
q "CHECKPOINT"
sleep 1.3
q "INSERT INTO t SELECT next_id(1), next_sno() FROM generate_series(1, 1000)"
uid_server_kill "$D" && echo "ok 1 - the server crashed (SIGKILL) after generating" ||
	echo "not ok 1 - the server's processes remain"

preload ''
if uid_cluster_start "$D" 2>/dev/null; then
	echo "not ok 2 - after a crash the server started without uniqueid"
	uid_cluster_stop "$D"
else
	grep -q 'resource manager with ID 201 not registered' "$D/server.log" &&
		echo "ok 2 - after a crash it refuses to start without uniqueid: resource manager 201 not registered" ||
		{ echo "not ok 2 - it did not start, but not for the resource manager"; tail -n 5 "$D/server.log" >&2; }
fi

preload uniqueid
uid_cluster_start "$D" && [ "$(q "SELECT count(*) FROM t")" = 2000 ] &&
	echo "ok 3 - with uniqueid back it recovers, and all 2000 rows are there" ||
	echo "not ok 3 - recovery with uniqueid failed"

# the procedure: a clean shutdown with the library loaded, then remove it
uid_cluster_stop "$D" && echo "ok 4 - clean shutdown with uniqueid still loaded" ||
	echo "not ok 4 - the clean shutdown failed"
preload ''
uid_cluster_start "$D" && echo "ok 5 - started without uniqueid in shared_preload_libraries" ||
	echo "not ok 5 - did not start without uniqueid"
[ "$(q "SELECT count(*), count(DISTINCT id), min(id_time(id)) <= max(id_time(id)), count(DISTINCT s) FROM t")" = "2000 2000 t 2000" ] &&
	echo "ok 6 - every stored ID reads back, with its time" || echo "not ok 6 - stored IDs do not read back"
err=$(q "SELECT next_id(1)" 2>&1)
case "$err" in
*"uniqueid must be loaded via shared_preload_libraries"*) echo "ok 7 - next_id says it needs the library" ;;
*) echo "not ok 7 - next_id without the library: $err" ;;
esac
