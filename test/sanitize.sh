#!/usr/bin/env bash
# test/sanitize.sh - uniqueid built with UndefinedBehaviorSanitizer (gcc's,
# any finding fatal) through the whole regression suite (pg_regress), in a
# throwaway cluster whose server preloads its runtime; then the same build
# under valgrind's memcheck for a battery of the regression files (the
# others are too slow under it), counting the reports whose stack passes
# through uniqueid.  (AddressSanitizer cannot be preloaded into Debian's
# server: it deadlocks in bindtextdomain before main does anything.)
# Prints "ok - ..." or "not ok - ..." per check; run by test/run.sh on the
# machine itself, beside the TAP files: the sanitized library is installed
# under a directory of its own (make install prefix=DIR) and found there
# through the servers' dynamic_library_path (the control file names
# 'uniqueid', without $libdir), so the server's own directories keep the
# normal build, which the other tests load meanwhile; the control file and
# scripts are the installed ones (the extension installed from this tree
# first).
#
#   bash test/sanitize.sh
set -u
cd "$(dirname "$0")/.." || exit 2
. test/lib.sh
PGC="PG_CONFIG=$UID_PGBIN/pg_config"
S=$(uid_tmpdir) || exit 2
cleanup() {
	uid_cluster_stop "$S"
	rm -rf "$S"
}
trap cleanup EXIT
# mapped DIR WHAT: a check that the postmaster of the cluster in DIR runs
# the sanitized library, not the server's own
mapped() {
	local pid
	pid=$(head -n 1 "$1/data/postmaster.pid" 2>/dev/null)
	if [ -n "$pid" ] && grep -q "$S/inst/lib/uniqueid.so" "/proc/$pid/maps" 2>/dev/null; then
		echo "ok - $2 runs the sanitized library ($S/inst/lib/uniqueid.so)"
	else
		echo "not ok - $2 does not run the sanitized library ($S/inst/lib/uniqueid.so)"
	fi
}

mkdir "$S/src"
tar --exclude=.git --exclude='*.o' --exclude='*.so' --exclude='*.bc' --exclude=./results \
	--exclude=./tmp_check -cf - . | tar -C "$S/src" -xf -
[ "$(id -u)" -eq 0 ] && chown -R postgres: "$S/src"
flags="-g -fno-omit-frame-pointer -fsanitize=undefined -fno-sanitize-recover=all"
uid_log "build with $flags"
if ! uid_as_owner make -C "$S/src" "$PGC" with_llvm=no PG_CFLAGS="$flags" all >"$S/build.log" 2>&1 ||
	! uid_as_owner make -s -C "$S/src" "$PGC" with_llvm=no install prefix="$S/inst" >/dev/null; then
	tail -n 30 "$S/build.log"
	echo "not ok - uniqueid builds with the sanitizers"
	exit 1
fi

# the runtimes first in the server's library list; reports to files in $S
runtimes="$(gcc -print-file-name=libubsan.so)"
libpath="dynamic_library_path = '$S/inst/lib:\$libdir'"
uid_cluster_init "$S" "jit = off" "$libpath" &&
	uid_cluster_start "$S" LD_PRELOAD="$runtimes" \
		ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:log_path=$S/report" \
		UBSAN_OPTIONS="print_stacktrace=1:log_path=$S/report" ||
	{ echo "not ok - a server with the sanitized build starts"; exit 1; }
mapped "$S" "the server"

uid_log "pg_regress against the sanitized build"
uid_as_owner_for 1200 PGHOST="$S" PGPORT=5432 PGUSER=postgres \
	make -s -C "$S/src" "$PGC" installcheck TAP_TESTS= >"$S/regress.log" 2>&1
rc=$?
uid_cluster_stop "$S"
n=$(grep -cE '\.\.\. ok|^ok [0-9]' "$S/regress.log")
if [ $rc -eq 0 ]; then
	echo "ok - the regression suite passes against the sanitized build ($n tests)"
else
	cat "$S/regress.log"
	[ -f "$S/src/regression.diffs" ] && head -n 100 "$S/src/regression.diffs"
	echo "not ok - the regression suite fails against the sanitized build"
fi
reports=$(ls "$S"/report.* 2>/dev/null | wc -l)
found=$(grep -cE 'runtime error:' "$S/server.log")
if [ "$reports" -eq 0 ] && [ "$found" -eq 0 ]; then
	echo "ok - no UndefinedBehaviorSanitizer report"
