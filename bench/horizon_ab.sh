#!/usr/bin/env bash
# bench/horizon_ab.sh - does the durable horizon cost generation throughput?
#
# Builds the current tree twice into two private copies of PostgreSQL: "on",
# as shipped, and "off", with -DUID_BENCH_NO_HORIZON, which compiles the
# horizon's per-call fast paths out (src/uniqueid.h), so the two builds differ
# in the horizon alone. Three clusters: one on "off", two on "on" ("on" and
# "on2", an A/A pair that shows how far two identical set-ups differ). Each
# query runs REPS times on each cluster, interleaved, the order rotating from
# one round to the next; generate_series in the select list streams its rows
# (in FROM it would first store them, spilling to a temporary file). This
# machine's speed drifts by up to 2x over seconds, so the verdict rests on
# ratios of runs made back to back in the same round: it prints the fastest
# time of each, and the median and quartiles of the per-round ratios on/off
# (the horizon's cost) and on2/on (the noise). Last, the instructions per
# call of each build, counted by callgrind, which do not drift.
#   bash bench/horizon_ab.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh
uid_install_packages valgrind
REPS=${BENCH_REPS:-21}
N=${BENCH_N_GEN:-1000000}
NCG=${BENCH_N_CALLGRIND:-100000}
W=$(mktemp -d /tmp/uniqueid-ab.XXXXXX)
chmod 755 "$W"
configs=(off on on2)
declare -A DIR BIN
cleanup() {
	for k in "${configs[@]}"; do
		[ -n "${DIR[$k]:-}" ] && UID_PGBIN=${BIN[$k]} uid_cluster_stop "${DIR[$k]}"
		rm -rf "${DIR[$k]:-}"
	done
	rm -rf "$W"
}
trap cleanup EXIT
for b in off on; do
	mkdir -p "$W/pg-$b/lib/postgresql" "$W/pg-$b/share/postgresql" "$W/pg-$b/include"
	cp -a "/usr/lib/postgresql/$UID_PGVER" "$W/pg-$b/lib/postgresql/"
	cp -a "/usr/share/postgresql/$UID_PGVER" "$W/pg-$b/share/postgresql/"
	cp -a /usr/include/postgresql "$W/pg-$b/include/"
	extra=$([ $b = off ] && echo "-DUID_BENCH_NO_HORIZON" || true)
	make -s clean >/dev/null
	make -s PG_CONFIG="$W/pg-$b/lib/postgresql/$UID_PGVER/bin/pg_config" \
		PG_CPPFLAGS="-I./src $extra" install >/dev/null 2>&1
done
make -s clean >/dev/null
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
		R[on/off|$q]="${R[on/off|$q]:-} $(awk -v a="${ms[on]}" -v b="${ms[off]}" 'BEGIN { print a / b }')"
		R[on2/on|$q]="${R[on2/on|$q]:-} $(awk -v a="${ms[on2]}" -v b="${ms[on]}" 'BEGIN { print a / b }')"
	done
done
# quantile P (0..1) of the numbers on stdin, by linear interpolation
quantile() { tr ' ' '\n' | grep . | sort -g | awk -v p="$1" '{ v[NR] = $1 } END { x = 1 + p * (NR - 1); i = int(x); printf "%.3f", v[i] + (x - i) * (v[i + 1] - v[i]) }'; }
printf 'time of the fastest of %d runs of %d calls, ms\n' "$REPS" "$N"
printf '%-20s %9s %9s %9s\n' query off on on2
for q in "${queries[@]}"; do
	printf '%-20s %9.1f %9.1f %9.1f\n' "$q" "$(quantile 0 <<<"${T[off|$q]}")" \
		"$(quantile 0 <<<"${T[on|$q]}")" "$(quantile 0 <<<"${T[on2|$q]}")"
done
printf '\nratios of back-to-back runs: median [quartiles] of %d rounds\n' "$REPS"
printf '%-20s %-26s %-26s\n' query "on/off (the horizon)" "on2/on (noise)"
for q in "${queries[@]}"; do
	line=$(printf '%-20s' "$q")
	for p in on/off on2/on; do
		line+=$(printf ' %-26s' "$(quantile 0.5 <<<"${R[$p|$q]}") [$(quantile 0.25 <<<"${R[$p|$q]}"), $(quantile 0.75 <<<"${R[$p|$q]}")]")
	done
	printf '%s\n' "$line"
done
echo
echo "off: the horizon compiled out; on, on2: as shipped, on two clusters. As shipped,"
echo "a generator renews its horizon's lease (one record and state file) per 0.75 s of generated time."

# Instructions do not drift with the machine: count them with callgrind, in a
# single-user backend on each build's stopped cluster.
for k in off on; do UID_PGBIN=${BIN[$k]} uid_cluster_stop "${DIR[$k]}"; done
printf '\ninstructions per call (callgrind, %d calls, whole query)\n' "$NCG"
printf '%-20s %9s %9s %8s\n' query off on on-off
for q in "${queries[@]}"; do
	echo "SELECT count($q) FROM (SELECT generate_series(1, $NCG) AS i) AS s;" >"$W/q.sql"
	declare -A ir=()
	for k in off on; do
		uid_as_owner valgrind --tool=callgrind --callgrind-out-file=/dev/null \
			"${BIN[$k]}/postgres" --single -D "${DIR[$k]}/data" postgres <"$W/q.sql" >/dev/null 2>"$W/vg.log"
		ir[$k]=$(awk '/Collected :/ { print $NF }' "$W/vg.log")
	done
	printf '%-20s %9.1f %9.1f %8.1f\n' "$q" "$(awk -v a="${ir[off]}" -v n="$NCG" 'BEGIN { print a / n }')" \
		"$(awk -v a="${ir[on]}" -v n="$NCG" 'BEGIN { print a / n }')" \
		"$(awk -v a="${ir[on]}" -v b="${ir[off]}" -v n="$NCG" 'BEGIN { print (a - b) / n }')"
done
