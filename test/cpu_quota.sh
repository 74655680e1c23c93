#!/usr/bin/env bash
# test/cpu_quota.sh CPUS COMMAND...: COMMAND (and all it starts) in a cgroup
# whose CPU time is at most CPUS processors' worth (cgroup v1's cpu
# controller: cpu.cfs_quota_us over cpu.cfs_period_us), to see how the
# suite fares on a slower machine; then the wall time and the CPU seconds
# COMMAND used (cpuacct), and COMMAND's exit status.  On a 2-core machine,
#
#   bash test/cpu_quota.sh 1 bash test/run.sh --matrix
#
# runs the matrix as a machine half as fast would where the matrix keeps
# every core busy (a lone process still runs at full speed: the quota is of
# the whole).  Needs root and cgroup v1's cpu and cpuacct hierarchies
# (/sys/fs/cgroup/cpu, /sys/fs/cgroup/cpuacct); says so and exits 2 without.
set -u
case "${1:-}" in
'' | -h | --help)
	sed -n '2,/^[^#]/ s/^# \{0,1\}//p' "$0" | sed '/^set -u/d'
	exit 2
	;;
esac
cpus=$1
shift
[[ "$cpus" =~ ^[0-9]+(\.[0-9]+)?$ ]] && [ $# -gt 0 ] || { echo "usage: bash test/cpu_quota.sh CPUS COMMAND..." >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "test/cpu_quota.sh: needs root, to make cgroups" >&2; exit 2; }
for h in cpu cpuacct; do
	[ -w "/sys/fs/cgroup/$h" ] || { echo "test/cpu_quota.sh: no cgroup v1 $h hierarchy at /sys/fs/cgroup/$h" >&2; exit 2; }
done
name=uniqueid-quota.$$
period=20000
quota=$(awk -v c="$cpus" -v p=$period 'BEGIN { printf "%d", c * p }')
[ "$quota" -ge 1000 ] || { echo "test/cpu_quota.sh: $cpus CPUs is too little" >&2; exit 2; }
mkdir "/sys/fs/cgroup/cpu/$name" "/sys/fs/cgroup/cpuacct/$name" || exit 2
remove() { rmdir "/sys/fs/cgroup/cpu/$name" "/sys/fs/cgroup/cpuacct/$name" 2>/dev/null; }
trap remove EXIT
echo $period >"/sys/fs/cgroup/cpu/$name/cpu.cfs_period_us" &&
	echo "$quota" >"/sys/fs/cgroup/cpu/$name/cpu.cfs_quota_us" || exit 2
start=$SECONDS
# (a child joins both cgroups, then runs COMMAND; this shell stays outside)
bash -c 'for h in cpu cpuacct; do echo $$ >"/sys/fs/cgroup/$h/'"$name"'/tasks" || exit 2; done; exec "$@"' quota "$@"
rc=$?
used=$(cat "/sys/fs/cgroup/cpuacct/$name/cpuacct.usage")
echo "# test/cpu_quota.sh: $cpus CPUs: $((SECONDS - start)) s, $((used / 1000000000)) CPU seconds, exit status $rc" >&2
# (what COMMAND left running keeps the cgroups; they go with it)
exit $rc
