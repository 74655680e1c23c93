# Load: 32 connections generating at once for every generator (next_id on
# one shard and on many), into tables with unique indexes; IDs made inside
# parallel query workers; and uniqueid.max_clock_lead = 0 (never borrow)
# under overload, which must wait for the clock without spinning.
#
# Each phase is short here (UID_LOAD_SECONDS, default 3 s per generator);
# bench/stress.sh runs the same test for 60 s per generator.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;
use Time::HiRes qw(time);

my $secs = $ENV{UID_LOAD_SECONDS} // 3;
my $conns = 32;
my $node = uid_node('load', conf => [ 'max_connections = 50', 'max_worker_processes = 8',
	'max_parallel_workers = 4' ]);
$node->start;
sub sql { return $node->safe_psql('postgres', $_[0]); }
sql('CREATE EXTENSION uniqueid');

# 32 connections, each inserting batches of 100 IDs for $secs seconds
my @generators = (
	[ 'shardid',   'next_id(11)',            'next_id on one shard' ],
	[ 'shardid',   'next_id(c % 16)',        'next_id on 16 shards' ],
	[ 'snowflake', 'next_snowflake()',       'next_snowflake' ],
	[ 'sonyflake', 'next_sonyflake()',       'next_sonyflake' ],
	[ 'shortid',   'next_shortid()',         'next_shortid' ],
	[ 'spreadid',  "next_spreadid('time')",  'next_spreadid in time mode' ],
	[ 'sno',       'next_sno()',             'next_sno' ],
	[ 'objectid',  'next_objectid()',        'next_objectid' ],
	[ 'uuid',      'next_uuid7()',           'next_uuid7' ],
);
my $total = 0;
for my $g (@generators)
{
	my ($type, $expr, $what) = @$g;
	sql("DROP TABLE IF EXISTS got; CREATE TABLE got (c int, n bigint, id $type UNIQUE)");
	my @runs = uid_concurrently($node, 'postgres', map { qq{
		DO \$\$
		DECLARE
			c int := $_;
			b bigint := 0;
			stop timestamptz := clock_timestamp() + interval '$secs s';
		BEGIN
			WHILE clock_timestamp() < stop LOOP
				INSERT INTO got SELECT c, b * 100 + i, $expr FROM generate_series(1, 100) i;
				b := b + 1;
			END LOOP;
		END
		\$\$} } 1 .. $conns);
	ok(!(grep { !$_->{ok} } @runs), "$what: $conns connections for $secs s, through a unique index")
	  or diag(join '', map { $_->{err} } grep { !$_->{ok} } @runs);
	my ($rows, $distinct, $back, $who) = split /\|/, sql(q{SELECT count(*), count(DISTINCT id),
		(SELECT count(*) FROM (SELECT id <= lag(id) OVER (PARTITION BY c ORDER BY n) AS back FROM got) s WHERE back),
		count(DISTINCT c) FROM got});
	$total += $rows;
	is($distinct, $rows, "$what: $rows IDs, no duplicate");
	is($back, 0, "$what: each connection's IDs strictly increasing");
	is($who, $conns, "$what: all $conns connections generated");
}
note("$total IDs from $conns connections");

# IDs made by parallel query workers: no duplicate across the workers
sql('CREATE TABLE src AS SELECT n FROM generate_series(1, 100000) n; ANALYZE src');
my $par = 'SET max_parallel_workers_per_gather = 4; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; '
  . 'SET min_parallel_table_scan_size = 0; SET parallel_leader_participation = off;';
for my $g (grep { $_->[1] !~ /\bc\b/ } @generators)
{
	my ($type, $expr, $what) = @$g;
	my $q = "SELECT count(*) - count(DISTINCT id) FROM (SELECT $expr AS id FROM src) s";
	my $plan = sql("$par EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF) $q");
	my ($launched) = $plan =~ /Workers Launched: (\d+)/;
	my ($fn) = $expr =~ /^(\w+)/;
	like($plan, qr/Parallel Seq Scan on public\.src\s+\(actual[^\n]*\n\s+Output: \Q$fn\E\(/,
		"$what: the plan calls it in the workers' scan") or diag($plan);
	ok(($launched // 0) >= 2, "$what: in " . ($launched // 0) . ' parallel workers, without the leader');
	is(sql("$par $q"), 0, "$what: 100,000 IDs made by the workers, no duplicate");
}

# uniqueid.max_clock_lead = 0: over capacity, every call waits for the clock
# and sleeps while it waits.  51,200 sonyflakes are 2 s of its capacity (256
# per 10 ms).
uid_set($node, 'uniqueid.max_clock_lead', '0');
# (once the lead the loads above may have left, at most the default 1 s, is gone)
$node->poll_query_until('postgres', q{SELECT coalesce(max(lead_ms), 0) = 0 FROM uniqueid_catalog.uniqueid_generators
	WHERE family = 'sonyflake'}) or die "sonyflake stays ahead of the clock\n";
my $session = $node->background_psql('postgres');
my $pid = $session->query_safe('SELECT pg_backend_pid()');
my $ticks = `getconf CLK_TCK` + 0 || 100;
sub cpu_s
{
	open my $fh, '<', "/proc/$pid/stat" or die "cannot read /proc/$pid/stat: $!";
	my @f = split ' ', (<$fh> =~ s/^.*\) //r);
	return ($f[11] + $f[12]) / $ticks;
}
my ($cpu0, $t0) = (cpu_s(), time);
$session->query_safe(q{CREATE TABLE slow AS
	SELECT n, next_sonyflake() AS id, clock_timestamp() AS after FROM generate_series(1, 51200) n});
my ($cpu, $wall) = (cpu_s() - $cpu0, time - $t0);
$session->quit;
is(sql(q{SELECT count(DISTINCT id) = 51200
		AND (SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS back FROM slow) s WHERE back) = 0
	FROM slow}), 't', 'max_clock_lead 0: 51,200 sonyflakes, distinct and strictly increasing');
is(sql(q{SELECT count(*) FROM slow WHERE id_time(id) > after}), 0,
	'max_clock_lead 0: no ID ahead of the clock reading after it');
cmp_ok($wall, '>=', 1.9, sprintf('max_clock_lead 0: the burst waited for the clock (%.2f s for 2 s of capacity)', $wall));
cmp_ok($cpu, '<', $wall / 2,
	sprintf('max_clock_lead 0: waiting is sleeping, not spinning (%.2f s of CPU in %.2f s)', $cpu, $wall));

done_testing();
