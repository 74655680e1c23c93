#!/usr/bin/env bash
# test/run.sh - the whole test suite on a fresh Debian 12 machine.
#
# usage: bash test/run.sh [--pg VERSION | --matrix | --install | --help]
#
#   bash test/run.sh             PostgreSQL 15, the machine's own
#   bash test/run.sh --pg 17     PostgreSQL 17, in a Debian 13 (trixie) root
#   bash test/run.sh --pg 18     PostgreSQL 18, in 19's root (sid's 18 is there)
#   bash test/run.sh --pg 19     PostgreSQL 19, in a Debian sid root with
#                                experimental's postgresql-19 packages
#   bash test/run.sh --matrix    15, 17, 18 and 19 one after the other
#   bash test/run.sh --install   installs the Debian packages (and on the
#                                machine the npm modules) the suite needs,
#                                and stops (--matrix runs it in each root
#                                in the background, before its turn)
#   bash test/run.sh --help      this text
#
# Installs what it needs (as root; the roots of 17, 18 and 19 are made once
# with debootstrap and cached in /var/cache/uniqueid/roots, see
# test/roots.sh), builds and installs uniqueid (a compiler warning counts as
# a failed test), starts a throwaway cluster with uniqueid preloaded, runs
# pg_regress (make installcheck) and the pgTAP tests (pg_prove
# test/pgtap/*.sql) against it in the background, beside the TAP tests
# (t/*.pl, PostgreSQL::Test::Cluster) that start servers of their own, stops
# everything and prints "N passed, N failed" last.  --matrix also builds
# and tests each version's Debian package in clean roots (in the
# background, while the suites run), and the PGXN zip once
# (test/package.sh), and prints each version's line, then their sum; its
# suites leave pg_regress to the packages' autopkgtest.  What does not
# depend on the version (the codecs' fuzzers, sqlsmith, the sanitizer and
# valgrind runs, the TAP files of host_only below) runs on 15 only; the
# faults of the durable state and the registry (sides_only) on 15 and 19.  For t/075_clients.pl, the client drivers where Debian
# has them: on the machine itself psycopg 3, asyncpg and the JDBC driver
# (python3-psycopg, python3-asyncpg, libpostgresql-jdbc-java; a JDK only if
# javac is missing) and, with the machine's npm where it has one,
# node-postgres (npm's pg, cached in /var/cache/uniqueid/npm); in 18's suite
# (sid) Go with pgx and cargo with the postgres crate (golang-go,
# golang-github-jackc-pgx-v5-dev, cargo, librust-postgres-dev).  For
# t/076_orms.pl, the Python and Ruby ORMs from Debian on the machine and in
# every root (python3-django, python3-sqlalchemy, python3-alembic,
# python3-psycopg2, ruby-activerecord, ruby-pg), and Knex, Sequelize,
# TypeORM and Drizzle with the machine's npm on the machine only (cached in
# /var/cache/uniqueid/npm-orms).  The
# third-party sources of test/vendor.lock (Citus, pgEdge snowflake,
# pg_uuidv7, pg_tle) come from UID_VENDOR (a directory of archives), else
# ../shared/vendor, else their upstream URLs (downloaded once and checked;
# UID_VENDOR_URL=BASE takes them from a mirror, UID_VENDOR_URL=off from
# nowhere): test/vendor.sh.  A test that needs one that is missing skips,
# saying which and how to provide it.  UID_FUZZ_SECONDS is how long each
# fuzz target runs (default 30 s); UID_TAP_JOBS how many TAP files run at
# once (default 4).
set -u
cd "$(dirname "$0")/.." || exit 2

# the versions of --pg and --matrix
versions=(15 17 18 19)
# stop_job PID: a background job of this shell that is still running (a
# finished one's PID may be another process's by now), and everything it
# started: all stopped first, parents before children (so that none starts
# anything meanwhile), then terminated, then continued to take the signal
stop_job() {
	local p all
	[[ " $(jobs -rp | tr '\n' ' ') " == *" $1 "* ]] || return 0
	all=$(stop_tree "$1")
	# (a job that ended since jobs listed it: nothing to stop or wait for)
	[ -n "$all" ] || return 0
	for p in $all; do kill -TERM "$p" 2>/dev/null; done
	for p in $all; do kill -CONT "$p" 2>/dev/null; done
	wait "$1" 2>/dev/null
	# (and the rest of the tree, which may be unmounting its root or
	# stopping its cluster on the signal: up to a minute)
	for _ in $(seq 1 60); do
		for p in $all; do kill -0 "$p" 2>/dev/null && break; done || break
		sleep 1
	done
}
# stop_tree PID: PID stopped, then its children, recursively; prints them all
stop_tree() {
	local c
	kill -STOP "$1" 2>/dev/null || return 0
	echo "$1"
	for c in $(pgrep -P "$1"); do stop_tree "$c"; done
}
# the comment above, without its first line
usage() { sed -n '2,/^[^#]/ s/^# \{0,1\}//p' "$0"; }
# usage_error MESSAGE: MESSAGE and the usage lines on stderr, exit status 2
usage_error() { { echo "test/run.sh: $1"; usage | sed -n '/^usage:/,/--help/p'; } >&2; exit 2; }

