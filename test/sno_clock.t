# TAP: sno's tick-tock rule on a clock the test sets (test/clockshift.c).
# The server's clock goes back 3 s: IDs continue at the earlier wall-clock
# time with the other tick, no duplicate, no wait.  Then it goes back again,
# into the period the first tick covered, so neither tick can be used at the
# clock's time: the generator waits until the clock is past what the current
# tick has issued, then continues on it; still no duplicate.
. test/lib.sh
echo "1..7"
D=$(uid_tmpdir)
trap 'uid_cluster_stop "$D"; rm -rf "$D"' EXIT
uid_cluster_init "$D"
uid_cluster_start "$D" $(uid_clock_env "$D")
q() { uid_psql "$D" -d postgres -At -F ' ' -c "$1"; }
q "CREATE EXTENSION uniqueid; CREATE TABLE got (phase int, n int, id sno); CREATE TABLE took (phase int, t0 timestamptz, took interval)"
# gen PHASE: generate 20,000 IDs in a new backend and record how long that
# took by its clock (which does not jump during one statement)
gen() {
	q "DO \$\$ DECLARE t0 timestamptz := clock_timestamp(); BEGIN
		INSERT INTO got SELECT $1, n, next_sno() FROM generate_series(1, 20000) n;
		INSERT INTO took VALUES ($1, t0, clock_timestamp() - t0);
	END \$\$"
}
ticks() { q "SELECT string_agg(DISTINCT id_tick(id)::text, ',') FROM got WHERE phase = $1"; }

# phase 1 on the real clock; phase 2 with the clock 3 s behind (tick 1);
# phase 3 with it 5 s behind: behind phase 2's IDs, and at or below the
# highest time tick 0 issued (phase 1's), so neither tick can be used
gen 1
uid_clock_set "$D" -3
sleep 0.1
gen 2
took2=$(q "SELECT round(extract(epoch FROM took) * 1000) FROM took WHERE phase = 2")
[ "$(ticks 1)" = 0 ] && [ "$(ticks 2)" = 1 ] && echo "ok 1 - after the clock went back the tick flipped (0 -> 1)" ||
	echo "not ok 1 - ticks: phase 1 $(ticks 1), phase 2 $(ticks 2)"
[ "$(q "SELECT (SELECT max(id_time(id)) FROM got WHERE phase = 2) < (SELECT min(id_time(id)) FROM got WHERE phase = 1)")" = t ] &&
	echo "ok 2 - IDs continue at the earlier wall-clock time" || echo "not ok 2 - phase 2 IDs are not earlier"
[ "$(q "SELECT count(*) - count(DISTINCT id) FROM got")" = 0 ] && echo "ok 3 - no duplicate after one regression" ||
	echo "not ok 3 - duplicates"
# a wait for the clock would take about 3 s
[ -n "$took2" ] && [ "$took2" -lt 1000 ] && echo "ok 4 - the first regression did not wait (${took2} ms)" ||
	echo "not ok 4 - the first regression took ${took2} ms"

uid_clock_set "$D" -5
sleep 0.1
gen 3
[ "$(ticks 3)" = 1 ] && [ "$(q "SELECT (SELECT min(id) FROM got WHERE phase = 3) > (SELECT max(id) FROM got WHERE phase = 2)")" = t ] &&
	echo "ok 5 - after the second regression IDs continue on tick 1, above the tick's earlier IDs" ||
	echo "not ok 5 - phase 3: ticks $(ticks 3)"
# The clock started phase 3 behind the last ID of phase 2: the statement had
# to wait (by its own clock) at least until it got there.
read -r gap took3 <<<"$(q "SELECT round(extract(epoch FROM (SELECT max(id_time(id)) FROM got WHERE phase = 2) - t0) * 1000),
	round(extract(epoch FROM took) * 1000) FROM took WHERE phase = 3")"
[ "${gap:-0}" -gt 100 ] && [ "${took3:-0}" -ge $((gap - 10)) ] &&
	echo "ok 6 - it waited for the clock to leave the covered period (${took3} ms for a ${gap} ms gap)" ||
	echo "not ok 6 - the clock was ${gap} ms behind, the statement took ${took3} ms"
[ "$(q "SELECT count(*) - count(DISTINCT id) FROM got")" = 0 ] && echo "ok 7 - 60000 IDs, no duplicate" ||
	echo "not ok 7 - duplicates"
