# TAP: without shared_preload_libraries the types work and every generator
# refuses with object_not_in_prerequisite_state and a hint naming the setting.
. test/lib.sh
echo "1..4"
D=$(uid_tmpdir)
trap 'uid_cluster_stop "$D"; rm -rf "$D"' EXIT
uid_cluster_init "$D" "shared_preload_libraries = ''"
uid_cluster_start "$D"
out=$(uid_psql "$D" -d postgres -At -c "CREATE EXTENSION uniqueid" \
	-c "SELECT id_shard(make_shardid(now(), 42, 1)), '11637205501278089'::shardid::timestamptz < now()" 2>&1)
[ "$out" = "42|t" ] && echo "ok 1 - types, constructor and casts work without preloading" ||
	echo "not ok 1 - got: $out"
err=$(uid_psql "$D" -d postgres -c "\\set VERBOSITY verbose" -c "SELECT next_id(1)" 2>&1)
echo "$err" | grep -q 'ERROR:  55000: uniqueid must be loaded via shared_preload_libraries' &&
	echo "ok 2 - next_id raises 55000 naming shared_preload_libraries" || echo "not ok 2 - got: $err"
echo "$err" | grep -q 'HINT:  Add uniqueid to shared_preload_libraries' &&
	echo "ok 3 - with a hint that names the setting" || echo "not ok 3 - got: $err"
fails=""
for g in "next_sno()" "next_snowflake()" "next_sonyflake()" "next_shortid()" "next_spreadid()" "next_objectid()" "next_uuid7()"; do
	uid_psql "$D" -d postgres -c "\\set VERBOSITY verbose" -c "SELECT $g" 2>&1 |
		grep -q 'ERROR:  55000: uniqueid must be loaded via shared_preload_libraries' || fails+=" $g"
done
[ -z "$fails" ] && echo "ok 4 - every other generator raises 55000 too" || echo "not ok 4 - not 55000:$fails"
