# The SQL edition (portable/uniqueid.sql) where review found it breaks its
# promises (doc/portable.md): a NULL of its domains, the order of its
# errors against the C extension's, its internal operators resolved
# through the caller's search_path, a removal that drops the user's
# objects, and a shard disowned and owned again.
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

my $node = uid_node('holes', conf => [ 'uniqueid.node = 5' ]);
uid_on_clock($node, sub { $node->start });
$node->safe_psql('postgres', q{
	CREATE ROLE owner LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE;
	CREATE ROLE mallory LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE;
	CREATE DATABASE app OWNER owner;
});
$node->safe_psql('app', q{CREATE SCHEMA c; CREATE EXTENSION uniqueid SCHEMA c; GRANT USAGE ON SCHEMA c TO owner;
	GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA c TO owner});

# SQL as ROLE in app: (exit code, stdout, stderr)
sub as_role
{
	my ($role, $sql) = @_;
	return $node->psql('app', $sql, extra_params => [ '-U', $role ]);
}

sub as_owner
{
	my ($sql) = @_;
	return $node->safe_psql('app', $sql, extra_params => [ '-U', 'owner' ]);
}

# psql -1 -f FILE as the owner: (exit code, stderr)
sub run_file
{
	my ($file) = @_;
	my ($ret, $out, $err) = $node->psql('app', undef, extra_params => [ '-U', 'owner', '-1', '-f', $file ]);
	return ($ret, $err);
}

as_owner(q{CREATE SCHEMA ids; ALTER DATABASE app SET search_path = ids, public;
	GRANT USAGE, CREATE ON SCHEMA public TO mallory});
my ($ret, $err) = run_file($edition);
is($ret, 0, 'the owner installs the edition') or diag $err;
as_owner(uid_try_function());

# ---- NULL is a value of every domain, as of the C types: a nullable column holds it
is(as_owner(q{SELECT try('SELECT (NULL::shardid IS NULL)::text') || ' ' || try('SELECT (NULL::snowflake IS NULL)::text')
	|| ' ' || try('SELECT (NULL::sonyflake IS NULL)::text')}),
	'true true true', 'NULL::shardid, NULL::snowflake and NULL::sonyflake are NULL');
is(as_owner(q{CREATE TABLE kids (id shardid PRIMARY KEY DEFAULT next_id(), parent shardid, s snowflake, y sonyflake);
	SELECT try('INSERT INTO kids (parent, s, y) VALUES (NULL, NULL, NULL) RETURNING (parent IS NULL)::text')}),
	'true', 'a nullable column of the domains takes a NULL');

# with no node row, next_sonyflake() is an error as next_snowflake() is, never a NULL
like(as_owner(q{BEGIN; DELETE FROM uniqueid_node;
	SELECT coalesce(try('SELECT next_sonyflake()::text'), 'NULL') || ' ' || coalesce(try('SELECT next_snowflake()::text'), 'NULL');
	ROLLBACK}), qr/^ERROR 22023: .* ERROR 22023: /, 'no node: next_sonyflake() and next_snowflake() raise 22023');

# ---- bad input in two fields: the same error as the C extension (which
# checks the time first)
is(as_owner(q{SELECT string_agg(call || ': ' || a || ' <> ' || b, E'\n') FROM (VALUES
	  ('{}make_shardid(''2000-01-01+00'', 8192, 0)'), ('{}make_shardid(''2000-01-01+00'', 0, 1024)'),
	  ('{}make_snowflake(''2000-01-01+00'', 1024, 0)'), ('{}make_sonyflake(''2000-01-01+00'', 256, 0)'),
	  ('{}make_sonyflake(''2000-01-01+00'', 0, 65536)'))
	  AS e(call), LATERAL (SELECT try('SELECT (' || replace(call, '{}', '') || ')::text') AS a,
	                              try('SELECT (' || replace(call, '{}', 'c.') || ')::text') AS b) x
	WHERE a IS DISTINCT FROM b}), '', 'a bad time and a bad field: the same SQLSTATE and message as the C extension');

# ---- another role that may create in a schema of the caller's search_path
# (public, writable by everyone in databases upgraded from before 15):
# its operators are not called by the edition's functions
($ret, undef, $err) = as_role('mallory', q{
	CREATE FUNCTION public.m_and(bigint, integer) RETURNS bigint LANGUAGE sql
		AS $$ SELECT pg_catalog.length(pg_catalog.set_config('mallory.ran', current_user, false))::bigint * 0 $$;
	CREATE OPERATOR public.& (LEFTARG = bigint, RIGHTARG = integer, FUNCTION = public.m_and);
	CREATE FUNCTION public.m_cat(text, integer) RETURNS text LANGUAGE sql
		AS $$ SELECT pg_catalog.set_config('mallory.ran', current_user, false) || 'x' $$;
	CREATE OPERATOR public.|| (LEFTARG = text, RIGHTARG = integer, FUNCTION = public.m_cat);
});
is($ret, 0, 'mallory creates operators in public') or diag $err;
my ($out);
($ret, $out, $err) = as_role('owner', q{SHOW search_path; SELECT id_seq(next_id()) >= 0 AND next_snowflake() > 0
	AND next_sonyflake() > 0 AND next_uuid7() IS NOT NULL; SELECT uniqueid_own_shards(12);
	SELECT coalesce(current_setting('mallory.ran', true), '') || '|' || (to_regclass('ids.uniqueid_shard_12_state') IS NOT NULL)});
