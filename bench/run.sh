#!/usr/bin/env bash
# bench/run.sh - performance benchmark of the shardid type and next_id(shard)
# against core PostgreSQL peers (nextval, bigserial, gen_random_uuid, uuid,
# bigint), uuid-ossp's uuid_generate_v4 and Instagram's PL/pgSQL next_id, all
# measured in one run on one throwaway cluster (see bench/README.md).
#
#   bash bench/run.sh           # uses the installed extension
#   bash bench/run.sh --build   # builds and installs it first (make install)
#   bash bench/run.sh --pg 18   # on PostgreSQL 17, 18 or 19, in its Debian root
#                               # (test/roots.sh), built there
#   bash bench/run.sh --peers DIR   # the peers' sources from DIR
# The peers not in Debian (pgEdge snowflake, pg_uuidv7) are built and
# installed from DIR (release archives or source directories), or else from
# their archives of test/vendor.lock (test/vendor.sh: UID_VENDOR,
# ../shared/vendor, or their upstream URLs); without them their rows are
# left out, and the log says so. BENCH_SECTIONS=a runs only the
# sections named (default pabcdeft); from 18 on, sections (p), (a) and (s)
# measure core uuidv7() too. Section (s), not in the default run, loads
# every key into a table until its index holds 10x shared_buffers (about
# 35 minutes; bench/scale.sh). Sections (p), (t), (c) and (s) write CSV to
# bench/results/latest/ and draw bench/*.png with gnuplot.
#
# Progress and every single timing go to stderr, the results table to stdout.
# Exits 0 when every measurement ran, whether or not the targets were met (a
# benchmark, not a test); non-zero when something failed. About 22 minutes on
# 2 cores. Smaller sizes for a quick look: BENCH_N_BIG=1000000 BENCH_T=5 ...
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh

BUILD=0
PG=15
PEERS=
while [ $# -gt 0 ]; do
	case $1 in
	--build) BUILD=1 ;;
	--pg) PG=${2:-15}; shift ;;
	--peers) PEERS=${2:?--peers needs a directory}; shift ;;
	-h | --help) sed -n '2,/^[^#]/ s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "usage: bash bench/run.sh [--build] [--pg 15|17|18|19] [--peers DIR] [--help]" >&2; exit 2 ;;
	esac
	shift
done
if [ "$PG" != 15 ]; then
	. test/roots.sh
	# (not a bare command: errexit would then reach into uid_root_exec)
	UID_VENDOR=${PEERS:-${UID_VENDOR:-}} uid_root_exec "$PG" bench/run.sh --build || exit $?
	# a clean run wrote its CSV and charts into the root's copy of the tree
	root=$(uid_root_dir "$PG")
	for f in "$root/uniqueid/bench/results/latest/"* "$root/uniqueid/bench/"*.png; do
		[ ! -f "$f" ] || cp -pv "$f" "bench/${f#"$root/uniqueid/bench/"}" >&2
	done
	exit 0
fi
SECTIONS=${BENCH_SECTIONS:-pabcdeft}
want() { [[ $SECTIONS == *$1* ]]; }

N_GEN=${BENCH_N_GEN:-1000000}    # calls per generation query (a)
N_CAP=${BENCH_N_CAP:-10000000}   # next_id(1) calls in the capacity statement (b)
PGB_T=${BENCH_T:-10}             # seconds per pgbench run (c)
PGB_ROUNDS=${BENCH_ROUNDS:-3}    # pgbench runs per table (c); the best counts
THR_T=${BENCH_THR_T:-5}          # seconds per pgbench run (t)
N_BIG=${BENCH_N_BIG:-10000000}   # rows for text I/O (d) and sorting (e)
REPS=${BENCH_REPS:-5}            # runs per timed query (d, e); the best counts
GEN_REPS=${BENCH_GEN_REPS:-7}    # runs per timed query (a); the best counts
N_SLOW=${BENCH_N_SLOW:-100000}   # sonyflake and spreadid calls (f)

if [ "$BUILD" -eq 1 ]; then
	uid_install_packages make gcc "postgresql-$UID_PGVER" "postgresql-server-dev-$UID_PGVER"
	uid_log "building and installing uniqueid"
	uid_build_install
else
	# postgresql-15 ships pgbench and uuid-ossp
	uid_install_packages "postgresql-$UID_PGVER"
fi

. bench/peers.sh
. bench/scale.sh
if [ -z "$PEERS" ]; then
	# (their archives, wherever test/vendor.sh finds them; the directory of
	# links goes with the run)
	. test/vendor.sh
	PEERS=$(mktemp -d)
	uid_vendor_collect "$PEERS" 'pgedge-snowflake-*' 'pg_uuidv7-*'
	bench_peers_install "$PEERS"
	rm -rf "$PEERS"
else
	bench_peers_install "$PEERS"
fi
PEER_CONF=()
[ -z "$PEER_SNOWFLAKE" ] || PEER_CONF=("shared_preload_libraries = 'uniqueid,snowflake'" "snowflake.node = 1")

D=$(uid_tmpdir)
trap 'uid_cluster_stop "$D" || true; rm -rf "$D"' EXIT
uid_cluster_init "$D" \
	"shared_buffers = 512MB" \
	"max_wal_size = 4GB" "${PEER_CONF[@]}"
uid_cluster_start "$D"

sql() { uid_psql "$D" -d postgres "$@"; }

LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
# which build is measured: the library the postmaster loaded at start
SO=$("$UID_PGBIN/pg_config" --pkglibdir)/uniqueid.so
SO_ID="$(sha256sum "$SO" | cut -c1-12), installed $(date -u -r "$SO" '+%Y-%m-%d %H:%M:%S UTC')"
GIT_ID=$(git rev-parse --short HEAD 2>/dev/null || cat .commit 2>/dev/null || echo unknown)
PGNUM=$(sql -Atc "SHOW server_version_num")

