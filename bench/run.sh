#!/usr/bin/env bash
# bench/run.sh - performance benchmark of the shardid type and next_id(shard)
# against core PostgreSQL peers (nextval, bigserial, gen_random_uuid, uuid,
# bigint), uuid-ossp's uuid_generate_v4 and Instagram's PL/pgSQL next_id, all
# measured in one run on one throwaway cluster (see bench/README.md).
#
#   bash bench/run.sh           # uses the installed extension
#   bash bench/run.sh --build   # builds and installs it first (make install)
#
# Prints progress on stderr and a results table on stdout. Exits 0 when every
# measurement ran, whether or not the targets were met (a benchmark, not a
# test); non-zero when something failed. Takes about 6-10 minutes on 2 cores.
# Sizes can be lowered for a quick look, e.g. BENCH_N_BIG=1000000 BENCH_T=5.
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh

BUILD=0
for arg in "$@"; do
	case $arg in
	--build) BUILD=1 ;;
	-h | --help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "usage: bash bench/run.sh [--build]" >&2; exit 2 ;;
	esac
done

N_GEN=${BENCH_N_GEN:-1000000}    # calls per generation query (a)
N_CAP=${BENCH_N_CAP:-10000000}   # next_id(1) calls in the capacity statement (b)
PGB_T=${BENCH_T:-20}             # seconds per pgbench run (c)
N_BIG=${BENCH_N_BIG:-10000000}   # rows for text I/O (d) and sorting (e)
REPS=${BENCH_REPS:-3}            # repetitions per timed query; the best counts

if [ "$BUILD" -eq 1 ]; then
	uid_install_packages make gcc "postgresql-$UID_PGVER" "postgresql-server-dev-$UID_PGVER"
	uid_log "building and installing uniqueid"
	uid_build_install
else
	# postgresql-15 ships pgbench and uuid-ossp
	uid_install_packages "postgresql-$UID_PGVER"
fi

D=$(uid_tmpdir)
trap 'uid_cluster_stop "$D" || true; rm -rf "$D"' EXIT
uid_cluster_init "$D" \
	"shared_buffers = 512MB" \
	"max_wal_size = 4GB"
uid_cluster_start "$D"

sql() { uid_psql "$D" -d postgres "$@"; }

# --- arithmetic and the results table ----------------------------------------
calc() { awk "BEGIN { printf \"%.${2:-3}f\", $1 }"; }   # calc EXPR [DECIMALS]
holds() { awk "BEGIN { exit !($1) }"; }                  # holds CONDITION
yesno() { if holds "$1"; then echo yes; else echo NO; fi; }

RESULTS=()
# row SECTION NAME RESULT RATIO TARGET MET
row() { RESULTS+=("$1|$2|$3|$4|$5|$6"); }

# --- timing -------------------------------------------------------------------
# best_ms SETUP QUERY [BETWEEN]: runs QUERY $REPS times in one session after
# SETUP (parallel query off), untimed BETWEEN before each run; prints each
# psql \timing on stderr and the best (lowest) in ms on stdout.
best_ms() {
	local setup=$1 query=$2 between=${3:-} out r
	out=$({
		echo "SET max_parallel_workers_per_gather = 0;"
		echo "$setup"
		echo '\o /dev/null'
		for ((r = 0; r < REPS; r++)); do
			[ -n "$between" ] && echo "$between"
			echo '\timing on'
			echo "$query;"
			echo '\timing off'
		done
	} | sql -f -)
	awk '/^Time: / { v = $2 + 0; all = all " " v; if (min == "" || v < min) min = v }
	     END { if (min == "") exit 1; printf "%s\n", min; print "   runs (ms):" all > "/dev/stderr" }' <<<"$out"
}

uid_log "cluster up: $(sql -Atc "SELECT version()")"
MAX_LEAD=$(sql -Atc "SHOW uniqueid.max_clock_lead")
uid_log "uniqueid.max_clock_lead = $MAX_LEAD"

sql <<'SQL'
CREATE EXTENSION uniqueid;
CREATE EXTENSION "uuid-ossp";
CREATE SEQUENCE bench_seq;
CREATE SEQUENCE insta_seq;
-- Instagram's published next_id (2011), for logical shard 5, as in test/instagram_compat.sql
CREATE FUNCTION insta_next_id(OUT result bigint) LANGUAGE plpgsql AS $$
DECLARE
    our_epoch bigint := 1314220021721;
    seq_id bigint;
    now_millis bigint;
    shard_id int := 5;
BEGIN
    SELECT nextval('insta_seq') % 1024 INTO seq_id;
    SELECT FLOOR(EXTRACT(EPOCH FROM clock_timestamp()) * 1000) INTO now_millis;
    result := (now_millis - our_epoch) << 23;
    result := result | (shard_id << 10);
    result := result | (seq_id);
