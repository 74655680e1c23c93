# t/UniqueidTest.pm - what uniqueid's TAP tests share, on top of PostgreSQL's
# own test framework (PostgreSQL::Test::Cluster):
#
#   my $node = uid_node('primary', conf => ['uniqueid.node = 3']);
#   uid_on_clock($node, sub { $node->start });   # on a clock the test moves
#   uid_clock_set($node, -30);                    # 30 s behind, from now on
#   uid_kill_all($node);                          # a power cut
#
# Every test file ends within 10 minutes: past that, the running wait fails
# the test and the framework stops its servers.
package UniqueidTest;

use strict;
use warnings FATAL => 'all';

use Exporter 'import';
use Cwd ();
use File::Basename;
use File::Path ();
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Fcntl qw(O_WRONLY O_NONBLOCK);
use Time::HiRes qw(time usleep);

our @EXPORT = qw(uid_node uid_clock_set uid_on_clock uid_on_faults uid_fault uid_kill_all
  uid_wait_down uid_wait_until uid_concurrently uid_concurrently_on uid_error uid_set
  uid_citus_missing uid_pgtle_missing uid_carry_setup uid_carry_check uid_wait_renewal uid_wait_past_horizon
  uid_doc_blocks uid_contains uid_try_function uid_registry_past_grace uid_netns_command
  uid_netns_why uid_volume uid_sleep_until);

# Each file ends within 30 minutes: a bound on a hang, not on speed, wide
# enough for a machine a few times slower than this suite's timings (with
# half the CPU of the 2-core machine of DEVELOPER.md, t/066 and t/078 ran
# past the 10 minutes it was).  (UID_TEST_ALARM sets it, for bench/stress.sh)
our $alarm = $ENV{UID_TEST_ALARM} // 1800;
$SIG{ALRM} = sub { die "test did not end within $alarm s\n" };
alarm($alarm);

# the clock tests' preload library, built by make (test/clockshift.c), and
# the fault tests' (test/faultshim.c)
my $clock_lib = dirname(__FILE__) . '/../test/clockshift.so';
my $fault_lib = dirname(__FILE__) . '/../test/faultshim.so';

# initdb once per run, not once per cluster: where UID_INITDB_TEMPLATES
# names a directory (test/run.sh sets one per suite), the framework's initdb
# (PostgreSQL::Test::Cluster's init, through system_or_bail) makes a template
# there the first time its arguments (the binary and every option but the
# data directory) are used, and each cluster is then a copy of it with a
# system identifier of its own, as initdb would give it: the registry tells
# holders apart by it, rsxid puts it in its IDs.  (0.85 CPU s an initdb
# against 0.06 a copy; about 100 clusters a version.)  PostgreSQL 17's own
# INITDB_TEMPLATE is not used: it skips clusters made with options, which
# every uid_node is, and it copies the identifier.
my $uid_real_system_or_bail = \&PostgreSQL::Test::Utils::system_or_bail;
{
	no warnings 'redefine';
	*PostgreSQL::Test::Utils::system_or_bail = sub {
		return $uid_real_system_or_bail->(@_)
		  unless $_[0] eq 'initdb' && $ENV{UID_INITDB_TEMPLATES};
		return uid_initdb_copy(@_);
	};
}

