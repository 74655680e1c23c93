#!/usr/bin/env bash
# test/run.sh - the whole test suite on a fresh Debian 12 machine.
#
#   bash test/run.sh             PostgreSQL 15, the machine's own
#   bash test/run.sh --pg 17     PostgreSQL 17, in a Debian 13 (trixie) root
#   bash test/run.sh --pg 18     PostgreSQL 18, in a Debian sid root
#   bash test/run.sh --matrix    15, 17 and 18 one after the other
#
# Installs what it needs (as root; the roots of 17 and 18 are made once with
# debootstrap and cached, see test/roots.sh), builds and installs uniqueid
# (a compiler warning counts as a failed test), starts a throwaway cluster
# with test/postgresql.conf, runs pg_regress (make installcheck), the pgTAP
# tests (pg_prove test/*.sql) and the multi-process TAP tests (prove
# test/*.t), stops everything and prints "N passed, N failed" last; with
# --matrix, each version's line first and their sum last.
set -u
cd "$(dirname "$0")/.." || exit 2

case "${1:-}" in
--matrix)
	total_p=0
	total_f=0
	lines=()
	logs=$(mktemp -d)
	trap 'rm -rf "$logs"' EXIT
	for v in 15 17 18; do
		start=$SECONDS
		if [ "$v" = 15 ]; then
			bash test/run.sh 2>&1 | tee "$logs/$v.log"
		else
			bash test/run.sh --pg "$v" 2>&1 | tee "$logs/$v.log"
		fi
		last=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$logs/$v.log" | tail -n 1)
		p=$(echo "$last" | grep -oE '^[0-9]+')
		f=$(echo "$last" | grep -oE '[0-9]+ failed' | grep -oE '^[0-9]+')
		[ -n "$last" ] || { p=0; f=1; }
		total_p=$((total_p + p))
		total_f=$((total_f + f))
		lines+=("PostgreSQL $v: ${p} passed, ${f} failed in $((SECONDS - start)) s")
	done
	printf '%s\n' "${lines[@]}"
	echo "$total_p passed, $total_f failed"
	[ "$total_f" -eq 0 ]
	exit
	;;
--pg)
	v=${2:-}
	if [ "$v" != 15 ]; then
		. test/roots.sh
		uid_root_exec "$v" test/run.sh || { rc=$?; [ $rc -eq 2 ] && echo "0 passed, 1 failed"; exit $rc; }
		exit 0
	fi
	;;
esac

. test/lib.sh

# (python3 for the install script's check, on the machine itself only)
tools=(make gcc procps)
[ -n "${UID_IN_ROOT:-}" ] || tools+=(python3)
uid_install_packages "${tools[@]}" "postgresql-$UID_PGVER" "postgresql-server-dev-$UID_PGVER" \
	"postgresql-$UID_PGVER-pgtap" libtap-parser-sourcehandler-pgtap-perl || exit 2

passed=0
failed=0
uid_log "build (PostgreSQL $UID_PGVER)"
make -s clean PG_CONFIG="$UID_PGBIN/pg_config" >/dev/null 2>&1
build_log=$(mktemp)
if ! make PG_CONFIG="$UID_PGBIN/pg_config" all test/clockshift.so >"$build_log" 2>&1; then
	cat "$build_log"
	rm -f "$build_log"
	uid_log "build failed"
	echo "0 passed, 1 failed"
	exit 1
fi
warnings=$(grep -c 'warning:' "$build_log")
if [ "$warnings" -eq 0 ]; then
	passed=$((passed + 1))
	echo "ok - the build prints no warning"
else
	grep -A3 'warning:' "$build_log"
	failed=$((failed + 1))
	echo "not ok - the build prints $warnings warnings"
fi
rm -f "$build_log"
make -s PG_CONFIG="$UID_PGBIN/pg_config" install >/dev/null || { uid_log "install failed"; exit 2; }
# the install script is what its generator makes (checked where python3 is:
# on the machine itself, not in the roots; the script is the same for all)
if command -v python3 >/dev/null; then
	if python3 tools/gen_sql.py | cmp -s - sql/uniqueid--1.0.sql; then
		passed=$((passed + 1))
		echo "ok - sql/uniqueid--1.0.sql is what tools/gen_sql.py makes"
	else
		failed=$((failed + 1))
		echo "not ok - sql/uniqueid--1.0.sql differs from what tools/gen_sql.py makes (make sql)"
	fi
fi

UID_TEST_DIR=$(uid_tmpdir) || exit 2
export UID_TEST_DIR
cleanup() {
	uid_cluster_stop "$UID_TEST_DIR"
	rm -rf "$UID_TEST_DIR"
}
trap cleanup EXIT
mapfile -t conf < <(grep -v '^\s*#' test/postgresql.conf | grep -v '^\s*$')
uid_cluster_init "$UID_TEST_DIR" "${conf[@]}" && uid_cluster_start "$UID_TEST_DIR" ||
	{ echo "$passed passed, $((failed + 1)) failed"; exit 1; }

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
timeout -k 10 1200 make -s installcheck PG_CONFIG="$UID_PGBIN/pg_config" \
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
timeout -k 10 1200 pg_prove --failures -h "$UID_TEST_DIR" -p 5432 -U postgres -d uniqueid_tap test/*.sql 2>&1 |
	tee "$UID_TEST_DIR/pgtap.log"
count_prove "$UID_TEST_DIR/pgtap.log" "${PIPESTATUS[0]}"

uid_log "multi-process tests"
# each test file gets at most 10 minutes, and then 150 s to stop its servers
prove --failures --exec "timeout -k 150 600 bash" test/*.t 2>&1 | tee "$UID_TEST_DIR/prove.log"
count_prove "$UID_TEST_DIR/prove.log" "${PIPESTATUS[0]}"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
