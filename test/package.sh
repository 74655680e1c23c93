#!/usr/bin/env bash
# test/package.sh - the Debian package and the PGXN zip, tested as users get
# them.
#
#   bash test/package.sh 15|17|18|19   postgresql-V-uniqueid, in clean Debian roots
#   bash test/package.sh --pgxn        make dist's zip, installed by pgxnclient
#
# VERSION: builds the package from this tree (debian/) with
# `dpkg-buildpackage -us -uc -b` in a clean Debian root of the suite that
# carries PostgreSQL V (15 bookworm, 17 trixie, 18 sid, 19 sid with
# experimental's postgresql-19); runs lintian on it (no error) and the package's
# autopkgtest (debian/tests) with autopkgtest's null runner there; then, in
# a fresh copy of the pristine root that never saw the source, installs it
# with `apt-get install ./postgresql-V-uniqueid_*.deb`, makes a cluster with
# pg_createcluster, configures it as README.md says (appends uniqueid to
# shared_preload_libraries in /etc/postgresql/V/main/postgresql.conf),
# starts it with pg_ctlcluster (no TCP, its socket in a directory of its
# own), runs the regression suite (pg_regress; but timestamptz_plans, which
# autopkgtest ran) against it, updates the
# extension from 1.0, and purges the package, which must leave none of its
# files behind.  Every package the build made goes through all of it: in
# 19's root, 18's too (sid's postgresql-server-dev-18 is there beside 19's),
# so that test/run.sh --matrix needs no root of 18's own for its package.
#
# --pgxn: the zip of `make dist` (made from the tracked files, work tree
# included, where git is; `make dist` itself is checked to list the same
# files), installed with Debian's pgxnclient in a network namespace of its
# own (no network at all) into the machine's PostgreSQL 15, and loaded in a
# throwaway cluster.  Runs once, not per version.
#
# One `ok - ...` or `not ok - ...` line per check, a `# ...: N passed, N
# failed` comment last; exits non-zero when a check failed.  Needs root.
#
# Cache (UID_CACHE, default /var/cache/uniqueid, see test/roots.sh):
# pkg/SUITE.pristine, a debootstrap minbase root with its package lists
# (sid-19.pristine: with experimental's postgresql-19, as test/roots.sh
# sets it); pkg/SUITE-V.build, a copy of it with the build dependencies,
# PostgreSQL V, lintian and autopkgtest; pkg/debs/SUITE, the .debs apt
# fetched, shared by the roots.  Each run works in overlays on them
# (pkg/work/V-build, V-install), which it unmounts and removes however it
# ends (UID_PKG_KEEP=1 keeps them, unmounted, in pkg/work/V-*.ov/upper);
# its logs are in pkg/logs/V.  UID_PKG_OUT=DIR copies the package built
# (not its -dbgsym) to DIR, for a release.
set -u
cd "$(dirname "$0")/.." || exit 2
TOP=$PWD
# (lib.sh for uid_cpu_phase and the rest)
. test/lib.sh
. test/roots.sh

