# shellcheck shell=bash
# bench/scale.sh - section (s) of bench/run.sh: every key as the primary key
# of a table that grows to ten times shared_buffers of index. Sourced by
# bench/run.sh after test/lib.sh and bench/peers.sh; scale_section runs it.
#
# One cluster of its own, one run for all keys, one key after another: a
# table (id KEY PRIMARY KEY, created_at timestamptz, payload int) per key,
# the key's generator as the column's DEFAULT, loaded by one client with
# INSERT ... SELECT of BATCH rows per transaction. Every WINDOW rows the
# loading session flushes its statistics and reads the clock, the WAL insert
# position and pg_stat_wal's full-page images, and the index's size; so each
# window gives rows/s, WAL bytes and full-page images per row. bigserial goes
# first and loads until its primary key index holds X times shared_buffers;
# every other key then loads the same number of rows (and more, if its index
# were still smaller than that), so that all are compared at the same sizes.
# bigserial loads once more at the end: how far it moved is the machine's
# drift over the run. The figures "at the largest size" are sums over the
# windows of the last tenth of those rows (rows / seconds, WAL bytes / rows,
# full-page images / rows): a sum counts the windows right after a
# checkpoint as much as the quiet ones, which a median would not. After the load: table and
# index sizes, pgstatindex's leaf density, and a time-range read through the
# primary key against the same range through an index on created_at, built
# then. The table is dropped before the next key.

SCALE_SB=${BENCH_SCALE_SB:-128MB}        # shared_buffers of the section's cluster
SCALE_X=${BENCH_SCALE_X:-10}             # load until the key's index >= X * shared_buffers
SCALE_WINDOW=${BENCH_SCALE_WINDOW:-1000000}   # rows per measured window
SCALE_BATCH=${BENCH_SCALE_BATCH:-10000}  # rows per INSERT (one transaction)
SCALE_READ=${BENCH_SCALE_READ:-1}        # seconds of rows the range read selects
SCALE_MAX_WAL=${BENCH_SCALE_MAX_WAL:-1GB}             # PostgreSQL's defaults,
SCALE_CKPT_TIMEOUT=${BENCH_SCALE_CKPT_TIMEOUT:-5min}  # which most servers keep

# scale_key_def KEY: the column definition; scale_key_label KEY: its name in
# the report; scale_key_range KEY A B: the condition on id selecting the rows
# made from psql variable A (inclusive) to B (exclusive), timestamptz
# literals, or nothing when the key carries no time a range can use.
declare -A SCALE_DEF=(
	[bigserial]="bigserial PRIMARY KEY"
	[id5]="shardid PRIMARY KEY DEFAULT next_id(5)"
	[snowflake]="snowflake PRIMARY KEY DEFAULT next_snowflake()"
	[sno]="sno PRIMARY KEY DEFAULT next_sno()"
	[objectid]="objectid PRIMARY KEY DEFAULT next_objectid()"
	[uuid7]="uuid PRIMARY KEY DEFAULT next_uuid7()"
	[ulid]="ulid PRIMARY KEY DEFAULT next_ulid()"
	[ksuid]="ksuid PRIMARY KEY DEFAULT next_ksuid()"
	[typeid]="typeid PRIMARY KEY DEFAULT next_typeid('user')"
	[peer_snow]="bigint PRIMARY KEY DEFAULT snowflake.nextval()"
	[peer_uuidv7]="uuid PRIMARY KEY DEFAULT uuid_generate_v7()"
	[core_uuidv7]="uuid PRIMARY KEY DEFAULT uuidv7()"
	[gen_uuid]="uuid PRIMARY KEY DEFAULT gen_random_uuid()"
	[bigserial_end]="bigserial PRIMARY KEY"
)
declare -A SCALE_LABEL=(
	[bigserial]="bigserial" [id5]="shardid next_id(5)" [snowflake]="snowflake next_snowflake()"
	[sno]="sno next_sno()" [objectid]="objectid next_objectid()" [uuid7]="uuid next_uuid7()"
	[ulid]="ulid next_ulid()" [ksuid]="ksuid next_ksuid()" [typeid]="typeid next_typeid('user')"
	[peer_snow]="bigint snowflake.nextval() (pgEdge)" [peer_uuidv7]="uuid uuid_generate_v7() (pg_uuidv7)"
	[core_uuidv7]="uuid uuidv7() (core)" [gen_uuid]="uuid gen_random_uuid()"
	[bigserial_end]="bigserial (run again last)"
)
declare -A SCALE_KIND=([bigserial]=core [gen_uuid]=core [core_uuidv7]=core [peer_snow]=peer [peer_uuidv7]=peer
	[bigserial_end]=core)
