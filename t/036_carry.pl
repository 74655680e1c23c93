# The horizon goes where a database goes: pg_upgrade (--copy and --link),
# pg_dump and restore (plain and custom), and a migration by logical
# replication (PostgreSQL 19: the sequence replicated; 15 to 18: one call on
# each side).  Each time the new server runs with its clock 30 s behind the
# old one's, with shard 5 adopted an hour ahead: every generator continues
# above every ID made before, in a table whose primary key would refuse a
# repeat.
#
# The database app starts on uniqueid 1.8, whose sequences (and registry
# table) are in the schema it was installed into; 1.9 moves them to
# uniqueid_catalog.  pg_upgrade carries it at 1.8, where the horizon is
# still read from there, and the update after --link moves them with their
# values; a dump made at 1.8 restores as doc/installing.md says (the
# extension at 1.8 first, then the update), and not otherwise.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;
use PostgreSQL::Test::Utils;

my $old = uid_node('old');
$old->start;
$old->safe_psql('postgres', 'CREATE DATABASE app');
uid_carry_setup($old, 'app', 20_000, '1.8');
# (and a claim, as a registry of node numbers has them)
$old->safe_psql('app', q{INSERT INTO uniqueid_node_claims VALUES (70, 1, 'x', 1, now(), now(), now(), 0, now(), now())});
is( $old->safe_psql('app', q{SELECT h.last_value >= (SELECT max(extract(epoch FROM id_time(id)) * 1000) FROM t_snowflake)
	AND s.last_value >= (SELECT max(extract(epoch FROM id_time(id)) * 1000) FROM t_shard5)
	AND h.last_value < s.last_value
	FROM uniqueid_horizon_ms h, uniqueid_shard_horizon_ms s}), 't',
	'the database\'s sequences lie past its IDs: the server\'s horizon, and the adopted shard\'s, an hour ahead');

# a second database, whose horizon ends up past app's: shard 9 adopted an
# hour ahead once that is past app's shard horizon (its IDs, and the horizon
# above them, start there), in a cluster that makes one horizon for both
$old->safe_psql('postgres', 'CREATE DATABASE other');
$old->poll_query_until('app', q{SELECT extract(epoch FROM clock_timestamp() + interval '1 hour') * 1000 > last_value
	FROM uniqueid_shard_horizon_ms}) or die "the clock an hour ahead did not pass app's shard horizon\n";
$old->safe_psql('other', q{CREATE EXTENSION uniqueid;
	CREATE TABLE t9 (id shardid PRIMARY KEY DEFAULT next_id(9));
	SELECT shard_adopt(9, make_shardid(clock_timestamp() + interval '1 hour', 9, 7));
	INSERT INTO t9 SELECT FROM generate_series(1, 20000);});
my $other_max = $old->safe_psql('other', 'SELECT id FROM t9 ORDER BY id DESC LIMIT 1');
ok( $old->safe_psql('other', 'SELECT last_value FROM uniqueid_catalog.uniqueid_shard_horizon_ms') >
	  $old->safe_psql('app', 'SELECT last_value FROM uniqueid_shard_horizon_ms'),
	'database other carries a horizon past app\'s');

