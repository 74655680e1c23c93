# A real Citus cluster: a coordinator and two workers on this machine, each
# with shared_preload_libraries = 'citus,uniqueid' and its own uniqueid.node
# (0, 1, 2).  Every family's generator is a column default of a distributed
# table; clients insert through all three nodes at once.  Checked: no
# duplicate in any column (but shortid's, which has no node field); every ID names the node that made it; IDs made
# 50 ms apart on different nodes sort in creation order; id = X is a router
# query; a time range is an index condition on every shard and exact; a
# shard move and a rebalance lose nothing; a bigserial key made a snowflake
# by uniqueid.serial_normalization on the coordinator is one on every shard,
# also when ADD COLUMN adds it to the distributed table.  Skipped, saying why, where no
# Citus is installed for this PostgreSQL.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;
use Time::HiRes qw(usleep);
use IPC::Run;
use PostgreSQL::Test::Utils;

my @names = qw(coordinator worker1 worker2);
my %node;
for my $i (0 .. 2)
{
	my $name = $names[$i];
	$node{$name} = uid_node($name, allows_streaming => 'logical',
		conf => [
			"shared_preload_libraries = 'citus,uniqueid'",
			"uniqueid.node = $i",
			"uniqueid.shards = ''",
			'citus.enable_statistics_collection = off',
			'max_connections = 100',
			'max_worker_processes = 16',
			"timezone = 'UTC'",
		]);
	# Citus's own connections (shard moves) go to the same Unix sockets
	$node{$name}->append_conf('postgresql.conf', "citus.local_hostname = '" . $node{$name}->host . "'");
}
my $missing = uid_citus_missing($node{coordinator});
plan skip_all => $missing if $missing;

# every node runs on a clock the test can move (t/UniqueidTest.pm)
for my $name (@names)
{
	uid_on_clock($node{$name}, sub { $node{$name}->start });
}
my $c = $node{coordinator};
sub on { my ($name, $sql) = @_; return $node{$name}->safe_psql('postgres', $sql); }
sub coord { return on('coordinator', $_[0]); }

$_->safe_psql('postgres', 'CREATE EXTENSION citus') for values %node;
coord("SELECT citus_set_coordinator_host('" . $c->host . "', " . $c->port . ")");
coord("SELECT citus_add_node('" . $node{$_}->host . "', " . $node{$_}->port . ")")
  for qw(worker1 worker2);
coord('CREATE EXTENSION uniqueid');
is(on('worker2', "SELECT extversion FROM pg_extension WHERE extname = 'uniqueid'"),
	coord("SELECT extversion FROM pg_extension WHERE extname = 'uniqueid'"),
	'CREATE EXTENSION uniqueid on the coordinator reaches the workers');

# every family's default, and Citus's bigserial for comparison; begun and
# made, the clock right before and right after the IDs' defaults (which run
# in column order): the row's IDs were made between them, whatever delayed
# their return (a horizon write, a backend descheduled on a busy machine)
my $columns = q{
	begun timestamptz NOT NULL DEFAULT clock_timestamp(),
	id  shardid   NOT NULL DEFAULT next_id(),
	sf  snowflake NOT NULL DEFAULT next_snowflake(),
	sy  sonyflake NOT NULL DEFAULT next_sonyflake(),
	si  shortid   NOT NULL DEFAULT next_shortid(),
	sp  spreadid  NOT NULL DEFAULT next_spreadid('time'),
	sn  sno       NOT NULL DEFAULT next_sno(),
	oi  objectid  NOT NULL DEFAULT next_objectid(),
	u7  uuid      NOT NULL DEFAULT next_uuid7(),
	big bigserial,
	via int NOT NULL,
	n   int NOT NULL,
	made timestamptz NOT NULL DEFAULT clock_timestamp()};
my @families = qw(id sf sy si sp sn oi u7);
coord("CREATE TABLE ids ($columns, PRIMARY KEY (id))");
coord("SELECT create_distributed_table('ids', 'id')");

# 3 clients, one through each node, 40 statements of 500 rows each
my $rows = 0;
my @runs = uid_concurrently_on(map {
	my $i = $_;
	[ $node{ $names[$i] }, 'postgres', join(";\n",
		map { "INSERT INTO ids (via, n) SELECT $i, g FROM generate_series(" . ($_ * 500 + 1) . ', ' . ($_ + 1) * 500 . ') g' }
		  0 .. 39) ]
} 0 .. 2);
ok(!(grep { !$_->{ok} } @runs), 'three clients inserted through the coordinator and both workers at once')
  or diag(join '', map { $_->{err} } @runs);
