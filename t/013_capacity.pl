# Capacity: 200,000 IDs in one statement, far over a layout's capacity per
# unit (next_id: 1,024 per ms and shard; next_uuid7: 4,096 per ms), on a
# server whose uniqueid.max_clock_lead is 50 ms, so that the generator must
# borrow ahead and then wait for the clock: strictly increasing, the
# embedded time never more than the lead ahead of clock_timestamp(), every
# unit filled from its first sequence number up.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;

my $node = uid_node('capacity', conf => ['uniqueid.max_clock_lead = 50']);
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION uniqueid');
sub sql { return $node->safe_psql('postgres', $_[0]); }

sql(q{CREATE TABLE burst AS
	SELECT n, next_id(9) AS id, clock_timestamp() AS after_call
	FROM generate_series(1, 200000) AS n});
is(sql('SELECT count(DISTINCT id) FROM burst'), 200000, 'next_id: 200,000 distinct IDs');
is(sql('SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS back FROM burst) s WHERE back'),
	0, 'next_id: strictly increasing in call order');
is(sql(q{SELECT max(id_time(id) - after_call) <= interval '50 ms' FROM burst}),
	't', 'next_id: the embedded time never leads clock_timestamp() by more than the 50 ms lead');
# the burst needed about 195 ms of IDs; with a 50 ms lead the statement had to wait
is(sql(q{SELECT max(id_time(id)) - min(id_time(id)) >= interval '190 ms' FROM burst}),
	't', 'next_id: the burst spans at least 200000/1024 ms of IDs');
is(sql(q{SELECT count(*) FROM
		(SELECT id_seq(id) AS seq, row_number() OVER (PARTITION BY id_time(id) ORDER BY n) - 1 AS rank
		 FROM burst) s WHERE seq <> rank}),
	0, 'next_id: each millisecond is filled from seq 0 upward, without gaps');

sql(q{CREATE TABLE burst7 AS
	SELECT n, next_uuid7() AS u, clock_timestamp() AS after_call
	FROM generate_series(1, 200000) AS n});
is(sql('SELECT count(DISTINCT u) FROM burst7'), 200000, 'next_uuid7: 200,000 distinct values');
is(sql('SELECT count(*) FROM (SELECT u <= lag(u) OVER (ORDER BY n) AS back FROM burst7) s WHERE back'),
	0, 'next_uuid7: strictly increasing in call order');
is(sql(q{SELECT max(id_time(u) - after_call) <= interval '50 ms' FROM burst7}),
	't', 'next_uuid7: the embedded time never leads clock_timestamp() by more than the 50 ms lead');
# 4,096 per ms: the burst needs at least 49 milliseconds
cmp_ok(sql('SELECT count(DISTINCT id_time(u)) FROM burst7'), '>=', 49,
	'next_uuid7: the burst spans at least 200000/4096 milliseconds');

done_testing();
