# uniqueid's SQL edition as the pg_tle extension uniqueid_sql
# (portable/uniqueid-pgtle.sql, doc/portable.md), as a managed service
# offers it: pg_tle preloaded and nothing else, the installer run by a
# database owner who is a member of pgtle_admin and no superuser.  CREATE
# EXTENSION makes the edition's objects and nothing else as members; pg_dump
# and pg_restore carry the generators' state (node, shards owned and given
# back, every state sequence); DROP EXTENSION is refused while a column
# uses its domains; a later installer registers a new version and an update
# path, and ALTER EXTENSION ... UPDATE follows it.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Digest::SHA;
use File::Copy;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $top = "$FindBin::RealBin/..";
my $installer = "$top/portable/uniqueid-pgtle.sql";
my $edition = "$top/portable/uniqueid.sql";
my ($version) = slurp_file("$top/portable/pgtle/versions") =~ /^(\d+(?:\.\d+)+) [0-9a-f]{64}\s*\z/m;

my $node = PostgreSQL::Test::Cluster->new('tle');
if (my $why = uid_pgtle_missing($node))
{
	plan skip_all => $why;
}
$node->init(extra => [ '--encoding=UTF8', '--locale=C.UTF-8' ]);
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'pg_tle'\n");
$node->start;
$node->safe_psql('postgres', q{
	CREATE ROLE owner LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE;
	CREATE DATABASE bare OWNER owner;
	CREATE DATABASE app OWNER owner;
	CREATE DATABASE pasted OWNER owner;
});
# (pg_tle itself is a superuser's to create, as on RDS an rds_superuser's)
$node->safe_psql('app', 'CREATE EXTENSION pg_tle');

# SQL as the owner in DB: (exit code, stdout, stderr)
sub owner_psql
{
	my ($db, $sql, @file) = @_;
	my ($ret, $out, $err) = $node->psql($db, $sql,
		extra_params => [ '-U', 'owner', '-v', 'ON_ERROR_STOP=1', @file ]);
	return ($ret, $out, $err);
}
sub as_owner
{
	my ($db, $sql) = @_;
	return $node->safe_psql($db, $sql, extra_params => [ '-U', 'owner' ]);
}

# ---- installing: the installer, then CREATE EXTENSION, as the owner

my ($ret, $out, $err) = owner_psql('bare', undef, '-f', $installer);
like($err, qr/ERROR:  pg_tle is not installed in database bare\nHINT:  Run CREATE EXTENSION pg_tle; first/,
	'where pg_tle is not installed, the installer says so');
($ret, $out, $err) = owner_psql('app', undef, '-f', $installer);
like($err, qr/ERROR:  permission denied for function install_extension/,
	'a database owner outside pgtle_admin may not register an extension with pg_tle');
$node->safe_psql('postgres', 'GRANT pgtle_admin TO owner');
is(as_owner('app', q{SELECT rolsuper FROM pg_roles WHERE rolname = current_user}), 'f', 'the owner is no superuser');
($ret, $out, $err) = owner_psql('app', undef, '-f', $installer);
is($ret, 0, 'a member of pgtle_admin runs the installer') or diag $err;
like($err, qr/NOTICE:  pg_tle has uniqueid_sql \Q$version\E: CREATE EXTENSION uniqueid_sql makes it/, 'which says what it did');
is(as_owner('app', q{SELECT default_version || ' ' || comment FROM pgtle.available_extensions() WHERE name = 'uniqueid_sql'}),
	"$version uniqueid's SQL edition: shardid, snowflake, sonyflake and UUID v7 IDs and generators in SQL and PL/pgSQL",
	"pg_tle offers uniqueid_sql $version, the version of portable/pgtle/versions");
($ret, $out, $err) = owner_psql('app', undef, '-f', $installer);
is($ret, 0, 'the installer runs again') or diag $err;
like($err, qr/NOTICE:  pg_tle has uniqueid_sql \Q$version\E already/, 'changing nothing');

