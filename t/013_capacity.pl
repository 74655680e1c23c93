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

# burst(TABLE, EXPR, WHAT): 200,000 calls of EXPR in one statement into
# TABLE (n, id, after_call), and what every generator must give: distinct,
# strictly increasing, never further ahead of the clock than the lead
sub burst
{
	my ($table, $expr, $what) = @_;
	sql(qq{CREATE TABLE $table AS
		SELECT n, $expr AS id, clock_timestamp() AS after_call
		FROM generate_series(1, 200000) AS n});
	is(sql("SELECT count(DISTINCT id) FROM $table"), 200000, "$what: 200,000 distinct IDs");
	is(sql("SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS back FROM $table) s WHERE back"),
		0, "$what: strictly increasing in call order");
	is(sql("SELECT max(id_time(id) - after_call) <= interval '50 ms' FROM $table"),
		't', "$what: the embedded time never leads clock_timestamp() by more than the 50 ms lead");
	return;
}

burst('burst', 'next_id(9)', 'next_id');
# the burst needed about 195 ms of IDs; with a 50 ms lead the statement had to wait
is(sql(q{SELECT max(id_time(id)) - min(id_time(id)) >= interval '190 ms' FROM burst}),
	't', 'next_id: the burst spans at least 200000/1024 ms of IDs');
is(sql(q{SELECT count(*) FROM
		(SELECT id_seq(id) AS seq, row_number() OVER (PARTITION BY id_time(id) ORDER BY n) - 1 AS rank
		 FROM burst) s WHERE seq <> rank}),
	0, 'next_id: each millisecond is filled from seq 0 upward, without gaps');

burst('burst7', 'next_uuid7()', 'next_uuid7');
# 4,096 per ms: the burst needs at least 49 milliseconds
cmp_ok(sql('SELECT count(DISTINCT id_time(id)) FROM burst7'), '>=', 49,
	'next_uuid7: the burst spans at least 200000/4096 milliseconds');

done_testing();
