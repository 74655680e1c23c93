# shellcheck shell=bash
# bench/scale.sh - section (s) of bench/run.sh: every key as the primary key
# of a table that grows to ten times shared_buffers of index. Sourced by
# bench/run.sh after test/lib.sh and bench/peers.sh; scale_section runs it.
#
# One cluster of its own, one run for all keys, one key after another: a
# table (id KEY PRIMARY KEY, created_at timestamptz, payload int) per key,
# the key's generator as the column's DEFAULT, loaded by one client with
# INSERT ... SELECT of BATCH rows per transaction. Every WINDOW rows the
# loading session flushes its statistics and reads the clock, the WAL
# position and pg_stat_wal's full-page images, and the index's size; so each
# window gives rows/s, WAL bytes and full-page images per row. bigserial goes
# first and loads until its primary key index holds X times shared_buffers;
# every other key then loads the same number of rows (and more, if its index
# were still smaller than that), so that all are compared at the same sizes.
# After the load: table and index sizes, pgstatindex's leaf density, and a
# time-range read through the primary key against the same range through an
# index on created_at, built then. The table is dropped before the next key.

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
)
declare -A SCALE_LABEL=(
	[bigserial]="bigserial" [id5]="shardid next_id(5)" [snowflake]="snowflake next_snowflake()"
	[sno]="sno next_sno()" [objectid]="objectid next_objectid()" [uuid7]="uuid next_uuid7()"
	[ulid]="ulid next_ulid()" [ksuid]="ksuid next_ksuid()" [typeid]="typeid next_typeid('user')"
	[peer_snow]="bigint snowflake.nextval() (pgEdge)" [peer_uuidv7]="uuid uuid_generate_v7() (pg_uuidv7)"
	[core_uuidv7]="uuid uuidv7() (core)" [gen_uuid]="uuid gen_random_uuid()"
)
declare -A SCALE_KIND=([bigserial]=core [gen_uuid]=core [core_uuidv7]=core [peer_snow]=peer [peer_uuidv7]=peer)
scale_key_range() {
	case $1 in
	id5 | snowflake | sno | objectid | ulid | ksuid) echo "id >= :'$2'::timestamptz AND id < :'$3'::timestamptz" ;;
	uuid7 | peer_uuidv7 | core_uuidv7) echo "id >= uuid7_floor(:'$2') AND id < uuid7_floor(:'$3')" ;;
	typeid) echo "id >= make_typeid('user', uuid7_floor(:'$2')) AND id < make_typeid('user', uuid7_floor(:'$3'))" ;;
	esac
}

# scale_window DIR ROWS: one session inserts ROWS rows into t in batches,
# then flushes its statistics and prints: epoch seconds, WAL position in
# bytes, pg_stat_wal's full-page images, and the primary key's size.
scale_window() {
	local dir=$1 rows=$2 n
	{
		for ((n = 0; n < rows; n += SCALE_BATCH)); do
			echo "INSERT INTO t (payload) SELECT i FROM generate_series(1, $((rows - n < SCALE_BATCH ? rows - n : SCALE_BATCH))) AS i;"
		done
		echo "SELECT pg_stat_force_next_flush();"
		scale_snapshot_sql
	} | uid_psql "$dir" -d postgres -At -F ' ' -f - | tail -n 1
}
scale_snapshot_sql() {
	echo "SELECT extract(epoch FROM clock_timestamp()), pg_current_wal_lsn() - '0/0'::pg_lsn, wal_fpi,
		pg_relation_size('t_pkey') FROM pg_stat_wal;"
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
		if [ -z "$best" ] || holds "$t < $best"; then best=$t; fi
	done
	printf '%s %s %s %s\n' "$best" \
		"$(grep -m1 -o 'Buffers: shared.*' <<<"$out" | grep -oE '(hit|read)=[0-9]+' | awk -F= '{ s += $2 } END { print s + 0 }')" \
		"$(grep -m1 -E 'Scan .*actual rows=' <<<"$out" | sed -E 's/.*actual rows=([0-9]+).*/\1/')" \
		"$(grep -m1 -oE '(Index Only Scan|Index Scan|Bitmap Heap Scan|Seq Scan)' <<<"$out" | tr ' ' '_')"
}

