#!/bin/bash
# bench/portable.sh - the SQL edition (portable/uniqueid.sql), pasted and
# installed as the pg_tle extension uniqueid_sql (portable/uniqueid-pgtle.sql,
# where pg_tle is installed for the server), against the C extension,
# Instagram's PL/pgSQL next_id() (test/fixtures/instagram_next_id.sql)
# and gen_random_uuid(): cost per call, and rows inserted per second with
# 2 clients (100 rows a transaction, each a column default), in one throwaway cluster, one run; prints a table with the
# ratios to the C extension.
#
#   bash bench/portable.sh [BINDIR]     # default: pg_config --bindir; uniqueid installed there
#
# BENCH_CALLS (default 200000) calls per measure, best of 3; BENCH_SECONDS
# (default 10) of pgbench per insert measure.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
bindir=${1:-$(pg_config --bindir)}
calls=${BENCH_CALLS:-200000}
secs=${BENCH_SECONDS:-10}
work=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
chmod 755 "$work"
as_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$work"

# pg_tle, where it is installed (test/pgtle.sh builds it)
tle=""
[ -f "$("$bindir/pg_config" --pkglibdir)/pg_tle.so" ] && tle=",pg_tle"
as_owner "$bindir/initdb" -D "$work/data" -E UTF8 --locale=C.UTF-8 -A trust >/dev/null
cat >>"$work/data/postgresql.conf" <<EOF
port = $port
unix_socket_directories = '$work'
listen_addresses = ''
shared_preload_libraries = 'uniqueid$tle'
uniqueid.node = 5
EOF
as_owner "$bindir/pg_ctl" -D "$work/data" -l "$work/log" -w start >/dev/null
trap 'as_owner "$bindir/pg_ctl" -D "$work/data" -m fast stop >/dev/null; rm -rf "$work"' EXIT

psql=("$bindir/psql" -X -q -h "$work" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1)
as_owner "${psql[@]}" -c 'CREATE SCHEMA c; CREATE EXTENSION uniqueid SCHEMA c; CREATE SCHEMA ids'
PGOPTIONS='-c search_path=ids' as_owner "${psql[@]}" -1 -f "$top/portable/uniqueid.sql"
as_owner "${psql[@]}" -f "$top/test/fixtures/instagram_next_id.sql"
as_owner "${psql[@]}" -c 'SELECT ids.uniqueid_set_node(5)' >/dev/null
if [ -n "$tle" ]; then
	as_owner "${psql[@]}" -c 'CREATE EXTENSION pg_tle' -c 'CREATE SCHEMA tle'
	as_owner "${psql[@]}" -f "$top/portable/uniqueid-pgtle.sql" 2>/dev/null
	as_owner "${psql[@]}" -c 'CREATE EXTENSION uniqueid_sql SCHEMA tle' -c 'SELECT tle.uniqueid_set_node(5)' >/dev/null
else
	echo "(pg_tle is not installed for $bindir: the pg_tle rows are left out)" >&2
fi

# name|expression|column type
gens=(
	"C next_id(5)|c.next_id(5)|c.shardid"
	"SQL edition next_id(5)|ids.next_id(5)|ids.shardid"
	"C next_uuid7()|c.next_uuid7()|uuid"
	"SQL edition next_uuid7()|ids.next_uuid7()|uuid"
	"SQL edition next_snowflake()|ids.next_snowflake()|ids.snowflake"
	${tle:+"pg_tle uniqueid_sql next_id(5)|tle.next_id(5)|tle.shardid"}
	${tle:+"pg_tle uniqueid_sql next_uuid7()|tle.next_uuid7()|uuid"}
	${tle:+"pg_tle uniqueid_sql next_snowflake()|tle.next_snowflake()|tle.snowflake"}
	"Instagram PL/pgSQL next_id()|insta_next_id()|bigint"
	"gen_random_uuid()|gen_random_uuid()|uuid"
)

# microseconds per call, best of 3
percall() {
	local best="" t
	for _ in 1 2 3; do
		t=$(as_owner "${psql[@]}" -At -c "SELECT 1 FROM (SELECT count($1) FROM generate_series(1, $calls)) x" \
			-c '\timing on' -c "SELECT count($1) FROM generate_series(1, $calls)" 2>&1 |
			sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')
		best=$(awk -v a="$best" -v b="$t" 'BEGIN { print (a == "" || b < a) ? b : a }')
	done
	awk -v ms="$best" -v n="$calls" 'BEGIN { printf "%.3f", ms * 1000 / n }'
}

# rows inserted per second, 2 clients, 100 a transaction
inserts() {
	local i=$1 expr=$2 type=$3
	as_owner "${psql[@]}" -c "CREATE TABLE ins_$i (id $type PRIMARY KEY DEFAULT $expr, v int)"
	echo "INSERT INTO ins_$i (v) SELECT 1 FROM generate_series(1, 100);" >"$work/ins_$i.sql"
	as_owner "$bindir/pgbench" -n -h "$work" -p "$port" -U postgres -c 2 -j 2 -T "$secs" -f "$work/ins_$i.sql" postgres 2>/dev/null |
		sed -n 's/^tps = \([0-9.]*\) .*/\1/p' | head -n 1 | awk '{ print $1 * 100 }'
}

printf '%-36s %12s %8s %14s %8s\n' generator "us/call" ratio "rows/s" ratio
c_call="" c_ins=""
i=0
for g in "${gens[@]}"; do
	IFS='|' read -r name expr type <<<"$g"
	i=$((i + 1))
	pc=$(percall "$expr")
	ins=$(inserts "$i" "$expr" "$type")
	[ -z "$c_call" ] && { c_call=$pc; c_ins=$ins; }
	printf '%-36s %12s %8s %14.0f %8s\n' "$name" "$pc" "$(awk -v a="$pc" -v b="$c_call" 'BEGIN { printf "%.1f", a / b }')" \
		"$ins" "$(awk -v a="$ins" -v b="$c_ins" 'BEGIN { printf "%.2f", a / b }')"
done
echo "PostgreSQL $(as_owner "${psql[@]}" -At -c 'SHOW server_version'), $(nproc) cores, $calls calls per measure, ${secs} s of pgbench -c 2 per insert measure"