scale_key_range() {
	case $1 in
	id5 | snowflake | sno | objectid | ulid | ksuid) echo "id >= :'$2'::timestamptz AND id < :'$3'::timestamptz" ;;
	uuid7 | peer_uuidv7 | core_uuidv7) echo "id >= uuid7_floor(:'$2') AND id < uuid7_floor(:'$3')" ;;
	typeid) echo "id >= make_typeid('user', uuid7_floor(:'$2')) AND id < make_typeid('user', uuid7_floor(:'$3'))" ;;
	peer_snow) echo "id >= pgedge_snowflake_floor(:'$2') AND id < pgedge_snowflake_floor(:'$3')" ;;
	esac
}

# scale_snapshot_sql: flushes the session's statistics (they reach
# pg_stat_wal when it next goes idle), then reads: epoch seconds, the WAL
# insert position in bytes, pg_stat_wal's full-page images, the key's index
# size. scale_snapshot OUTPUT: the last line of OUTPUT, checked.
scale_snapshot_sql() {
	echo "SELECT pg_stat_force_next_flush();"
	echo "SELECT extract(epoch FROM clock_timestamp()), pg_current_wal_insert_lsn() - '0/0'::pg_lsn, wal_fpi,
		pg_relation_size('t_pkey') FROM pg_stat_wal;"
}
scale_snapshot() {
	local last
	last=$(tail -n 1 <<<"$1")
	[[ $last =~ ^[0-9.]+\ [0-9]+\ [0-9]+\ [0-9]+$ ]] || { uid_log "(s) not a snapshot: '$last'"; return 1; }
	printf '%s\n' "$last"
}

# scale_window DIR ROWS: one session inserts ROWS rows into t in batches,
# then prints its snapshot.
scale_window() {
	local dir=$1 rows=$2 n out
	out=$({
		for ((n = 0; n < rows; n += SCALE_BATCH)); do
			echo "INSERT INTO t (payload) SELECT i FROM generate_series(1, $((rows - n < SCALE_BATCH ? rows - n : SCALE_BATCH))) AS i;"
		done
		scale_snapshot_sql
	} | uid_psql "$dir" -d postgres -At -F ' ' -f -) || return 1
	scale_snapshot "$out"
}

# scale_read DIR COND: runs SELECT count(*), sum(payload) over the rows COND
# selects, three times; prints the best execution time (ms), the buffers the
# last run touched (shared hit + read), the rows its scan returned and the
# scan that the planner chose.
scale_read() {
	local dir=$1 cond=$2 out best="" t
	for _ in 1 2 3; do
		out=$(uid_psql "$dir" -d postgres -At -v "t1=$SCALE_T1" -v "t2=$SCALE_T2" <<-SQL
			SET max_parallel_workers_per_gather = 0;
			EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, COSTS OFF) SELECT count(*), sum(payload) FROM t WHERE $cond;
		SQL
		) || return 1
		t=$(awk '/^Execution Time:/ { print $3 }' <<<"$out")
		[ -n "$t" ] || { uid_log "(s) no execution time in: $out"; return 1; }
		if [ -z "$best" ] || holds "$t < $best"; then best=$t; fi
	done
	printf '%s %s %s %s\n' "$best" \
		"$(grep -m1 -o 'Buffers: shared.*' <<<"$out" | grep -oE '(hit|read)=[0-9]+' | awk -F= '{ s += $2 } END { print s + 0 }')" \
		"$(grep -m1 -E 'Scan .*actual rows=' <<<"$out" | sed -E 's/.*actual rows=([0-9]+).*/\1/')" \
		"$(grep -m1 -oE '(Index Only Scan|Index Scan|Bitmap Heap Scan|Seq Scan)' <<<"$out" | tr ' ' '_')"
}

# Per key: its windows, "rows seconds wal_bytes fpi index_bytes;" each
# (rows: in the table at the window's end), and its checkpoints.
declare -A SCALE_WINS SCALE_CKPT SCALE_DENSITY
SCALE_TARGET=0

