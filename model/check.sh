#!/bin/bash
# model/check.sh - checks the model of the node registry's lease protocol
# (model/registry.pml; model/README.md) with SPIN.
#
#   bash model/check.sh              every check, one line each; exit 1 if
#                                    any result is not the one expected
#   bash model/check.sh NAME...      those checks only
#   bash model/check.sh --list       the checks' names
#   bash model/check.sh --trail NAME the shortest counterexample of check NAME
#                                    (breadth-first), step by step
#
# Each check builds SPIN's verifier (pan) in a temporary directory and runs
# it exhaustively (no bitstate, no hash compaction), bounded by `timeout`.
# Exit 2: spin or a C compiler is missing.
set -u

here=$(cd "$(dirname "$0")" && pwd)
model=$here/registry.pml

# name | expected: none, or the property whose violation is expected | spin's -D flags | what
checks=(
	"new|none|-DRECOVERY|the NEW rules: uniqueness, lead and recovery hold"
	"old-no-record-grace|uniqueness|-DOLD_NO_RECORD_GRACE|OLD: no grace period without a record and claims (defect 1)"
	"old-no-floor|uniqueness|-DOLD_NO_FLOOR|OLD: no floor under a claim after the grace period (defect 2)"
	"old-ratchet|lead|-DOLD_RATCHET|OLD: a claim's horizon ratchets from the previous one (defect 3)"
	"old-extend-lapsed|uniqueness|-DOLD_EXTEND_LAPSED|OLD: a lease that ended before the amnesia extended after the grace period (defect 4)"
)

# pan: safety only, no partial-order reduction (every variable is global);
# at most 4 GB (the run of the new rules takes about 2 GB); timeouts in
# seconds, bounds on a hang: the new rules take 1 to 1.5 minutes alone on
# the 2-core machine of DEVELOPER.md, and ran past 240 s there at half its CPU
PAN_CFLAGS="-O2 -DSAFETY -DNOREDUCE -DNOBOUNDCHECK -DMEMLIM=4096"
PAN_ARGS="-m2000000 -w25"
SPIN_TIMEOUT=300
CC_TIMEOUT=600
PAN_TIMEOUT=${UID_MODEL_TIMEOUT:-900}

usage()
{
	sed -n '2,14s/^# \{0,1\}//p' "$0"
	exit 2
}

field()
{
	# field NAME N: the Nth |-separated field of check NAME
	local c
	for c in "${checks[@]}"; do
		if [ "${c%%|*}" = "$1" ]; then
			echo "$c" | cut -d'|' -f"$2"
			return 0
		fi
	done
	return 1
}

need_tools()
{
	command -v spin >/dev/null 2>&1 || { echo "spin is not installed (apt-get install spin)" >&2; exit 2; }
	command -v "${CC:-gcc}" >/dev/null 2>&1 || { echo "no C compiler (${CC:-gcc})" >&2; exit 2; }
}

# build DIR FLAGS...: spin -a and the C compiler in DIR; 0 if pan was built
build()
{
	local dir=$1
	shift
	cp "$model" "$dir/registry.pml"
	(cd "$dir" && timeout "$SPIN_TIMEOUT" spin "$@" -a registry.pml) > "$dir/spin.out" 2>&1 || {
		echo "spin -a failed:"
		tail -n 20 "$dir/spin.out"
		return 1
	}
	(cd "$dir" && timeout "$CC_TIMEOUT" "${CC:-gcc}" $PAN_CFLAGS ${EXTRA_CFLAGS:-} -o pan pan.c) > "$dir/cc.out" 2>&1 || {
		echo "the C compiler failed on pan.c:"
		grep -m 20 -i error "$dir/cc.out"
		return 1
	}
}

# the property an assertion of the model names
property()
{
	case "$1" in
	*"id_end>highest_id"*) echo uniqueness ;;
	*"id_end-"*) echo lead ;;
	*recovered*) echo recovery ;;
	*"assertion violated"*) echo "range" ;;
	*) echo "" ;;
	esac
}

commas() { echo "$1"; }

