# Faults at the worst moment, under load.  Three clients generate shardid,
# uuid7, sno and objectid values as fast as they can while one system call
# of the horizon's durable write fails, or its process is killed right
# after one succeeds (test/faultshim.c, preloaded: the server and uniqueid
# run unchanged):
#
#   the state file cannot be created (read-only file system) or written
#   (disk full): the generator raises that error and issues nothing;
#   its fsync fails (I/O error): the server's PANIC;
#   a crash after the state file is in place, before the WAL record;
#   the WAL record cannot be written (disk full) or flushed (I/O error):
#   the server's PANIC;
#   a crash after the record is flushed, before the ID is returned.
#
# After each fault the server restarts (a power cut after the errors;
# restart_after_crash is off, so a PANIC or a killed backend takes the server
# down by itself) with its clock 30 s behind; the clients start on that
# clock, which is then set right while they run.  Every ID
# the clients received, from every round, is kept: none may repeat, and
# each round's IDs sort above every earlier round's.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;

my %error = (
	'erofs-state-create' => qr/could not create file "uniqueid\.horizon\.tmp": Read-only file system/,
	'enospc-state-write' => qr/could not write file "uniqueid\.horizon\.tmp": No space left on device/);
my %panic = (
	'eio-state-fsync'       => qr/PANIC:  could not fsync file "uniqueid\.horizon\.tmp": Input\/output error/,
	'kill-after-state-file' => qr/(?:server process|client backend) \(PID \d+\) was terminated by signal 9/,
	'enospc-wal-write'      => qr/PANIC:  could not write to log file .*No space left on device/,
	'eio-wal-fsync'         => qr/PANIC:  could not fdatasync file .*Input\/output error/,
	'kill-after-wal-flush'  => qr/(?:server process|client backend) \(PID \d+\) was terminated by signal 9/);
my @faults = map { ($_, $_) } sort(keys %error), sort(keys %panic);

my $node = uid_node('faults',
	conf => [ 'fsync = on', 'wal_sync_method = fdatasync', 'restart_after_crash = off' ]);
uid_on_faults($node, sub { $node->start });
$node->safe_psql('postgres', q{
	CREATE EXTENSION uniqueid;
	CREATE TABLE ids (round int, a shardid UNIQUE, b uuid UNIQUE, c sno UNIQUE, d objectid UNIQUE);
	CREATE TABLE batch (a shardid, b uuid, c sno, d objectid)});
my $ids_file = $node->basedir . '/batch.txt';

