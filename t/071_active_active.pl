# Active-active under PostgreSQL's own logical replication: three servers,
# each writable, each publishing its tables and subscribing to the two
# others with origin = none (binary between a and b, text between the other
# pairs), initial rows copied only from a, to servers whose tables are
# empty.  Every node-aware generator is a primary key default; clients
# insert on all three at once.  Then: every server holds the same rows, no
# key repeated and no replication conflict or apply error anywhere, and
# rows made more than the clocks' skew (plus the family's time unit) apart
# sort in creation order across servers.  uniqueid_check_group() reads the
# group and names two servers with the same uniqueid.node.  A server down
# for a while catches up; a server's synchronous standby, promoted with its
# clock 30 s behind after a power cut, rejoins through failover slots and
# continues above every ID the server made (its floor); a server lost and
# restored from an older base backup, its clock 60 s behind, rejoins
# (rebuilt as doc/active-active.md says) above every ID its number made.
# A table an ORM's migration makes on every server, its key bigserial and
# uniqueid.serial_normalization on: a snowflake key on each, no sequence,
# the rows of all three replicated with no key twice.
# (16 and later: origin = none; the promotion 17 and later: failover slots.)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

my $version = PostgreSQL::Test::Cluster->new('probe')->pg_version;
plan skip_all => "origin = none, which active-active replication needs, came with PostgreSQL 16; this is $version"
  if $version < 16;

# family => [type, default, time unit in seconds]
my %fam = (
	shardid => [ 'shardid', 'next_id()', 0.001 ],
	snowflake => [ 'snowflake', 'next_snowflake()', 0.001 ],
	sno => [ 'sno', 'next_sno()', 0.004 ],
	objectid => [ 'objectid', 'next_objectid()', 1 ],
	uuid7 => [ 'uuid', 'next_uuid7()', 0.001 ],
	ulid => [ 'ulid', 'next_ulid()', 0.001 ],
	ksuid => [ 'ksuid', 'next_ksuid()', 1 ],
	rsxid => [ 'rsxid', 'next_rsxid()', 1 ],
	typeid => [ 'typeid', q{next_typeid('user')}, 0.001 ]);
my @fam = sort keys %fam;

# each server's number and its clock's offset from the real one: 0.3 s of
# skew between b and c
my %num = (a => 1, b => 2, c => 3);
my %shift = (a => 0, b => -0.15, c => 0.15);
my $skew = 0.3;
my %node;
for my $s (qw(a b c))
{
	$node{$s} = uid_node(
		$s,
		allows_streaming => 'logical',
		conf => [
			"uniqueid.node = $num{$s}", "uniqueid.shards = ''",
			'max_logical_replication_workers = 10', 'max_worker_processes = 24',
			'track_commit_timestamp = on'
		]);
	uid_clock_set($node{$s}, $shift{$s});
	uid_on_clock($node{$s}, sub { $node{$s}->start });
}

# c's synchronous standby, which receives c's failover slots (17 and later)
my $failover = $version >= 17;
my $c2;
if ($failover)
{
	my $c = $node{c};
	$c->safe_psql('postgres', q{SELECT pg_create_physical_replication_slot('c2_slot')});
	$c->backup('bk');
	$c2 = PostgreSQL::Test::Cluster->new('c2');
	$c2->init_from_backup($c, 'bk', has_streaming => 1);
	$c2->append_conf('postgresql.conf',
		"primary_conninfo = '" . $c->connstr . " dbname=postgres'\n"
		  . "primary_slot_name = 'c2_slot'\nhot_standby_feedback = on\nsync_replication_slots = on\n");
	uid_clock_set($c2, $shift{c});
	uid_on_clock($c2, sub { $c2->start });
	$c->append_conf('postgresql.conf', "synchronous_standby_names = 'c2'\nsynchronized_standby_slots = 'c2_slot'\n");
	$c->reload;
	$c->poll_query_until('postgres', q{SELECT sync_state = 'sync' FROM pg_stat_replication WHERE application_name = 'c2'})
	  or die "c2 did not become c's synchronous standby\n";
}