is("$out$err", "ids, public\nt\n1\n|true",
	"with search_path = ids, public the generators and uniqueid_own_shards run none of mallory's operators");
as_role('mallory', q{DROP OPERATOR public.& (bigint, integer); DROP OPERATOR public.|| (text, integer)});

# nor are the edition's SQL bodies bound to them when they exist at install
# time (a SQL-standard body is bound once, at CREATE FUNCTION)
as_role('mallory', q{CREATE OPERATOR public.& (LEFTARG = bigint, RIGHTARG = integer, FUNCTION = public.m_and)});
as_owner(q{CREATE SCHEMA ids2});
($ret, $out, $err) = $node->psql('app', undef, extra_params => [ '-U', 'owner', '-1', '-v', 'ON_ERROR_STOP=1',
	'-c', 'SET LOCAL search_path = ids2, public', '-f', $edition, '-c', 'SHOW search_path' ]);
is($ret, 0, 'the edition installs in a second schema, ids2') or diag $err;
is($out, 'ids2, public', "and puts the caller's search_path back at its end");
is(as_owner(q{SELECT count(*) FROM pg_depend d JOIN pg_operator o ON d.refclassid = 'pg_operator'::regclass AND d.refobjid = o.oid
	WHERE o.oprnamespace = 'public'::regnamespace}), 0, "none of the edition's functions depends on mallory's operator");
($ret, my $seq, $err) = as_role('owner', q{SET search_path = ids2; SELECT id_seq(make_shardid(now(), 1, 5)) || '|' || coalesce(current_setting('mallory.ran', true), '')});
is($seq, '5|', "ids2's id_seq decodes the seq, without mallory's operator");
as_owner(q{DROP SCHEMA ids2 CASCADE});
as_role('mallory', q{DROP OPERATOR public.& (bigint, integer)});

# nor to types another role made in the edition's own schema beforehand:
# text, timestamptz, uuid and regclass are no keywords, and a schema before
# pg_catalog in search_path would have them resolve there at install time
# (in the functions' arguments, results and variables, and the shard table's
# column), running that role's checks as whoever calls the edition
as_owner(q{CREATE SCHEMA ids3; GRANT USAGE, CREATE ON SCHEMA ids3 TO mallory});
($ret, undef, $err) = as_role('mallory', q{
	CREATE FUNCTION ids3.m_check(w pg_catalog.text) RETURNS boolean LANGUAGE sql
		AS $$ SELECT pg_catalog.set_config('mallory.ran', current_user, false) IS NOT NULL $$;
	CREATE DOMAIN ids3.text AS pg_catalog.text CHECK (ids3.m_check('text'));
	CREATE DOMAIN ids3.timestamptz AS pg_catalog.timestamptz CHECK (ids3.m_check('timestamptz'));
	CREATE DOMAIN ids3.uuid AS pg_catalog.uuid CHECK (ids3.m_check('uuid'));
	CREATE DOMAIN ids3.regclass AS pg_catalog.regclass CHECK (ids3.m_check('regclass'));
	GRANT USAGE ON TYPE ids3.text, ids3.timestamptz, ids3.uuid, ids3.regclass TO PUBLIC});
is($ret, 0, "mallory makes types named text, timestamptz, uuid and regclass in the edition's schema") or diag $err;
($ret, $out, $err) = $node->psql('app', undef, extra_params => [ '-U', 'owner', '-1', '-v', 'ON_ERROR_STOP=1',
	'-c', 'SET LOCAL search_path = ids3', '-f', $edition,
	'-c', q{SELECT coalesce(current_setting('mallory.ran', true), '')} ]);
is("$ret $out", '0 ', 'the edition installs there, running none of their checks') or diag $err;
is(as_owner(q{SELECT count(*) FROM pg_depend d JOIN pg_type t ON d.refclassid = 'pg_type'::regclass AND d.refobjid = t.oid
	WHERE t.typnamespace = 'ids3'::regnamespace AND t.typname IN ('text', 'timestamptz', 'uuid', 'regclass')
	  AND d.classid IN ('pg_proc'::regclass, 'pg_class'::regclass)}), 0,
	"no function or table of the edition uses mallory's types");
($ret, $out, $err) = as_role('owner', q{SET search_path = ids3;
	SELECT (next_id(0) > 0)::text || (make_snowflake(now(), 1, 1) > 0) || (id_time(next_uuid7()) > now() - interval '1 day')
	  || (uniqueid_high_water() > now() - interval '1 day') || '|' || coalesce(current_setting('mallory.ran', true), '')});
is($out, 'truetruetruetrue|', 'and calling it runs none of them') or diag $err;
as_owner(q{DROP SCHEMA ids3 CASCADE});