case "${1:-}" in
-h | --help)
	usage
	exit 0
	;;
--matrix)
	[ $# -eq 1 ] || usage_error "--matrix takes no further argument"
	total_p=0
	total_f=0
	lines=()
	logs=$(mktemp -d)
	. test/lib.sh
	# CPU by phase (uid_cpu_phase, test/lib.sh): each background chain's
	# steps, each version's suite, its fuzzers, sanitizer runs and pg_regress
	# counted apart in cpuacct cgroups below the one this script runs in
	# (root, cgroup v1 with cpuacct a hierarchy of its own, as for the TAP
	# files' CPU), printed at the end, most first: where the matrix keeps
	# every CPU it has busy, its time is their sum divided by those CPUs
	if cg=$(uid_cpuacct_own); then
		export UID_CPU_PHASES=$cg/uniqueid-matrix.$$
		mkdir "$UID_CPU_PHASES" || unset UID_CPU_PHASES
	fi
	trap 'rm -rf "$logs"; [ -z "${UID_CPU_PHASES:-}" ] || uid_cgroup_remove "$UID_CPU_PHASES"' EXIT
	# The roots the later versions need (test/roots.sh: 17's, and 19's,
	# which 18's shares; test/package.sh: the pristine and build roots of
	# 15, 17 and 19) are
	# made in the background, two chains at a time (with Citus built in the
# suite roots), while the suite runs
	# on the versions before: mostly downloads and unpacking.  A version
	# whose root is still being made waits for it (each root has a lock);
	# one that could not be made is made again, or fails, in the
	# foreground.
	prep=()
	pkgchain=
	if [ "$(id -u)" -eq 0 ]; then
		. test/roots.sh
		command -v debootstrap >/dev/null || uid_install_packages debootstrap
		# (and Citus built in each root that has a release for it, and pg_tle)
		# (each chain ignores INT and QUIT, as run_logged's jobs below: a
		# Ctrl-C reaches it as the EXIT trap's one TERM)
		(trap '' INT QUIT
		uid_root_retire
		for v in "${versions[@]}"; do
			[ "$v" = 15 ] && continue
			uid_cpu_phase "root-$v"
			uid_root_make "$v" || continue
			# (the packages the suite installs there first: 30 to 90 s of
			# each root's suite in the foreground before)
			t=$SECONDS
			uid_cpu_phase "root-$v-install"
			uid_root_exec "$v" test/run.sh --install && uid_log "the packages of PostgreSQL $v's suite ready in $((SECONDS - t)) s"
			t=$SECONDS
			uid_cpu_phase "citus-$v"
			uid_root_exec "$v" test/citus.sh && uid_log "Citus for PostgreSQL $v ready in $((SECONDS - t)) s"
			t=$SECONDS
			uid_cpu_phase "pgtle-$v"
			uid_root_exec "$v" test/pgtle.sh && uid_log "pg_tle for PostgreSQL $v ready in $((SECONDS - t)) s"
		done) >"$logs/roots.log" 2>&1 &
		prep+=($!)
		# (and each version's package tested as soon as its roots are made:
		# the packages need nothing of the suites, and their builds,
		# autopkgtests and regression runs, 190 to 270 s each, took 868 s of
		# the 3,825 s a fresh matrix took on 2026-12-06 when they came after
		# each version's suite; in the background it took 3,056 s)
		# (but 18's: 19's root builds it too, sid's postgresql-server-dev-18
		# beside experimental's 19, and tests each package it built, through
		# autopkgtest and installed in a fresh root, as a root of 18's own
		# would: 200 CPU s saved; the count below checks it did)
		pkg_versions=()
		for v in "${versions[@]}"; do
			[ "$v" = 18 ] && [[ " ${versions[*]} " == *" 19 "* ]] && continue
			pkg_versions+=("$v")
		done
		(trap '' INT QUIT
		for v in "${pkg_versions[@]}"; do
			uid_cpu_phase "package-$v-roots"
			bash test/package.sh "$v" --roots >>"$logs/pkgroots.log" 2>&1
			t=$SECONDS
			uid_cpu_phase "package-$v"
			bash test/package.sh "$v" >"$logs/pkg-$v.log" 2>&1
			echo "$((SECONDS - t))" >"$logs/pkg-$v.time"
		done) &
		pkgchain=$!
		prep+=($!)
		# (so the suites leave to it what it runs: pg_regress, every file of
		# the Makefile's REGRESS, which the package's autopkgtest runs on the
		# same source and server version, and the package test checks it did;
		# the suites keep pgTAP)
		UID_REGRESS_SKIP=$(uid_regress_without)
		export UID_REGRESS_SKIP
		# (and Citus and pg_tle for 15 on the machine, while 15's suite builds,
		# fuzzes and runs pg_regress: its own calls, before the TAP files, wait
		# for them)
		(trap '' INT QUIT; t=$SECONDS; uid_cpu_phase citus-15; bash -c '. test/lib.sh && uid_install_packages postgresql-15 postgresql-server-dev-15' &&
			bash test/citus.sh && uid_log "Citus for PostgreSQL 15 ready in $((SECONDS - t)) s" &&
			uid_cpu_phase pgtle-15 &&
			t=$SECONDS && bash test/pgtle.sh && uid_log "pg_tle for PostgreSQL 15 ready in $((SECONDS - t)) s") >"$logs/citus15.log" 2>&1 &
		prep+=($!)
	fi
	# run_logged LOG COMMAND...: COMMAND with its output here and in LOG, as
	# a job of this shell that the EXIT trap stops (a signal ends this
	# script at once, and a pipeline in the foreground would outlive it).
	# COMMAND ignores INT and QUIT, so that a Ctrl-C reaches it only as the
	# trap's one TERM (a second signal would cut its own cleanup short), and
	# tee ignores INT and TERM, so that what the cleanup prints is kept
	fg_job=
	run_logged() {
		local log=$1
		shift
		(trap '' INT QUIT; "$@" 2>&1 | (trap '' INT TERM; exec tee "$log")) &
		fg_job=$!
		wait "$fg_job"
		fg_job=
	}
	# run_suite V: the suite of PostgreSQL V, its CPU counted apart
	run_suite() {
		uid_cpu_phase "suite-$1" || return
		if [ "$1" = 15 ]; then exec bash test/run.sh; else exec bash test/run.sh --pg "$1"; fi
	}
	trap 'for p in ${fg_job:-} "${prep[@]}"; do stop_job "$p"; done; rm -rf "$logs"; [ -z "${UID_CPU_PHASES:-}" ] || uid_cgroup_remove "$UID_CPU_PHASES"' EXIT
	# count_package LOG NAME: pp and pf, the checks test/package.sh passed and
	# failed in LOG (one failure if it did not end with "# NAME: N passed, 0 failed")
	count_package() {
		pp=$(grep -c '^ok ' "$1")
		pf=$(grep -c '^not ok ' "$1")
		grep -qE "^# $2: [0-9]+ passed, 0 failed\$" "$1" || [ "$pf" -gt 0 ] || pf=1
	}
	for v in "${versions[@]}"; do
		start=$SECONDS
		run_logged "$logs/$v.log" run_suite "$v"
		last=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$logs/$v.log" | tail -n 1)
		p=$(echo "$last" | grep -oE '^[0-9]+')
		f=$(echo "$last" | grep -oE '[0-9]+ failed' | grep -oE '^[0-9]+')
		[ -n "$last" ] || { p=0; f=1; }
		# the Debian package of this version, built and tested in clean roots
		# (test/package.sh, on the machine itself): in the background as
		# root (above), else after the version's suite
		if [ -z "${pkgchain:-}" ]; then
			run_logged "$logs/pkg-$v.log" bash test/package.sh "$v"
			count_package "$logs/pkg-$v.log" "package $v"
			p=$((p + pp))
			f=$((f + pf))
		fi
		total_p=$((total_p + p))
		total_f=$((total_f + f))
		lines+=("PostgreSQL $v: ${p} passed, ${f} failed in $((SECONDS - start)) s")
	done
	if [ -n "${pkgchain:-}" ]; then
		start=$SECONDS
		wait "$pkgchain"
		for v in "${pkg_versions[@]}"; do
			cat "$logs/pkg-$v.log" 2>/dev/null
			count_package "$logs/pkg-$v.log" "package $v"
			total_p=$((total_p + pp))
			total_f=$((total_f + pf))
			lines+=("package $v: ${pp} passed, ${pf} failed in $(cat "$logs/pkg-$v.time" 2>/dev/null || echo '?') s (in the background; waited $((SECONDS - start)) s for the last)")
		done
		# 18's package, in 19's run: built, through autopkgtest, installed
		if [[ " ${versions[*]} " == *" 18 "* ]] && [[ " ${pkg_versions[*]} " != *" 18 "* ]]; then
			if grep -q '^ok - autopkgtest ran every regression file .* on PostgreSQL 18$' "$logs/pkg-19.log" &&
				grep -q '^ok - apt-get purge postgresql-18-uniqueid removes' "$logs/pkg-19.log"; then
				lines+=("package 18: in package 19's (19's root built it, autopkgtest ran it, installed and purged)")
			else
				total_f=$((total_f + 1))
				lines+=("package 18: 1 failed: package 19's run did not build, autopkgtest and install postgresql-18-uniqueid (test/package.sh 19)")
			fi
		fi
	fi
	# the PGXN zip, once (it installs into the machine's PostgreSQL 15)
	start=$SECONDS
	pgxn_test() { uid_cpu_phase pgxn && exec bash test/package.sh --pgxn; }
	run_logged "$logs/pgxn.log" pgxn_test
	count_package "$logs/pgxn.log" pgxn
	total_p=$((total_p + pp))
	total_f=$((total_f + pf))
	lines+=("PGXN: ${pp} passed, ${pf} failed in $((SECONDS - start)) s")
	wait "${prep[@]}" 2>/dev/null
	prep=()
	# (what the background made, and when)
	cat "$logs/roots.log" "$logs/pkgroots.log" "$logs/citus15.log" 2>/dev/null | grep -E '^== .* (made|ready) in ' | sed 's/^== /# /'
	if [ -n "${UID_CPU_PHASES:-}" ]; then
		uid_log "CPU seconds of each phase, the most first (where the matrix keeps N CPUs busy, it takes their sum divided by N)"
		uid_cpu_report "$UID_CPU_PHASES"
	fi
	printf '%s\n' "${lines[@]}"
	echo "$total_p passed, $total_f failed"
	[ "$total_f" -eq 0 ]
	exit
	;;
--pg)
	v=${2:-}
	[[ " ${versions[*]} " == *" $v "* ]] || usage_error "--pg needs a version: ${versions[*]}"
	[ $# -eq 2 ] || usage_error "--pg $v takes no further argument"
	if [ "$v" != 15 ]; then
		. test/roots.sh
		uid_root_exec "$v" test/run.sh || { rc=$?; [ $rc -eq 2 ] && echo "0 passed, 1 failed"; exit $rc; }
		exit 0
	fi
	;;
--install)
	[ $# -eq 1 ] || usage_error "--install takes no further argument"
	install_only=1
	;;
"") ;;
*) usage_error "unknown argument: $1" ;;
esac