PKG_CACHE=$UID_CACHE/pkg
passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok - $*"; }
fail() { failed=$((failed + 1)); echo "not ok - $*"; }
# finish LABEL: the summary comment and the exit status
finish() {
	echo "# $1: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}
# elapsed since START: "N s"
since() { echo "$((SECONDS - $1)) s"; }

# the extension's version, from uniqueid.control; the package's, from
# debian/changelog (without dpkg-parsechangelog, which the machine may lack)
EXTVERSION=$(sed -n "s/^default_version = '\(.*\)'/\1/p" uniqueid.control)
DEBVERSION=$(sed -n '1s/^uniqueid (\([^)]*\)).*/\1/p' debian/changelog)

[ "$(id -u)" -eq 0 ] || { echo "not ok - test/package.sh needs root"; exit 2; }

# The source tree as it is: the files git tracks or would (uncommitted
# changes and new files included, ignored ones not) where git is, else
# everything but build products.  Writes a tar of it, prefixed PREFIX/, to
# stdout.
source_tar() {
	local prefix=$1
	if git -C "$TOP" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git -C "$TOP" ls-files -z --cached --others --exclude-standard | tar -C "$TOP" --null -T - --transform "s,^,$prefix/," -cf -
	else
		tar -C "$TOP" --exclude=.git --exclude='*.o' --exclude='*.so' --exclude='*.bc' \
			--exclude=./results --exclude=./tmp_check --exclude='./uniqueid-*.zip' \
			--exclude=./test/codec_test --exclude=./test/basen_test --exclude=./test/ff1_test \
			--exclude='./test/fuzz/*_fuzz' --exclude=./.commit \
			--transform "s,^\./,$prefix/," -cf - .
	fi
}

######################################################################
# --pgxn
######################################################################
if [ "${1:-}" = --pgxn ]; then
	uid_install_packages postgresql-15 postgresql-server-dev-15 pgxnclient python3 make gcc || exit 2
	W=$(uid_tmpdir) || exit 2
	trap 'uid_cluster_stop "$W"; rm -rf "$W"' EXIT
	trap 'exit 130' INT TERM
	zip=uniqueid-$EXTVERSION.zip
	start=$SECONDS

	# META.json names the version the control file does (PGXN's is semver)
	metaver=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' META.json)
	case "$metaver" in
	"$EXTVERSION" | "$EXTVERSION".0) pass "META.json's version $metaver is uniqueid.control's $EXTVERSION" ;;
	*) fail "META.json's version $metaver is not uniqueid.control's $EXTVERSION" ;;
	esac

	# the zip: `make dist` (git archive of HEAD) in a clone of the
	# repository, the release's own archive; without git (a copy of the
	# tree), the same from the tree's files
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git status --porcelain --untracked-files=no | grep -q . &&
			echo "# uncommitted changes are not in the zip: make dist archives HEAD"
		if git clone -q "$TOP" "$W/clone" && make -s -C "$W/clone" dist >"$W/dist.log" 2>&1 &&
			mv "$W/clone/$zip" "$W/$zip"; then
			pass "make dist makes $zip from HEAD ($(du -k "$W/$zip" | cut -f1) KiB)"
		else
			cat "$W/dist.log"
			fail "make dist"
			finish pgxn
		fi
		rm -rf "$W/clone"
	else
		source_tar "uniqueid-$EXTVERSION" | (cd "$W" && tar -xf - && python3 - "$zip" "uniqueid-$EXTVERSION" <<-'EOF'
			import os, sys, zipfile
			out, top = sys.argv[1], sys.argv[2]
			with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
			    for d, dirs, files in os.walk(top):
			        dirs.sort()
			        for f in sorted(files):
			            p = os.path.join(d, f)
			            z.write(p, p)
		EOF
		)
		rm -rf "$W/uniqueid-$EXTVERSION"
		if [ -s "$W/$zip" ]; then
			pass "the PGXN zip $zip is made from the tree (no git here)"
		else
			fail "the PGXN zip $zip could not be made"
			finish pgxn
		fi
	fi
	python3 -c 'import zipfile,sys; n=zipfile.ZipFile(sys.argv[1]).namelist(); sys.exit(0 if all(sys.argv[2]+"/"+f in n for f in ("META.json","Makefile","uniqueid.control")) else 1)' "$W/$zip" "uniqueid-$EXTVERSION" &&
		pass "$zip holds uniqueid-$EXTVERSION/ with META.json, Makefile and uniqueid.control" ||
		fail "$zip lacks uniqueid-$EXTVERSION/META.json, Makefile or uniqueid.control"

	# pgxnclient, with no network at all: a network namespace of its own
	# (only loopback, down); it unpacks, runs make and make install
	t0=$(date +%s)
	sleep 1
	if (cd "$W" && unshare --net -- pgxn install --pg_config /usr/lib/postgresql/15/bin/pg_config "./$zip") >"$W/pgxn.log" 2>&1; then
		pass "pgxn install ./$zip (no network) in $(since "$start")"
	else
		tail -n 30 "$W/pgxn.log"
		fail "pgxn install ./$zip (no network)"
		finish pgxn
	fi
	grep -i 'warning:' "$W/pgxn.log" | head -n 5
	# what it installed is new: the library, control file and scripts
	lib=$(/usr/lib/postgresql/15/bin/pg_config --pkglibdir)
	share=$(/usr/lib/postgresql/15/bin/pg_config --sharedir)
	stale=0
	for f in "$lib/uniqueid.so" "$share/extension/uniqueid.control" \
		$(python3 -c 'import zipfile,sys; print("\n".join(n for n in zipfile.ZipFile(sys.argv[1]).namelist() if "/sql/uniqueid--" in n))' "$W/$zip" | sed "s,^.*/sql/,$share/extension/,"); do
		[ -f "$f" ] && [ "$(stat -c %Y "$f")" -ge "$t0" ] || { echo "# not installed by pgxn: $f"; stale=1; }
	done
	[ $stale -eq 0 ] && pass "pgxn installed uniqueid.so, uniqueid.control and every sql/ script for PostgreSQL 15" ||
		fail "pgxn did not install every file of the extension"

	# it loads: a throwaway cluster with the library preloaded
	if uid_cluster_init "$W" && uid_cluster_start "$W"; then
		out=$(uid_psql "$W" -d postgres -At -c "CREATE EXTENSION uniqueid" \
			-c "SELECT extversion FROM pg_extension WHERE extname = 'uniqueid'" \
			-c "SELECT next_id(5) < next_id(5), length(next_objectid()::text)" 2>&1)
		if [ "$out" = "$EXTVERSION"$'\n''t|24' ]; then
			pass "the extension pgxn installed loads: CREATE EXTENSION uniqueid ($EXTVERSION), its generators run"
		else
			echo "$out" | sed 's/^/# /'
			fail "the extension pgxn installed does not load"
		fi
	else
		fail "a throwaway PostgreSQL 15 cluster could not start"
	fi
	uid_cluster_stop "$W"
	echo "# pgxn: $(since "$start")"
	finish pgxn
fi

######################################################################
# a PostgreSQL version: the Debian package
######################################################################
V=${1:-}
# --roots after the version: only make (or wait for) the cached roots, as
# test/run.sh --matrix does in the background
ROOTS_ONLY=
[ "${2:-}" = --roots ] && ROOTS_ONLY=1
case "$V" in
15) SUITE=bookworm ;;
17) SUITE=trixie ;;
18) SUITE=sid ;;
19) SUITE=sid ;;
-h | --help)
	sed -n '2,/^[^#]/ s/^# \{0,1\}//p' "$0"
	exit 0
	;;
*)
	echo "usage: bash test/package.sh 15|17|18|19 [--roots] | --pgxn | --help" >&2
	exit 2
	;;
