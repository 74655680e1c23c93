# The horizon goes where a database goes: pg_upgrade (--copy and --link),
# pg_dump and restore (plain and custom), and a migration by logical
# replication (PostgreSQL 19: the sequence replicated; 15 to 18: one call on
# each side).  Each time the new server runs with its clock 30 s behind the
# old one's, with shard 5 adopted an hour ahead: every generator continues
# above every ID made before, in a table whose primary key would refuse a
# repeat.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;
use PostgreSQL::Test::Utils;

# family => [type, default]: every generator
my %fam = (
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
my @fams = sort keys %fam;
my $n = 20_000;

my $old = uid_node('old');
$old->start;
$old->safe_psql('postgres', 'CREATE DATABASE app');
$old->safe_psql('app',
	"CREATE EXTENSION uniqueid;\n"
	  . join('', map { "CREATE TABLE t_$_ (id $fam{$_}[0] PRIMARY KEY DEFAULT $fam{$_}[1], gen int);\n" } @fams)
	  . q{SELECT shard_adopt(5, make_shardid(clock_timestamp() + interval '1 hour', 5, 7));});
# gen 0: the IDs of the old cluster
$old->safe_psql('app', join('', map { "INSERT INTO t_$_ (gen) SELECT 0 FROM generate_series(1, $n);\n" } @fams));
is($old->safe_psql('app', q{SELECT last_value >= (extract(epoch FROM clock_timestamp()) * 1000)::bigint + 3500000
	FROM uniqueid_horizon_ms}), 't',
	'the database\'s sequence holds the horizon, the adopted shard\'s an hour ahead included');

# check(NODE, DB, GEN, WHAT): GEN's rows, made by the defaults, are all above
# every row of the generations before, in each family
sub check
{
	my ($node, $db, $gen, $what) = @_;
	$node->safe_psql($db, join('', map { "INSERT INTO t_$_ (gen) SELECT $gen FROM generate_series(1, 2000);\n" } @fams));
	my @bad;
	for my $f (grep { $_ ne 'spread' } @fams)
	{
		my $r = $node->safe_psql($db, qq{SELECT count(*) FROM t_$f
			WHERE gen = $gen AND id <= (SELECT id FROM t_$f WHERE gen < $gen ORDER BY id DESC LIMIT 1)});
		push @bad, "$f: $r" if $r ne '0';
	}
	is(join(', ', @bad), '', "$what: every family continues above every earlier ID (none repeated: primary keys)");
	return;
}

my $bindir = $old->config_data('--bindir');
my $tmp = PostgreSQL::Test::Utils::tempdir();

# 1. pg_upgrade, --copy then --link (which leaves the old cluster unusable)
$old->stop;
for my $mode ('--copy', '--link')
{
	my $new = uid_node("upgraded$mode");
	# (copying is the default, spelled out from 16 on)
	my @mode = $mode eq '--copy' && $old->pg_version < 16 ? () : ($mode);
	chdir $tmp;
	command_ok(
		[
			'pg_upgrade', '--no-sync', '-d', $old->data_dir, '-D', $new->data_dir,
			'-b', $bindir, '-B', $bindir, '-s', $new->host, '-p', $old->port, '-P', $new->port, @mode
		],
		"pg_upgrade $mode");
	ok(!-e $new->data_dir . '/uniqueid.horizon', "pg_upgrade $mode carried no state file");
	uid_clock_set($new, -30);
	uid_on_clock($new, sub { $new->start });
	check($new, 'app', 1, "after pg_upgrade $mode, the clock 30 s behind");
	# and across a restart, on the horizon of its own now
	$new->stop;
	uid_on_clock($new, sub { $new->start });
	check($new, 'app', 2, "after pg_upgrade $mode and a restart");
	$new->stop if $mode eq '--copy';
	$old = $new if $mode eq '--link';
}
# $old is now the cluster upgraded with --link, running 30 s behind: the
# dumps and the migration start from it, with generations 0..2 in them

# 2. pg_dump and restore into a new cluster, its clock 60 s behind
for my $format ('plain', 'custom')
{
	my $new = uid_node("restored_$format");
	uid_clock_set($new, -60);
	uid_on_clock($new, sub { $new->start });
	$new->safe_psql('postgres', 'CREATE DATABASE app');
	my $file = "$tmp/app.$format";
	$old->command_ok([ 'pg_dump', '-d', $old->connstr('app'), $format eq 'plain' ? '-Fp' : '-Fc', '-f', $file ],
		"pg_dump ($format)");
	if ($format eq 'plain')
	{
		$new->command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $new->connstr('app'), '-f', $file ],
			'the plain dump restores');
	}
	else
	{
		$new->command_ok([ 'pg_restore', '-d', $new->connstr('app'), $file ], 'the custom dump restores');
	}
	check($new, 'app', 3, "after a $format dump restored, the clock 60 s behind");
	$new->stop;
}

