# Moving existing tables onto uniqueid while the application writes
# (doc/moving.md).
#
# A schema with two levels of foreign keys (customers <- orders <-
# order_lines, the last partitioned and keyed on two columns), a bigserial
# and an IDENTITY key, holding rows already.  Three clients insert into the
# three tables, one statement after another, while one transaction moves
# customers.id onto shardid and orders.id onto snowflake with
# uniqueid_convert_key.  Then: no client saw an error, each client's keys
# rose with every insert across the move (the new IDs sort after every old
# one), every foreign key holds, and pg_dump and pg_restore carry the result
# into a new database that goes on inserting.  Last, the moves that are one
# statement: from pg_uuidv7's uuid_generate_v7() to next_uuid7(), and from
# pgEdge snowflake's snowflake.nextval() to next_snowflake(), where the
# suite could build them (test/run.sh, from their archives of
# test/vendor.lock).
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);

my $node = uid_node('moving', conf => ['uniqueid.node = 3', "uniqueid.shards = '3'"]);
my $libdir = $node->config_data('--pkglibdir');
my $sharedir = $node->config_data('--sharedir');
my $pgedge = -e "$libdir/snowflake.so" && -e "$sharedir/extension/snowflake.control";
my $uuidv7 = -e "$sharedir/extension/pg_uuidv7.control";
# (the archive test/run.sh builds each from, for the skip messages)
my %archive = map { /^((pg_uuidv7|pgedge-snowflake)-\S+)/ ? ($2 => $1) : () }
  split /\n/, slurp_file("$FindBin::RealBin/../test/vendor.lock");
my $provide = 'in a directory UID_VENDOR names, in ../shared/vendor, or from its upstream URL (test/vendor.sh)';
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'uniqueid,snowflake'\nsnowflake.node = 7\n")
  if $pgedge;
$node->start;

$node->safe_psql('postgres', q{
	CREATE EXTENSION uniqueid;
	CREATE TABLE customers (id bigserial PRIMARY KEY, name text NOT NULL);
	CREATE TABLE orders (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	                     customer_id bigint NOT NULL REFERENCES customers ON DELETE CASCADE,
	                     UNIQUE (customer_id, id));
	CREATE TABLE order_lines (customer_id bigint NOT NULL, order_id bigint NOT NULL, line int NOT NULL,
	                          FOREIGN KEY (customer_id, order_id) REFERENCES orders (customer_id, id))
	    PARTITION BY RANGE (line);
	CREATE TABLE order_lines_low PARTITION OF order_lines FOR VALUES FROM (1) TO (10);
	CREATE TABLE order_lines_high PARTITION OF order_lines FOR VALUES FROM (10) TO (1000);
	INSERT INTO customers (name) SELECT 'c' || g FROM generate_series(1, 20000) g;
	INSERT INTO orders (customer_id) SELECT 1 + g % 20000 FROM generate_series(1, 60000) g;
	INSERT INTO order_lines SELECT customer_id, id, l * 5 FROM orders, generate_series(1, 2) l;
	CREATE TABLE before AS
	SELECT (SELECT count(*) FROM customers) AS customers, (SELECT count(*) FROM orders) AS orders,
	       (SELECT count(*) FROM order_lines) AS lines});

# the clients: each runs its statement $n times, one after another, and
# prints the key each insert made.  Halfway, each passes a gate that the
# session which moves the keys holds until its transaction has the tables'
# locks: on a machine of any speed some of a client's inserts come before
# the move and the rest after it (they wait for its commit), where a
# client left alone might finish before the move began.
my $n = 300;
my $mover = $node->background_psql('postgres');
# (its progress NOTICEs, which query_safe would take for an error, unsaid)
$mover->query_safe(q{SET client_min_messages = warning; SELECT pg_advisory_lock(63)});
my $gate = q{DO $$BEGIN PERFORM pg_advisory_lock_shared(63); PERFORM pg_advisory_unlock_shared(63); END$$};
my %statement = (
	customers => q{INSERT INTO customers (name) SELECT 'new' FROM pg_sleep(0.005) RETURNING id},
	orders => q{INSERT INTO orders (customer_id) SELECT (SELECT max(id) FROM customers) FROM pg_sleep(0.005) RETURNING id},
	lines => q{INSERT INTO order_lines SELECT o.customer_id, o.id, 20 FROM (SELECT * FROM orders ORDER BY id DESC LIMIT 1) o, pg_sleep(0.005) RETURNING order_id});
