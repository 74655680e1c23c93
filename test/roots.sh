# test/roots.sh - Debian roots for the PostgreSQL versions the machine does
# not have: 17 from Debian 13 (trixie), and 18 and 19 from one root of sid
# with experimental's postgresql-19 packages (sid-19), made with debootstrap from the archive the machine's own apt uses, kept in
# a cache directory (UID_CACHE, default /var/cache/uniqueid) and reused by
# later runs.  Source it; it defines functions and UID_* variables only.
# Needs root.

UID_CACHE=${UID_CACHE:-/var/cache/uniqueid}
# what a root needs besides the server: the build, the tests' tools
UID_ROOT_PACKAGES="make gcc libc6-dev procps perl libipc-run-perl libtap-parser-sourcehandler-pgtap-perl iproute2"

uid_log() { printf '== %s\n' "$*" >&2; }
# (uid_install_packages: the host's apt, one at a time)
declare -F uid_install_packages >/dev/null || . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# the third-party source archives that uid_root_exec copies into a root
. "$(dirname "${BASH_SOURCE[0]}")/vendor.sh"

# uid_root_suite VERSION: the Debian suite that carries PostgreSQL VERSION.
uid_root_suite() {
	case "$1" in
	17) echo trixie ;;
	18 | 19) echo sid ;;
	*) return 1 ;;
	esac
}

# uid_root_experimental VERSION: true when VERSION's server packages come
# from experimental: only those (the binaries of source package
# postgresql-VERSION, which include the libpq5 and libpq-dev its client and
# headers need), everything else from the suite.  No version is named, so
# the root takes whatever experimental (or, later, the suite) has.
uid_root_experimental() { [ "$1" = 19 ]; }

# uid_root_pgtap_packaged VERSION: false when Debian has no
# postgresql-VERSION-pgtap: the root builds pgTAP from Debian's pgtap source
# package then.
uid_root_pgtap_packaged() { [ "$1" != 19 ]; }

# uid_root_owner VERSION: the version whose root VERSION's suite runs in:
# 18's in 19's, sid with experimental's postgresql-19 (and so 19's libpq5,
# as apt.postgresql.org gives every server the newest libpq), where 19's
# suite installs sid's 18 anyway, for pg_upgrade from 18; 18's suite
# installs its server, headers and pgTAP there (test/run.sh --install)
# before anything else of 18's runs there.  One root of sid is made and
# filled, not two (80 CPU s of the matrix and 2 GB); the root of sid that
# 18 had before is removed (uid_root_retire).
uid_root_owner() {
	if [ "$1" = 18 ]; then echo 19; else echo "$1"; fi
}
# uid_root_retire: removes, under its lock, the root no version uses any
# more: roots/sid, 18's before it moved into 19's (about 2 GB)
uid_root_retire() {
	local d=$UID_CACHE/roots/sid
	[ -d "$d" ] || return 0
	uid_log "removing $d: no version's root any more (18's suite runs in 19's root)"
	uid_root_lock "$d" uid_root_remove "$d" && rm -f "$d.log"
}
# uid_root_dir VERSION: where the root of VERSION lives (a root that takes
# packages from experimental is one of its own, SUITE-VERSION).
uid_root_dir() {
	local suite v
	v=$(uid_root_owner "$1")
	suite=$(uid_root_suite "$v") || return 1
	if uid_root_experimental "$v"; then
		echo "$UID_CACHE/roots/$suite-$v"
	else
		echo "$UID_CACHE/roots/$suite"
	fi
}