# --- arithmetic and the results table ----------------------------------------
calc() { awk "BEGIN { printf \"%.${2:-3}f\", $1 }"; }   # calc EXPR [DECIMALS]
holds() { awk "BEGIN { exit !($1) }"; }                  # holds CONDITION
yesno() { if holds "$1"; then echo yes; else echo NO; fi; }

RESULTS=()
row() { RESULTS+=("$1|$2|$3|$4|$5|$6"); }   # row SECTION NAME RESULT RATIO TARGET MET

# --- timing ---------------------------------------------------------------------
# Queries of one group are timed by psql's \timing in one session, REPS
# rounds, each round running every query of the group once, in order. The
# best (lowest) time of each is its figure; a target ratio is judged on the
# median over the rounds of the ratio of two queries run next to each other
# (paired), which shares the machine's state of the moment: on a shared VM the
# same query runs up to 2x slower for seconds at a time (see bench/README.md).
# q KEY QUERY [BETWEEN] adds a query to the group, BETWEEN being an untimed
# statement run before each of its runs; run_group [SETUP] runs the group and
# fills BEST[KEY] and ALL[KEY] (ms, every round).
declare -A BEST ALL
Q_KEYS=() Q_SQL=() Q_BETWEEN=()
q() { Q_KEYS+=("$1"); Q_SQL+=("$2"); Q_BETWEEN+=("${3:-}"); }
run_group() {
	local setup=${1:-} n=${#Q_KEYS[@]} out r k t all min times
	out=$({
		echo "SET max_parallel_workers_per_gather = 0;"
		echo "$setup"
		echo '\o /dev/null'
		for ((r = 0; r < REPS; r++)); do
			for ((k = 0; k < n; k++)); do
				[ -z "${Q_BETWEEN[k]}" ] || echo "${Q_BETWEEN[k]}"
				echo '\timing on'
				echo "${Q_SQL[k]};"
				echo '\timing off'
			done
		done
	} | sql -f -)
	mapfile -t times < <(awk '/^Time: / { print $2 }' <<<"$out")
	[ "${#times[@]}" -eq $((n * REPS)) ] || { uid_log "expected $((n * REPS)) timings, got ${#times[@]}"; return 1; }
	for ((k = 0; k < n; k++)); do
		all="" min=""
		for ((r = 0; r < REPS; r++)); do
			t=${times[r * n + k]}
			all+=" $t"
			if [ -z "$min" ] || holds "$t < $min"; then min=$t; fi
		done
		BEST[${Q_KEYS[k]}]=$min
		ALL[${Q_KEYS[k]}]=${all# }
		uid_log "  ${Q_SQL[k]}${Q_BETWEEN[k]:+   [before each: ${Q_BETWEEN[k]}]}"
		uid_log "    ms:$all"
	done
	Q_KEYS=() Q_SQL=() Q_BETWEEN=()
}
# gen KEY EXPR [BETWEEN]: a query of N_GEN calls of EXPR in the group
gen() { q "$1" "SELECT count($2) FROM generate_series(1, $N_GEN) AS i" "${3:-}"; }
secs() { calc "${BEST[$1]} / 1000"; }
times_of() { calc "${BEST[$1]} / ${BEST[$2]}" 2; }   # times_of A B: A's best / B's best
# paired A B: median over the rounds of A's / B's (ALL: one figure per round)
paired() {
	awk -v a="${ALL[$1]}" -v b="${ALL[$2]}" 'BEGIN {
		n = split(a, x, " "); split(b, y, " ")
		for (i = 1; i <= n; i++) r[i] = x[i] / y[i]
		for (i = 2; i <= n; i++) for (j = i; j > 1 && r[j - 1] > r[j]; j--) { t = r[j]; r[j] = r[j - 1]; r[j - 1] = t }
		printf "%.2f", n % 2 ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2 }'
}

uid_log "cluster up: $(sql -Atc "SELECT version()")"
MAX_LEAD=$(sql -Atc "SHOW uniqueid.max_clock_lead")
uid_log "uniqueid.max_clock_lead = $MAX_LEAD"

sql <<'SQL'
CREATE EXTENSION uniqueid;
CREATE EXTENSION "uuid-ossp";
CREATE SEQUENCE bench_seq;
SQL
sql -f test/fixtures/instagram_next_id.sql
[ -z "$PEER_SNOWFLAKE" ] || sql -c "CREATE EXTENSION snowflake"
[ -z "$PEER_UUIDV7" ] || sql -c "CREATE EXTENSION pg_uuidv7"
RESULTS_DIR=bench/results/latest
mkdir -p "$RESULTS_DIR"
RUN_ID="$(date -u '+%Y-%m-%d'), $(nproc) cores, PostgreSQL $(sql -Atc "SHOW server_version" | cut -d' ' -f1), commit $GIT_ID"

if want p; then
# --- (p) per-call cost against the peers: N_GEN calls in one backend ------------------
# Every generator fast enough to be measured by the call (the capacity-bound
# ones are in (t)), the peers, and the yardsticks, in one group whose rounds
# are interleaved. Reported as the cost beyond the loop (the loop alone
# subtracted), in ns per call, and as paired ratios to a bare clock read, to
# pgEdge snowflake and to pg_uuidv7.
uid_log "(p) per-call cost against the peers, $N_GEN calls per query, best of $GEN_REPS"
P_KEYS=(p_clock p_nextval p_gen_uuid)
declare -A P_LABEL=([p_loop]="the loop alone" [p_clock]="clock_timestamp()" [p_nextval]="nextval('seq')"
	[p_gen_uuid]="gen_random_uuid()" [p_core_uuidv7]="uuidv7() (core)" [p_peer_snow]="snowflake.nextval() (pgEdge)"
	[p_peer_uuidv7]="uuid_generate_v7() (pg_uuidv7)" [p_id]="next_id(i % 8192)" [p_id_own]="next_id()"
	[p_snowflake]="next_snowflake()" [p_sno]="next_sno()" [p_objectid]="next_objectid()" [p_uuid7]="next_uuid7()"
	[p_ulid]="next_ulid()" [p_ksuid]="next_ksuid()" [p_rsxid]="next_rsxid()" [p_typeid]="next_typeid('user')")
declare -A P_KIND=([p_clock]=floor [p_nextval]=core [p_gen_uuid]=core [p_core_uuidv7]=core [p_peer_snow]=peer
	[p_peer_uuidv7]=peer [p_id]=uniqueid [p_id_own]=uniqueid [p_snowflake]=uniqueid [p_sno]=uniqueid
	[p_objectid]=uniqueid [p_uuid7]=uniqueid [p_ulid]=uniqueid [p_ksuid]=uniqueid [p_rsxid]=uniqueid
	[p_typeid]=uniqueid)
gen p_loop "i"
gen p_clock "clock_timestamp()"
gen p_nextval "nextval('bench_seq')"
gen p_gen_uuid "gen_random_uuid()"
if [ "$PGNUM" -ge 180000 ]; then gen p_core_uuidv7 "uuidv7()"; P_KEYS+=(p_core_uuidv7); fi
if [ -n "$PEER_SNOWFLAKE" ]; then gen p_peer_snow "snowflake.nextval()"; P_KEYS+=(p_peer_snow); fi
if [ -n "$PEER_UUIDV7" ]; then gen p_peer_uuidv7 "uuid_generate_v7()"; P_KEYS+=(p_peer_uuidv7); fi
gen p_id "next_id(i % 8192)"
gen p_id_own "next_id()"
gen p_snowflake "next_snowflake()"
gen p_sno "next_sno()"
gen p_objectid "next_objectid()"
gen p_uuid7 "next_uuid7()"
gen p_ulid "next_ulid()"
gen p_ksuid "next_ksuid()"
gen p_rsxid "next_rsxid()"
gen p_typeid "next_typeid('user')"
P_KEYS+=(p_id p_id_own p_snowflake p_sno p_objectid p_uuid7 p_ulid p_ksuid p_rsxid p_typeid)
REPS_SAVED=$REPS REPS=$GEN_REPS
run_group
REPS=$REPS_SAVED
# beyond K: ns per call beyond the loop, from the best runs; pbeyond A B: the
# median over the rounds of A's cost beyond the loop / B's (paired)
beyond() { calc "(${BEST[$1]} - ${BEST[p_loop]}) * 1000000 / $N_GEN" 0; }
pbeyond() {
	awk -v a="${ALL[$1]}" -v b="${ALL[$2]}" -v l="${ALL[p_loop]}" 'BEGIN {
		n = split(a, x, " "); split(b, y, " "); split(l, z, " ")
		for (i = 1; i <= n; i++) r[i] = (x[i] - z[i]) / (y[i] - z[i])
		for (i = 2; i <= n; i++) for (j = i; j > 1 && r[j - 1] > r[j]; j--) { t = r[j]; r[j] = r[j - 1]; r[j - 1] = t }
		printf "%.2f", n % 2 ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2 }'
}
echo "generator,kind,ns_per_call,x_clock" >"$RESULTS_DIR/percall.csv"
echo "$RUN_ID" >"$RESULTS_DIR/percall.run"
row p "loop alone: count(i)" "$(secs p_loop) s" "(subtracted from every row below)" - -
for k in "${P_KEYS[@]}"; do
	ratio="$(pbeyond "$k" p_clock)x clock_ts"
	[ -z "$PEER_SNOWFLAKE" ] || ratio+=", $(pbeyond "$k" p_peer_snow)x pgEdge"
	[ -z "$PEER_UUIDV7" ] || ratio+=", $(pbeyond "$k" p_peer_uuidv7)x pg_uuidv7"
	target=- met=-
	if [ "${P_KIND[$k]}" = uniqueid ]; then
		target="<=2x clock_ts" met=$(yesno "$(pbeyond "$k" p_clock) <= 2")
	fi
	row p "${P_LABEL[$k]}" "$(beyond "$k") ns/call" "$ratio" "$target" "$met"
	echo "\"${P_LABEL[$k]}\",${P_KIND[$k]},$(beyond "$k"),$(pbeyond "$k" p_clock)" >>"$RESULTS_DIR/percall.csv"