esac
# experimental's server packages for 19: the root is one of its own
ROOTKEY=$SUITE
[ "$V" = 19 ] && ROOTKEY=$SUITE-19
PRISTINE=$PKG_CACHE/$ROOTKEY.pristine
BUILDROOT=$PKG_CACHE/$SUITE-$V.build
DEBS=$PKG_CACHE/debs/$ROOTKEY
WORK=$PKG_CACHE/work
LOGS=$PKG_CACHE/logs/$V
B=$WORK/$V-build
I=$WORK/$V-install
PORT=$((54300 + V))
SOCK=/run/uniqueid-pkg-test
PKG=postgresql-$V-uniqueid
APT=(env DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 apt-get -o Acquire::Check-Valid-Until=false -o APT::Sandbox::User=root -q -y)
mkdir -p "$PKG_CACHE" "$DEBS" "$WORK" "$LOGS"
ALL_START=$SECONDS

# in_root DIR COMMAND...: a command inside the root, with a plain environment
in_root() {
	local d=$1
	shift
	chroot "$d" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 "$@"
}

# mounts DIR: the kernel's file systems, and the shared .deb cache
root_mount() {
	uid_root_mount "$1" || return 1
	mkdir -p "$1/var/cache/apt/archives"
	mountpoint -q "$1/var/cache/apt/archives" || mount --bind "$DEBS" "$1/var/cache/apt/archives"
}
root_umount() {
	local rc=0
	if mountpoint -q "$1/var/cache/apt/archives"; then
		umount "$1/var/cache/apt/archives" || umount -l "$1/var/cache/apt/archives" || rc=1
	fi
	uid_root_umount "$1" || rc=1
	return $rc
}
# removes a root, or a copy (the overlay unmounted first; nothing mounted
# in it: uid_root_remove checks)
root_remove() {
	root_umount "$1" 2>/dev/null
	if mountpoint -q "$1"; then
		umount "$1" || umount -l "$1" || { uid_log "could not unmount $1"; return 1; }
	fi
	uid_root_remove "$1" || return 1
	rm -rf --one-file-system "$1.ov"
}

# The cluster of the install root: stopped by pg_ctlcluster, else by its
# postmaster's pid, only if that process is this root's postgres.
stop_cluster() {
	local d=$1 pid pidfile=$1/var/lib/postgresql/$V/main/postmaster.pid
	[ -f "$pidfile" ] || return 0
	in_root "$d" pg_ctlcluster "$V" main stop -m fast >/dev/null 2>&1 && return 0
	in_root "$d" pg_ctlcluster "$V" main stop -m immediate >/dev/null 2>&1 && return 0
	pid=$(head -n 1 "$pidfile" 2>/dev/null)
	if [ -n "$pid" ] && [ "$(readlink "/proc/$pid/root" 2>/dev/null)" = "$d" ]; then
		kill -9 "$pid"
		uid_log "the cluster in $d did not stop; killed its postmaster $pid"
	fi
}

# stop_root_procs DIR: what is left running in root DIR, if it is a copy
# this run made (a cluster of autopkgtest's pg_virtualenv when a TERM or a
# failure cut the test short, say): each process whose root is DIR, TERM,
# then KILL after 10 s.
stop_root_procs() {
	local d=$1 p pids i
	[[ " $MADE " == *" $d "* ]] && [ -d "$d" ] || return 0
	for i in $(seq 0 22); do
		pids=
		for p in /proc/[0-9]*; do
			[ "$p/root" -ef "$d" ] && pids="$pids ${p#/proc/}"
		done
		[ -n "$pids" ] || return 0
		case $i in
		0) uid_log "stopping what is left running in $d:$pids"; kill -TERM $pids 2>/dev/null ;;
		20) uid_log "killing what is left running in $d:$pids"; kill -KILL $pids 2>/dev/null ;;
		22) uid_log "could not stop what runs in $d:$pids"; return 1 ;;
		esac
		sleep 0.5
	done
}

