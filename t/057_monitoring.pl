# The monitoring views (doc/monitoring.md), each counter driven through the
# event it counts, in real servers: borrowing under overload and the wait
# for the clock (sno, whose pool is cut to 4 per 4 ms, and sonyflake), the
# clock set back (twice, and forward again), a horizon write that fails
# (a directory where the state file's temporary copy goes), inside a
# PL/pgSQL block that catches the error, a shard not owned, a shard
# released, and a synchronous standby that is stopped while an ID waits
# for it.  The log lines that go with them are read from the server's log.
# Last, postgres_exporter (Debian's binary, where test/run.sh unpacked it)
# runs the repository's query file (monitoring/postgres_exporter.yml)
# against the server, and its /metrics page shows the views and every metric
# the alert rules (monitoring/uniqueid-alerts.yml) name; promtool (Debian's
# prometheus) checks those rules and runs their unit tests.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;
use PostgreSQL::Test::Utils;
use IPC::Run;
use Time::HiRes qw(time usleep);

my $lead_ms = 100;
my $node = uid_node('mon', allows_streaming => 1, conf => [
	"uniqueid.max_clock_lead = ${lead_ms}ms",
	q{uniqueid.shards = '0-99'}, 'uniqueid.node = 5',
	'uniqueid.sno_sequence_min = 0', 'uniqueid.sno_sequence_max = 3' ]);
uid_on_clock($node, sub { $node->start });
my $pgdata = $node->data_dir;
sub sql { return $node->safe_psql('postgres', $_[0]); }
# the value of one column of one row of a view
sub gen { my ($col, $where) = @_; return sql("SELECT $col FROM uniqueid_catalog.uniqueid_generators WHERE $where"); }
sub dur { return sql("SELECT $_[0] FROM uniqueid_catalog.uniqueid_durability WHERE scope = 'server'"); }
# the server's log from offset on
sub log_since { return slurp_file($node->logfile, $_[0]); }

sql('CREATE EXTENSION uniqueid');
sql('SELECT uniqueid_stats_reset()');

# ---- borrowing under overload, and the wait for the clock ----
# N IDs of a family that holds P per unit of U ms need N / P units.  What the
# clock did not supply while the statement ran (it took E ms, measured from
# outside, so at least its real time) was borrowed; a borrowed unit never
# starts more than uniqueid.max_clock_lead ahead of the clock, so a
# statement whose IDs need more than that ahead waits for the clock.
# How fast this machine calls a generator decides only whether the
# overload happens: measured first, with uuid7 (4,096 a millisecond).
# sonyflake's 100,000 IDs need 3.9 s of its clock, which a busy machine's
# pauses do not fill as they could 20,000's 0.8 s.
sub timed
{
	my ($query) = @_;
	my $t0 = time;
	sql($query);
	return (time - $t0) * 1000;
}
my $calib_ms = timed('SELECT count(next_uuid7()) FROM generate_series(1, 20000)');
my %overloaded;
for my $f ([ 'sno', 'next_sno(0)', 4, 4, 4000 ], [ 'sonyflake', 'next_sonyflake()', 256, 10, 100000 ])
{
	my ($family, $call, $per_unit, $unit_ms, $n) = @$f;
	my $log_at = -s $node->logfile;
	is(gen('ids_per_unit', "family = '$family'"), $per_unit, "$family: $per_unit IDs per unit, as its layout holds");
	my $e_ms = timed("SELECT count($call) FROM generate_series(1, $n)");
	my $units = $n / $per_unit;
	my ($issued, $borrows, $borrowed_ms, $max_lead, $waits, $wait_ms, $max_wait) = split /\|/,
	  gen('issued, borrows, borrowed_ms, max_lead_ms, clock_waits, clock_wait_ms, max_clock_wait_ms',
		"family = '$family'");
	is($issued, $n, "$family: the $n IDs are counted");
	cmp_ok($borrows, '<=', $units, "$family: no more units borrowed than the IDs took");
	is($borrowed_ms + 0, $borrows * $unit_ms, "$family: borrowed_ms is the borrowed units' length");
	cmp_ok($max_lead, '<=', $lead_ms, "$family: no borrowed unit started past uniqueid.max_clock_lead ($max_lead ms)");
	# the wait is due when the IDs came faster than the clock plus the allowance
	# (the calibration made 20,000 uuid7 in $calib_ms ms; twice as long
	# leaves room for a machine slower during the run than during it)
  SKIP:
	{
		skip sprintf('this machine made 20,000 uuid7 in %.0f ms: too slow to outrun %s', $calib_ms, $family), 6
		  if 2 * $calib_ms * $n / 20000 > $units * $unit_ms - $lead_ms - $unit_ms;
		$overloaded{$family} = 1;
		cmp_ok($waits, '>=', 1, "$family: calls waited for the clock ($waits)");
		# a call waits only when the next unit would start past the allowance,
		# so the unit before started within one unit of it, and every unit
		# ahead of the clock was borrowed
		cmp_ok($max_lead, '>', $lead_ms - $unit_ms, "$family: borrowed units went up to the allowance ($max_lead ms)");
		my $least = int($lead_ms / $unit_ms) - 1;
		cmp_ok($borrows, '>=', $least, "$family: at least the $least units that takes were borrowed ($borrows)");
		cmp_ok($wait_ms, '>', 0, "$family: for $wait_ms ms in all");
		cmp_ok($max_wait, '<=', $wait_ms, "$family: the longest wait is part of the total");
		like(log_since($log_at),
			qr/LOG:  uniqueid: \Q$family\E IDs are [\d.]+ ms ahead of the clock, past half of uniqueid\.max_clock_lead \($lead_ms ms\)/,
			"$family: the first borrow past half the allowance is logged");
	}
}
# (a family that the calibration did not predict overloaded may still have
# borrowed past half the allowance: at most one line, then)
for my $family (qw(sno sonyflake))
{
	my @lead_lines = log_since(0) =~ /uniqueid: \Q$family\E IDs are [\d.]+ ms ahead of the clock/g;
	$overloaded{$family}
	  ? is(scalar @lead_lines, 1, "$family: one line for the overload, not one per borrow")
	  : cmp_ok(scalar @lead_lines, '<=', 1, "$family: at most one line, not one per borrow");
}