done
[ -n "$PEER_SNOWFLAKE" ] || row p "snowflake.nextval() (pgEdge)" "left out" "no source given (--peers)" - -
[ -n "$PEER_UUIDV7" ] || row p "uuid_generate_v7() (pg_uuidv7)" "left out" "no source given (--peers)" - -

fi

if want t; then
# --- (t) throughput: 1, 2 and 4 clients, 1,000 IDs per transaction ----------------------
# pgbench, THR_T s per run; IDs/s and the share of the layout's capacity (the
# IDs one identity can give per second; 0 where there is no such limit).
declare -A T_EXPR=([t_id5]="next_id(5)" [t_idpid]="next_id(pg_backend_pid() % 8192)" [t_snowflake]="next_snowflake()"
	[t_sno]="next_sno()" [t_objectid]="next_objectid()" [t_uuid7]="next_uuid7()" [t_shortid]="next_shortid()"
	[t_sonyflake]="next_sonyflake()" [t_spreadid]="next_spreadid()" [t_nextval]="nextval('bench_seq')"
	[t_gen_uuid]="gen_random_uuid()" [t_peer_snow]="snowflake.nextval()" [t_peer_uuidv7]="uuid_generate_v7()"
	[t_core_uuidv7]="uuidv7()")
declare -A T_CAP=([t_id5]=1024000 [t_idpid]=0 [t_snowflake]=4096000 [t_sno]=16384000 [t_objectid]=16777216
	[t_uuid7]=4096000 [t_shortid]=512000 [t_sonyflake]=25600 [t_spreadid]=64000 [t_nextval]=0 [t_gen_uuid]=0
	[t_peer_snow]=4096000 [t_peer_uuidv7]=0 [t_core_uuidv7]=0)
