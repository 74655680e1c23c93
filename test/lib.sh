# test/lib.sh - shell helpers shared by demo.sh, test/run.sh and bench/run.sh:
# installing packages, building, and throwaway PostgreSQL clusters that run
# as the postgres user on a Unix socket in a temporary directory.
# Source it; it defines functions and sets nothing else but UID_* variables.

UID_PGVER=${UID_PGVER:-15}
UID_PGBIN=${UID_PGBIN:-/usr/lib/postgresql/$UID_PGVER/bin}
UID_FAKETIME_LIB=/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1

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

# Builds and installs the extension for the server's pg_config.
uid_build_install() {
	make -s PG_CONFIG="$UID_PGBIN/pg_config" >/dev/null &&
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
	uid_as_owner "$UID_PGBIN/initdb" -D "$dir/data" -A trust -U postgres --no-sync >/dev/null || return 1
	{
		echo "listen_addresses = ''"
		echo "unix_socket_directories = '$dir'"
		echo "port = 5432"
		echo "fsync = off"
		echo "shared_preload_libraries = 'uniqueid'"
		for line in "$@"; do echo "$line"; done
	} | uid_as_owner tee -a "$dir/data/postgresql.conf" >/dev/null
}

# uid_cluster_start DIR [VAR=value...]: starts the cluster with extra environment.
uid_cluster_start() {
	local dir=$1
	shift
	uid_as_owner "$@" "$UID_PGBIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null ||
		{ tail -n 20 "$dir/server.log" >&2; return 1; }
}

# uid_cluster_stop DIR: fast shutdown, if running.
uid_cluster_stop() {
	[ -f "$1/data/postmaster.pid" ] || return 0
	uid_as_owner "$UID_PGBIN/pg_ctl" -D "$1/data" -m fast -w -t 60 stop >/dev/null
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
	uid_as_owner "$UID_PGBIN/postgres" -D "$dir/data" >>"$dir/postmaster.log" 2>&1 &
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
