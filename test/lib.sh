# test/lib.sh - shell helpers shared by demo.sh, test/run.sh and bench/run.sh:
# installing packages, building, and throwaway PostgreSQL clusters that run
# as the postgres user on a Unix socket in a temporary directory.
# Source it; it defines functions, UID_* variables, and exports LC_ALL (the
# harness's own locale).

UID_PGVER=${UID_PGVER:-15}
UID_PGBIN=${UID_PGBIN:-/usr/lib/postgresql/$UID_PGVER/bin}
# the clock tests' preload library (test/clockshift.c, built by make)
UID_CLOCK_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/clockshift.so

# The harness chooses its own locale, one every Debian system has, whatever
# the caller's environment says; clusters are made in UTF-8 with it.
export LC_ALL=C.UTF-8
unset LANGUAGE

uid_log() { printf '== %s\n' "$*" >&2; }

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
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# Builds and installs the extension for the server's pg_config, and the
# clock tests' preload library.
uid_build_install() {
	make -s PG_CONFIG="$UID_PGBIN/pg_config" all test/clockshift.so >/dev/null &&
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

# uid_clock_set DIR SECONDS: the wall clock of every process started with
# uid_clock_env DIR reads SECONDS (may be fractional or negative) off the
# real clock from now on (within a millisecond).
uid_clock_set() {
	local us
	us=$(awk -v s="$2" 'BEGIN { printf "%.0f", s * 1000000 }')
	echo "$us" >"$1/clock.tmp" && chmod 644 "$1/clock.tmp" && mv -f "$1/clock.tmp" "$1/clock"
}

# uid_clock_env DIR: the environment that puts a server on DIR's clock
# (uid_clock_set), for uid_cluster_start and uid_postmaster_start.
uid_clock_env() {
	[ -f "$1/clock" ] || uid_clock_set "$1" 0
	echo "LD_PRELOAD=$UID_CLOCK_LIB" "UID_CLOCK_FILE=$1/clock"
}

# uid_psql DIR [psql args...]: psql as postgres on the cluster's socket.
uid_psql() {
	local dir=$1
	shift
	PGOPTIONS="-c client_min_messages=warning" "$UID_PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$dir" -p 5432 -U postgres "$@"
}

# uid_postmaster_start DIR: runs the postmaster of DIR as a child of this
# shell, so that once killed it is reaped here (uid_server_kill) and leaves no
# zombie holding its lock file; waits until it accepts connections.
uid_postmaster_start() {
	local dir=$1
	shift
	uid_as_owner "$@" "$UID_PGBIN/postgres" -D "$dir/data" >>"$dir/postmaster.log" 2>&1 &
	UID_PM_JOB=$!
	for _ in $(seq 1 100); do
		"$UID_PGBIN/pg_isready" -q -h "$dir" -p 5432 && return 0
		sleep 0.1
	done
	return 1
}

# uid_server_kill DIR [all]: SIGKILL to the postmaster started by
# uid_postmaster_start (with "all", to its backends at the same instant, as a
# power cut would), reaps it and waits up to 10 s for its backends to end.
# Succeeds once every process of the server is gone.
uid_server_kill() {
	local dir=$1 pm children c alive=1
	pm=$(head -n 1 "$dir/data/postmaster.pid")
	children=$(pgrep -P "$pm" | tr '\n' ' ')
	if [ "${2:-}" = all ]; then kill -9 "$pm" $children; else kill -9 "$pm"; fi
	wait "$UID_PM_JOB" 2>/dev/null
	UID_PM_JOB=""
	for _ in $(seq 1 100); do
		alive=0
		for c in $children; do kill -0 "$c" 2>/dev/null && alive=1; done
		[ $alive -eq 0 ] && break
		sleep 0.1
	done
	[ $alive -eq 0 ] && ! kill -0 "$pm" 2>/dev/null
}