my %run;
for my $c (sort keys %statement)
{
	$run{$c} = { file => $node->basedir . "/$c.out", err => '' };
	$run{$c}{h} = IPC::Run::start(
		[
			$node->installed_command('psql'), '-XAtq', '-v', 'ON_ERROR_STOP=1',
			'-d', $node->connstr('postgres'),
			map { ('-c', $_ == $n / 2 ? $gate : $statement{$c}) } 0 .. $n
		],
		'<', \undef, '>', $run{$c}{file}, '2>', \$run{$c}{err},
		IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
}
# once every client has inserted some rows, the move, in one transaction
ok( uid_wait_until(60, sub {
			$node->safe_psql('postgres', q{
				SELECT (SELECT count(*) FROM customers) >= customers + 20 AND (SELECT count(*) FROM orders) >= orders + 20
				   AND (SELECT count(*) FROM order_lines) >= lines + 20 FROM before}) eq 't';
		}),
	'the three clients insert');
# a shard this server does not own: refused before anything changes
my ($rc, $out, $err) = $node->psql('postgres', q{SELECT uniqueid_convert_key('customers', 'id', shard => 4)});
ok($rc != 0 && $err =~ /shard 4 is not owned by this server/,
	'a shard outside uniqueid.shards is refused with the generator\'s own error') or diag($err);
is($node->safe_psql('postgres', q{SELECT format_type(atttypid, NULL) FROM pg_attribute
	WHERE attrelid = 'customers'::regclass AND attname = 'id'}), 'bigint', 'and the key is unchanged');
my $t0 = time;
# (the gate opens inside the move's transaction: the clients behind it
# then wait for its locks)
my $moved = $mover->query_safe(q{
	BEGIN;
	SELECT count(*) FROM uniqueid_convert_key('customers', 'id', shard => 3);
	SELECT count(*) FROM uniqueid_convert_key('orders', 'id', 'snowflake');
	DO $$BEGIN PERFORM pg_advisory_unlock(63); END$$;
	COMMIT;});
my $held = time - $t0;
$mover->quit;
is($moved, "10\n6", 'the move ran its statements (10 for customers, 6 for orders) and committed');
note(sprintf('the move held its locks for at most %.2f s (20,000 customers, 60,000 orders, 120,000 lines)', $held));

my %keys;
for my $c (sort keys %run)
{
	my $ok = eval { $run{$c}{h}->finish } ? 1 : 0;
	ok($ok && $run{$c}{err} eq '', "$c client: its $n inserts ran, across the move, without an error")
	  or diag($run{$c}{err} . $@);
	$keys{$c} = [ split /\n/, slurp_file($run{$c}{file}) ];
}
is($node->safe_psql('postgres', q{
	SELECT format_type(atttypid, NULL) FROM pg_attribute
	WHERE (attrelid, attname) IN (('customers'::regclass, 'id'), ('orders'::regclass, 'customer_id'),
	                              ('orders'::regclass, 'id'), ('order_lines_low'::regclass, 'order_id'))
	ORDER BY attrelid::regclass::text, attname}),
	"shardid\nsnowflake\nshardid\nsnowflake", 'the keys and the columns that reference them have the new types');

# each client's keys rose with every insert: the new IDs sort after the old
for my $c (qw(customers orders))
{
	my @k = @{ $keys{$c} };
	my $old = grep { $_ < 2**32 } @k;
	my $rises = grep { $k[$_] > $k[ $_ - 1 ] } 1 .. $#k;
	ok(@k == $n && $old > 0 && $old < $n && $rises == $n - 1,
		"$c: the $n keys the client got rise one after another; $old before the move, "
		  . ($n - $old) . ' after');
}
is( $node->safe_psql('postgres', q{
		SELECT (SELECT count(*) FROM customers) - customers, (SELECT count(*) FROM orders) - orders,
		       (SELECT count(*) FROM order_lines) - lines FROM before}),
	"$n|$n|$n", 'every insert of every client is there');
is( $node->safe_psql('postgres', q{
		SELECT (SELECT count(*) FROM orders o WHERE NOT EXISTS (SELECT FROM customers c WHERE c.id = o.customer_id))
		     + (SELECT count(*) FROM order_lines l
		        WHERE NOT EXISTS (SELECT FROM orders o WHERE (o.customer_id, o.id) = (l.customer_id, l.order_id)))}),
	'0', 'every order has its customer and every line its order');
is( $node->safe_psql('postgres', q{
		SELECT count(*) FROM pg_class WHERE relkind = 'S' AND relname IN ('customers_id_seq', 'orders_id_seq')}),
	'0', 'the sequences are gone');

# pg_dump and pg_restore carry it into a new database
my $dump = $node->basedir . '/shop.dump';
my $digest = q{
	SELECT md5(string_agg(x, ',' ORDER BY x)) FROM (
		SELECT 'c' || id || name FROM customers UNION ALL SELECT 'o' || id || '/' || customer_id FROM orders
		UNION ALL SELECT 'l' || customer_id || '/' || order_id || '/' || line FROM order_lines) AS t(x)};
$node->command_ok([ 'pg_dump', '-Fc', '-f', $dump, '-d', $node->connstr('postgres') ], 'pg_dump of the moved tables');
$node->safe_psql('postgres', 'CREATE DATABASE restored');
$node->command_ok([ 'pg_restore', '--exit-on-error', '-d', $node->connstr('restored'), $dump ],
	'pg_restore into a new database, without an error');
is($node->safe_psql('restored', $digest), $node->safe_psql('postgres', $digest),
	'the restored rows are the same, key for key');
is( $node->safe_psql('restored', q{
		SELECT string_agg(pg_get_expr(adbin, adrelid), ', ' ORDER BY adrelid::regclass::text)
		FROM pg_attrdef WHERE adrelid IN ('customers'::regclass, 'orders'::regclass)}),
	'next_id(3), next_snowflake()', 'the restored keys default to the generators');
is( $node->safe_psql('restored', q{
		WITH c AS (INSERT INTO customers (name) VALUES ('after restore') RETURNING id),
		     o AS (INSERT INTO orders (customer_id) SELECT id FROM c RETURNING id)
		SELECT (SELECT id FROM c) > (SELECT max(id) FROM customers) AND (SELECT id FROM o) > (SELECT max(id) FROM orders)}),
	't', 'the restored database inserts, after every key it holds');

# a negative value committed while the move waits for its lock: the check
# runs under the lock, so it sees it and refuses.  The writer holds its
# transaction open at a gate (advisory lock 64) that the test opens once
# the move waits for it: on a machine of any speed, not within a second.
$node->safe_psql('postgres', 'CREATE TABLE race (id bigint PRIMARY KEY); INSERT INTO race VALUES (1), (2)');
my $gate64 = $node->background_psql('postgres');
$gate64->query_safe('SELECT pg_advisory_lock(64)');
my $writer = IPC::Run::start(
	[
		$node->installed_command('psql'), '-XAtq', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('postgres'),
		'-c', 'BEGIN; INSERT INTO race VALUES (-1); SELECT pg_advisory_lock_shared(64) AS race_writer; COMMIT;'
	],
	'<', \undef, '>', \my $writer_out, '2>', \my $writer_err,
	IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
# waits(PATTERN): one other session whose query is like PATTERN waits for a lock
sub waits
{
	return $node->safe_psql('postgres', qq{SELECT count(*) FROM pg_stat_activity WHERE query LIKE '$_[0]'
		AND wait_event_type = 'Lock' AND backend_type = 'client backend' AND pid <> pg_backend_pid()}) eq '1';
}
ok(uid_wait_until(60, sub { waits('%AS race_writer%') }), 'a transaction has inserted -1 and not committed yet');
my $race_move = IPC::Run::start(
	[
		$node->installed_command('psql'), '-XAtq', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('postgres'),
		'-c', q{SELECT uniqueid_convert_key('race', 'id', shard => 3)}
	],
	'<', \undef, '>', \my $race_out, '2>', \my $race_err,
	IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
ok(uid_wait_until(60, sub { waits('%uniqueid_convert_key(_race_%') }), 'the move waits for that transaction\'s lock');
$gate64->query_safe('SELECT pg_advisory_unlock(64)');
$gate64->quit;
$writer->finish;
my $race_ok = eval { $race_move->finish } ? 1 : 0;
ok(!$race_ok && $race_err =~ /column "id" of relation public.race holds the negative value -1/,
	'the move, which waited for that transaction, sees its -1 and refuses') or diag("ok $race_ok: $race_err$@");

# the extension in a schema whose name needs quotes, a table in another
$node->safe_psql('postgres', q{
	CREATE DATABASE quoted;
});
is( $node->safe_psql('quoted', q{
		CREATE SCHEMA "Id Types";
		CREATE EXTENSION uniqueid SCHEMA "Id Types";
		CREATE SCHEMA "Shop";
		CREATE TABLE "Shop"."Order" ("Key" bigserial PRIMARY KEY, "Parent" bigint REFERENCES "Shop"."Order");
		INSERT INTO "Shop"."Order" ("Parent") VALUES (NULL), (1);
		SELECT count(*) FROM "Id Types".uniqueid_convert_key('"Shop"."Order"', 'Key', shard => 3);
		INSERT INTO "Shop"."Order" ("Parent") VALUES ('2');
		SELECT string_agg(format_type(atttypid, NULL), ', ' ORDER BY attnum) FROM pg_attribute
		WHERE attrelid = '"Shop"."Order"'::regclass AND attnum > 0;
		SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = '"Shop"."Order"'::regclass}),
	qq{6
"Id Types".shardid, "Id Types".shardid
"Id Types".next_id(3)},
	'quoted names: the extension\'s schema, the table\'s, its columns');

# from pg_uuidv7's uuid_generate_v7(): the default changes, nothing else
SKIP:
{
	skip "pg_uuidv7 is not installed here: test/run.sh builds it from $archive{pg_uuidv7}, $provide", 2
	  unless $uuidv7;
	$node->safe_psql('postgres', q{
		CREATE EXTENSION pg_uuidv7;
		CREATE TABLE docs (id uuid PRIMARY KEY DEFAULT uuid_generate_v7(), n int);
		INSERT INTO docs (n) SELECT g FROM generate_series(1, 1000) g;
		ALTER TABLE docs ALTER COLUMN id SET DEFAULT next_uuid7();
		INSERT INTO docs (n) SELECT g FROM generate_series(1001, 2000) g;
		DROP EXTENSION pg_uuidv7});
	# (pg_uuidv7's are random within their millisecond: one made in the
	# millisecond of the first next_uuid7() can sort after it)
	is( $node->safe_psql('postgres', q{
			SELECT count(*) FILTER (WHERE (id_parts(id)).version = 7),
			       count(*) FILTER (WHERE id_time(id) > now() + interval '1 s' OR id_time(id) < now() - interval '1 hour'),
			       (SELECT count(*) FROM docs o, docs n
			        WHERE o.n <= 1000 AND n.n > 1000 AND o.id > n.id AND id_time(o.id) < id_time(n.id)),
			       (SELECT max(id_time(id)) FROM docs WHERE n <= 1000) <= (SELECT min(id_time(id)) FROM docs WHERE n > 1000)
			FROM docs}),
		'2000|0|0|t',
		'from uuid_generate_v7(): 2000 version 7 UUIDs read by id_time; each next_uuid7() one sorts after every one of an earlier millisecond');
	is( $node->safe_psql('postgres', q{
			SELECT (SELECT array_agg(n ORDER BY id) FROM docs WHERE n > 1000)
			     = (SELECT array_agg(n ORDER BY n) FROM docs WHERE n > 1000)}),
		't', 'ordered by key, the next_uuid7() rows are in the order they were inserted');
	note('uuid_generate_v7() rows out of insertion order (its random bits within a millisecond): '
		  . $node->safe_psql('postgres', q{
			SELECT count(*) FROM (SELECT n < lag(n) OVER (ORDER BY id) AS back FROM docs WHERE n <= 1000) x WHERE back}));
}

# from pgEdge snowflake's snowflake.nextval(): its IDs have the layout of
# snowflake (time 41 . node 10 . seq 12) on a later epoch (2023), so they
# are smaller than the ones next_snowflake() makes now
SKIP:
{
	skip "pgEdge snowflake is not installed here: test/run.sh builds it from $archive{'pgedge-snowflake'}, $provide", 2
	  unless $pgedge;
	my $out = $node->safe_psql('postgres', q{
		CREATE EXTENSION snowflake;
		CREATE TABLE events (id bigint PRIMARY KEY DEFAULT snowflake.nextval(), n int);
		INSERT INTO events (n) SELECT g FROM generate_series(1, 1000) g;
		SELECT count(*) FROM uniqueid_convert_key('events', 'id', 'snowflake');
		INSERT INTO events (n) SELECT g FROM generate_series(1001, 2000) g;
		DROP EXTENSION snowflake;
		SELECT (SELECT array_agg(n ORDER BY id) FROM events) = (SELECT array_agg(n ORDER BY n) FROM events),
		       count(*) FILTER (WHERE id_node(id) = 7 AND n <= 1000), count(*) FILTER (WHERE id_node(id) = 3 AND n > 1000)
		FROM events});
	is($out, "3\nt|1000|1000",
		'from snowflake.nextval(): converted in place, its IDs (node 7) before the new ones (node 3), in insertion order');
	is( $node->safe_psql('postgres', q{
			SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'events'::regclass}),
		'next_snowflake()', 'and the extension it came from could be dropped');
}

# how far a conversion is, seen from another session: while its third
# step (DROP SEQUENCE) waits for a lock another transaction holds on the
# sequence, its session's application_name says which step of how many;
# after it, the caller's name is back
$node->safe_psql('postgres', q{CREATE TABLE watched (id bigserial PRIMARY KEY); INSERT INTO watched DEFAULT VALUES});
my $holder = $node->background_psql('postgres');
$holder->query_safe('BEGIN; SELECT last_value FROM watched_id_seq');
my ($conv_out, $conv_err) = ('', '');
my $conv = IPC::Run::start(
	[ 'psql', '-XAtq', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('postgres'),
	  '-c', q{SET application_name = 'billing'},
	  '-c', q{SELECT count(*) FROM uniqueid_convert_key('watched', 'id', 'snowflake')},
	  '-c', 'SHOW application_name' ],
	'<', \undef, '>', \$conv_out, '2>', \$conv_err, IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
ok( $node->poll_query_until('postgres', q{SELECT count(*) = 1 FROM pg_stat_activity
		WHERE application_name = 'uniqueid_convert_key: step 3 of 4' AND wait_event_type = 'Lock'}),
	'another session sees the conversion at its step 3 of 4, waiting for a lock, in pg_stat_activity');
$holder->query_safe('COMMIT');
$holder->quit;
$conv->finish;
is($conv_out, "4\nbilling\n", "the conversion ran its 4 steps, and the caller's application_name is back");
like($conv_err, qr/NOTICE:  uniqueid_convert_key: step 1 of 4: LOCK TABLE .*\n.*step 4 of 4: ALTER TABLE /s,
	'the caller saw a NOTICE before each step');

$node->stop;
done_testing();