sub uid_initdb_copy
{
	my (undef, @args) = @_;
	my ($pgdata, @rest);
	for (my $i = 0; $i < @args; $i++)
	{
		if ($args[$i] eq '-D' || $args[$i] eq '--pgdata') { $pgdata = $args[++$i]; }
		elsif ($args[$i] =~ /^--pgdata=(.*)$/) { $pgdata = $1; }
		else { push @rest, $args[$i]; }
	}
	return $uid_real_system_or_bail->('initdb', @args)
	  unless defined $pgdata && !(-e $pgdata && !uid_empty_dir($pgdata));
	my ($bin) = grep { -x "$_/initdb" } split /:/, $ENV{PATH};
	die "initdb is not on PATH ($ENV{PATH})\n" unless $bin;
	require Digest::MD5;
	my $dir = $ENV{UID_INITDB_TEMPLATES};
	File::Path::make_path($dir);
	# (the binary, by path and time, the options, and what initdb reads of
	# the environment: the time zone and the locale)
	my $real = Cwd::realpath("$bin/initdb");
	my $tpl = "$dir/"
	  . Digest::MD5::md5_hex(join("\0",
		  $real, (stat($real))[9], @rest,
		  map { "$_=" . ($ENV{$_} // '') } sort grep { /^(TZ|LANG|LC_[A-Z]+)$/ } keys %ENV));
	unless (-d $tpl)
	{
		# one file makes it while the others wait (prove -j)
		open(my $lock, '>', "$tpl.lock") or die "could not open $tpl.lock: $!\n";
		flock($lock, Fcntl::LOCK_EX) or die "could not lock $tpl.lock: $!\n";
		unless (-d $tpl)
		{
			File::Path::rmtree("$tpl.tmp");
			$uid_real_system_or_bail->('initdb', '-D', "$tpl.tmp", @rest);
			rename("$tpl.tmp", $tpl) or die "could not rename $tpl.tmp: $!\n";
		}
		close($lock);
	}
	note("initializing database system by copying the initdb template $tpl");
	$uid_real_system_or_bail->('cp', '-RPp', "$tpl/.", $pgdata) if -d $pgdata;
	$uid_real_system_or_bail->('cp', '-RPp', $tpl, $pgdata) unless -d $pgdata;
	uid_new_system_identifier($pgdata);
	return;
}

sub uid_empty_dir
{
	opendir(my $dh, $_[0]) or return 0;
	my @e = grep { $_ ne '.' && $_ ne '..' } readdir($dh);
	return !@e;
}

# CRC-32C (Castagnoli), as PostgreSQL's pg_control carries it
my @uid_crc32c_table = map {
	my $c = $_;
	$c = ($c & 1) ? (($c >> 1) ^ 0x82F63B78) : ($c >> 1) for 1 .. 8;
	$c
} 0 .. 255;

sub uid_crc32c
{
	my $crc = 0xFFFFFFFF;
	$crc = $uid_crc32c_table[($crc ^ $_) & 0xFF] ^ ($crc >> 8) for unpack('C*', $_[0]);
	return $crc ^ 0xFFFFFFFF;
}

# uid_new_system_identifier(PGDATA): a copy of a data directory made its own
# cluster: in global/pg_control a new system identifier (initdb's form:
# seconds, microseconds and 12 random bits) and a new mock authentication
# nonce (32 random bytes, the last field before the CRC: after
# data_checksum_version, or from pg_control version 1800 on after
# default_char_signedness, a bool, and so followed by 3 bytes of padding),
# the CRC made again; and the identifier in the long header of each WAL
# segment, which must name the same one.  Dies where either is not as
# expected.
sub uid_new_system_identifier
{
	my ($pgdata) = @_;
	my $f = "$pgdata/global/pg_control";
	open(my $fh, '+<:raw', $f) or die "could not open $f: $!\n";
	my $n = read($fh, my $ctl, 8192);
	die "could not read $f\n" unless $n && $n >= 512;
	my $old = unpack('Q<', $ctl);
	# the CRC follows the fields it covers (their size differs by version)
	my ($at) = grep { uid_crc32c(substr($ctl, 0, $_)) == unpack('V', substr($ctl, $_, 4)) }
	  map { $_ * 4 } 4 .. 120;
	die "could not find the CRC of $f\n" unless defined $at;
	my ($s, $us) = Time::HiRes::gettimeofday();
	my $new = ($s << 32) | ($us << 12) | int(rand(4096));
	$new++ if $new == $old;
	substr($ctl, 0, 8) = pack('Q<', $new);
	my $nonce_at = $at - 32 - (unpack('V', substr($ctl, 8, 4)) >= 1800 ? 3 : 0);
	open(my $rnd, '<:raw', '/dev/urandom') or die "could not open /dev/urandom: $!\n";
	read($rnd, my $nonce, 32) == 32 or die "could not read /dev/urandom\n";
	close($rnd);
	substr($ctl, $nonce_at, 32) = $nonce;
	substr($ctl, $at, 4) = pack('V', uid_crc32c(substr($ctl, 0, $at)));
	seek($fh, 0, 0) and print $fh $ctl and close($fh) or die "could not write $f: $!\n";
	# XLogLongPageHeaderData: xlp_magic, xlp_info (XLP_LONG_HEADER, 0x0002)
	# ... and xlp_sysid at byte 24
	my $seen = 0;
	opendir(my $dh, "$pgdata/pg_wal") or die "could not open $pgdata/pg_wal: $!\n";
	for my $seg (grep { /^[0-9A-F]{24}$/ } readdir($dh))
	{
		open(my $wh, '+<:raw', "$pgdata/pg_wal/$seg") or die "could not open $pgdata/pg_wal/$seg: $!\n";
		read($wh, my $hdr, 32) == 32 or die "could not read $pgdata/pg_wal/$seg\n";
		my ($magic, $info) = unpack('v v', $hdr);
		die "$pgdata/pg_wal/$seg does not start with a long page header naming system $old\n"
		  unless ($info & 2) && unpack('Q<', substr($hdr, 24, 8)) == $old;
		seek($wh, 24, 0) and print $wh pack('Q<', $new) and close($wh)
		  or die "could not write $pgdata/pg_wal/$seg: $!\n";
		$seen++;
	}
	die "no WAL segment in $pgdata/pg_wal\n" unless $seen;
	return;
}

# uid_node(NAME, conf => [LINES], install_path => DIR, INIT_PARAMS): a new
# cluster with uniqueid preloaded, in UTF-8 whatever the caller's locale,
# not started.
sub uid_node
{
	my ($name, %params) = @_;
	my $conf = delete $params{conf} // [];
	# (install_path => DIR: the server of another installation, another major)
	my $node = PostgreSQL::Test::Cluster->new($name,
		$params{install_path} ? (install_path => delete $params{install_path}) : ());
	$node->init(%params, extra => [ '--encoding=UTF8', '--locale=C.UTF-8' ]);
	$node->append_conf('postgresql.conf',
		join("\n", "shared_preload_libraries = 'uniqueid'", @$conf) . "\n");
	return $node;
}

# uid_volume(N): how many IDs a check of volume makes: N on the machine's own
# PostgreSQL, a fifth of N on the other versions (in their roots:
# UID_IN_ROOT, test/run.sh).  For checks whose volume finds what is the same
# on every version (the arithmetic of the SQL edition's plpgsql, the
# codecs), while what a version can change (the catalog, locks, sequences,
# plans) shows at any volume.
sub uid_volume
{
	my ($n) = @_;
	return $ENV{UID_IN_ROOT} ? int($n / 5) : $n;
}

# uid_citus_missing(NODE): undef when Citus is installed for NODE's server;
# else why not, for a skip message: test/run.sh's reason (UID_CITUS_WHY,
# e.g. that no Citus release supports this PostgreSQL) or that citus.so is
# missing.
sub uid_citus_missing
{
	my ($node) = @_;
	my $libdir = $node->config_data('--pkglibdir');
	# (test/run.sh's reason first: it may leave an installed Citus untested
	# on a version, test/citus.sh)
	return "Citus is not tested on PostgreSQL " . $node->pg_version . " ($ENV{UID_CITUS_WHY})"
	  if $ENV{UID_CITUS_WHY} && -f "$libdir/citus.so";
	return undef if -f "$libdir/citus.so";
	my $why = $ENV{UID_CITUS_WHY}
	  || "$libdir/citus.so is missing; test/run.sh builds it from its archive of test/vendor.lock,"
	  . ' in a directory UID_VENDOR names, in ../shared/vendor, or from its upstream URL (test/vendor.sh)';
	return "Citus is not installed for PostgreSQL " . $node->pg_version . " ($why)";
}

# uid_pgtle_missing(NODE): undef when pg_tle is installed for NODE's server;
# else why not, for a skip message (test/run.sh's UID_PGTLE_WHY, or that
# pg_tle.so is missing).
sub uid_pgtle_missing
{
	my ($node) = @_;
	my $libdir = $node->config_data('--pkglibdir');
	return undef if -f "$libdir/pg_tle.so";
	my $why = $ENV{UID_PGTLE_WHY}
	  || "$libdir/pg_tle.so is missing; test/run.sh builds it from its archive of test/vendor.lock (test/pgtle.sh)";
	return "pg_tle is not installed for PostgreSQL " . $node->pg_version . " ($why)";
}

# uid_clock_set(NODE, SECONDS): every process of NODE started under
# uid_on_clock reads its wall clock SECONDS (fractional, negative) off the
# real one from now on, within a millisecond.
sub uid_clock_set
{
	my ($node, $secs) = @_;
	my $file = $node->basedir . '/clock';
	open my $fh, '>', "$file.tmp" or die "cannot write $file.tmp: $!";
	printf $fh "%.0f\n", $secs * 1e6;
	close $fh;
	rename "$file.tmp", $file or die "cannot rename $file.tmp: $!";
	return;
}

# uid_on_clock(NODE, CODE): runs CODE (a start or restart of NODE) with the
# environment that puts NODE's server on the clock of uid_clock_set.
sub uid_on_clock
{
	my ($node, $code, @more_libs) = @_;
	die "$clock_lib is missing (make test/clockshift.so)\n" unless -e $clock_lib;
	uid_clock_set($node, 0) unless -e $node->basedir . '/clock';
	local $ENV{LD_PRELOAD}     = join(' ', $clock_lib, @more_libs);
	local $ENV{UID_CLOCK_FILE} = $node->basedir . '/clock';
	return $code->();
}

# uid_on_faults(NODE, CODE): as uid_on_clock, and NODE's processes inject
# the faults that uid_fault asks for (test/faultshim.c says which).
sub uid_on_faults
{
	my ($node, $code) = @_;
	die "$fault_lib is missing (make test/faultshim.so)\n" unless -e $fault_lib;
	local $ENV{UID_FAULT_FILE} = $node->basedir . '/fault';
	return uid_on_clock($node, $code, $fault_lib);
}

# uid_fault(NODE, FAULT): one process of NODE (started under uid_on_faults)
# injects FAULT at its next chance; uid_fault(NODE) is true while it has
# not yet.
sub uid_fault
{
	my ($node, $fault) = @_;
	my $file = $node->basedir . '/fault';
	return -e $file unless defined $fault;
	open my $fh, '>', "$file.tmp" or die "cannot write $file.tmp: $!";
	print $fh "$fault\n";
	close $fh;
	rename "$file.tmp", $file or die "cannot rename $file.tmp: $!";
	return 1;
}

# uid_wait_down(NODE): waits (at most 60 s) for NODE's postmaster to exit on
# its own, as it does after a crash with restart_after_crash off; true if it
# did.
sub uid_wait_down
{
	my ($node) = @_;
	my $pm = $node->{_pid} or die "node " . $node->name . " is not running\n";
	return 0 unless uid_wait_until(60, sub { !kill 0, $pm });
	$node->{_pid} = undef;
	return 1;
}

# uid_kill_all(NODE): SIGKILL to NODE's postmaster and all its children at
# the same instant, as a power cut would; returns once every one is gone
# (at most 10 s).
sub uid_kill_all
{
	my ($node) = @_;
	my $pm = $node->{_pid} or die "node " . $node->name . " is not running\n";
	my @pids = ($pm, map { /(\d+)/ ? $1 : () } `pgrep -P $pm`);
	kill 'KILL', @pids;
	$node->{_pid} = undef;
	for (1 .. 100)
	{
		return 1 unless grep { kill 0, $_ } @pids;
		usleep(100_000);
	}
	die "processes of " . $node->name . " outlived SIGKILL: @pids\n";
}

# uid_registry_past_grace(NODE, DB, AHEAD_MS, SKEW_MS): NODE's database DB
# (default postgres), a registry of node numbers, has its record of its
# incarnation, as its first claim or renewal writes it, with its grace
# period (doc/negotiated-nodes.md, "The rules": every new registry has one)
# over a day ago, for holders' terms up to AHEAD_MS and SKEW_MS (default
# 32000 and 500); a test that is not about the grace period need not wait
# for it.  (The commit waits for no standby.)
sub uid_registry_past_grace
{
	my ($node, $db, $ahead, $skew) = @_;
	# (in the extension's schema before 1.9; a build before the grace
	# period's end was recorded has no column for it)
	my ($table, $ended) = split /\|/, $node->safe_psql($db // 'postgres',
		q{SELECT t, (SELECT count(*) FROM pg_attribute WHERE attrelid = t AND attname = 'grace_until')
		  FROM coalesce(to_regclass('uniqueid_catalog.uniqueid_node_registry'), to_regclass('uniqueid_node_registry')) t});
	$node->safe_psql($db // 'postgres', sprintf(q{
		SET synchronous_commit = local;
		INSERT INTO %s
		SELECT true, s.system_identifier, substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8),
		       pg_postmaster_start_time(), now() - interval '1 day', %d, %d%s
		FROM pg_control_system() s}, $table, $ahead // 32000, $skew // 500, $ended ? ", now() - interval '1 day'" : ''));
	return;
}

# uid_netns_why(): why this run has no network namespaces (test/netns.sh's
# daemon, whose directory is in UID_NETNS), or undef when it has them
sub uid_netns_why
{
	my $netns = $ENV{UID_NETNS};
	return $ENV{UID_NETNS_WHY}
	  || 'UID_NETNS is not set: test/netns.sh, run by root, makes the namespaces (test/run.sh, or bash test/netns.sh COMMAND)'
	  unless $netns;
	return "UID_NETNS=$netns has no daemon's FIFO (test/netns.sh)" unless -p "$netns/cmd";
	return undef;
}

# uid_netns_command(DIR, COMMAND): COMMAND for the daemon of test/netns.sh
# whose FIFO and replies are in DIR (UID_NETNS), answered within 120 s;
# dies with its reply unless it is "ok", else returns the words after it.
my $uid_netns_seq = 0;
sub uid_netns_command
{
	my ($dir, $cmd) = @_;
	my $id = "t$$-" . ++$uid_netns_seq;
	# (not blocking: an error, not a wait, when no daemon reads)
	sysopen(my $fh, "$dir/cmd", O_WRONLY | O_NONBLOCK) or die "test/netns.sh's daemon does not read $dir/cmd: $!\n";
	syswrite($fh, "$id $cmd\n") or die "cannot write to $dir/cmd: $!\n";
	close $fh;
	my $deadline = time + 120;
	usleep(10_000) while !-f "$dir/r.$id" && time < $deadline;
	die "test/netns.sh's daemon did not answer \"$cmd\" within 120 s\n" unless -f "$dir/r.$id";
	my $reply = slurp_file("$dir/r.$id");
	chomp $reply;
	die "test/netns.sh: $cmd: $reply\n" unless $reply =~ /^ok ?(.*)$/;
	return split ' ', $1;
}

# uid_wait_until(SECONDS, CODE): calls CODE every 100 ms until it returns
# true (then true) or SECONDS pass (then false).
sub uid_wait_until
{
	my ($secs, $code) = @_;
	for (1 .. $secs * 10)
	{
		return 1 if $code->();
		usleep(100_000);
	}
	return 0;
}

# uid_sleep_until(TIME): sleeps until TIME (Time::HiRes's time), if it is
# still to come.  (The time is read once: read again for usleep's argument,
# a pause between the two readings could make it negative, and usleep dies.)
sub uid_sleep_until
{
	my ($t) = @_;
	my $left = $t - time;
	usleep(1e6 * $left) if $left > 0;
	return;
}

# uid_wait_renewal(NODE, DB): waits until the next ID NODE issues renews its
# durable horizon: NODE's clock has come within 250 ms of the horizon (the
# renewal margin, UID_HORIZON_RENEW_MS in src/horizon.h), which it does
# 0.75 s after a renewal for an ID of a millisecond (the horizon is then the
# 1 s lease ahead of the clock).
# Reads the view uniqueid_durability in DB (default postgres), every 100 ms;
# true once it has, false after the framework's timeout.
sub uid_wait_renewal
{
	my ($node, $db) = @_;
	return $node->poll_query_until($db // 'postgres', q{SELECT clock_timestamp() >= horizon - interval '250 ms'
		FROM uniqueid_catalog.uniqueid_durability WHERE scope = 'server'});
}

# uid_wait_past_horizon(NODE, DB): waits until NODE's clock has passed its
# durable horizon, so that a restart from now on fixes the floor behind the
# clock: at most the 1 s lease and a unit after the last renewal.  As
# uid_wait_renewal otherwise.
sub uid_wait_past_horizon
{
	my ($node, $db) = @_;
	return $node->poll_query_until($db // 'postgres', q{SELECT clock_timestamp() > horizon
		FROM uniqueid_catalog.uniqueid_durability WHERE scope = 'server'});
}

# uid_concurrently(NODE, DB, SQL...): each SQL in a psql of its own, all at
# the same time; returns once every one has ended (each within what is left
# of the file's alarm), one { ok, out, err } for each.
sub uid_concurrently
{
	my ($node, $db, @sqls) = @_;
	return uid_concurrently_on(map { [ $node, $db, $_ ] } @sqls);
}

# uid_concurrently_on([NODE, DB, SQL]...): the same, each SQL on its own node.
sub uid_concurrently_on
{
	my @runs;
	# (what is left of the file's alarm, less a few seconds: the sessions
	# end, and say so, before the alarm ends the file)
	my $left = alarm(0);
	alarm($left);
	my $bound = $left > 10 ? $left - 5 : 5;
	for my $job (@_)
	{
		my ($node, $db, $sql) = @$job;
		my $r = { out => '', err => '' };
		$r->{h} = IPC::Run::start(
			[
				$node->installed_command('psql'), '-XAtq',
				'-v', 'ON_ERROR_STOP=1', '-d', $node->connstr($db), '-c', $sql
			],
			'<', \undef, '>', \$r->{out}, '2>', \$r->{err},
			# (bounded by the file's alarm: the sessions compute, and on a
			# slower machine running the matrix, t/078's 8 sessions of
			# 100,000 IDs outlasted even 540 s, PostgreSQL's timeout_default
			# as test/run.sh sets it)
			IPC::Run::timeout($bound));
		push @runs, $r;
	}
	for my $r (@runs)
	{
		$r->{ok} = eval { $r->{h}->finish } ? 1 : 0;
		if ($@)
		{
			my $e = $@;
			$r->{err} .= $e;
			$r->{h}->kill_kill;
			# (the file's alarm: it ends the file, as everywhere else)
			die $e if $e =~ /^test did not end within/;
		}
	}
	return @runs;
}

# uid_error(NODE, SQL, DB): what psql prints on stderr for SQL in database
# DB (default postgres), with the SQLSTATE ("ERROR:  22023: ...")
sub uid_error
{
	my ($node, $sql, $db) = @_;
	my ($ret, $out, $err) = $node->psql($db // 'postgres', "\\set VERBOSITY verbose\n$sql");
	return $err;
}

# uid_set(NODE, SETTING, VALUE): ALTER SYSTEM SET and a reload on NODE;
# returns once new sessions see VALUE (dies if they do not within the
# framework's timeout).
sub uid_set
{
	my ($node, $setting, $value) = @_;
	$node->safe_psql('postgres', "ALTER SYSTEM SET $setting = '$value'");
	$node->safe_psql('postgres', 'SELECT pg_reload_conf()');
	$node->poll_query_until('postgres', "SELECT current_setting('$setting') = '$value'")
	  or die $node->name . " did not take $setting = '$value'\n";
	return;
}

# The tables of the carry tests (t/036, t/037): family => [type, default],
# every generator; shard 5 adopted an hour ahead.
my %carry = (
	shardid => [ 'shardid', 'next_id(6)' ],
	shard5 => [ 'shardid', 'next_id(5)' ],
	snowflake => [ 'snowflake', 'next_snowflake()' ],
	sonyflake => [ 'sonyflake', 'next_sonyflake()' ],
	shortid => [ 'shortid', 'next_shortid()' ],
	spreadid => [ 'spreadid', q{next_spreadid('time')} ],
	# (spread mode does not sort by time: only its primary key checks it)
	spread => [ 'spreadid', 'next_spreadid()' ],
	sno => [ 'sno', 'next_sno()' ],
	objectid => [ 'objectid', 'next_objectid()' ],
	uuid7 => [ 'uuid', 'next_uuid7()' ],
	ulid => [ 'ulid', 'next_ulid()' ],
	ksuid => [ 'ksuid', 'next_ksuid()' ],
	rsxid => [ 'rsxid', 'next_rsxid()' ],
	typeid => [ 'typeid', q{next_typeid('user')} ]);
my @carry = sort keys %carry;

# uid_carry_setup(NODE, DB, ROWS, VERSION): in DB (which has no uniqueid
# yet), the extension (at VERSION, default the default one), a table t_FAMILY (id TYPE PRIMARY KEY DEFAULT its generator,
# gen int) for every generator, shard 5 adopted an hour ahead of the clock,
# and ROWS rows of each made by the defaults, generation 0.
sub uid_carry_setup
{
	my ($node, $db, $rows, $version) = @_;
	$node->safe_psql($db,
		'CREATE EXTENSION uniqueid' . ($version ? " VERSION '$version'" : '') . ";\n"
		  . join('', map { "CREATE TABLE t_$_ (id $carry{$_}[0] PRIMARY KEY DEFAULT $carry{$_}[1], gen int);\n" } @carry)
		  . q{SELECT shard_adopt(5, make_shardid(clock_timestamp() + interval '1 hour', 5, 7));});
	$node->safe_psql($db, join('', map { "INSERT INTO t_$_ (gen) SELECT 0 FROM generate_series(1, $rows);\n" } @carry));
	return;
}

# uid_carry_check(NODE, DB, GEN, WHAT): 2,000 rows of generation GEN made by
# the defaults of every t_FAMILY (a repeat would violate its primary key),
# and a test that they all sort above every row of the generations before.
sub uid_carry_check
{
	my ($node, $db, $gen, $what) = @_;
	$node->safe_psql($db, join('', map { "INSERT INTO t_$_ (gen) SELECT $gen FROM generate_series(1, 2000);\n" } @carry));
	my @bad;
	for my $f (grep { $_ ne 'spread' } @carry)
	{
		my $r = $node->safe_psql($db, qq{SELECT count(*) FROM t_$f
			WHERE gen = $gen AND id <= (SELECT id FROM t_$f WHERE gen < $gen ORDER BY id DESC LIMIT 1)});
		push @bad, "$f: $r" if $r ne '0';
	}
	is(join(', ', @bad), '', "$what: every family continues above every earlier ID (none repeated: primary keys)");
	return;
}

# uid_doc_blocks(FILE): the code blocks of the Markdown FILE that have an
# info string (```sql, ```python test/clients/psycopg_ids.py), each
# [info string, [lines]]
sub uid_doc_blocks
{
	my ($file) = @_;
	open my $fh, '<', $file or die "cannot read $file: $!";
	my @doc = <$fh>;
	close $fh;
	chomp @doc;
	my @blocks;
	for (my $i = 0; $i < @doc; $i++)
	{
		next unless $doc[$i] =~ /^```(\S.*)$/;
		my $info = $1;
		my @body;
		push @body, $doc[$i] while ++$i < @doc && $doc[$i] ne '```';
		push @blocks, [ $info, \@body ];
	}
	return @blocks;
}

# uid_try_function(): the SQL that makes public.try(q): q's one value as
# text, or its error as 'ERROR sqlstate: message' (for tests that compare
# what two servers, or two editions, give for one statement)
sub uid_try_function
{
	return q{CREATE FUNCTION public.try(q text) RETURNS text LANGUAGE plpgsql AS $$
	DECLARE r text;
	BEGIN
		EXECUTE q INTO r;
		RETURN r;
	EXCEPTION WHEN OTHERS THEN
		RETURN 'ERROR ' || SQLSTATE || ': ' || SQLERRM;
	END $$};
}

# uid_contains(FILE, LINES): whether FILE has LINES one after the other,
# each with the same indentation added (a documented snippet nested in a
# program's block); blank lines match blank lines.
sub uid_contains
{
	my ($file, $lines) = @_;
	open my $f, '<', $file or return 0;
	my @text = <$f>;
	close $f;
	chomp @text;
	for my $start (0 .. @text - @$lines)
	{
		my ($indent) = $text[$start] =~ /^(\s*)\Q$lines->[0]\E$/ or next;
		return 1 unless grep {
			my $want = $lines->[$_] eq '' ? '' : $indent . $lines->[$_];
			$text[ $start + $_ ] ne $want
		} 1 .. $#$lines;
	}
	return 0;
}

1;
