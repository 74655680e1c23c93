# TAP: uniqueid.sno_sequence_min/_max, row by row of
# test/vectors/sno_generator_bounds.tsv.  This spec keeps "a pool of at least
# 4 values" (max - min + 1 >= 4, min <= max); where the original library
# differs (it swaps reversed bounds, reads 0/0 as the default, and rejects
# pools of 4 and 5 despite its own message), the test says so.
. test/lib.sh
D=$(uid_tmpdir)
trap 'uid_cluster_stop "$D"; rm -rf "$D"' EXIT
uid_cluster_init "$D"
uid_cluster_start "$D"
uid_psql "$D" -d postgres -c "CREATE EXTENSION uniqueid"
n=0
rows=$(tail -n +2 test/vectors/sno_generator_bounds.tsv | cut -f1-3)
echo "1..$(( $(printf '%s\n' "$rows" | wc -l) + 2 ))"
while IFS=$'\t' read -r min max original; do
	n=$((n + 1))
	uid_psql "$D" -d postgres -c "ALTER SYSTEM SET uniqueid.sno_sequence_min = $min" \
		-c "ALTER SYSTEM SET uniqueid.sno_sequence_max = $max" -c "SELECT pg_reload_conf()" >/dev/null
	sleep 0.2
	if [ "$min" -le "$max" ] && [ $((max - min + 1)) -ge 4 ]; then want=OK; else want=ERROR; fi
	out=$(uid_psql "$D" -d postgres -At -c "SELECT bool_and(id_seq(id) BETWEEN $min AND $max)
		FROM (SELECT next_sno() AS id FROM generate_series(1, 50)) s" 2>&1)
	if [ "$out" = t ]; then got=OK
	elif echo "$out" | grep -q 'leave a sequence pool of fewer than 4 values'; then got=ERROR
	else got="unexpected: $out"; fi
	note=""
	[ "$want" != "$original" ] && note=" (the original library says $original)"
	[ "$got" = "$want" ] && echo "ok $n - min $min, max $max: $want$note" ||
		echo "not ok $n - min $min, max $max: want $want, got $got"
done <<<"$rows"
# a small pool: 6 values per 4 ms unit, used in order, then the next unit
uid_psql "$D" -d postgres -c "ALTER SYSTEM SET uniqueid.sno_sequence_min = 10" \
	-c "ALTER SYSTEM SET uniqueid.sno_sequence_max = 15" -c "SELECT pg_reload_conf()" >/dev/null
sleep 0.2
res=$(uid_psql "$D" -d postgres -At -F ' ' -c "CREATE TEMP TABLE s AS SELECT n, next_sno() AS id FROM generate_series(1, 600) n;
	SELECT count(DISTINCT id), bool_and(id_seq(id) BETWEEN 10 AND 15),
	       (SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS b FROM s) q WHERE b),
	       (SELECT max(c) FROM (SELECT count(*) AS c FROM s GROUP BY id_time(id)) g) FROM s")
read -r distinct inpool back perunit <<<"$res"
[ "$distinct" = 600 ] && [ "$inpool" = t ] && [ "$back" = 0 ] &&
	echo "ok $((n + 1)) - 600 IDs from a pool of 10..15: distinct, in the pool, increasing" ||
	echo "not ok $((n + 1)) - got $res"
[ "$perunit" -le 6 ] && echo "ok $((n + 2)) - at most 6 IDs per 4 ms unit: a used-up pool moves to the next unit" ||
	echo "not ok $((n + 2)) - $perunit IDs in one unit"
