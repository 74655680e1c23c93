# TAP: uniqueid.shards on a server that owns shards 0-4095 and 8000-8191
# (and uniqueid.max_clock_lead at 50 ms): SHOW reads the settings back,
# next_id generates for an owned shard and refuses the others with 22023
# naming the setting and a hint, and a reload changes what is owned.
. test/lib.sh
echo "1..6"
D=$(uid_tmpdir)
trap 'uid_cluster_stop "$D"; rm -rf "$D"' EXIT
uid_cluster_init "$D" "uniqueid.shards = '0-4095,8000-8191'" "uniqueid.max_clock_lead = 50"
uid_cluster_start "$D" || echo "Bail out! the server did not start"
q() { uid_psql "$D" -d postgres -At -F ' ' "$@"; }
q -c "CREATE EXTENSION uniqueid"
[ "$(q -c "SELECT current_setting('uniqueid.shards'), current_setting('uniqueid.max_clock_lead')")" = "0-4095,8000-8191 50ms" ] &&
	echo "ok 1 - SHOW reads back uniqueid.shards and uniqueid.max_clock_lead" || echo "not ok 1 - settings not as configured"
[ "$(q -c "SELECT id_shard(next_id(0)), id_shard(next_id(4095)), id_shard(next_id(8000)), id_shard(next_id(8191))")" = "0 4095 8000 8191" ] &&
	echo "ok 2 - next_id generates for the ends of both owned ranges" || echo "not ok 2 - an owned shard was refused"
for s in 4096 5000; do
	err=$(q -c '\set VERBOSITY verbose' -c "SELECT next_id($s)" 2>&1)
	if echo "$err" | grep -q "22023: shard $s is not owned by this server" &&
		echo "$err" | grep -q 'This server.s uniqueid.shards is "0-4095,8000-8191"' &&
		echo "$err" | grep -q "HINT:  Generate IDs for shard $s on the server that owns it"; then
		echo "ok $((s == 4096 ? 3 : 4)) - next_id($s) is refused: 22023, the setting in the detail, a hint"
	else
		echo "not ok $((s == 4096 ? 3 : 4)) - next_id($s): $err"
	fi
done
q -c "ALTER SYSTEM SET uniqueid.shards = '5000'" -c "SELECT pg_reload_conf()" >/dev/null
for _ in $(seq 1 50); do
	[ "$(q -c "SHOW uniqueid.shards")" = 5000 ] && break
	sleep 0.1
done
[ "$(q -c "SELECT id_shard(next_id(5000))")" = 5000 ] &&
	echo "ok 5 - after a reload to '5000', shard 5000 is owned" || echo "not ok 5 - reload not seen"
err=$(q -c "SELECT next_id(0)" 2>&1)
echo "$err" | grep -q "shard 0 is not owned by this server" &&
	echo "ok 6 - and shard 0 no longer is" || echo "not ok 6 - got: $err"
