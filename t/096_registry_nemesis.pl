# A randomized nemesis against the node registry (doc/negotiated-nodes.md,
# "The rules" and "When the registry fails"), on real servers.  From a
# seed, it draws a schedule of faults, prints it, and plays it on a
# registry with an asynchronous standby and three holders that share the
# range 1-2 (two numbers for three servers: a number changes hands whenever
# its holder's lease lapses), with short leases (uniqueid.node_lease 3 s,
# node_skew 500 ms, max_clock_lead 1 s), while a client on every holder
# calls next_snowflake() and next_sno() without pause (a psql per holder,
# in a process of its own, 50 of each per statement) and keeps every ID it
# receives, with the true time it received it and the server.
#
# The faults, each healed after its duration, several at once:
#
#   reg_crash       the registry's primary stopped (immediate), restarted
#   failover        to a lagging asynchronous standby: the standby stopped
#                   `lag` s before, the old primary stopped first (the
#                   operator's rule), the standby started and promoted
#   restore_backup  the registry restored from a base backup taken at a
#                   random earlier time (of whichever primary ran then)
#   restore_dump    the registry restored into a fresh cluster from a
#                   pg_dump taken earlier (which does not carry
#                   uniqueid_node_registry; CREATE EXTENSION comes from the
#                   dump); the fresh cluster opens to the holders once the
#                   dump is in
#   crash           a holder stopped (immediate) or SIGKILLed whole
#                   (uid_kill_all), restarted
#   freeze          a holder's postmaster and all its processes SIGSTOPped
#                   for longer than the lease, then SIGCONTed
#   clock           a server's wall clock (a holder's, or the registry's)
#                   offset by up to 30 s either way (test/clockshift.c),
#                   then set right
#   partition       the link between a holder and the registry down (its
#                   packets vanish), then up
#
# The registry's failures come one at a time, each kind in turn; after a
# failover or a restore a new standby is made from the new primary when a
# later failover needs one.  The registry's clock never steps back (the end
# of an offset ahead, the start of one behind) while it may forget: from
# the backup, the dump, the standby's stop or the crash until its first
# answer after the heal (the schedule keeps such steps out of the window,
# and the test holds one back until that answer).  The rules assume that
# the registry's clock does not step back across a restart, failover or
# restore; such a step would be the operator's fault.  Every holder
# reaches the registry over TCP at 'host=A,A port=P1,P2
# target_session_attrs=read-write': every incarnation of the registry
# (primary, standby, promoted standby, restored backup or dump) takes a
# free one of two fixed ports.
#
# Network: the servers run in network namespaces (test/netns.sh, as
# t/058_network_faults.pl does), the registry's incarnations in one, each
# holder in its own, linked by veth pairs that a partition takes down.
# test/netns.sh's daemon starts a server with a clean environment, so a
# server that must run on test/clockshift.c is started through a pg_ctl
# wrapper (in the server's base directory) that sets LD_PRELOAD and
# UID_CLOCK_FILE and runs the real pg_ctl.  Without the daemon (not root),
# everything runs in the machine's namespace over 127.0.0.1 and no
# partition is drawn (the schedule says so).
#
# Checked, for each seed:
#
#   1. no ID repeated among all IDs received (snowflake and sno apart),
#      checked as they arrive;
#   2. lead: every ID's time minus the true time it was received is at most
#      the largest positive clock offset of the seed + lease + max_clock_lead
#      + 1 s + skew + 1 s of slack (rule 4's bound);
#   3. recovery: after the last heal (every server up and running, clocks
#      right, links up, one registry primary), the two numbers are in use
#      again within G + retry + the largest positive offset + 5 s of slack
#      for a busy machine (G = lease + max_clock_lead + 1 s + skew = 5.5 s,
#      retry = min(lease / 10, 1 s)): two holders make node-bearing IDs.
#      The third cannot (no number is free: three holders share two); so
#      then one of the two is stopped cleanly, giving its number back, and
#      the third must make IDs within the same bound;
#   4. no "lost node number N: registry ... records another claim of it"
#      unless another holder had logged "leased node number N" before it,
#      or the holder itself had twice (the registry, restored, holding its
#      earlier claim: another token, as the message says)
#      (the test reads the holders' logs as it goes, their timestamps
#      being on clocks it moves; a lease counts as before the line if it
#      was read no later than one pass after it).  How many such lines
#      came after the holder's own lease of the number (the registry,
#      restored, holding an older claim of the same holder) is counted.
#
# Holders refused because their clock runs ahead of the registry's by more
# than about the allowance less a third of the lease are expected, and
# counted only.  The schedule is printed at the start of each seed, and on
# any failure the seed and the whole schedule (planned and as played) are
# given with diag:  replay one with UID_NEMESIS_SEEDS=SEED.
#
# UID_NEMESIS_SEEDS (default: the list below) are the seeds;
# UID_NEMESIS_SPAN (default 60) the seconds of faults per seed;
# UID_NEMESIS_SECONDS=N runs seeds for N seconds in all (the list's, then
# random ones) and lengthens the alarm to N + 600 s.  Measured on 2 cores
# shared with other test runs (load average 3, PostgreSQL 15): 69 to 76 s
# a seed (setup 9 to 15 s, about 60 s of faults, recovery and teardown a
# few seconds), the whole file (3 seeds, about 33 faults and 40,000 to
# 65,000 IDs of each family a seed) 4 min 10 s.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Cwd qw(abs_path);
use Fcntl qw(O_WRONLY O_NONBLOCK);
use File::Path qw(rmtree);
use IO::Handle;
use IPC::Run;
use List::Util qw(min max sum0);
use POSIX ();
use Time::HiRes qw(time usleep);

# ---- the terms ----

my ($lease, $skew, $max_lead) = (3, 0.5, 1);
my $G = $lease + $max_lead + 1 + $skew;
my $retry = min($lease / 10, 1);
my $lead_slack = 1;
my $recovery_slack = 5;
my @H = qw(h1 h2 h3);
my ($range, $numbers) = ('1-2', 2);

