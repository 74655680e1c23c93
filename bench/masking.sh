#!/usr/bin/env bash
# bench/masking.sh - what the masks cost (doc/masking.md; bench/README.md,
# "Masking"), in one run on one throwaway cluster:
#
#   - per call, over MASK_N IDs in a table: id_mask and id_unmask of a
#     snowflake (64-bit FF1), of a UUID v7 (122-bit) and uuid7_mask, with
#     the key as an argument (the C functions) and through the recommended
#     SECURITY DEFINER wrappers (doc/masking.md), against id_encode and the
#     generator next_snowflake() itself; each less the cost of reading the
#     same rows without the function (count(id));
#   - masking every row of a MASK_N-row result, sent to the client: COPY of
#     the codes against COPY of the IDs as they are.
#
#   bash bench/masking.sh       # uses the installed extension
#
# Each figure is the median over MASK_ROUNDS rounds, the queries taking
# turns within a round (this machine's speed drifts over seconds).
# Progress to stderr, the table to stdout.  UID_PGBIN names another
# installation's bin directory.
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh

N=${MASK_N:-1000000}          # rows
ROUNDS=${MASK_ROUNDS:-5}      # rounds; the figures are medians over them

uid_install_packages "postgresql-$UID_PGVER"
D=$(uid_tmpdir)
trap 'uid_cluster_stop "$D" || true; rm -rf "$D"' EXIT
uid_cluster_init "$D" "shared_buffers = 512MB" "jit = off"
uid_cluster_start "$D"
sql() { uid_psql "$D" -d postgres "$@"; }

# the IDs, the codes, and the wrappers of doc/masking.md over a stored key
sql <<SQL
CREATE EXTENSION uniqueid;
CREATE TABLE s AS SELECT next_snowflake() AS id FROM generate_series(1, $N);
CREATE TABLE u AS SELECT next_uuid7() AS id FROM generate_series(1, $N);
CREATE TABLE sc AS SELECT id_mask(id, '\\x000102030405060708090a0b0c0d0e0f') AS code FROM s;
CREATE TABLE uc AS SELECT id_mask(id, '\\x000102030405060708090a0b0c0d0e0f') AS code FROM u;
CREATE TABLE um AS SELECT uuid7_mask(id, '\\x000102030405060708090a0b0c0d0e0f') AS m FROM u;
VACUUM ANALYZE;
CREATE SCHEMA masking;
CREATE TABLE masking.keys (symbol text PRIMARY KEY, key bytea NOT NULL, current boolean NOT NULL DEFAULT false);
CREATE UNIQUE INDEX ON masking.keys (current) WHERE current;
INSERT INTO masking.keys VALUES (id_mask_key_symbol('\\x000102030405060708090a0b0c0d0e0f'), '\\x000102030405060708090a0b0c0d0e0f', true);
CREATE FUNCTION masking.mask(id snowflake) RETURNS text
    LANGUAGE sql STABLE STRICT SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
    RETURN (SELECT id_mask(id, key) FROM masking.keys WHERE current);
CREATE FUNCTION masking.unmask(code text) RETURNS snowflake
    LANGUAGE sql STABLE STRICT SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
    RETURN (SELECT id_unmask(code, key, NULL::snowflake) FROM masking.keys WHERE symbol = left(code, 1));
-- ms(q): how long q takes, in milliseconds
CREATE FUNCTION ms(q text) RETURNS float8 LANGUAGE plpgsql AS \$\$
DECLARE t0 timestamptz := clock_timestamp();
BEGIN
    EXECUTE q;
    RETURN extract(epoch FROM clock_timestamp() - t0) * 1000;
END \$\$;
SQL

K="'\\x000102030405060708090a0b0c0d0e0f'::bytea"
# name|query|baseline name: ns per row = (query - baseline) / N
QUERIES=(
	"s_read|SELECT count(id) FROM s|"
	"u_read|SELECT count(id) FROM u|"
	"sc_read|SELECT count(code) FROM sc|"
	"uc_read|SELECT count(code) FROM uc|"
	"um_read|SELECT count(m) FROM um|"
	"series|SELECT count(i) FROM generate_series(1, $N) i|"
	"next_snowflake|SELECT count(next_snowflake()) FROM generate_series(1, $N) i|series"
	"id_encode|SELECT count(id_encode(id::bigint)) FROM s|s_read"
	"id_mask snowflake|SELECT count(id_mask(id, $K)) FROM s|s_read"
	"id_unmask snowflake|SELECT count(id_unmask(code, $K, NULL::snowflake)) FROM sc|sc_read"
	"id_mask uuid|SELECT count(id_mask(id, $K)) FROM u|u_read"
	"id_unmask uuid|SELECT count(id_unmask(code, $K, NULL::uuid)) FROM uc|uc_read"
	"uuid7_mask|SELECT count(uuid7_mask(id, $K)) FROM u|u_read"
	"uuid7_unmask|SELECT count(uuid7_unmask(m, $K)) FROM um|um_read"
	"wrapper mask|SELECT count(masking.mask(id)) FROM s|s_read"
	"wrapper unmask|SELECT count(masking.unmask(code)) FROM sc|sc_read"
)
declare -A ALL
for ((r = 0; r < ROUNDS; r++)); do
	for ((q = 0; q < ${#QUERIES[@]}; q++)); do
		IFS='|' read -r name query base <<<"${QUERIES[$(((q + r) % ${#QUERIES[@]}))]}"
		t=$(sql -At -c "SELECT ms(\$q\$$query\$q\$)")
		ALL[$name]="${ALL[$name]:+${ALL[$name]} }$t"
	done
	# the whole result to the client: the IDs as they are, then masked
	for what in ids codes; do
		col=id
		[ "$what" = ids ] || col="id_mask(id, $K)"
		t0=$(date +%s%N)
		sql -c "COPY (SELECT $col FROM s) TO STDOUT" >/dev/null
		ALL[copy_$what]="${ALL[copy_$what]:+${ALL[copy_$what]} }$((($(date +%s%N) - t0) / 1000000))"
	done
	uid_log "round $((r + 1)) of $ROUNDS done"
done

median() { tr ' ' '\n' <<<"$1" | sort -g | awk '{ v[NR] = $1 } END { printf "%.1f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
printf '| per call (%s rows, median of %s rounds) | ns per row |\n|---|---|\n' "$N" "$ROUNDS"
for entry in "${QUERIES[@]}"; do
	IFS='|' read -r name query base <<<"$entry"
	[ -n "$base" ] || continue
	m=$(median "${ALL[$name]}")
	b=$(median "${ALL[$base]}")
	awk -v n="$name" -v m="$m" -v b="$b" -v rows="$N" 'BEGIN { printf "| `%s` | %.0f |\n", n, (m - b) * 1e6 / rows }'
done
ids=$(median "${ALL[copy_ids]}")
codes=$(median "${ALL[copy_codes]}")
printf '\n| %s-row result to the client (COPY) | ms |\n|---|---|\n' "$N"
printf '| the snowflakes as they are | %.0f |\n| `id_mask(id, key)` of each | %.0f |\n' "$ids" "$codes"
awk -v a="$codes" -v b="$ids" 'BEGIN { printf "| ratio | %.2f |\n", a / b }'