# 3. a migration by logical replication to a server 60 s behind
my $sub = uid_node('subscriber', conf => ['wal_level = logical']);
$old->append_conf('postgresql.conf', "wal_level = logical\nmax_wal_senders = 10\nmax_replication_slots = 10\n");
uid_on_clock($old, sub { $old->restart });
uid_clock_set($sub, -60);
uid_on_clock($sub, sub { $sub->start });
$sub->safe_psql('postgres', 'CREATE DATABASE app');
my $schema = "$tmp/schema.sql";
$old->command_ok([ 'pg_dump', '-d', $old->connstr('app'), '--schema-only', '-f', $schema ], 'pg_dump --schema-only');
$sub->command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $sub->connstr('app'), '-f', $schema ],
	'the schema restores on the subscriber');
my $v19 = $old->pg_version >= 19;
$old->safe_psql('app', 'CREATE PUBLICATION mig FOR ALL TABLES');
$old->safe_psql('app', 'CREATE PUBLICATION mig_seq FOR ALL SEQUENCES') if $v19;
$sub->safe_psql('app',
	"CREATE SUBSCRIPTION mig CONNECTION '" . $old->connstr . " dbname=app' PUBLICATION mig" . ($v19 ? ', mig_seq' : ''));
$sub->wait_for_subscription_sync($old, 'mig');
# more IDs on the publisher while it replicates
$old->safe_psql('app', join('', map { "INSERT INTO t_$_ (gen) SELECT 3 FROM generate_series(1, 2000);\n" } @fams));
$old->wait_for_catchup('mig');
is($sub->safe_psql('app', 'SELECT count(*) FROM t_snowflake'), $old->safe_psql('app', 'SELECT count(*) FROM t_snowflake'),
	'the subscriber has every row');
# the cutover: writes stop on the old server
if ($v19)
{
	# the sequence is copied on demand, like every sequence a migration carries
	my $pub = $old->safe_psql('app', 'SELECT last_value FROM uniqueid_horizon_ms');
	$sub->safe_psql('app', 'ALTER SUBSCRIPTION mig REFRESH SEQUENCES');
	ok($sub->poll_query_until('app', "SELECT last_value >= $pub FROM uniqueid_horizon_ms"),
		'PostgreSQL 19: REFRESH SEQUENCES copied the horizon');
}
else
{
	my $h = $old->safe_psql('app', 'SELECT uniqueid_horizon()');
	is($sub->safe_psql('app', "SELECT uniqueid_raise_horizon('$h') >= '$h'"), 't',
		"PostgreSQL 15 to 18: uniqueid_raise_horizon(uniqueid_horizon() of the publisher)");
}
$sub->safe_psql('app', 'ALTER SUBSCRIPTION mig DISABLE');
check($sub, 'app', 4, 'after a logical migration, the clock 60 s behind');

# the sequence is raised in a read-only transaction too (no transaction id)
uid_on_clock($sub, sub { $sub->restart });
is( $sub->safe_psql('app', q{BEGIN READ ONLY; SELECT next_snowflake() IS NOT NULL;
		SELECT last_value >= (extract(epoch FROM uniqueid_horizon()) * 1000)::bigint FROM uniqueid_horizon_ms; COMMIT}),
	"t\nt", 'a read-only transaction generates, and raises the sequence to the horizon');

# the raise refuses what it must
sub app_error { return ($sub->psql('app', "\\set VERBOSITY verbose\n$_[0]"))[2]; }
like(app_error(q{SELECT uniqueid_raise_horizon(now() + interval '2 days')}),
	qr/22023: horizon ".*" is more than a day ahead of this server's clock/, 'a horizon days ahead is refused');
like(app_error(q{SELECT uniqueid_raise_horizon('infinity')}),
	qr/22008: horizon "infinity" is out of range/, 'an infinite horizon is refused');
my $h = $sub->safe_psql('app', 'SELECT uniqueid_horizon()');
is($sub->safe_psql('app', q{SELECT uniqueid_raise_horizon('2020-01-01') = uniqueid_horizon()}), 't',
	'a horizon in the past lowers nothing');
is($sub->safe_psql('app', "SELECT uniqueid_horizon() >= '$h'"), 't', 'the horizon did not go back');
$sub->safe_psql('app', 'CREATE ROLE plain LOGIN');
my (undef, undef, $err) = $sub->psql('app', q{SELECT uniqueid_raise_horizon(now())}, extra_params => [ '-U', 'plain' ]);
like($err, qr/permission denied for function uniqueid_raise_horizon/, 'only a superuser may raise the horizon');

done_testing();
