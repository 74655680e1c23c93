# test/netns.sh - network namespaces for t/058_network_faults.pl, whose
# servers talk TCP over veth pairs that the test takes down and up.  The
# TAP tests run as postgres, which cannot enter a namespace, and their
# servers talk over Unix sockets, which namespaces do not separate; so a
# small daemon, run by root, makes the namespaces and links the test asks
# for and starts its servers inside them.
#
#   . test/netns.sh; uid_netns_start; ...; uid_netns_stop    (test/run.sh)
#   bash test/netns.sh COMMAND [ARGS...]    COMMAND with the daemon, e.g.
#     bash test/netns.sh runuser -u postgres -- make installcheck REGRESS= PROVE_TESTS=t/058_network_faults.pl
#
# uid_netns_start exports UID_NETNS, the daemon's directory (root's, 0755),
# or, where it cannot start one (not root; no ip, unshare or nsenter; the
# kernel refuses a network namespace or a veth pair), UID_NETNS_WHY, which
# the test's skip message gives.  The daemon reads lines "ID VERB ARGS..."
# from the FIFO UID_NETNS/cmd (written by the postgres group only) and
# answers each in UID_NETNS/r.ID, "ok ..." or "error WHY":
#
#   ns NAME              a network namespace with its loopback up
#   link NAME1 NAME2     a veth pair between two: "ok ADDR1 ADDR2", the
#                        addresses of NAME1's end and NAME2's (10.231.K.1/30
#                        and .2 for the K-th link)
#   down NAME PEER       NAME's end of its link to PEER down: PEER's end sees
#                        no carrier and its packets vanish (its connections
#                        stay open, unanswered), NAME has no route to PEER
#   up NAME PEER         that end up again
#   start NAME DATADIR LOGFILE BINDIR CLUSTER
#                        BINDIR/pg_ctl -w start of DATADIR as postgres inside
#                        namespace NAME (--cluster-name=CLUSTER)
#   free NAME            the namespace given up (its holding process ends;
#                        it goes when the last process in it has)
#
# Nothing is made in the machine's own network namespace, and nothing is
# mounted: each namespace is anonymous, held by a process of the daemon
# (`uidnf-NAME` in ps), and a veth pair has its two ends inside two of them,
# so that both go away with the last process inside.  (Not `ip netns`: in
# test/roots.sh's roots its exec fails, a chroot's / being no mount point
# to make a slave of, and its /run/netns mount would stay in the root.)
# When its parent ends (within a second) or at uid_netns_stop, the daemon
# stops the servers it started that still run (pg_ctl -m immediate by data
# directory, only while the pid file's postmaster is still that data
# directory's) and ends its holding processes.  Needs root; works inside
# test/roots.sh's roots too (the kernel's namespaces do not depend on the
# file system), where iproute2 is installed on first use.

# uid_netns_why: why no namespace can be made here (empty when one can)
uid_netns_why() {
	local t
	[ "$(id -u)" -eq 0 ] || { echo "network namespaces need root (test/run.sh runs as root)"; return; }
	if ! command -v ip >/dev/null && declare -F uid_install_packages >/dev/null; then
		uid_install_packages iproute2 >&2
	fi
	for t in ip unshare nsenter runuser timeout; do
		command -v "$t" >/dev/null || { echo "$t is missing"; return; }
	done
	t=$(unshare --net -- ip link add uidnf-probe type veth peer name uidnf-probe2 2>&1) ||
		echo "the kernel makes no network namespace with a veth pair here: ${t:-unshare --net failed}"
}

# uid_netns_start: the daemon, for the rest of this shell's life; exports
# UID_NETNS or UID_NETNS_WHY.  Returns 0 either way.
uid_netns_start() {
	local why
	unset UID_NETNS UID_NETNS_WHY
	why=$(uid_netns_why)
	if [ -n "$why" ]; then
		export UID_NETNS_WHY=$why
		printf '== network namespaces: %s; t/058_network_faults.pl skips what needs them\n' "$why" >&2
		return 0
	fi
	UID_NETNS=$(mktemp -d "${TMPDIR:-/tmp}/uidnf.XXXXXX") && chmod 755 "$UID_NETNS" &&
		mkfifo -m 600 "$UID_NETNS/cmd" && chgrp postgres "$UID_NETNS/cmd" && chmod 620 "$UID_NETNS/cmd" ||
		{ export UID_NETNS_WHY="could not make the daemon's directory"; unset UID_NETNS; return 0; }
	uid_netns_daemon "$UID_NETNS" "$$" </dev/null >"$UID_NETNS/log" 2>&1 &
	echo $! >"$UID_NETNS/pid"
	export UID_NETNS
	printf '== network namespaces: daemon %s in %s\n' "$!" "$UID_NETNS" >&2
	return 0
}