# The archive the machine's apt reads (deb822 or one-line sources).
uid_root_mirror() {
	local m
	m=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/*.sources 2>/dev/null)
	[ -n "$m" ] || m=$(awk '$1 == "deb" { print $2; exit }' /etc/apt/sources.list 2>/dev/null)
	echo "$m"
}

# uid_root_mount DIR / uid_root_umount DIR: the kernel's file systems inside
# the root, and taking them away again (only what is mounted there).
uid_root_mount() {
	local d=$1 m
	for m in proc sys dev dev/pts dev/shm; do
		mountpoint -q "$d/$m" && continue
		mkdir -p "$d/$m"
		mount --bind "/$m" "$d/$m" || return 1
	done
	# and cgroup v1's cpuacct hierarchy where the machine has one of its
	# own, so that test/run.sh counts the CPU of each TAP file and phase
	# in a root as on the machine (/sys's bind has none of its mounts; a
	# tmpfs of the root's own on its fs/cgroup holds the mount point)
	# (not where systemd joins it with cpu: cpuacct is then a symlink to
	# cpu,cpuacct, which test/run.sh does not use).  Only for counting: a
	# root that cannot have it goes without, its CPU uncounted.
	if [ ! -L /sys/fs/cgroup/cpuacct ] && mountpoint -q /sys/fs/cgroup/cpuacct &&
		[ -f /sys/fs/cgroup/cpuacct/cpuacct.usage ] && ! mountpoint -q "$d/sys/fs/cgroup/cpuacct"; then
		# (the root's /sys private first: where the machine's mounts are
		# shared, as systemd makes them, the tmpfs would cover its own)
		mount --make-private "$d/sys" &&
			{ mountpoint -q "$d/sys/fs/cgroup" || mount -t tmpfs -o size=64k,mode=755 uniqueid-cgroup "$d/sys/fs/cgroup"; } &&
			mkdir -p "$d/sys/fs/cgroup/cpuacct" && mount --bind /sys/fs/cgroup/cpuacct "$d/sys/fs/cgroup/cpuacct" || {
			uid_log "the root $d goes without the cpuacct hierarchy: its CPU is not counted"
			mountpoint -q "$d/sys/fs/cgroup/cpuacct" && umount "$d/sys/fs/cgroup/cpuacct"
			mountpoint -q "$d/sys/fs/cgroup" && umount "$d/sys/fs/cgroup"
		}
	fi
	return 0
}
uid_root_umount() {
	local d=$1 m rc=0
	for m in sys/fs/cgroup/cpuacct sys/fs/cgroup dev/shm dev/pts dev sys proc; do
		if mountpoint -q "$d/$m"; then
			umount "$d/$m" || umount -l "$d/$m" || { uid_log "could not unmount $d/$m"; rc=1; }
		fi
	done
	return $rc
}

# uid_root_remove DIR: removes a root (or a half-made one), only once nothing
# is mounted inside it, and never crossing into another file system.
uid_root_remove() {
	local d=$1
	[ -e "$d" ] || return 0
	uid_root_umount "$d" || return 1
	if findmnt -rn -o TARGET | grep -q "^$d/"; then
		uid_log "file systems are still mounted under $d; not removing it"
		return 1
	fi
	rm -rf --one-file-system "$d"
}

# uid_root_apt DIR ARGS...: apt-get inside the root (sid's Release file may
# be past its Valid-Until in the archive this machine reaches).
uid_root_apt() {
	local d=$1
	shift
	chroot "$d" env DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 \
		apt-get -o Acquire::Check-Valid-Until=false -qq "$@"
}

# uid_root_sources DIR VERSION SUITE MIRROR: what the root's apt reads besides
# SUITE: experimental, pinned to VERSION's server packages only, where they
# come from there, and SUITE's sources, where pgTAP is built from them.
uid_root_sources() {
	local d=$1 v=$2 suite=$3 mirror=$4
	if uid_root_experimental "$v"; then
		echo "deb $mirror experimental main" >"$d/etc/apt/sources.list.d/experimental.list"
		# experimental's Release says NotAutomatic (priority 1): these, and
		# only these, at the suite's priority, so the higher version wins
		cat >"$d/etc/apt/preferences.d/uniqueid-postgresql-$v" <<-EOF
			Package: src:postgresql-$v
			Pin: release a=experimental
			Pin-Priority: 500
		EOF
	fi
	if ! uid_root_pgtap_packaged "$v"; then
		echo "deb-src $mirror $suite main" >"$d/etc/apt/sources.list.d/$suite-src.list"
	fi
}

# uid_root_pgtap DIR VERSION: builds and installs pgTAP for VERSION inside
# the (mounted) root DIR, from the upstream tarball of Debian's pgtap source
# package (--tar-only: the Debian packaging is not needed for an install,
# and not every mirror serves it); it is SQL, installed with PGXS.
uid_root_pgtap() {
	local d=$1 v=$2
	timeout 600 chroot "$d" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 PGCONFIG="/usr/lib/postgresql/$v/bin/pg_config" \
		bash -c 'set -e
			rm -rf /tmp/pgtap-src && mkdir /tmp/pgtap-src && cd /tmp/pgtap-src
			apt-get -o Acquire::Check-Valid-Until=false -qq source --tar-only pgtap
			tar -xf pgtap_*.orig.tar.*
			cd pgtap-*/
			make PG_CONFIG="$PGCONFIG"
			make PG_CONFIG="$PGCONFIG" install
			cd / && rm -rf /tmp/pgtap-src'
}

