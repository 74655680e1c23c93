#!/usr/bin/env bash
# bench/node_registry.sh - the timings of negotiated node numbers
# (doc/negotiated-nodes.md), measured on real servers: a registry and a
# server that leases its number from it (uniqueid.node_lease and
# uniqueid.node_skew as set here, default 10 s and 2 s), and a server with
# uniqueid.node set by hand.
#
#   bash bench/node_registry.sh      (UID_PGBIN: the server's bin directory,
#                                     with uniqueid installed; default 15's)
#
# Prints the first claim from a new registry (its grace period), and, over
# ROUNDS rounds (default 5), the smallest, median and largest
#   - claim: from the start of the server (pg_ctl start returning) to the
#     first uniqueid_node() that is not NULL, and the worker's own figure
#     (uniqueid_node_status().claim_ms), the registry long up;
#   - renewal period: between two renewed_at of uniqueid_node_status();
#   - fence: from the registry's stop (pg_ctl stop returning) to the first
#     next_snowflake() refused, polled every 20 ms;
#   - resume after a short outage: the registry started as soon as the
#     server is fenced (its lease still runs on the registry's clock), from
#     the start (pg_ctl start called) to the first next_snowflake() made;
#   - resume after a long outage: the registry started once the lease and
#     the skew have run out, so that the lease is renewed only after the
#     registry's grace period (doc/negotiated-nodes.md, "The rules": the
#     lease, uniqueid.max_clock_lead, a second and the skew);
# and the cost of a node-bearing ID with a lease against one with
# uniqueid.node: the time of N next_snowflake() calls on each server,
# interleaved, as the median ratio of the rounds.
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh
ROUNDS=${BENCH_ROUNDS:-5}
N=${BENCH_N_GEN:-1000000}
LEASE=${BENCH_NODE_LEASE:-10000}
SKEW=${BENCH_NODE_SKEW:-2000}

W=$(uid_tmpdir)
REG=$W/registry NODE=$W/node PLAIN=$W/plain
cleanup() {
	for d in "$NODE" "$PLAIN" "$REG"; do uid_cluster_stop "$d" || true; done
	rm -rf "$W"
}
trap cleanup EXIT
for d in "$REG" "$NODE" "$PLAIN"; do uid_as_owner mkdir -p "$d"; done
uid_cluster_init "$REG"
uid_cluster_start "$REG"
uid_psql "$REG" -d postgres -c "CREATE EXTENSION uniqueid" \
	-c "CREATE ROLE uniqueid_registry LOGIN" \
	-c "GRANT EXECUTE ON FUNCTION uniqueid_claim_node, uniqueid_renew_node, uniqueid_release_node TO uniqueid_registry"
uid_cluster_init "$NODE" "fsync = on" "uniqueid.node_registry = 'host=$REG port=5432 dbname=postgres user=uniqueid_registry'" \
	"uniqueid.node_lease = '${LEASE}ms'" "uniqueid.node_skew = '${SKEW}ms'"
uid_cluster_init "$PLAIN" "fsync = on" "uniqueid.node = 7"
uid_cluster_start "$PLAIN"
uid_psql "$PLAIN" -d postgres -c "CREATE EXTENSION uniqueid"

# now_ms: the wall clock in milliseconds
now_ms() { date +%s%3N; }
# q DIR SQL: one value
q() { uid_psql "$1" -d postgres -Atc "$2" 2>/dev/null; }
# until_ok DIR SQL LIMIT_S: polls SQL every 20 ms until it succeeds (or fails, with
# "!" before SQL) and prints the milliseconds it took; "timeout" past LIMIT_S
until_ok() {
	local dir=$1 sql=$2 limit=$3 start
	start=$(now_ms)
	while [ $(($(now_ms) - start)) -lt $((limit * 1000)) ]; do
		if [ "${sql:0:1}" = "!" ]; then
			q "$dir" "${sql:1}" >/dev/null || { echo $(($(now_ms) - start)); return; }
		else
			q "$dir" "$sql" >/dev/null && { echo $(($(now_ms) - start)); return; }
		fi
		sleep 0.02
	done
	echo timeout
}
# stats NAME VALUES...: smallest, median and largest
stats() {
	local name=$1
	shift
	printf '%-34s %s\n' "$name" "$(printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { printf "min %s  median %s  max %s", v[1], v[int((NR + 1) / 2)], v[NR] }')"
}