# received(RUNS, SIZES): true once every client has printed more than its
# size in SIZES (psql writes each statement's rows when it ends: the client
# has received IDs), or has ended (its stderr read meanwhile)
sub received
{
	my ($runs, $sizes) = @_;
	return !grep {
		my $r = $runs->[$_];
		(-s $r->{file} // 0) <= $sizes->[$_] && $r->{h}->pumpable && eval { $r->{h}->pump_nb; 1 }
	} 0 .. $#$runs;
}

# three clients, each running up to 150 statements of 200 IDs of each
# generator.  They start on the clock the server restarted with; once each
# has received IDs the clock is set right (so that the IDs follow it and the
# horizon moves), and once each has received more FAULT is asked for: a
# fault before the first ID would leave nothing to check (a busy machine
# starts the clients late).  Each wait is bounded by the framework's
# timeout.  Returns what each client printed and whether it ended well.
my $statement = 'SELECT next_id(1), next_uuid7(), next_sno(), next_objectid() FROM generate_series(1, 200), pg_sleep(0.01)';
sub clients
{
	my ($fault) = @_;
	my @runs;
	for my $i (1 .. 3)
	{
		# output to a file, not a pipe that this process would have to drain
		my $r = { file => $node->basedir . "/client$i.out", err => '' };
		# (nothing of an earlier round's may count as received)
		unlink $r->{file};
		$r->{h} = IPC::Run::start(
			[
				$node->installed_command('psql'), '-XAtq', '-F', "\t", '-v', 'ON_ERROR_STOP=1',
				'-d', $node->connstr('postgres'), map { ('-c', $statement) } 1 .. 150
			],
			'<', \undef, '>', $r->{file}, '2>', \$r->{err},
			IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
		push @runs, $r;
	}
	my @none = (0) x @runs;
	uid_wait_until($PostgreSQL::Test::Utils::timeout_default, sub { received(\@runs, \@none) })
	  or diag('the clients received no ID on the clock behind within '
		  . "$PostgreSQL::Test::Utils::timeout_default s");
	my @behind = map { -s $_->{file} // 0 } @runs;
	uid_clock_set($node, 0);
	if ($fault)
	{
		uid_wait_until($PostgreSQL::Test::Utils::timeout_default, sub { received(\@runs, \@behind) })
		  or diag('the clients received no more IDs after the clock was set right within '
			  . "$PostgreSQL::Test::Utils::timeout_default s");
		uid_fault($node, $fault);
	}
	for my $r (@runs)
	{
		$r->{ok} = eval { $r->{h}->finish } ? 1 : 0;
		$r->{err} .= $@ if $@;
		$r->{out} = slurp_file($r->{file});
	}
	return @runs;
}

# keeps the IDs the clients received (after the restart that follows them):
# checks them against every earlier round's, then stores them
my ($total, $round) = (0, 0);
sub keep
{
	my ($what, @runs) = @_;
	open my $fh, '>', $ids_file or die "cannot write $ids_file: $!";
	for my $r (@runs)
	{
		print $fh map { s/\t$//r . "\n" } grep { /\S/ } split /\n/, $r->{out};
	}
	close $fh;
	$node->safe_psql('postgres', "TRUNCATE batch; \\copy batch FROM '$ids_file'");
	my ($n, $distinct, $above, $repeats) = split /\|/, $node->safe_psql('postgres', q{
		SELECT count(*),
			count(DISTINCT a) + count(DISTINCT b) + count(DISTINCT c) + count(DISTINCT d) = 4 * count(*),
			coalesce((SELECT a FROM batch ORDER BY a LIMIT 1) > (SELECT a FROM ids ORDER BY a DESC LIMIT 1)
				AND (SELECT b FROM batch ORDER BY b LIMIT 1) > (SELECT b FROM ids ORDER BY b DESC LIMIT 1)
				AND (SELECT c FROM batch ORDER BY c LIMIT 1) > (SELECT c FROM ids ORDER BY c DESC LIMIT 1)
				AND (SELECT d FROM batch ORDER BY d LIMIT 1) > (SELECT d FROM ids ORDER BY d DESC LIMIT 1), true),
			(SELECT count(*) FROM batch x WHERE EXISTS (SELECT FROM ids i
				WHERE i.a = x.a OR i.b = x.b OR i.c = x.c OR i.d = x.d))
		FROM batch});
	ok($n > 0 && $distinct eq 't' && $above eq 't' && $repeats == 0,
		"$what: the $n IDs of each generator received are new and above all $total before");
	$node->safe_psql('postgres', "INSERT INTO ids SELECT $round, * FROM batch");
	$total += $n;
	return;
}

# restarts the server (already down, or by a power cut) 30 s behind
sub restart
{
	my ($down) = @_;
	uid_kill_all($node) unless $down;
	$round++;
	uid_clock_set($node, -30);
	uid_on_faults($node, sub { $node->start });
	return;
}

# a first round without a fault
my @runs = clients();
is(scalar(grep { $_->{ok} } @runs), 3, 'three clients generate without a fault');
restart(0);
keep('before any fault', @runs);

for my $fault (@faults)
{
	my $log_at = -s $node->logfile;
	@runs = clients($fault);
	# The fault happens at the next horizon write of the kind it names,
	# which a slow machine may not reach before the clients end: while it is
	# still asked for and nothing failed, the clients run again (at most
	# four more times, each one long enough for two renewals of the lease).
	my $rounds = 1;
	while (uid_fault($node) && $rounds < 5 && !grep { !$_->{ok} } @runs)
	{
		push @runs, clients();
		$rounds++;
	}
	if (!ok(!uid_fault($node), "$fault: injected"))
	{
		diag("the fault was still asked for after $rounds rounds of clients");
		unlink($node->basedir . '/fault');
	}
	note("$fault: injected in round $rounds of the clients") if $rounds > 1;
	if ($error{$fault})
	{
		my @failed = grep { !$_->{ok} } @runs;
		ok(@failed == 1 && $failed[0]{err} =~ $error{$fault},
			"$fault: the client whose ID needed the horizon got the error, the others went on")
		  or diag(join("\n", map { $_->{err} } @failed));
		restart(0);
	}
	else
	{
		my $down = uid_wait_down($node);
		ok($down, "$fault: the server went down");
		my $log = slurp_file($node->logfile, $log_at);
		like($log, $panic{$fault}, "$fault: with the expected message in the server log");
		restart($down);
	}
	keep("$fault, then a restart 30 s behind", @runs);
}

# the IDs after the last restart
@runs = clients();
is(scalar(grep { $_->{ok} } @runs), 3, 'after the last fault, three clients generate again');
restart(0);
keep('after every fault', @runs);
note("faults injected: " . scalar(@faults) . ", IDs of each generator received: $total, repeated: 0");

done_testing();
