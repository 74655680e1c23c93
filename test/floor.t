# TAP: the floor set at startup protects every generator for the whole run.
# IDs are made, the server restarts, one generator is used once the clock has
# passed the floor, then the test sets the server's clock back 30 s, and only
# then two generators are used for the first time since the restart: their
# IDs are still above every ID made before the restart.
. test/lib.sh
echo "1..4"
D=$(uid_tmpdir)
trap 'uid_cluster_stop "$D"; rm -rf "$D"' EXIT
uid_cluster_init "$D"
uid_cluster_start "$D"
q() { uid_psql "$D" -d postgres -At -F ' ' -c "$1"; }
q "CREATE EXTENSION uniqueid; CREATE TABLE before (sf snowflake, sh shardid)"
q "INSERT INTO before SELECT next_snowflake(), next_id(2) FROM generate_series(1, 5000)"
uid_cluster_stop "$D"
uid_cluster_start "$D" $(uid_clock_env "$D")
# past the horizon's lease (1 s), with the clock still right: shard 1 passes the floor
sleep 1.5
[ "$(q "SELECT id_time(next_id(1)) >= clock_timestamp() - interval '1 s'")" = t ] &&
	echo "ok 1 - after the restart the clock has passed the floor, and next_id(1) follows the clock" ||
	echo "not ok 1 - next_id(1) does not follow the clock"
uid_clock_set "$D" -30
# wait (at most 10 s) for the server to read its clock again
for _ in $(seq 1 100); do
	[ "$(q "SELECT clock_timestamp() < (SELECT max(id_time(sf)) FROM before) - interval '20 s'")" = t ] && break
	sleep 0.1
done
[ "$(q "SELECT clock_timestamp() < (SELECT max(id_time(sf)) FROM before) - interval '20 s'")" = t ] &&
	echo "ok 2 - then the clock stepped back behind the IDs made before the restart" || echo "not ok 2 - no step back"
[ "$(q "SELECT next_snowflake() > (SELECT max(sf) FROM before)")" = t ] &&
	echo "ok 3 - the first next_snowflake since the restart is above every earlier snowflake" ||
	echo "not ok 3 - next_snowflake went below an earlier ID"
[ "$(q "SELECT next_id(2) > (SELECT max(sh) FROM before)")" = t ] &&
	echo "ok 4 - the first next_id(2) since the restart is above every earlier ID of shard 2" ||
	echo "not ok 4 - next_id(2) went below an earlier ID"
