# The SQL edition (portable/uniqueid.sql, doc/portable.md) where a managed
# service is strict: installed and removed by a role that owns only its
# database, on a server with no library preloaded; its guarantees there (8
# concurrent sessions, a clock set back, a statement canceled while it holds
# the advisory lock, a crash); and its IDs equal to the C extension's, both
# ways, on a second server that has the library: pasted, and installed as
# the pg_tle extension uniqueid_sql (where pg_tle is installed).
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $edition = "$FindBin::RealBin/../portable/uniqueid.sql";
my $remove = "$FindBin::RealBin/../portable/uniqueid-remove.sql";
# the database the owner's SQL runs in
our $db = 'app';

# a role that owns only its database, and the edition's schema in it
sub owner_setup
{
	my ($node) = @_;
	$node->safe_psql('postgres', q{
		CREATE ROLE owner LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE;
		CREATE DATABASE app OWNER owner;
	});
	as_owner($node, q{CREATE SCHEMA ids; ALTER DATABASE app SET search_path = ids, public;});
	return;
}

# SQL run as the owner in app; its output
sub as_owner
{
	my ($node, $sql) = @_;
	return $node->safe_psql($db, $sql, extra_params => [ '-U', 'owner' ]);
}

# psql -f FILE as the owner in app, in one transaction: (exit code, stderr)
sub run_file
{
	my ($node, $file) = @_;
	my ($ret, $out, $err) = $node->psql($db, undef,
		extra_params => [ '-U', 'owner', '-1', '-f', $file ]);
	return ($ret, $err);
}

# the edition's objects in schema ids: relations, functions, types, operators
sub objects
{
	my ($node) = @_;
	return $node->safe_psql('app', q{
		SELECT (SELECT count(*) FROM pg_class WHERE relnamespace = 'ids'::regnamespace)
		     + (SELECT count(*) FROM pg_proc WHERE pronamespace = 'ids'::regnamespace)
		     + (SELECT count(*) FROM pg_type WHERE typnamespace = 'ids'::regnamespace)
		     + (SELECT count(*) FROM pg_operator WHERE oprnamespace = 'ids'::regnamespace)});
}

# ---- a strict server: nothing preloaded, the edition installed by the owner

my $strict = PostgreSQL::Test::Cluster->new('strict');
$strict->init(extra => [ '--encoding=UTF8', '--locale=C.UTF-8' ]);
$strict->append_conf('postgresql.conf',
	"shared_preload_libraries = ''\nsession_preload_libraries = ''\nmax_connections = 30\n");
uid_on_clock($strict, sub { $strict->start });
owner_setup($strict);
is($strict->safe_psql('postgres', q{SELECT current_setting('shared_preload_libraries') || '|' || current_setting('session_preload_libraries')}),
	'|', 'nothing is preloaded');
is(as_owner($strict, q{SELECT rolsuper::text || rolcreaterole || rolcreatedb FROM pg_roles WHERE rolname = current_user}),
	'falsefalsefalse', 'the owner is no superuser, and owns only its database');

my ($ret, $err) = run_file($strict, $edition);
is($ret, 0, 'the owner installs the edition with psql -f') or diag $err;
is($err, '', 'without a warning');
is(as_owner($strict, q{SELECT count(*) FROM pg_proc WHERE pronamespace = 'ids'::regnamespace AND prolang NOT IN
	(SELECT oid FROM pg_language WHERE lanname IN ('sql', 'plpgsql'))}), 0, 'in sql and plpgsql only');
($ret, $err) = run_file($strict, $edition);
like($err, qr/already installed in schema ids/, 'installing it twice is refused');

# a table whose key defaults to next_id(): removal refuses, changing nothing
as_owner($strict, q{CREATE TABLE media (id shardid PRIMARY KEY DEFAULT next_id(), url text);
	INSERT INTO media (url) VALUES ('a')});
my $before = objects($strict);
($ret, $err) = run_file($strict, $remove);
like($err, qr/ERROR:  uniqueid's SQL edition in schema ids is still in use\nDETAIL:  In use by: .*column id of table media/,
	'removal refuses while a column uses the edition, and names it');
