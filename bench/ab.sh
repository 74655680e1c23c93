#!/usr/bin/env bash
# bench/ab.sh - two builds of uniqueid side by side, in one run.
#
#   bash bench/ab.sh REV_A [REV_B]   git revision REV_A against REV_B (default:
#                                    the work tree as it is): before and after
#   bash bench/ab.sh --horizon       the work tree with the durable horizon's
#                                    per-call fast paths compiled out
#                                    (-DUID_BENCH_NO_HORIZON, src/horizon.h
#                                    and src/dbhorizon.h)
#                                    against the work tree as shipped
#
# Each build goes into a private copy of PostgreSQL. Three clusters: one on
# build "a", two on build "b" ("b" and "b2", an A/A pair that shows how far
# two identical set-ups differ). Each query runs REPS times on each cluster,
# interleaved, the order rotating from one round to the next; generate_series
# in the select list streams its rows (in FROM it would first store them,
# spilling to a temporary file). This machine's speed drifts by up to 2x over
# seconds, so the verdict rests on ratios of runs made back to back in the
# same round: it prints the fastest time of each, and the median and
# quartiles of the per-round ratios b/a (the difference) and b2/b (the
# noise). Last, the instructions per call of each build, counted by
# callgrind, which do not drift.
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh
uid_install_packages valgrind
if [ "${1:-}" = --horizon ]; then
	A_REV="" A_FLAGS="-DUID_BENCH_NO_HORIZON" A_NAME="horizon off"
	B_REV="" B_NAME="as shipped"
elif [ -n "${1:-}" ]; then
	A_REV=$(git rev-parse --short "$1") A_FLAGS="" A_NAME="$A_REV"
	B_REV=${2:+$(git rev-parse --short "$2")} B_NAME=${2:+$(git rev-parse --short "$2")}
	B_NAME=${B_NAME:-work tree}
else
	echo "usage: bash bench/ab.sh REV_A [REV_B] | --horizon" >&2
	exit 2
fi
REPS=${BENCH_REPS:-21}
N=${BENCH_N_GEN:-1000000}
NCG=${BENCH_N_CALLGRIND:-100000}
W=$(mktemp -d /tmp/uniqueid-ab.XXXXXX)
chmod 755 "$W"
configs=(a b b2)
declare -A DIR BIN
cleanup() {
	for k in "${configs[@]}"; do
		[ -n "${DIR[$k]:-}" ] && UID_PGBIN=${BIN[$k]} uid_cluster_stop "${DIR[$k]}"
		rm -rf "${DIR[$k]:-}"
	done
	rm -rf "$W"
}
trap cleanup EXIT
# build V REV FLAGS: builds REV (the work tree if empty) with FLAGS into pg-V
# (PG_CPPFLAGS replaces the Makefile's: libpq's headers named again)
build() {
	local v=$1 rev=$2 flags=$3 src=$W/src-$1
	mkdir -p "$W/pg-$v/lib/postgresql" "$W/pg-$v/share/postgresql" "$W/pg-$v/include" "$src"
	cp -a "/usr/lib/postgresql/$UID_PGVER" "$W/pg-$v/lib/postgresql/"
	cp -a "/usr/share/postgresql/$UID_PGVER" "$W/pg-$v/share/postgresql/"
	cp -a /usr/include/postgresql "$W/pg-$v/include/"
	if [ -n "$rev" ]; then
		git archive "$rev" | tar -C "$src" -xf -
	else
		tar --exclude=.git --exclude='*.o' --exclude='*.so' --exclude='*.bc' -cf - . | tar -C "$src" -xf -
	fi
	make -C "$src" -s PG_CONFIG="$W/pg-$v/lib/postgresql/$UID_PGVER/bin/pg_config" \
		PG_CPPFLAGS="-I./src -I$W/pg-$v/include/postgresql $flags" install >/dev/null 2>&1 ||
		{ uid_log "could not build ${rev:-the work tree} (make -C $src)"; exit 1; }
}
build a "$A_REV" "$A_FLAGS"
build b "$B_REV" ""
for k in "${configs[@]}"; do
	BIN[$k]=$W/pg-${k%2}/lib/postgresql/$UID_PGVER/bin
	DIR[$k]=$(uid_tmpdir)
	# fsync on: the horizon's flushes cost what they would in production
	UID_PGBIN=${BIN[$k]} uid_cluster_init "${DIR[$k]}" "fsync = on"
	UID_PGBIN=${BIN[$k]} uid_cluster_start "${DIR[$k]}"
	UID_PGBIN=${BIN[$k]} uid_psql "${DIR[$k]}" -d postgres -c "CREATE EXTENSION uniqueid"