scale_section() {
	local d keys=(bigserial id5 snowflake sno objectid uuid7 ulid ksuid typeid) k i rows sb out
	local t0 lsn0 fpi0 t1 lsn1 fpi1 idx wins rate wal fpi started ckpt
	[ -z "$PEER_SNOWFLAKE" ] || keys+=(peer_snow)
	[ -z "$PEER_UUIDV7" ] || keys+=(peer_uuidv7)
	[ "$PGNUM" -lt 180000 ] || keys+=(core_uuidv7)
	keys+=(gen_uuid bigserial_end)
	# the main cluster idle, its dirty buffers written
	uid_psql "$D" -d postgres -c "CHECKPOINT"
	d=$(uid_tmpdir)
	# shellcheck disable=SC2064
	trap "uid_cluster_stop '$d' || true; rm -rf '$d'; uid_cluster_stop '$D' || true; rm -rf '$D'" EXIT
	# test/lib.sh's clusters run with fsync = off; a later line wins
	uid_cluster_init "$d" "shared_buffers = $SCALE_SB" "fsync = on" "full_page_writes = on" \
		"synchronous_commit = on" "max_wal_size = $SCALE_MAX_WAL" "checkpoint_timeout = $SCALE_CKPT_TIMEOUT" \
		"checkpoint_completion_target = 0.9" "wal_compression = off" "log_checkpoints = on" "${PEER_CONF[@]}"
	uid_cluster_start "$d"
	uid_psql "$d" -d postgres <<-'SQL'
		CREATE EXTENSION uniqueid;
		CREATE EXTENSION pgstattuple;
		-- the same for pgEdge snowflake: ms since 2023-01-01 << 22 (its snowflake.c)
		CREATE FUNCTION pgedge_snowflake_floor(t timestamptz) RETURNS bigint
		    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
		    RETURN ceil((extract(epoch FROM t) - 1672531200) * 1000)::bigint << 22;
	SQL
	[ -z "$PEER_SNOWFLAKE" ] || uid_psql "$d" -d postgres -c "CREATE EXTENSION snowflake"
	[ -z "$PEER_UUIDV7" ] || uid_psql "$d" -d postgres -c "CREATE EXTENSION pg_uuidv7"
	sb=$(uid_psql "$d" -d postgres -Atc "SELECT pg_size_bytes(current_setting('shared_buffers'))")
	uid_log "(s) scale: ${#keys[@]} loads, each in windows of $SCALE_WINDOW rows until its primary key" \
		"holds ${SCALE_X}x shared_buffers ($SCALE_SB) of index, and at least as many rows as bigserial needed"
	echo "key,label,rows,rows_per_s,wal_bytes_per_row,fpi_per_row,index_bytes,seconds,wal_bytes,fpi" >"$RESULTS_DIR/scale.csv"
	echo "key,label,kind,rows,table_bytes,index_bytes,index_bytes_per_row,leaf_density,rows_per_s,wal_bytes_per_row,fpi_per_row,created_at_index_bytes,id_read_ms,id_read_buffers,id_read_rows,id_read_scan,created_at_read_ms,created_at_read_buffers,created_at_read_rows,created_at_read_scan,checkpoints" \
		>"$RESULTS_DIR/scale-final.csv"
	printf '%s\n%s\n' "$RUN_ID, $(awk '/^MemTotal/ { printf "%.1f", $2 / 1048576 }' /proc/meminfo) GiB RAM" \
		"shared_buffers $SCALE_SB, max_wal_size $SCALE_MAX_WAL, checkpoint_timeout $SCALE_CKPT_TIMEOUT, fsync on; $SCALE_BATCH-row INSERTs" \
		>"$RESULTS_DIR/scale.run"
	i=0
	for k in "${keys[@]}"; do
		i=$((i + 1))
		started=$SECONDS
		out=$({
			echo "DROP TABLE IF EXISTS t;"
			# autovacuum off: its insert-triggered runs would land at a different moment for each key
			echo "CREATE TABLE t (id ${SCALE_DEF[$k]}, created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
				payload int NOT NULL) WITH (autovacuum_enabled = off);"
			echo "CHECKPOINT;"
			scale_snapshot_sql
		} | uid_psql "$d" -d postgres -At -F ' ' -f -)
		out=$(scale_snapshot "$out")
		read -r t0 lsn0 fpi0 idx <<<"$out"
		rows=0 wins="" ckpt=$(grep -c 'checkpoint starting' "$d/server.log" || true)
		while [ "$rows" -lt "$SCALE_TARGET" ] || [ "$idx" -lt $((SCALE_X * sb)) ]; do
			out=$(scale_window "$d" "$SCALE_WINDOW")
			read -r t1 lsn1 fpi1 idx <<<"$out"
			rows=$((rows + SCALE_WINDOW))
			rate=$(calc "$SCALE_WINDOW / ($t1 - $t0)" 0)
			wal=$(calc "($lsn1 - $lsn0) / $SCALE_WINDOW" 1)
			fpi=$(calc "($fpi1 - $fpi0) / $SCALE_WINDOW" 4)
			echo "$k,\"${SCALE_LABEL[$k]}\",$rows,$rate,$wal,$fpi,$idx,$(calc "$t1 - $t0" 6),$((lsn1 - lsn0)),$((fpi1 - fpi0))" \
				>>"$RESULTS_DIR/scale.csv"
			wins+="$rows $(calc "$t1 - $t0" 6) $((lsn1 - lsn0)) $((fpi1 - fpi0)) $idx;"
			t0=$t1 lsn0=$lsn1 fpi0=$fpi1
			if [ $((rows % (10 * SCALE_WINDOW))) -eq 0 ]; then
				uid_log "  [$i/${#keys[@]}] ${SCALE_LABEL[$k]}: $rows rows, index $((idx / 1048576)) MB; last window $rate rows/s, $wal WAL B/row, $fpi FPI/row"
			fi
		done
		[ "$SCALE_TARGET" -gt 0 ] || SCALE_TARGET=$rows
		SCALE_WINS[$k]=$wins
		SCALE_CKPT[$k]=$(($(grep -c 'checkpoint starting' "$d/server.log" || true) - ckpt))
		scale_finish "$d" "$k" "$rows"
		uid_log "  [$i/${#keys[@]}] ${SCALE_LABEL[$k]}: $rows rows in $((SECONDS - started)) s"
	done
	uid_log "(s) checkpoints during the section: $(grep -c 'checkpoint complete' "$d/server.log" || true)"
	scale_report
	uid_cluster_stop "$d"
	rm -rf "$d"
	trap 'uid_cluster_stop "$D" || true; rm -rf "$D"' EXIT
}

