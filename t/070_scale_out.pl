# Many servers.  Three PostgreSQL servers, each with uniqueid preloaded, its
# own uniqueid.node and a disjoint uniqueid.shards range, hold one schema per
# logical shard (as Instagram did) and insert concurrently through DEFAULT
# next_id(shard).  A coordinator database reads all of them through
# postgres_fdw (a table partitioned by id_shard(id) whose partitions are
# foreign tables) and checks: no duplicate across servers, ORDER BY id is
# creation order up to clock skew, and id_shard(id) routes every row to the
# server holding it.  Then logical shard 11 moves from server a to server c,
# whose clock is 30 s behind, with shard_adopt: no ID repeats, order is kept,
# also after c restarts.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;

my %node_id = (a => 1, b => 2, c => 3);
my %shards  = (a => '0-2729', b => '2730-5459', c => '5460-8191');
my %mine    = (a => [ 10, 11 ], b => [ 3000, 3001 ], c => [ 6000, 6001 ]);
my %node;

my $started = 0;
for my $s (qw(a b c))
{
	$node{$s} = uid_node("server_$s",
		conf => [ "uniqueid.node = $node_id{$s}", "uniqueid.shards = '$shards{$s}'" ]);
	$started++ if $node{$s}->start(fail_ok => 1);
	$node{$s}->safe_psql('postgres', 'CREATE EXTENSION uniqueid');
	for my $n (@{ $mine{$s} })
	{
		# begun and made_at: the clock right before and right after the ID's
		# default (the defaults run in column order): the ID was made between
		# them, whatever delayed its return (the horizon's durable write, a
		# backend descheduled on a busy machine)
		$node{$s}->safe_psql('postgres', qq{
			CREATE SCHEMA s$n;
			CREATE TABLE s$n.photos (begun timestamptz NOT NULL DEFAULT clock_timestamp(),
				id shardid PRIMARY KEY DEFAULT next_id($n),
				server text NOT NULL DEFAULT '$s', made_at timestamptz NOT NULL DEFAULT clock_timestamp(), n int)});
	}
}
is($started, 3, 'three servers, nodes 1-3, shards 0-2729 / 2730-5459 / 5460-8191');

# concurrent inserts: one client per logical shard, 10 batches of 2,000 rows
my @clients;
for my $s (qw(a b c))
{
	for my $n (@{ $mine{$s} })
	{
		my $in = join '',
		  map { "INSERT INTO s$n.photos (n) SELECT g FROM generate_series(1, 2000) g;\n" } 1 .. 10;
		my ($out, $err) = ('', '');
		my $h = IPC::Run::start(
			[ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $node{$s}->connstr('postgres') ],
			'<', \$in, '>', \$out, '2>', \$err,
			IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
		push @clients, [ "s$n on $s", $h, \$err ];
	}
}
my @failed;
for my $c (@clients)
{
	my ($name, $h, $err) = @$c;
	my $ok = eval { $h->finish };
	push @failed, "$name: " . ($@ || $$err) unless $ok;
}
is(join('; ', @failed), '', '6 clients on 3 servers inserted concurrently');

# the coordinator, in its own database on server a
my $user = $node{a}->safe_psql('postgres', 'SELECT current_user');
$node{a}->safe_psql('postgres', 'CREATE DATABASE coord');
sub qc { return $node{a}->safe_psql('coord', $_[0]); }
qc(q{
	CREATE EXTENSION uniqueid;
	CREATE EXTENSION postgres_fdw;
	CREATE TABLE shard_map (shard int PRIMARY KEY, server text NOT NULL);
	CREATE TABLE photos (begun timestamptz, id shardid NOT NULL, server text, made_at timestamptz, n int)
		PARTITION BY LIST (id_shard(id))});
for my $s (qw(a b c))
{
	my ($host, $port) = ($node{$s}->host, $node{$s}->port);
	qc(qq{
		CREATE SERVER srv_$s FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '$host', port '$port', dbname 'postgres');
		CREATE USER MAPPING FOR CURRENT_USER SERVER srv_$s OPTIONS (user '$user')});
	for my $n (@{ $mine{$s} })
	{
		qc(qq{
			INSERT INTO shard_map VALUES ($n, '$s');
			CREATE FOREIGN TABLE photos_$n PARTITION OF photos FOR VALUES IN ($n)
				SERVER srv_$s OPTIONS (schema_name 's$n', table_name 'photos')});
	}
}
# where each row physically is: the server of the foreign partition it came from
qc(q{
	CREATE VIEW located AS SELECT p.*, fs.srvname AS held_by, m.server AS mapped_to
	FROM photos p JOIN pg_foreign_table ft ON ft.ftrelid = p.tableoid
	JOIN pg_foreign_server fs ON fs.oid = ft.ftserver JOIN shard_map m ON m.shard = id_shard(p.id)});