END;
$$;
SQL

# --- (a) generation cost: N_GEN calls in one backend ---------------------------
uid_log "(a) generation, $N_GEN calls per query, best of $REPS"
declare -A GEN
gen() { # gen KEY EXPR [BETWEEN]
	uid_log "  $2${3:+ (before each run: $3)}"
	GEN[$1]=$(best_ms "" "SELECT count($2) FROM generate_series(1, $N_GEN) AS i" "${3:-}")
}
gen loop "i"   # the loop alone: the series written to and read from its tuplestore
gen clock "clock_timestamp()"
gen nextval "nextval('bench_seq')"
gen gen_uuid "gen_random_uuid()"
gen uuid_v4 "uuid_generate_v4()"
gen insta "insta_next_id()"
gen spread "next_id(i % 8192)"
# one shard: with the lead allowance available (the previous run's lead drained)...
gen one_fresh "next_id(5)" "SELECT pg_sleep(1.2);"
# ...and with the shard already at the lead limit (2.5M IDs, 2.4 s of them, just taken): capped at 1,024,000/s
gen one_capped "next_id(5)" "SELECT count(next_id(5)) FROM (SELECT generate_series(1, 2500000)) AS g;"

gen_row() { # gen_row KEY LABEL [TARGET MET]
	local s r
	s=$(calc "${GEN[$1]} / 1000")
	r="$(calc "${GEN[$1]} / ${GEN[nextval]}" 2)x nextval, $(calc "${GEN[$1]} / ${GEN[clock]}" 2)x clock_ts"
	row a "$2" "$s s" "$r" "${3:--}" "${4:--}"
}
row a "loop alone, count(i)" "$(calc "${GEN[loop]} / 1000") s" "(included in every row below)" - -
gen_row clock "clock_timestamp()"
gen_row nextval "nextval('seq')"
gen_row gen_uuid "gen_random_uuid()"
gen_row uuid_v4 "uuid_generate_v4()"
gen_row insta "Instagram PL/pgSQL next_id()"
gen_row spread "next_id(i % 8192)" "<=0.5x nextval" \
	"$(yesno "${GEN[spread]} <= 0.5 * ${GEN[nextval]}")"
row a "" "" "net of loop: $(calc "(${GEN[spread]} - ${GEN[loop]}) / (${GEN[nextval]} - ${GEN[loop]})" 2)x nextval" \
	"<=2x clock_ts" "$(yesno "${GEN[spread]} <= 2 * ${GEN[clock]}")"
gen_row one_fresh "next_id(5), lead allowance free"
gen_row one_capped "next_id(5), shard at lead limit"

# --- (b) capacity: N_CAP next_id(1) in one statement ---------------------------
# The series is produced in the select list (ProjectSet, streamed) rather than
# in FROM (a FunctionScan that first writes all N_CAP numbers to a tuplestore,
# spilling to disk), so that the statement asks for IDs faster than the 1,024
# per ms the shard can give. The first ~1 s of lead is free; the capped phase
# starts at the first ID within 1 % of uniqueid.max_clock_lead (row i0, time t0).
uid_log "(b) capacity, $N_CAP x next_id(1) in one statement"
CAP_SQL="SET max_parallel_workers_per_gather = 0;
\\timing on
SELECT count(*),
       extract(epoch FROM max(id_time(id) - t)),
       count(*) FILTER (WHERE id_time(id) - t > interval '$MAX_LEAD'),
       min(i) FILTER (WHERE id_time(id) - t >= interval '$MAX_LEAD' * 0.99),
       extract(epoch FROM max(t) - min(t) FILTER (WHERE id_time(id) - t >= interval '$MAX_LEAD' * 0.99))
FROM (SELECT i, next_id(1) AS id, clock_timestamp() AS t
      FROM (SELECT generate_series(1, $N_CAP) AS i) AS g) AS s;"
CAP_OUT=$(sql -At -F ' ' <<<"$CAP_SQL")
read -r CAP_N CAP_LEAD CAP_OVER CAP_I0 CAP_SS <<<"$(grep -v '^Time:' <<<"$CAP_OUT")"
CAP_MS=$(awk '/^Time: / { print $2 }' <<<"$CAP_OUT")
[ -n "$CAP_I0" ] || { uid_log "the lead never came within 1 % of $MAX_LEAD: the statement did not outrun the shard"; exit 1; }
CAP_SN=$((CAP_N - CAP_I0))
uid_log "   $CAP_N IDs in $CAP_MS ms, max lead $CAP_LEAD s, $CAP_OVER over the limit; capped from ID #$CAP_I0 on: $CAP_SN IDs in $CAP_SS s"
CAP_RAW=$(calc "$CAP_N / ($CAP_MS / 1000)" 0)
CAP_STEADY=$(calc "$CAP_SN / $CAP_SS" 0)
LEAD_LIMIT_S=$(sql -Atc "SELECT extract(epoch FROM interval '$MAX_LEAD')")
row b "next_id(1) x $N_CAP, whole statement" "$CAP_RAW IDs/s" "$(calc "100 * $CAP_RAW / 1024000" 1)% of 1,024,000/s" \
	">=95%" "$(yesno "$CAP_RAW >= 0.95 * 1024000")"