is(coord('SELECT count(*) FROM ids'), 60000, '60,000 rows');
for my $f (grep { $_ ne 'si' } @families, 'big')
{
	is(coord("SELECT count(DISTINCT $f) FROM ids"), 60000, "$f: 60,000 distinct values");
}
# shortid has no node field: 9 random bits are all that keep two servers'
# IDs of one millisecond and sequence number apart (doc/citus.md)
note('shortid: ' . coord('SELECT count(*) - count(DISTINCT si) FROM ids')
	  . ' duplicates among 60,000 made on three nodes at once');

# each ID names the node that made it (the one the row entered through)
is(coord(q{SELECT count(*) FROM ids
	WHERE id_shard(id) <> via OR id_node(sf) <> via OR id_node(sy) <> via
	   OR id_node(sp) <> via OR id_partition(sn) <> via}),
	0, "next_id()'s shard, snowflake's node, sonyflake's machine, spreadid's generator and sno's partition are the node's uniqueid.node");
is(coord('SELECT count(DISTINCT (via, id_random(oi))) = count(DISTINCT id_random(oi))
	AND count(DISTINCT id_random(oi)) = 3 FROM ids'),
	't', "objectid's random part tells the three nodes apart");
note('rows through each node: ' . coord(q{SELECT string_agg(via || ': ' || c, ', ' ORDER BY via)
	FROM (SELECT via, count(*) c FROM ids GROUP BY via) s}));

# creation order across nodes: one row at a time, in turn through each
# node, at least 50 ms apart
coord("CREATE TABLE ordered ($columns, k int NOT NULL, PRIMARY KEY (id))");
coord("SELECT create_distributed_table('ordered', 'id')");
for my $k (1 .. 30)
{
	my $i = $k % 3;
	on($names[$i], "INSERT INTO ordered (via, n, k) VALUES ($i, 0, $k)");
	usleep(60_000);
}
for my $f (grep { $_ ne 'oi' } @families)
{
	is(coord("SELECT count(*) FROM (SELECT k, lag(k) OVER (ORDER BY $f) AS prev FROM ordered) s WHERE prev > k"),
		0, "$f: rows made 50 ms apart through different nodes sort in creation order");
}
my $big_back = coord('SELECT count(*) FROM (SELECT k, lag(k) OVER (ORDER BY big) AS prev FROM ordered) s WHERE prev > k');
note("bigserial: $big_back of 29 neighbours out of creation order");
# in the concurrent load: rows that sort after a row made more than 50 ms
# later.  What the design promises depends on the family's capacity: a
# generator whose unit's sequence is used up borrows the next units, up to
# uniqueid.max_clock_lead (1 s here) ahead of the clock.  snowflake (4,096
# per ms), sno (16,384 per ms) and uuid7 (4,096 per ms) have more capacity
# than three clients can use, so their IDs follow the clock to the
# millisecond; shardid (1,024 per ms), shortid (512), spreadid (64) and
# sonyflake (256 per 10 ms) may borrow under this load, so their promise is
# the lead allowance: no ID ahead of its row's clock_timestamp() by more
# than max_clock_lead, and no row sorting after one made more than
# max_clock_lead later.  (bigserial sorts by node.)  A row counts when a
# row sorting ahead of it began more than BY after it ended: made after it
# for sure.
sub late { my ($f, $by) = @_; return coord("SELECT count(*) FROM (SELECT made, max(begun) OVER (ORDER BY $f
	ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS latest FROM ids) s WHERE latest > made + interval '$by'"); }
for my $f (qw(sf sn u7))
{
	is(late($f, '50 ms'), 0, "$f: of 60,000 rows made concurrently, none sorts after a row made 50 ms later");
}
my $lead = coord("SELECT current_setting('uniqueid.max_clock_lead')::interval + interval '50 ms'");
for my $f (qw(id si sp sy))
{
	is(coord("SELECT count(*) FROM ids WHERE id_time($f) > made + interval '$lead'"), 0,
		"$f: of 60,000 rows made concurrently, no ID leads its row's clock by more than max_clock_lead");
	is(late($f, $lead), 0,
		"$f: of 60,000 rows made concurrently, none sorts after a row made more than max_clock_lead later");
	note("$f: " . late($f, '50 ms') . ' of 60,000 rows sort after a row made more than 50 ms later (borrowed ahead)');
}
note('bigserial: ' . late('big', '50 ms') . ' of 60,000 rows sort after a row made more than 50 ms later');

# id = X: one task on one shard
my $some = coord('SELECT id FROM ids ORDER BY n, via LIMIT 1');
like(coord("EXPLAIN SELECT * FROM ids WHERE id = '$some'"), qr/Task Count: 1\b/,
	'id = X is a router query (one task)');

# a time range: an index condition on every shard, and exact
coord('ANALYZE ids');
my ($t1, $t2) = split /\|/, coord(q{SELECT date_trunc('milliseconds', percentile_disc(0.4) WITHIN GROUP (ORDER BY made)),
	date_trunc('milliseconds', percentile_disc(0.45) WITHIN GROUP (ORDER BY made)) FROM ids});
my $range = "id >= timestamptz '$t1' AND id < timestamptz '$t2'";
my $plan = $c->safe_psql('postgres', "SET citus.explain_all_tasks = on; EXPLAIN (COSTS OFF) SELECT id FROM ids WHERE $range");
my $shards = coord("SELECT count(*) FROM pg_dist_shard WHERE logicalrelid = 'ids'::regclass");
my @conds = $plan =~ /Index Cond: \(\(id >= '[^']+'::timestamp with time zone\) AND \(id < /g;
is(scalar(@conds), $shards, "the time range is an index condition on each of the $shards shards")
  or diag($plan);
is(coord("SELECT count(*) FROM ids WHERE $range"),
	coord("SELECT count(*) FROM ids WHERE id_time(id) >= timestamptz '$t1' AND id_time(id) < timestamptz '$t2'"),
	'and returns exactly the rows made in the range');

# a shard move and a rebalance keep every row
my $before = coord("SELECT count(*) || ' ' || md5(string_agg(ids::text, ',' ORDER BY id)) FROM ids");
my ($shard, $from_port) = split /\|/, coord(q{SELECT s.shardid, n.nodeport FROM pg_dist_shard s
	JOIN pg_dist_placement p USING (shardid) JOIN pg_dist_node n USING (groupid)
	WHERE s.logicalrelid = 'ids'::regclass AND n.groupid > 0 ORDER BY s.shardid LIMIT 1});
my $to = $from_port == $node{worker1}->port ? 'worker2' : 'worker1';
my $from = $to eq 'worker1' ? 'worker2' : 'worker1';
coord("SELECT citus_move_shard_placement($shard, '" . $node{$from}->host . "', $from_port, '"
	  . $node{$to}->host . "', " . $node{$to}->port . ")");
is(coord("SELECT count(*) || ' ' || md5(string_agg(ids::text, ',' ORDER BY id)) FROM ids"), $before,
	'a shard moved to the other worker: every row as it was');
coord('SELECT rebalance_table_shards()');
is(coord("SELECT count(*) || ' ' || md5(string_agg(ids::text, ',' ORDER BY id)) FROM ids"), $before,
	'after a rebalance: every row as it was');

# the self-check: every node's settings, and the conflicts named
is(coord(q{SELECT string_agg(node || ' ' || shards, ', ' ORDER BY node) FROM uniqueid_check_nodes()}),
	'0 , 1 , 2 ', 'uniqueid_check_nodes() reads the three nodes: uniqueid.node 0, 1, 2, no shards');
sub check_error { return uid_error($c, 'SELECT * FROM uniqueid_check_nodes()'); }
my ($w1, $w2) = map { $node{$_}->host . ':' . $node{$_}->port } qw(worker1 worker2);
uid_set($node{worker2}, 'uniqueid.node', '1');
like(check_error(), qr/22023: uniqueid\.node 1 is set on \Q$w1\E and \Q$w2\E/,
	'two workers with uniqueid.node 1: 22023 naming both');
uid_set($node{worker2}, 'uniqueid.node', '2');
uid_set($node{worker1}, 'uniqueid.shards', '5');
uid_set($node{worker2}, 'uniqueid.shards', '0-9');
like(check_error(), qr/nodes \Q$w1\E and \Q$w2\E both own 1 of the same shards \(5 to 5\) in uniqueid\.shards/,
	'overlapping uniqueid.shards: named with the shards they share');
like(check_error(), qr/shard 1 is node \Q$w1\E's own \(next_id\(\) there, uniqueid\.node 1\) and in the uniqueid\.shards of node \Q$w2\E/,
	"a node's own shard in another node's uniqueid.shards: named");
uid_set($node{worker2}, 'uniqueid.shards', '');
is(check_error(), '', 'once fixed, no error');

# A distributed schema (schema-based sharding) whose table's default is
# next_id(5), generated on worker1, which owns logical shard 5.  While a
# client inserts through worker1, Citus moves the schema to worker2; then
# uniqueid_move_shard() hands shard 5 to worker2, whose clock is 30 s
# behind, and the client goes on through worker2.
coord(q{SET citus.enable_schema_based_sharding = on; CREATE SCHEMA tenant5});
coord(q{CREATE TABLE tenant5.orders (id shardid PRIMARY KEY DEFAULT next_id(5), k int NOT NULL)});
my $home = sub {
	return coord(q{SELECT n.nodeport FROM pg_dist_shard s JOIN pg_dist_placement p USING (shardid)
		JOIN pg_dist_node n USING (groupid) WHERE s.logicalrelid = 'tenant5.orders'::regclass});
};
my $start = $home->();
my ($src, $dst) = $start == $node{worker2}->port ? ('worker2', 'worker1') : ('worker1', 'worker2');
note("tenant5 lives on node port $start; moving it to $dst");
# the inserter: one row at a time through worker1, until the shard leaves it
# (from a file: IPC::Run feeds a child's stdin only while we wait on it)
my $script = PostgreSQL::Test::Utils::tempdir() . '/inserts.sql';
PostgreSQL::Test::Utils::append_to_file($script,
	join '', map { "INSERT INTO tenant5.orders (k) VALUES ($_);\n" } 1 .. 100000);
my ($out1, $err1) = ('', '');
my $h1 = IPC::Run::start([ $node{worker1}->installed_command('psql'), '-XAtq', '-v', 'ON_ERROR_STOP=1',
	'-d', $node{worker1}->connstr('postgres'), '-f', $script ],
	'<', \undef, '>', \$out1, '2>', \$err1, IPC::Run::timeout(300));
uid_wait_until(30, sub { coord('SELECT count(*) FROM tenant5.orders') > 500 })
  or die 'the inserter did not start';
coord("SELECT citus_schema_move('tenant5', '" . $node{$dst}->host . "', " . $node{$dst}->port . ')');
is($home->(), $node{$dst}->port, "citus_schema_move moved tenant5 to $dst while worker1 inserted");
my $during = coord('SELECT count(*) FROM tenant5.orders');
uid_wait_until(30, sub { coord('SELECT count(*) FROM tenant5.orders') > $during + 500 })
  or die 'the inserter stopped after the schema move';
uid_clock_set($node{worker2}, -30);
my $last = coord("SELECT uniqueid_move_shard(5, '" . $node{worker2}->host . "', " . $node{worker2}->port . ')');
my $clean = eval { $h1->finish };
ok(!$@ && !$clean, 'the inserter through worker1 stops once shard 5 has left it') or diag($@);
like($err1, qr/shard 5 is (not owned by this server|was handed over to another server)/,
	'with the message that says why');
my $k1 = coord('SELECT max(k) FROM tenant5.orders');
is(coord("SELECT max(id) FROM tenant5.orders"), $last, 'uniqueid_move_shard returned the last ID worker1 gave shard 5');
# (worker2's clock stepped to 30 s behind the last ID worker1 gave, however
# long the move took on a busy machine)
uid_clock_set($node{worker2}, -30 - coord("SELECT extract(epoch FROM clock_timestamp() - id_time('$last'::shardid))"));
on('worker2', join '', map { "INSERT INTO tenant5.orders (k) VALUES (" . ($k1 + $_) . ");\n" } 1 .. 2000);
is(coord(q{SELECT clock_timestamp() < max(id_time(id)) FROM tenant5.orders}), 't',
	"worker2's clock is behind the IDs it continues from (30 s when they began)");
is(coord('SELECT count(*) - count(DISTINCT id) FROM tenant5.orders'), 0,
	'tenant5: ' . coord('SELECT count(*) FROM tenant5.orders') . ' rows, no duplicate');
is(coord('SELECT count(*) FROM (SELECT id < lag(id) OVER (ORDER BY k) AS back FROM tenant5.orders) s WHERE back'),
	0, 'no ID sorts below one inserted before it, across the schema move and the handover');
is(coord(q{SELECT count(*) FROM uniqueid_check_nodes() WHERE shards = '5'}), 1,
	'shard 5 is now in one node\'s uniqueid.shards');
like($node{worker1}->safe_psql('postgres', "SELECT current_setting('uniqueid.shards')"), qr/^$/,
	'and no longer in worker1\'s');

# uniqueid.serial_normalization on Citus (doc/citus.md): the setting on for
# the coordinator's sessions only (as an ORM's connection would have it),
# off on the workers.  A table an ORM creates with a bigserial key, then
# distributed: its key is a snowflake on every shard, and rows inserted
# through every node get IDs unique across nodes and in creation order.
# Then ADD COLUMN bigserial on the distributed table, alone and beside
# another subcommand (Citus sends the second to the shards as the text of
# the statement): every shard on every worker has the coordinator's
# default, and no sequence is made anywhere.
# (worker2's clock back on time from its 30 s behind above)
uid_clock_set($node{worker2}, 0);
my $orm = "SET uniqueid.serial_normalization = snowflake;\n";
coord($orm . q{CREATE TABLE orm_items (id bigserial PRIMARY KEY, via int NOT NULL, k int NOT NULL)});
coord(q{SELECT create_distributed_table('orm_items', 'id')});
# the defaults of a table's column on the coordinator, and on every shard
# (each row: where, default as \d shows it), and the sequences anywhere
my $shard_defaults = sub {
	my ($col) = @_;
	return coord(qq{SELECT string_agg(DISTINCT result, ' | ') FROM run_command_on_shards('orm_items',
		\$\$SELECT coalesce(pg_get_expr(d.adbin, d.adrelid, true), 'no default') FROM pg_attribute a
		  LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
		  WHERE a.attrelid = '%s'::regclass AND a.attname = '$col'\$\$)});
};
# (the table itself, on a node: on a worker, the copy Citus keeps of it
# there for queries through that worker)
my $default_on = sub {
	my ($name, $col) = @_;
	return on($name, qq{SELECT pg_get_expr(d.adbin, d.adrelid, true) FROM pg_attrdef d JOIN pg_attribute a
		ON a.attrelid = d.adrelid AND a.attnum = d.adnum WHERE d.adrelid = 'orm_items'::regclass AND a.attname = '$col'});
};
my $coord_default = sub { return $default_on->('coordinator', $_[0]); };
my $sequences = q{SELECT count(*) FROM pg_class WHERE relkind = 'S' AND relname LIKE 'orm_items%'};
is($coord_default->('id'), 'next_snowflake()::bigint', 'orm_items.id: its default is next_snowflake() on the coordinator');
is($shard_defaults->('id'), 'next_snowflake()::bigint', 'and on every shard');
is(join(',', map { on($_, $sequences) } @names), '0,0,0', 'no node has a sequence for it');
for my $k (1 .. 30)
{
	my $i = $k % 3;
	on($names[$i], "INSERT INTO orm_items (via, k) VALUES ($i, $k)");
	usleep(60_000);
}
on($names[$_], "INSERT INTO orm_items (via, k) SELECT $_, 100 + g FROM generate_series(1, 1000) g") for 0 .. 2;
is(coord('SELECT count(DISTINCT id) || \' of \' || count(*) FROM orm_items'), '3030 of 3030',
	'rows inserted through the coordinator and both workers: every key distinct');
is(coord('SELECT count(*) FROM orm_items WHERE id_node(id::snowflake) <> via'), 0,
	'each key names the node its row was inserted through');
is(coord('SELECT count(*) FROM (SELECT k, lag(k) OVER (ORDER BY id) AS prev FROM orm_items WHERE k <= 30) s WHERE prev > k'),
	0, 'rows made 50 ms apart through different nodes sort by key in creation order');

# ADD COLUMN bigserial beside another subcommand, then alone
my $err = uid_error($c, $orm . 'ALTER TABLE orm_items ADD COLUMN a bigserial, ADD COLUMN b text');
is($err, '', 'ALTER TABLE orm_items ADD COLUMN a bigserial, ADD COLUMN b text: accepted');
is($coord_default->('a'), 'next_snowflake()::bigint', 'a: next_snowflake() on the coordinator');
is($shard_defaults->('a'), 'next_snowflake()::bigint', 'a: next_snowflake() on every shard');
$err = uid_error($c, $orm . 'ALTER TABLE orm_items ADD COLUMN c bigserial');
is($err, '', 'ALTER TABLE orm_items ADD COLUMN c bigserial: accepted');
is($coord_default->('c'), 'next_snowflake()::bigint', 'c: next_snowflake() on the coordinator');
is($shard_defaults->('c'), 'next_snowflake()::bigint', 'c: next_snowflake() on every shard');
$err = uid_error($c, $orm . 'ALTER TABLE orm_items ADD COLUMN d bigint GENERATED BY DEFAULT AS IDENTITY, ADD COLUMN e text');
is($err, '', 'ADD COLUMN d bigint GENERATED BY DEFAULT AS IDENTITY, ADD COLUMN e text: accepted');
is($shard_defaults->('d'), 'next_snowflake()::bigint', 'd: next_snowflake() on every shard');
is(join(',', map { on($_, $sequences) } @names), '0,0,0', 'still no sequence on any node');
is(join(', ', map { my $w = $_; map { $default_on->($w, $_) } qw(a c d) } qw(worker1 worker2)),
	join(', ', ('next_snowflake()::bigint') x 6), "the workers' copies of orm_items: a, c and d default to next_snowflake()");
is(coord('SELECT count(*) FROM orm_items WHERE a IS NULL OR c IS NULL OR d IS NULL'), 0, 'existing rows got keys');
on('worker1', 'INSERT INTO orm_items (via, k) VALUES (1, 5000)');
is(coord('SELECT concat(id_node(a::snowflake), id_node(c::snowflake), id_node(d::snowflake)) FROM orm_items WHERE k = 5000'), '111',
	'a row through worker1: its new columns are snowflakes of node 1');
# (with the setting off, Citus itself refuses ADD COLUMN bigserial or
# identity on a table whose metadata it syncs to the workers, as it does by
# default)
like(uid_error($c, 'ALTER TABLE orm_items ADD COLUMN f bigserial'),
	qr/cannot execute ADD COLUMN commands involving serial pseudotypes when metadata is synchronized/,
	'with the setting off, Citus refuses ADD COLUMN bigserial on the distributed table');
like(uid_error($c, 'ALTER TABLE orm_items ADD COLUMN g bigint GENERATED BY DEFAULT AS IDENTITY'),
	qr/cannot execute ADD COLUMN commands involving identity columns when metadata is synchronized/,
	'and ADD COLUMN ... GENERATED BY DEFAULT AS IDENTITY');

# Node numbers leased instead of set (doc/negotiated-nodes.md): the
# coordinator is the registry (the claims table came with CREATE EXTENSION
# uniqueid), the workers lease numbers 1 and 2 from it, after the grace
# period of a new registry (the default lease, lead allowance, second and
# skew: 14 s)
for my $w (qw(worker1 worker2))
{
	$node{$w}->append_conf('postgresql.conf',
		"uniqueid.node_registry = '" . $c->connstr . " dbname=postgres'\nuniqueid.node_range = '1-2'\n");
	uid_on_clock($node{$w}, sub { $node{$w}->restart });
}
ok( uid_wait_until(60, sub { on('worker1', 'SELECT uniqueid_node() IS NOT NULL AND id_node(next_snowflake()) = uniqueid_node()') eq 't'
		  && on('worker2', 'SELECT uniqueid_node() IS NOT NULL') eq 't' }),
	'the workers lease node numbers from the coordinator, and their IDs carry them');
is(coord(q{SELECT string_agg(node || ' ' || leased, ', ' ORDER BY node) FROM uniqueid_check_nodes()}),
	'0 false, 1 true, 2 true', 'uniqueid_check_nodes() reads the leased numbers: no conflict');
my $w1_number = on('worker1', 'SELECT uniqueid_node()');
uid_set($c, 'uniqueid.node', $w1_number);
my $coord_name = $c->host . ':' . $c->port;
my ($set, $lease) = ("\Q$coord_name\E \\(uniqueid\\.node\\)", "\Q$w1\E \\(leased\\)");
like(check_error(), qr/22023: node number $w1_number is used by ($set and $lease|$lease and $set)/,
	'a number leased by one node and set on another: 22023 naming both');
uid_set($c, 'uniqueid.node', '0');

done_testing();