# begun and made: the clock right before and right after the ID's default
# (the defaults run in column order), so that the ID was made between them
# whatever delayed its return (its horizon's durable write, which waits for
# c's synchronous standby; a client descheduled on a busy machine)
my $schema = join '', map {
	"CREATE TABLE t_$_ (begun timestamptz NOT NULL DEFAULT clock_timestamp(),
		id $fam{$_}[0] PRIMARY KEY DEFAULT $fam{$_}[1],
		node int NOT NULL DEFAULT current_setting('uniqueid.node')::int,
		phase int NOT NULL, made timestamptz NOT NULL DEFAULT clock_timestamp());\n"
} @fam;
# and a table as an ORM's migration makes it, run on every server, with
# uniqueid.serial_normalization on for the database everywhere
# (doc/active-active.md): its bigserial key a snowflake of each server's own
my $orm_table = q{CREATE TABLE orm_items (id bigserial PRIMARY KEY,
	node int NOT NULL DEFAULT current_setting('uniqueid.node')::int, k int NOT NULL);};
for my $s (qw(a b c))
{
	$node{$s}->safe_psql('postgres', 'CREATE DATABASE app');
	$node{$s}->safe_psql('postgres', 'ALTER DATABASE app SET uniqueid.serial_normalization = snowflake');
	$node{$s}->safe_psql('app', "CREATE EXTENSION uniqueid;\n$schema\n$orm_table\nCREATE PUBLICATION pub_$s FOR ALL TABLES;");
}
# a's rows from before the group: copied to b and c, whose tables are empty
$node{a}->safe_psql('app', join '', map { "INSERT INTO t_$_ (phase) SELECT 0 FROM generate_series(1, 500);\n" } @fam);

# subscription sub_X_Y: on X, of Y's publication
my %binary = ('a b' => 1, 'b a' => 1);
sub subscribe
{
	my ($s, $p, $copy, $others) = @_;
	my ($ret, $out, $err) = $node{$s}->psql('app',
		"CREATE SUBSCRIPTION sub_${s}_$p CONNECTION '" . $node{$p}->connstr . " dbname=app' PUBLICATION pub_$p "
		  . "WITH (origin = none, copy_data = $copy, binary = " . ($binary{"$s $p"} ? 'true' : 'false')
		  . ($failover && $p eq 'c' ? ', failover = true' : '') . ')');
	is($ret, 0, "sub_${s}_$p: origin = none, copy_data = $copy" . ($binary{"$s $p"} ? ', binary' : ', text'))
	  or diag($err);
	if ($others)
	{
		like($err, qr/WARNING: .*origin/s, "sub_${s}_$p: PostgreSQL warns that the copy may take rows from other origins");
	}
	elsif ($copy eq 'true')
	{
		unlike($err, qr/WARNING/, "sub_${s}_$p: no warning of data from other origins");
	}
	return;
}
# first the copies, while only a has rows and a subscribes to nobody (the
# only case where copy_data with origin = none cannot copy rows that came
# from elsewhere), then the rest without copying
subscribe('b', 'a', 'true');
subscribe('c', 'a', 'true');
$node{$_}->wait_for_subscription_sync($node{a}, "sub_${_}_a", 'app') for qw(b c);
subscribe('a', 'b', 'false');
subscribe('a', 'c', 'false');
subscribe('b', 'c', 'false');
subscribe('c', 'b', 'false');

# ---- helpers ----

my %sub_of = (a => [qw(b c)], b => [qw(a c)], c => [qw(a b)]);