my $span = $ENV{UID_NEMESIS_SPAN} // 60;
die "UID_NEMESIS_SPAN must be a number of seconds from 20\n" unless $span =~ /^\d+(\.\d+)?$/ && $span >= 20;
my @default_seeds = (11, 23, 58);
my @seeds = defined $ENV{UID_NEMESIS_SEEDS} ? grep { $_ ne '' } split(/[\s,]+/, $ENV{UID_NEMESIS_SEEDS}) : @default_seeds;
/^\d+$/ or die "UID_NEMESIS_SEEDS: not a seed: $_\n" for @seeds;
my $budget = $ENV{UID_NEMESIS_SECONDS};
die "UID_NEMESIS_SECONDS must be a number of seconds\n" if defined $budget && $budget !~ /^\d+$/;
# (the framework's alarm is 10 minutes; a longer run lengthens it)
alarm($budget + 600) if $budget;
alarm(150 * @seeds + 150) if !$budget && @seeds > 3;
my $t_begin = time;

my $clock_lib = abs_path("$FindBin::RealBin/../test/clockshift.so");
die "test/clockshift.so is missing (make test/clockshift.so)\n" unless $clock_lib && -e $clock_lib;
my $tmp = abs_path($PostgreSQL::Test::Utils::tmp_check);

# ---- test/netns.sh's daemon (as in t/058_network_faults.pl) ----

my $netns = $ENV{UID_NETNS};
my $no_netns =
    !$netns ? ($ENV{UID_NETNS_WHY}
	  || 'UID_NETNS is not set: test/netns.sh, run by root, makes the namespaces (test/run.sh, or bash test/netns.sh COMMAND)')
  : !-p "$netns/cmd" ? "UID_NETNS=$netns has no daemon's FIFO (test/netns.sh)"
  : undef;
note "network namespaces: " . ($no_netns ? "none ($no_netns): no partitions" : "test/netns.sh's daemon in $netns");

my @freed;
sub nf { return uid_netns_command($netns, @_); }

# the namespaces (once for every seed): the registry's, and one per holder
my %ns = (registry => 'nemr', map { $_ => "nem$_" } @H);
my %reg_addr;    # holder => the registry's address on their link
unless ($no_netns)
{
	nf("ns $ns{$_}") for ('registry', @H);
	push @freed, map { $ns{$_} } ('registry', @H);
	for my $h (@H)
	{
		($reg_addr{$h}) = nf("link $ns{registry} $ns{$h}");
	}
}
else
{
	%reg_addr = map { $_ => '127.0.0.1' } @H;
}

my $bindir = PostgreSQL::Test::Cluster->new('probe')->config_data('--bindir');
# two fixed ports for the registry's incarnations, for every seed
my @reg_ports = (PostgreSQL::Test::Cluster::get_free_port(), PostgreSQL::Test::Cluster::get_free_port());

# ---- the schedule ----

sub uniform { my ($lo, $hi) = @_; return $lo + rand($hi - $lo); }

# a time in [lo, hi] outside every [from, to] of busy (undef if there is
# less than half a second of such time)
sub pick_free
{
	my ($lo, $hi, $busy) = @_;
	my @free = ([ $lo, $hi ]);
	for my $b (@$busy)
	{
		@free = map { $_->[1] <= $b->[0] || $_->[0] >= $b->[1] ? $_
			  : (($_->[0] < $b->[0] ? [ $_->[0], $b->[0] ] : ()), ($_->[1] > $b->[1] ? [ $b->[1], $_->[1] ] : ())) } @free;
	}
	my $len = sum0(map { $_->[1] - $_->[0] } @free);
	return undef if $len < 0.5;
	my $r = rand($len);
	for (@free)
	{
		return $_->[0] + $r if $r < $_->[1] - $_->[0];
		$r -= $_->[1] - $_->[0];
	}
	return $free[-1][1];
}