my $bindir = $old->config_data('--bindir');
my $tmp = PostgreSQL::Test::Utils::tempdir();
my $dump18 = "$tmp/app18.sql";
$old->command_ok([ 'pg_dump', '-d', $old->connstr('app'), '-Fp', '-f', $dump18 ], 'pg_dump of a database at 1.8');

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
	ok(-e $new->data_dir . '/uniqueid.horizon.scan', "pg_upgrade $mode: the reading of every database is marked to do");
	# the first ID, in app, is above the IDs of the database other too
	is($new->safe_psql('app', "SELECT next_id(9) > '$other_max'"), 't',
		"after pg_upgrade $mode, the first ID, made in one database, is above every ID made in another");
	ok(!-e $new->data_dir . '/uniqueid.horizon.scan', "... and done then");
	uid_carry_check($new, 'app', 1, "after pg_upgrade $mode, the clock 30 s behind (at 1.8)");
	if ($mode eq '--link')
	{
		# the update moves the sequences and the claims, with their values
		my $before = $new->safe_psql('app', q{SELECT (SELECT last_value FROM uniqueid_horizon_ms) || ' '
			|| (SELECT last_value FROM uniqueid_shard_horizon_ms) || ' ' || (SELECT count(*) FROM uniqueid_node_claims)});
		$new->safe_psql('app', 'ALTER EXTENSION uniqueid UPDATE');
		is( $new->safe_psql('app', q{SELECT (SELECT last_value FROM uniqueid_catalog.uniqueid_horizon_ms) || ' '
			|| (SELECT last_value FROM uniqueid_catalog.uniqueid_shard_horizon_ms) || ' '
			|| (SELECT count(*) FROM uniqueid_catalog.uniqueid_node_claims WHERE number = 70)}),
			$before =~ s/\d+$/1/r, 'the update to 1.9 moves the sequences and the claims to uniqueid_catalog, as they were');
		is( $new->safe_psql('app', q{SELECT string_agg(relname, ', ') FROM pg_class
			WHERE relnamespace = 'public'::regnamespace AND relname LIKE 'uniqueid%' AND relkind <> 'c'}),
			'', '... and leaves no table, view or sequence of uniqueid\'s in public (its types stay)');
	}
	# and across a restart, on the horizon of its own now
	$new->stop;
	uid_on_clock($new, sub { $new->start });
	uid_carry_check($new, 'app', 2, "after pg_upgrade $mode and a restart");
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
	uid_carry_check($new, 'app', 3, "after a $format dump restored, the clock 60 s behind");
	is($new->safe_psql('app', 'SELECT count(*) FROM uniqueid_catalog.uniqueid_node_claims WHERE number = 70'), '1',
		"the $format dump carries the claims in uniqueid_catalog");
	if ($format eq 'plain')
	{
		# a dump made at 1.8 (gen 0): into 1.9, the restore stops where it
		# would lose the horizon; into 1.8, then updated, it carries it
		$new->safe_psql('postgres', 'CREATE DATABASE app18; CREATE DATABASE app18_wrong');
		my ($rc, $out, $err) = $new->psql('app18_wrong', undef, extra_params => [ '-v', 'ON_ERROR_STOP=1', '-f', $dump18 ]);
		like($err, qr/relation "public\.uniqueid_\w+" does not exist/,
			'a dump made at 1.8, restored into 1.9 as it is: the restore stops, naming what it cannot restore');
		$new->safe_psql('app18', q{CREATE EXTENSION uniqueid VERSION '1.8'});
		$new->command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $new->connstr('app18'), '-f', $dump18 ],
			'a dump made at 1.8 restores into the extension at 1.8');
		$new->safe_psql('app18', 'ALTER EXTENSION uniqueid UPDATE');
		is($new->safe_psql('app18', 'SELECT count(*) FROM uniqueid_catalog.uniqueid_node_claims WHERE number = 70'), '1',
			'... and the update to 1.9 moves its claims');
		uid_carry_check($new, 'app18', 1, 'after a dump made at 1.8 restored and updated, the clock 60 s behind');
	}
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
$sub->wait_for_subscription_sync($old, 'mig', 'app');
# more IDs on the publisher while it replicates
$old->safe_psql('app', 'INSERT INTO t_snowflake (gen) SELECT 3 FROM generate_series(1, 2000)');
$old->wait_for_catchup('mig');
is($sub->safe_psql('app', 'SELECT count(*) FROM t_snowflake'), $old->safe_psql('app', 'SELECT count(*) FROM t_snowflake'),
	'the subscriber has every row');
# the cutover: writes stop on the old server
if ($v19)
{
	# the sequence is copied on demand, like every sequence a migration carries
	my $pub = $old->safe_psql('app', 'SELECT last_value FROM uniqueid_catalog.uniqueid_horizon_ms');
	$sub->safe_psql('app', 'ALTER SUBSCRIPTION mig REFRESH SEQUENCES');
	ok($sub->poll_query_until('app', "SELECT last_value >= $pub FROM uniqueid_catalog.uniqueid_horizon_ms"),
		'PostgreSQL 19: REFRESH SEQUENCES copied the horizon');
}
else
{
	my $h = $old->safe_psql('app', 'SELECT uniqueid_horizon()');
	is($sub->safe_psql('app', "SELECT uniqueid_raise_horizon('$h') >= '$h'"), 't',
		"PostgreSQL 15 to 18: uniqueid_raise_horizon(uniqueid_horizon() of the publisher)");
}
$sub->safe_psql('app', 'ALTER SUBSCRIPTION mig DISABLE');
uid_carry_check($sub, 'app', 4, 'after a logical migration, the clock 60 s behind');

# the sequence is raised in a read-only transaction too (no transaction id)
uid_on_clock($sub, sub { $sub->restart });
is( $sub->safe_psql('app', q{BEGIN READ ONLY; SELECT next_snowflake() IS NOT NULL;
		SELECT last_value >= (extract(epoch FROM uniqueid_horizon()) * 1000)::bigint FROM uniqueid_catalog.uniqueid_horizon_ms; COMMIT}),
	"t\nt", 'a read-only transaction generates, and raises the sequence to the horizon');

# a value carried into a running server, on its own clock, below one of
# its adopted shards' horizons (which are ahead of the floor of every other
# generator) still moves the generators up: a database restored there whose
# sequence is 30 minutes ahead, while shard 11 stands 50 minutes ahead
my $live = uid_node('live');
$live->start;
$live->safe_psql('postgres', q{CREATE EXTENSION uniqueid;
	SELECT shard_adopt(11, make_shardid(clock_timestamp() + interval '50 minutes', 11, 1)); SELECT next_id(11)});