# ---- the clock set back ----
is(dur('clock_steps_back'), 0, 'no step back of the clock yet');
my $log_at = -s $node->logfile;
uid_clock_set($node, -5);
# a generator that reads the clock for a new unit (ulid's first ID) sees it
# and logs it; the view counts it
sql('SELECT next_ulid()');
ok(uid_wait_until(10, sub { log_since($log_at) =~ /LOG:  uniqueid: the system clock went back [\d.]+ ms/ }),
	'the clock set back 5 s is seen by a generator, and logged');
my ($steps, $max_back) = split /\|/, dur('clock_steps_back, clock_step_back_max_ms');
is($steps, 1, 'and counted');
ok($max_back > 4500 && $max_back < 5500, "by 5 s ($max_back ms)");
sql('SELECT count(next_snowflake()), count(next_sno(0)) FROM generate_series(1, 100)');
is(dur('clock_steps_back'), 1, 'once, however many IDs follow');
uid_clock_set($node, -8);
sql('SELECT next_snowflake()');
($steps, $max_back) = split /\|/, dur('clock_steps_back, clock_step_back_max_ms');
is($steps, 2, 'a second step back, further, counts again');
ok($max_back > 7500 && $max_back < 8500, "the largest is 8 s below the highest reading ($max_back ms)");
uid_clock_set($node, 0);
sql('SELECT next_snowflake()');
is(dur('clock_steps_back'), 2, 'the clock set forward again is no step back');
is(dur('clock_stepped_back_at > now() - interval \'1 minute\''), 't', 'the time of the last one is shown');

# ---- a horizon write that fails ----
# generate until the horizon must move (it leads the clock by a second);
# the caller catches the error, the log still has it
my $writes = dur('writes');
cmp_ok($writes, '>=', 1, "the horizon was written ($writes times since the reset)");
is(dur('file_writes'), $writes, 'every write timed');
is(dur('wal_flushes'), $writes, 'and every WAL flush');
$log_at = -s $node->logfile;
mkdir "$pgdata/uniqueid.horizon.tmp" or die "cannot make the obstacle: $!";
my $caught = '';
for (1 .. 100)
{
	$caught = sql(q{DO $$BEGIN PERFORM next_snowflake(); EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'caught'; END$$;
		SELECT CASE WHEN write_failures > 0 THEN 'failed' END FROM uniqueid_catalog.uniqueid_durability WHERE scope = 'server'});
	last if $caught eq 'failed';
	usleep(50_000);
}
is($caught, 'failed', 'a failed write of the horizon is counted, though the caller caught its error');
like(log_since($log_at),
	qr/LOG:  uniqueid could not make its horizon durable: could not create file "uniqueid\.horizon\.tmp": Is a directory/,
	'and logged with its error');