is(objects($strict), $before, 'and removes nothing');
as_owner($strict, 'DROP TABLE media');
($ret, $err) = run_file($strict, $remove);
is($ret, 0, 'the owner removes the edition once nothing uses it') or diag $err;
is(objects($strict), 0, 'leaving nothing in its schema');
($ret, $err) = run_file($strict, $edition);
is($ret, 0, 'and installs it again') or diag $err;

# the edition names its own objects: it works with its schema outside search_path
is(as_owner($strict, q{SET search_path = public;
	SELECT ids.make_shardid('2011-09-09 22:28:04.721+00', 1341, 905)::bigint || ' ' || (ids.next_id(0) > 0)
	  || (ids.next_id() > 0) || (ids.next_snowflake() > 0) || (ids.id_time(ids.next_uuid7()) > now() - interval '1 day')
	  || (ids.make_snowflake(now(), 1, 1) > 0) || (ids.shardid_floor(now()) > 0) || (ids.next_sonyflake() > 0)
	  || (ids.uniqueid_high_water() > now() - interval '1 day')}),
	'11637205501278089 truetruetruetruetruetruetruetrue', 'the edition works with its schema outside search_path');
(undef, undef, $err) = $strict->psql('app', q{SET search_path = public; SELECT ids.make_shardid(now(), 8192, 0)},
	extra_params => [ '-U', 'owner' ]);
like($err, qr/ERROR:  shard 8192 is out of range for type shardid/, 'and raises its errors so');

# ---- 8 sessions, 100,000 IDs each, on one shard's state (20,000 on the
# versions after 15: uid_volume)
my $each = uid_volume(100000);
as_owner($strict, q{CREATE TABLE got (s int, n int, id shardid)});
my @runs = do
{
	local $ENV{PGUSER} = 'owner';
	uid_concurrently($strict, 'app',
		map { "INSERT INTO got SELECT $_, n, next_id(0) FROM generate_series(1, $each) n" } 1 .. 8);
};
is(scalar(grep { $_->{ok} } @runs), 8, '8 sessions generated') or diag join "\n", map { $_->{err} } @runs;
is(as_owner($strict, q{SELECT count(*) || ' ' || count(DISTINCT id) FROM got}), 8 * $each . ' ' . 8 * $each,
	8 * $each . ' IDs, no duplicate');
is(as_owner($strict, q{SELECT count(*) FROM (SELECT id <= lag(id) OVER (PARTITION BY s ORDER BY n) AS back FROM got) x WHERE back}),
	0, "each session's IDs increase");
as_owner($strict, 'DROP TABLE got');

# ---- the clock set back 30 s (more than a busy machine takes for the
# batch that follows): the IDs stay at the high-water mark and carry
# their sequence into the time bits; no duplicate, no step back
as_owner($strict, q{CREATE TABLE clk (b int, n int, id shardid, s snowflake, y sonyflake, u uuid, t timestamptz)});
as_owner($strict, q{INSERT INTO clk SELECT 1, n, next_id(0), next_snowflake(), next_sonyflake(), next_uuid7(), clock_timestamp()
	FROM generate_series(1, 2000) n});
uid_clock_set($strict, -30);
ok($strict->poll_query_until('app', q{SELECT clock_timestamp() < (SELECT max(t) FROM clk)}),
	"the server's clock went back");
as_owner($strict, q{INSERT INTO clk SELECT 2, n, next_id(0), next_snowflake(), next_sonyflake(), next_uuid7(), clock_timestamp()
	FROM generate_series(1, 5000) n});
is(as_owner($strict, q{SELECT count(*) FROM (SELECT id <= lag(id) OVER w OR s <= lag(s) OVER w OR y <= lag(y) OVER w OR u <= lag(u) OVER w AS back
	FROM clk WINDOW w AS (ORDER BY b, n)) x WHERE back}), 0, 'no step back, no duplicate, across the clock change');
is(as_owner($strict, q{SELECT count(*) FROM clk WHERE b = 2 AND id_time(id) > t}), 5000,
	'after it, the IDs are made ahead of the clock, at the high-water mark');
