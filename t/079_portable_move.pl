# Moving a database from the SQL edition (portable/uniqueid.sql) to the C
# extension by the steps of doc/portable.md, while three clients insert:
# the extension in a schema of its own beside the edition's, the same node
# number, uniqueid_raise_horizon to the edition's high-water mark, the key
# and foreign-key columns changed to the extension's types with USING, the
# edition removed; once pasted, once installed as the pg_tle extension
# uniqueid_sql (DROP EXTENSION at the end).  Every ID is kept, every
# foreign key holds, the new IDs sort above the old ones, and no client saw
# an error.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $edition = "$FindBin::RealBin/../portable/uniqueid.sql";
my $remove = "$FindBin::RealBin/../portable/uniqueid-remove.sql";
my $tle_installer = "$FindBin::RealBin/../portable/uniqueid-pgtle.sql";

# the server of the move under way
my $node;
sub as_owner
{
	my ($sql) = @_;
	return $node->safe_psql('app', $sql, extra_params => [ '-U', 'owner' ]);
}

# the move from the edition pasted, then from the edition installed as the
# pg_tle extension uniqueid_sql (where pg_tle is installed)
subtest 'the move from the pasted edition' => sub { move('pasted') };
SKIP:
{
	my $why = uid_pgtle_missing(PostgreSQL::Test::Cluster->new('probe'));
	skip "the move from the pg_tle extension: $why", 1 if $why;
	subtest 'the move from the edition as the pg_tle extension uniqueid_sql' => sub { move('pg_tle') };
}
done_testing();