# load(PHASE, SERVERS): two clients on each server, each 100 transactions of
# 5 rows in every table, 10 ms apart
sub load
{
	my ($phase, @servers) = @_;
	my $sql = "DO \$\$ BEGIN FOR i IN 1..100 LOOP\n"
	  . join('', map { "INSERT INTO t_$_ (phase) SELECT $phase FROM generate_series(1, 5);\n" } @fam)
	  . "COMMIT; PERFORM pg_sleep(0.01); END LOOP; END \$\$";
	my @runs = uid_concurrently_on(map { ([ $node{$_}, 'app', $sql ], [ $node{$_}, 'app', $sql ]) } @servers);
	is(join('', map { $_->{ok} ? '' : $_->{err} } @runs), '', "phase $phase: the clients on @servers insert without an error");
	return;
}

# quiesce(): every subscriber has every publisher's changes
sub quiesce
{
	for my $p (qw(a b c))
	{
		$node{$p}->wait_for_catchup("sub_${_}_$p") for @{ $sub_of{$p} };
	}
	return;
}

# digest(SERVER): each table's row count and the md5 of its rows in key order
sub digest
{
	my ($s) = @_;
	return $node{$s}->safe_psql('app', 'SELECT d FROM (' . join(' UNION ALL ', map {
			"SELECT '$_ ' || count(*) || ' ' || md5(coalesce(string_agg(id::text || '/' || node || '/' || phase || '/' || begun || '/' || made, ',' ORDER BY id), ''))
			 FROM t_$_"
	} @fam) . ') x(d) ORDER BY d');
}

# same_rows(WHAT): every server holds the same rows, row for row
sub same_rows
{
	my ($what) = @_;
	my $a = digest('a');
	is(digest($_), $a, "$what: $_ holds the same rows as a, row for row") for qw(b c);
	note("$what, rows per server and table: " . join(', ', map { /^(\S+) (\d+)/ ? "$1 $2" : () } split /\n/, $a));
	return;
}