# consecutive IDs of one shard's state: seq + 1, or seq 1023 then seq 0 of
# the next millisecond; 5,000 of them pass at least 4 millisecond boundaries
my ($bad, $carried) = split / /, as_owner($strict, q{SELECT count(*) FILTER (WHERE NOT (id_time(id) = pt AND id_seq(id) = ps + 1
	                             OR id_time(id) = pt + interval '1 ms' AND ps = 1023 AND id_seq(id) = 0))
	|| ' ' || count(*) FILTER (WHERE ps = 1023)
	FROM (SELECT id, lag(id_time(id)) OVER w AS pt, lag(id_seq(id)) OVER w AS ps FROM clk WHERE b = 2
	      WINDOW w AS (ORDER BY n)) x WHERE pt IS NOT NULL});
is($bad, 0, 'past 1,024 IDs in a millisecond the sequence carries into the next millisecond, never wraps');
cmp_ok($carried, '>=', 4, 'it carried at every millisecond boundary the 5,000 IDs passed');

# ---- a crash: the state is durable with the transactions that used it
my $last = as_owner($strict, q{SELECT max(id) FROM clk});
uid_kill_all($strict);
uid_on_clock($strict, sub { $strict->start });
is(as_owner($strict, qq{SELECT min(next_id(0)) > $last FROM generate_series(1, 100)}), 't',
	'after a crash, on a clock 30 s behind, the next IDs are above the last committed one');
uid_clock_set($strict, 0);

# ---- a statement canceled while it holds a state's advisory lock: here it
# waits for the state's sequence, which an open ALTER SEQUENCE holds
my $blocker = $strict->background_psql('app', extra_params => [ '-U', 'owner' ]);
$blocker->query_safe(q{BEGIN; ALTER SEQUENCE uniqueid_shard_0_state CACHE 1});
my $victim = $strict->background_psql('app', extra_params => [ '-U', 'owner' ], on_error_stop => 0);
$victim->query_until(qr/started/, q{\echo started
SELECT next_id(0);
});
my $holds = q{SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid)
	WHERE l.locktype = 'advisory' AND l.granted AND a.query LIKE 'SELECT next_id(0);%'};
ok($strict->poll_query_until('app', "SELECT ($holds) = 1 AND EXISTS (SELECT FROM pg_stat_activity
	WHERE query LIKE 'SELECT next_id(0);%' AND wait_event_type = 'Lock')"),
	'a generator holds the advisory lock and waits for the sequence');
as_owner($strict, q{SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE query LIKE 'SELECT next_id(0);%'});
my $out = $victim->query(q{SELECT 'canceled: ' || (SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'
	AND pid = pg_backend_pid())});
like($victim->{stderr}, qr/canceling statement due to user request/, 'the statement is canceled');
like($out, qr/canceled: 0/, 'its session holds the advisory lock no more');
$victim->{stderr} = '';
$blocker->query_safe('ROLLBACK');
$blocker->quit;
like(as_owner($strict, q{SELECT next_id(0)}), qr/^\d+$/, 'another session generates');
like($victim->query_safe(q{SELECT next_id(0)}), qr/^\d+$/, 'and so does the canceled one');
$victim->quit;
$strict->stop;

# ---- the same IDs as the C extension: both in one database of a server with
# the library, the extension in schema c, the edition in schema ids; the
# edition pasted (database app), then installed as the pg_tle extension
# uniqueid_sql (database app_tle: portable/uniqueid-pgtle.sql, t/098_pgtle.pl)
my $both = uid_node('both', conf => [ 'uniqueid.node = 5' ]);
my $no_tle = uid_pgtle_missing($both);
$both->append_conf('postgresql.conf', "shared_preload_libraries = 'uniqueid,pg_tle'\n") unless $no_tle;
$both->start;
owner_setup($both);
$both->safe_psql('app', q{CREATE SCHEMA c; CREATE EXTENSION uniqueid SCHEMA c; GRANT USAGE ON SCHEMA c TO owner;
	GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA c TO owner});
($ret, $err) = run_file($both, $edition);
is($ret, 0, 'the edition installs beside the C extension') or diag $err;
as_owner($both, q{SELECT uniqueid_set_node(5); SELECT uniqueid_own_shards(7)});
subtest 'the pasted edition and the C extension: the same IDs, values and errors' => sub { comparisons(uid_volume(100000)) };

