#!/bin/bash
# test/tap_cpu.sh FILE: how test/run.sh has prove run a TAP file (prove
# --exec): with perl, the PGXS test modules on @INC (UID_TAP_PERL) as prove
# would put them, in a cpuacct cgroup of its own under UID_TAP_CPU (made by
# run.sh; none if unset).  The cgroup holds every process the file starts,
# its servers included (but those test/netns.sh's daemon starts for it, in
# t/058 and t/096), and run.sh reads what they used when the files are done.
if [ -n "${UID_TAP_CPU:-}" ]; then
	g=$UID_TAP_CPU/$(basename "$1" .pl)
	mkdir -p "$g" 2>/dev/null && echo $$ 2>/dev/null >"$g/tasks"
fi
# (as prove does: its -I directories in PERL5LIB, for child perls too)
export PERL5LIB="$UID_TAP_PERL:$PWD${PERL5LIB:+:$PERL5LIB}"
exec perl "$@"