scale_section() {
	local d keys=(bigserial id5 snowflake sno objectid uuid7 ulid ksuid typeid) k i rows target sb
	local t0 lsn0 fpi0 t1 lsn1 fpi1 idx wins rate wal fpi started ckpt
	[ -z "$PEER_SNOWFLAKE" ] || keys+=(peer_snow)
	[ -z "$PEER_UUIDV7" ] || keys+=(peer_uuidv7)
	[ "$PGNUM" -lt 180000 ] || keys+=(core_uuidv7)
	keys+=(gen_uuid)
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
		-- doc/uuid7.md: the smallest version 7 UUID whose time is at or after t
		CREATE FUNCTION uuid7_floor(t timestamptz) RETURNS uuid
		    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
		    RETURN (lpad(to_hex(ceil(extract(epoch FROM t) * 1000)::bigint), 12, '0')
		            || '70008000000000000000')::uuid;
	SQL
	[ -z "$PEER_SNOWFLAKE" ] || uid_psql "$d" -d postgres -c "CREATE EXTENSION snowflake"
	[ -z "$PEER_UUIDV7" ] || uid_psql "$d" -d postgres -c "CREATE EXTENSION pg_uuidv7"
	sb=$(uid_psql "$d" -d postgres -Atc "SELECT pg_size_bytes(current_setting('shared_buffers'))")
	target=0
	uid_log "(s) scale: ${#keys[@]} keys, each loaded in windows of $SCALE_WINDOW rows until its primary key" \
		"holds ${SCALE_X}x shared_buffers ($SCALE_SB) of index, and at least as many rows as bigserial needed"
	echo "key,label,rows,rows_per_s,wal_bytes_per_row,fpi_per_row,index_bytes" >"$RESULTS_DIR/scale.csv"
	echo "key,label,kind,rows,table_bytes,index_bytes,index_bytes_per_row,leaf_density,rows_per_s,wal_bytes_per_row,fpi_per_row,created_at_index_bytes,id_read_ms,id_read_buffers,id_read_rows,id_read_scan,created_at_read_ms,created_at_read_buffers,created_at_read_rows,created_at_read_scan,checkpoints" \
		>"$RESULTS_DIR/scale-final.csv"
	printf '%s\n%s\n' "$RUN_ID" "shared_buffers $SCALE_SB, max_wal_size $SCALE_MAX_WAL, checkpoint_timeout $SCALE_CKPT_TIMEOUT, fsync on, full_page_writes on; one client, $SCALE_BATCH rows per INSERT" >"$RESULTS_DIR/scale.run"
	i=0
	for k in "${keys[@]}"; do
		i=$((i + 1))
		started=$SECONDS
		uid_psql "$d" -d postgres <<-SQL
			DROP TABLE IF EXISTS t;
			-- autovacuum off: its insert-triggered runs would land at a different moment for each key
			CREATE TABLE t (id ${SCALE_DEF[$k]}, created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
			                payload int NOT NULL) WITH (autovacuum_enabled = off);
			CHECKPOINT;
		SQL
		read -r t0 lsn0 fpi0 idx <<<"$(scale_snapshot_sql | uid_psql "$d" -d postgres -At -F ' ' -f -)"
		rows=0 wins="" ckpt=$(grep -c 'checkpoint starting' "$d/server.log" || true)
		while [ "$rows" -lt "$target" ] || [ "$idx" -lt $((SCALE_X * sb)) ]; do
			read -r t1 lsn1 fpi1 idx <<<"$(scale_window "$d" "$SCALE_WINDOW")"
			rows=$((rows + SCALE_WINDOW))
			rate=$(calc "$SCALE_WINDOW / ($t1 - $t0)" 0)
			wal=$(calc "($lsn1 - $lsn0) / $SCALE_WINDOW" 1)
			fpi=$(calc "($fpi1 - $fpi0) / $SCALE_WINDOW" 4)
			echo "$k,\"${SCALE_LABEL[$k]}\",$rows,$rate,$wal,$fpi,$idx" >>"$RESULTS_DIR/scale.csv"
			wins+="$rate $wal $fpi;"
			t0=$t1 lsn0=$lsn1 fpi0=$fpi1
			if [ $((rows % (10 * SCALE_WINDOW))) -eq 0 ]; then
				uid_log "  [$i/${#keys[@]}] ${SCALE_LABEL[$k]}: $rows rows, index $((idx / 1048576)) MB; last window $rate rows/s, $wal WAL B/row, $fpi FPI/row"
			fi
		done
		[ "$target" -gt 0 ] || target=$rows
		SCALE_CKPT[$k]=$(($(grep -c 'checkpoint starting' "$d/server.log" || true) - ckpt))
		scale_finish "$d" "$k" "$rows" "$wins" || { uid_log "(s) the figures of ${SCALE_LABEL[$k]} failed"; return 1; }
		uid_log "  [$i/${#keys[@]}] ${SCALE_LABEL[$k]}: $rows rows in $((SECONDS - started)) s"
	done
	uid_log "(s) checkpoints during the section: $(grep -c 'checkpoint complete' "$d/server.log")"
	scale_report
	uid_cluster_stop "$d"
	rm -rf "$d"
	trap 'uid_cluster_stop "$D" || true; rm -rf "$D"' EXIT
}