($ret, $out, $err) = owner_psql('app', 'CREATE SCHEMA ids; CREATE EXTENSION uniqueid_sql SCHEMA ids');
is($ret, 0, 'the owner creates the extension in a schema of its own') or diag $err;
is(as_owner('app', q{SELECT extversion || ' ' || extnamespace::regnamespace || ' ' || extowner::regrole FROM pg_extension WHERE extname = 'uniqueid_sql'}),
	"$version ids owner", "uniqueid_sql $version, in ids, the owner's");

# the same objects as the pasted edition, each a member of the extension,
# and besides them only what pg_dump needs (portable/pgtle/extension.sql)
as_owner('pasted', 'CREATE SCHEMA ids');
{
	local $ENV{PGOPTIONS} = '-c search_path=ids';
	($ret, $out, $err) = owner_psql('pasted', undef, '-1', '-f', $edition);
}
is($ret, 0, 'the edition is pasted into another database') or diag $err;
my $objects = q{SET search_path = ids; SELECT kind || ' ' || name FROM (
	SELECT 'function' AS kind, p.oid::regprocedure::text || ' ' || md5(coalesce(p.prosrc, '') || pg_get_function_result(p.oid)) AS name
	  FROM pg_proc p WHERE pronamespace = 'ids'::regnamespace
	UNION ALL SELECT 'relation', relname || ' ' || relkind::text FROM pg_class WHERE relnamespace = 'ids'::regnamespace
	UNION ALL SELECT 'type', typname FROM pg_type WHERE typnamespace = 'ids'::regnamespace
	UNION ALL SELECT 'operator', oid::regoperator::text FROM pg_operator WHERE oprnamespace = 'ids'::regnamespace) o ORDER BY 1};
my %pasted = map { $_ => 1 } split /\n/, as_owner('pasted', $objects);
my @tle = split /\n/, as_owner('app', $objects);
cmp_ok(scalar keys %pasted, '>=', 70, 'the pasted edition has its objects');
is(join(', ', grep { !$pasted{$_} } @tle) =~ s/ [0-9a-f]{32}//gr,
	'function uniqueid_sql_disowned(), function uniqueid_sql_restore(), relation uniqueid_shard_disowned r, '
	  . 'relation uniqueid_shard_disowned_pkey i, type _uniqueid_shard_disowned, type uniqueid_shard_disowned',
	"the extension's are the same, bodies and all, with only what pg_dump needs besides");
is(scalar(grep { $pasted{$_} } @tle), scalar keys %pasted, 'and none of the edition missing');
is(as_owner('app', q{SELECT count(*) || ' ' || count(*) FILTER (WHERE NOT EXISTS (SELECT FROM pg_depend d
	  WHERE d.classid = o.classid AND d.objid = o.objid AND d.deptype = 'e'
	    AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'uniqueid_sql')))
	FROM (SELECT 'pg_proc'::regclass AS classid, oid AS objid FROM pg_proc WHERE pronamespace = 'ids'::regnamespace
	      UNION ALL SELECT 'pg_class'::regclass, oid FROM pg_class WHERE relnamespace = 'ids'::regnamespace AND relkind IN ('r', 'S')
	      UNION ALL SELECT 'pg_type'::regclass, oid FROM pg_type WHERE typnamespace = 'ids'::regnamespace AND typtype = 'd'
	      UNION ALL SELECT 'pg_operator'::regclass, oid FROM pg_operator WHERE oprnamespace = 'ids'::regnamespace) o})
	  =~ s/^(\d+) (\d+)$/($1 >= 70 ? 'many' : $1) . " $2"/er,
	'many 0', 'every function, table, sequence, domain and operator is a member of the extension');

# ---- generating, as the edition does
as_owner('app', q{ALTER DATABASE app SET search_path = public, ids});
is(as_owner('app', q{SELECT uniqueid_set_node(5), uniqueid_own_shards(9), uniqueid_disown_shards(0)}), '5|1|1',
	'node 5, shard 9 owned, shard 0 given back');
as_owner('app', q{CREATE TABLE media (id shardid PRIMARY KEY DEFAULT next_id(9), s snowflake NOT NULL DEFAULT next_snowflake(),
	y sonyflake NOT NULL DEFAULT next_sonyflake(), u uuid NOT NULL DEFAULT next_uuid7(), own shardid DEFAULT next_id())});