T_KEYS=(t_id5 t_idpid t_snowflake t_sno t_objectid t_uuid7 t_shortid t_sonyflake t_spreadid t_nextval t_gen_uuid)
[ -z "$PEER_SNOWFLAKE" ] || T_KEYS+=(t_peer_snow)
[ -z "$PEER_UUIDV7" ] || T_KEYS+=(t_peer_uuidv7)
[ "$PGNUM" -lt 180000 ] || T_KEYS+=(t_core_uuidv7)
uid_log "(t) throughput, ${#T_KEYS[@]} generators x 1, 2, 4 clients x $THR_T s: about $((${#T_KEYS[@]} * (3 * THR_T + 5))) s"
echo "generator,capacity,clients_1,clients_2,clients_4" >"$RESULTS_DIR/throughput.csv"
echo "$RUN_ID" >"$RESULTS_DIR/throughput.run"
i=0
for k in "${T_KEYS[@]}"; do
	i=$((i + 1))
	echo "SELECT count(${T_EXPR[$k]}) FROM generate_series(1, 1000);" >"$D/thr.sql"
	line="" csv=""
	# first, 2 s unrecorded: a capacity-bound generator uses up its lead allowance
	"$UID_PGBIN/pgbench" -h "$D" -p 5432 -U postgres -n -c 1 -T 2 -f "$D/thr.sql" postgres >/dev/null 2>&1
	for c in 1 2 4; do
		out=$("$UID_PGBIN/pgbench" -h "$D" -p 5432 -U postgres -n -c "$c" -j "$c" -T "$THR_T" -f "$D/thr.sql" postgres 2>&1) ||
			{ printf '%s\n' "$out" >&2; exit 1; }
		ids=$(calc "$(awk '/^tps = / { print $3; exit }' <<<"$out") * 1000" 0)
		csv+=",$ids"
		line+="${line:+, }$c: $ids"
		[ "${T_CAP[$k]}" -eq 0 ] || line+=" ($(calc "100 * $ids / ${T_CAP[$k]}" 0)%)"
	done
	echo "\"${T_EXPR[$k]}\",${T_CAP[$k]}$csv" >>"$RESULTS_DIR/throughput.csv"
	uid_log "  [$i/${#T_KEYS[@]}] ${T_EXPR[$k]}: $line IDs/s"
	row t "${T_EXPR[$k]}" "by clients" "$line IDs/s" \
		"$([ "${T_CAP[$k]}" -eq 0 ] && echo "no limit" || echo "cap ${T_CAP[$k]}/s")" -
done

fi

if want a; then
# --- (a) generation cost: N_GEN calls in one backend -----------------------------
uid_log "(a) generation, $N_GEN calls per query, best of $GEN_REPS"
gen loop "i"   # the loop alone: the series written to (and spilled from) its tuplestore, then counted
gen clock "clock_timestamp()"
gen spread "next_id(i % 8192)"   # between its two yardsticks, for the paired ratios
gen nextval "nextval('bench_seq')"
gen gen_uuid "gen_random_uuid()"
gen uuid7 "next_uuid7()"
[ "$PGNUM" -ge 180000 ] && gen core_uuidv7 "uuidv7()"
gen uuid_v4 "uuid_generate_v4()"
gen insta "insta_next_id()"
# one shard, with the 1 s lead allowance available (any earlier lead drained)...
gen one_fresh "next_id(5)" "SELECT pg_sleep(1.2);"
# ...and with the shard at the lead limit (2.5M IDs, 2.4 s of them, just taken): capped at 1,024,000/s
gen one_capped "next_id(5)" "SELECT count(next_id(5)) FROM (SELECT generate_series(1, 2500000)) AS g;"
REPS_SAVED=$REPS REPS=$GEN_REPS
run_group
REPS=$REPS_SAVED

gen_row() { # gen_row KEY LABEL [TARGET MET]
	row a "$2" "$(secs "$1") s" "$(times_of "$1" nextval)x nextval, $(times_of "$1" clock)x clock_ts" "${3:--}" "${4:--}"
}
row a "loop alone: count(i)" "$(secs loop) s" "(part of every row below)" - -
gen_row clock "clock_timestamp()"
gen_row nextval "nextval('seq')"
gen_row gen_uuid "gen_random_uuid()"
gen_row uuid7 "next_uuid7()"
row a "" "" "paired: $(paired uuid7 gen_uuid)x gen_random_uuid, $(paired uuid7 nextval)x nextval" - -
if [ "$PGNUM" -ge 180000 ]; then
	gen_row core_uuidv7 "uuidv7() (core, 18+)"
	row a "" "" "next_uuid7 paired: $(paired uuid7 core_uuidv7)x uuidv7(); uuidv7 $(paired core_uuidv7 gen_uuid)x gen_random_uuid" - -
fi
gen_row uuid_v4 "uuid_generate_v4()"
gen_row insta "Instagram PL/pgSQL next_id()"
gen_row spread "next_id(i % 8192)"
P=$(paired spread nextval)
row a "" "" "paired: ${P}x nextval" "<=0.5x nextval" "$(yesno "$P <= 0.5")"
P=$(paired spread clock)
row a "" "" "paired: ${P}x clock_ts" "<=2x clock_ts" "$(yesno "$P <= 2")"
gen_row one_fresh "next_id(5), lead allowance free"
gen_row one_capped "next_id(5), shard at lead limit"

fi

if want b; then
# --- (b) capacity: N_CAP next_id(1) in one statement -----------------------------
# The series is produced in the select list (ProjectSet, streamed) rather than
# in FROM (a FunctionScan that first writes all N_CAP numbers to a tuplestore,
# spilling to disk), so that the statement asks for IDs much faster than the
# 1,024 per ms the shard can give. The first ~1 s of lead is free; the capped
# part starts at the first ID within 1 % of uniqueid.max_clock_lead.
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
[ -n "${CAP_I0:-}" ] || { uid_log "the lead never came within 1 % of $MAX_LEAD: the statement did not outrun the shard"; exit 1; }
CAP_SN=$((CAP_N - CAP_I0))
uid_log "  $CAP_N IDs in $CAP_MS ms, max lead $CAP_LEAD s, $CAP_OVER over the limit;" \
	"capped from ID #$CAP_I0 on: $CAP_SN IDs in $CAP_SS s"