else
	cat "$S"/report.* 2>/dev/null | head -n 60
	grep -E -A20 'runtime error:' "$S/server.log" | head -n 60
	echo "not ok - $reports UndefinedBehaviorSanitizer report files, $found reports in the server log"
fi

# valgrind: the server started by hand under it (pg_ctl would start it
# without), every backend a fork of it, so under it too
# (but upgrade: its walk from 1.0 and its comparison of every object's
# definition spend their time in PostgreSQL's DDL and catalogs, 10 minutes
# of valgrind with half of the CPU of DEVELOPER.md's machine; the C code it
# reaches besides, the utility hook, serial reaches too, and the sanitized
# run above takes upgrade as well.  The others expect the extension that
# upgrade leaves: valgrind_setup, a file of this copy only, creates it.
# And but security: three more CREATE EXTENSIONs of the script that
# valgrind_setup runs, through the same utility hook, in databases and
# schemas of their own, 156 s with half the CPU, where the C code it
# reaches besides, make_shardid, id_encode, lexical_add and BRIN, the
# battery's types, shortcode and opclass reach; the sanitized run takes it
# too.)
printf -- "-- valgrind's battery: the extension, as upgrade leaves it\nCREATE EXTENSION uniqueid;\n" >"$S/src/test/sql/valgrind_setup.sql" &&
	cp "$S/src/test/sql/valgrind_setup.sql" "$S/src/test/expected/valgrind_setup.out" || { echo "not ok - valgrind_setup"; exit 1; }
battery="valgrind_setup types opclass casts binary_io generator guc sno families shortcode objectid uuid7 peer_families minmax_plans floor input_validity core_uuid privileges masking serial"
V=$S/vg
# (its CPU counted apart in test/run.sh --matrix)
uid_cpu_phase "valgrind-$UID_PGVER"
mkdir "$V" && chown postgres: "$V" 2>/dev/null
uid_cluster_init "$V" "jit = off" "$libpath" || { echo "not ok - a cluster for valgrind"; exit 1; }
uid_as_owner LD_PRELOAD="$runtimes" UBSAN_OPTIONS="print_stacktrace=1:log_path=$S/report" \
	setsid valgrind --quiet --error-limit=no --suppressions="$S/src/test/valgrind.supp" --num-callers=40 --log-file="$V/memcheck.%p" \
	"$UID_PGBIN/postgres" -D "$V/data" >"$V/server.log" 2>&1 &
for _ in $(seq 1 120); do
	"$UID_PGBIN/pg_isready" -q -h "$V" -p 5432 && break
	sleep 1
done
mapped "$V" "the server under valgrind"
uid_log "pg_regress under valgrind: $battery"
uid_as_owner_for 2400 PGHOST="$V" PGPORT=5432 PGUSER=postgres \
	make -s -C "$S/src" "$PGC" installcheck TAP_TESTS= REGRESS="$battery" >"$V/regress.log" 2>&1
rc=$?
uid_cluster_stop "$V"
n=$(grep -cE '\.\.\. ok|^ok [0-9]' "$V/regress.log")
if [ $rc -eq 0 ]; then
	echo "ok - $n regression files pass under valgrind"
else
	cat "$V/regress.log"
	echo "not ok - the regression battery fails under valgrind"
fi
# memcheck's reports (blocks of lines), those through uniqueid's code
ours='uniqueid\.so|\((basen|codec|layout|id64|shardid|sno|objectid|spreadid|shortcode|clock|generator|horizon|guc|uuid7|module|ff1|maskcode|mask|serial)\.c:[0-9]+\)'
ours_only() {
	cat "$V"/memcheck.* 2>/dev/null | awk -v re="$ours" '
		/^==[0-9]+== [A-Z]/ { if (block ~ re) print block; block = "" }
		{ block = block "\n" $0 }
		END { if (block ~ re) print block }'
}
mine=$(ours_only | grep -cE '^==[0-9]+== [A-Z]')
all=$(cat "$V"/memcheck.* 2>/dev/null | grep -cE '^==[0-9]+== [A-Z]')
if [ "$mine" -eq 0 ]; then
	echo "ok - valgrind reports nothing in uniqueid's code ($all reports in PostgreSQL's own, which Debian builds without valgrind support)"
else
	ours_only | head -n 120
	echo "not ok - valgrind reports $mine errors in uniqueid's code"
fi
exit 0