cleanup() {
	local r
	[ -d "$I" ] && stop_cluster "$I"
	for r in "$B" "$I"; do
		stop_root_procs "$r"
		if [ -n "${UID_PKG_KEEP:-}" ]; then
			root_umount "$r" 2>/dev/null
			mountpoint -q "$r" && umount "$r"
		else
			root_remove "$r"
		fi
	done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# make_pristine: a minbase root of the suite, its package lists read; no
# service starts in it, and no cluster is made on installing a server
# (with the suite's sources for 19 as test/roots.sh sets them: experimental's
# postgresql-19 only).
make_pristine() {
	local mirror t0=$SECONDS
	if [ -f "$PRISTINE/.uniqueid-pristine" ]; then
		apt_conf "$PRISTINE"
		# package lists over a day old are read again (sid moves daily)
		if [ -n "$(find "$PRISTINE/.uniqueid-pristine" -mmin +1440)" ]; then
			in_root "$PRISTINE" apt-get -o Acquire::Check-Valid-Until=false -qq update >>"$LOGS/debootstrap.log" 2>&1 &&
				touch "$PRISTINE/.uniqueid-pristine"
		fi
		return 0
	fi
	mirror=$(uid_root_mirror)
	[ -n "$mirror" ] || { uid_log "cannot tell which Debian archive apt uses"; return 1; }
	command -v debootstrap >/dev/null || uid_install_packages debootstrap || return 1
	uid_root_remove "$PRISTINE.tmp" || return 1
	uid_log "making a pristine Debian $SUITE root (once; cached in $PRISTINE)"
	uid_debootstrap "$SUITE" "$mirror" "$PRISTINE.tmp" "$LOGS/debootstrap.log" || return 1
	printf '#!/bin/sh\nexit 101\n' >"$PRISTINE.tmp/usr/sbin/policy-rc.d"
	chmod 755 "$PRISTINE.tmp/usr/sbin/policy-rc.d"
	apt_conf "$PRISTINE.tmp"
	if [ "$V" = 19 ]; then
		if declare -F uid_root_sources >/dev/null; then
			uid_root_sources "$PRISTINE.tmp" "$V" "$SUITE" "$mirror"
		else
			uid_log "test/roots.sh has no uid_root_sources: no experimental for 19"
			return 1
		fi
	fi
	in_root "$PRISTINE.tmp" apt-get -o Acquire::Check-Valid-Until=false -qq update >>"$LOGS/debootstrap.log" 2>&1 || return 1
	touch "$PRISTINE.tmp/.uniqueid-pristine"
	mv "$PRISTINE.tmp" "$PRISTINE"
	uid_log "pristine $SUITE root made in $(since $t0)"
}
# apt_conf DIR: the archive's sid may be past its Release file's
# Valid-Until (apt of the root itself, autopkgtest's included, reads it)
apt_conf() {
	[ -f "$1/etc/apt/apt.conf.d/99uniqueid-valid-until" ] ||
		echo 'Acquire::Check-Valid-Until "false";' >"$1/etc/apt/apt.conf.d/99uniqueid-valid-until"
}

# copy_root SRC DEST: a copy of a cached root to work in: an overlay on it
# (its changes in DEST.ov; the cached root stays as it is), or a real copy
# where overlays cannot be mounted
copy_root() {
	root_remove "$2" || return 1
	mkdir -p "$2" "$2.ov/upper" "$2.ov/work"
	# (MADE: the copies this run made, whose processes its cleanup may stop)
	MADE="$MADE $2"
	mount -t overlay overlay -o "lowerdir=$1,upperdir=$2.ov/upper,workdir=$2.ov/work" "$2" 2>/dev/null && return 0
	rmdir "$2" && cp -a "$1" "$2"
}
MADE=

# The build root: the pristine root with the package's build dependencies
# (apt-get build-dep on debian/control), PostgreSQL V's server and headers,
# lintian and autopkgtest; made again when debian/control.in changes.
make_buildroot() {
	local key t0=$SECONDS
	key=$(cat debian/control.in | md5sum | cut -d' ' -f1)
	[ -f "$BUILDROOT/.uniqueid-build" ] && [ "$(cat "$BUILDROOT/.uniqueid-build")" = "$key" ] &&
		{ apt_conf "$BUILDROOT"; return 0; }
	uid_root_remove "$BUILDROOT" && uid_root_remove "$BUILDROOT.tmp" || return 1
	uid_log "making the build root of PostgreSQL $V (once; cached in $BUILDROOT)"
	cp -a "$PRISTINE" "$BUILDROOT.tmp" || return 1
	mkdir -p "$BUILDROOT.tmp/etc/postgresql-common"
	echo "create_main_cluster = false" >"$BUILDROOT.tmp/etc/postgresql-common/createcluster.conf"
	mkdir -p "$BUILDROOT.tmp/tmp/deps/debian"
	cp debian/control debian/control.in "$BUILDROOT.tmp/tmp/deps/debian/"
	root_mount "$BUILDROOT.tmp" || { root_umount "$BUILDROOT.tmp"; return 1; }
	{
		in_root "$BUILDROOT.tmp" "${APT[@]}" build-dep --no-install-recommends /tmp/deps &&
			in_root "$BUILDROOT.tmp" "${APT[@]}" install --no-install-recommends \
				"postgresql-$V" "postgresql-server-dev-$V" lintian autopkgtest
	} >"$LOGS/buildroot.log" 2>&1
	local rc=$?
	root_umount "$BUILDROOT.tmp" || rc=1
	[ $rc -eq 0 ] || { tail -n 20 "$LOGS/buildroot.log" >&2; return 1; }
	rm -rf "$BUILDROOT.tmp/tmp/deps"
	echo "$key" >"$BUILDROOT.tmp/.uniqueid-build"
	mv "$BUILDROOT.tmp" "$BUILDROOT"
	uid_log "build root made in $(since $t0)"
}

# make_roots: the pristine and the build root, with their lock held (one
# run at a time makes them; another waits, then finds them made)
make_roots() {
	(
		flock 9 || exit 1
		rm -f "$LOGS"/debootstrap.log "$LOGS"/buildroot.log
		make_pristine || { echo "pristine"; exit 1; }
		make_buildroot || { echo "build"; exit 1; }
	) 9>"$PKG_CACHE/.roots-$V.lock"
}
if [ -n "$ROOTS_ONLY" ]; then
	t=$SECONDS
	why=$(make_roots) || { uid_log "package $V: the $why root could not be made (log in $LOGS)"; exit 1; }
	uid_log "package $V: roots ready in $(since $t)"
	exit 0
fi
rm -f "$LOGS"/*.log

echo "# package: PostgreSQL $V, Debian $SUITE; uniqueid $EXTVERSION, package $DEBVERSION"

# the package's version follows the extension's
case "$DEBVERSION" in
"$EXTVERSION"-*) pass "debian/changelog's version $DEBVERSION follows uniqueid.control's $EXTVERSION" ;;
*) fail "debian/changelog's version $DEBVERSION does not follow uniqueid.control's $EXTVERSION" ;;
esac

t=$SECONDS
if ! why=$(make_roots); then
	if [ "$why" = pristine ]; then
		fail "a pristine Debian $SUITE root (debootstrap; log in $LOGS)"
	else
		fail "the build root of PostgreSQL $V (log in $LOGS/buildroot.log)"
	fi
	finish "package $V"
fi
echo "# roots ready in $(since $t)"

######################################################################
# build, lintian, autopkgtest
######################################################################
t=$SECONDS
copy_root "$BUILDROOT" "$B" || { fail "a copy of the build root"; finish "package $V"; }
root_mount "$B" || { fail "mounting the kernel's file systems in $B"; finish "package $V"; }
SRCDIR=/build/uniqueid-$EXTVERSION
mkdir -p "$B/build"
source_tar "uniqueid-$EXTVERSION" | tar -C "$B/build" -xf -
echo "# copies made in $(since $t)"

# the source package too (for lintian): the orig tarball is the tree
# without debian/, as a release's archive is
(cd "$B/build" && tar --exclude="uniqueid-$EXTVERSION/debian" -czf "uniqueid_${EXTVERSION}.orig.tar.gz" "uniqueid-$EXTVERSION")
in_root "$B" sh -c "cd /build && dpkg-source -b uniqueid-$EXTVERSION" >"$LOGS/source.log" 2>&1 ||
	{ cat "$LOGS/source.log"; fail "dpkg-source -b (the source package)"; }

# the tree as a user's checkout is, to see what the build leaves in it: a
# git repository of its own, everything committed (the host's git)
tree_git() { git -C "$B$SRCDIR" -c user.name=test -c user.email=test@invalid "$@"; }
tracked=
command -v git >/dev/null && tree_git init -q && tree_git add -A && tree_git commit -qm tree && tracked=1

t=$SECONDS
# (each step's CPU counted apart in test/run.sh --matrix: uid_cpu_phase)
uid_cpu_phase "package-$V-build"
in_root "$B" sh -c "cd $SRCDIR && dpkg-buildpackage -us -uc -b" >"$LOGS/build.log" 2>&1
rc=$?
debs=$(cd "$B/build" && ls -1 postgresql-*-uniqueid_*.deb 2>/dev/null | grep -v dbgsym)
if [ $rc -eq 0 ] && echo "$debs" | grep -qx "${PKG}_${DEBVERSION}_[a-z0-9]*\.deb"; then
	pass "dpkg-buildpackage -us -uc -b in a clean $SUITE root built $(echo $debs) in $(since $t)"
	# (the packages of every version whose server headers the root has, as
	# README.md says: 19's root has sid's 18 too, which
	# postgresql-server-dev-all, a build dependency, pulls in)
	want=$(in_root "$B" dpkg-query -W -f='${db:Status-Status} ${Package}\n' 'postgresql-server-dev-[0-9]*' 2>/dev/null |
		sed -n 's/^installed postgresql-server-dev-\([0-9]*\)$/\1/p' | sort -n | xargs)
	got=$(echo "$debs" | sed -n "s/^postgresql-\([0-9]*\)-uniqueid_${DEBVERSION}_.*/\1/p" | sort -n | xargs)
	if [ -n "$want" ] && [ "$want" = "$got" ]; then
		pass "one package for each PostgreSQL whose postgresql-server-dev is installed: $want"
	else
		fail "the packages built ($got) are not one for each installed postgresql-server-dev ($want)"
	fi
	# (a release's packages: DEVELOPER.md, releasing; this version's only)
	if [ -n "${UID_PKG_OUT:-}" ]; then
		mkdir -p "$UID_PKG_OUT" && cp "$B/build/${PKG}_${DEBVERSION}"_*.deb "$UID_PKG_OUT/" && echo "# copied ${PKG}_${DEBVERSION} to $UID_PKG_OUT"
	fi
else
	tail -n 40 "$LOGS/build.log"
	fail "dpkg-buildpackage -us -uc -b in a clean $SUITE root (exit $rc; log in $LOGS/build.log)"
	finish "package $V"
fi
# what README.md promises of the build: the tree as it was (git status
# clean: no file changed, and what it made is what .gitignore lists)
if [ -n "$tracked" ]; then
	left=$(tree_git status --porcelain 2>&1)
	if [ -z "$left" ]; then
		pass "the build leaves the source tree as it found it (git status: clean)"
	elif [ "$V" != 15 ] && [ "$left" = " M debian/control" ] &&
		grep -qx "Package: postgresql-$V-uniqueid" "$B$SRCDIR/debian/control"; then
		# (the tree's debian/control names Debian 12's PostgreSQL 15; for
		# another major pg_buildext names that one, as README.md says)
		pass "the build leaves the source tree as it found it but for debian/control, which now names postgresql-$V-uniqueid"
	else
		echo "$left" | head -n 10 | sed 's/^/# /'
		fail "the build leaves the source tree changed (git status above)"
	fi
else
	echo "# no git here: what the build leaves in the tree is not checked"
fi
w=$(grep -cE '\.[ch]:[0-9]+:([0-9]+:)? warning:' "$LOGS/build.log")
if [ "$w" -eq 0 ]; then
	pass "the package build prints no compiler warning"
else
	grep -A3 -E '\.[ch]:[0-9]+:([0-9]+:)? warning:' "$LOGS/build.log" | head -n 20
	fail "the package build prints $w compiler warnings"
fi
# the packaging tools' warnings, for the record
grep -E '^(dpkg|dh)[a-z_-]*: warning:' "$LOGS/build.log" | sort -u | sed 's/^/# /'

uid_cpu_phase "package-$V-lintian"
# lintian, on the .changes (the binary packages and the .buildinfo) and
# the source package's .dsc
t=$SECONDS
# (apart: together, lintian 2.143 takes the dbgsym package's doc symlink
# for one to another source's package)
in_root "$B" sh -c "cd /build && lintian --info --display-info --pedantic *.changes; lintian --info --display-info --pedantic *.dsc" >"$LOGS/lintian.log" 2>&1
lv=$(in_root "$B" lintian --print-version 2>/dev/null)
grep -E '^[EWIPX]: ' "$LOGS/lintian.log" | sed 's/ \[.*//' | sort | uniq -c | sed -E "s/^ *([0-9]+) (.*)/# lintian $lv: \2 (x\1)/"
ne=$(grep -c '^E: ' "$LOGS/lintian.log")
nw=$(grep -c '^W: ' "$LOGS/lintian.log")
if [ "$ne" -eq 0 ]; then
	pass "lintian $lv on the binary and source packages: no error ($nw warnings, in $(since $t))"
else
	fail "lintian $lv: $ne errors"
fi

uid_cpu_phase "package-$V-autopkgtest"
# the package's autopkgtest (debian/tests: pg_buildext installcheck), run
# by autopkgtest itself on this root (the null runner), the built .debs
# installed by it: every version's (its Depends: @ names them all; in 19's
# root, sid's 18's too)
t=$SECONDS
in_root "$B" sh -c "cd /build && autopkgtest --no-built-binaries $(echo $debs | sed 's,[^ ]*,./&,g') $SRCDIR -- null" >"$LOGS/autopkgtest.log" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q '^installcheck  *PASS' "$LOGS/autopkgtest.log"; then
	pass "autopkgtest (debian/tests/installcheck, pg_buildext installcheck) passes in $(since $t)"
else
	tail -n 40 "$LOGS/autopkgtest.log"
	fail "autopkgtest (debian/tests/installcheck) (exit $rc; log in $LOGS/autopkgtest.log)"
fi
# every file of the Makefile's REGRESS passed there, on every version
# built: test/run.sh --matrix leaves them to this test (UID_REGRESS_SKIP)
for w in $got; do
	sed -n "/^### PostgreSQL $w installcheck ###\$/,/^### End $w installcheck ###\$/p" "$LOGS/autopkgtest.log" >"$LOGS/installcheck-$w.log"
	notrun=
	for f in $(uid_regress_without); do
		grep -qE "(test $f +\.\.\. ok|^ok +[0-9]+ +[-+] $f )" "$LOGS/installcheck-$w.log" || notrun="$notrun $f"
	done
	if [ -z "$notrun" ]; then
		pass "autopkgtest ran every regression file ($(uid_regress_without | wc -w), timestamptz_plans's planner checks among them) on PostgreSQL $w"
	else
		fail "autopkgtest did not pass these regression files on PostgreSQL $w:$notrun (log in $LOGS/autopkgtest.log)"
	fi
done
mkdir -p "$WORK/$V-debs"
rm -f "$WORK/$V-debs"/*
for w in $got; do
	cp "$B/build/postgresql-$w-uniqueid_${DEBVERSION}"_*.deb "$WORK/$V-debs/"
done
stop_root_procs "$B"
root_umount "$B"
[ -n "${UID_PKG_KEEP:-}" ] || root_remove "$B"

######################################################################
# install into a root that never saw the source, configure, test, purge:
# each package the build made (in 19's root, 18's too), in a fresh copy of
# the pristine root
######################################################################
BUILDV=$V
# install_test W: postgresql-W-uniqueid, from $WORK/V-debs; its root
# removed after (kept, unmounted, with UID_PKG_KEEP)
install_test() {
	local V=$1
	local PKG=postgresql-$1-uniqueid PORT=$((54300 + $1)) I=$WORK/$1-install LOGS=$LOGS rc
	# (what install_steps sets, afresh for each package: a value of the
	# previous package's must never pass a check of this one's)
	local t f deb nfiles missing shipped conf spl regress out ed p_used= p_left= ex nq rows qrc prc st left
	# (another version's logs in a directory of their own)
	[ "$V" = "$BUILDV" ] || { LOGS=$LOGS/$V && mkdir -p "$LOGS" && rm -f "$LOGS"/*.log; }
	install_steps
	rc=$?
	[ -d "$I" ] && stop_cluster "$I"
	stop_root_procs "$I"
	if [ -n "${UID_PKG_KEEP:-}" ]; then
		root_umount "$I" 2>/dev/null
		mountpoint -q "$I" && umount "$I"
	else
		root_remove "$I"
	fi
	return $rc
}
install_steps() {
	t=$SECONDS
	uid_cpu_phase "package-$V-install"
	copy_root "$PRISTINE" "$I" || { fail "a copy of the pristine root"; return 1; }
	root_mount "$I" || { fail "mounting the kernel's file systems in $I"; return 1; }
	mkdir -p "$I/etc/postgresql-common"
	# the cluster is made below, with pg_createcluster
	echo "create_main_cluster = false" >"$I/etc/postgresql-common/createcluster.conf"
	mkdir -p "$I/tmp/debs"
	cp "$WORK/$BUILDV-debs/${PKG}_"*.deb "$I/tmp/debs/"
	deb=$(cd "$I/tmp/debs" && ls ${PKG}_*.deb)
	# (once more after apt-get update, if the cached package lists are stale)
	in_root "$I" sh -c "cd /tmp/debs && apt-get -o Acquire::Check-Valid-Until=false -o APT::Sandbox::User=root -q -y install ./$deb" \
		>"$LOGS/install.log" 2>&1 ||
		in_root "$I" sh -c "cd /tmp/debs && apt-get -o Acquire::Check-Valid-Until=false -q update &&
			apt-get -o Acquire::Check-Valid-Until=false -o APT::Sandbox::User=root -q -y install ./$deb" \
			>>"$LOGS/install.log" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && in_root "$I" dpkg-query -W -f='${Status}' "$PKG" 2>/dev/null | grep -q 'install ok installed'; then
		pass "apt-get install ./$deb in a fresh $SUITE root (with its dependencies, $(since $t))"
	else
		tail -n 30 "$LOGS/install.log"
		fail "apt-get install ./$deb in a fresh $SUITE root (log in $LOGS/install.log)"
		return 1
	fi
	in_root "$I" dpkg -L "$PKG" >"$LOGS/files.txt"
	# the files among them (the directories are shared with other packages)
	nfiles=0
	while read -r f; do
		[ -e "$I$f" ] && [ ! -d "$I$f" ] && nfiles=$((nfiles + 1))
	done <"$LOGS/files.txt"
	missing=
	for f in "/usr/lib/postgresql/$V/lib/uniqueid.so" "/usr/share/postgresql/$V/extension/uniqueid.control" \
		$(cd sql && ls uniqueid--*.sql | sed "s,^,/usr/share/postgresql/$V/extension/,"); do
		grep -qx "$f" "$LOGS/files.txt" && [ -f "$I$f" ] || missing="$missing $f"
	done
	[ -z "$missing" ] && pass "the package installs the library, the control file and every sql/ script for $V" ||
		fail "the package lacks:$missing"
	# and the files the documents run, as they are in the tree
	shipped=
	for f in portable/uniqueid.sql portable/uniqueid-remove.sql portable/uniqueid-pgtle.sql monitoring/postgres_exporter.yml monitoring/uniqueid-alerts.yml; do
		cmp -s "$f" "$I/usr/share/$PKG/$f" || shipped="$shipped $f"
	done
	[ -z "$shipped" ] && pass "the package ships the SQL edition and the monitoring files in /usr/share/$PKG, as in the tree" ||
		fail "/usr/share/$PKG lacks, or has other versions of:$shipped"

	# a cluster as a user makes one; its socket in a directory of its own and
	# no TCP, so nothing on the machine clashes with it; another library is
	# preloaded already, as on many servers
	t=$SECONDS
	mkdir -p "$I$SOCK" && in_root "$I" chown postgres:postgres "$SOCK"
	if in_root "$I" pg_createcluster -p "$PORT" -s "$SOCK" \
		-o "shared_preload_libraries=pg_stat_statements" \
		"$V" main -- --locale=C.UTF-8 >"$LOGS/cluster.log" 2>&1; then
		pass "pg_createcluster $V main"
	else
		cat "$LOGS/cluster.log"
		fail "pg_createcluster $V main"
		return 1
	fi
	# no TCP at all (the harness's choice; the last line of a setting wins)
	echo "listen_addresses = ''" >>"$I/etc/postgresql/$V/main/postgresql.conf"
	# README.md's configuration: append uniqueid to shared_preload_libraries
	conf=$I/etc/postgresql/$V/main/postgresql.conf
	# (the line as pg_createcluster wrote it may be unquoted)
	sed -i -E "s/^shared_preload_libraries = '?([^'#[:space:]]+)'?/shared_preload_libraries = '\1,uniqueid'/" "$conf"
	grep -E "^(shared_preload_libraries|listen_addresses|port|unix_socket_directories) " "$conf" | sed 's/^/# postgresql.conf: /'
	psql_root() {
		in_root "$I" runuser -u postgres -- psql -X -q -v ON_ERROR_STOP=1 -h "$SOCK" -p "$PORT" -At "$@"
	}
	if in_root "$I" pg_ctlcluster "$V" main start >>"$LOGS/cluster.log" 2>&1; then
		pass "pg_ctlcluster $V main start, uniqueid appended to shared_preload_libraries"
	else
		cat "$LOGS/cluster.log"
		tail -n 20 "$I/var/log/postgresql/postgresql-$V-main.log" 2>/dev/null
		fail "pg_ctlcluster $V main start"
		return 1
	fi
	spl=$(psql_root -d postgres -c "SELECT current_setting('shared_preload_libraries') || '|' || current_setting('listen_addresses')" 2>&1)
	[ "$spl" = "pg_stat_statements,uniqueid|" ] && pass "SHOW shared_preload_libraries is pg_stat_statements,uniqueid (and no TCP: listen_addresses is '')" ||
		fail "shared_preload_libraries|listen_addresses: $spl"

	# the regression suite against this server: pg_regress of the server's
	# client package, the tests of the tree, as `make installcheck` runs them,
	# but timestamptz_plans: its 225,000 planner checks (50 to 90 s) ran in
	# autopkgtest above, on this binary and this version; what this server
	# adds (installed by apt, another library preloaded beside it) the rest
	# shows
	rm -rf "$I/tmp/uniqueid-tests"
	mkdir -p "$I/tmp/uniqueid-tests"
	cp -a test/sql test/expected "$I/tmp/uniqueid-tests/"
	chmod -R a+rX "$I/tmp/uniqueid-tests"
	in_root "$I" chown -R postgres: /tmp/uniqueid-tests
	regress=$(uid_regress_without timestamptz_plans) ||
		fail "timestamptz_plans is no longer in the Makefile's REGRESS: say what this run leaves out"
	t=$SECONDS
	in_root "$I" runuser -u postgres -- sh -c "cd /tmp/uniqueid-tests &&
		/usr/lib/postgresql/$V/lib/pgxs/src/test/regress/pg_regress --inputdir=. \
		--bindir=/usr/lib/postgresql/$V/bin --host=$SOCK --port=$PORT --user=postgres \
		--dbname=contrib_regression $regress" >"$LOGS/regress.log" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		pass "the regression suite ($(echo $regress | wc -w) tests: all but timestamptz_plans, which autopkgtest ran) against the package's server in $(since $t)"
	else
		grep -E 'FAILED|failed' "$LOGS/regress.log"
		head -n 60 "$I/tmp/uniqueid-tests/regression.diffs" 2>/dev/null
		fail "the regression suite against the package's server (log in $LOGS/regress.log)"
	fi

	# 1.0, then ALTER EXTENSION UPDATE to the default version
	out=$(psql_root -d postgres -c "CREATE DATABASE uid_update" 2>&1 &&
		psql_root -d uid_update -c "CREATE EXTENSION uniqueid VERSION '1.0'" \
			-c "SELECT extversion FROM pg_extension WHERE extname = 'uniqueid'" \
			-c "ALTER EXTENSION uniqueid UPDATE" \
			-c "SELECT extversion FROM pg_extension WHERE extname = 'uniqueid'" \
			-c "SELECT next_ulid() < next_ulid()" 2>&1)
	if [ "$out" = "1.0"$'\n'"$EXTVERSION"$'\n''t' ]; then
		pass "CREATE EXTENSION uniqueid VERSION '1.0'; ALTER EXTENSION uniqueid UPDATE gives $EXTVERSION, and 1.1's generators run"
	else
		echo "$out" | sed 's/^/# /'
		fail "CREATE EXTENSION uniqueid VERSION '1.0'; ALTER EXTENSION uniqueid UPDATE"
	fi

	# the SQL edition, from where the package put it, as doc/portable.md runs
	# it: installed into a database without the extension, used, removed
	ed=/usr/share/$PKG/portable
	psql_root -d postgres -c "CREATE DATABASE uid_portable" >"$LOGS/portable.log" 2>&1 &&
		psql_root -d uid_portable -1 -f "$ed/uniqueid.sql" >>"$LOGS/portable.log" 2>&1 &&
		p_used=$(psql_root -d uid_portable -c "SELECT next_snowflake() < next_snowflake(), next_uuid7() < next_uuid7()" 2>&1) &&
		psql_root -d uid_portable -1 -f "$ed/uniqueid-remove.sql" >>"$LOGS/portable.log" 2>&1 &&
		p_left=$(psql_root -d uid_portable -c "SELECT count(*) FROM pg_proc WHERE proname = 'next_id'" 2>&1)
	if [ "${p_used:-} ${p_left:-}" = "t|t 0" ]; then
		pass "the SQL edition from $ed installs, generates, and removes itself"
	else
		tail -n 10 "$LOGS/portable.log" | sed 's/^/# /'
		echo "# generated: ${p_used:-}; functions next_id left: ${p_left:-}"
		fail "the SQL edition from $ed"
	fi

	# the exporter's file from where the package put it: each of its queries
	# runs against the package's server and returns rows
	ex=/usr/share/$PKG/monitoring/postgres_exporter.yml
	awk '/^  query: \|/ { q = 1; next } q && /^    / { sub(/^    /, ""); print; next } q { print ";"; q = 0 }' "$I$ex" >"$I/tmp/exporter.sql"
	nq=$(grep -c '^;$' "$I/tmp/exporter.sql")
	rows=$(psql_root -d uid_update -f /tmp/exporter.sql 2>&1)
	qrc=$?
	if [ "$nq" -ge 2 ] && [ "$qrc" -eq 0 ] && ! echo "$rows" | grep -q ERROR && [ "$(echo "$rows" | grep -c .)" -ge "$nq" ]; then
		pass "the $nq queries of $ex run against the package's server, returning rows"
	else
		echo "$rows" | tail -n 5 | sed 's/^/# /'
		fail "the queries of $ex ($nq found)"
	fi

	# purge: every file the package installed is gone
	stop_cluster "$I"
	in_root "$I" "${APT[@]}" purge "$PKG" >"$LOGS/purge.log" 2>&1
	prc=$?
	st=$(in_root "$I" dpkg-query -W -f='${db:Status-Status}' "$PKG" 2>/dev/null)
	if [ $prc -eq 0 ] && { [ -z "$st" ] || [ "$st" = not-installed ]; }; then
		left=
		while read -r f; do
			[ -e "$I$f" ] && [ ! -d "$I$f" ] && left="$left $f"
		done <"$LOGS/files.txt"
		if [ -z "$left" ]; then
			pass "apt-get purge $PKG removes all $nfiles files it installed"
		else
			fail "apt-get purge $PKG leaves:$left"
		fi
	else
		tail -n 20 "$LOGS/purge.log"
		fail "apt-get purge $PKG (exit $prc, its state: $st)"
	fi
}
for w in $got; do
	[ "$w" = "$V" ] || echo "# postgresql-$w-uniqueid, which this root built too, installed as $PKG is"
	install_test "$w"
done

echo "# package $V: $(since "$ALL_START")"
finish "package $V"