# uid_root_lock DIR COMMAND...: COMMAND with the root DIR's lock held (a
# root is made, or used, by one run at a time: test/run.sh --matrix makes
# the roots in the background while the suite runs on another version).
uid_root_lock() {
	local d=$1
	shift
	mkdir -p "$(dirname "$d")"
	(
		flock 9 || exit 2
		"$@"
	) 9>"$d.lock"
}

# uid_debootstrap SUITE MIRROR DEST LOG: a minbase root of SUITE in DEST
# (which must not exist): a copy of the one debootstrap made for an earlier
# root in $UID_CACHE/minbase/SUITE, else made there first (once, under its
# lock; again when over a day old, as sid moves daily).  The suite roots and
# the package tests' pristine roots start from it: one debootstrap per
# suite, where each root made its own (7 for 4 versions, 3 of sid).
uid_debootstrap() {
	uid_root_lock "$UID_CACHE/minbase/$1" uid_debootstrap_locked "$@"
}
uid_debootstrap_locked() {
	local suite=$1 mirror=$2 dest=$3 log=$4 base=$UID_CACHE/minbase/$1
	: >"$log"
	if [ ! -f "$base/.uniqueid-minbase" ] || [ -n "$(find "$base/.uniqueid-minbase" -mmin +1440)" ]; then
		uid_root_remove "$base.tmp" || return 1
		if timeout 1200 debootstrap --variant=minbase "$suite" "$base.tmp" "$mirror" >"$log" 2>&1 &&
			touch "$base.tmp/.uniqueid-minbase"; then
			uid_root_remove "$base" && mv "$base.tmp" "$base" || return 1
		elif [ -f "$base/.uniqueid-minbase" ]; then
			echo "== debootstrap failed (above): the one made $(date -r "$base/.uniqueid-minbase") serves" >>"$log"
		else
			tail -n 20 "$log" >&2
			return 1
		fi
	fi
	echo "== $dest: a copy of $base, made $(date -r "$base/.uniqueid-minbase")" >>"$log"
	cp -a "$base" "$dest" >>"$log" 2>&1 && rm -f "$dest/.uniqueid-minbase" ||
		{ tail -n 5 "$log" >&2; return 1; }
}

# uid_root_make VERSION: makes the root of VERSION, once, with the server,
# its headers, pgTAP and the build tools of its owner (uid_root_owner) in it (waiting for a run that is
# making it).  Mounts nothing it leaves mounted.
uid_root_make() {
	local d
	d=$(uid_root_dir "$1") || { uid_log "no root for PostgreSQL $1"; return 1; }
	[ -f "$d/.uniqueid-ready" ] && return 0
	uid_root_lock "$d" uid_root_make_locked "$(uid_root_owner "$1")"
}
uid_root_make_locked() {
	local v=$1 d suite mirror pgtap t0=$SECONDS
	d=$(uid_root_dir "$v") || { uid_log "no root for PostgreSQL $v"; return 1; }
	[ -f "$d/.uniqueid-ready" ] && return 0
	suite=$(uid_root_suite "$v")
	mirror=$(uid_root_mirror)
	[ -n "$mirror" ] || { uid_log "cannot tell which Debian archive apt uses"; return 1; }
	command -v debootstrap >/dev/null || uid_install_packages debootstrap || return 1
	uid_root_remove "$d.tmp" || return 1
	mkdir -p "$(dirname "$d")"
	uid_log "making a Debian $suite root for PostgreSQL $v (once; cached in $d)"
	uid_debootstrap "$suite" "$mirror" "$d.tmp" "$d.log" || return 1
	# no service starts inside the root, and no cluster is made there
	printf '#!/bin/sh\nexit 101\n' >"$d.tmp/usr/sbin/policy-rc.d"
	chmod 755 "$d.tmp/usr/sbin/policy-rc.d"
	mkdir -p "$d.tmp/etc/postgresql-common"
	echo "create_main_cluster = false" >"$d.tmp/etc/postgresql-common/createcluster.conf"
	uid_root_sources "$d.tmp" "$v" "$suite" "$mirror"
	# pgTAP: its package, or what building it needs (it patches its SQL)
	pgtap=patch
	uid_root_pgtap_packaged "$v" && pgtap="postgresql-$v-pgtap"
	# unmounted again however this ends (the trap is cleared afterwards)
	trap 'uid_root_umount "$d.tmp"' EXIT
	trap 'uid_root_umount "$d.tmp"; exit 130' INT TERM
	uid_root_mount "$d.tmp" || { uid_root_umount "$d.tmp"; return 1; }
	{
		timeout 600 chroot "$d.tmp" env LC_ALL=C.UTF-8 \
			apt-get -o Acquire::Check-Valid-Until=false -qq update &&
			timeout 1200 chroot "$d.tmp" env DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 \
				apt-get -o Acquire::Check-Valid-Until=false -qq install -y --no-install-recommends \
				$UID_ROOT_PACKAGES "postgresql-$v" "postgresql-server-dev-$v" $pgtap &&
			{ uid_root_pgtap_packaged "$v" || uid_root_pgtap "$d.tmp" "$v"; }
	} >>"$d.log" 2>&1
	local rc=$?
	uid_root_umount "$d.tmp" || rc=1
	trap - EXIT INT TERM
	[ $rc -eq 0 ] || { tail -n 20 "$d.log" >&2; return 1; }
	touch "$d.tmp/.uniqueid-ready"
	mv "$d.tmp" "$d"
	uid_log "the $suite root for PostgreSQL $v made in $((SECONDS - t0)) s"
}