CAP_RAW=$(calc "$CAP_N / ($CAP_MS / 1000)" 0)
CAP_STEADY=$(calc "$CAP_SN / $CAP_SS" 0)
LEAD_LIMIT_S=$(sql -Atc "SELECT extract(epoch FROM interval '$MAX_LEAD')")
row b "next_id(1) x $N_CAP: whole statement" "$CAP_RAW IDs/s" "$(calc "100 * $CAP_RAW / 1024000" 1)% of 1,024,000/s" \
	">=95%" "$(yesno "$CAP_RAW >= 0.95 * 1024000")"
row b "  its capped part (lead at limit)" "$CAP_STEADY IDs/s" "$(calc "100 * $CAP_STEADY / 1024000" 1)% of 1,024,000/s, last $CAP_SN IDs" \
	">=95%" "$(yesno "$CAP_STEADY >= 0.95 * 1024000")"
row b "  max lead of id_time over clock" "$(calc "$CAP_LEAD" 6) s" "$CAP_OVER IDs over the limit" \
	"<=$MAX_LEAD" "$(yesno "$CAP_LEAD <= $LEAD_LIMIT_S && $CAP_OVER == 0")"

fi

if want c; then
# --- (c) inserts with pgbench --------------------------------------------------------
# Instagram's function repeats an ID when a backend is descheduled between its
# nextval() and its clock_timestamp() while the other one takes 1,024 values
# of the sequence, and a duplicate key aborts pgbench. Its table therefore
# gets a plain (non-unique) btree index on id instead of a primary key, with
# deduplication off as in a unique index (else every full leaf page first gets
# a futile deduplication pass); the repeats are counted. ON CONFLICT DO NOTHING
# would halve its rate: the speculative insertion costs more than the
# function. A bigserial table with the same plain index shows what skipping
# the uniqueness check changes.
uid_log "(c) pgbench inserts: 2 clients, 1000 rows per transaction, $PGB_ROUNDS rounds of $PGB_T s per table"
echo "INSERT INTO t (v) SELECT 0 FROM generate_series(1, 1000);" >"$D/insert.sql"
declare -A PGB IDX TBL REPEATS
PGB_KEYS=(bigserial shard1 shardpid insta bigserial_nu uuid)
PGB_KEYS+=(sno uuid7 ulid ksuid rsxid typeid)
[ -z "$PEER_SNOWFLAKE" ] || PGB_KEYS+=(peer_snow)
[ -z "$PEER_UUIDV7" ] || PGB_KEYS+=(peer_uuidv7)
declare -A PGB_DEF=(
	[bigserial]="bigserial PRIMARY KEY"
	[shard1]="shardid PRIMARY KEY DEFAULT next_id(5)"
	[shardpid]="shardid PRIMARY KEY DEFAULT next_id(pg_backend_pid() % 8192)"
	[insta]="bigint NOT NULL DEFAULT insta_next_id()"
	[bigserial_nu]="bigserial"
	[uuid]="uuid PRIMARY KEY DEFAULT gen_random_uuid()"
	[sno]="sno PRIMARY KEY DEFAULT next_sno()"
	[uuid7]="uuid PRIMARY KEY DEFAULT next_uuid7()"
	[ulid]="ulid PRIMARY KEY DEFAULT next_ulid()"
	[ksuid]="ksuid PRIMARY KEY DEFAULT next_ksuid()"
	[rsxid]="rsxid PRIMARY KEY DEFAULT next_rsxid()"
	[typeid]="typeid PRIMARY KEY DEFAULT next_typeid('user')"
	[peer_snow]="bigint PRIMARY KEY DEFAULT snowflake.nextval()"
	[peer_uuidv7]="uuid PRIMARY KEY DEFAULT uuid_generate_v7()"
)
for ((r = 1; r <= PGB_ROUNDS; r++)); do
	for k in "${PGB_KEYS[@]}"; do
		sql <<-SQL
			DROP TABLE IF EXISTS t;
			CREATE TABLE t (id ${PGB_DEF[$k]}, v int NOT NULL DEFAULT 0) WITH (autovacuum_enabled = off);
			CREATE INDEX IF NOT EXISTS t_pkey ON t (id) WITH (deduplicate_items = off);  -- insta, bigserial_nu
			CHECKPOINT;
		SQL
		out=$("$UID_PGBIN/pgbench" -h "$D" -p 5432 -U postgres -n -c 2 -j 2 -T "$PGB_T" -f "$D/insert.sql" postgres 2>&1) ||
			{ printf '%s\n' "$out" >&2; exit 1; }
		rows=$(calc "$(awk '/^tps = / { print $3; exit }' <<<"$out") * 1000" 0)
		if [ -z "${PGB[$k]:-}" ] || [ "$rows" -gt "${PGB[$k]}" ]; then PGB[$k]=$rows; fi
		ALL[pgb_$k]="${ALL[pgb_$k]:+${ALL[pgb_$k]} }$rows"
		read -r n rep IDX[$k] TBL[$k] <<<"$(sql -At -F ' ' -c "SELECT count(*),
			CASE WHEN '$k' = 'insta' THEN count(*) - count(DISTINCT id) ELSE 0 END,
			round(pg_relation_size('t_pkey')::numeric / count(*), 1),
			round(pg_relation_size('t')::numeric / count(*), 1) FROM t")"
		REPEATS[$k]=$((${REPEATS[$k]:-0} + rep))
		uid_log "  round $r, id ${PGB_DEF[$k]}: $rows rows/s; $n rows, $rep repeated IDs;" \
			"index ${IDX[$k]} B/row, table ${TBL[$k]} B/row"
	done
done
sql -c "DROP TABLE t"