# run NAME: one check, one line; 0 if its result is the one expected
run()
{
	local name=$1 expect flags what dir out errors states depth secs violated prop incomplete line
	expect=$(field "$name" 2) || { echo "no check named $name (--list)"; return 1; }
	flags=$(field "$name" 3)
	what=$(field "$name" 4)
	dir=$tmp/$name
	mkdir -p "$dir"
	# shellcheck disable=SC2086
	if ! out=$(build "$dir" $flags); then
		printf "FAIL  %-20s %s: %s\n" "$name" "$what" "not built"
		echo "$out" | sed 's/^/      /'
		return 1
	fi
	# shellcheck disable=SC2086
	(cd "$dir" && timeout "$PAN_TIMEOUT" ./pan $PAN_ARGS) > "$dir/pan.out" 2>&1
	local rc=$?
	errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$dir/pan.out" | tail -n 1)
	states=$(awk '/states, stored/ { print $1; exit }' "$dir/pan.out")
	depth=$(sed -n 's/.*depth reached \([0-9]*\).*/\1/p' "$dir/pan.out" | tail -n 1)
	secs=$(sed -n 's/^pan: elapsed time \([0-9.e+]*\) seconds.*/\1/p' "$dir/pan.out" | tail -n 1)
	violated=$(grep -m 1 'assertion violated' "$dir/pan.out")
	prop=$(property "$violated")
	incomplete=$(grep -m 1 -E 'max search depth too small|reached -DMEMLIM|out of memory|Search not completed' "$dir/pan.out")
	if [ "$rc" = 124 ]; then
		incomplete="timed out after $PAN_TIMEOUT s"
	fi
	local stats="$(commas "${states:-0}") states, depth $(commas "${depth:-0}"), ${secs:-?} s"
	# (a search that stops at its first error says "Search not completed")
	if [ -z "$errors" ] || { [ -n "$incomplete" ] && [ "$errors" = 0 ]; } || [ "$rc" = 124 ]; then
		line="incomplete: ${incomplete:-no result} ($stats)"
		ok=1
	elif [ "$errors" = 0 ]; then
		line="errors: 0 ($stats)"
		[ "$expect" = none ] && ok=0 || ok=1
	else
		line="errors: $errors: ${prop:-an error} violated ($stats)"
		[ "$expect" = "$prop" ] && ok=0 || ok=1
	fi
	if [ "$ok" = 0 ]; then
		printf "ok    %-20s %s: %s\n" "$name" "$what" "$line"
		return 0
	fi
	if [ "$expect" = none ]; then
		printf "FAIL  %-20s %s: %s; expected errors: 0\n" "$name" "$what" "$line"
	else
		printf "FAIL  %-20s %s: %s; expected %s violated\n" "$name" "$what" "$line" "$expect"
	fi
	echo "      spin $flags -a registry.pml; pan $PAN_ARGS: the end of its output:"
	[ -n "$violated" ] && echo "      $violated"
	sed '/^Stats on memory usage/,$d' "$dir/pan.out" | grep -v -e '^Depth=' -e '^$' | tail -n 14 | sed 's/^/      /'
	grep -E '^(pan: elapsed|pan: rate)' "$dir/pan.out" | sed 's/^/      /'
	[ -n "$violated" ] && echo "      (bash model/check.sh --trail $name: the shortest trail, step by step)"
	return 1
}