done
# (one shard, next_id(5), is capacity-bound: its time depends on the lead, not on the call)
queries=("next_id(i % 8192)" "next_sno()" "next_snowflake()" "next_objectid()" "next_uuid7()")
# BENCH_QUERIES, queries separated by ";", replaces them (the other generators, say)
[ -z "${BENCH_QUERIES:-}" ] || IFS=';' read -r -a queries <<<"$BENCH_QUERIES"
declare -A T R
for ((r = 0; r < REPS; r++)); do
	for q in "${queries[@]}"; do
		declare -A ms=()
		for ((j = 0; j < 3; j++)); do
			k=${configs[$(((r + j) % 3))]}
			ms[$k]=$(printf '%s\n' '\timing on' "SELECT count($q) FROM (SELECT generate_series(1, $N) AS i) AS s;" |
				UID_PGBIN=${BIN[$k]} uid_psql "${DIR[$k]}" -d postgres | awk '/^Time:/ { print $2 }')
			T[$k|$q]="${T[$k|$q]:-} ${ms[$k]}"
		done
		R[b/a|$q]="${R[b/a|$q]:-} $(awk -v x="${ms[b]}" -v y="${ms[a]}" 'BEGIN { print x / y }')"
		R[b2/b|$q]="${R[b2/b|$q]:-} $(awk -v x="${ms[b2]}" -v y="${ms[b]}" 'BEGIN { print x / y }')"
	done
done
# quantile P (0..1) of the numbers on stdin, by linear interpolation
quantile() { tr ' ' '\n' | grep . | sort -g | awk -v p="$1" '{ v[NR] = $1 } END { x = 1 + p * (NR - 1); i = int(x); printf "%.3f", v[i] + (x - i) * (v[i + 1] - v[i]) }'; }
printf 'time of the fastest of %d runs of %d calls, ms\n' "$REPS" "$N"
printf 'a: %s; b, b2: %s, on two clusters\n' "$A_NAME" "$B_NAME"
printf '%-20s %9s %9s %9s\n' query a b b2
for q in "${queries[@]}"; do
	printf '%-20s %9.1f %9.1f %9.1f\n' "$q" "$(quantile 0 <<<"${T[a|$q]}")" \
		"$(quantile 0 <<<"${T[b|$q]}")" "$(quantile 0 <<<"${T[b2|$q]}")"
done
printf '\nratios of back-to-back runs: median [quartiles] of %d rounds\n' "$REPS"
printf '%-20s %-26s %-26s\n' query "b/a (the difference)" "b2/b (noise)"
for q in "${queries[@]}"; do
	line=$(printf '%-20s' "$q")
	for p in b/a b2/b; do
		line+=$(printf ' %-26s' "$(quantile 0.5 <<<"${R[$p|$q]}") [$(quantile 0.25 <<<"${R[$p|$q]}"), $(quantile 0.75 <<<"${R[$p|$q]}")]")
	done
	printf '%s\n' "$line"
done

# Instructions do not drift with the machine: count them with callgrind, in a
# single-user backend on each build's stopped cluster.  The backend's start
# (shared memory, the library) counts too, and differs between builds: each
# query runs with NCG and with 2 x NCG calls, and the difference of the two
# counts, divided by NCG, is what one call costs, start left out.
for k in a b; do UID_PGBIN=${BIN[$k]} uid_cluster_stop "${DIR[$k]}"; done
# callgrind_ir BUILD CALLS QUERY: the instructions of a single-user backend running QUERY over CALLS rows
callgrind_ir() {
	echo "SELECT count($3) FROM (SELECT generate_series(1, $2) AS i) AS s;" >"$W/q.sql"
	uid_as_owner valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		"${BIN[$1]}/postgres" --single -D "${DIR[$1]}/data" postgres <"$W/q.sql" >/dev/null 2>"$W/vg.log"
	awk '/Collected :/ { print $NF }' "$W/vg.log"
}
printf '\ninstructions per call (callgrind: %d calls against %d, the backend'"'"'s start left out)\n' "$((2 * NCG))" "$NCG"
printf '%-20s %9s %9s %8s\n' query a b b-a
for q in "${queries[@]}"; do
	declare -A ir=()
	for k in a b; do
		ir[$k]=$(($(callgrind_ir "$k" "$((2 * NCG))" "$q") - $(callgrind_ir "$k" "$NCG" "$q")))
	done
	printf '%-20s %9.1f %9.1f %8.1f\n' "$q" "$(awk -v x="${ir[a]}" -v n="$NCG" 'BEGIN { print x / n }')" \
		"$(awk -v x="${ir[b]}" -v n="$NCG" 'BEGIN { print x / n }')" \
		"$(awk -v x="${ir[b]}" -v y="${ir[a]}" -v n="$NCG" 'BEGIN { print (x - y) / n }')"
done
