# test/vendor.sh - the third-party source archives of test/vendor.lock
# (Citus, pgEdge snowflake, pg_uuidv7, pg_tle), for test/run.sh, test/citus.sh, test/pgtle.sh,
# test/roots.sh and bench/run.sh.  Source it (after test/lib.sh, for
# uid_log).
#
#   uid_vendor_get ARCHIVE        sets UID_VENDOR_PATH to the path of ARCHIVE
#                                 (a file name of test/vendor.lock), taken
#                                 from, in order:
#     1. UID_VENDOR, where it is set (a directory of archives);
#     2. ../shared/vendor beside the checkout, where it is (a local mirror;
#        UID_VENDOR_SHARED names another);
#     3. its upstream url, downloaded once into UID_VENDOR_CACHE (default
#        /var/cache/uniqueid/vendor) and checked by commit id and content
#        hash (test/vendor.py); UID_VENDOR_URL replaces the url's scheme and
#        host (a mirror laid out as upstream is), and UID_VENDOR_URL=off
#        downloads nothing.
#                                 Without any, returns 1 with UID_VENDOR_WHY
#                                 saying which archive is missing and how to
#                                 provide it (also on stderr).  (Variables,
#                                 not output: call it in this shell.)
#   uid_vendor_collect DIR [GLOB...]   links into DIR every archive of the
#                                 lock (or those matching a GLOB) that
#                                 uid_vendor_get finds; says which not.
#   uid_vendor_archives           prints the lock's archive names.

UID_VENDOR_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
UID_VENDOR_SHARED=${UID_VENDOR_SHARED:-$(dirname "$UID_VENDOR_TOP")/shared/vendor}
UID_VENDOR_CACHE=${UID_VENDOR_CACHE:-${UID_CACHE:-/var/cache/uniqueid}/vendor}
UID_VENDOR_WHY=
UID_VENDOR_PATH=
declare -F uid_log >/dev/null || uid_log() { printf '== %s\n' "$*" >&2; }

uid_vendor_archives() {
	sed -n 's/^\([^#[:space:]][^[:space:]]*\)[[:space:]].*/\1/p' "$UID_VENDOR_TOP/test/vendor.lock"
}

# uid_vendor_url ARCHIVE: its upstream url in the lock
uid_vendor_url() {
	awk -v a="$1" '$1 == a { print $6 }' "$UID_VENDOR_TOP/test/vendor.lock"
}

uid_vendor_get() {
	local a=$1 url out
	UID_VENDOR_WHY=
	UID_VENDOR_PATH=
	case " $(uid_vendor_archives | tr '\n' ' ') " in
	*" $a "*) ;;
	*) UID_VENDOR_WHY="$a is not in test/vendor.lock"; uid_log "$UID_VENDOR_WHY"; return 1 ;;
	esac
	if [ -n "${UID_VENDOR:-}" ] && [ -f "$UID_VENDOR/$a" ]; then
		UID_VENDOR_PATH=$UID_VENDOR/$a
		return 0
	fi
	if [ -f "$UID_VENDOR_SHARED/$a" ]; then
		UID_VENDOR_PATH=$UID_VENDOR_SHARED/$a
		return 0
	fi
	url=$(uid_vendor_url "$a")
	local how="provide it in a directory that UID_VENDOR names or in $UID_VENDOR_SHARED, or let the harness download it from $url (UID_VENDOR_URL=BASE: from a mirror)"
	local where="not in ${UID_VENDOR:+UID_VENDOR ($UID_VENDOR) nor in }$UID_VENDOR_SHARED"
	if [ -n "${UID_IN_ROOT:-}" ]; then
		# (a Debian root of test/roots.sh gets the archives the machine
		# itself found, in UID_VENDOR: it downloads nothing)
		UID_VENDOR_WHY="$a is missing: the machine outside this root could not provide it (its log says why); there, provide it in a directory that UID_VENDOR names or in ../shared/vendor beside the checkout, or let the harness download it from $url"
	elif [ "${UID_VENDOR_URL:-}" = off ]; then
		UID_VENDOR_WHY="$a is missing: $where, and UID_VENDOR_URL=off downloads nothing; $how"
	elif ! command -v python3 >/dev/null; then
		UID_VENDOR_WHY="$a is missing: $where, and without python3 the harness cannot download and check it; $how"
	elif [ -f "$UID_VENDOR_CACHE/$a" ]; then
		# (downloaded and checked before)
		UID_VENDOR_PATH=$UID_VENDOR_CACHE/$a
		return 0
	elif out=$(python3 "$UID_VENDOR_TOP/test/vendor.py" fetch "$a" "$UID_VENDOR_CACHE" 2>&1 >/dev/null); then
		uid_log "$out"
		UID_VENDOR_PATH=$UID_VENDOR_CACHE/$a
		return 0
	else
		UID_VENDOR_WHY="$a is missing: $where, and $(echo "$out" | tail -n 1); $how"
	fi
	uid_log "$UID_VENDOR_WHY"
	return 1
}

# uid_vendor_locked LOCKFILE SECONDS WHAT FUNCTION: FUNCTION's status, run
# holding LOCKFILE (as root: one build of WHAT at a time, the others wait
# for it, at most SECONDS, then go on saying so)
uid_vendor_locked() {
	local file=$1 secs=$2 what=$3 fn=$4 lock rc
	if [ "$(id -u)" -eq 0 ] && mkdir -p "$(dirname "$file")" 2>/dev/null; then
		exec {lock}>"$file"
		flock -w "$secs" "$lock" || uid_log "$what: another build holds $file after $secs s; going on"
	fi
	"$fn"
	rc=$?
	[ -n "${lock:-}" ] && exec {lock}>&-
	return $rc
}

uid_vendor_collect() {
	local dir=$1 a g match
	shift
	mkdir -p "$dir" || return 1
	for a in $(uid_vendor_archives); do
		if [ $# -gt 0 ]; then
			match=0
			for g in "$@"; do
				# (a glob, unquoted on purpose)
				[[ $a == $g ]] && match=1
			done
			[ $match -eq 1 ] || continue
		fi
		uid_vendor_get "$a" && ln -sf "$UID_VENDOR_PATH" "$dir/$a"
	done
	return 0
}