# The @-lines a replay prints (printf in the model), made readable: absolute
# times (the model's are relative to now), the holders named A, B, C
# however the model reorders them.
readable()
{
	awk '
	BEGIN { T = 0; name[0] = "A"; name[1] = "B"; name[2] = "C"
		a[1] = "the number"; a[2] = "grace period (or the lease ended)"; a[3] = "none free"; a[4] = "renewed"
		a[5] = "no claim of the number"; a[6] = "another claim" }
	# (horizons and IDs at the model'"'"'s floor LOW are "at most" that: -infinity too)
	function at(x) { return x == LOW ? "<=" (x + T) : x + T }
	function abs(x) { return x + T }
	/^@settings/ { LOW = $2; LS = $3; next }
	/^@offset/ { printf("      %s'"'"'s clock is %+d\n", name[$2], $3); next }
	/^@tick/ { T++; next }
	/^@swap/ { t = name[$2]; name[$2] = name[$3]; name[$3] = t; next }
	/^@claim / { if ($3 == 1) printf("T=%-3d %s claims: the number, previous horizon %s, horizon %s (base %s)\n", T, name[$2], at($4), at($5), abs($6))
		else printf("T=%-3d %s claims: %s\n", T, name[$2], a[$3]); next }
	/^@claimlost/ { if ($3 == 1) printf("T=%-3d %s claims, the answer is lost: granted (previous horizon %s, horizon %s)\n", T, name[$2], at($4), at($5))
		else printf("T=%-3d %s claims, the answer is lost (%s)\n", T, name[$2], a[$3]); next }
	/^@renew / { if ($3 == 4) printf("T=%-3d %s renews: horizon %s, IDs until T=%d (base %s)\n", T, name[$2], at($5), T + LS, abs($6))
		else printf("T=%-3d %s renews: %s\n", T, name[$2], a[$3]); next }
	/^@renewlost/ { printf("T=%-3d %s renews, the answer is lost (%s%s)\n", T, name[$2], a[$3], $3 == 4 ? ", horizon " at($5) : ""); next }
	/^@id/ { printf("T=%-3d %s makes an ID, its unit ending at %s (virtual clock %s; the highest ID so far ends at %s)\n", T, name[$2], at($3), abs($4), at($5)); next }
	/^@release/ { printf("T=%-3d %s shuts down, releasing with durable horizon %s, and starts again\n", T, name[$2], at($3)); next }
	/^@crash/ { printf("T=%-3d %s crashes and starts again\n", T, name[$2]); next }
	/^@giveup/ { printf("T=%-3d %s gives its number up\n", T, name[$2]); next }
	/^@clock/ { printf("T=%-3d %s'"'"'s clock steps to %+d\n", T, name[$2], $3); next }
	/^@snapshot/ { printf("T=%-3d registry: snapshot (a backup, or what the standby has replayed)\n", T); next }
	/^@failover/ { printf("T=%-3d registry: fails over to the standby, or is restored from the backup: the snapshot (%s, %s)\n", T,
		$2 ? "a claims row" : "no claims row", $3 ? "the record of another incarnation" : "no record"); next }
	/^@dump/ { printf("T=%-3d registry: restored from a dump of the snapshot (%s, no record)\n", T, $2 ? "a claims row" : "no claims row"); next }
	/^@empty/ { printf("T=%-3d registry: a standby cloned before the first claim is promoted: nothing\n", T); next }
	/^@restart/ { printf("T=%-3d registry: restarts\n", T); next }
	/^@calm/ { printf("T=%-3d from now on no faults\n", T); next }
	/Error: assertion violated/ { print "      " $0 }
	/text of failed assertion/ { print "      " $0 }'
}

# trail NAME: a breadth-first search for the shortest counterexample, replayed
trail()
{
	local name=$1 flags dir
	flags=$(field "$name" 3) || { echo "no check named $name (--list)"; return 1; }
	dir=$tmp/$name-trail
	mkdir -p "$dir"
	# (a breadth-first search allows no hidden variable: -DBFS_TRAIL)
	# shellcheck disable=SC2086
	EXTRA_CFLAGS=-DBFS build "$dir" $flags -DBFS_TRAIL || return 1
	echo "spin $flags -DBFS_TRAIL; pan -DBFS (this may take a few minutes)"
	# shellcheck disable=SC2086
	(cd "$dir" && timeout 600 ./pan $PAN_ARGS) > "$dir/pan.out" 2>&1
	grep -E 'assertion violated|errors:|states, stored|elapsed' "$dir/pan.out"
	[ -f "$dir/registry.pml.trail" ] || { echo "no counterexample"; return 1; }
	# shellcheck disable=SC2086
	(cd "$dir" && spin -T -t $flags -DBFS_TRAIL registry.pml) 2>&1 | grep -E '^@|assertion' | readable
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

case "${1:-}" in
--list)
	for c in "${checks[@]}"; do echo "${c%%|*}"; done
	exit 0 ;;
--trail)
	[ $# = 2 ] || usage
	need_tools
	trail "$2"
	exit $? ;;
-h | --help)
	usage ;;
-*)
	usage ;;
esac

need_tools
names=("$@")
if [ ${#names[@]} = 0 ]; then
	for c in "${checks[@]}"; do names+=("${c%%|*}"); done
fi
status=0
for n in "${names[@]}"; do
	run "$n" || status=1
done
exit $status