# uid_root_exec VERSION SCRIPT [ARGS...]: runs SCRIPT (a path in the work
# tree) on PostgreSQL VERSION inside its root: makes the root if needed,
# mounts, copies the work tree there (uncommitted changes included, build
# products not), runs, and unmounts again.  Returns the script's status.
uid_root_exec() {
	[ "$(id -u)" -eq 0 ] || { uid_log "PostgreSQL $1 in a Debian root needs root"; return 2; }
	uid_root_make "$1" || { uid_log "could not make the root of PostgreSQL $1"; return 2; }
	uid_root_lock "$(uid_root_dir "$1")" uid_root_exec_locked "$@"
}
uid_root_exec_locked() {
	local v=$1 script=$2 top root rc
	shift 2
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	root=$(uid_root_dir "$v")
	trap 'uid_root_umount "$root"' EXIT
	trap 'uid_root_umount "$root"; exit 130' INT TERM
	uid_root_mount "$root" || { uid_root_umount "$root"; uid_log "could not mount the kernel file systems in $root"; return 2; }
	rm -rf --one-file-system "$root/uniqueid"
	mkdir -p "$root/uniqueid"
	tar -C "$top" --exclude=.git --exclude='*.o' --exclude='*.so' --exclude='*.bc' \
		--exclude=results --exclude=test/codec_test --exclude=test/basen_test --exclude=test/ff1_test -cf - . |
		tar -C "$root/uniqueid" -xf -
	# the commit, for reports made inside the root (which has no .git)
	git -C "$top" rev-parse --short HEAD >"$root/uniqueid/.commit" 2>/dev/null
	# the third-party source archives (test/vendor.lock), where the root
	# sees them: those the machine finds (test/vendor.sh: UID_VENDOR,
	# ../shared/vendor beside this checkout, or downloaded), copied
	rm -rf --one-file-system "$root/uniqueid-vendor"
	mkdir -p "$root/uniqueid-vendor"
	local a
	for a in $(uid_vendor_archives); do
		uid_vendor_get "$a" && cp "$UID_VENDOR_PATH" "$root/uniqueid-vendor/"
	done
	chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root CI="${CI:-}" \
		UID_PGVER="$v" UID_IN_ROOT=1 UID_VENDOR=/uniqueid-vendor UID_REGRESS_SKIP="${UID_REGRESS_SKIP:-}" \
		UID_CPU_PHASES="${UID_CPU_PHASES:-}" UID_TAP_ALL="${UID_TAP_ALL:-}" \
		$(env | grep -E '^BENCH_' | tr '\n' ' ') bash "/uniqueid/$script" "$@"
	rc=$?
	uid_root_umount "$root" || rc=2
	trap - EXIT INT TERM
	return $rc
}
