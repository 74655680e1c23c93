# test/citus.sh - Citus for the distributed tests (t/090_citus.pl): the
# installed one when there is one, else built once from its source archive
# (test/vendor.lock; test/vendor.sh finds it: UID_VENDOR, ../shared/vendor
# or upstream) and installed into the server being tested.  Source it
# after test/lib.sh; needs root to build.
#
#   uid_citus_ensure    prints what it did; returns 0 when Citus is
#                       installed for $UID_PGBIN's server, 1 when it is not
#                       (with the reason on stderr and in UID_CITUS_WHY,
#                       which the TAP tests' skip message gives)

. "$(dirname "${BASH_SOURCE[0]}")/vendor.sh"
UID_CITUS_BUILD=${UID_CITUS_BUILD:-/var/cache/uniqueid/citus}
# (its configure links lz4, zstd and libcurl, which 18's own headers ask for
# too; the server headers it compiles against include Kerberos, OpenSSL and
# ICU headers.  Its usage statistics, sent with libcurl, are off in the tests.)
UID_CITUS_PACKAGES="liblz4-dev libzstd-dev libkrb5-dev libssl-dev libicu-dev libcurl4-openssl-dev"

# the Citus release that supports a PostgreSQL major version (none for 19
# yet: Citus's work on 19 is on a branch, in no release)
uid_citus_release() {
	case "$1" in
	15) echo 13.2.2 ;;
	16 | 17 | 18) echo 14.0.1 ;;
	*) return 1 ;;
	esac
}

# uid_citus_not WHY: Citus cannot be had, because WHY (UID_CITUS_WHY, stderr)
uid_citus_not() {
	UID_CITUS_WHY=$1
	uid_log "Citus: $1"
	return 1
}

uid_citus_ensure() {
	# (one build at a time for a version: test/run.sh --matrix starts 15's in
	# the background, and the suite's own call waits for it, within 30 minutes)
	uid_vendor_locked "$UID_CITUS_BUILD/pg$UID_PGVER.lock" 1800 Citus uid_citus_ensure_locked
}

uid_citus_ensure_locked() {
	local libdir rel src log archive
	libdir=$("$UID_PGBIN/pg_config" --pkglibdir)
	UID_CITUS_WHY=
	# (one version a release: 13.2.2 on 15, 14.0.1 on 18, the newest it
	# supports; 17 would build and test 14.0.1 again, the same Citus with
	# the same calls of uniqueid: 117 CPU s of the matrix.  In the roots;
	# UID_TAP_ALL=1 tests it there too, as does a machine whose own
	# PostgreSQL is 16 or 17.)
	case "$UID_PGVER" in
	16 | 17)
		[ -n "${UID_IN_ROOT:-}" ] && [ -z "${UID_TAP_ALL:-}" ] &&
			{ uid_citus_not "Citus 14.0.1 is tested on PostgreSQL 18, the newest version it supports (UID_TAP_ALL=1 tests it here)"; return 1; }
		;;
	esac
	if [ -f "$libdir/citus.so" ]; then
		uid_log "Citus: installed ($libdir/citus.so)"
		return 0
	fi
	UID_CITUS_WHY=
	rel=$(uid_citus_release "$UID_PGVER") ||
		uid_citus_not "no Citus release supports PostgreSQL $UID_PGVER" || return 1
	uid_vendor_get "citus-$rel.tar.gz" ||
		uid_citus_not "not installed, and $UID_VENDOR_WHY" || return 1
	archive=$UID_VENDOR_PATH
	[ "$(id -u)" -eq 0 ] || uid_citus_not "not installed; building it needs root" || return 1
	uid_install_packages $UID_CITUS_PACKAGES ||
		uid_citus_not "the packages its build needs could not be installed" || return 1
	src=$UID_CITUS_BUILD/pg$UID_PGVER/citus-$rel
	log=$UID_CITUS_BUILD/pg$UID_PGVER/build.log
	if [ ! -f "$src/src/backend/distributed/citus.so" ]; then
		uid_log "Citus: building $rel for PostgreSQL $UID_PGVER (about 1 minute; log in $log)"
		rm -rf "$src"
		mkdir -p "$UID_CITUS_BUILD/pg$UID_PGVER"
		tar -C "$UID_CITUS_BUILD/pg$UID_PGVER" -xzf "$archive" ||
			uid_citus_not "could not unpack $archive" || return 1
		# PostgreSQL 15.20's dbcommands.h declares have_createdb_privilege(),
		# which Citus 13.2.2 defines as a static function of its own
		# (a static copy of its own, renamed, is enough)
		perl -0pi -e 's/(static inline bool\n)(have_createdb_privilege\(void\))/#define have_createdb_privilege citus_have_createdb_privilege\n$1$2/' \
			"$src/src/include/pg_version_compat.h"
		# (without the LLVM bitcode for JIT inlining, which the tests never
		# use: 108 s of CPU for 13.2.2 on 15, against 193 s with it; and
		# neither optimized nor with debugging information, -O0 -g0 after
		# PostgreSQL's flags: 53 s against 107, make -j1 beside the
		# matrix, on 2026-12-07.  The tests' Citus clusters hold a few
		# rows, so its speed does not show; its behaviour is the same.)
		(cd "$src" && ./configure PG_CONFIG="$UID_PGBIN/pg_config" &&
			make -j2 with_llvm=no COPT="-O0 -g0") >"$log" 2>&1 || {
			tail -n 30 "$log" >&2
			uid_citus_not "the build of $rel failed (log in $log)"
			return 1
		}
	fi
	make -C "$src" with_llvm=no install >>"$log" 2>&1 || uid_citus_not "make install of $rel failed (log in $log)" || return 1
	uid_log "Citus: $rel built and installed"
}

# Run as a script (bash test/citus.sh: test/run.sh --matrix does, in a
# version's root, in the background), it builds and installs Citus for
# UID_PGVER's server, once.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	cd "$(dirname "$0")/.." || exit 2
	. test/lib.sh
	uid_citus_ensure
	exit
fi