my @runs = do
{
	local $ENV{PGUSER} = 'owner';
	uid_concurrently($node, 'app', map { "INSERT INTO media SELECT FROM generate_series(1, 5000)" } 1 .. 4);
};
is(scalar(grep { $_->{ok} } @runs), 4, '4 sessions generate') or diag join "\n", map { $_->{err} } @runs;
is(as_owner('app', q{SELECT count(*) || ' ' || count(DISTINCT id) || ' ' || count(DISTINCT s) || ' ' || count(DISTINCT y)
	|| ' ' || count(DISTINCT u) || ' ' || count(DISTINCT own) FROM media}), '20000 20000 20000 20000 20000 20000',
	'20,000 rows, no duplicate of any generator');
is(as_owner('app', q{SELECT count(*) FROM media WHERE id_shard(id) = 9 AND id_node(s) = 5 AND id_node(y) = 5
	AND id_shard(own) = 5 AND (id_parts(u)).version = 7}), 20000, 'each from shard 9, node 5 and shard 5');
like((owner_psql('app', 'SELECT next_id(0)'))[2], qr/ERROR:  shard 0 is not owned by this database/,
	'shard 0, given back, makes no ID');

# ---- DROP EXTENSION refuses while a column uses its domains
($ret, $out, $err) = owner_psql('app', 'DROP EXTENSION uniqueid_sql');
like($err, qr/ERROR:  cannot drop extension uniqueid_sql because other objects depend on it\nDETAIL:  .*column id of table media depends on type (ids\.)?shardid/s,
	'DROP EXTENSION is refused while a column uses its domains, naming it');
is(as_owner('app', q{SELECT count(*) FROM media WHERE next_snowflake() > s}), 20000, 'and changes nothing');

# ---- pg_dump and pg_restore (the owner restores, as on a service): the
# extension and its state come back
my $tmp = PostgreSQL::Test::Utils::tempdir();
my $state = q{SET search_path = public; SELECT (SELECT string_agg(node::text, ',') FROM ids.uniqueid_node) || ' | '
	|| (SELECT string_agg(shard || '=' || state::text, ',' ORDER BY shard) FROM ids.uniqueid_shard) || ' | '
	|| (SELECT coalesce(string_agg(shard::text, ',' ORDER BY shard), '') FROM ids.uniqueid_shard_disowned) || ' | '
	|| (SELECT last_value FROM ids.uniqueid_snowflake_state) || ',' || (SELECT last_value FROM ids.uniqueid_sonyflake_state)
	|| ',' || (SELECT last_value FROM ids.uniqueid_uuid7_state) || ',' || (SELECT last_value FROM ids.uniqueid_shard_0_state)
	|| ',' || (SELECT last_value FROM ids.uniqueid_shard_5_state) || ',' || (SELECT last_value FROM ids.uniqueid_shard_9_state)};
my $before = as_owner('app', $state);
like($before, qr/^5 \| 5=ids.uniqueid_shard_5_state,9=ids.uniqueid_shard_9_state \| 0 \| \d+,\d+,\d+,\d+,\d+,\d+$/,
	'the state: node 5, shards 5 and 9, shard 0 given back, the sequences');
