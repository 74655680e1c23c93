# TAP: next_uuid7 on servers that cannot generate: without uniqueid in
# shared_preload_libraries it raises 55000 with a hint naming the setting
# (id_time(uuid) still works), and during recovery it raises 25006.
. test/lib.sh
echo "1..4"
D=$(uid_tmpdir)
trap 'uid_cluster_stop "$D"; rm -rf "$D"' EXIT
uid_cluster_init "$D" "shared_preload_libraries = ''"
uid_cluster_start "$D"
out=$(uid_psql "$D" -d postgres -At -c "SET timezone = 'UTC'" -c "CREATE EXTENSION uniqueid" \
	-c "SELECT id_time('017F22E2-79B0-7CC3-98C4-DC0C0C07398F'::uuid)" 2>&1)
[ "$out" = "2022-02-22 19:22:22+00" ] && echo "ok 1 - id_time(uuid) works without preloading" ||
	echo "not ok 1 - got: $out"
err=$(uid_psql "$D" -d postgres -c "\\set VERBOSITY verbose" -c "SELECT next_uuid7()" 2>&1)
echo "$err" | grep -q 'ERROR:  55000: uniqueid must be loaded via shared_preload_libraries to generate uuid values' &&
	echo "$err" | grep -q 'HINT:  Add uniqueid to shared_preload_libraries' &&
	echo "ok 2 - without preloading next_uuid7 raises 55000 with a hint naming the setting" ||
	echo "not ok 2 - got: $err"
# the same cluster, preloaded, restarted as a standby (standby.signal, no primary)
uid_cluster_stop "$D"
echo "shared_preload_libraries = 'uniqueid'" | uid_as_owner tee -a "$D/data/postgresql.conf" >/dev/null
uid_as_owner touch "$D/data/standby.signal"
uid_cluster_start "$D"
[ "$(uid_psql "$D" -d postgres -At -c "SELECT pg_is_in_recovery()")" = t ] &&
	echo "ok 3 - the server is in recovery" || echo "not ok 3 - the server is not in recovery"
err=$(uid_psql "$D" -d postgres -c "\\set VERBOSITY verbose" -c "SELECT next_uuid7()" 2>&1)
echo "$err" | grep -q 'ERROR:  25006: cannot generate uuid values during recovery' &&
	echo "ok 4 - during recovery next_uuid7 raises 25006" || echo "not ok 4 - got: $err"
