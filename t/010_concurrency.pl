# 4 concurrent connections x 50,000 IDs from the same generator slot
# (next_id on one shard, next_sno, next_snowflake, next_sonyflake,
# next_shortid, next_spreadid in both modes): no duplicate, and each
# connection's IDs strictly increasing (but for spreadid's SPREAD mode).
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;

# the shared test cluster's lead: a slot that runs out of its unit's
# sequence borrows at most 50 ms ahead, then waits for the clock
my $node = uid_node('concurrency', conf => ['uniqueid.max_clock_lead = 50']);
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION uniqueid');

# run_generator(TYPE, EXPR, [unordered]): 4 connections x 50,000 calls of
# EXPR, then the checks (for an unordered generator, the order of the IDs'
# times)
sub run_generator
{
	my ($type, $expr, $unordered) = @_;
	$node->safe_psql('postgres',
		"DROP TABLE IF EXISTS got; CREATE TABLE got (conn int, n int, id $type)");
	my @runs = uid_concurrently($node, 'postgres',
		map { "INSERT INTO got SELECT $_, n, $expr FROM generate_series(1, 50000) n" } 1 .. 4);
	ok(!(grep { !$_->{ok} } @runs), "$expr: 4 connections generated concurrently")
	  or diag(join '', map { $_->{err} } @runs);
	is( $node->safe_psql('postgres',
			'SELECT count(*) - count(DISTINCT id) + (200000 - count(*)) FROM got'),
		0, "$expr: 200000 IDs, no duplicate");
	if ($unordered)
	{
		is( $node->safe_psql('postgres', q{
			SELECT count(*) FROM (SELECT id_time(id) < lag(id_time(id)) OVER (PARTITION BY conn ORDER BY n) AS back FROM got) s
			WHERE back}),
			0, "$expr: keys scattered, but each connection's times never go back");
		return;
	}
	is( $node->safe_psql('postgres', q{
		SELECT count(*) FROM (SELECT id <= lag(id) OVER (PARTITION BY conn ORDER BY n) AS back FROM got) s
		WHERE back}),
		0, "$expr: each connection's IDs strictly increasing");
}

run_generator('shardid',   'next_id(11)');
run_generator('sno',       'next_sno()');
run_generator('snowflake', 'next_snowflake()');
run_generator('sonyflake', 'next_sonyflake()');
run_generator('shortid',   'next_shortid()');
run_generator('spreadid',  "next_spreadid('time')");
run_generator('spreadid',  'next_spreadid()', 'unordered');

done_testing();
