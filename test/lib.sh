# test/lib.sh - shell helpers shared by demo.sh, test/run.sh and bench/run.sh:
# installing packages, building, and a throwaway PostgreSQL cluster that runs
# as the postgres user on a Unix socket in a temporary directory.  (The TAP
# tests manage their servers with PostgreSQL::Test::Cluster: t/.)
# Source it; it defines functions, UID_* variables, and exports LC_ALL (the
# harness's own locale).

UID_PGVER=${UID_PGVER:-15}
UID_PGBIN=${UID_PGBIN:-/usr/lib/postgresql/$UID_PGVER/bin}

# The harness chooses its own locale, one every Debian system has, whatever
# the caller's environment says; clusters are made in UTF-8 with it.
export LC_ALL=C.UTF-8
unset LANGUAGE

uid_log() { printf '== %s\n' "$*" >&2; }

# CPU by phase, for test/run.sh --matrix: UID_CPU_PHASES is a cpuacct cgroup
# (cgroup v1) it makes; uid_cpu_phase NAME moves this shell into
# UID_CPU_PHASES/NAME, so that all it starts from then on is counted there
# (a chroot's processes too: they stay in their caller's cgroup, and
# uid_root_mount gives a root the hierarchy to move them).  Nothing where
# UID_CPU_PHASES is unset or not writable.
uid_cpu_phase() {
	[ -n "${UID_CPU_PHASES:-}" ] && [ -w "$UID_CPU_PHASES" ] || return 0
	mkdir -p "$UID_CPU_PHASES/$1" 2>/dev/null && echo "$BASHPID" 2>/dev/null >"$UID_CPU_PHASES/$1/tasks"
	return 0
}
# uid_cpuacct_own: the cpuacct cgroup (v1) directory this process is in,
# where root may make cgroups below it; fails where cpuacct is no
# hierarchy of its own (under "cpu,cpuacct", as systemd mounts it, each
# cgroup made would get a CPU share of its own) or this is not root
uid_cpuacct_own() {
	local cg
	cg=$(sed -n 's/^[0-9]*:cpuacct:\(.*\)$/\1/p' /proc/self/cgroup 2>/dev/null | head -n 1)
	[ "$(id -u)" -eq 0 ] && [ -n "$cg" ] && [ -w "/sys/fs/cgroup/cpuacct${cg%/}" ] || return 1
	echo "/sys/fs/cgroup/cpuacct${cg%/}"
}
# uid_cpu_report DIR: "# cpu NAME SECONDS" for each cgroup below DIR, the
# most first, then their sum as "(all)"
uid_cpu_report() {
	local g
	for g in "$1"/*/; do
		[ -f "$g/cpuacct.usage" ] && echo "$(basename "$g") $(cat "$g/cpuacct.usage")"
	done | sort -k2,2nr | awk '{ s += $2; printf "# cpu %-32s %7.1f\n", $1, $2 / 1e9 } END { printf "# cpu %-32s %7.1f\n", "(all)", s / 1e9 }'
}
# uid_regress_without FILES: the Makefile's REGRESS without FILES (words),
# on one line; the status says whether any of FILES was in it
uid_regress_without() {
	local all f kept=
	all=$(sed -n 's/^REGRESS = //p' Makefile)
	for f in $all; do [[ " $* " == *" $f "* ]] || kept="$kept $f"; done
	echo $kept
	[ "$(echo $kept | wc -w)" -lt "$(echo $all | wc -w)" ]
}
# uid_cgroup_remove DIR [kill]: a cgroup (v1) and those below it removed,
# deepest first.  A process still in one is moved to DIR's parent (the
# caller's own cgroup: one still cleaning up, or a daemon a package's
# install started, goes on there), or with "kill" (a TAP file's cgroup: a
# server that outlived its test) terminated, then killed.
uid_cgroup_remove() {
	local g i parent
	[ -d "$1" ] || return 0
	parent=$(dirname "$1")
	while read -r g; do
		for i in 1 2 3 4 5 6; do
			rmdir "$g" 2>/dev/null && break
			if [ "${2:-}" = kill ]; then
				xargs -r kill -s "$([ "$i" -le 3 ] && echo TERM || echo KILL)" <"$g/tasks" 2>/dev/null
			else
				while read -r t; do echo "$t" 2>/dev/null >"$parent/tasks"; done <"$g/tasks"
			fi
			sleep 1
		done
	done < <(find "$1" -depth -type d)
	[ ! -d "$1" ] || { uid_log "could not remove $1"; return 1; }
}

# Installs the Debian packages named, when any is missing (needs root then).
uid_install_packages() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		uid_log "missing packages: ${missing[*]}; run as root or install them first"
		return 1
	fi
	uid_log "installing ${missing[*]}"
	# (an install cut short, a matrix stopped while its background installed
	# into a root, say, is finished first; else apt refuses every install)
	flock -o -w 600 "$UID_APT_LOCK" env DEBIAN_FRONTEND=noninteractive dpkg --configure -a >/dev/null 2>&1 || true
	# (sid's Release file may read as expired: the roots use it)
	uid_apt_host -o Acquire::Check-Valid-Until=false update -qq &&
		uid_apt_host install -y -qq "${missing[@]}" >/dev/null
}

# uid_apt_host ARGS...: apt-get ARGS on this machine, one at a time.
# The matrix's jobs install at once, on a fresh machine each its own
# packages, and apt-get update does not wait for the package lists' lock
# (DPkg::Lock::Timeout is dpkg's lock alone): ours queue on a lock of their
# own (not passed on to what apt starts: flock -o), and a lock held by
# another program's apt (unattended-upgrades, say) is waited for, in all
# up to 20 minutes.
UID_APT_LOCK=${UID_APT_LOCK:-/run/lock/uniqueid-apt.lock}
uid_apt_host() {
	local deadline=$((SECONDS + 1200)) err rc said=
	err=$(mktemp) || return 1
	while :; do
		rc=0
		flock -o -E 75 -w 60 "$UID_APT_LOCK" env DEBIAN_FRONTEND=noninteractive \
			apt-get -o DPkg::Lock::Timeout=60 "$@" 2>"$err" || rc=$?
		if [ $rc -ne 0 ] && [ $SECONDS -lt $deadline ] &&
			{ [ $rc -eq 75 ] || grep -q 'Could not get lock' "$err"; }; then
			[ -n "$said" ] || uid_log "waiting for another apt (apt-get $*)"
			said=1
			sleep 3
			continue
		fi
		[ $rc -ne 75 ] || echo "another apt held $UID_APT_LOCK for 20 minutes" >>"$err"
		cat "$err" >&2
		rm -f "$err"
		return $rc
	done
}

# Builds and installs the extension for the server's pg_config.
uid_build_install() {
	make -s PG_CONFIG="$UID_PGBIN/pg_config" all >/dev/null &&
		make -s PG_CONFIG="$UID_PGBIN/pg_config" install >/dev/null
}

# Runs a command as the cluster owner: postgres when we are root, else ourselves.
uid_as_owner() {
	if [ "$(id -u)" -eq 0 ]; then
		runuser -u postgres -- env "$@"
	else
		env "$@"
	fi
}

# uid_as_owner_for SECONDS [VAR=value...] COMMAND...: uid_as_owner, killed
# after SECONDS.
uid_as_owner_for() {
	local secs=$1
	shift
	if [ "$(id -u)" -eq 0 ]; then
		timeout -k 5 "$secs" runuser -u postgres -- env "$@"
	else
		timeout -k 5 "$secs" env "$@"
	fi
}

# Makes a scratch directory the cluster owner can write; prints its path.
uid_tmpdir() {
	local d
	d=$(mktemp -d "${TMPDIR:-/tmp}/uniqueid.XXXXXX") || return 1
	chmod 755 "$d"
	[ "$(id -u)" -eq 0 ] && chown postgres: "$d"
	printf '%s\n' "$d"
}

# uid_cluster_init DIR [extra postgresql.conf lines...]: a new cluster in DIR/data,
# its socket in DIR, listening on no TCP address.
uid_cluster_init() {
	local dir=$1 line
	shift
	uid_as_owner "$UID_PGBIN/initdb" -D "$dir/data" -A trust -U postgres --no-sync \
		--encoding=UTF8 --locale=C.UTF-8 >/dev/null || return 1
	{
		echo "listen_addresses = ''"
		echo "unix_socket_directories = '$dir'"
		echo "port = 5432"
		echo "fsync = off"
		echo "shared_preload_libraries = 'uniqueid'"
		for line in "$@"; do echo "$line"; done
	} | uid_as_owner tee -a "$dir/data/postgresql.conf" >/dev/null
}

# uid_cluster_start DIR [VAR=value...]: starts the cluster with extra
# environment; gives up after 60 s with the server log's end and a message.
uid_cluster_start() {
	local dir=$1
	shift
	uid_as_owner_for 70 "$@" "$UID_PGBIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
		>/dev/null && return 0
	tail -n 20 "$dir/server.log" >&2
	uid_log "the server in $dir did not start within 60 s"
	return 1
}

# uid_cluster_stop DIR: fast shutdown, if running; then immediate, then
# SIGKILL to its postmaster (by its pid file), each bounded in time.
uid_cluster_stop() {
	local pid
	[ -f "$1/data/postmaster.pid" ] || return 0
	uid_as_owner_for 70 "$UID_PGBIN/pg_ctl" -D "$1/data" -m fast -w -t 60 stop >/dev/null && return 0
	uid_as_owner_for 40 "$UID_PGBIN/pg_ctl" -D "$1/data" -m immediate -w -t 30 stop >/dev/null && return 0
	pid=$(head -n 1 "$1/data/postmaster.pid" 2>/dev/null)
	# only if that pid is still this data directory's postmaster
	[ -n "$pid" ] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$1/data" && kill -9 "$pid"
	uid_log "the server in $1 did not stop; killed"
	return 1
}

# uid_psql DIR [psql args...]: psql as postgres on the cluster's socket.
uid_psql() {
	local dir=$1
	shift
	PGOPTIONS="-c client_min_messages=warning" "$UID_PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$dir" -p 5432 -U postgres "$@"
}