pgb_row() { # pgb_row KEY LABEL [TARGET MET]
	row c "$2" "${PGB[$1]} rows/s" \
		"$(calc "${PGB[$1]} / ${PGB[bigserial]}" 2)x bigserial; index ${IDX[$1]} B/row, heap ${TBL[$1]} B/row" \
		"${3:--}" "${4:--}"
}
pgb_row bigserial "bigserial"
for k in shard1 shardpid; do
	pgb_row $k "shardid $([ $k = shard1 ] && echo 'next_id(5)' || echo 'next_id(pid % 8192)')"
	P=$(paired pgb_$k pgb_bigserial)
	row c "" "" "paired: ${P}x bigserial" ">=1x bigserial" "$(yesno "$P >= 1")"
	P=$(paired pgb_$k pgb_insta)
	row c "" "" "paired: ${P}x Instagram (best: $(calc "${PGB[$k]} / ${PGB[insta]}" 2)x)" ">=3x Instagram" "$(yesno "$P >= 3")"
done
pgb_row insta "bigint Instagram PL/pgSQL *"
row c "" "" "* non-unique index; ${REPEATS[insta]} repeated IDs in $PGB_ROUNDS runs" - -
pgb_row bigserial_nu "bigserial, non-unique index *"
pgb_row uuid "uuid gen_random_uuid()"
declare -A INS_LABEL=([shard1]="shardid next_id(5)" [shardpid]="shardid next_id(pid % 8192)"
	[bigserial]="bigserial" [uuid]="uuid gen_random_uuid()" [sno]="sno next_sno()" [uuid7]="uuid next_uuid7()"
	[ulid]="ulid next_ulid()" [ksuid]="ksuid next_ksuid()" [rsxid]="rsxid next_rsxid()"
	[typeid]="typeid next_typeid('user')"
	[peer_snow]="bigint snowflake.nextval() (pgEdge)"
	[peer_uuidv7]="uuid uuid_generate_v7() (pg_uuidv7)")
echo "key,rows_per_s,index_bytes_per_row" >"$RESULTS_DIR/inserts.csv"
echo "$RUN_ID" >"$RESULTS_DIR/inserts.run"
for k in shard1 shardpid sno uuid7 ulid ksuid rsxid typeid bigserial uuid; do
	if [ $k != shard1 ] && [ $k != shardpid ] && [ $k != bigserial ] && [ $k != uuid ]; then
		pgb_row $k "${INS_LABEL[$k]}"
		row c "" "" "paired: $(paired pgb_$k pgb_uuid)x gen_random_uuid" - -
	fi
	echo "\"${INS_LABEL[$k]}\",${PGB[$k]},${IDX[$k]}" >>"$RESULTS_DIR/inserts.csv"
done
for k in peer_snow peer_uuidv7; do
	[ -n "${PGB[$k]:-}" ] || continue
	pgb_row $k "${INS_LABEL[$k]}"
	row c "" "" "paired: shardid next_id(5) $(paired pgb_shard1 pgb_$k)x this" - -
	echo "\"${INS_LABEL[$k]}\",${PGB[$k]},${IDX[$k]}" >>"$RESULTS_DIR/inserts.csv"
done

fi

# --- data for (d), (e) and (f) ------------------------------------------------------------
if want d || want e || want f; then
uid_log "building $N_BIG-row tables for text I/O and sorting"
sql <<SQL
CREATE TABLE io_s AS SELECT next_id(i % 8192) AS id FROM generate_series(1, $N_BIG) AS i;
CREATE TABLE io_u AS SELECT gen_random_uuid() AS id FROM generate_series(1, $N_BIG);
CREATE TABLE io_st AS SELECT id::text AS s FROM io_s;
CREATE TABLE io_ut AS SELECT id::text AS s FROM io_u;
-- the same shardid values in random order, and as bigint in that same order
CREATE TABLE sort_s AS SELECT id FROM io_s ORDER BY random();
CREATE TABLE sort_b AS SELECT id::bigint AS id FROM sort_s;
VACUUM (FREEZE, ANALYZE) io_s, io_u, io_st, io_ut, sort_s, sort_b;
SQL

fi

if want d; then
# --- (d) text output and input ---------------------------------------------------------
uid_log "(d) text output and input, $N_BIG values, best of $REPS"
q out_s "SELECT count(id::text) FROM io_s"
q out_u "SELECT count(id::text) FROM io_u"
q out_b "SELECT count(id::text) FROM sort_b"
q in_s "SELECT count(s::shardid) FROM io_st"
q in_u "SELECT count(s::uuid) FROM io_ut"
q in_b "SELECT count(s::bigint) FROM io_st"
run_group
P=$(paired out_s out_u)
row d "output shardid::text" "$(secs out_s) s" "$(times_of out_s out_u)x uuid; paired ${P}x" "<=1x uuid" "$(yesno "$P <= 1")"
row d "output uuid::text" "$(secs out_u) s" "1.00x uuid" - -
row d "output bigint::text (reference)" "$(secs out_b) s" "$(times_of out_b out_u)x uuid; paired $(paired out_b out_u)x" - -
P=$(paired in_s in_u)
row d "input text::shardid" "$(secs in_s) s" "$(times_of in_s in_u)x uuid; paired ${P}x" "<=1x uuid" "$(yesno "$P <= 1")"
row d "input text::uuid" "$(secs in_u) s" "1.00x uuid" - -
row d "input text::bigint (reference)" "$(secs in_b) s" "$(times_of in_b in_u)x uuid; paired $(paired in_b in_u)x" - -

fi

if want e; then
# --- (e) sorting --------------------------------------------------------------------------
uid_log "(e) sorting $N_BIG values in memory (work_mem 2GB), best of $REPS"
for k in sort_s sort_b io_u; do
	# one untimed run each, which also shows that the sort stays in memory
	uid_log "  $k: $(sql -At -c "SET max_parallel_workers_per_gather = 0" -c "SET work_mem = '2GB'" \
		-c "EXPLAIN (ANALYZE, TIMING OFF, COSTS OFF) SELECT count(*) FROM (SELECT id FROM $k ORDER BY id OFFSET 0) AS s" |
		grep -o 'Sort Method: .*' || true)"
	q "$k" "SELECT count(*) FROM (SELECT id FROM $k ORDER BY id OFFSET 0) AS s"
