#!/usr/bin/env bash
# bench/stress.sh - the load test of the suite (t/014_load.pl), long: 32
# connections for STRESS_SECONDS (default 60) per generator, then parallel
# workers and the never-borrow overload.  Uses the installed extension (run
# `make install` first); as root it runs as postgres in a copy of the tree.
#
#   bash bench/stress.sh                  # 60 s per generator, about 10 minutes
#   STRESS_SECONDS=10 bash bench/stress.sh
set -u
cd "$(dirname "$0")/.." || exit 2
. test/lib.sh
W=$(uid_tmpdir) || exit 2
trap 'rm -rf "$W"' EXIT
tar --exclude=.git --exclude=./tmp_check --exclude=./results -cf - . | tar -C "$W" -xf -
[ "$(id -u)" -eq 0 ] && chown -R postgres: "$W"
cd "$W" || exit 2
uid_as_owner make -s PG_CONFIG="$UID_PGBIN/pg_config" test/clockshift.so test/codec_test test/basen_test &&
	uid_as_owner UID_LOAD_SECONDS="${STRESS_SECONDS:-60}" UID_TEST_ALARM=7200 PG_TEST_TIMEOUT_DEFAULT=900 \
		make -s installcheck PG_CONFIG="$UID_PGBIN/pg_config" REGRESS= PROVE_FLAGS=-v PROVE_TESTS=t/014_load.pl