# uid_netns_stop: ends the daemon (which stops what it started) and removes
# its directory; waits at most 60 s.
uid_netns_stop() {
	local pid i
	[ -n "${UID_NETNS:-}" ] && [ -f "$UID_NETNS/pid" ] || return 0
	pid=$(cat "$UID_NETNS/pid")
	kill -TERM "$pid" 2>/dev/null
	for i in $(seq 600); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$pid" 2>/dev/null && { echo "== network namespaces: daemon $pid did not end; killed" >&2; kill -KILL "$pid"; }
	# (its errors, and what it stopped)
	grep -v ': ok' "$UID_NETNS/log" | sed 's/^/== netns: /' >&2
	rm -rf "$UID_NETNS"
	unset UID_NETNS
}

# ---- the daemon (a background subshell) ----

# uid_netns_daemon DIR PARENT: serves DIR/cmd until TERM, "quit" or PARENT's end.
uid_netns_daemon() {
	local dir=$1 parent=$2 id verb a b c d e reply
	# (global in this subshell: the commands and the exit trap read them)
	declare -gA ns=() link=() started=()
	links=0
	trap 'uid_netns_cleanup' EXIT
	trap 'exit 0' TERM INT HUP
	echo "$(date +%T) daemon $BASHPID for $parent"
	# the parent's end, told through the FIFO (a read with a timeout could
	# lose the start of a line that arrives as it times out)
	(
		while kill -0 "$parent" 2>/dev/null; do sleep 1; done
		timeout 10 sh -c 'echo "0 quit" >"$1"' sh "$dir/cmd"
	) </dev/null &
	watcher=$!
	# (open for writing too: no end of file when a writer closes it)
	exec 3<>"$dir/cmd"
	while read -r -u 3 id verb a b c d e; do
		# (its parent gone: nobody else removes the directory)
		[ "$verb" = quit ] && { rm -rf "$dir"; exit 0; }
		reply="error"
		uid_netns_do "$verb" "$a" "$b" "$c" "$d" "$e" 3<&-
		uid_netns_reply "$dir" "$id" "$reply"
	done
}

# uid_netns_reply DIR ID TEXT: TEXT into DIR/r.ID, whole (renamed into place)
uid_netns_reply() {
	[[ $2 =~ ^[A-Za-z0-9_.-]{1,64}$ ]] || { echo "bad request id: $2"; return; }
	printf '%s\n' "$3" >"$1/.r.$2" && chmod 644 "$1/.r.$2" && mv -f "$1/.r.$2" "$1/r.$2"
	echo "$(date +%T.%N | cut -c1-12) $2: $3"
}

# uid_netns_in NAME COMMAND...: COMMAND inside namespace NAME
uid_netns_in() { nsenter --net="/proc/${ns[$1]}/ns/net" -- "${@:2}"; }

# uid_netns_path PATH: true for an absolute path of plain characters
uid_netns_path() { [[ $1 =~ ^/[A-Za-z0-9_./-]+$ && $1 != *..* ]]; }

