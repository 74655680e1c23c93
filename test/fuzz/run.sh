#!/usr/bin/env bash
# test/fuzz/run.sh [SECONDS] - builds the libFuzzer targets of the pure codecs
# and of the masks' cipher
# (test/fuzz/*_fuzz.c, with AddressSanitizer and UndefinedBehaviorSanitizer)
# and runs each for SECONDS (default 30) from its seed corpus in
# test/fuzz/corpus.  Prints one TAP line per target: "ok" when it ran the
# whole time without a finding, "not ok" with the crash's input otherwise.
# Longer: bash test/fuzz/run.sh 3600
set -u
cd "$(dirname "$0")/../.." || exit 2
secs=${1:-30}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for t in codec basen mask; do
	if ! make -s "test/fuzz/${t}_fuzz" >"$work/$t.build" 2>&1; then
		echo "not ok - ${t}_fuzz does not build"
		sed 's/^/# /' "$work/$t.build"
		continue
	fi
	mkdir -p "$work/$t"
	cp "test/fuzz/corpus/$t/"* "$work/$t/"
	if (cd "$work" && timeout -k 10 $((secs + 60)) "$OLDPWD/test/fuzz/${t}_fuzz" -max_total_time="$secs" \
		-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 "$t" >"$t.log" 2>&1); then
		runs=$(grep -oP '^stat::number_of_executed_units:\s*\K\d+' "$work/$t.log")
		echo "ok - ${t}_fuzz: ${runs:-?} inputs in $secs s, no finding"
	else
		echo "not ok - ${t}_fuzz found a problem"
		grep -E 'ERROR|SUMMARY|Test unit written|==[0-9]+==' "$work/$t.log" | head -n 20 | sed 's/^/# /'
		cp "$work"/crash-* "$work"/leak-* "$work"/timeout-* . 2>/dev/null
	fi
done