is(dur('writes'), $writes, 'no write counted for it');
rmdir "$pgdata/uniqueid.horizon.tmp" or die "cannot remove the obstacle: $!";
uid_wait_renewal($node) or die "the horizon's renewal did not come\n";
# (ahead of the ID that needed it, not of a later reading of the clock: on
# a busy machine the next statement may come after the lease has run out)
my $cleared = sql('SELECT clock_timestamp()');
my $needed = sql('SELECT id_time(next_snowflake())');
cmp_ok(dur('writes'), '>', $writes, 'once cleared, the horizon is written again');
is(dur("written_at >= '$cleared' AND horizon > '$needed'"), 't',
	'just now, ahead of the ID that needed it');

# ---- a shard not owned, a shard released ----
my ($ret, $out, $err) = $node->psql('postgres', 'SELECT next_id(500)');
like($err, qr/shard 500 is not owned by this server/, 'a shard not in uniqueid.shards is refused');
is(gen(q{refused_not_owned || ' ' || issued || ' ' || state}, 'shard = 500'), '1 0 active',
	'counted on its row');
sql('SELECT count(next_id(7)) FROM generate_series(1, 3)');
my $last7 = sql('SELECT id_time(shard_release(7))');
($ret, $out, $err) = $node->psql('postgres', 'SELECT next_id(7)');
like($err, qr/shard 7 was handed over to another server/, 'a released shard is refused');
is(gen("refused_released || ' ' || issued || ' ' || state || ' ' || (last_id_time = '$last7')", 'shard = 7'),
	'1 3 released true', 'counted, with its state and the time of its last ID');

# ---- a synchronous standby that is stopped ----
$node->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('mon_standby');
$standby->init_from_backup($node, 'b', has_streaming => 1);
$standby->start;
uid_set($node, 'synchronous_standby_names', 'mon_standby');
uid_wait_until(30, sub { sql(q{SELECT sync_state FROM pg_stat_replication}) eq 'sync' })
  or die 'the standby did not become synchronous';
uid_wait_renewal($node) or die "the horizon's renewal did not come\n";
sql('SELECT next_snowflake()');
my $synced_at = time;
my ($sync_waits, $sync_ms) = split /\|/, dur('sync_waits, sync_wait_ms');
cmp_ok($sync_waits, '>=', 1, "a horizon write waited for the synchronous standby ($sync_waits, $sync_ms ms)");
$standby->stop;
$log_at = -s $node->logfile;
my $failures = dur('write_failures');
# an ID that needs the horizon moved waits, until it is canceled (here once
# the view shows it has waited 3 s: a statement_timeout could end the wait
# before a busy machine's next psql saw it)
uid_wait_renewal($node) or die "the horizon's renewal did not come\n";
my $h = $node->background_psql('postgres', on_error_stop => 0);
$h->query_until(qr/started/, q{\echo started
SELECT next_snowflake();
});
# (read while the statement still runs: reading the view does not wait for the write)
ok(uid_wait_until(60, sub { sql(q{SELECT (SELECT sync_waiting_since IS NOT NULL FROM uniqueid_catalog.uniqueid_durability
		WHERE scope = 'server') AND EXISTS (SELECT FROM pg_stat_activity WHERE state = 'active'
		AND query LIKE '%next_snowflake()%' AND pid <> pg_backend_pid())}) eq 't' }),
	'while it waits, sync_waiting_since says since when');
uid_wait_until(60, sub { dur(q{clock_timestamp() - sync_waiting_since > interval '3 s'}) eq 't' })
  or die "the wait did not last 3 s\n";
# (a wait over a second is logged at most once in 10 s, server-wide: when
# the first wait, on a busy machine, took over a second, it may have been,
# and this one is canceled 10 s after it)
uid_sleep_until($synced_at + 10.5) if $sync_ms > 1000;
sql(q{SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE state = 'active'
	AND query LIKE '%next_snowflake()%' AND pid <> pg_backend_pid()});
ok(uid_wait_until(60, sub { dur('sync_waiting_since IS NULL') eq 't' }), 'until the wait ends');
$h->quit;
my ($waits2, $ms2) = split /\|/, dur('sync_waits, sync_wait_ms');
is($waits2, $sync_waits + 1, 'the wait is counted');
cmp_ok($ms2 - $sync_ms, '>=', 3000, 'it lasted until it was canceled, after 3 s (' . ($ms2 - $sync_ms) . ' ms)');
is(dur('write_failures'), $failures + 1, 'a write not confirmed is a failed write');
like(log_since($log_at), qr/LOG:  uniqueid waited [\d.]+ s for the synchronous standbys to confirm its horizon/,
	'a wait over a second is logged');
uid_set($node, 'synchronous_standby_names', '');

