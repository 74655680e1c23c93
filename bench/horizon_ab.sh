#!/usr/bin/env bash
# bench/horizon_ab.sh - does the durable horizon cost generation throughput?
# Builds the commit before the horizon (BASE, default 903d9a7) and the
# current tree into two private copies of PostgreSQL, starts one cluster on
# each, and times the same generation queries on both, alternating, best of
# REPS. Prints times and the ratio current/base.
#   bash bench/horizon_ab.sh [BASE]
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh
BASE=${1:-903d9a7}
REPS=${BENCH_REPS:-7}
N=${BENCH_N_GEN:-1000000}
W=$(mktemp -d /tmp/uniqueid-ab.XXXXXX)
chmod 755 "$W"
declare -A DIR
cleanup() {
	for k in base cur; do [ -n "${DIR[$k]:-}" ] && UID_PGBIN=$W/pg-$k/lib/postgresql/15/bin uid_cluster_stop "${DIR[$k]}"; done
	git worktree remove --force "$W/src-base" >/dev/null 2>&1 || true
	rm -rf "$W" "${DIR[base]:-}" "${DIR[cur]:-}"
}
trap cleanup EXIT
git worktree add -q --detach "$W/src-base" "$BASE"
for k in base cur; do
	mkdir -p "$W/pg-$k/lib/postgresql" "$W/pg-$k/share/postgresql" "$W/pg-$k/include"
	cp -a "/usr/lib/postgresql/$UID_PGVER" "$W/pg-$k/lib/postgresql/"
	cp -a "/usr/share/postgresql/$UID_PGVER" "$W/pg-$k/share/postgresql/"
	cp -a /usr/include/postgresql "$W/pg-$k/include/"
	src=$([ $k = base ] && echo "$W/src-base" || echo .)
	make -s -C "$src" PG_CONFIG="$W/pg-$k/lib/postgresql/15/bin/pg_config" clean >/dev/null
	make -s -C "$src" PG_CONFIG="$W/pg-$k/lib/postgresql/15/bin/pg_config" install >/dev/null 2>&1
	DIR[$k]=$(uid_tmpdir)
	UID_PGBIN=$W/pg-$k/lib/postgresql/15/bin uid_cluster_init "${DIR[$k]}"
	UID_PGBIN=$W/pg-$k/lib/postgresql/15/bin uid_cluster_start "${DIR[$k]}"
	UID_PGBIN=$W/pg-$k/lib/postgresql/15/bin uid_psql "${DIR[$k]}" -d postgres -c "CREATE EXTENSION uniqueid"
done
make -s clean >/dev/null
declare -A BEST
# (one shard, next_id(5), is capacity-bound: its time depends on the lead, not on the call)
queries=("next_id(i % 8192)" "next_sno()")
for ((r = 0; r < REPS; r++)); do
	for q in "${queries[@]}"; do
		for k in base cur; do
			ms=$(printf '%s\n' '\timing on' "SELECT count($q) FROM generate_series(1, $N) AS i;" |
				UID_PGBIN=$W/pg-$k/lib/postgresql/15/bin uid_psql "${DIR[$k]}" -d postgres | awk '/^Time:/ { print $2 }')
			key="$k|$q"
			if [ -z "${BEST[$key]:-}" ] || awk -v a="$ms" -v b="${BEST[$key]}" 'BEGIN { exit !(a < b) }'; then BEST[$key]=$ms; fi
		done
	done
done
printf '%-22s %14s %14s %8s\n' "query ($N calls)" "base $BASE ms" "current ms" "ratio"
for q in "${queries[@]}"; do
	printf '%-22s %14s %14s %8s\n' "$q" "${BEST[base|$q]}" "${BEST[cur|$q]}" \
		"$(awk -v a="${BEST[cur|$q]}" -v b="${BEST[base|$q]}" 'BEGIN { printf "%.3f", a / b }')"
done
echo "(the current build writes one horizon record and state file per lease of 1 s of generated time)"
