# 4 concurrent connections x 50,000 next_uuid7() from the one shared uuid7
# slot: no duplicate, each connection strictly increasing, the lead over the
# clock within uniqueid.max_clock_lead, and each backend draws its own random
# tails (a PRNG seeded per backend, not one sequence for all).
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;

# the shared test cluster's lead, which check 5 holds the values to
my $node = uid_node('uuid7_concurrency', conf => ['uniqueid.max_clock_lead = 50']);
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION uniqueid;
	CREATE TABLE got (conn int, n int, u uuid, after timestamptz);
});
sub sql { return $node->safe_psql('postgres', $_[0]); }

my @runs = uid_concurrently($node, 'postgres',
	map { "INSERT INTO got SELECT $_, n, next_uuid7(), clock_timestamp() FROM generate_series(1, 50000) n" }
	  1 .. 4);
ok(!(grep { !$_->{ok} } @runs), '4 connections generated concurrently')
  or diag(join '', map { $_->{err} } @runs);
sql(q{CREATE TABLE f AS SELECT conn, n, u, after,
	substr(u::text, 15, 1) AS version, substr(u::text, 20, 1) AS variant_nibble,
	substring(('x' || substr(u::text, 20, 4) || substr(u::text, 25, 12))::bit(64) FROM 3) AS tail FROM got});
is(sql('SELECT count(*) - count(DISTINCT u) + (200000 - count(*)) FROM f'),
	0, '200000 values, no duplicate');
is( sql(q{SELECT count(*) FROM (SELECT u <= lag(u) OVER (PARTITION BY conn ORDER BY n) AS back FROM f) s
		WHERE back}),
	0, "each connection's values strictly increasing");
is( sql(q{SELECT count(*) FROM f WHERE version <> '7' OR variant_nibble NOT IN ('8', '9', 'a', 'b')}),
	0, 'all version 7, variant 10');
is( sql(q{SELECT max(id_time(u) - after) <= current_setting('uniqueid.max_clock_lead')::interval FROM f}),
	't', 'the time never leads the clock by more than uniqueid.max_clock_lead')
  or diag('lead over the clock: ' . sql('SELECT max(id_time(u) - after) FROM f'));
# a tail drawn by two backends would mean a shared seed: 62 random bits make a
# chance repeat among 200,000 values about 4e-9
is( sql('SELECT count(*) FROM (SELECT tail FROM f GROUP BY tail HAVING count(DISTINCT conn) > 1) s'),
	0, 'no random tail drawn by two connections');
is(sql('SELECT count(DISTINCT tail) FROM f WHERE n = 1'),
	4, 'every connection draws its own random tails: 4 distinct first tails');

done_testing();