# scale_at KEY: the key's figures at the largest size, over its windows
# whose rows end in the last tenth of SCALE_TARGET: "rows/s WAL_bytes/row
# FPI/row index_bytes_at_SCALE_TARGET windows"
scale_at() {
	awk -v w="${SCALE_WINS[$1]}" -v target="$SCALE_TARGET" -v size="$SCALE_WINDOW" 'BEGIN {
		n = split(w, x, ";"); from = target - int(target / size / 10) * size
		for (i = 1; i <= n; i++) {
			if (split(x[i], f, " ") < 5 || f[1] <= from || f[1] > target) continue
			m++; secs += f[2]; wal += f[3]; fpi += f[4]
			if (f[1] == target) idx = f[5]
		}
		if (!m || !secs || !idx) exit 1
		printf "%d %.1f %.4f %d %d\n", m * size / secs, wal / (m * size), fpi / (m * size), idx, m
	}'
}

# scale_finish DIR KEY ROWS: sizes, leaf density and the range reads, after
# the load; then the table is dropped.
scale_finish() {
	local d=$1 k=$2 rows=$3 at tbl idx density cidx cond idr car out rate wal fpi
	at=$(scale_at "$k")
	out=$(uid_psql "$d" -d postgres -At -F ' ' -c "VACUUM ANALYZE t" -c \
		"SELECT pg_relation_size('t'), pg_relation_size('t_pkey'), avg_leaf_density FROM pgstatindex('t_pkey')")
	read -r tbl idx density <<<"$out"
	SCALE_DENSITY[$k]=$density
	cond=$(scale_key_range "$k" t1 t2)
	cidx="" idr="- - - -" car="- - - -"
	if [ -n "$cond" ]; then
		uid_psql "$d" -d postgres -c "CREATE INDEX t_created ON t (created_at)" -c "ANALYZE t" >/dev/null
		cidx=$(uid_psql "$d" -d postgres -Atc "SELECT pg_relation_size('t_created')")
		# SCALE_READ whole seconds from the middle of the load (objectid and ksuid hold seconds)
		SCALE_T1=$(uid_psql "$d" -d postgres -Atc "SELECT date_trunc('second', min(created_at) + (max(created_at) - min(created_at)) / 2) FROM t")
		SCALE_T2=$(uid_psql "$d" -d postgres -Atc "SELECT timestamptz '$SCALE_T1' + interval '$SCALE_READ seconds'")
		idr=$(scale_read "$d" "$cond")
		car=$(scale_read "$d" "created_at >= :'t1' AND created_at < :'t2'")
		uid_log "    range read of $SCALE_READ s ($SCALE_T1): by id $idr; by created_at $car (ms, buffers, rows, scan);" \
			"created_at index $((cidx / 1048576)) MB"
	fi
	read -r rate wal fpi _ _ <<<"$at"
	echo "$k,\"${SCALE_LABEL[$k]}\",${SCALE_KIND[$k]:-uniqueid},$rows,$tbl,$idx,$(calc "$idx / $rows" 1),$density,$rate,$wal,$fpi,${cidx:--},${idr// /,},${car// /,},${SCALE_CKPT[$k]}" \
		>>"$RESULTS_DIR/scale-final.csv"
	uid_log "    at the largest size: $rate rows/s, $wal WAL B/row, $fpi FPI/row; ${SCALE_CKPT[$k]} checkpoints during the load;" \
		"table $((tbl / 1048576)) MB, index $((idx / 1048576)) MB, leaf density $density%"
	uid_psql "$d" -d postgres -c "DROP TABLE t" >/dev/null
}