. test/lib.sh

# (python3 for test/vendor.sh and t/003_vendor.pl, clang with its sanitizer and
# libFuzzer runtimes for the codecs' fuzzers, sqlsmith, and spin for the
# model of the registry's protocol: on the machine itself only;
# t/095_sqlsmith.pl says it skips in the roots)
# (gdb: t/054_handover.pl holds a backend at a breakpoint to force a race)
tools=(make gcc procps libipc-run-perl gdb libssl-dev)
[ -n "${UID_IN_ROOT:-}" ] || tools+=(python3 clang libclang-rt-14-dev sqlsmith valgrind spin)
# pgTAP: Debian's package, but where it is installed already (19's root
# builds it from source, as Debian has no postgresql-19-pgtap: test/roots.sh)
pgtap=("postgresql-$UID_PGVER-pgtap")
[ -f "/usr/share/postgresql/$UID_PGVER/extension/pgtap.control" ] && pgtap=()
# The Python and Ruby ORMs of t/076_orms.pl, Debian's own, on the machine
# and in every root (each Debian has its releases of them: Django 3.2, 4.2
# and 5.2, say); about 40 packages, 18 MB, 10 s in a root
orms=(python3-django python3-psycopg2 python3-sqlalchemy python3-alembic ruby-activerecord ruby-pg)
uid_install_packages "${tools[@]}" "postgresql-$UID_PGVER" "postgresql-server-dev-$UID_PGVER" \
	"${pgtap[@]}" libtap-parser-sourcehandler-pgtap-perl "${orms[@]}" || exit 2
