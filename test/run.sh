#!/usr/bin/env bash
# test/run.sh - the whole test suite on a fresh Debian 12 machine.
# Installs what it needs (as root), builds and installs uniqueid, starts a
# throwaway cluster with test/postgresql.conf, runs pg_regress (make
# installcheck), the pgTAP tests (pg_prove test/*.sql) and the multi-process
# TAP tests (prove test/*.t), stops everything and prints "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 2
. test/lib.sh

uid_install_packages make gcc procps "postgresql-$UID_PGVER" "postgresql-server-dev-$UID_PGVER" \
	"postgresql-$UID_PGVER-pgtap" libtap-parser-sourcehandler-pgtap-perl libfaketime || exit 2
uid_build_install || { uid_log "build failed"; exit 2; }

UID_TEST_DIR=$(uid_tmpdir) || exit 2
export UID_TEST_DIR
cleanup() {
	uid_cluster_stop "$UID_TEST_DIR"
	rm -rf "$UID_TEST_DIR"
}
trap cleanup EXIT
mapfile -t conf < <(grep -v '^\s*#' test/postgresql.conf | grep -v '^\s*$')
uid_cluster_init "$UID_TEST_DIR" "${conf[@]}" && uid_cluster_start "$UID_TEST_DIR" || exit 2

passed=0
failed=0
# count_prove LOG STATUS: adds prove's test and failure counts
count_prove() {
	local tests fails
	tests=$(grep -oP '^Files=\d+, Tests=\K\d+' "$1" | tail -n 1)
	fails=$(grep -oP 'Failed: \K\d+' "$1" | awk '{s += $1} END {print s + 0}')
	tests=${tests:-0}
	fails=${fails:-0}
	if [ "$2" -ne 0 ] && [ "$fails" -eq 0 ]; then fails=1; fi
	passed=$((passed + tests - fails))
	failed=$((failed + fails))
}

uid_log "pg_regress"
make -s installcheck PG_CONFIG="$UID_PGBIN/pg_config" \
	PGHOST="$UID_TEST_DIR" PGPORT=5432 PGUSER=postgres >"$UID_TEST_DIR/regress.log" 2>&1
rc=$?
cat "$UID_TEST_DIR/regress.log"
[ $rc -ne 0 ] && [ -f regression.diffs ] && head -n 200 regression.diffs
p=$(grep -cE '\.\.\. ok|^ok [0-9]' "$UID_TEST_DIR/regress.log")
f=$(grep -cE '\.\.\. FAILED|^not ok' "$UID_TEST_DIR/regress.log")
if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
passed=$((passed + p))
failed=$((failed + f))

uid_log "pgTAP"
uid_psql "$UID_TEST_DIR" -d postgres -c "CREATE DATABASE uniqueid_tap" &&
	uid_psql "$UID_TEST_DIR" -d uniqueid_tap -c "CREATE EXTENSION pgtap" -c "CREATE EXTENSION uniqueid"
pg_prove --failures -h "$UID_TEST_DIR" -p 5432 -U postgres -d uniqueid_tap test/*.sql 2>&1 | tee "$UID_TEST_DIR/pgtap.log"
count_prove "$UID_TEST_DIR/pgtap.log" "${PIPESTATUS[0]}"

uid_log "multi-process tests"
prove --failures --exec bash test/*.t 2>&1 | tee "$UID_TEST_DIR/prove.log"
count_prove "$UID_TEST_DIR/prove.log" "${PIPESTATUS[0]}"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