# scale_ratio A B FIELD: A's figure at the largest size / B's (FIELD 1
# rows/s, 2 WAL bytes per row, 4 index bytes at SCALE_TARGET rows)
scale_ratio() {
	local a b
	a=$(scale_at "$1" | cut -d' ' -f"$3")
	b=$(scale_at "$2" | cut -d' ' -f"$3")
	calc "$a / $b" 2
}

scale_report() {
	local k rps wal fpi idx r_rate r_wal r_uuid r_idx
	for k in bigserial id5 snowflake sno objectid uuid7 ulid ksuid typeid peer_snow peer_uuidv7 core_uuidv7 gen_uuid bigserial_end; do
		[ -n "${SCALE_WINS[$k]:-}" ] || continue
		read -r rps wal fpi idx _ <<<"$(scale_at "$k")"
		r_idx=$(scale_ratio "$k" bigserial 4)
		row s "${SCALE_LABEL[$k]}" "$rps rows/s" \
			"$wal WAL B/row, $fpi FPI/row; index $((idx / 1048576)) MB (${r_idx}x bigserial), density ${SCALE_DENSITY[$k]}%" - -
		[ "$k" != bigserial ] || continue
		r_rate=$(scale_ratio "$k" bigserial 1)
		r_wal=$(scale_ratio "$k" bigserial 2)
		r_uuid=$(scale_ratio "$k" gen_uuid 1)
		if [ "$k" = bigserial_end ]; then
			row s "" "" "drift over the run: ${r_rate}x the first bigserial's rows/s, ${r_wal}x its WAL/row" - -
		elif [ "${SCALE_KIND[$k]:-uniqueid}" = uniqueid ]; then
			row s "" "" "${r_rate}x bigserial rows/s, ${r_wal}x its WAL/row" ">=0.9x, <=1.2x WAL" \
				"$(yesno "$r_rate >= 0.9 && $r_wal <= 1.2")"
			row s "" "" "${r_uuid}x gen_random_uuid rows/s" ">=3x" "$(yesno "$r_uuid >= 3")"
			case $k in id5 | snowflake)
				row s "" "" "8-byte key: index ${r_idx}x bigserial's" "<=1x" \
					"$(yesno "$(scale_at "$k" | cut -d' ' -f4) <= $(scale_at bigserial | cut -d' ' -f4)")" ;;
			esac
		elif [ "$k" != gen_uuid ]; then
			row s "" "" "${r_rate}x bigserial rows/s, ${r_wal}x its WAL/row, ${r_uuid}x gen_random_uuid" - -
		else
			row s "" "" "${r_rate}x bigserial rows/s, ${r_wal}x its WAL/row" - -
		fi
	done
}