# pg_partman and TimescaleDB (t/085_partman.pl, t/086_timescaledb.pl),
# where Debian packages them for this version; the tests skip elsewhere
extras=()
for p in "postgresql-$UID_PGVER-partman" "postgresql-$UID_PGVER-timescaledb"; do
	apt-cache show "$p" >/dev/null 2>&1 && extras+=("$p")
done
[ ${#extras[@]} -eq 0 ] || uid_install_packages "${extras[@]}" || exit 2
# The client drivers of t/075_clients.pl (test/clients/), each in one place
# only, as its build costs time: Python's, Java's and Node's on the machine
# itself, Go's and Rust's (about 350 packages of crates) for 18's suite (in
# the root it shares with 19's, whose t/075 skips them); the test skips the
# others, saying why.
UID_NPM_DIR=${UID_CACHE:-/var/cache/uniqueid}/npm
UID_NPM_ORMS_DIR=${UID_CACHE:-/var/cache/uniqueid}/npm-orms
if [ -z "${UID_IN_ROOT:-}" ]; then
	clients=(python3-psycopg python3-asyncpg libpostgresql-jdbc-java)
	command -v javac >/dev/null || clients+=(default-jdk-headless)
	uid_install_packages "${clients[@]}" || exit 2
	# uid_npm_install DIR PACKAGE_JSON MODULE TEST: MODULE (and what
	# PACKAGE_JSON lists) from the npm registry, with the machine's npm, into
	# DIR, once per PACKAGE_JSON (kept in DIR as the mark of what is
	# installed); where npm cannot, TEST skips it, saying so
	uid_npm_install() {
		local dir=$1 json=$2 module=$3 test=$4
		command -v npm >/dev/null && [ "$(id -u)" -eq 0 ] || return 0
		cmp -s "$json" "$dir/package.json" && [ -f "$dir/node_modules/$module/package.json" ] && return 0
		uid_log "installing $module in $dir"
		rm -rf "$dir" && mkdir -p "$dir" && cp "$json" "$dir/" &&
			(cd "$dir" && timeout 300 npm install --no-audit --no-fund --loglevel=error >/dev/null) ||
			{ uid_log "npm could not install $module: $test will skip it, saying so"; rm -rf "$dir"; }
	}
	# node-postgres for t/075_clients.pl, Knex, Sequelize, TypeORM and Drizzle for t/076_orms.pl
	uid_npm_install "$UID_NPM_DIR" test/clients/node/package.json pg t/075_clients.pl
	uid_npm_install "$UID_NPM_ORMS_DIR" test/orms/package.json sequelize t/076_orms.pl
elif [ "$UID_PGVER" = 18 ]; then
	# (19's suite, in the same root, sees them too: its t/075 skips them,
	# UID_CLIENTS_ELSEWHERE below)
	uid_install_packages golang-go golang-github-jackc-pgx-v5-dev cargo librust-postgres-dev || exit 2
elif [ "$UID_PGVER" = 19 ]; then
	# (the previous major beside this one, for t/037_upgrade_major.pl: below)
	uid_install_packages postgresql-18 postgresql-server-dev-18 ||
		uid_log "could not install PostgreSQL 18 beside 19: t/037_upgrade_major.pl will fail"
fi
[ -z "${install_only:-}" ] || exit 0

passed=0
failed=0
# pass/fail MESSAGE: one check of this script
pass() { passed=$((passed + 1)); echo "ok - $*"; }
fail() { failed=$((failed + 1)); echo "not ok - $*"; }

# Everything happens in a copy of the tree owned by the cluster owner (the
# TAP tests' initdb refuses to run as root): W/src, and the harness's server
# in W/data on a socket in W.
# third-party sources (test/vendor.sh): ../shared/vendor is beside this
# checkout, not beside the copy the suite runs in
. test/vendor.sh
export UID_VENDOR_SHARED UID_VENDOR_CACHE
[ -z "${UID_VENDOR:-}" ] || export UID_VENDOR
W=$(uid_tmpdir) || exit 2
cleanup() {
	local b
	for b in ${bg_checks:-} ${bg_regress:-}; do stop_job "$b"; done
	uid_cluster_stop "$W"
	[ -z "${tap_cpu:-}" ] || uid_cgroup_remove "$tap_cpu" kill
	rm -rf "$W"
}
trap cleanup EXIT
# copy_tree DIR: a copy of this tree without build products, owned by the cluster owner
copy_tree() {
	mkdir "$1" &&
		tar --exclude=.git --exclude='*.o' --exclude='*.so' --exclude='*.bc' --exclude=./results \
			--exclude=./tmp_check -cf - . | tar -C "$1" -xf - &&
		{ [ "$(id -u)" -ne 0 ] || chown -R postgres: "$1"; }
}
copy_tree "$W/src" || exit 2
cd "$W/src" || exit 2
PGC="PG_CONFIG=$UID_PGBIN/pg_config"

# (each phase's log line says how long the run has taken so far)
uid_log() { printf '== %s (at %d s)\n' "$*" "$SECONDS" >&2; }
uid_log "build (PostgreSQL $UID_PGVER)"
if ! uid_as_owner make "$PGC" all test/clockshift.so test/faultshim.so test/codec_test test/basen_test test/ff1_test >"$W/build.log" 2>&1; then
	cat "$W/build.log"
	uid_log "build failed"
	echo "0 passed, 1 failed"
	exit 1
fi
warnings=$(grep -c 'warning:' "$W/build.log")
if [ "$warnings" -eq 0 ]; then
	pass "the build prints no warning"
else
	grep -A3 'warning:' "$W/build.log"
	fail "the build prints $warnings warnings"
fi
make -s "$PGC" install >/dev/null || { uid_log "install failed"; exit 2; }
# (the fuzzers and the sanitizer run, in the background: below)
bg_checks=

# count_prove LOG STATUS: adds prove's test and failure counts
count_prove() {
	local tests fails
	tests=$(grep -oP '^Files=\d+, Tests=\K\d+' "$1" | tail -n 1)
	# (each file of prove's summary: its failed tests, or 1 where it
	# failed none but exited otherwise than 0: died, or killed by its alarm)
	fails=$(grep -oP '^\S+\s+\(Wstat: \K\d+ .*Failed: \d+(?=\))' "$1" |
		awk '{ n = $NF; if (n == 0 && $1 != 0) n = 1; s += n } END { print s + 0 }')
	tests=${tests:-0}
	fails=${fails:-0}
	if [ "$2" -ne 0 ] && [ "$fails" -eq 0 ]; then fails=1; fi
	passed=$((passed + tests - fails))
	failed=$((failed + fails))
}

# pg_regress and pgTAP run against a server configured as a user's would be:
# uniqueid preloaded, nothing else changed.  They run in the background,
# one file at a time, beside the wait for Citus and the TAP files, which
# have the cores to themselves otherwise (on 2026-12-06 pg_regress took 50
# to 104 s of each version's suite in the foreground, 70 of them in
# timestamptz_plans, with one core idle); their results come at the end.
# (the server in the matrix's phase of them, uid_cpu_phase)
(uid_cpu_phase "regress-$UID_PGVER" && uid_cluster_init "$W" && uid_cluster_start "$W") ||
	{ echo "$passed passed, $((failed + 1)) failed"; exit 1; }
export PGHOST=$W PGPORT=5432 PGUSER=postgres
uid_log "in the background: pg_regress, then pgTAP, against a server with uniqueid preloaded"
# (but the files of UID_REGRESS_SKIP, which --matrix sets where the
# package test of the same version runs them: all of them, which the
# package's autopkgtest runs on the same source and server version, 80 CPU
# s a version, timestamptz_plans's 225,000 planner checks most of it; that
# test checks that it did)
regress_args=()
if [ -n "${UID_REGRESS_SKIP:-}" ]; then
	regress=$(uid_regress_without $UID_REGRESS_SKIP) ||
		fail "UID_REGRESS_SKIP ($UID_REGRESS_SKIP) names no file of the Makefile's REGRESS"
	regress_args=(REGRESS="$regress")
	if [ -z "$regress" ]; then
		uid_log "pg_regress leaves every file to the package test of PostgreSQL $UID_PGVER (its autopkgtest); pgTAP runs here"
	else
		uid_log "pg_regress leaves out $UID_REGRESS_SKIP: the package test of PostgreSQL $UID_PGVER runs it"
	fi
fi
(
	uid_cpu_phase "regress-$UID_PGVER"
	t=$SECONDS
	rc=0
	[ "${regress_args[*]}" = "REGRESS=" ] ||
		uid_as_owner_for 3600 make -s installcheck "$PGC" TAP_TESTS= "${regress_args[@]}" >"$W/regress.log" 2>&1 || rc=$?
	[ $rc -ne 0 ] && [ -f regression.diffs ] && head -n 200 regression.diffs >"$W/regress.diffs"
	echo "# pg_regress took $((SECONDS - t)) s" >>"$W/regress.log"
	echo $rc >"$W/regress.rc"
	t=$SECONDS
	{
		uid_psql "$W" -d postgres -c "CREATE DATABASE uniqueid_tap" &&
			uid_psql "$W" -d uniqueid_tap -c "CREATE EXTENSION pgtap" -c "CREATE EXTENSION uniqueid"
		# (this version's psql: in a root with two majors, /usr/bin/psql
		# is the newest one's)
		uid_as_owner_for 3600 pg_prove --psql-bin "$UID_PGBIN/psql" --failures -d uniqueid_tap test/pgtap/*.sql
		echo $? >"$W/pgtap.rc"
		echo "# pgTAP took $((SECONDS - t)) s"
	} >"$W/pgtap.log" 2>&1
	uid_cluster_stop "$W"
) &
bg_regress=$!

# Citus for t/090_citus.pl: installed, or built once from its archive
# (test/vendor.sh); where it cannot be, the tests that need it skip with its reason
# (UID_CITUS_WHY, t/UniqueidTest.pm's uid_citus_missing)
. test/citus.sh
uid_citus_ensure || uid_log "Citus: t/090_citus.pl will be skipped, saying why"

# pg_tle for the SQL edition as a pg_tle extension (t/098_pgtle.pl, and
# t/078 and t/079 with it): installed, or built from its archive
# (test/pgtle.sh, about 15 s); where it cannot be, they skip it with its
# reason (UID_PGTLE_WHY)
. test/pgtle.sh
uid_pgtle_ensure || uid_log "pg_tle: the pg_tle install of the SQL edition will be skipped, saying why"

# pg_uuidv7 and pgEdge snowflake for t/063_moving.pl (moving keys from
# their generators), built from their archives (test/vendor.sh,
# bench/peers.sh); the test skips the one that did not build, saying so
. bench/peers.sh
uid_vendor_collect "$W/peers" 'pgedge-snowflake-*' 'pg_uuidv7-*'
bench_peers_install "$W/peers"

# The previous major, for t/037_upgrade_major.pl (pg_upgrade across
# majors), where Debian carries it beside this one: 18 in 19's root (sid),
# installed there and uniqueid built for it; elsewhere the test skips.
UID_UPGRADE_FROM=
if [ "$UID_PGVER" = 19 ] && [ -n "${UID_IN_ROOT:-}" ]; then
	uid_log "PostgreSQL 18 beside 19, for pg_upgrade across majors"
	if [ -x /usr/lib/postgresql/18/bin/pg_config ] && copy_tree "$W/src18" &&
		(cd "$W/src18" && UID_PGBIN=/usr/lib/postgresql/18/bin uid_build_install); then
		UID_UPGRADE_FROM=/usr/lib/postgresql/18
	else
		fail "PostgreSQL 18 with uniqueid beside 19, for t/037_upgrade_major.pl"
	fi
fi

# postgres_exporter and promtool for t/057_monitoring.pl: Debian's binaries
# (packages prometheus-postgres-exporter, prometheus), unpacked once, not
# installed, so that no service starts; on the machine itself only (the
# test skips elsewhere)
# unpack_binary PACKAGE BINARY: the path of BINARY from PACKAGE, unpacked in the cache
unpack_binary() {
	local dir=${UID_CACHE:-/var/cache/uniqueid}/$1
	if [ ! -x "$dir/usr/bin/$2" ] && [ "$(id -u)" -eq 0 ]; then
		uid_log "unpacking Debian's $1 in $dir"
		rm -rf "$dir" && mkdir -p "$dir" &&
			(cd "$dir" && { apt-get download -qq "$1" 2>/dev/null ||
				{ uid_apt_host update -qq && apt-get download -qq "$1" 2>/dev/null; }; } &&
				dpkg-deb -x "$1"_*.deb . && rm -f "$1"_*.deb) ||
			uid_log "could not unpack $1: t/057_monitoring.pl will skip $2, saying so"
	fi
	[ -x "$dir/usr/bin/$2" ] && echo "$dir/usr/bin/$2"
}
UID_EXPORTER=
UID_PROMTOOL=
if [ -z "${UID_IN_ROOT:-}" ]; then
	UID_EXPORTER=$(unpack_binary prometheus-postgres-exporter prometheus-postgres-exporter)
	UID_PROMTOOL=$(unpack_binary prometheus promtool)
fi

# The TAP tests that exercise nothing version-specific run on the machine's
# PostgreSQL only: the files' facts and links (t/002_facts, t/004_links:
# no server), the generators' arithmetic and their concurrency in
# shared memory, on one server that never restarts (no WAL, no state
# file, no standby, no hook that differs between versions), and the masks'
# properties over millions of IDs (their exact behaviour, test/sql/masking,
# runs on every version), and the registry's nemesis (t/096: the protocol
# is the same code on every version; t/055 and t/059, on 15 and the newest
# version, and t/056, on every version, cover what a server can change).  Every other test runs on every version.  (t/095_sqlsmith.pl skips in the roots by
# itself, as sqlsmith is on the machine only.)  (t/097_registry_model.pl,
# the model of the registry's protocol, starts no server: SPIN only.)
host_only="t/001_units.pl t/002_facts.pl t/003_vendor.pl t/004_links.pl t/010_concurrency.pl t/011_objectid_concurrency.pl t/012_uuid7_concurrency.pl t/013_capacity.pl t/014_load.pl t/020_clock.pl t/021_sno_clock.pl t/022_sno_bounds.pl t/066_masking.pl t/096_registry_nemesis.pl t/097_registry_model.pl"
# The slowest files first (each took 45 s or more on PostgreSQL 17 in the
# matrix of 2026-12-06, DEVELOPER.md), so that no long one starts last and
# runs alone at the end; then the rest in order.
slow_first="t/096_registry_nemesis.pl t/078_portable.pl t/058_network_faults.pl t/038_crash_loop.pl t/034_faults.pl t/055_registry_amnesia.pl t/080_doc_examples.pl t/036_carry.pl t/090_citus.pl t/014_load.pl t/066_masking.pl t/071_active_active.pl t/039_crash_loop_load.pl t/035_edges.pl t/056_node_registry.pl"
tap_tests=$(for f in $slow_first; do [ -f "$f" ] && echo "$f"; done
	for f in t/*.pl; do [[ " $slow_first " == *" $f "* ]] || echo "$f"; done)
# The files whose subject is uniqueid's own durable state and the
# registry's protocol under faults (crashes in a loop, failed writes, the
# state file's edges, a registry that forgets or fails, network faults) run
# on the two sides of src/compat.h, 15 and the newest version, but not on
# the versions between: 17, 18 and 19 compile the same code for all of it
# (compat.h's differences are 15's against 16's and later, and a header's
# place in 19), the servers' parts these files use (restarts, crash
# recovery, promotion, TCP) are covered on every version by t/030, t/031,
# t/040, t/041 and t/056, and these files cost 280 CPU s and 15 minutes of
# waiting on 17 and 18 (DEVELOPER.md).  UID_TAP_ALL=1 runs them on any
# version.
sides_only="t/034_faults.pl t/035_edges.pl t/038_crash_loop.pl t/039_crash_loop_load.pl t/055_registry_amnesia.pl t/058_network_faults.pl t/059_registry_failures.pl"
if [ -n "${UID_IN_ROOT:-}" ]; then
	tap_tests=$(for f in $tap_tests; do [[ " $host_only " == *" $f "* ]] || echo "$f"; done)
	uid_log "TAP on PostgreSQL $UID_PGVER: every file but the version-independent ones, which ran on 15 ($host_only)"
	newest=${versions[${#versions[@]} - 1]}
	if [ "$UID_PGVER" != "$newest" ] && [ -z "${UID_TAP_ALL:-}" ]; then
		tap_tests=$(for f in $tap_tests; do [[ " $sides_only " == *" $f "* ]] || echo "$f"; done)
		uid_log "and but the durable state's and the registry's faults, which run on 15 and $newest ($sides_only; UID_TAP_ALL=1 runs them here)"
	fi
fi
# The pure codecs' fuzzers (UID_FUZZ_SECONDS each), then the regression
# suite against uniqueid built with the sanitizers and under valgrind
# (test/sanitize.sh: its library in a directory of its own, so the server's
# directories keep this build): version-independent, on the machine itself
# only, one after the other in the background while the TAP files run
# (they took 103 s and 294 s of the 1,404 s of 15's suite in the foreground
# on 2026-12-06; they compute, where the TAP files mostly wait); counted at
# the end.  They start with the TAP files, after the wait for Citus for 15
# (which they slowed, built in the background, when they started before).
if [ -z "${UID_IN_ROOT:-}" ]; then
	uid_log "in the background: fuzzing the codecs (${UID_FUZZ_SECONDS:-30} s per target), then the regression suite against uniqueid built with the sanitizers"
	(
		t=$SECONDS
		uid_cpu_phase "fuzz-$UID_PGVER"
		bash test/fuzz/run.sh "${UID_FUZZ_SECONDS:-30}" >"$W/fuzz.log" 2>&1
		echo "# the fuzzers took $((SECONDS - t)) s" >>"$W/fuzz.log"
		t=$SECONDS
		uid_cpu_phase "sanitize-$UID_PGVER"
		bash test/sanitize.sh >"$W/sanitize.log" 2>&1
		echo "# the sanitizer and valgrind runs took $((SECONDS - t)) s" >>"$W/sanitize.log"
	) &
	bg_checks=$!
fi

# network namespaces and veth pairs for t/058_network_faults.pl, which
# root's daemon makes (test/netns.sh); gone again after the TAP tests
. test/netns.sh && uid_netns_start
uid_log "TAP (t/*.pl, each with servers of its own)"
# UID_TAP_JOBS files at a time, 4 by default: the files wait (for leases,
# renewals, the clock past a horizon, servers starting) far more than they
# compute: on 2 cores, PostgreSQL 17's took 335 s at 4 on an idle machine
# on 2026-12-06, where they had taken 705 s at 2 on a busy one that day;
# each with its time.  Bounds on a hang, wide enough for a machine a few
# times slower than this one (with half its CPU, 15's files took 1,786 s,
# and three ran past bounds made for this one): each file within 30 minutes
# (t/UniqueidTest.pm), the whole within 80; PostgreSQL's test framework
# waits up to 540 s where it waits 180 by default (PG_TEST_TIMEOUT_DEFAULT:
# its polls)
# Their clusters are copies of one initdb each (UID_INITDB_TEMPLATES,
# t/UniqueidTest.pm), each with a system identifier of its own: 0.06 CPU s
# where an initdb took 0.85, for about 100 clusters a version.
# Each file runs in a cpuacct cgroup of its own (test/tap_cpu.sh) where
# root can make them (cgroup v1; in a root too, which uid_root_mount gives
# the machine's cpuacct hierarchy), below the one this script runs in: the CPU seconds
# of its processes and servers, printed after the files, most first, are
# what a file costs the matrix, which the TAP files keep busy
tap_cpu=
if cg=$(uid_cpuacct_own); then
	tap_cpu=$cg/uniqueid-tap.$$
	mkdir "$tap_cpu" && chown postgres: "$tap_cpu" || tap_cpu=
fi
uid_as_owner_for 4800 PG_TEST_TIMEOUT_DEFAULT="${PG_TEST_TIMEOUT_DEFAULT:-540}" UID_CITUS_WHY="${UID_CITUS_WHY:-}" UID_PGTLE_WHY="${UID_PGTLE_WHY:-}" UID_UPGRADE_FROM="$UID_UPGRADE_FROM" UID_NPM_DIR="$UID_NPM_DIR" UID_NPM_ORMS_DIR="$UID_NPM_ORMS_DIR" UID_EXPORTER="$UID_EXPORTER" UID_PROMTOOL="$UID_PROMTOOL" \
	UID_TAP_CPU="$tap_cpu" UID_INITDB_TEMPLATES="$W/initdb-templates" UID_CLIENTS_ELSEWHERE="$([ "$UID_PGVER" = 19 ] && [ -n "${UID_IN_ROOT:-}" ] && echo "built in PostgreSQL 18's suite, in this same root (test/run.sh)")" UID_TAP_PERL="$("$UID_PGBIN/pg_config" --pkglibdir)/pgxs/src/test/perl" \
	make -s installcheck "$PGC" REGRESS= PROVE_TESTS="$(echo $tap_tests)" PROVE_FLAGS="--failures --timer -j${UID_TAP_JOBS:-4} --exec $W/src/test/tap_cpu.sh" 2>&1 | tee "$W/tap.log"
rc=${PIPESTATUS[0]}
if [ -n "$tap_cpu" ]; then
	uid_log "CPU seconds of each TAP file (its processes and its servers), the most first"
	uid_cpu_report "$tap_cpu"
	uid_cgroup_remove "$tap_cpu" kill
	tap_cpu=
fi
count_prove "$W/tap.log" "$rc"
[ "$rc" -ne 0 ] && for f in tmp_check/log/regress_log_*; do
	grep -q 'not ok\|Bail out\|died' "$f" 2>/dev/null && { echo "== $f"; tail -n 40 "$f"; }
done
uid_netns_stop

# pg_regress and pgTAP, from the background
uid_log "waiting for pg_regress and pgTAP"
wait "$bg_regress"
bg_regress=
cat "$W/regress.log" "$W/regress.diffs" 2>/dev/null
p=$(grep -cE '\.\.\. ok|^ok [0-9]' "$W/regress.log" 2>/dev/null)
f=$(grep -cE '\.\.\. FAILED|^not ok' "$W/regress.log" 2>/dev/null)
p=${p:-0}
f=${f:-0}
if [ "$(cat "$W/regress.rc" 2>/dev/null)" != 0 ] && [ "$f" -eq 0 ]; then f=1; fi
passed=$((passed + p))
failed=$((failed + f))
cat "$W/pgtap.log"
count_prove "$W/pgtap.log" "$(cat "$W/pgtap.rc" 2>/dev/null || echo 1)"

# the fuzzers and the sanitizer and valgrind runs, from the background
if [ -n "$bg_checks" ]; then
	uid_log "waiting for the fuzzers and the sanitizer and valgrind runs"
	wait "$bg_checks"
	bg_checks=
	for f in fuzz sanitize; do
		cat "$W/$f.log"
		passed=$((passed + $(grep -c '^ok' "$W/$f.log")))
		failed=$((failed + $(grep -c '^not ok' "$W/$f.log")))
	done
	grep -q '^ok - the regression suite passes against the sanitized build' "$W/sanitize.log" ||
		fail "the sanitizer run ended before its regression suite (its log is above)"
fi

uid_log "done"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