# scale_finish DIR KEY ROWS WINDOWS: the figures after the load: the last
# tenth of the windows (rows/s, WAL and full-page images per row, each the
# median over those windows), sizes, leaf density, and the range reads.
scale_finish() {
	local d=$1 k=$2 rows=$3 wins=$4 last tbl idx density cidx cond idr car mid
	last=$(awk -v RS=';' 'NF { n++; r[n] = $1; w[n] = $2; f[n] = $3 }
		function med(a, from, to,   i, j, m, t, x) {
			m = 0; for (i = from; i <= to; i++) x[++m] = a[i]
			for (i = 2; i <= m; i++) for (j = i; j > 1 && x[j - 1] > x[j]; j--) { t = x[j]; x[j] = x[j - 1]; x[j - 1] = t }
			return m % 2 ? x[(m + 1) / 2] : (x[m / 2] + x[m / 2 + 1]) / 2 }
		END { from = n - int(n / 10) + 1; if (from > n) from = n
			printf "%d %.1f %.4f", med(r, from, n), med(w, from, n), med(f, from, n) }' <<<"$wins")
	SCALE_WINS[$k]=$wins
	uid_psql "$d" -d postgres -c "VACUUM ANALYZE t" >/dev/null
	read -r tbl idx density <<<"$(uid_psql "$d" -d postgres -At -F ' ' -c \
		"SELECT pg_relation_size('t'), pg_relation_size('t_pkey'), avg_leaf_density FROM pgstatindex('t_pkey')")"
	cond=$(scale_key_range "$k" t1 t2)
	cidx="" idr="- - - -" car="- - - -"
	if [ -n "$cond" ]; then
		uid_psql "$d" -d postgres -c "CREATE INDEX t_created ON t (created_at)" -c "ANALYZE t" >/dev/null
		cidx=$(uid_psql "$d" -d postgres -Atc "SELECT pg_relation_size('t_created')")
		# SCALE_READ whole seconds from the middle of the load (objectid and ksuid hold seconds)
		mid=$(uid_psql "$d" -d postgres -Atc "SELECT date_trunc('second', min(created_at) + (max(created_at) - min(created_at)) / 2) FROM t")
		SCALE_T1=$mid
		SCALE_T2=$(uid_psql "$d" -d postgres -Atc "SELECT timestamptz '$mid' + interval '$SCALE_READ seconds'")
		idr=$(scale_read "$d" "$cond") || return 1
		car=$(scale_read "$d" "created_at >= :'t1' AND created_at < :'t2'") || return 1
		uid_log "    range read of $SCALE_READ s ($SCALE_T1): by id $idr; by created_at $car (ms, buffers, rows, scan)"
	fi
	echo "$k,\"${SCALE_LABEL[$k]}\",${SCALE_KIND[$k]:-uniqueid},$rows,$tbl,$idx,$(calc "$idx / $rows" 1),$density,${last// /,},${cidx:--},${idr// /,},${car// /,},${SCALE_CKPT[$k]}" \
		>>"$RESULTS_DIR/scale-final.csv"
	SCALE_LAST[$k]=$last SCALE_IDX[$k]=$idx
	uid_log "    last tenth: $last (rows/s, WAL B/row, FPI/row); ${SCALE_CKPT[$k]} checkpoints during the load; table $((tbl / 1048576)) MB, index $((idx / 1048576)) MB, leaf density $density%"
	uid_psql "$d" -d postgres -c "DROP TABLE t" >/dev/null
}
declare -A SCALE_WINS SCALE_LAST SCALE_IDX SCALE_CKPT

# scale_pair A B FIELD: median over the last tenth of the windows of A's
# figure / B's, window by window (FIELD 1 rows/s, 2 WAL bytes per row)
scale_pair() {
	awk -v a="${SCALE_WINS[$1]}" -v b="${SCALE_WINS[$2]}" -v f="$3" 'BEGIN {
		n = split(a, x, ";"); split(b, y, ";"); n--
		from = n - int(n / 10) + 1; if (from > n) from = n
		for (i = from; i <= n; i++) { split(x[i], p, " "); split(y[i], q, " "); r[++m] = p[f] / q[f] }
		for (i = 2; i <= m; i++) for (j = i; j > 1 && r[j - 1] > r[j]; j--) { t = r[j]; r[j] = r[j - 1]; r[j - 1] = t }
		printf "%.2f", m % 2 ? r[(m + 1) / 2] : (r[m / 2] + r[m / 2 + 1]) / 2 }'
}