is(qc('SELECT count(*), count(DISTINCT id) FROM photos'), '120000|120000',
	'120000 rows through postgres_fdw, no duplicate across servers');
is(qc(q{SELECT count(*) FROM located WHERE held_by <> 'srv_' || mapped_to OR server <> mapped_to}), '0',
	'id_shard(id) routes every row to the server that holds it');
is(qc('SELECT count(DISTINCT id_shard(id)) FROM photos'), '6', 'six logical shards present');
# sorted by id, no row was made before a row sorted ahead of it by more than
# the design's bound (doc/scaling-out.md): the skew of the servers' clocks
# (one clock here: none) plus shardid's unit (1 ms), and
# uniqueid.max_clock_lead more if a generator borrowed ahead of the clock
# (an ID whose time is past the clock after it was made).  Row X was made
# after row Y for sure by X's begun less Y's made_at.
my ($skew, $by_made, $lead, $max_lead) = split /\|/, qc(q{
	SELECT coalesce(extract(epoch FROM max(before - made_at)) * 1000, 0),
		coalesce(extract(epoch FROM max(before_made - made_at)) * 1000, 0),
		greatest(coalesce(extract(epoch FROM max(id_time(id) - made_at)) * 1000, 0), 0),
		extract(epoch FROM current_setting('uniqueid.max_clock_lead')::interval) * 1000
	FROM (SELECT id, made_at,
		max(begun) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before,
		max(made_at) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before_made
		FROM photos) s});
my $allow = 1 + ($lead > 0 ? $max_lead : 0);
cmp_ok($skew, '<=', $allow, sprintf('ORDER BY id is creation order across servers, up to the unit (1 ms)%s: %.3f ms',
	$lead > 0 ? " and uniqueid.max_clock_lead ($max_lead ms; IDs led the clock by $lead ms)" : '', $skew));
note(sprintf('rows sorting after a row whose default ended later, by up to %.3f ms', $by_made));
my $plan = qc('EXPLAIN (COSTS OFF) SELECT * FROM photos WHERE id_shard(id) = 3000');
ok($plan =~ /photos_3000/ && $plan !~ /photos_10/,
	'a query for one logical shard reaches only its server')
  or diag($plan);

# move logical shard 11 from a to c; c's clock is 30 s behind
$node{c}->stop;
uid_clock_set($node{c}, -30);
uid_on_clock($node{c}, sub { $node{c}->start });
# a last batch on a, so that the shard's last ID is recent
$node{a}->safe_psql('postgres', 'INSERT INTO s11.photos (n) SELECT g FROM generate_series(1, 1000) g');

# generates(NODE, SHARD): whether next_id(SHARD) succeeds on NODE
sub generates
{
	my ($node, $shard) = @_;
	my ($ret) = $node->psql('postgres', "SELECT next_id($shard)");
	return $ret == 0;
}
# 1. a stops generating for shard 11
$node{a}->safe_psql('postgres',
	q{ALTER SYSTEM SET uniqueid.shards = '0-10,12-2729'; SELECT pg_reload_conf()});