# make_schedule(SPAN, NET): the faults of one seed (srand first), each
# { id, kind, target, at, dur, ... }, by start
sub make_schedule
{
	my ($span, $net) = @_;
	my @f;
	# the registry: one failure at a time, the kinds in a shuffled order
	my @kinds = qw(reg_crash failover restore_backup restore_dump);
	for my $i (reverse 1 .. $#kinds)
	{
		my $j = int(rand($i + 1));
		@kinds[ $i, $j ] = @kinds[ $j, $i ];
	}
	# (busy: the registry down or being rebuilt, no backup or dump then;
	# forget: from the backup, the dump or the standby's stop to the heal,
	# when the registry's clock may not step back)
	my (@busy, @forget);
	my ($t, $ready) = (uniform(4, 10), 0);
	for (my $i = 0;; $i++)
	{
		my %x = (kind => $kinds[ $i % @kinds ], target => 'registry', dur => uniform(1, 8));
		if ($x{kind} eq 'failover')
		{
			$x{lag} = uniform(1.5, 6);
			$t = max($t, $ready + $x{lag} + 1);
		}
		last if $t + $x{dur} > $span - 2;
		if ($x{kind} =~ /^restore_/)
		{
			$x{taken} = pick_free(1, $t - 1.5, \@busy);
			$x{kind} = 'reg_crash' unless defined $x{taken};
		}
		$x{at} = $t;
		push @f, \%x;
		my $from = $x{kind} eq 'failover' ? $t - $x{lag} : $x{taken} // $t;
		push @forget, [ $from - 1, $t + $x{dur} + 2 ];
		# (a new standby after a failover or a restore: about 6 s)
		$ready = $t + $x{dur} + ($x{kind} eq 'reg_crash' ? 0 : 6);
		push @busy, [ $t - 0.5, $ready + 1 ];
		$t = $ready + uniform(2, 10);
	}
	# a standby is made again after a failover or restore only for a later failover
	for my $i (0 .. $#f)
	{
		$f[$i]{rebuild} = ($f[$i]{kind} ne 'reg_crash' && grep { $_->{kind} eq 'failover' } @f[ $i + 1 .. $#f ]) ? 1 : 0;
	}
	# the holders: a crash or a freeze at a time each
	for my $h (@H)
	{
		my $t = uniform(2, 10);
		while (1)
		{
			my %x = (kind => rand() < 0.5 ? 'crash' : 'freeze', target => $h);
			$x{dur} = $x{kind} eq 'crash' ? uniform(0.5, 8) : uniform($lease + 0.5, 3 * $lease + 1);
			$x{how} = rand() < 0.5 ? 'immediate' : 'kill' if $x{kind} eq 'crash';
			last if $t + $x{dur} > $span - 1;
			$x{at} = $t;
			push @f, \%x;
			$t += $x{dur} + uniform(4, 16);
		}
	}
	# partitions between each holder and the registry
	for my $h (@H)
	{
		my $t = uniform(1, 12);
		while (1)
		{
			my $dur = uniform(1, 10);
			last if $t + $dur > $span - 1;
			push @f, { kind => 'partition', target => $h, at => $t, dur => $dur } if $net;
			$t += $dur + uniform(5, 20);
		}
	}
	# clocks: mostly within the allowance, else up to 30 s either way
	for my $s (@H, 'registry')
	{
		my $t = uniform(1, 15);
		while (1)
		{
			my $off = rand() < 0.6 ? uniform(-4, 4) : uniform(-30, 30);
			my $dur = uniform(3, 15);
			last if $t + $dur > $span - 1;
			# (the registry's clock steps back at the end of an offset ahead,
			# at the start of one behind: never while it may forget)
			my $back = $off > 0 ? $t + $dur : $t;
			if ($s eq 'registry' && grep { $back >= $_->[0] && $back <= $_->[1] } @forget)
			{
				$t += uniform(1, 5);
				next;
			}
			push @f, { kind => 'clock', target => $s, at => $t, dur => $dur, off => $off };
			$t += $dur + uniform(5, 20);
		}
	}
	@f = sort { $a->{at} <=> $b->{at} } @f;
	$f[$_]{id} = $_ + 1 for 0 .. $#f;
	return @f;
}

sub describe
{
	my ($f) = @_;
	my $x =
	    $f->{kind} eq 'clock' ? sprintf('offset %+.1f s', $f->{off})
	  : $f->{kind} eq 'failover' ? sprintf('standby stopped %.1f s before (lag)', $f->{lag})
	  : $f->{kind} eq 'restore_backup' ? sprintf('base backup taken at %.1f s', $f->{taken})
	  : $f->{kind} eq 'restore_dump' ? sprintf('pg_dump taken at %.1f s', $f->{taken})
	  : $f->{kind} eq 'crash' ? "stop $f->{how}"
	  : '';
	$x .= '; then a new standby' if $f->{rebuild};
	return sprintf('#%-2d at %5.1f s for %4.1f s  %-14s %-8s %s', $f->{id}, $f->{at}, $f->{dur}, $f->{kind}, $f->{target}, $x);
}

# the events of the faults: [at, order, fault, action], in order (heals
# first at one time)
sub events_of
{
	my @ev;
	my %order = (end => 0, rebuild => 1, take => 2, pre => 3, begin => 4);
	for my $f (@_)
	{
		push @ev, [ $f->{at} - $f->{lag}, 'pre', $f ] if $f->{kind} eq 'failover';
		push @ev, [ $f->{taken}, 'take', $f ] if defined $f->{taken};
		push @ev, [ $f->{at}, 'begin', $f ], [ $f->{at} + $f->{dur}, 'end', $f ];
		push @ev, [ $f->{at} + $f->{dur} + 0.5, 'rebuild', $f ] if $f->{rebuild};
	}
	return sort { $a->[0] <=> $b->[0] || $order{ $a->[1] } <=> $order{ $b->[1] } || $a->[2]{id} <=> $b->[2]{id} } @ev;
}

# ---- the servers ----

# clock_file_set(FILE, SECONDS): as uid_clock_set, for a file of our own
sub clock_file_set
{
	my ($file, $secs) = @_;
	open my $fh, '>', "$file.tmp" or die "cannot write $file.tmp: $!";
	printf $fh "%.0f\n", $secs * 1e6;
	close $fh;
	rename "$file.tmp", $file or die "cannot rename $file.tmp: $!";
	return;
}

# start_on(NODE, NS, CLOCKFILE): NODE's server started on the clock of
# CLOCKFILE, inside namespace NS where there are namespaces (the daemon
# runs pg_ctl with a clean environment: a wrapper of ours sets the clock's
# environment)
sub start_on
{
	my ($node, $ns, $clock) = @_;
	if ($no_netns)
	{
		local $ENV{LD_PRELOAD} = $clock_lib;
		local $ENV{UID_CLOCK_FILE} = $clock;
		$node->start;
		return;
	}
	my $dir = $node->basedir . '/nsbin';
	unless (-x "$dir/pg_ctl")
	{
		mkdir $dir;
		open my $fh, '>', "$dir/pg_ctl" or die "cannot write $dir/pg_ctl: $!";
		print $fh "#!/bin/sh\n# (t/096_registry_nemesis.pl: pg_ctl on test/clockshift.c)\n"
		  . "LD_PRELOAD='$clock_lib'\nUID_CLOCK_FILE='$clock'\nexport LD_PRELOAD UID_CLOCK_FILE\n"
		  . "exec '$bindir/pg_ctl' \"\$@\"\n";
		close $fh;
		chmod 0755, "$dir/pg_ctl";
	}
	print "### Starting node \"" . $node->name . "\" in network namespace $ns\n";
	nf(join ' ', 'start', $ns, $node->data_dir, $node->logfile, $dir, $node->name);
	$node->_update_pid(1);
	return;
}

sub start_registry { my ($S, $n) = @_; start_on($n, $ns{registry}, $S->{regclock}); return; }
sub start_holder { my ($S, $h) = @_; start_on($S->{h}{$h}, $ns{$h}, $S->{h}{$h}->basedir . '/clock'); return; }

# (the registry listens on every address of its namespace, or on 127.0.0.1)
my $listen = $no_netns ? '127.0.0.1' : '*';
my @registry_conf = (
	"shared_preload_libraries = 'uniqueid'", "uniqueid.shards = ''",
	# (sessions of holders cut off linger until they time out; a holder
	# frozen in the middle of connecting holds a backend, or the
	# immediate stop of the registry, until authentication_timeout)
	'max_connections = 40', "idle_session_timeout = '20s'", "authentication_timeout = '5s'");

# a new registry cluster at PORT (not started): empty, or from a backup
# (FROM: [node, backup name], STANDBY: a standby of it)
sub registry_node
{
	my ($S, $port, $from, $standby) = @_;
	my $n = PostgreSQL::Test::Cluster->new("$S->{tag}_r" . $S->{nreg}++, port => $port);
	if ($from)
	{
		$n->init_from_backup(@$from, has_streaming => $standby ? 1 : 0);
	}
	else
	{
		$n->init(allows_streaming => 1, extra => [ '--encoding=UTF8', '--locale=C.UTF-8' ]);
		$n->append_conf('postgresql.conf', join("\n", @registry_conf, "listen_addresses = '$listen'") . "\n");
		$n->append_conf('pg_hba.conf', "host all all 10.231.0.0/16 trust\nhost all all 127.0.0.1/32 trust\n");
	}
	push @{ $S->{regs} }, $n;
	return $n;
}

# a new standby of the primary, at the other port, started
sub build_standby
{
	my ($S) = @_;
	my $p = $S->{prim};
	my $name = 'sb' . $S->{nbk}++;
	$p->backup($name);
	my $n = registry_node($S, $p->port == $reg_ports[0] ? $reg_ports[1] : $reg_ports[0], [ $p, $name ], 1);
	start_registry($S, $n);
	$S->{stby} = $n;
	return $n->name;
}

# a holder (not started)
sub holder_node
{
	my ($S, $h) = @_;
	my $a = $reg_addr{$h};
	my $n = uid_node(
		"$S->{tag}_$h",
		conf => [
			"cluster_name = '$S->{tag}_$h'",
			"uniqueid.node_registry = 'host=$a,$a port=$reg_ports[0],$reg_ports[1] dbname=postgres target_session_attrs=read-write'",
			"uniqueid.node_range = '$range'", "uniqueid.node_lease = '${lease}s'",
			"uniqueid.node_skew = '${\ ($skew * 1000)}ms'", "uniqueid.shards = ''", "log_statement = 'none'"
		]);
	uid_clock_set($n, 0);
	$S->{h}{$h} = $n;
	return $n;
}

# whether the registry's primary has answered a claim or renewal since it
# last started (its incarnation's record names its start)
sub registry_answered
{
	my ($S) = @_;
	my ($rc, $out) = $S->{prim}->psql('postgres',
		'SELECT count(*) FROM uniqueid_node_registry WHERE started = pg_postmaster_start_time()', timeout => 10);
	return $rc == 0 && $out eq '1';
}

# children(PID): its child processes
sub children { my ($pid) = @_; return map { /(\d+)/ ? $1 : () } `pgrep -P $pid`; }

# ---- the clients ----

my $batch = 50;
my $pause = 0.03;
my $query = 'SELECT s, (extract(epoch FROM id_time(s)) * 1000)::bigint, n, (extract(epoch FROM id_time(n)) * 1000)::bigint'
  . " FROM (SELECT next_snowflake() s, next_sno() n FROM generate_series(1, $batch) OFFSET 0) x;\n\\echo \@\@end\n";

# client_loop(PSQL, CONNSTR, FILE, PARENT): in a child process, one psql
# at a time on the server, a statement after another, each answer in FILE:
# "R t0 t1 snowflake its-time-ms sno its-time-ms" per row received (t0,
# t1: the true time the statement was sent and the answer received), "E t0
# t1 error" for a refusal, "C t0 t1 why" when psql ended (the connection
# lost or refused) or took more than 8 s (then killed); until TERM or the
# parent's end
sub client_loop
{
	my ($psql, $connstr, $file, $parent) = @_;
	open my $out, '>>', $file or die "cannot write $file: $!";
	$out->autoflush(1);
	my $quit = 0;
	local $SIG{TERM} = sub { $quit = 1; die "quit\n" };
	local $SIG{PIPE} = 'IGNORE';
	local $ENV{PGCONNECT_TIMEOUT} = 3;
	my ($h, $in, $o, $e, $timer);
	while (!$quit && getppid() == $parent)
	{
		if (!$h)
		{
			($in, $o, $e) = ('', '', '');
			$timer = IPC::Run::timeout(8);
			$h = eval {
				IPC::Run::start([ $psql, '-XAtq', '-v', 'VERBOSITY=terse', '-d', $connstr ],
					'<', \$in, '>', \$o, '2>', \$e, $timer);
			};
			last if $quit;
			if (!$h)
			{
				my $t = time;
				print $out "C $t $t could not start psql\n";
				usleep(300_000);
				next;
			}
		}
		my $t0 = time;
		$timer->start(8);
		$in .= $query;
		my $ok = eval { $h->pump while $o !~ /\@\@end\n/ && $h->pumpable; 1 };
		last if $quit;
		my $t1 = time;
		if ($o =~ s/\A(.*?)\@\@end\n//s)
		{
			my @rows = grep { /\|/ } split /\n/, $1;
			if (@rows)
			{
				print $out join('', map { "R $t0 $t1 " . join(' ', split /\|/) . "\n" } @rows);
			}
			else
			{
				eval { $h->pump_nb for 1 .. 3; 1 };
				my ($msg) = $e =~ /(ERROR:.*)/;
				$msg //= 'no rows: ' . substr("$o $e", 0, 300) =~ s/\n/ /gr;
				print $out "E $t0 $t1 $msg\n";
			}
			$e = '';
			usleep($pause * 1e6);
			next;
		}
		my ($msg) = $e =~ /([^\n]+)/;
		print $out "C $t0 $t1 " . ($ok ? 'psql ended' : 'timeout') . ': ' . ($msg // '') . "\n";
		eval { $h->kill_kill(grace => 1); 1 };
		$h = undef;
		usleep(200_000);
	}
	eval { $h->kill_kill(grace => 1) if $h; 1 };
	return;
}

sub client_start
{
	my ($S, $h) = @_;
	my $n = $S->{h}{$h};
	my $file = "$S->{dir}/client_$h.txt";
	my ($psql, $connstr, $parent) = ($n->installed_command('psql'), $n->connstr('postgres'), $$);
	my $pid = fork() // die "fork: $!";
	if ($pid == 0)
	{
		# (never the test's END blocks, which would stop its servers)
		eval { client_loop($psql, $connstr, $file, $parent) };
		POSIX::_exit(0);
	}
	$S->{clients}{$h} = { pid => $pid, file => $file, off => 0 };
	return;
}

sub clients_stop
{
	my ($S) = @_;
	my @pids = map { $_->{pid} } grep { $_->{pid} } values %{ $S->{clients} };
	kill 'TERM', @pids;
	for my $pid (@pids)
	{
		my $deadline = time + 15;
		usleep(50_000) while waitpid($pid, POSIX::WNOHANG()) == 0 && time < $deadline;
		if (kill 0, $pid)
		{
			kill 'KILL', $pid;
			waitpid($pid, 0);
		}
	}
	$_->{pid} = 0 for values %{ $S->{clients} };
	return;
}

# ---- reading what happens ----

# new complete lines of FILE from offset *OFF on
sub new_lines
{
	my ($file, $off) = @_;
	$$off //= 0;
	open my $fh, '<', $file or return ();
	seek $fh, $$off, 0;
	local $/;
	my $text = <$fh> // '';
	close $fh;
	my $end = rindex($text, "\n");
	return () if $end < 0;
	$$off += $end + 1;
	return split /\n/, substr($text, 0, $end);
}

sub classify
{
	my ($msg) = @_;
	return
	    $msg =~ /holds no node number/ ? 'no number'
	  : $msg =~ /terminating connection|closed the connection|connection to server was lost/ ? 'connection lost'
	  : $msg =~ /lease on node number \d+ .* has run out/ ? 'lease run out'
	  : $msg =~ /passed the horizon/ ? 'clock past horizon'
	  : 'other';
}

# ingest(S): what the clients received since the last call, checked
sub ingest
{
	my ($S) = @_;
	for my $h (@H)
	{
		my $c = $S->{clients}{$h} or next;
		for (new_lines($c->{file}, \$c->{off}))
		{
			$S->{answers}{$h}++;
			if (my ($t0, $t1, $sf, $sft, $sn, $snt) = /^R (\S+) (\S+) (\d+) (-?\d+) (\S+) (-?\d+)$/)
			{
				$S->{ids}++;
				for ([ 'snowflake', $sf, $sft ], [ 'sno', $sn, $snt ])
				{
					my ($fam, $id, $ms) = @$_;
					my $seen = $S->{seen}{$fam};
					if (exists $seen->{$id})
					{
						push @{ $S->{dups}{$fam} }, sprintf('%s %s received by %s at %.3f and by %s at %.3f',
							$fam, $id, split(/ /, $seen->{$id}), $h, $t1 - $S->{t0});
					}
					else
					{
						$seen->{$id} = sprintf('%s %.3f', $h, $t1 - $S->{t0});
					}
					my $lead = $ms / 1000 - $t1;
					if (!defined $S->{maxlead}{$fam} || $lead > $S->{maxlead}{$fam})
					{
						$S->{maxlead}{$fam} = $lead;
						$S->{maxlead_at}{$fam} = sprintf('%s %s on %s, received at %.3f s', $fam, $id, $h, $t1 - $S->{t0});
					}
					push @{ $S->{leads}{$fam} }, sprintf('%s %s on %s leads by %.3f s (received at %.3f s)', $fam, $id, $h,
						$lead, $t1 - $S->{t0})
					  if $lead > $S->{lead_bound};
				}
				my $b = $S->{batches}{$h} //= [];
				push @$b, [ $t0, $t1 ] unless @$b && $b->[-1][0] == $t0;
			}
			elsif (my ($e0, $e1, $msg) = /^E (\S+) (\S+) (.*)$/)
			{
				$S->{refused}{$h}{ classify($msg) }++;
				$S->{sample}{ classify($msg) } //= $msg;
			}
			elsif (/^C /)
			{
				$S->{noconn}{$h}++;
			}
		}
	}
	return;
}

# tail_logs(S): the registry worker's lines in the holders' logs since the
# last pass, each with the pass that read it
sub tail_logs
{
	my ($S) = @_;
	my $pass = ++$S->{pass};
	for my $h (@H)
	{
		my $n = $S->{h}{$h} or next;
		for (new_lines($n->logfile, \$S->{logoff}{$h}))
		{
			my %l = (pass => $pass, t => time - $S->{t0}, h => $h, line => $_);
			if (/uniqueid: leased node number (\d+) from registry/)
			{
				push @{ $S->{log} }, { %l, kind => 'leased', n => $1 };
			}
			elsif (/uniqueid: lost node number (\d+): (.*)/)
			{
				my ($n, $why) = ($1, $2);
				push @{ $S->{log} }, { %l, n => $n,
					kind => $why =~ /records another claim/ ? 'another claim'
					  : $why =~ /has no claim/ ? 'no claim'
					  : $why =~ /lease ran out/ ? 'lease ran out, registry forgot'
					  : 'lost: other' };
			}
			elsif (/(?:ERROR|WARNING|LOG):  (?:uniqueid: )?registry .* (?:is in its grace period until|claims no node number before)/)
			{
				$S->{grace_lines}{$h}++;
			}
		}
	}
	return;
}

# the holders' first batch of IDs sent after T, each: name => seconds from T
sub first_after
{
	my ($S, $t) = @_;
	my %r;
	for my $h (@H)
	{
		my ($b) = grep { $_->[0] >= $t } @{ $S->{batches}{$h} // [] };
		$r{$h} = $b->[1] - $t if $b;
	}
	return %r;
}

# ---- one seed ----

my (%total, @all_figures, @live);

sub act
{
	my ($S, $action, $f) = @_;
	my ($k, $p) = ($f->{kind}, $S->{prim});
	my $tg = $f->{target};
	if ($k eq 'reg_crash')
	{
		if ($action eq 'begin')
		{
			$p->stop('immediate');
			return $p->name . ' stopped (immediate)';
		}
		start_registry($S, $p);
		return $p->name . ' started again';
	}
	if ($k eq 'failover')
	{
		my $s = $S->{stby} or die "no standby for the failover\n";
		if ($action eq 'pre')
		{
			$s->stop('fast');
			return $s->name . ' (standby) stopped: it lags from now';
		}
		if ($action eq 'begin')
		{
			$p->stop('immediate');
			return $p->name . ' (primary) stopped first (immediate)';
		}
		if ($action eq 'end')
		{
			start_registry($S, $s);
			$s->promote;
			($S->{prim}, $S->{stby}) = ($s, undef);
			return $s->name . ' started and promoted';
		}
		return 'new standby ' . build_standby($S);
	}
	if ($k =~ /^restore_/)
	{
		if ($action eq 'take')
		{
			if ($k eq 'restore_backup')
			{
				my $name = "b$f->{id}";
				$p->backup($name);
				$f->{from} = [ $p, $name ];
				return "base backup $name of " . $p->name;
			}
			$f->{dump} = "$S->{dir}/dump$f->{id}.sql";
			my ($out, $err) = ('', '');
			IPC::Run::run([ $p->installed_command('pg_dump'), '-d', $p->connstr('postgres'), '-f', $f->{dump} ],
				'>', \$out, '2>', \$err, IPC::Run::timeout(60))
			  or die "pg_dump of " . $p->name . " failed: $err\n";
			return 'pg_dump of ' . $p->name;
		}
		if ($action eq 'begin')
		{
			$p->stop('immediate');
			$S->{stby}->stop('immediate') if $S->{stby};
			$S->{stby} = undef;
			my $what = $p->name . ' (primary) and its standby stopped (immediate); ';
			if ($k eq 'restore_backup')
			{
				$f->{node} = registry_node($S, $p->port, $f->{from}, 0);
				return $what . $f->{node}->name . ' made from ' . $f->{from}[1];
			}
			# a fresh cluster, the dump restored while no holder reaches it
			my $n = $f->{node} = registry_node($S, $p->port);
			$n->append_conf('postgresql.conf', "listen_addresses = ''");
			{
				local $ENV{LD_PRELOAD} = $clock_lib;
				local $ENV{UID_CLOCK_FILE} = $S->{regclock};
				$n->start;
			}
			my ($out, $err) = ('', '');
			IPC::Run::run([ $n->installed_command('psql'), '-X', '-q', '-d', $n->connstr('postgres'), '-f', $f->{dump} ],
				'>', \$out, '2>', \$err, IPC::Run::timeout(120))
			  or die "psql -f $f->{dump} failed: $err\n";
			my @errors = $err =~ /^.*ERROR.*$/mg;
			my $claims = $n->safe_psql('postgres', 'SELECT count(*) FROM uniqueid_node_claims', timeout => 60);
			$n->stop('fast');
			$n->append_conf('postgresql.conf', "listen_addresses = '$listen'");
			return $what . $n->name . " made fresh, dump restored ($claims claims"
			  . (@errors ? '; ' . scalar(@errors) . " errors: $errors[0]" : '') . ')';
		}
		if ($action eq 'end')
		{
			start_registry($S, $f->{node});
			$S->{prim} = $f->{node};
			return $f->{node}->name . ' started';
		}
		return 'new standby ' . build_standby($S);
	}
	my $n = $tg eq 'registry' ? undef : $S->{h}{$tg};
	if ($k eq 'crash')
	{
		if ($action eq 'begin')
		{
			if ($f->{how} eq 'kill') { uid_kill_all($n) }
			else { $n->stop('immediate') }
			return "$tg " . ($f->{how} eq 'kill' ? 'killed (SIGKILL to every process)' : 'stopped (immediate)');
		}
		start_holder($S, $tg);
		return "$tg started again";
	}
	if ($k eq 'freeze')
	{
		if ($action eq 'begin')
		{
			my @p = ($n->{_pid}, children($n->{_pid}));
			kill 'STOP', @p;
			$S->{frozen}{$tg} = \@p;
			return "$tg frozen (SIGSTOP to " . scalar(@p) . ' processes)';
		}
		my $p = delete $S->{frozen}{$tg};
		kill 'CONT', @$p, children($p->[0]);
		return "$tg continued (SIGCONT)";
	}
	if ($k eq 'partition')
	{
		nf(($action eq 'begin' ? 'down' : 'up') . " $ns{registry} $ns{$tg}");
		$S->{cut}{$tg} = $action eq 'begin';
		return "link registry-$tg " . ($action eq 'begin' ? 'down' : 'up');
	}
	if ($k eq 'clock')
	{
		my $off = $action eq 'begin' ? $f->{off} : 0;
		my $note = '';
		if ($tg eq 'registry')
		{
			# a step back after the registry was restarted, promoted or
			# restored waits for its first answer (the start of its grace
			# period, on the clock before the step)
			my $back = $action eq 'begin' ? $f->{off} < 0 : $f->{off} > 0;
			if ($back && $S->{reg_new})
			{
				my $t = time;
				my $answered = uid_wait_until(30, sub { tail_logs($S); ingest($S); registry_answered($S) });
				$S->{reg_new} = 0;
				$note = sprintf(' (a step back: after the registry\'s first answer since its heal, %s %.1f s)',
					$answered ? 'waited' : 'NOT ANSWERED in', time - $t);
			}
			clock_file_set($S->{regclock}, $off);
		}
		else
		{
			uid_clock_set($n, $off);
		}
		return sprintf('clock of %s %+.1f s%s', $tg, $off, $note);
	}
	die "unknown fault $k\n";
}

# every server of the seed stopped, whatever state it is in
sub teardown
{
	my ($S) = @_;
	clients_stop($S);
	for my $p (values %{ $S->{frozen} // {} })
	{
		kill 'CONT', @$p, children($p->[0]);
	}
	$S->{frozen} = {};
	unless ($no_netns)
	{
		for my $h (grep { $S->{cut}{$_} } @H)
		{
			eval { nf("up $ns{registry} $ns{$h}"); 1 } or diag "link up: $@";
			$S->{cut}{$h} = 0;
		}
	}
	$_->stop('immediate', fail_ok => 1) for (values %{ $S->{h} }, @{ $S->{regs} });
	return;
}

sub run_seed
{
	my ($seed, $k) = @_;
	srand($seed);
	my @faults = make_schedule($span, !$no_netns);
	my $maxoff = max(0, map { $_->{off} } grep { $_->{kind} eq 'clock' } @faults);
	my $dir = "$tmp/nemesis_s$k";
	rmtree($dir);
	mkdir $dir or die "cannot make $dir: $!";
	my $S = {
		seed => $seed, tag => "s$k", dir => $dir, regclock => "$dir/registry_clock", nreg => 0, nbk => 0,
		faults => \@faults, maxoff => $maxoff,
		lead_bound => $maxoff + $lease + $max_lead + 1 + $skew + $lead_slack,
		seen => { snowflake => {}, sno => {} }, ids => 0, done => [], log => [], pass => 0
	};
	push @live, $S;
	my $sched = join("\n", map { describe($_) } @faults);
	note "seed $seed ($k): " . scalar(@faults) . " faults in $span s (largest positive clock offset "
	  . sprintf('%.1f s', $maxoff) . "):\n$sched";
	my $passing = Test::More->builder->is_passing;
	my $started = time;
	my %m;
	my $ok = eval {
		# the registry, its standby, the holders
		clock_file_set($S->{regclock}, 0);
		my $r = $S->{prim} = registry_node($S, $reg_ports[0]);
		start_registry($S, $r);
		$r->safe_psql('postgres', 'CREATE EXTENSION uniqueid', timeout => 60);
		build_standby($S);
		for my $h (@H)
		{
			holder_node($S, $h);
			start_holder($S, $h);
			$S->{h}{$h}->safe_psql('postgres', 'CREATE EXTENSION uniqueid', timeout => 60);
		}
		my $leased = sub {
			scalar grep { $S->{h}{$_}->safe_psql('postgres', "SELECT coalesce(uniqueid_node()::text, '')", timeout => 30) ne '' } @H;
		};
		uid_wait_until(60, sub { $leased->() >= $numbers }) or die "the holders did not lease $numbers numbers within 60 s\n";
		$S->{t0} = time;
		client_start($S, $_) for @H;
		uid_wait_until(30, sub { ingest($S); keys %{ $S->{batches} } >= $numbers && !grep { !$S->{answers}{$_} } @H })
		  or die 'the clients had no answer on ' . join(', ', grep { !$S->{answers}{$_} } @H)
		  . ' or made IDs on ' . join(', ', sort keys %{ $S->{batches} }) . " only, within 30 s\n";
		$m{setup} = time - $started;

		# the faults
		$S->{t0} = time;
		my @ev = events_of(@faults);
		my $last_ingest = 0;
		while (@ev)
		{
			my $now = time - $S->{t0};
			if ($ev[0][0] <= $now)
			{
				my ($at, $action, $f) = @{ shift @ev };
				my $s = time;
				my $what = act($S, $action, $f);
				$S->{t_heal} = time if $action eq 'end';
				$S->{reg_new} = 1 if $action eq 'end' && $f->{target} eq 'registry' && $f->{kind} ne 'clock';
				$total{"$f->{kind}"}++ if $action eq 'begin';
				push @{ $S->{done} }, sprintf('%6.2f s (planned %5.1f s) #%-2d %-14s %-7s %s [%.2f s]',
					$s - $S->{t0}, $at, $f->{id}, $f->{kind}, $action, $what, time - $s);
				next;
			}
			tail_logs($S);
			if (time - $last_ingest >= 0.5)
			{
				ingest($S);
				$last_ingest = time;
			}
			usleep(max(0, min(0.1, $ev[0][0] - (time - $S->{t0}))) * 1e6);
		}
		$S->{t_heal} //= time;
		$m{faults} = $S->{t_heal} - $S->{t0};

		# recovery: the numbers in use again, by as many holders
		my $bound = $G + $retry + $maxoff + $recovery_slack;
		$m{bound} = $bound;
		my %rec;
		uid_wait_until($bound + 15, sub {
			tail_logs($S);
			ingest($S);
			%rec = first_after($S, $S->{t_heal});
			keys %rec >= $numbers;
		});
		$m{recovered} = {%rec};
		# the third: once one of the others gives its number back
		my @idle = grep { !exists $rec{$_} } @H;
		if (keys %rec >= $numbers && @idle == 1)
		{
			my ($give) = sort { $rec{$a} <=> $rec{$b} || $a cmp $b } keys %rec;
			my $t = time;
			$S->{h}{$give}->stop('fast');
			my %third;
			uid_wait_until($bound + 15, sub {
				tail_logs($S);
				ingest($S);
				%third = first_after($S, $t);
				exists $third{ $idle[0] };
			});
			$m{third} = [ $idle[0], $third{ $idle[0] }, $give ];
		}
		usleep(300_000);
		1;
	};
	my $error = $@;
	die $error if $error =~ /did not end within/;
	eval {
		clients_stop($S);
		if ($S->{t0})
		{
			tail_logs($S);
			ingest($S);
		}
		1;
	} or $error .= "; then: $@";
	eval { teardown($S); 1 } or $error .= "; at the teardown: $@";
	$ok = 0 if $error;
	ok($ok, "seed $seed: the schedule played to the end") or diag "error: $error";

	# 1. no ID repeated
	for my $fam (qw(snowflake sno))
	{
		my @d = @{ $S->{dups}{$fam} // [] };
		is(scalar @d, 0, "seed $seed: no $fam repeated among the $S->{ids} received")
		  or diag join("\n", @d[ 0 .. min($#d, 19) ]);
	}
	ok($S->{ids} > 0, "seed $seed: the clients received IDs ($S->{ids} of each family)");
	# 2. lead
	for my $fam (qw(snowflake sno))
	{
		my @l = @{ $S->{leads}{$fam} // [] };
		is(scalar @l, 0, sprintf("seed %s: every %s leads the true time it was received by at most %.1f s (largest %.3f s)",
				$seed, $fam, $S->{lead_bound}, $S->{maxlead}{$fam} // 0))
		  or diag join("\n", @l[ 0 .. min($#l, 19) ]);
	}
	# 3. recovery
	if ($ok)
	{
		my %rec = %{ $m{recovered} };
		my @slow = grep { $rec{$_} > $m{bound} } sort keys %rec;
		ok(keys %rec >= $numbers && !@slow,
			sprintf('seed %s: after the last heal, %d holders make node-bearing IDs again within %.1f s (%s)',
				$seed, $numbers, $m{bound}, join(', ', map { sprintf '%s %.2f s', $_, $rec{$_} } sort keys %rec) || 'none'))
		  or diag "holders recovered: " . join(', ', map { sprintf '%s %.2f s', $_, $rec{$_} } sort keys %rec);
		if ($m{third})
		{
			my ($h, $t, $give) = @{ $m{third} };
			ok(defined $t && $t <= $m{bound},
				sprintf('seed %s: the third holder, %s, makes node-bearing IDs within %.1f s once %s gives its number back (%s)',
					$seed, $h, $m{bound}, $give, defined $t ? sprintf('%.2f s', $t) : 'never'));
		}
		elsif (keys %rec >= @H)
		{
			pass("seed $seed: every holder made node-bearing IDs after the last heal");
		}
	}
	# 4. "records another claim" only after another holder leased the number
	my @bad;
	my ($another, $own) = (0, 0);
	for my $l (grep { $_->{kind} eq 'another claim' } @{ $S->{log} })
	{
		$another++;
		# (the holder's own lease the last of the number before it: the
		# registry, restored, holds an older claim of the same holder)
		my ($latest) = reverse grep { $_->{kind} eq 'leased' && $_->{n} == $l->{n} && $_->{pass} <= $l->{pass} } @{ $S->{log} };
		$own++ if $latest && $latest->{h} eq $l->{h};
		my @prior = grep { $_->{kind} eq 'leased' && $_->{n} == $l->{n} && $_->{h} ne $l->{h} && $_->{pass} <= $l->{pass} + 1 }
		  @{ $S->{log} };
		next if @prior;
		# (or an earlier claim of the holder's own: two leases of the number
		# by it before the line, the registry gone back to the first)
		my @mine = grep { $_->{kind} eq 'leased' && $_->{n} == $l->{n} && $_->{h} eq $l->{h} && $_->{pass} <= $l->{pass} }
		  @{ $S->{log} };
		next if @mine >= 2;
		# (whose lease of the number the holder's logs show last before it)
		my ($last) = reverse grep { $_->{kind} eq 'leased' && $_->{n} == $l->{n} && $_->{pass} <= $l->{pass} + 1 && $_ != $l }
		  @{ $S->{log} };
		push @bad, sprintf("%s, read at %.1f s: %s\n  the last lease of number %d logged before it: %s", $l->{h}, $l->{t}, $l->{line},
			$l->{n}, !$last ? 'none' : ($last->{h} eq $l->{h} ? "$l->{h}'s own, " : "$last->{h}'s, ") . $last->{line});
	}
	is(scalar @bad, 0,
		"seed $seed: every \"records another claim\" ($another) follows another claim of the number: another holder's, or an earlier one of the holder's own")
	  or diag join("\n", @bad);

	# the figures
	my %kinds;
	$kinds{ $_->{kind} }++ for @faults;
	my %lost;
	$lost{ $_->{kind} }++ for grep { $_->{kind} ne 'leased' } @{ $S->{log} };
	$lost{'another claim'} .= " (after the holder's own lease of the number: $own)" if $another;
	my (%by, $handovers);
	for my $l (grep { $_->{kind} eq 'leased' } @{ $S->{log} })
	{
		$handovers++ if defined $by{ $l->{n} } && $by{ $l->{n} } ne $l->{h};
		$by{ $l->{n} } = $l->{h};
	}
	my %refused;
	for my $h (@H) { $refused{$_} += $S->{refused}{$h}{$_} for keys %{ $S->{refused}{$h} // {} } }
	my $fig = sprintf(
		"seed %s: %.0f s in all (setup %.0f s, faults %.0f s); faults: %s; IDs checked: %d snowflake and %d sno, "
		  . "repeated: %d and %d; largest lead: snowflake %.3f s, sno %.3f s (bound %.1f s); "
		  . "recovery after the last heal: %s (bound %.1f s)%s; leases: %d, to another holder: %d; "
		  . "lost numbers: %s; grace-period lines: %d; batches refused: %s",
		$seed, time - $started, $m{setup} // -1, $m{faults} // -1,
		join(', ', map { "$_ $kinds{$_}" } sort keys %kinds),
		$S->{ids}, $S->{ids}, scalar @{ $S->{dups}{snowflake} // [] }, scalar @{ $S->{dups}{sno} // [] },
		$S->{maxlead}{snowflake} // -1, $S->{maxlead}{sno} // -1, $S->{lead_bound},
		join(', ', map { sprintf '%s %.2f s', $_, $m{recovered}{$_} } sort keys %{ $m{recovered} // {} }) || 'none',
		$m{bound} // -1,
		$m{third} ? sprintf('; then %s %.2f s after %s gave its number back', $m{third}[0], $m{third}[1] // -1, $m{third}[2]) : '',
		scalar grep({ $_->{kind} eq 'leased' } @{ $S->{log} }), $handovers // 0,
		join(', ', map { "$_ $lost{$_}" } sort keys %lost) || 'none',
		sum0(values %{ $S->{grace_lines} // {} }),
		join(', ', map { "$_ $refused{$_}" } sort keys %refused) || 'none');
	note $fig;
	note "seed $seed as played:\n" . join("\n", @{ $S->{done} });
	push @all_figures, $fig;
	note "  a refusal of each kind: " . join(' | ', map { "$_: $S->{sample}{$_}" } sort keys %{ $S->{sample} // {} });
	$total{ids} += $S->{ids};
	$total{seconds} += time - $started;

	if (!Test::More->builder->is_passing && $passing)
	{
		diag "seed $seed FAILED; replay with UID_NEMESIS_SEEDS=$seed"
		  . ($span != 60 ? " UID_NEMESIS_SPAN=$span" : '') . "\nschedule:\n$sched\nas played:\n"
		  . join("\n", @{ $S->{done} }) . "\nworker lines read from the holders' logs:\n"
		  . join("\n", map { sprintf '%6.1f s %s %s', $_->{t}, $_->{h}, $_->{line} } @{ $S->{log} });
	}
	elsif (!defined $ENV{PG_TEST_NOCLEAN})
	{
		# (the servers' data, the backups and the clients' files: a seed
		# that passed needs none of them; the logs stay)
		rmtree($_->basedir) for (values %{ $S->{h} }, @{ $S->{regs} });
		rmtree($dir);
	}
	@live = grep { $_ != $S } @live;
	return;
}

END
{
	local $?;
	for my $S (@live)
	{
		kill 'KILL', map { $_->{pid} } grep { $_->{pid} } values %{ $S->{clients} // {} };
		kill 'CONT', map { @$_ } values %{ $S->{frozen} // {} };
		unless ($no_netns)
		{
			eval { nf("up $ns{registry} $ns{$_}") } for grep { $S->{cut}{$_} } @H;
		}
	}
	if ($netns && -p "$netns/cmd")
	{
		eval { nf("free $_") } for @freed;
	}
}

# ---- the seeds ----

my @queue = @seeds;
my $k = 0;
# (the alarm, less the longest a seed may take: a seed not begun by then is
# left out, saying so)
my $deadline = $t_begin + ($budget ? $budget + 600 : !$budget && @seeds > 3 ? 150 * @seeds + 150 : $ENV{UID_TEST_ALARM} // 600)
  - $span - 140;
while (1)
{
	my $seed;
	if (@queue)
	{
		$seed = shift @queue;
	}
	elsif ($budget && time - $t_begin < $budget)
	{
		$seed = int(time * 1000 + $$ * 7919 + $k * 104729) % 1_000_000_007;
	}
	else
	{
		last;
	}
	last if $budget && $k > 0 && time - $t_begin >= $budget;
	if ($k > 0 && time > $deadline)
	{
		diag "seed $seed and those after it left out: too little time before the test's alarm";
		last;
	}
	run_seed($seed, ++$k);
}
note sprintf("all seeds: %d in %.0f s; faults: %s; IDs checked: %d of each family\n%s",
	$k, time - $t_begin, join(', ', map { "$_ $total{$_}" } grep { $_ ne 'ids' && $_ ne 'seconds' } sort keys %total),
	$total{ids} // 0, join("\n", @all_figures));

done_testing();