# ---- a shard disowned and owned again: its IDs never step back (here
# after the clock went back)
# (30 s: the check that it came back must come within them, on a busy
# machine too)
my $t0 = as_owner(q{SELECT clock_timestamp()});
uid_clock_set($node, 30);
ok($node->poll_query_until('app', qq{SELECT clock_timestamp() > '$t0'::timestamptz + interval '29 s'}),
	"the server's clock went forward");
my ($ahead, $t1) = split /\|/, as_owner(q{SELECT max(next_id(0)) || '|' || clock_timestamp() FROM generate_series(1, 10)});
uid_clock_set($node, 0);
ok($node->poll_query_until('app', qq{SELECT clock_timestamp() < '$t1'}), "and back");
is(as_owner(qq{SELECT next_id(0) > $ahead}), 't', 'the shard stays at its high-water mark');
is(as_owner(qq{SELECT uniqueid_disown_shards(0) || ' ' || uniqueid_own_shards(0); SELECT next_id(0) > $ahead}),
	"1 1\nt", 'disowned and owned again, the shard does not step back below the IDs it made');

# ---- the generators' advisory lock: released when the call ends, not held
# to the end of the caller's transaction, and never left behind
my $key = as_owner(q{SELECT 'uniqueid_shard_0_state'::regclass::oid::integer});
my $open = $node->background_psql('app', extra_params => [ '-U', 'owner' ]);
$open->query_safe(q{BEGIN; SELECT next_id(0)});
is($open->query_safe(q{SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()}), '0',
	"within the caller's open transaction, the call holds no advisory lock after it returns");
like(as_owner(q{SELECT next_id(0)}), qr/^\d+$/, 'and another session generates meanwhile');
$open->query_safe('COMMIT');
# a session holding the state's key itself (a generator holds it for
# microseconds): another session's call ends with 55P03 naming the state and
# the holder, after a bounded wait, not never
$open->query_safe(qq{SELECT pg_advisory_lock(1969841264, $key)});
my $holder_pid = $open->query_safe(q{SELECT pg_backend_pid()});
($ret, $out, $err) = as_role('owner', q{SELECT try('SELECT next_id(0)::text')});
like($out, qr/^ERROR 55P03: generator state uniqueid_shard_0_state is locked by another session$/,
	'a call waiting for a lock held elsewhere ends with 55P03 naming the state');
($ret, $out, $err) = as_role('owner', q{SELECT next_id(0)});
like($err, qr/DETAIL:  Waited 10s for advisory lock \(1969841264, $key\), held by process $holder_pid;/,
	'its detail names the key and the process holding it');
($ret, $out, $err) = as_role('owner', q{SET lock_timeout = '50ms'; SELECT next_id(0)});
like($err, qr/DETAIL:  Waited 50ms for advisory lock/, "a caller's own lock_timeout bounds the wait instead");
$open->query_safe(qq{SELECT pg_advisory_unlock(1969841264, $key)});
like(as_owner(q{SELECT next_id(0)}), qr/^\d+$/, 'once released, the others generate');
$open->quit;

# ---- in a read-only transaction the generators are 25006 (nextval is
# refused there), where the C extension generates (doc/portable.md)
is(as_owner(q{BEGIN READ ONLY; SELECT try('SELECT next_id(0)::text') || ' | ' || try('SELECT next_id()::text') || ' | '
	|| try('SELECT next_snowflake()::text') || ' | ' || try('SELECT next_sonyflake()::text') || ' | ' || try('SELECT next_uuid7()::text')
	|| ' | ' || (c.next_snowflake() IS NOT NULL); COMMIT}),
	join(' | ', ('ERROR 25006: cannot execute nextval() in a read-only transaction') x 5, 'true'),
	'in a read-only transaction every generator is 25006; the C extension generates');

# ---- removal: a user's objects that happen to share the edition's schema
# and a name prefix are not the edition's
as_owner(q{DROP TABLE kids; CREATE TABLE ids.uniqueid_audit (id bigint, note text);
	INSERT INTO ids.uniqueid_audit VALUES (1, 'kept'); CREATE FUNCTION ids.next_id(text) RETURNS text LANGUAGE sql RETURN $1});
($ret, $err) = run_file($remove);
is(as_owner(q{SELECT (to_regclass('ids.uniqueid_audit') IS NOT NULL) || ' ' || (to_regprocedure('ids.next_id(text)') IS NOT NULL)}),
	'true true', "the removal leaves the user's own table and function in the schema");

# an array of a domain in another schema: refused with the edition's own message
($ret, $err) = run_file($edition) if as_owner(q{SELECT to_regclass('ids.uniqueid_node') IS NULL}) eq 't';
as_owner(q{CREATE SCHEMA other; CREATE TABLE other.a (ids shardid[])});
($ret, $err) = run_file($remove);
like($err, qr/still in use\nDETAIL:  In use by: .*column ids of table other\.a/,
	'a column of an array of the domain: the removal refuses and names it');

$node->stop;
done_testing();