declare -a claim claim_worker renew fence resume resume_long ratio
for ((r = 0; r < ROUNDS; r++)); do
	uid_cluster_start "$NODE"
	start=$(now_ms)
	[ "$r" -eq 0 ] && uid_psql "$NODE" -d postgres -c "CREATE EXTENSION uniqueid"
	until_ok "$NODE" "SELECT 1 / (uniqueid_node() IS NOT NULL)::int" 60 >/dev/null
	if [ "$r" -eq 0 ]; then
		first_claim=$(($(now_ms) - start))
	else
		claim+=($(($(now_ms) - start)))
		claim_worker+=("$(q "$NODE" "SELECT claim_ms FROM uniqueid_node_status()")")
	fi
	# two renewals in a row
	first=$(q "$NODE" "SELECT renewed_at FROM uniqueid_node_status()")
	until_ok "$NODE" "SELECT 1 / (renewed_at > '$first')::int FROM uniqueid_node_status()" 60 >/dev/null
	second=$(q "$NODE" "SELECT renewed_at FROM uniqueid_node_status()")
	until_ok "$NODE" "SELECT 1 / (renewed_at > '$second')::int FROM uniqueid_node_status()" 60 >/dev/null
	renew+=("$(q "$NODE" "SELECT round(extract(epoch FROM renewed_at - '$second') * 1000) FROM uniqueid_node_status()")")
	# the per-call cost, interleaved: leased first in even rounds
	for k in 0 1; do
		if [ $(((r + k) % 2)) -eq 0 ]; then d=$NODE; else d=$PLAIN; fi
		t=$(q "$d" "SELECT round(extract(epoch FROM clock_timestamp() - c) * 1000000) FROM (SELECT clock_timestamp() c OFFSET 0) s, LATERAL (SELECT count(next_snowflake()) FROM generate_series(1, $N)) g")
		if [ "$d" = "$NODE" ]; then tn=$t; else tp=$t; fi
	done
	ratio+=("$(awk -v a="$tn" -v b="$tp" 'BEGIN { printf "%.3f", a / b }')")
	uid_cluster_stop "$REG"
	fence+=("$(until_ok "$NODE" "!SELECT next_snowflake()" 60)")
	start=$(now_ms)
	uid_cluster_start "$REG"
	until_ok "$NODE" "SELECT next_snowflake()" 60 >/dev/null
	resume+=($(($(now_ms) - start)))
	# a long outage: the lease and the skew run out on the registry's clock too
	uid_cluster_stop "$REG"
	until_ok "$NODE" "!SELECT next_snowflake()" 60 >/dev/null
	sleep $(((LEASE + SKEW) / 1000 + 1))
	start=$(now_ms)
	uid_cluster_start "$REG"
	until_ok "$NODE" "SELECT next_snowflake()" 120 >/dev/null
	resume_long+=($(($(now_ms) - start)))
	uid_cluster_stop "$NODE"
done
echo "negotiated node numbers: uniqueid.node_lease ${LEASE} ms, uniqueid.node_skew ${SKEW} ms, $ROUNDS rounds ($("$UID_PGBIN/postgres" --version))"
echo "first claim from a new registry (ms): $first_claim"
stats "claim after start (ms)" "${claim[@]}"
stats "claim by the worker (claim_ms)" "${claim_worker[@]}"
stats "renewal period (ms)" "${renew[@]}"
stats "fence after the registry stops (ms)" "${fence[@]}"
stats "resume, short outage (ms)" "${resume[@]}"
stats "resume, long outage (ms)" "${resume_long[@]}"
stats "next_snowflake(), leased / set" "${ratio[@]}"
