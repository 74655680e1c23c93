# TAP: the errors of next_objectid() that need a server of their own.
# Without shared_preload_libraries the type works and the generator refuses
# with 55000 and a hint naming the setting; preloaded but in recovery (a
# standby with no primary) it refuses with 25006; promoted, it generates.
. test/lib.sh
echo "1..6"
D=$(uid_tmpdir)
trap 'uid_cluster_stop "$D"; rm -rf "$D"' EXIT
uid_cluster_init "$D" "shared_preload_libraries = ''"
uid_cluster_start "$D"
out=$(uid_psql "$D" -d postgres -At -c "CREATE EXTENSION uniqueid" \
	-c "SELECT id_counter(make_objectid(now(), 1, 42)), '507c7f79bcf86cd7994f6c0e'::objectid::timestamptz < now()" 2>&1)
[ "$out" = "42|t" ] && echo "ok 1 - objectid, its constructor and casts work without preloading" ||
	echo "not ok 1 - got: $out"
err=$(uid_psql "$D" -d postgres -c "\\set VERBOSITY verbose" -c "SELECT next_objectid()" 2>&1)
echo "$err" | grep -q 'ERROR:  55000: uniqueid must be loaded via shared_preload_libraries to generate objectid values' &&
	echo "ok 2 - next_objectid raises 55000 naming shared_preload_libraries" || echo "not ok 2 - got: $err"
echo "$err" | grep -q 'HINT:  Add uniqueid to shared_preload_libraries' &&
	echo "ok 3 - with a hint that names the setting" || echo "not ok 3 - got: $err"

uid_cluster_stop "$D"
echo "shared_preload_libraries = 'uniqueid'" | uid_as_owner tee -a "$D/data/postgresql.conf" >/dev/null
uid_as_owner touch "$D/data/standby.signal"
uid_cluster_start "$D"
err=$(uid_psql "$D" -d postgres -c "\\set VERBOSITY verbose" -c "SELECT next_objectid()" 2>&1)
echo "$err" | grep -q 'ERROR:  25006: cannot generate objectid values during recovery' &&
	echo "ok 4 - next_objectid during recovery raises 25006" || echo "not ok 4 - got: $err"
out=$(uid_psql "$D" -d postgres -At -c "SELECT id_time('507c7f79bcf86cd7994f6c0e'::objectid) = to_timestamp(1350336377)" 2>&1)
[ "$out" = t ] && echo "ok 5 - the type reads during recovery" || echo "not ok 5 - got: $out"
uid_as_owner "$UID_PGBIN/pg_ctl" -D "$D/data" -w -t 60 promote >/dev/null
out=$(uid_psql "$D" -d postgres -At -c "SELECT count(DISTINCT id) FROM (SELECT next_objectid() AS id FROM generate_series(1, 1000)) s" 2>&1)
[ "$out" = 1000 ] && echo "ok 6 - once promoted, next_objectid generates" || echo "not ok 6 - got: $out"