row b "  capped part (lead at limit)" "$CAP_STEADY IDs/s" "$(calc "100 * $CAP_STEADY / 1024000" 1)% of 1,024,000/s; $CAP_SN IDs" \
	">=95%" "$(yesno "$CAP_STEADY >= 0.95 * 1024000")"
row b "  max lead of id_time over clock" "$(calc "$CAP_LEAD" 3) s" "$CAP_OVER IDs over the limit" \
	"<=$MAX_LEAD" "$(yesno "$CAP_LEAD <= $LEAD_LIMIT_S && $CAP_OVER == 0")"

# --- (c) inserts with pgbench ---------------------------------------------------
uid_log "(c) pgbench inserts, 2 clients, 1000 rows per transaction, $PGB_T s each"
echo "INSERT INTO t (v) SELECT 0 FROM generate_series(1, 1000);" >"$D/insert.sql"
declare -A PGB IDX TBL
pgb() { # pgb KEY "column definition of id"
	local out tps n
	uid_log "  id $2"
	sql <<-SQL
		DROP TABLE IF EXISTS t;
		CREATE TABLE t (id $2, v int NOT NULL DEFAULT 0) WITH (autovacuum_enabled = off);
		CHECKPOINT;
	SQL
	out=$("$UID_PGBIN/pgbench" -h "$D" -p 5432 -U postgres -n -c 2 -j 2 -T "$PGB_T" -f "$D/insert.sql" postgres 2>&1) ||
		{ printf '%s\n' "$out" >&2; return 1; }
	tps=$(awk '/^tps = / { print $3; exit }' <<<"$out")
	PGB[$1]=$(calc "$tps * 1000" 0)
	read -r n IDX[$1] TBL[$1] <<<"$(sql -At -F ' ' -c "SELECT count(*),
		round(pg_relation_size('t_pkey')::numeric / count(*), 1),
		round(pg_relation_size('t')::numeric / count(*), 1) FROM t")"
	uid_log "   ${PGB[$1]} rows/s; $n rows; index ${IDX[$1]} B/row, table ${TBL[$1]} B/row"
}
pgb bigserial "bigserial PRIMARY KEY"
pgb shard1 "shardid PRIMARY KEY DEFAULT next_id(5)"
pgb shardpid "shardid PRIMARY KEY DEFAULT next_id(pg_backend_pid() % 8192)"
pgb insta "bigint PRIMARY KEY DEFAULT insta_next_id()"
pgb uuid "uuid PRIMARY KEY DEFAULT gen_random_uuid()"
sql -c "DROP TABLE t"

pgb_row() { # pgb_row KEY LABEL [TARGET MET]
	row c "$2" "${PGB[$1]} rows/s" \
		"$(calc "${PGB[$1]} / ${PGB[bigserial]}" 2)x bigserial; idx ${IDX[$1]} B/row, heap ${TBL[$1]} B/row" \
		"${3:--}" "${4:--}"
}
pgb_row bigserial "bigserial"
pgb_row shard1 "shardid next_id(5)" ">=1x bigserial" "$(yesno "${PGB[shard1]} >= ${PGB[bigserial]}")"
row c "" "" "$(calc "${PGB[shard1]} / ${PGB[insta]}" 2)x Instagram" ">=3x Instagram" \
	"$(yesno "${PGB[shard1]} >= 3 * ${PGB[insta]}")"
pgb_row shardpid "shardid next_id(pid % 8192)" ">=1x bigserial" "$(yesno "${PGB[shardpid]} >= ${PGB[bigserial]}")"
row c "" "" "$(calc "${PGB[shardpid]} / ${PGB[insta]}" 2)x Instagram" ">=3x Instagram" \
	"$(yesno "${PGB[shardpid]} >= 3 * ${PGB[insta]}")"
pgb_row insta "bigint Instagram PL/pgSQL"
pgb_row uuid "uuid gen_random_uuid()"