is($live->safe_psql('postgres', q{SELECT id_time(next_ulid()) < clock_timestamp() + interval '1 minute'}), 't',
	'a server with shard 11 adopted 50 minutes ahead: its other generators follow the clock');
# set higher while a session generates on the clock: its IDs after the
# next renewal (a lease on) are above it
is( $live->safe_psql('postgres', q{SELECT next_ulid() IS NOT NULL;
		SELECT setval('uniqueid_catalog.uniqueid_horizon_ms', (extract(epoch FROM clock_timestamp() + interval '20 minutes') * 1000)::bigint) > 0;
		DO $$BEGIN
			-- until its next ID renews the horizon: within 250 ms of it (at most 10 s)
			FOR i IN 1 .. 1000 LOOP
				EXIT WHEN clock_timestamp() >= (SELECT horizon - interval '250 ms' FROM uniqueid_catalog.uniqueid_durability WHERE scope = 'server');
				PERFORM pg_sleep(0.01);
			END LOOP;
		END$$;
		SELECT next_ulid() IS NOT NULL;
		SELECT id_time(next_ulid()) >= clock_timestamp() + interval '19 minutes'}),
	"t\nt\nt\nt", 'a value set higher while a session generates: the generators move up at its next renewal');
$live->safe_psql('postgres', 'CREATE DATABASE restored');
$live->safe_psql('restored', q{CREATE EXTENSION uniqueid;
	SELECT setval('uniqueid_catalog.uniqueid_horizon_ms', (extract(epoch FROM clock_timestamp() + interval '30 minutes') * 1000)::bigint)});
is($live->safe_psql('restored', q{SELECT id_time(next_ulid()) >= clock_timestamp() + interval '29 minutes'}), 't',
	'a carried horizon below an adopted shard\'s, above the floor: the generators move up to it');
# more than a day ahead: an error that names the sequence, and nothing moves
$live->safe_psql('restored',
	q{SELECT setval('uniqueid_catalog.uniqueid_horizon_ms', (extract(epoch FROM clock_timestamp() + interval '3 days') * 1000)::bigint)});
like(uid_error($live, 'SELECT next_ulid()', 'restored'),
	qr/XX001: sequence "uniqueid_horizon_ms" of database "restored" holds \d+, more than a day ahead of this server's clock/,
	'a sequence more than a day ahead: XX001, naming it');
is($live->safe_psql('postgres', q{SELECT id_time(next_ulid()) < clock_timestamp() + interval '1 hour'}), 't',
	'... and the generators did not move there');

# past 64 databases a server writes its horizon to, a new session's first ID
# does not take the server's own horizon for one from elsewhere: 66
# databases, then 20 sessions in the last, and its IDs stay near the clock
# (the 3 s bound: the lease, and the borrowing of a short run)
$live->stop;
my $many = uid_node('many');
$many->start;
$many->safe_psql('postgres', join('', map { "CREATE DATABASE many$_;\n" } 1 .. 66));
$many->safe_psql("many$_", 'CREATE EXTENSION uniqueid; SELECT next_snowflake()') for 1 .. 66;
$many->safe_psql('many66', 'SELECT next_snowflake()') for 1 .. 20;
is( $many->safe_psql('many66', q{SELECT id_time(next_snowflake()) < clock_timestamp() + interval '3 s'}), 't',
	'66 databases, 20 new sessions in the last: its IDs stay within the lease of the clock');
$many->stop;

# the raise refuses what it must
like(uid_error($sub, q{SELECT uniqueid_raise_horizon(now() + interval '2 days')}, 'app'),
	qr/22023: horizon ".*" is more than a day ahead of this server's clock/, 'a horizon days ahead is refused');
like(uid_error($sub, q{SELECT uniqueid_raise_horizon('infinity')}, 'app'),
	qr/22008: horizon "infinity" is out of range/, 'an infinite horizon is refused');
my $h = $sub->safe_psql('app', 'SELECT uniqueid_horizon()');
is($sub->safe_psql('app', q{SELECT uniqueid_raise_horizon('2020-01-01') = uniqueid_horizon()}), 't',
	'a horizon in the past lowers nothing');
is($sub->safe_psql('app', "SELECT uniqueid_horizon() >= '$h'"), 't', 'the horizon did not go back');
$sub->safe_psql('app', 'CREATE ROLE plain LOGIN');
my (undef, undef, $err) = $sub->psql('app', q{SELECT uniqueid_raise_horizon(now())}, extra_params => [ '-U', 'plain' ]);
like($err, qr/permission denied for function uniqueid_raise_horizon/, 'only a superuser may raise the horizon');

done_testing();
