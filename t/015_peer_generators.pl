# The generators of the peers' families: next_ulid, next_ksuid, next_rsxid
# and next_typeid.
# 1. 4 concurrent connections x 50,000 rows, each row one ID of each: no
#    duplicate, each connection's IDs strictly increasing, typeid's prefix
#    kept, rsxid's machine and process fields this server's.
# 2. The server's wall clock goes back 10 s while a client generates: no
#    duplicate, no step backwards, no call waits for the clock.
# (Crashes and restarts with the clock behind: t/030_durability.pl.)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;
use Time::HiRes qw(time usleep);

my $node = uid_node('peer_generators', conf => ['uniqueid.max_clock_lead = 50', 'uniqueid.node = 77']);
uid_on_clock($node, sub { $node->start });
sub sql { return $node->safe_psql('postgres', $_[0]); }
sql(q{
	CREATE EXTENSION uniqueid;
	CREATE TABLE got (conn int, n int, u ulid, k ksuid, x rsxid, t typeid);
});
my @gens = ([ 'u', 'next_ulid' ], [ 'k', 'next_ksuid' ], [ 'x', 'next_rsxid' ], [ 't', 'next_typeid' ]);

# 1. concurrency
my @runs = uid_concurrently($node, 'postgres',
	map { "INSERT INTO got SELECT $_, n, next_ulid(), next_ksuid(), next_rsxid(), next_typeid('order_line')
		FROM generate_series(1, 50000) n" } 1 .. 4);
ok(!(grep { !$_->{ok} } @runs), '4 connections generated concurrently')
  or diag(join '', map { $_->{err} } @runs);
for my $g (@gens)
{
	my ($c, $f) = @$g;
	is(sql("SELECT count(DISTINCT $c) FROM got"), 200000, "$f: 200000 values, no duplicate");
	is( sql(qq{SELECT count(*) FROM (SELECT $c <= lag($c) OVER (PARTITION BY conn ORDER BY n) AS back FROM got) s
			WHERE back}),
		0, "$f: each connection's values strictly increasing");
}
is(sql(q{SELECT count(*) FROM got WHERE typeid_prefix(t) <> 'order_line'}), 0, 'next_typeid: every value of its prefix');
is( sql(q{SELECT count(*) FROM got WHERE id_machine(x) <> 77
		OR id_process(x) <> (SELECT system_identifier & 65535 FROM pg_control_system())}),
	0, "next_rsxid: machine is uniqueid.node, process the system identifier's low 16 bits");
# no value runs away from the clock (uniqueid.max_clock_lead is 50 ms)
is(sql(q{SELECT max(id_time(u)) <= clock_timestamp() + interval '1 s' FROM got}), 't', 'next_ulid: no value ahead of the clock');

# 2. the clock goes back 10 s mid-run (the counters from here on)
sql('SELECT uniqueid_stats_reset()');
sql('CREATE TABLE clk (batch int, n int, u ulid, k ksuid, x rsxid, t typeid)');
my $psql = $node->background_psql('postgres');
my $slowest = 0;
for my $b (1 .. 60)
{
	uid_clock_set($node, -10) if $b == 25;
	my $t0 = time;
	$psql->query_safe("INSERT INTO clk SELECT $b, n, next_ulid(), next_ksuid(), next_rsxid(), next_typeid('user')
		FROM generate_series(1, 1000) n");
	my $ms = (time - $t0) * 1000;
	$slowest = $ms if $ms > $slowest;
	usleep(50_000);
}
$psql->quit;
# (as the server measured the step: its wall clock against its monotonic
# one, whatever the time between two batches on a busy machine)
is(sql(q{SELECT clock_step_back_max_ms BETWEEN 9500 AND 10500 FROM uniqueid_catalog.uniqueid_durability
	WHERE scope = 'server'}), 't', "the server's clock went back 10 s mid-run");
for my $g (@gens)
{
	my ($c, $f) = @$g;
	is( sql(qq{SELECT count(DISTINCT $c) || ' ' || (SELECT count(*) FROM (SELECT $c <= lag($c) OVER (ORDER BY batch, n) AS back
			FROM clk) s WHERE back) FROM clk}),
		'60000 0', "$f: 60000 values through the clock change, no duplicate, no step backwards");
}
# no call waited for the clock: none counted (doc/monitoring.md's
# clock_waits), and no batch took as long as such a wait, which lasts until
# the clock is back within uniqueid.max_clock_lead (50 ms) of the 10 s it
# went back; one that did not wait takes milliseconds, more on a busy machine
is(sql('SELECT sum(clock_waits) FROM uniqueid_catalog.uniqueid_generators'), 0, 'no call waited for the clock (clock_waits)');
cmp_ok($slowest, q{<}, 10_000 - 50,
	sprintf('no batch took as long as a wait for the clock, 10 s less the 50 ms lead (slowest %.0f ms)', $slowest));

$node->stop;
done_testing();
