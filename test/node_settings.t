# TAP: uniqueid.node and uniqueid.cluster in generated IDs, and the node
# limits of the layouts: a server with node 3000 (cluster 9) generates
# sonyflakes (16-bit machine) and snos (16-bit partition) with it, and
# refuses snowflakes (10-bit node) and spreadids (11-bit generator) with
# 22023 naming the setting.
. test/lib.sh
echo "1..4"
D=$(uid_tmpdir)
trap 'uid_cluster_stop "$D"; rm -rf "$D"' EXIT
uid_cluster_init "$D" "uniqueid.node = 3000" "uniqueid.cluster = 9"
uid_cluster_start "$D"
q() { uid_psql "$D" -d postgres -At -F ' ' "$@"; }
q -c "CREATE EXTENSION uniqueid"
[ "$(q -c "SELECT id_node(next_sonyflake()), id_partition(next_sno())")" = "3000 3000" ] &&
	echo "ok 1 - sonyflake's machine and sno's partition are uniqueid.node" || echo "not ok 1 - node not embedded"
err=$(q -c '\set VERBOSITY verbose' -c "SELECT next_snowflake()" 2>&1)
echo "$err" | grep -q '22023: uniqueid.node 3000 does not fit the 10-bit node of type snowflake' &&
	echo "ok 2 - next_snowflake refuses node 3000 (22023)" || echo "not ok 2 - got: $err"
err=$(q -c '\set VERBOSITY verbose' -c "SELECT next_spreadid()" 2>&1)
echo "$err" | grep -q '22023: uniqueid.node 3000 does not fit the 11-bit generator id of type spreadid' &&
	echo "ok 3 - next_spreadid refuses node 3000 (22023)" || echo "not ok 3 - got: $err"
uid_psql "$D" -d postgres -c "ALTER SYSTEM SET uniqueid.node = 1500" -c "SELECT pg_reload_conf()" >/dev/null
sleep 0.3
[ "$(q -c "SELECT id_node(next_spreadid()), id_cluster(next_spreadid('time'))")" = "1500 9" ] &&
	echo "ok 4 - after a reload to node 1500, spreadid carries generator 1500 and cluster 9" || echo "not ok 4 - reload not seen"
