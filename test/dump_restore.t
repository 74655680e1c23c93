# TAP: pg_dump of a table of shardids restores into a second database with
# the same values, indexes and defaults (plain and custom formats).
. test/lib.sh
D=$UID_TEST_DIR
echo "1..4"
uid_psql "$D" -d postgres -c "DROP DATABASE IF EXISTS uid_dump_src" -c "DROP DATABASE IF EXISTS uid_dump_plain" \
	-c "DROP DATABASE IF EXISTS uid_dump_custom" -c "CREATE DATABASE uid_dump_src" \
	-c "CREATE DATABASE uid_dump_plain" -c "CREATE DATABASE uid_dump_custom"
uid_psql "$D" -d uid_dump_src -c "CREATE EXTENSION uniqueid" -c "
	CREATE TABLE photos (id shardid PRIMARY KEY DEFAULT next_id(7), at timestamptz);
	CREATE INDEX photos_brin ON photos USING brin (id);
	INSERT INTO photos (at) SELECT now() FROM generate_series(1, 5000);
	INSERT INTO photos VALUES ('0', NULL), ('18446744073709551615', NULL), ('9223372036854775808', NULL);"
sum="SELECT count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM photos"
want=$(uid_psql "$D" -d uid_dump_src -At -c "$sum")
"$UID_PGBIN/pg_dump" -h "$D" -U postgres -d uid_dump_src -f "$D/plain.sql" &&
	uid_psql "$D" -d uid_dump_plain -f "$D/plain.sql" >/dev/null 2>&1
got=$(uid_psql "$D" -d uid_dump_plain -At -c "$sum")
[ -n "$want" ] && [ "$got" = "$want" ] && echo "ok 1 - plain dump restores the same values ($want)" ||
	echo "not ok 1 - want $want, got $got"
"$UID_PGBIN/pg_dump" -h "$D" -U postgres -d uid_dump_src -Fc -f "$D/custom.dump" &&
	"$UID_PGBIN/pg_restore" -h "$D" -U postgres -d uid_dump_custom "$D/custom.dump"
got=$(uid_psql "$D" -d uid_dump_custom -At -c "$sum")
[ "$got" = "$want" ] && echo "ok 2 - custom-format dump restores the same values" || echo "not ok 2 - got $got"
new=$(uid_psql "$D" -d uid_dump_custom -At -c "INSERT INTO photos (at) VALUES (now()) RETURNING id_shard(id)")
[ "$new" = 7 ] && echo "ok 3 - the restored default still generates for shard 7" || echo "not ok 3 - got $new"
idx=$(uid_psql "$D" -d uid_dump_custom -At -c "SELECT count(*) FROM pg_indexes WHERE tablename = 'photos'")
[ "$idx" = 2 ] && echo "ok 4 - primary key and BRIN index restored" || echo "not ok 4 - $idx indexes"
uid_psql "$D" -d postgres -c "DROP DATABASE uid_dump_src" -c "DROP DATABASE uid_dump_plain" -c "DROP DATABASE uid_dump_custom"
