# sno below a fixed floor: a server restarted with its clock an hour behind
# issues sno values from the floor on, at sno's capacity, and does not wait
# for its clock to reach the floor.  With 16 sequence numbers per 4 ms unit,
# 20,000 values need 1,250 units, far more than the 255 units of lead that
# sno keeps for telling a clock regression apart: below the floor there is no
# regression to tell apart, and the borrowing is bounded by the high-water
# mark, which moves on from the floor.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;

my $node = uid_node('sno_floor', conf => [ 'uniqueid.sno_sequence_max = 15' ]);
uid_on_clock($node, sub { $node->start });
$node->safe_psql('postgres', q{
	CREATE EXTENSION uniqueid;
	CREATE TABLE before AS SELECT next_sno() AS id FROM generate_series(1, 1000)});
$node->stop;
uid_clock_set($node, -3600);
uid_on_clock($node, sub { $node->start });
my ($ret, $out, $err) = $node->psql('postgres', q{
	SET statement_timeout = '60s';
	CREATE TABLE after AS SELECT next_sno() AS id FROM generate_series(1, 20000);
	SELECT count(DISTINCT id), (SELECT min(id) FROM after) > (SELECT max(id) FROM before) FROM after});
is($ret, 0, 'with the clock an hour behind, 20,000 sno values are issued within the statement timeout')
  or diag($err);
is($out, '20000|t', 'all distinct, all above the values issued before the restart');
done_testing();