SKIP:
{
	skip "the edition as a pg_tle extension: $no_tle", 1 if $no_tle;
	local $db = 'app_tle';
	$both->safe_psql('postgres', q{CREATE DATABASE app_tle OWNER owner});
	as_owner($both, q{CREATE SCHEMA ids; ALTER DATABASE app_tle SET search_path = ids, public});
	$both->safe_psql($db, q{CREATE EXTENSION pg_tle; GRANT pgtle_admin TO owner; CREATE SCHEMA c; CREATE EXTENSION uniqueid SCHEMA c;
		GRANT USAGE ON SCHEMA c TO owner; GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA c TO owner});
	($ret, $err) = run_file($both, "$FindBin::RealBin/../portable/uniqueid-pgtle.sql");
	is($ret, 0, 'the pg_tle installer runs beside the C extension') or diag $err;
	as_owner($both, q{CREATE EXTENSION uniqueid_sql SCHEMA ids; SELECT uniqueid_set_node(5); SELECT uniqueid_own_shards(7)});
	is(as_owner($both, q{SELECT extnamespace::regnamespace FROM pg_extension WHERE extname = 'uniqueid_sql'}), 'ids',
		'and the extension uniqueid_sql is made in schema ids');
	# (fewer IDs: t/098_pgtle.pl checks that the extension's functions are
	# the pasted edition's, bodies and all; here, that they work so)
	subtest 'the edition as the pg_tle extension uniqueid_sql and the C extension: the same IDs, values and errors' => sub { comparisons(uid_volume(20000)) };
}
$both->stop;
done_testing();