# no_errors(WHAT, DOWN): no conflict (counted from 18 on, and logged), no
# error of an initial copy, and no error of an apply worker on any server
# since the last call but, when a publisher went DOWN, the loss of its
# connection
my %log_from;
sub no_errors
{
	my ($what, $down) = @_;
	my $lost = join '|', 'could not connect to the (?:publisher|primary server)',
	  'could not receive data from WAL stream', 'could not send end-of-streaming message',
	  'server closed the connection', 'could not fetch failover logical slots info from the primary server',
	  # (a walsender whose subscriber went away mid-send)
	  'connection to client lost',
	  # (what a server's fast shutdown ends: its clients, workers and autovacuum)
	  'terminating (?:connection|logical replication worker|autovacuum process|background worker "[^"]+"|walreceiver process) due to (?:administrator command|unexpected postmaster exit)',
	  'the database system is (?:shutting down|starting up|not yet accepting connections)',
	  # (a new apply worker, while the one that lost its connection exits)
	  'replication origin with ID \\d+ is already active for PID';
	for my $s (qw(a b c))
	{
		is( $node{$s}->safe_psql('app', q{SELECT coalesce(sum(v::bigint), 0) FROM pg_stat_subscription_stats s,
				jsonb_each_text(to_jsonb(s)) AS e(k, v) WHERE k = 'sync_error_count' OR k LIKE 'confl%'}
				  . ($down ? '' : q{ OR k = 'apply_error_count'})),
			0, "$what: no " . ($down ? '' : 'apply error, no ') . "copy error or conflict counted on $s");
		my $file = $node{$s}->logfile;
		my $log = PostgreSQL::Test::Utils::slurp_file($file, $log_from{$file} // 0);
		$log_from{$file} = -s $file;
		# (the test's own statements are logged with its name)
		my @bad = grep { !/071_active_active\.pl/ && !($down && /$lost/) }
		  $log =~ /^.*(?:ERROR|FATAL|conflict detected|duplicate key value).*$/mg;
		is(scalar(@bad), 0, "$what: no conflict or apply error logged on $s"
			  . ($down ? ' (but lost connections to the server that was down)' : ''))
		  or diag(join "\n", @bad[ 0 .. ($#bad < 4 ? $#bad : 4) ]);
	}
	return;
}

# out_of_order(PHASES): per family, the rows (of those phases) that sort
# after a row made more than the design's bound after them, in real time
# (each server's clock offset taken off), and those that sort after a later
# row at all.  The bound is doc/active-active.md's ("order across servers up
# to the clock skew"): the skew plus the family's unit, and
# uniqueid.max_clock_lead more where a generator borrowed ahead of its
# clock (an ID whose time is past its server's clock when it was made).  A
# row was made between its begun and its made: X was made after Y for sure
# by X's begun less Y's made.
sub out_of_order
{
	my ($phases, $what) = @_;
	my $off = "CASE node WHEN 1 THEN interval '$shift{a} s' WHEN 2 THEN interval '$shift{b} s' ELSE interval '$shift{c} s' END";
	my $max_lead = $node{a}->safe_psql('app',
		q{SELECT extract(epoch FROM current_setting('uniqueid.max_clock_lead')::interval)});
	my (@beyond, @within, @led);
	for my $f (@fam)
	{
		# the furthest an ID's time led its server's clock (past the clock
		# after the ID was made, on that server)
		my $lead = $node{a}->safe_psql('app', qq{
			SELECT coalesce(greatest(max(extract(epoch FROM id_time(id) - made)), 0), 0) FROM t_$f WHERE phase IN ($phases)});
		my $allow = $skew + $fam{$f}[2] + ($lead > 0 ? $max_lead : 0);
		push @led, sprintf('%s %.3f s', $f, $lead) if $lead > 0;
		my ($b, $w) = split /\|/, $node{a}->safe_psql('app', qq{
			SELECT count(*) FILTER (WHERE before - made > interval '$allow s'), count(*) FILTER (WHERE before > made)
			FROM (SELECT made, max(begun) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before
			      FROM (SELECT id, begun - $off AS begun, made - $off AS made FROM t_$f WHERE phase IN ($phases)) r) w});
		push @beyond, "$f $b";
		push @within, "$f $w";
		# (which: each such row, and the row sorting ahead of it that was made latest)
		diag("$what, $f: " . $node{a}->safe_psql('app', qq{
			WITH r AS (SELECT id, node, begun - $off AS begun, made - $off AS made FROM t_$f WHERE phase IN ($phases))
			SELECT format('node %s made %s..%s (ID time %s) sorts after node %s made %s..%s (ID time %s)',
				y.node, y.begun, y.made, id_time(y.id), x.node, x.begun, x.made, id_time(x.id))
			FROM r y, LATERAL (SELECT * FROM r x WHERE x.id < y.id ORDER BY x.begun DESC LIMIT 1) x
			WHERE x.begun - y.made > interval '$allow s' LIMIT 5})) if $b > 0;
	}
	is(join(', ', grep { !/ 0$/ } @beyond), '',
		"$what: no row sorts after one made more than the skew ($skew s) plus its unit later"
		  . (@led ? " (plus uniqueid.max_clock_lead, $max_lead s, where a generator led its clock)" : ''));
	note("$what: IDs ahead of their server's clock, at most: " . join(', ', @led)) if @led;
	note("$what: rows sorting after a later row, within the bound: " . join(', ', @within));
	return;
}

# above_all(NUMBER, PHASE, WHO): in every family, every ID of that server
# number made in PHASE is above every ID the number made before
sub above_all
{
	my ($num, $phase, $who) = @_;
	is( $node{a}->safe_psql('app', join ' UNION ALL ', map {
				"SELECT count(*) FROM t_$_ WHERE node = $num AND phase = $phase
				 AND id <= (SELECT id FROM t_$_ WHERE node = $num AND phase < $phase ORDER BY id DESC LIMIT 1)"
			} @fam),
		join("\n", (0) x @fam),
		"$who continues above every ID of number $num made before, in every family");
	return;
}

# ---- 1. concurrent inserts on all three ----

load(1, qw(a b c));
quiesce();
same_rows('phase 1');
no_errors('phase 1');
out_of_order('0, 1', 'phases 0 and 1');
is( $node{a}->safe_psql('app', join ' UNION ALL ', map { "SELECT count(*) - count(DISTINCT id) FROM t_$_" } @fam),
	join("\n", (0) x @fam), 'no key twice in any table');
is( $node{a}->safe_psql('app', join ' UNION ALL ', map { "SELECT string_agg(DISTINCT node::text, ',' ORDER BY node::text) FROM t_$_ WHERE phase = 1" } @fam),
	join("\n", ('1,2,3') x @fam), 'every table has rows of phase 1 from all three servers');

# a base backup of b, restored at the end
$node{b}->backup('bbk');

# the ORM's table: two clients on each server, each 50 transactions of 20
# rows; every server gets every row, and no key is made twice
my $orm_load = "DO \$\$ BEGIN FOR i IN 1..50 LOOP INSERT INTO orm_items (k) SELECT i FROM generate_series(1, 20); COMMIT; END LOOP; END \$\$";
my @orm_runs = uid_concurrently_on(map { ([ $node{$_}, 'app', $orm_load ], [ $node{$_}, 'app', $orm_load ]) } qw(a b c));
is(join('', map { $_->{ok} ? '' : $_->{err} } @orm_runs), '', 'orm_items: the clients on a, b and c insert without an error');
quiesce();
my $orm_digest = q{SELECT count(*) || ' ' || count(DISTINCT id) || ' ' || md5(string_agg(id || '/' || node || '/' || k, ',' ORDER BY id))
	FROM orm_items};
my $orm_a = $node{a}->safe_psql('app', $orm_digest);
like($orm_a, qr/^6000 6000 /, 'orm_items: 6,000 rows on a, every key distinct');
is($node{$_}->safe_psql('app', $orm_digest), $orm_a, "orm_items: $_ holds the same rows as a") for qw(b c);
no_errors('orm_items');
is($node{a}->safe_psql('app', 'SELECT count(*) FROM orm_items WHERE id_node(id::snowflake) <> node'), 0,
	"orm_items: each key is a snowflake of the server that made it");
is( join(',', map { $node{$_}->safe_psql('app', q{SELECT (SELECT pg_get_expr(adbin, adrelid, true) FROM pg_attrdef WHERE adrelid = 'orm_items'::regclass AND adnum = 1)
		|| ' ' || (SELECT count(*) FROM pg_class WHERE relkind = 'S' AND relname LIKE 'orm_items%')}) } qw(a b c)),
	join(',', ('next_snowflake()::bigint 0') x 3), 'orm_items: its key defaults to next_snowflake() on every server, with no sequence');

# the node fields: uniqueid.node of the server that made the ID
for my $s (qw(a b c))
{
	is( $node{$s}->safe_psql('app', q{SELECT string_agg(DISTINCT x::text, ',') FROM (
			SELECT id_node(next_snowflake()) UNION ALL SELECT id_shard(next_id()) UNION ALL SELECT id_node(next_sonyflake())
			UNION ALL SELECT id_node(next_spreadid('time')) UNION ALL SELECT (id_parts(next_sno())).partition) v(x)}),
		$num{$s}, "$s: snowflake, next_id(), sonyflake, spreadid and sno carry its uniqueid.node, $num{$s}");
}

# ---- the group's check ----

is( $node{a}->safe_psql('app', q{SELECT string_agg(coalesce(subscription, '-') || ' ' || node, ', ' ORDER BY node) FROM uniqueid_check_group()}),
	'- 1, sub_a_b 2, sub_a_c 3', 'uniqueid_check_group() on a reads a, and b and c through its subscriptions');
# the clocks' offsets, right to within half the round trip
for my $s (qw(b c))
{
	my ($off, $rt) = split /\|/, $node{a}->safe_psql('app',
		"SELECT extract(epoch FROM clock_offset), extract(epoch FROM round_trip) FROM uniqueid_group_settings() WHERE subscription = 'sub_a_$s'");
	cmp_ok(abs($off - ($shift{$s} - $shift{a})), '<=', $rt / 2 + 0.001,
		"the clock offset of $s from a: $off s (set: $shift{$s} s; round trip $rt s)");
}
my ($bname, $cname) = map { qr/\Qhost=${\ $node{$_}->host} port=${\ $node{$_}->port} dbname=app (subscription sub_a_$_)\E/ } qw(b c);
uid_set($node{c}, 'uniqueid.node', '2');
like(uid_error($node{a}, 'SELECT * FROM uniqueid_check_group()', 'app'),
	qr/ERROR:  22023: uniqueid\.node 2 is set on (?:$bname and $cname|$cname and $bname)/,
	'b and c both with uniqueid.node 2: 22023 from a, naming both');
like(uid_error($node{b}, 'SELECT * FROM uniqueid_check_group()', 'app'),
	qr/ERROR:  22023: uniqueid\.node 2 is set on host=\S+ port=${\ $node{c}->port} dbname=app \(subscription sub_b_c\) and this server/,
	'... and from b, naming c and itself');
uid_set($node{c}, 'uniqueid.node', '3');
uid_set($node{b}, 'uniqueid.shards', '0-9');
like(uid_error($node{a}, 'SELECT * FROM uniqueid_check_group()', 'app'),
	qr/ERROR:  22023: shard 1 is this server's own \(next_id\(\) there, uniqueid\.node 1\) and in the uniqueid\.shards of $bname/,
	"a's own shard in b's uniqueid.shards: named");
uid_set($node{b}, 'uniqueid.shards', '');
is($node{a}->safe_psql('app', 'SELECT count(*) FROM uniqueid_check_group()'), 3, 'the settings mended: the check passes');
is($node{a}->safe_psql('app', q{SELECT has_function_privilege('pg_monitor', 'uniqueid_check_group()', 'EXECUTE')}), 'f',
	'uniqueid_check_group() is not for everyone (it connects as the server)');

# a server with uniqueid.node in its configuration but not the library:
# refused, not read as node 4; and one that stops answering (its postmaster
# frozen): refused once the 10 s of the connection are over
my $d = PostgreSQL::Test::Cluster->new('d');
$d->init;
$d->append_conf('postgresql.conf', "uniqueid.node = 4\n");
$d->start;
my $read_d = "SELECT * FROM uniqueid_remote_settings('" . $d->connstr . " dbname=postgres')";
like(uid_error($node{a}, $read_d, 'app'), qr/ERROR:  55000: server host=\S+ port=${\ $d->port} dbname=postgres does not have uniqueid loaded/,
	'a server without the library (uniqueid.node in its file only): 55000, naming it');
kill 'STOP', $d->{_pid};
like(uid_error($node{a}, $read_d, 'app'), qr/ERROR:  08006: server host=\S+ port=${\ $d->port} dbname=postgres did not accept the connection within 10 s/,
	'a server that does not answer: 08006 after 10 s, naming it');
kill 'CONT', $d->{_pid};
$d->stop;

# ---- 2. a server down for a while, then back ----

$node{c}->stop('fast');
like(uid_error($node{a}, 'SELECT * FROM uniqueid_check_group()', 'app'),
	qr/ERROR:  55000: cannot read the uniqueid settings of every server of the group\nDETAIL:  subscription sub_a_c: could not connect to server host=\S+ port=${\ $node{c}->port}/,
	'c down: the check says which server it cannot read');
# (the load lasts more than the horizon's lease of 1 s: c comes back with
# its floor behind its clock, and leads it by nothing)
load(2, qw(a b));
uid_on_clock($node{c}, sub { $node{c}->start });
load(3, qw(a b c));
quiesce();
same_rows('c down during phase 2, back for phase 3');
no_errors('phases 2 and 3', 1);
out_of_order('0, 1, 2, 3', 'phases 0 to 3');

# ---- 3. a power cut on c; its standby promoted, its clock 30 s behind ----

SKIP:
{
	skip "failover slots, which let a promoted standby serve its primary's subscribers, came with PostgreSQL 17; this is $version", 12
	  unless $failover;
	load(4, 'c');
	ok( $c2->poll_query_until('postgres',
			q{SELECT count(*) = 2 FROM pg_replication_slots WHERE synced AND NOT temporary AND slot_name IN ('sub_a_c', 'sub_b_c')}),
		"c's slots for a and b are synchronized to its standby");
	$node{c}->wait_for_catchup('c2');
	uid_kill_all($node{c});
	uid_clock_set($c2, $shift{c} - 30);
	$c2->promote;
	$node{c} = $c2;
	$node{$_}->safe_psql('app', "ALTER SUBSCRIPTION sub_${_}_c CONNECTION '" . $c2->connstr . " dbname=app'") for qw(a b);
	load(5, qw(a b c));
	quiesce();
	same_rows("c's standby promoted, phase 5");
	no_errors('phase 5', 1);
	above_all(3, 5, 'the promoted standby, 30 s behind');
}

# ---- 4. b lost, restored from its backup of phase 1, its clock 60 s behind ----

# Its state file and WAL carry its horizon only to the backup's end; the IDs
# b made after it are in a's and c's tables.  The rebuild, with the group
# idle: a server restored from a backup cannot resume its slots and
# subscriptions where the lost one stopped, so they are made again.
uid_kill_all($node{b});
my $b2 = PostgreSQL::Test::Cluster->new('b2');
$b2->init_from_backup($node{b}, 'bbk');
uid_clock_set($b2, $shift{b} - 60);
uid_on_clock($b2, sub { $b2->start });
# the restored b: the backup's subscriptions go (their slots are the lost
# b's), then the others forget the lost b: their subscriptions to it, and
# its slots on them once nothing uses them
$b2->safe_psql('app', join '', map { "ALTER SUBSCRIPTION sub_b_$_ DISABLE;
		ALTER SUBSCRIPTION sub_b_$_ SET (slot_name = NONE); DROP SUBSCRIPTION sub_b_$_;\n" } qw(a c));
for my $s (qw(a c))
{
	$node{$s}->safe_psql('app', "ALTER SUBSCRIPTION sub_${s}_b DISABLE;
		ALTER SUBSCRIPTION sub_${s}_b SET (slot_name = NONE); DROP SUBSCRIPTION sub_${s}_b");
	$node{$s}->poll_query_until('app', "SELECT NOT active FROM pg_replication_slots WHERE slot_name = 'sub_b_$s'")
	  or die "the slot of the lost b on $s stays in use\n";
	$node{$s}->safe_psql('app', "SELECT pg_drop_replication_slot('sub_b_$s')");
}
# its rows go too, and before any ID its horizon moves past every ID the
# number 2 made (read on a): a second past the latest time of its IDs, as
# the time of an ID is the start of its unit (up to a second).  (The time
# itself repeated two shardids here, in its millisecond.)
$b2->safe_psql('app', 'TRUNCATE ' . join(', ', map { "t_$_" } @fam));
my $past2 = $node{a}->safe_psql('app', q{SELECT max(t) + interval '1 s' FROM (}
	  . join(' UNION ALL ', map { "SELECT max(id_time(id)) FROM t_$_ WHERE node = 2" } @fam) . ') x(t)');
is($b2->safe_psql('app', "SELECT uniqueid_raise_horizon('$past2') >= '$past2'"), 't',
	'the restored b raises its horizon to a second past the latest ID time of number 2 in the group');
$node{b} = $b2;
# b's subscriptions again: to c first, copying nothing, then the copy of
# everything a has (rows of every origin: the group is idle)
subscribe('b', 'c', 'false');
subscribe('b', 'a', 'true', 'others');
$b2->wait_for_subscription_sync($node{a}, 'sub_b_a', 'app');
subscribe('a', 'b', 'false');
subscribe('c', 'b', 'false');
load(6, qw(a b c));
quiesce();
same_rows('b restored from its backup, phase 6');
no_errors('phase 6', 1);
above_all(2, 6, 'the restored b, 60 s behind');

done_testing();
