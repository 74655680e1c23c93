#!/usr/bin/env bash
# bench/serial.sh - what uniqueid.serial_normalization costs per insert: a
# key declared bigserial with the setting on (rewritten to bigint DEFAULT
# next_snowflake()::bigint), against the same key with the setting off
# (bigserial, a sequence) and against bigint DEFAULT next_snowflake()
# written by hand, in one run on one throwaway cluster (bench/README.md,
# "Serial normalization").
#
#   bash bench/serial.sh        # uses the installed extension
#
# Two loads per key, each with pgbench, 2 clients, SERIAL_T seconds: a
# 1000-row INSERT ... SELECT per transaction (the cost per row), and a
# one-row INSERT per transaction (the cost per statement, commit included).
# In each of SERIAL_ROUNDS rounds the keys take turns at one load, then at
# the other, the order rotating from one round to the next; before each
# run the table is made again and a CHECKPOINT taken. Each figure is the median over the rounds; each ratio the
# median over the rounds of the two keys' runs of that round (this machine's
# speed drifts by up to 2x over seconds). Progress to stderr, the table to
# stdout. UID_PGBIN names another installation's bin directory.
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh

T=${SERIAL_T:-10}            # seconds per pgbench run
ROUNDS=${SERIAL_ROUNDS:-5}   # rounds; the figures are medians over them

uid_install_packages "postgresql-$UID_PGVER"
D=$(uid_tmpdir)
trap 'uid_cluster_stop "$D" || true; rm -rf "$D"' EXIT
uid_cluster_init "$D" "shared_buffers = 512MB" "max_wal_size = 4GB"
uid_cluster_start "$D"
sql() { uid_psql "$D" -d postgres "$@"; }
sql -c "CREATE EXTENSION uniqueid"

KEYS=(bigserial normalized explicit)
declare -A SETTING=([bigserial]=off [normalized]=snowflake [explicit]=off)
declare -A DECL=([bigserial]="bigserial PRIMARY KEY" [normalized]="bigserial PRIMARY KEY"
	[explicit]="bigint PRIMARY KEY DEFAULT next_snowflake()")
declare -A LABEL=([bigserial]="bigserial (setting off)" [normalized]="bigserial, setting on"
	[explicit]="bigint DEFAULT next_snowflake()")
echo "INSERT INTO t (v) SELECT 0 FROM generate_series(1, 1000);" >"$D/batch.sql"
echo "INSERT INTO t (v) VALUES (0);" >"$D/row.sql"

# make_table KEY: the table t with KEY's key, as the setting makes it; prints its
# key's default and the number of sequences
make_table() {
	sql -At <<-SQL
		DROP TABLE IF EXISTS t;
		SET uniqueid.serial_normalization = ${SETTING[$1]};
		CREATE TABLE t (id ${DECL[$1]}, v int NOT NULL DEFAULT 0) WITH (autovacuum_enabled = off);
		CHECKPOINT;
		SELECT pg_get_expr(adbin, adrelid) || ', ' || (SELECT count(*) FROM pg_class WHERE relkind = 'S'
			AND relname NOT LIKE 'uniqueid%') || ' sequence(s)' FROM pg_attrdef WHERE adrelid = 't'::regclass AND adnum = 1;
	SQL
}

declare -A ALL
for ((r = 0; r < ROUNDS; r++)); do
	for mode in batch row; do
		for ((k = 0; k < ${#KEYS[@]}; k++)); do
			key=${KEYS[$(((k + r) % ${#KEYS[@]}))]}
			what=$(make_table "$key")
			[ "$r" -gt 0 ] || [ "$mode" != batch ] || uid_log "$key: id $what"
			out=$("$UID_PGBIN/pgbench" -h "$D" -p 5432 -U postgres -n -c 2 -j 2 -T "$T" -f "$D/$mode.sql" postgres 2>&1) ||
				{ printf '%s\n' "$out" >&2; exit 1; }
			tps=$(awk '/^tps = / { print $3; exit }' <<<"$out")
			rows=$(awk -v t="$tps" -v m="$mode" 'BEGIN { printf "%.0f", m == "batch" ? t * 1000 : t }')
			ALL[$key.$mode]="${ALL[$key.$mode]:+${ALL[$key.$mode]} }$rows"
			uid_log "round $((r + 1)), $key, $mode: $rows rows/s"
		done
	done
done
sql -c "DROP TABLE t"

# median LIST; ratio A B: the median of the per-round ratios A/B
median() { tr ' ' '\n' <<<"$1" | sort -g | awk '{ v[NR] = $1 } END { printf "%.0f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() {
	awk -v a="${ALL[$1]}" -v b="${ALL[$2]}" 'BEGIN {
		n = split(a, x, " "); split(b, y, " ")
		for (i = 1; i <= n; i++) r[i] = x[i] / y[i]
		for (i = 2; i <= n; i++) for (j = i; j > 1 && r[j - 1] > r[j]; j--) { t = r[j]; r[j] = r[j - 1]; r[j - 1] = t }
		printf "%.2f", n % 2 ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2 }'
}
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, PostgreSQL $(sql -Atc 'SHOW server_version' | cut -d' ' -f1)," \
	"commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown); pgbench -c 2 -j 2 -T $T, $ROUNDS rounds, medians;" \
	"load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-34s | %14s | %12s\n' key "rows/s, 1000-row INSERT" "rows/s, 1-row INSERT"
for key in "${KEYS[@]}"; do
	printf '%-34s | %14s | %12s\n' "${LABEL[$key]}" "$(median "${ALL[$key.batch]}")" "$(median "${ALL[$key.row]}")"
done
echo
printf '%-48s | %6s | %6s\n' "ratio (median of the rounds' ratios)" "1000-row" "1-row"
printf '%-48s | %6s | %6s\n' "setting on / bigserial" "$(ratio normalized.batch bigserial.batch)" "$(ratio normalized.row bigserial.row)"
printf '%-48s | %6s | %6s\n' "setting on / explicit DEFAULT next_snowflake()" "$(ratio normalized.batch explicit.batch)" "$(ratio normalized.row explicit.row)"
printf '%-48s | %6s | %6s\n' "explicit DEFAULT next_snowflake() / bigserial" "$(ratio explicit.batch bigserial.batch)" "$(ratio explicit.row bigserial.row)"
