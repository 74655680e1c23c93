# A standby promoted while its primary was generating under load, the
# worst case: the standby stopped receiving WAL 2 s before the primary's
# power cut (its walsender is stopped with SIGSTOP), and its clock is 30 s
# behind the old primary's.
#
# With asynchronous replication the old primary went on generating for
# those 2 s, so the IDs it issued above the last horizon record the standby
# received form a window: the new primary may issue them again.  The test
# measures it, and checks that every repeated ID lies in that window.
# With synchronous replication the primary waits for the standby to confirm
# each new horizon before any ID under it is returned, so the window is
# empty and nothing repeats.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

# received(RUNS): how many IDs the clients have received so far (their
# files' lines)
sub received
{
	my $n = 0;
	for my $r (@_)
	{
		open my $fh, '<', $r->{file} or next;
		while (read($fh, my $buf, 1 << 20)) { $n += ($buf =~ tr/\n//); }
		close $fh;
	}
	return $n;
}

sub scenario
{
	my ($mode) = @_;
	my $primary = uid_node("primary_$mode", allows_streaming => 1);
	$primary->start;
	$primary->safe_psql('postgres', 'CREATE EXTENSION uniqueid; SELECT next_id(1)');
	$primary->backup('base');
	my $standby = PostgreSQL::Test::Cluster->new("standby_$mode");
	$standby->init_from_backup($primary, 'base', has_streaming => 1);
	uid_on_clock($standby, sub { $standby->start });
	$primary->poll_query_until('postgres',
		q{SELECT count(*) = 1 FROM pg_stat_replication WHERE state = 'streaming'})
	  or die "the standby does not stream\n";
	uid_set($primary, 'synchronous_standby_names', "standby_$mode") if $mode eq 'sync';
	ok($primary->poll_query_until('postgres', "SELECT sync_state = '$mode' FROM pg_stat_replication"),
		"$mode: the standby replicates ${mode}hronously");
	my $walsender = $primary->safe_psql('postgres', 'SELECT pid FROM pg_stat_replication');

	# two clients generate next_id(1) as fast as they can, into files
	my @runs;
	for my $i (1 .. 2)
	{
		my $r = { file => $primary->basedir . "/client$i.out", err => '' };
		$r->{h} = IPC::Run::start(
			[
				$primary->installed_command('psql'), '-XAtq', '-v', 'ON_ERROR_STOP=1',
				'-d', $primary->connstr('postgres'),
				map { ('-c', 'SELECT next_id(1) FROM generate_series(1, 1000)') } 1 .. 2000
			],
			'<', \undef, '>', $r->{file}, '2>', \$r->{err},
			IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
		push @runs, $r;
	}
	# once they have received the 100,000 IDs the checks below want (a busy
	# machine starts them late), the standby stops receiving WAL
	uid_wait_until($PostgreSQL::Test::Utils::timeout_default, sub {
			received(@runs) > 100_000 || !grep { $_->{h}->pumpable && eval { $_->{h}->pump_nb; 1 } } @runs
		})
	  or diag("$mode: the clients did not receive 100,000 IDs within $PostgreSQL::Test::Utils::timeout_default s");
	kill 'STOP', $walsender;
	usleep(2_000_000);
	my $waiting = '';
	if ($mode eq 'sync')
	{
		# the generator renewing the horizon waits for the standby; canceled, it issues nothing
		uid_wait_until(10, sub {
			$waiting = $primary->safe_psql('postgres',
				q{SELECT pid FROM pg_stat_activity WHERE wait_event = 'SyncRep' LIMIT 1});
			return $waiting ne '';
		});
		$primary->safe_psql('postgres', "SELECT pg_cancel_backend($waiting)") if $waiting;
		# its client prints the error and ends (ON_ERROR_STOP), and the
		# backend with it
		$primary->poll_query_until('postgres', "SELECT NOT EXISTS (SELECT FROM pg_stat_activity WHERE pid = $waiting)")
		  or diag("the canceled backend $waiting did not end") if $waiting;
	}
	uid_kill_all($primary);
	my @old;
	my $errors = '';
	for my $r (@runs)
	{
		eval { $r->{h}->finish };
		push @old, grep { /^\d+$/ } split /\n/, slurp_file($r->{file});
		$errors .= $r->{err};
	}
	if ($mode eq 'sync')
	{
		ok($waiting, 'sync: a generator waits for the standby to confirm the new horizon');
		like($errors, qr/ERROR:  canceled the wait for the synchronous standbys to confirm uniqueid's horizon/,
			'sync: canceled, it raises an error and returns no ID');
	}

	uid_clock_set($standby, -30);
	$standby->promote;
	my ($floor) = slurp_file($standby->data_dir . '/uniqueid.horizon') =~ /^(\d+)/;
	open my $fh, '>', $standby->basedir . '/old.txt' or die $!;
	print $fh map { "$_\n" } @old;
	close $fh;
	my $old_file = $standby->basedir . '/old.txt';
	$standby->safe_psql('postgres', qq{
		CREATE TABLE old (id shardid);
		\\copy old FROM '$old_file'
		CREATE TABLE new AS SELECT next_id(1) AS id FROM generate_series(1, 300000)});
	my ($n_old, $in_window, $repeats, $outside) = split /\|/, $standby->safe_psql('postgres', qq{
		SELECT (SELECT count(*) FROM old),
			(SELECT count(*) FROM old WHERE id >= make_shardid(to_timestamp($floor / 1000.0), 1, 0)),
			(SELECT count(*) FROM old JOIN new USING (id)),
			(SELECT count(*) FROM old JOIN new USING (id)
				WHERE old.id < make_shardid(to_timestamp($floor / 1000.0), 1, 0))});
	$standby->stop;
	return ($n_old, $in_window, $repeats, $outside);
}

my ($n, $window, $repeats, $outside) = scenario('async');
note("asynchronous: $n IDs received from the old primary, $window of them above the promoted "
	  . "standby's floor, $repeats issued again by the new primary");
ok($n > 100_000, "asynchronous: the clients received $n IDs before the power cut");
ok($window > 0, "asynchronous: $window of them lie above the horizon the standby received (the window)");
is($outside, 0, 'asynchronous: no ID below that horizon is issued again');

($n, $window, $repeats, $outside) = scenario('sync');
note("synchronous: $n IDs received from the old primary, $window of them above the promoted "
	  . "standby's floor, $repeats issued again by the new primary");
ok($n > 100_000, "synchronous: the clients received $n IDs before the power cut");
is($window, 0, 'synchronous: none lies above the horizon the standby confirmed');
is($repeats, 0, 'synchronous: the new primary issues none of them again');

done_testing();