uid_wait_until(30, sub { !generates($node{a}, 11) });
my ($ret, $out, $err) = $node{a}->psql('postgres', "\\set VERBOSITY verbose\nSELECT next_id(11)");
like($err, qr/22023: shard 11 is not owned by this server/,
	'after reload, server a refuses shard 11, naming uniqueid.shards');
# 2. its data moves; 3. c adopts the shard from its last ID; 4. c owns it
my ($dump, $dump_err) = ('', '');
IPC::Run::run([ 'pg_dump', '-n', 's11', '-d', $node{a}->connstr('postgres') ],
	'>', \$dump, '2>', \$dump_err, IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default))
  or die "pg_dump failed: $dump_err\n";
$node{c}->safe_psql('postgres', $dump);
my $last = $node{a}->safe_psql('postgres', 'SELECT max(id) FROM s11.photos');
$node{c}->safe_psql('postgres', "SELECT shard_adopt(11, '$last'::shardid)");
$node{c}->safe_psql('postgres',
	q{ALTER SYSTEM SET uniqueid.shards = '11,5460-8191'; SELECT pg_reload_conf()});
uid_wait_until(30, sub { generates($node{c}, 11) });
# (c's clock stepped to 30 s behind the shard's last ID, however long the
# steps since a made it took on a busy machine)
my $since = $node{a}->safe_psql('postgres', "SELECT extract(epoch FROM clock_timestamp() - id_time('$last'::shardid))");
uid_clock_set($node{c}, -30 - $since);
$node{c}->safe_psql('postgres',
	q{INSERT INTO s11.photos (server, n) SELECT 'c', g FROM generate_series(1, 20000) g});
my ($behind, $greater) = split /\|/, $node{c}->safe_psql('postgres', qq{
	SELECT id_time(next_id(5460)) < id_time('$last'::shardid),
		(SELECT min(id) FROM s11.photos WHERE server = 'c') > '$last'::shardid});
is($behind, 't', "server c's own shards, its clock set 30 s back, make IDs behind the shard's last ID");
is($greater, 't', 'every ID c gives shard 11 is greater than every ID a gave it');

# the coordinator follows the move
qc(q{
	UPDATE shard_map SET server = 'c' WHERE shard = 11;
	DROP FOREIGN TABLE photos_11;
	CREATE FOREIGN TABLE photos_11 PARTITION OF photos FOR VALUES IN (11)
		SERVER srv_c OPTIONS (schema_name 's11', table_name 'photos')});
is(qc('SELECT count(*), count(DISTINCT id) FROM photos'), '141000|141000',
	'141000 rows after the move, no duplicate');
is(qc(q{SELECT count(*) FROM located WHERE held_by <> 'srv_' || mapped_to}), '0',
	'routing by id_shard(id) and the shard map still holds');
is(qc(q{
	SELECT count(*) FROM (SELECT server, lag(server) OVER (ORDER BY id) AS prev FROM photos WHERE id_shard(id) = 11) s
	WHERE prev = 'c' AND server = 'a'}), '0',
	'in shard 11, ORDER BY id puts every row of c after every row of a');

# the adoption is durable: c restarts, its clock still behind
$node{c}->stop;
uid_clock_set($node{c}, -30);
uid_on_clock($node{c}, sub { $node{c}->start });
$node{c}->safe_psql('postgres',
	q{INSERT INTO s11.photos (server, n) SELECT 'c2', g FROM generate_series(1, 1000) g});
is($node{c}->safe_psql('postgres', q{
	SELECT (SELECT min(id) FROM s11.photos WHERE server = 'c2') > (SELECT max(id) FROM s11.photos WHERE server <> 'c2')}),
	't', 'after c restarts, shard 11 still continues above every earlier ID');

done_testing();