$node->command_ok([ 'pg_dump', '-Fc', '-f', "$tmp/app.dump", '-d', $node->connstr('app') ], 'pg_dump of the database');
$node->safe_psql('postgres', 'CREATE DATABASE copy OWNER owner');
$node->safe_psql('copy', 'CREATE EXTENSION pg_tle');
my ($stdout, $stderr) = ('', '');
IPC::Run::run([ 'pg_restore', '--no-owner', '-U', 'owner', '-d', $node->connstr('copy'), "$tmp/app.dump" ],
	'>', \$stdout, '2>', \$stderr, IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
my @errors = $stderr =~ /ERROR:  (.*)/g;
is(join("\n", @errors), "schema \"pgtle\" already exists\nmust be owner of extension pg_tle",
	"the owner's pg_restore --no-owner: two errors, of pg_tle's own schema and comment, there already");
is(as_owner('copy', q{SELECT extversion FROM pg_extension WHERE extname = 'uniqueid_sql'}), $version,
	'the extension is restored at its version');
is(as_owner('copy', $state), $before, 'with its state: node, shards owned and given back, every state sequence');
is(as_owner('copy', q{SET search_path = public, ids; SELECT count(*) FROM media
	WHERE NOT (next_id(9) > id AND next_snowflake() > s AND next_sonyflake() > y AND next_uuid7() > u AND next_id() > own)}), 0,
	'its generators go on above every ID the dumped database made');
like((owner_psql('copy', 'SET search_path = public, ids; SELECT next_id(0)'))[2], qr/ERROR:  shard 0 is not owned by this database/,
	'shard 0 stays given back (CREATE EXTENSION owned it again; the restore gave it back)');

# a restore with session_replication_role = replica (some restore so, to
# skip the database's triggers): the state still replaces the install's
$node->safe_psql('postgres', 'CREATE DATABASE replica OWNER owner');
$node->safe_psql('replica', 'CREATE EXTENSION pg_tle');
($stdout, $stderr) = ('', '');
{
	local $ENV{PGOPTIONS} = '-c session_replication_role=replica';
	IPC::Run::run([ 'pg_restore', '--no-owner', '-d', $node->connstr('replica'), "$tmp/app.dump" ],
		'>', \$stdout, '2>', \$stderr, IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
}
is($node->safe_psql('replica', $state), $before,
	"a superuser's restore with session_replication_role = replica carries the same state") or diag $stderr;

# ---- a later installer: a new version and the update path to it
# (a release that changes the edition adds both; this one is made here
# from this release's files, through the same make pgtle)
my $next = "$version.1";
my $later = "$tmp/portable";
mkdir $later;
mkdir "$later/pgtle";
copy("$top/portable/pgtle/extension.sql", "$later/pgtle/extension.sql") or die $!;
my $fixture = q{CREATE FUNCTION @extschema@.uniqueid_sql_next() RETURNS text LANGUAGE sql RETURN 'the next version';};
append_to_file("$later/uniqueid.sql", slurp_file($edition) . "\n" . ($fixture =~ s/\@extschema\@\.//r) . "\n");
append_to_file("$later/pgtle/uniqueid_sql--$version--$next.sql", "$fixture\n");
my $versions = slurp_file("$top/portable/pgtle/versions");
append_to_file("$later/pgtle/versions", $versions);
my ($gen_out, $gen_err);
IPC::Run::run([ 'perl', "$top/tools/pgtle_installer.pl", $later ], '>', \$gen_out, '2>', \$gen_err);
isnt($? >> 8, 0, 'the generator refuses an edition changed without a version of its own');
like($gen_err, qr/uniqueid\.sql and .*extension\.sql are not the version \Q$version\E of .*: a changed edition is a new version there/, 'saying why');
my $later_sum = Digest::SHA->new(256)->add(slurp_file("$later/uniqueid.sql") . "\n" . slurp_file("$later/pgtle/extension.sql"))->hexdigest;
append_to_file("$later/pgtle/versions", "$version $later_sum\n");
IPC::Run::run([ 'perl', "$top/tools/pgtle_installer.pl", $later ], '>', \$gen_out, '2>', \$gen_err);
like($gen_err, qr/versions: \Q$version\E does not follow \Q$version\E: each version is above the one before/,
	'nor a version that is not above the one before');
unlink "$later/pgtle/versions";
append_to_file("$later/pgtle/versions", $versions . "$next $later_sum\n");
IPC::Run::run([ 'perl', "$top/tools/pgtle_installer.pl", $later ], '>', "$tmp/later.sql", '2>', \$gen_err);
is($? >> 8, 0, 'with one, it makes the later installer') or diag $gen_err;
($ret, $out, $err) = owner_psql('app', undef, '-f', "$tmp/later.sql");
is($ret, 0, 'the owner runs the later installer') or diag $err;
like($err, qr/NOTICE:  pg_tle has uniqueid_sql \Q$next\E too/, "which registers $next");
is(as_owner('app', q{SELECT string_agg(source || '>' || target || ' ' || coalesce(path, '-'), ', ' ORDER BY source)
	FROM pgtle.extension_update_paths('uniqueid_sql')}), "$version>$next $version--$next, $next>$version -",
	"and the update path to it");
is(as_owner('app', q{SELECT extversion FROM pg_extension WHERE extname = 'uniqueid_sql'}), $version,
	'the database stays at its version meanwhile');
my $last = as_owner('app', q{SELECT max(s) FROM media});
($ret, $out, $err) = owner_psql('app', 'ALTER EXTENSION uniqueid_sql UPDATE');
is($ret, 0, 'ALTER EXTENSION uniqueid_sql UPDATE') or diag $err;
is(as_owner('app', q{SELECT extversion FROM pg_extension WHERE extname = 'uniqueid_sql'}), $next, "goes to $next");
is(as_owner('app', q{SELECT ids.uniqueid_sql_next() || ' ' || (SELECT count(*) FROM pg_depend
	WHERE objid = 'ids.uniqueid_sql_next()'::regprocedure AND deptype = 'e')}), 'the next version 1',
	"running the update script: its function is the extension's");
is(as_owner('app', qq{SELECT next_snowflake() > $last AND id_node(next_snowflake()) = 5}), 't',
	'the generators go on from their state');
# the older installer again: it leaves the newer default
($ret, $out, $err) = owner_psql('app', undef, '-f', $installer);
is(as_owner('app', q{SELECT default_version FROM pgtle.available_extensions() WHERE name = 'uniqueid_sql'}), $next,
	'the older installer, run again, leaves the default at the newer version');
my $max9 = as_owner('app', q{SELECT max(id) FROM media});
as_owner('app', 'DROP TABLE media');
($ret, $out, $err) = owner_psql('app', 'DROP EXTENSION uniqueid_sql');
is($ret, 0, 'DROP EXTENSION once no column uses it') or diag $err;
is(as_owner('app', q{SELECT coalesce(string_agg(relname, ',' ORDER BY relname), '') FROM pg_class WHERE relnamespace = 'ids'::regnamespace}),
	'uniqueid_shard_5_state,uniqueid_shard_9_state',
	'leaving only the state of the shards owned after the install, outside the extension');
($ret, $out, $err) = owner_psql('app', 'CREATE EXTENSION uniqueid_sql SCHEMA ids');
is($ret, 0, 'made again') or diag $err;
is(as_owner('app', q{SELECT extversion FROM pg_extension WHERE extname = 'uniqueid_sql'}), $next, "at $next, the default now");
is(as_owner('app', qq{SELECT ids.uniqueid_own_shards(9); SELECT ids.next_id(9) > $max9}),
	"1\nt", 'shard 9, owned again, goes on above its IDs from its kept state');

# a role outside pgtle_admin creates the extension that a member registered;
# the database's owner has made a type named text in public and put public
# before pg_catalog: the installer, run by the member, runs none of it
$node->safe_psql('postgres', q{CREATE ROLE plain LOGIN; CREATE DATABASE other OWNER plain});
$node->safe_psql('other', 'CREATE EXTENSION pg_tle; GRANT CREATE ON SCHEMA public TO plain');
$node->safe_psql('other', q{
	CREATE FUNCTION public.p_check(w pg_catalog.text) RETURNS boolean LANGUAGE sql
		AS $$ SELECT pg_catalog.set_config('plain.ran', current_user, false) IS NOT NULL $$;
	CREATE DOMAIN public.text AS pg_catalog.text CHECK (public.p_check(VALUE));
	ALTER DATABASE other SET search_path = public, pg_catalog}, extra_params => [ '-U', 'plain' ]);
($ret, $out, $err) = owner_psql('other', undef, '-f', $installer, '-c', q{SELECT coalesce(current_setting('plain.ran', true), '')});
is("$ret $out", '0 ', "a member of pgtle_admin registers the edition in a database of another role, running none of that role's code")
  or diag $err;
($ret, $out, $err) = $node->psql('other', 'SET search_path = public; CREATE SCHEMA ids; CREATE EXTENSION uniqueid_sql SCHEMA ids; SELECT ids.id_node(ids.next_snowflake())',
	extra_params => [ '-U', 'plain', '-v', 'ON_ERROR_STOP=1' ]);
is("$ret $out", '0 0', "whose owner, outside pgtle_admin, creates the extension and generates") or diag $err;

$node->stop;
done_testing();
