# bench/peers.sh - the peer extensions the benchmark measures uniqueid
# against, where Debian's archive does not carry them: pgEdge snowflake
# (snowflake.nextval(), needs snowflake.node) and pg_uuidv7
# (uuid_generate_v7()).  Sourced by bench/run.sh after test/lib.sh.
#
# bench_peers_install DIR: builds and installs each peer found in DIR, as a
# release archive (pgedge-snowflake-*.tar.gz, pg_uuidv7-*.tar.gz) or a source
# directory (snowflake-*/, pg_uuidv7-*/), for the server of UID_PGBIN; sets
# PEER_SNOWFLAKE and PEER_UUIDV7 to the version installed, or leaves them
# empty and says why.
PEER_SNOWFLAKE=""
PEER_UUIDV7=""

# bench_peer_source DIR ARCHIVE_GLOB DIR_GLOB SCRATCH: prints a source
# directory for the peer (an archive is unpacked into SCRATCH), or nothing.
bench_peer_source() {
	local dir=$1 archive=$2 srcdir=$3 scratch=$4 a d
	for d in "$dir"/$srcdir; do
		[ -f "$d/Makefile" ] && { printf '%s\n' "$d"; return 0; }
	done
	for a in "$dir"/$archive; do
		[ -f "$a" ] || continue
		mkdir -p "$scratch" && tar -C "$scratch" -xzf "$a" || return 1
		for d in "$scratch"/*/; do
			[ -f "$d/Makefile" ] && { printf '%s\n' "${d%/}"; return 0; }
		done
	done
	return 1
}

# bench_peer_build NAME SRC: make && make install with PGXS; prints the
# version from the control file.
bench_peer_build() {
	local name=$1 src=$2 log
	log=$(mktemp)
	if make -C "$src" USE_PGXS=1 PG_CONFIG="$UID_PGBIN/pg_config" >"$log" 2>&1 &&
		make -C "$src" USE_PGXS=1 PG_CONFIG="$UID_PGBIN/pg_config" install >>"$log" 2>&1; then
		rm -f "$log"
		sed -n "s/^default_version *= *'\(.*\)'/\1/p" "$src"/*.control | head -n 1
		return 0
	fi
	tail -n 20 "$log" >&2
	rm -f "$log"
	uid_log "$name did not build"
	return 1
}

bench_peers_install() {
	local dir=$1 scratch src
	scratch=$(mktemp -d)
	if [ ! -d "$dir" ]; then
		uid_log "no peer sources in $dir: pgEdge snowflake and pg_uuidv7 are left out (--peers DIR)"
	else
		if src=$(bench_peer_source "$dir" 'pgedge-snowflake-*.tar.gz' 'snowflake-*' "$scratch/snowflake"); then
			uid_log "building pgEdge snowflake from $src"
			PEER_SNOWFLAKE=$(bench_peer_build "pgEdge snowflake" "$src") || PEER_SNOWFLAKE=""
		else
			uid_log "no pgEdge snowflake source in $dir: its rows are left out"
		fi
		if src=$(bench_peer_source "$dir" 'pg_uuidv7-*.tar.gz' 'pg_uuidv7-*' "$scratch/pg_uuidv7"); then
			uid_log "building pg_uuidv7 from $src"
			PEER_UUIDV7=$(bench_peer_build "pg_uuidv7" "$src") || PEER_UUIDV7=""
		else
			uid_log "no pg_uuidv7 source in $dir: its rows are left out"
		fi
	fi
	rm -rf "$scratch"
}