scale_report() {
	local k rps wal fpi r_rate r_wal r_uuid r_idx target met
	for k in bigserial id5 snowflake sno objectid uuid7 ulid ksuid typeid peer_snow peer_uuidv7 core_uuidv7 gen_uuid; do
		[ -n "${SCALE_LAST[$k]:-}" ] || continue
		read -r rps wal fpi <<<"${SCALE_LAST[$k]}"
		r_idx=$(calc "${SCALE_IDX[$k]} / ${SCALE_IDX[bigserial]}" 2)
		row s "${SCALE_LABEL[$k]}" "$rps rows/s" \
			"$wal WAL B/row, $fpi FPI/row; index $((SCALE_IDX[$k] / 1048576)) MB (${r_idx}x bigserial)" - -
		[ "$k" != bigserial ] || continue
		r_rate=$(scale_pair "$k" bigserial 1)
		r_wal=$(scale_pair "$k" bigserial 2)
		r_uuid=$(scale_pair "$k" gen_uuid 1)
		if [ "${SCALE_KIND[$k]:-uniqueid}" = uniqueid ]; then
			target=">=0.9x, <=1.2x WAL" met=$(yesno "$r_rate >= 0.9 && $r_wal <= 1.2")
			row s "" "" "paired: ${r_rate}x bigserial rows/s, ${r_wal}x its WAL/row" "$target" "$met"
			row s "" "" "paired: ${r_uuid}x gen_random_uuid rows/s" ">=3x" "$(yesno "$r_uuid >= 3")"
			case $k in id5 | snowflake)
				row s "" "" "8-byte key: index ${r_idx}x bigserial's" "<=1x" "$(yesno "${SCALE_IDX[$k]} <= ${SCALE_IDX[bigserial]}")" ;;
			esac
		elif [ "$k" != gen_uuid ]; then
			row s "" "" "paired: ${r_rate}x bigserial rows/s, ${r_wal}x its WAL/row, ${r_uuid}x gen_random_uuid" - -
		else
			row s "" "" "paired: ${r_rate}x bigserial rows/s, ${r_wal}x its WAL/row" - -
		fi
	done
}