# move(HOW): the application on the edition, pasted or pg_tle, moved to the C
# extension while its clients insert
sub move
{
	my ($how) = @_;

	$node = uid_node("move_$how", conf => [ 'uniqueid.node = 3', $how eq 'pg_tle' ? "shared_preload_libraries = 'uniqueid,pg_tle'" : () ]);
	$node->start;
	$node->safe_psql('postgres', q{CREATE ROLE owner LOGIN; CREATE DATABASE app OWNER owner});


	# the application, on the edition in schema ids, node 3, with rows already;
	# installed as doc/portable.md says: the edition's schema first for the
	# install only, the database's search_path public, ids
	as_owner(q{CREATE SCHEMA ids; ALTER DATABASE app SET search_path = public, ids});
	my ($ret, $out, $err);
	if ($how eq 'pg_tle')
	{
		# (doc/portable.md: pg_tle created by a superuser, the installer run and
		# the extension created by the owner, a member of pgtle_admin)
		$node->safe_psql('app', 'CREATE EXTENSION pg_tle; GRANT pgtle_admin TO owner');
		($ret, $out, $err) = $node->psql('app', undef, extra_params => [ '-U', 'owner', '-f', $tle_installer ]);
		is($ret, 0, 'the pg_tle installer runs') or diag $err;
		($ret, $out, $err) = $node->psql('app', 'CREATE EXTENSION uniqueid_sql SCHEMA ids', extra_params => [ '-U', 'owner' ]);
	}
	else
	{
		local $ENV{PGOPTIONS} = '-c search_path=ids';
		($ret, $out, $err) = $node->psql('app', undef, extra_params => [ '-U', 'owner', '-1', '-f', $edition ]);
	}
	is($ret, 0, "the edition is installed ($how)") or diag $err;
	as_owner(q{
		SELECT uniqueid_set_node(3);
		CREATE TABLE media (id shardid PRIMARY KEY DEFAULT next_id(), url text NOT NULL);
		CREATE TABLE events (id snowflake PRIMARY KEY DEFAULT next_snowflake(),
		                     media_id shardid NOT NULL REFERENCES media);
		CREATE TABLE docs (id uuid PRIMARY KEY DEFAULT next_uuid7(), media_id shardid REFERENCES media);
		INSERT INTO public.media (url) SELECT 'u' || g FROM generate_series(1, 5000) g;
		INSERT INTO public.events (media_id) SELECT id FROM public.media;
		INSERT INTO public.docs (media_id) SELECT id FROM public.media;
		CREATE TABLE public.seen (client int, n int, media bigint, event bigint, doc uuid);
		CREATE TABLE public.stop ();
	});

	# three clients: one media row, one event and one doc per transaction, until
	# told to stop; each notes the IDs it was given
	my @clients;
	for my $c (1 .. 3)
	{
		my %r = (out => '', err => '');
		$r{h} = IPC::Run::start(
			[ 'psql', '-XAtq', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('app'), '-U', 'owner', '-c', qq{
				DO \$\$
				DECLARE
					m bigint; e bigint; d uuid;
				BEGIN
					FOR n IN 1 .. 100000 LOOP
						INSERT INTO public.media (url) VALUES ('client $c') RETURNING id::bigint INTO m;
						INSERT INTO public.events (media_id) SELECT id FROM public.media WHERE id::bigint = m
							RETURNING id::bigint INTO e;
						INSERT INTO public.docs (media_id) SELECT id FROM public.media WHERE id::bigint = m
							RETURNING id INTO d;
						INSERT INTO public.seen VALUES ($c, n, m, e, d);
						COMMIT;
						EXIT WHEN EXISTS (SELECT FROM public.stop);
					END LOOP;
				END \$\$} ],
			'<', \undef, '>', \$r{out}, '2>', \$r{err},
			IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
		push @clients, \%r;
	}
	ok($node->poll_query_until('app', q{SELECT count(DISTINCT client) = 3 AND count(*) >= 150 FROM seen}),
		'the clients insert through the edition');
	is(as_owner(q{SELECT string_agg(DISTINCT relnamespace::regnamespace::text, ',') FROM pg_class
		WHERE relname IN ('media', 'events', 'docs')}), 'public', "the application's tables are in public, the edition in ids");

	# the extension needs a superuser (or whoever a service lets create it)
	(undef, undef, $err) = $node->psql('app', "\\set VERBOSITY verbose\nCREATE EXTENSION uniqueid", extra_params => [ '-U', 'owner' ]);
	like($err, qr/42501: permission denied to create extension "uniqueid"/,
		'the database owner may not create the extension: step 1 is a superuser\'s');

	# the move, as doc/portable.md gives it: the extension beside the edition
	$node->safe_psql('app', q{CREATE SCHEMA uniqueid; CREATE EXTENSION uniqueid SCHEMA uniqueid;
		GRANT USAGE ON SCHEMA uniqueid TO owner});
	is($node->safe_psql('app', q{SELECT current_setting('uniqueid.node')::int = node FROM ids.uniqueid_node}), 't',
		"the server's uniqueid.node is the edition's node");
	# then, in one transaction: the tables locked (in the order the clients'
	# transactions take them), the horizon raised to the
	# edition's high-water mark, the columns changed, the defaults the
	# extension's
	$node->safe_psql('app', q{
		BEGIN;
		LOCK TABLE public.media, public.events, public.docs IN ACCESS EXCLUSIVE MODE;
		CREATE TABLE public.kept AS
			SELECT 'media' AS tbl, id::bigint AS id, NULL::uuid AS u FROM public.media
			UNION ALL SELECT 'events', id::bigint, NULL FROM public.events
			UNION ALL SELECT 'docs', NULL, id FROM public.docs;
		SELECT uniqueid.uniqueid_raise_horizon(ids.uniqueid_high_water());
		ALTER TABLE public.events DROP CONSTRAINT events_media_id_fkey;
		ALTER TABLE public.docs DROP CONSTRAINT docs_media_id_fkey;
		ALTER TABLE public.media
			ALTER COLUMN id DROP DEFAULT,
			ALTER COLUMN id TYPE uniqueid.shardid USING id::bigint::uniqueid.shardid,
			ALTER COLUMN id SET DEFAULT uniqueid.next_id();
		ALTER TABLE public.events
			ALTER COLUMN id DROP DEFAULT,
			ALTER COLUMN id TYPE uniqueid.snowflake USING id::bigint::uniqueid.snowflake,
			ALTER COLUMN id SET DEFAULT uniqueid.next_snowflake(),
			ALTER COLUMN media_id TYPE uniqueid.shardid USING media_id::bigint::uniqueid.shardid,
			ADD FOREIGN KEY (media_id) REFERENCES public.media;
		ALTER TABLE public.docs
			ALTER COLUMN id SET DEFAULT uniqueid.next_uuid7(),
			ALTER COLUMN media_id TYPE uniqueid.shardid USING media_id::bigint::uniqueid.shardid,
			ADD FOREIGN KEY (media_id) REFERENCES public.media;
		COMMIT;
	});
	my $moved = $node->safe_psql('app', q{SELECT count(*) FROM public.seen});
	ok($node->poll_query_until('app', qq{SELECT count(*) >= $moved + 150 FROM public.seen}),
		'the clients insert through the extension');

	# the edition removed (pasted: its schema first in search_path, as it was
	# installed; the pg_tle extension: DROP EXTENSION)
	if ($how eq 'pg_tle')
	{
		($ret, $out, $err) = $node->psql('app', 'DROP EXTENSION uniqueid_sql', extra_params => [ '-U', 'owner' ]);
	}
	else
	{
		local $ENV{PGOPTIONS} = '-c search_path=ids';
		($ret, $out, $err) = $node->psql('app', undef, extra_params => [ '-U', 'owner', '-1', '-f', $remove ]);
	}
	is($ret, 0, 'the edition is removed') or diag $err;
	# the extension's schema in the search_path in its place, for its operators
	# and functions
	as_owner(q{ALTER DATABASE app SET search_path = public, uniqueid});
	is(as_owner(q{SELECT count(*) > 0 FROM media WHERE id < next_id()}), 't',
		"a new session finds the application's tables and the extension's functions by their names");
	my $after_removal = $node->safe_psql('app', q{SELECT count(*) FROM public.seen});
	ok($node->poll_query_until('app', qq{SELECT count(*) >= $after_removal + 150 FROM public.seen}),
		'the clients insert after the edition is gone');
	$node->safe_psql('app', 'INSERT INTO public.stop DEFAULT VALUES');
	for my $r (@clients)
	{
		my $ok = eval { $r->{h}->finish };
		ok($ok, 'a client ended without an error') or diag $r->{err} . ($@ // '');
	}

	is($node->safe_psql('app', q{SELECT atttypid = 'uniqueid.shardid'::regtype FROM pg_attribute
		WHERE attrelid = 'public.media'::regclass AND attname = 'id'}), 't',
		"the key is the extension's shardid");
	is($node->safe_psql('app', q{SELECT count(*) FROM pg_namespace n JOIN pg_proc p ON p.pronamespace = n.oid
		WHERE nspname = 'ids'}), 0, "no function of the edition is left");
	is($node->safe_psql('app', q{
		SELECT count(*) FROM public.kept k WHERE NOT CASE tbl
			WHEN 'media' THEN EXISTS (SELECT FROM public.media m WHERE m.id::bigint = k.id)
			WHEN 'events' THEN EXISTS (SELECT FROM public.events e WHERE e.id::bigint = k.id)
			ELSE EXISTS (SELECT FROM public.docs d WHERE d.id = k.u) END}), 0, 'every ID is kept');
	is($node->safe_psql('app', q{
		SELECT count(*) FROM public.media WHERE id::bigint NOT IN (SELECT id FROM public.kept WHERE tbl = 'media')
		  AND id::bigint <= (SELECT max(id) FROM public.kept WHERE tbl = 'media')}), 0,
		"the extension's shardids sort above the edition's");
	is($node->safe_psql('app', q{
		SELECT count(*) FROM public.events WHERE id::bigint NOT IN (SELECT id FROM public.kept WHERE tbl = 'events')
		  AND id::bigint <= (SELECT max(id) FROM public.kept WHERE tbl = 'events')}), 0,
		"the extension's snowflakes sort above the edition's");
	is($node->safe_psql('app', q{
		SELECT count(*) FROM public.docs WHERE id NOT IN (SELECT u FROM public.kept WHERE tbl = 'docs')
		  AND id <= (SELECT u FROM public.kept WHERE tbl = 'docs' ORDER BY u DESC LIMIT 1)}), 0,
		"the extension's UUIDs sort above the edition's");
	is($node->safe_psql('app', q{SELECT count(*) FROM (SELECT media <= lag(media) OVER w OR event <= lag(event) OVER w
		OR doc <= lag(doc) OVER w AS back FROM public.seen WINDOW w AS (PARTITION BY client ORDER BY n)) x WHERE back}),
		0, "each client's IDs rose with every insert, across the move");
	is($node->safe_psql('app', q{SELECT count(*) FROM public.events e LEFT JOIN public.media m ON m.id = e.media_id
		WHERE m.id IS NULL}), 0, 'every foreign key holds');
	is($node->safe_psql('app', q{SELECT count(DISTINCT id_shard(id)) || ' ' || min(id_shard(id)) FROM public.media}), '1 3',
		'shard 3 before and after');
	$node->stop;
}