# ---- the reset ----
sql('SELECT uniqueid_stats_reset()');
is(sql(q{SELECT sum(issued + borrows + clock_waits + refused_not_owned + refused_released)
	FROM uniqueid_catalog.uniqueid_generators}), 0, 'a reset sets every generator counter to 0');
is(dur("writes || ' ' || write_failures || ' ' || sync_waits || ' ' || clock_steps_back"), '0 0 0 0',
	'and every counter of the durable state');
is(gen('state', 'shard = 7'), 'released', 'the released shard stays released');

# ---- postgres_exporter, with the repository's query file ----
SKIP:
{
	my $exporter = $ENV{UID_EXPORTER} // '';
	skip 'postgres_exporter is not unpacked (test/run.sh does it on the machine itself, from Debian\'s '
	  . 'prometheus-postgres-exporter)', 6 unless -x $exporter;
	sql('SELECT count(next_snowflake()) FROM generate_series(1, 1234)');
	$node->psql('postgres', 'SELECT next_id(500)');
	my $port = PostgreSQL::Test::Cluster::get_free_port();
	my $host = $node->host;
	my $pgport = $node->port;
	my $queries = "$FindBin::RealBin/../monitoring/postgres_exporter.yml";
	local $ENV{DATA_SOURCE_NAME} = "host=$host port=$pgport user=postgres dbname=postgres sslmode=disable";
	my $log = PostgreSQL::Test::Utils::tempdir() . '/exporter.log';
	my $run = IPC::Run::start([ $exporter, '--disable-default-metrics', '--disable-settings-metrics',
		"--extend.query-path=$queries", "--web.listen-address=127.0.0.1:$port" ],
		'>', $log, '2>&1');
	require HTTP::Tiny;
	my $metrics = '';
	uid_wait_until(30, sub {
		my $r = HTTP::Tiny->new(timeout => 5)->get("http://127.0.0.1:$port/metrics");
		$metrics = $r->{success} ? $r->{content} : '';
		return $metrics =~ /uniqueid_generators_issued/;
	});
	$run->kill_kill;
	like($metrics, qr/^uniqueid_generators_issued\{family="snowflake",[^}]*\} 1234$/m,
		'the exporter shows the IDs issued per family') or diag(slurp_file($log));
	like($metrics, qr/^uniqueid_generators_refused_not_owned\{family="shardid",[^}]*shard="500"[^}]*\} 1$/m,
		'the refusals, per shard');
	like($metrics, qr/^uniqueid_generators_ids_per_unit\{family="sonyflake",[^}]*\} 256$/m, 'the capacity');
	like($metrics, qr/^uniqueid_generators_lead_seconds\{family="snowflake",[^}]*\} [\d.e+-]+$/m, 'the lead');
	like($metrics, qr/^uniqueid_durability_horizon_ahead_seconds\{[^}]*scope="server"[^}]*\} [\d.e+-]+$/m,
		'how far the horizon is ahead of the clock');
	like($metrics, qr/^uniqueid_durability_sync_waiting_seconds\{[^}]*scope="server"[^}]*\} 0$/m,
		'and how long a wait for the standbys has lasted (none)');
	# the alert rules name only metrics that the exporter shows
	my $rules = slurp_file("$FindBin::RealBin/../monitoring/uniqueid-alerts.yml");
	my %named = map { $_ => 1 } $rules =~ /\b(uniqueid_(?:generators|durability)_\w+)/g;
	my @missing = grep { $metrics !~ /^\Q$_\E\{/m } sort keys %named;
	is("@missing", '', 'every metric of monitoring/uniqueid-alerts.yml (' . scalar(keys %named) . ') is one the exporter shows');
}

# ---- the alert rules, with promtool ----
SKIP:
{
	my $promtool = $ENV{UID_PROMTOOL} // '';
	skip 'promtool is not unpacked (test/run.sh does it on the machine itself, from Debian\'s prometheus)', 2
	  unless -x $promtool;
	my $dir = "$FindBin::RealBin/../monitoring";
	my $out;
	IPC::Run::run([ $promtool, 'check', 'rules', "$dir/uniqueid-alerts.yml" ], '>', \$out, '2>&1');
	like($out, qr/SUCCESS: 8 rules found/, 'promtool reads the 8 alert rules') or diag($out);
	# (promtool test rules reads the rule file beside the test file)
	IPC::Run::run([ $promtool, 'test', 'rules', "$dir/uniqueid-alerts.test.yml" ], '>', \$out, '2>&1');
	like($out, qr/^\s*SUCCESS\s*$/m, 'and they fire as their unit tests say (monitoring/uniqueid-alerts.test.yml)')
	  or diag($out);
}

done_testing();