done
run_group "SET work_mem = '2GB';"
P=$(paired sort_s sort_b)
row e "sort shardid" "$(secs sort_s) s" "$(times_of sort_s sort_b)x bigint; paired ${P}x" "<=1.2x bigint" "$(yesno "$P <= 1.2")"
row e "sort bigint (same values)" "$(secs sort_b) s" "1.00x bigint" - -
row e "sort uuid (reference)" "$(secs io_u) s" "$(times_of io_u sort_b)x bigint; paired $(paired io_u sort_b)x" - -

fi

if want f; then
# --- (f) the other families, and short codes ------------------------------------------------
# Generation cost of every other generator, against the same yardsticks.
# sonyflake (256 per 10 ms) and spreadid (64 per ms) are capacity-bound long
# before the call cost matters: they are run N_SLOW times after a pause that
# leaves them their 1 s lead allowance, and reported as a rate against that
# capacity. sno: pgbench inserts against gen_random_uuid(), text I/O and a
# sort of N_BIG values against uuid. id_encode/id_decode against to_hex and
# bigint's text form.
uid_log "(f) other generators, $N_GEN calls each ($N_SLOW for sonyflake and spreadid)"
gen f_clock "clock_timestamp()"
gen f_nextval "nextval('bench_seq')"
gen f_sno "next_sno()"
gen f_uuid7 "next_uuid7()"
gen f_snow "next_snowflake()"
gen f_obj "next_objectid()"
gen f_short "next_shortid()" "SELECT pg_sleep(1.2);"
q f_sony "SELECT count(next_sonyflake()) FROM generate_series(1, $N_SLOW)" "SELECT pg_sleep(1.2);"
q f_spread "SELECT count(next_spreadid()) FROM generate_series(1, $N_SLOW)" "SELECT pg_sleep(1.2);"
REPS_SAVED=$REPS REPS=$GEN_REPS
run_group
REPS=$REPS_SAVED
for k in f_sno f_uuid7 f_snow; do
	P=$(paired $k f_nextval)
	Q=$(paired $k f_clock)
	row f "$(sed 's/^f_sno$/next_sno()/; s/^f_uuid7$/next_uuid7()/; s/^f_snow$/next_snowflake()/' <<<"$k")" \
		"$(secs $k) s" "paired: ${P}x nextval, ${Q}x clock_ts" "<=0.5x nextval, <=2x clock_ts" \
		"$(yesno "$P <= 0.5 && $Q <= 2")"
done
row f "next_objectid()" "$(secs f_obj) s" "paired: $(paired f_obj f_nextval)x nextval, $(paired f_obj f_clock)x clock_ts" - -
row f "next_shortid() (512 per ms)" "$(calc "$N_GEN / (${BEST[f_short]} / 1000)" 0) IDs/s" \
	"$(calc "100 * $N_GEN / (${BEST[f_short]} / 1000) / 512000" 1)% of capacity, lead allowance included" - -
row f "next_sonyflake() (256 per 10 ms)" "$(calc "$N_SLOW / (${BEST[f_sony]} / 1000)" 0) IDs/s" \
	"$(calc "100 * $N_SLOW / (${BEST[f_sony]} / 1000) / 25600" 1)% of capacity, lead allowance included" - -
row f "next_spreadid() (64 per ms)" "$(calc "$N_SLOW / (${BEST[f_spread]} / 1000)" 0) IDs/s" \
	"$(calc "100 * $N_SLOW / (${BEST[f_spread]} / 1000) / 64000" 1)% of capacity, lead allowance included" - -

uid_log "(f) pgbench inserts with sno and next_uuid7 keys, $PGB_ROUNDS rounds of $PGB_T s"
for ((r = 1; r <= PGB_ROUNDS; r++)); do
	for k in sno uuid7 uuid; do
		case $k in
			sno) def="sno PRIMARY KEY DEFAULT next_sno()" ;;
			uuid7) def="uuid PRIMARY KEY DEFAULT next_uuid7()" ;;
			uuid) def="uuid PRIMARY KEY DEFAULT gen_random_uuid()" ;;
		esac
		sql -c "DROP TABLE IF EXISTS t" -c "CREATE TABLE t (id $def, v int NOT NULL DEFAULT 0) WITH (autovacuum_enabled = off)" \
			-c "CHECKPOINT" >/dev/null
		out=$("$UID_PGBIN/pgbench" -h "$D" -p 5432 -U postgres -n -c 2 -j 2 -T "$PGB_T" -f "$D/insert.sql" postgres 2>&1) ||
			{ printf '%s\n' "$out" >&2; exit 1; }
		rows=$(calc "$(awk '/^tps = / { print $3; exit }' <<<"$out") * 1000" 0)
		ALL[f_pgb_$k]="${ALL[f_pgb_$k]:+${ALL[f_pgb_$k]} }$rows"
		if [ -z "${PGB[f_$k]:-}" ] || [ "$rows" -gt "${PGB[f_$k]}" ]; then PGB[f_$k]=$rows; fi
		IDX[f_$k]=$(sql -At -c "SELECT round(pg_relation_size('t_pkey')::numeric / count(*), 1) FROM t")
		uid_log "  round $r, id $def: $rows rows/s; index ${IDX[f_$k]} B/row"
	done
done
sql -c "DROP TABLE t" >/dev/null
P=$(paired f_pgb_sno f_pgb_uuid)
row f "inserts, sno next_sno()" "${PGB[f_sno]} rows/s" "paired: ${P}x gen_random_uuid; index ${IDX[f_sno]} B/row" \
	">=2x gen_random_uuid" "$(yesno "$P >= 2")"
row f "inserts, uuid next_uuid7()" "${PGB[f_uuid7]} rows/s" "paired: $(paired f_pgb_uuid7 f_pgb_uuid)x gen_random_uuid; index ${IDX[f_uuid7]} B/row" - -
row f "inserts, uuid gen_random_uuid()" "${PGB[f_uuid]} rows/s" "index ${IDX[f_uuid]} B/row" - -