# comparisons(N): the edition in $db's schema ids compared with the C
# extension in its schema c, over N IDs of each generator made by each
sub comparisons
{
	my ($n) = @_;
	# try(SQL): its one value as text, or its error: 'ERROR sqlstate: message'
	as_owner($both, uid_try_function());

	# the conformance vectors (test/vectors): every decoder and constructor
	my %vectors;
	for my $family ('shardid', 'snowflake', 'sonyflake')
	{
		open my $fh, '<', "$FindBin::RealBin/../test/vectors/${family}_vectors.tsv" or die $!;
		<$fh>;
		while (<$fh>)
		{
			my @f = split /\t/;
			my $id = $family eq 'shardid' ? $f[0]
			  : $family eq 'sonyflake' ? ($f[4] =~ /^\d+$/ ? $f[4] : next)
			  : ($f[0] eq 'twitter' ? $f[1] : next);
			# the edition's shardid: below 2^63 only
			push @{ $vectors{$family} }, $id
			  if length($id) < 19 || (length($id) == 19 && $id le '9223372036854775807');
		}
	}
	as_owner($both, 'CREATE TABLE v (family text, id bigint)');
	as_owner($both, "INSERT INTO v VALUES " . join(', ', map { my $f = $_; map { "('$f', $_)" } @{ $vectors{$f} } } sort keys %vectors));
	is(as_owner($both, q{SELECT count(*) FROM v}), scalar(map { @$_ } values %vectors), 'the vectors are loaded');
	cmp_ok(scalar(map { @$_ } values %vectors), '>=', 8, 'at least 8 of them');
	is(as_owner($both, q{SELECT count(*) FROM v WHERE family = 'shardid' AND NOT (
		  to_jsonb(id_parts(id::shardid)) = to_jsonb(c.id_parts(id::c.shardid))
		  AND id_time(id::shardid) = c.id_time(id::c.shardid)
		  AND make_shardid(id_time(id::shardid), id_shard(id::shardid), id_seq(id::shardid))::bigint = id)}),
		0, 'shardid vectors: the same time, shard and seq, made back into the same ID');
	is(as_owner($both, q{SELECT count(*) FROM v WHERE family = 'snowflake' AND NOT (
		  id_time(id::snowflake) = c.id_time(id::c.snowflake)
		  AND id_node(id::snowflake) = c.id_node(id::c.snowflake) AND id_seq(id::snowflake) = c.id_seq(id::c.snowflake)
		  AND make_snowflake(id_time(id::snowflake), id_node(id::snowflake), id_seq(id::snowflake))::bigint = id)}),
		0, 'snowflake vectors: the same');
	is(as_owner($both, q{SELECT count(*) FROM v WHERE family = 'sonyflake' AND NOT (
		  to_jsonb(id_parts(id::sonyflake)) = to_jsonb(c.id_parts(id::c.sonyflake))
		  AND id_time(id::sonyflake) = c.id_time(id::c.sonyflake)
		  AND make_sonyflake(id_time(id::sonyflake), id_seq(id::sonyflake), id_node(id::sonyflake))::bigint = id)}),
		0, 'sonyflake vectors: the same');

	# $n IDs of each generator made by the edition, decoded by the C
	# extension, and $n made by the C extension, decoded by the edition
	as_owner($both, qq{CREATE TABLE g AS SELECT 'sql' AS made_by, n, next_id(7) AS sh, next_id() AS own, next_snowflake() AS sf, next_sonyflake() AS sy, next_uuid7() AS u
		FROM generate_series(1, $n) n});
	# (the C extension's horizon raised to the edition's high-water mark, as in
	# the move to it: its IDs then sort after the edition's)
	$both->safe_psql($db, q{SELECT c.uniqueid_raise_horizon(ids.uniqueid_high_water())});
	as_owner($both, qq{INSERT INTO g SELECT 'c', n, c.next_id(7)::bigint, c.next_id()::bigint, c.next_snowflake()::bigint, c.next_sonyflake()::bigint, c.next_uuid7()
		FROM generate_series(1, $n) n});
	is(as_owner($both, q{SELECT count(*) FILTER (WHERE made_by = 'sql') || ' ' || count(*) FILTER (WHERE made_by = 'c') FROM g WHERE
		  id_time(sh) = c.id_time(sh::bigint::c.shardid) AND id_shard(sh) = c.id_shard(sh::bigint::c.shardid)
		  AND id_seq(sh) = c.id_seq(sh::bigint::c.shardid) AND id_shard(sh) = 7
		  AND to_jsonb(id_parts(own)) = to_jsonb(c.id_parts(own::bigint::c.shardid)) AND id_shard(own) = 5
		  AND to_jsonb(id_parts(sf)) = to_jsonb(c.id_parts(sf::bigint::c.snowflake)) AND id_node(sf) = 5
		  AND to_jsonb(id_parts(sy)) = to_jsonb(c.id_parts(sy::bigint::c.sonyflake)) AND id_node(sy) = 5
		  AND id_time(u) = c.id_time(u) AND to_jsonb(id_parts(u)) = to_jsonb(c.id_parts(u)) AND (id_parts(u)).version = 7
		  AND abs(extract(epoch FROM id_time(sh) - id_time(u))) < 60}),
		"$n $n", 'every ID decodes the same in both, whichever made it');
	is(as_owner($both, q{SELECT count(*) FROM g x JOIN g y ON x.made_by = 'sql' AND y.made_by = 'c' AND x.n = y.n
		WHERE NOT (x.sh < y.sh::bigint AND x.sf < y.sf::bigint AND x.sy < y.sy::bigint AND x.u < y.u)}), 0,
		"the C extension's IDs, made after its horizon was raised to the edition's high-water mark, sort after them");
	is(as_owner($both, q{SELECT count(*) FROM g WHERE NOT (
		  make_shardid(id_time(sh), 7, id_seq(sh))::bigint = c.make_shardid(id_time(sh), 7, id_seq(sh))::bigint
		  AND make_snowflake(id_time(sf), 5, id_seq(sf))::bigint = c.make_snowflake(id_time(sf), 5, id_seq(sf))::bigint
		  AND make_sonyflake(id_time(sy), id_seq(sy), 5)::bigint = c.make_sonyflake(id_time(sy), id_seq(sy), 5)::bigint)}),
		0, 'make_shardid, make_snowflake and make_sonyflake make the same IDs');

	# times: the floors and the comparisons, edges included; errors alike
	as_owner($both, q{CREATE TABLE ts AS
		SELECT t FROM unnest(ARRAY['-infinity', 'infinity', '2010-11-04 01:42:54.657+00', '2010-11-04 01:42:54.6569+00',
		  '2011-08-24 21:07:01.721+00', '2011-08-24 21:07:01.7209+00', '2011-08-24 21:07:01.7211+00', '1970-01-01 00:00:00+00',
		  '1969-12-31 23:59:59.9999+00', '2026-01-01 00:00:00.0004+00', '2080-07-10 17:30:30.208+00', '2080-07-10 17:30:30.2081+00',
		  '2046-06-27 17:00:49.496+00', '2046-06-27 17:00:49.4961+00', '10889-08-02 05:31:50.655+00', '10889-08-02 05:31:50.6551+00',
		  '2000-01-01 00:00:00+00', '2014-09-01 00:00:00+00', '2014-08-31 23:59:59.999+00', '2014-09-01 00:00:00.0001+00',
		  '2188-11-16 03:28:58.87+00', '2188-11-16 03:28:58.871+00', '2188-11-16 03:28:58.88+00']::timestamptz[]) t
		UNION ALL SELECT timestamptz '2009-01-01' + random() * interval '40 years' FROM generate_series(1, 300)
		UNION ALL SELECT id_time(sh) + interval '0.4 ms' * (n % 3) FROM g WHERE n % 997 = 0});
	my $calls = q{LATERAL (VALUES ('snowflake_floor(%L)'), ('uuid7_floor(%L)'), ('make_snowflake(%L, 1, 2)'),
		                       ('shardid_floor(%L)'), ('make_shardid(%L, 1, 2)'),
		                       ('sonyflake_floor(%L)'), ('make_sonyflake(%L, 1, 2)')) AS f(call),
		LATERAL (SELECT try(format('SELECT (' || call || ')::text', t)) AS a,
		                try(format('SELECT (c.' || call || ')::text', t)) AS b) x};
	is(as_owner($both, qq{SELECT string_agg(t || ' ' || call || ': ' || a || ' <> ' || b, E'\n') FROM ts, $calls
		WHERE a IS DISTINCT FROM b AND NOT (call LIKE '%shardid%' AND t > '2046-06-27 17:00:49.496+00' AND t <= '2081-04-30 12:54:37.272+00')}),
		'', 'the floors and constructors give the same values and the same errors (shardid past 2046 aside)');
	is(as_owner($both, qq{SET datestyle = 'SQL, DMY'; SET timezone = 'Asia/Kathmandu';
		SELECT string_agg(t || ' ' || call || ': ' || a || ' <> ' || b, E'\n') FROM ts, $calls
		WHERE a IS DISTINCT FROM b AND NOT (call LIKE '%shardid%' AND t > '2046-06-27 17:00:49.496+00' AND t <= '2081-04-30 12:54:37.272+00')}),
		'', "and the same messages under DateStyle 'SQL, DMY' and the time zone of Kathmandu (+05:45): their times in ISO style, as the C extension prints them");
	cmp_ok(as_owner($both, qq{SELECT count(*) FROM ts, $calls WHERE a LIKE 'ERROR 22008%' AND a = b}), '>=', 20,
		'errors among them');
	is(as_owner($both, q{SELECT count(*) FROM ts WHERE t >= '2046-06-27 17:00:49.497+00' AND t <= '2081-04-30 12:54:37.272+00'
		AND try(format('SELECT make_shardid(%L, 1, 2)::text', t)) NOT LIKE 'ERROR 22008: timestamp out of range for type shardid%'}),
		0, "past 2046 the edition's shardid is 22008");
	is(as_owner($both, q{SELECT count(*) FROM ts, (SELECT min(sh) AS lo, max(sh) AS hi FROM g WHERE made_by = 'sql') b,
		LATERAL (SELECT count(*) FILTER (WHERE sh >= t) AS ge, count(*) FILTER (WHERE sh < t) AS lt,
		                count(*) FILTER (WHERE sh > t) AS gt, count(*) FILTER (WHERE sh <= t) AS le,
		                count(*) FILTER (WHERE sf >= t) AS sge, count(*) FILTER (WHERE sf < t) AS slt,
		                count(*) FILTER (WHERE sf > t) AS sgt, count(*) FILTER (WHERE sf <= t) AS sle,
		                count(*) FILTER (WHERE sy >= t) AS yge, count(*) FILTER (WHERE sy < t) AS ylt,
		                count(*) FILTER (WHERE sy > t) AS ygt, count(*) FILTER (WHERE sy <= t) AS yle FROM g WHERE n % 1009 = 0) e,
		LATERAL (SELECT count(*) FILTER (WHERE sh::bigint::c.shardid OPERATOR(c.>=) t) AS ge, count(*) FILTER (WHERE sh::bigint::c.shardid OPERATOR(c.<) t) AS lt,
		                count(*) FILTER (WHERE sh::bigint::c.shardid OPERATOR(c.>) t) AS gt, count(*) FILTER (WHERE sh::bigint::c.shardid OPERATOR(c.<=) t) AS le,
		                count(*) FILTER (WHERE sf::bigint::c.snowflake OPERATOR(c.>=) t) AS sge, count(*) FILTER (WHERE sf::bigint::c.snowflake OPERATOR(c.<) t) AS slt,
		                count(*) FILTER (WHERE sf::bigint::c.snowflake OPERATOR(c.>) t) AS sgt, count(*) FILTER (WHERE sf::bigint::c.snowflake OPERATOR(c.<=) t) AS sle,
		                count(*) FILTER (WHERE sy::bigint::c.sonyflake OPERATOR(c.>=) t) AS yge, count(*) FILTER (WHERE sy::bigint::c.sonyflake OPERATOR(c.<) t) AS ylt,
		                count(*) FILTER (WHERE sy::bigint::c.sonyflake OPERATOR(c.>) t) AS ygt, count(*) FILTER (WHERE sy::bigint::c.sonyflake OPERATOR(c.<=) t) AS yle
		         FROM g WHERE n % 1009 = 0) x
		WHERE row(e.*) IS DISTINCT FROM row(x.*)}), 0,
		'id < <= > >= timestamptz select the same IDs as the C types');
	like(as_owner($both, q{CREATE INDEX ON g (sh); ANALYZE g;
		EXPLAIN (COSTS OFF) SELECT * FROM g WHERE sh >= now() + interval '1 day'}),
		qr/Index Cond: \(+sh\)::bigint >/, 'id >= timestamptz inlines into an index condition');

	# bad input: the same SQLSTATE and message
	is(as_owner($both, q{SELECT string_agg(call || ': ' || a || ' <> ' || b, E'\n') FROM (VALUES
		  ('{}make_shardid(now(), 8192, 0)'), ('{}make_shardid(now(), -1, 0)'), ('{}make_shardid(now(), 0, 1024)'),
		  ('{}make_snowflake(now(), 1024, 0)'), ('{}make_snowflake(now(), 0, 4096)'), ('{}make_snowflake(now(), 0, -1)'),
		  ('{}make_sonyflake(now(), 256, 0)'), ('{}make_sonyflake(now(), 0, 65536)'), ('{}make_sonyflake(now(), -1, 0)'),
		  ('{}next_id(8192)'), ('{}next_id(-1)'), ('(-1)::bigint::{}snowflake'), ('(-1)::bigint::{}sonyflake'),
		  ('{}id_time(''919108f7-52d1-4320-9bac-f847db4148a8''::uuid)'), ('{}id_time(''017f22e2-79b0-7cc3-d8c4-dc0c0c07398f''::uuid)'),
		  ('{}id_time(''017f22e2-79b0-7cc3-18c4-dc0c0c07398f''::uuid)'), ('{}id_time(''017f22e2-79b0-7cc3-f8c4-dc0c0c07398f''::uuid)'),
		  ('{}id_time(''00000000-0000-0000-0000-000000000000''::uuid)'), ('{}id_time(''ffffffff-ffff-ffff-ffff-ffffffffffff''::uuid)'),
		  ('{}id_time(''c232ab00-9414-11ec-b3c8-9f6bdeced846''::uuid)'), ('{}id_time(''1ec9414c-232a-6b00-b3c8-9f6bdeced846''::uuid)'),
		  ('{}id_time(''017f22e2-79b0-7cc3-98c4-dc0c0c07398f''::uuid)'), ('{}id_time(''ffffffff-ffff-1fff-bfff-ffffffffffff''::uuid)'),
		  ('to_jsonb({}id_parts(''ffffffff-ffff-6fff-bfff-ffffffffffff''::uuid))'),
		  ('to_jsonb({}id_parts(''ffffffff-ffff-4fff-bfff-ffffffffffff''::uuid))'))
		  AS e(call), LATERAL (SELECT try('SELECT (' || replace(call, '{}', '') || ')::text') AS a,
		                              try('SELECT (' || replace(call, '{}', 'c.') || ')::text') AS b) x
		WHERE a IS DISTINCT FROM b}), '', 'bad input and edge UUIDs: the same values, SQLSTATEs and messages in both');
	like(as_owner($both, q{SELECT try('SELECT id_time(max(sh)) FROM g')}), qr/^ERROR 42725/,
		'max() over a domain is a bigint: id_time(max(id)) needs a cast');

}
