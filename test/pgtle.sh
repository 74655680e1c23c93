# test/pgtle.sh - pg_tle (Trusted Language Extensions) for the SQL edition's
# pg_tle extension (t/098_pgtle.pl, t/078, t/079): the installed one when
# there is one, else built from its source archive (test/vendor.lock;
# test/vendor.sh finds it) and installed into the server being tested, on
# every version of the matrix.  Source it after test/lib.sh; needs root to
# build.
#
#   uid_pgtle_ensure    returns 0 when pg_tle is installed for $UID_PGBIN's
#                       server, 1 when it is not (with the reason on stderr
#                       and in UID_PGTLE_WHY, which the tests' skip message
#                       gives)

. "$(dirname "${BASH_SOURCE[0]}")/vendor.sh"
UID_PGTLE_ARCHIVE=pg_tle-2f4b7b3.tar.gz
UID_PGTLE_PACKAGES="flex libkrb5-dev libssl-dev libicu-dev"

# uid_pgtle_not WHY: pg_tle cannot be had, because WHY
uid_pgtle_not() {
	UID_PGTLE_WHY=$1
	uid_log "pg_tle: $1"
	return 1
}

uid_pgtle_ensure() {
	# (one build at a time for a version: test/run.sh --matrix builds it in
	# the background, and the suite's own call waits for that, within 10
	# minutes)
	uid_vendor_locked "${UID_CACHE:-/var/cache/uniqueid}/pgtle-pg$UID_PGVER.lock" 600 pg_tle uid_pgtle_ensure_locked
}

uid_pgtle_ensure_locked() {
	local libdir sharedir src log
	UID_PGTLE_WHY=
	libdir=$("$UID_PGBIN/pg_config" --pkglibdir)
	sharedir=$("$UID_PGBIN/pg_config" --sharedir)
	if [ -f "$libdir/pg_tle.so" ] && [ -f "$sharedir/extension/pg_tle--1.5.2--1.5.3.sql" ]; then
		uid_log "pg_tle: installed ($libdir/pg_tle.so)"
		return 0
	fi
	uid_vendor_get "$UID_PGTLE_ARCHIVE" ||
		uid_pgtle_not "not installed, and $UID_VENDOR_WHY" || return 1
	[ "$(id -u)" -eq 0 ] || uid_pgtle_not "not installed; building it needs root" || return 1
	# (its guc-file.l needs flex, and its clientauth.c the server's libpq-be.h,
	# which includes the Kerberos, OpenSSL and ICU headers: the server's dev
	# package pulls in none of them)
	uid_install_packages $UID_PGTLE_PACKAGES ||
		uid_pgtle_not "the packages its build needs ($UID_PGTLE_PACKAGES) could not be installed" || return 1
	src=$(mktemp -d) || return 1
	log=$src/build.log
	tar -C "$src" -xzf "$UID_VENDOR_PATH" ||
		{ rm -rf "$src"; uid_pgtle_not "could not unpack $UID_VENDOR_PATH"; return 1; }
	# (without the LLVM bitcode for JIT inlining, which the tests never use)
	if ! (cd "$src"/pg_tle-* && make -j2 PG_CONFIG="$UID_PGBIN/pg_config" with_llvm=no &&
		make PG_CONFIG="$UID_PGBIN/pg_config" with_llvm=no install) >"$log" 2>&1; then
		tail -n 30 "$log" >&2
		rm -rf "$src"
		uid_pgtle_not "the build of $UID_PGTLE_ARCHIVE for PostgreSQL $UID_PGVER failed"
		return 1
	fi
	rm -rf "$src"
	uid_log "pg_tle: built from $UID_PGTLE_ARCHIVE and installed"
}

# Run as a script (bash test/pgtle.sh: test/run.sh --matrix does, on the
# machine and in each version's root, in the background), it builds and
# installs pg_tle for UID_PGVER's server, once.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	cd "$(dirname "$0")/.." || exit 2
	. test/lib.sh
	uid_pgtle_ensure
	exit
fi