# --- data for (d) and (e) -------------------------------------------------------
uid_log "building $N_BIG-row tables for text I/O and sorting"
sql <<SQL
CREATE TABLE io_s AS SELECT next_id(i % 8192) AS id FROM generate_series(1, $N_BIG) AS i;
CREATE TABLE io_u AS SELECT gen_random_uuid() AS id FROM generate_series(1, $N_BIG);
CREATE TABLE io_st AS SELECT id::text AS s FROM io_s;
CREATE TABLE io_ut AS SELECT id::text AS s FROM io_u;
-- the same shardid values in random order, and as bigint in the same order
CREATE TABLE sort_s AS SELECT id FROM io_s ORDER BY random();
CREATE TABLE sort_b AS SELECT id::bigint AS id FROM sort_s;
VACUUM (FREEZE, ANALYZE) io_s, io_u, io_st, io_ut, sort_s, sort_b;
SQL

# --- (d) text output and input ----------------------------------------------------
uid_log "(d) text output and input, $N_BIG values, best of $REPS"
declare -A IO
io() { uid_log "  $2"; IO[$1]=$(best_ms "" "$2"); }
io out_s "SELECT count(id::text) FROM io_s"
io out_u "SELECT count(id::text) FROM io_u"
io out_b "SELECT count(id::text) FROM sort_b"
io in_s "SELECT count(s::shardid) FROM io_st"
io in_u "SELECT count(s::uuid) FROM io_ut"
io in_b "SELECT count(s::bigint) FROM io_st"
row d "output shardid::text" "$(calc "${IO[out_s]} / 1000") s" "$(calc "${IO[out_s]} / ${IO[out_u]}" 2)x uuid" \
	"<=1x uuid" "$(yesno "${IO[out_s]} <= ${IO[out_u]}")"
row d "output uuid::text" "$(calc "${IO[out_u]} / 1000") s" "1.00x uuid" - -
row d "output bigint::text (reference)" "$(calc "${IO[out_b]} / 1000") s" "$(calc "${IO[out_b]} / ${IO[out_u]}" 2)x uuid" - -
row d "input text::shardid" "$(calc "${IO[in_s]} / 1000") s" "$(calc "${IO[in_s]} / ${IO[in_u]}" 2)x uuid" \
	"<=1x uuid" "$(yesno "${IO[in_s]} <= ${IO[in_u]}")"
row d "input text::uuid" "$(calc "${IO[in_u]} / 1000") s" "1.00x uuid" - -
row d "input text::bigint (reference)" "$(calc "${IO[in_b]} / 1000") s" "$(calc "${IO[in_b]} / ${IO[in_u]}" 2)x uuid" - -

# --- (e) sorting ----------------------------------------------------------------------
uid_log "(e) sorting $N_BIG values in memory (work_mem 2GB), best of $REPS"
declare -A SRT
srt() { # srt KEY TABLE
	local q="SELECT count(*) FROM (SELECT id FROM $2 ORDER BY id OFFSET 0) AS s" method
	uid_log "  $q"
	# warm-up run, which also shows that the sort stays in memory
	method=$(sql -At -c "SET max_parallel_workers_per_gather = 0" -c "SET work_mem = '2GB'" \
		-c "EXPLAIN (ANALYZE, TIMING OFF, COSTS OFF) $q" | grep -o 'Sort Method: .*' || true)
	uid_log "   $method"
	SRT[$1]=$(best_ms "SET work_mem = '2GB';" "$q")
}
srt s sort_s
srt b sort_b
srt u io_u
row e "sort shardid" "$(calc "${SRT[s]} / 1000") s" "$(calc "${SRT[s]} / ${SRT[b]}" 2)x bigint" \
	"<=1.2x bigint" "$(yesno "${SRT[s]} <= 1.2 * ${SRT[b]}")"
row e "sort bigint (same values)" "$(calc "${SRT[b]} / 1000") s" "1.00x bigint" - -
row e "sort uuid (reference)" "$(calc "${SRT[u]} / 1000") s" "$(calc "${SRT[u]} / ${SRT[b]}" 2)x bigint" - -

# --- report ----------------------------------------------------------------------------
uid_log "done"
echo
echo "uniqueid benchmark, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(sql -Atc "SHOW server_version")"
echo "(a) $N_GEN calls, (b) $N_CAP calls, (c) pgbench -c 2 -j 2 -T $PGB_T x 1000-row INSERT, (d)/(e) $N_BIG rows; best of $REPS"
echo
fmt='%-2s %-34s %-16s %-52s %-15s %s\n'
# shellcheck disable=SC2059
printf "$fmt" "" "measurement" "result" "ratio" "target" "met"
# shellcheck disable=SC2059
printf "$fmt" "" "-----------" "------" "-----" "------" "---"
for r in "${RESULTS[@]}"; do
	IFS='|' read -r s n v ra ta m <<<"$r"
	# shellcheck disable=SC2059
	printf "$fmt" "$s" "$n" "$v" "$ra" "$ta" "$m"
done
