# The server's wall clock goes back 10 s while a client generates: no
# duplicate, no step backwards, and no call waits for the clock to catch up.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;
use Time::HiRes qw(time usleep);

my $node = uid_node('clock', conf => ['uniqueid.max_clock_lead = 50']);
uid_on_clock($node, sub { $node->start });
$node->safe_psql('postgres', q{
	CREATE EXTENSION uniqueid;
	CREATE TABLE got (batch int, n int, id shardid);
});

# 80 batches of 2,000 IDs about 50 ms apart (paced here: pg_sleep follows the
# server's wall clock), through the moment the clock goes back; each batch is
# timed on this process's real clock.
my $psql = $node->background_psql('postgres');
my $slowest = 0;
for my $b (1 .. 80)
{
	uid_clock_set($node, -10) if $b == 30;
	my $t0 = time;
	$psql->query_safe(
		"INSERT INTO got SELECT $b, n, next_id(3) FROM generate_series(1, 2000) n");
	my $ms = (time - $t0) * 1000;
	$slowest = $ms if $ms > $slowest;
	usleep(50_000);
}
$psql->quit;

my ($total, $distinct, $back, $regressed) = split /\|/, $node->safe_psql('postgres', q{
	SELECT count(*), count(DISTINCT id),
		(SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY batch, n) AS back FROM got) s WHERE back),
		(SELECT clock_step_back_max_ms BETWEEN 9500 AND 10500 FROM uniqueid_catalog.uniqueid_durability
		   WHERE scope = 'server')
	FROM got});
is($total,    160000, '160000 IDs generated through the clock change');
is($distinct, 160000, 'no duplicate');
is($back,     0,      'no step backwards across the clock change');
# (as the server measured the step: its wall clock against its monotonic
# one, whatever the time between two batches on a busy machine)
is($regressed, 't', "the server's clock went back 10 s mid-run");
# no call waited for the clock: none counted (doc/monitoring.md's
# clock_waits), and no batch took as long as such a wait, which lasts until
# the clock is back within uniqueid.max_clock_lead (50 ms) of the 10 s it
# went back; one that did not wait takes milliseconds, more on a busy machine
is($node->safe_psql('postgres', 'SELECT sum(clock_waits) FROM uniqueid_catalog.uniqueid_generators'), 0,
	'no call waited for the clock (clock_waits)');
cmp_ok($slowest, q{<}, 10_000 - 50,
	sprintf('no batch took as long as a wait for the clock, 10 s less the 50 ms lead (slowest %.0f ms)', $slowest));

done_testing();
