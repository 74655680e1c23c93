# 4 concurrent connections x 50,000 next_objectid(), all from the one
# shared slot: no duplicate, and each connection's IDs strictly increasing.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;

# the shared test cluster's lead: past the second's counter, at most 50 ms
# ahead of the clock
my $node = uid_node('objectid_concurrency', conf => ['uniqueid.max_clock_lead = 50']);
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION uniqueid;
	CREATE TABLE got (conn int, n int, id objectid);
});

my @runs = uid_concurrently($node, 'postgres',
	map { "INSERT INTO got SELECT $_, n, next_objectid() FROM generate_series(1, 50000) n" } 1 .. 4);
ok(!(grep { !$_->{ok} } @runs), 'next_objectid(): 4 connections generated concurrently')
  or diag(join '', map { $_->{err} } @runs);
is( $node->safe_psql('postgres',
		'SELECT count(*) - count(DISTINCT id) + (200000 - count(*)) FROM got'),
	0, 'next_objectid(): 200000 IDs, no duplicate');
is( $node->safe_psql('postgres', q{
	SELECT count(*) FROM (SELECT id <= lag(id) OVER (PARTITION BY conn ORDER BY n) AS back FROM got) s
	WHERE back}),
	0, "next_objectid(): each connection's IDs strictly increasing");

done_testing();