uid_log "(f) sno text I/O and sort, $N_BIG values"
sql <<SQL >/dev/null
CREATE TABLE io_n AS SELECT next_sno() AS id FROM generate_series(1, $N_BIG);
CREATE TABLE io_nt AS SELECT id::text AS s FROM io_n;
CREATE TABLE sort_n AS SELECT id FROM io_n ORDER BY random();
CREATE TABLE sort_u AS SELECT id FROM io_u ORDER BY random();
VACUUM (FREEZE, ANALYZE) io_n, io_nt, sort_n, sort_u;
SQL
q f_out_n "SELECT count(id::text) FROM io_n"
q f_out_u "SELECT count(id::text) FROM io_u"
q f_in_n "SELECT count(s::sno) FROM io_nt"
q f_in_u "SELECT count(s::uuid) FROM io_ut"
run_group
row f "output sno::text" "$(secs f_out_n) s" "paired: $(paired f_out_n f_out_u)x uuid" "<=1x uuid" "$(yesno "$(paired f_out_n f_out_u) <= 1")"
row f "input text::sno" "$(secs f_in_n) s" "paired: $(paired f_in_n f_in_u)x uuid" "<=1x uuid" "$(yesno "$(paired f_in_n f_in_u) <= 1")"
q f_sort_n "SELECT count(*) FROM (SELECT id FROM sort_n ORDER BY id OFFSET 0) AS s"
q f_sort_u "SELECT count(*) FROM (SELECT id FROM sort_u ORDER BY id OFFSET 0) AS s"
run_group "SET work_mem = '2GB';"
row f "sort sno" "$(secs f_sort_n) s" "paired: $(paired f_sort_n f_sort_u)x uuid" "<=1.2x uuid" "$(yesno "$(paired f_sort_n f_sort_u) <= 1.2")"
row f "sort uuid (same count)" "$(secs f_sort_u) s" "1.00x uuid" - -
sql -c "DROP TABLE io_n, io_nt, sort_n, sort_u" >/dev/null

uid_log "(f) short codes, $N_GEN values"
sql -c "CREATE TABLE codes AS SELECT id_encode(i::bigint * 7919) AS c, to_hex(i::bigint * 7919) AS h, (i::bigint * 7919)::text AS t
	FROM generate_series(1, $N_GEN) AS i" -c "VACUUM ANALYZE codes" >/dev/null
gen f_enc "id_encode(i::bigint * 7919)"
gen f_hex "to_hex(i::bigint * 7919)"
gen f_txt "(i::bigint * 7919)::text"
q f_dec "SELECT count(id_decode(c)) FROM codes"
q f_unhex "SELECT count(('x' || lpad(h, 16, '0'))::bit(64)::bigint) FROM codes"
q f_untxt "SELECT count(t::bigint) FROM codes"
run_group
row f "id_encode(bigint) base62" "$(secs f_enc) s" "paired: $(paired f_enc f_hex)x to_hex, $(paired f_enc f_txt)x ::text" - -
row f "id_decode(text) base62" "$(secs f_dec) s" "paired: $(paired f_dec f_unhex)x hex via bit(64), $(paired f_dec f_untxt)x ::bigint" - -
sql -c "DROP TABLE codes" >/dev/null

fi

if want s; then
# --- (s) at scale: tables past shared_buffers, one key after another (bench/scale.sh) ----------
scale_section

fi

# --- charts -----------------------------------------------------------------------------------
# bench/charts.gp draws the CSV of (p), (t), (c)/(f) and (s) into bench/*.png
if [ -s "$RESULTS_DIR/percall.csv" ] || [ -s "$RESULTS_DIR/throughput.csv" ] || [ -s "$RESULTS_DIR/scale.csv" ]; then
	uid_install_packages gnuplot-nox || true
	if command -v gnuplot >/dev/null; then
		gnuplot -e "dir='$RESULTS_DIR'; out='bench'" bench/charts.gp &&
			uid_log "charts: bench/percall.png, bench/throughput.png, bench/inserts.png, bench/scale.png, bench/scale-wal.png"
	else
		uid_log "no gnuplot: the CSV in $RESULTS_DIR is not drawn"
	fi
fi

# --- report -----------------------------------------------------------------------------------
uid_log "done"
echo
echo "uniqueid benchmark, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, PostgreSQL $(sql -Atc "SHOW server_version")"
echo "(a) $N_GEN calls, best of $GEN_REPS; (b) $N_CAP calls; (c) pgbench -c 2 -j 2 -T $PGB_T, 1000-row INSERT, best of $PGB_ROUNDS;"
echo "(d)(e) $N_BIG rows, best of $REPS; (f) as (a) to (e), sonyflake and spreadid $N_SLOW calls. Load average at start: $LOAD_START, at end: $(cut -d' ' -f1-3 /proc/loadavg)"
! want s || echo "(s) one client, $SCALE_BATCH-row INSERTs into a cluster of its own (shared_buffers $SCALE_SB, max_wal_size $SCALE_MAX_WAL, checkpoint_timeout $SCALE_CKPT_TIMEOUT, fsync on) until each key's index holds ${SCALE_X}x shared_buffers; figures are over the windows of the last tenth of the rows, ratios between keys of the same windows (run one after another, not back to back)"
echo "Results are each query's best run; targets are judged on the median of the paired (back-to-back) ratios, except in (s)."
echo "uniqueid.so sha256 $SO_ID; source tree at commit $GIT_ID"
echo
fmt='%-2s %-36s %-16s %-54s %-15s %s\n'
# shellcheck disable=SC2059
printf "$fmt" "" "measurement" "result" "ratio" "target" "met"
# shellcheck disable=SC2059
printf "$fmt" "" "-----------" "------" "-----" "------" "---"
for r in "${RESULTS[@]}"; do
	IFS='|' read -r s n v ra ta m <<<"$r"
	# shellcheck disable=SC2059
	printf "$fmt" "$s" "$n" "$v" "$ra" "$ta" "$m"
done