# uid_netns_do VERB ARGS...: one command, in the daemon's shell (it keeps
# what it made); its answer in reply
uid_netns_do() {
	local verb=$1 a=$2 b=$3 c=$4 d=$5 e=$6 k out
	case "$verb" in
	ns)
		[[ $a =~ ^[a-z][a-z0-9]{0,9}$ ]] || { reply="error bad namespace name: $a"; return; }
		[ -z "${ns[$a]:-}" ] || { reply="error namespace $a exists"; return; }
		[ ${#ns[@]} -lt 16 ] || { reply="error too many namespaces"; return; }
		unshare --net -- bash -c "ip link set lo up && exec -a uidnf-$a sleep 2147483647" </dev/null >/dev/null 2>&1 &
		ns[$a]=$!
		# (up once its loopback is, which it does before sleeping)
		for k in $(seq 50); do
			[ "$(readlink "/proc/${ns[$a]}/exe" 2>/dev/null)" = "$(readlink -f "$(command -v sleep)")" ] && break
			sleep 0.05
		done
		kill -0 "${ns[$a]}" 2>/dev/null && reply=ok || { unset "ns[$a]"; reply="error no namespace"; }
		;;
	link)
		[ -n "${ns[$a]:-}" ] && [ -n "${ns[$b]:-}" ] && [ "$a" != "$b" ] || { reply="error no namespaces $a and $b"; return; }
		[ -z "${link[$a $b]:-}${link[$b $a]:-}" ] || { reply="error $a and $b are linked"; return; }
		[ $links -lt 250 ] || { reply="error too many links"; return; }
		links=$((links + 1))
		k=$links
		out=$(ip link add "to-$b" netns "${ns[$a]}" type veth peer name "to-$a" netns "${ns[$b]}" 2>&1 &&
			uid_netns_in "$a" ip addr add "10.231.$k.1/30" dev "to-$b" 2>&1 &&
			uid_netns_in "$b" ip addr add "10.231.$k.2/30" dev "to-$a" 2>&1 &&
			uid_netns_in "$a" ip link set "to-$b" up 2>&1 &&
			uid_netns_in "$b" ip link set "to-$a" up 2>&1) || { reply="error $out"; return; }
		link[$a $b]=$k
		reply="ok 10.231.$k.1 10.231.$k.2"
		;;
	down | up)
		[ -n "${ns[$a]:-}" ] && [ -n "${link[$a $b]:-}${link[$b $a]:-}" ] || { reply="error no link $a $b"; return; }
		out=$(uid_netns_in "$a" ip link set "to-$b" "$verb" 2>&1) || { reply="error $out"; return; }
		reply=ok
		;;
	start)
		[ -n "${ns[$a]:-}" ] || { reply="error no namespace $a"; return; }
		uid_netns_path "$b" && [ -d "$b" ] && [ "$(stat -c %U "$b")" = postgres ] || { reply="error bad data directory: $b"; return; }
		uid_netns_path "$c" && [ "$(stat -c %U "$(dirname "$c")")" = postgres ] || { reply="error bad log file: $c"; return; }
		uid_netns_path "$d" && [ -x "$d/pg_ctl" ] || { reply="error bad bindir: $d"; return; }
		[[ $e =~ ^[A-Za-z0-9_-]{1,40}$ ]] || { reply="error bad cluster name: $e"; return; }
		started[$b]=$d
		out=$(timeout -k 5 90 nsenter --net="/proc/${ns[$a]}/ns/net" -- runuser -u postgres -- \
			env -i PATH="$d:/usr/bin:/bin" LC_ALL=C.UTF-8 HOME="$(getent passwd postgres | cut -d: -f6)" \
			"$d/pg_ctl" -w -t 60 -D "$b" -l "$c" -o "--cluster-name=$e" start 2>&1) ||
			{ reply="error pg_ctl: $(echo "$out" | tail -n 3 | tr '\n' ' ')"; return; }
		reply=ok
		;;
	free)
		[ -n "${ns[$a]:-}" ] || { reply="error no namespace $a"; return; }
		kill "${ns[$a]}" 2>/dev/null
		for k in "${!link[@]}"; do
			[[ " $k " == *" $a "* ]] && unset "link[$k]"
		done
		unset "ns[$a]"
		reply=ok
		;;
	*) reply="error unknown command: $verb" ;;
	esac
}

# the daemon's end: the servers it started that still run, then the namespaces
uid_netns_cleanup() {
	local dir pid
	for dir in "${!started[@]}"; do
		[ -f "$dir/postmaster.pid" ] || continue
		pid=$(head -n 1 "$dir/postmaster.pid")
		[ -n "$pid" ] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$dir" || continue
		echo "stopping the server of $dir (postmaster $pid)"
		timeout -k 5 40 runuser -u postgres -- "${started[$dir]}/pg_ctl" -D "$dir" -m immediate -w -t 30 stop >/dev/null ||
			{ tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$dir" && kill -KILL "$pid"; }
	done
	for dir in "${!ns[@]}"; do
		kill "${ns[$dir]}" 2>/dev/null
	done
	kill "$watcher" 2>/dev/null
	echo "$(date +%T) daemon $BASHPID ends"
}

# run as a command: the daemon around COMMAND
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	[ $# -gt 0 ] || { sed -n '2,/^$/ s/^# \{0,1\}//p' "$0"; exit 2; }
	uid_netns_start
	trap 'uid_netns_stop' EXIT
	"$@"
fi
