# Node numbers negotiated in a registry (uniqueid.node_registry,
# doc/negotiated-nodes.md): a registry server and servers that lease their
# numbers from it through a service file, as a role that may only call the
# claim functions.  Three servers get distinct numbers, and every
# node-bearing family carries them.  One killed, a fourth (its clock set
# back a minute) takes its number once the lease and the skew allowance
# have passed, and every ID it makes is above every ID the killed one made.
# The registry stopped: node-bearing generators stop before the lease ends
# (lease - skew after the last renewal was sent) with the documented error,
# the others go on, and all resume when it returns.  Two servers started at
# once for one free number: one holds it.  A server frozen (SIGSTOP) past
# its lease, its number taken meanwhile, makes no ID under it when it
# wakes.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);

# short leases, so that the test is short: renewed every second, fenced
# 2.5 s after the last renewal was sent, free 3.5 s after the last renewal
my ($lease, $skew) = (3, 0.5);

# (uniqueid.shards = '' everywhere: the group check below reads the servers)
my $reg = uid_node('registry', conf => ["uniqueid.shards = ''"]);
$reg->start;
$reg->safe_psql('postgres', 'CREATE DATABASE registry');
$reg->safe_psql('postgres', 'CREATE ROLE uid_registry LOGIN');
$reg->safe_psql('registry', 'CREATE EXTENSION uniqueid');
$reg->safe_psql('registry',
	'GRANT EXECUTE ON FUNCTION uniqueid_claim_node, uniqueid_renew_node, uniqueid_release_node TO uid_registry');
# look-alikes that would win over the real functions for arguments of
# unknown type, planted where a role may create (the workers write the types)
$reg->safe_psql('registry', q{
	CREATE SCHEMA trap;
	GRANT USAGE ON SCHEMA trap TO uid_registry;
	CREATE FUNCTION trap.uniqueid_claim_node(text, text, text, text, text, text, text, text, text,
		OUT number int, OUT previous_horizon_ms bigint, OUT horizon_ms bigint, OUT lease_until_ms bigint)
		RETURNS SETOF record LANGUAGE sql AS 'SELECT 1, 0::bigint, 4102444800000, 4102444800000';
	CREATE FUNCTION trap.uniqueid_renew_node(text, text, text, text, text, text,
		OUT horizon_ms bigint, OUT lease_until_ms bigint)
		RETURNS SETOF record LANGUAGE sql AS 'SELECT 4102444800000::bigint, 4102444800000::bigint';
	ALTER ROLE uid_registry SET search_path = trap, public;
});

# the servers reach the registry through a service file, as the registry role
my $services = PostgreSQL::Test::Utils::tempdir() . '/pg_service.conf';
open my $fh, '>', $services or die "cannot write $services: $!";
print $fh "[uidreg]\nhost=" . $reg->host . "\nport=" . $reg->port . "\ndbname=registry\nuser=uid_registry\n";
close $fh;
$ENV{PGSERVICEFILE} = $services;

# a server that leases a number of `range`, started on a clock the test moves
sub member
{
	my ($name, $range, %init) = @_;
	my $node = uid_node($name, %init,
		conf => [
			"cluster_name = '$name'", "uniqueid.node_registry = 'service=uidreg'",
			"uniqueid.node_range = '$range'", "uniqueid.node_lease = '${lease}s'",
			"uniqueid.node_skew = '${\ ($skew * 1000)}ms'", "uniqueid.shards = ''"
		]);
	return $node;
}
sub start_on_clock { my $n = shift; uid_on_clock($n, sub { $n->start }); }

# the number a server holds ('' while none)
sub number_of { $_[0]->safe_psql('postgres', 'SELECT uniqueid_node()') }

# every node-bearing family, with its node field
my %family = (
	snowflake => [ 'next_snowflake()', 'id_node' ],
	sonyflake => [ 'next_sonyflake()', 'id_node' ],
	spreadid => [ 'next_spreadid()', 'id_node' ],
	sno => [ 'next_sno()', 'id_partition' ],
	rsxid => [ 'next_rsxid()', 'id_machine' ],
	shardid => [ 'next_id()', 'id_shard' ],
);

my %node;
for my $name (qw(a b c))
{
	$node{$name} = member($name, '1-3');
	start_on_clock($node{$name});
	$node{$name}->safe_psql('postgres', 'CREATE EXTENSION uniqueid');
}
my %number;
for my $name (qw(a b c))
{
	ok(uid_wait_until(30, sub { number_of($node{$name}) ne '' }), "$name leases a number");
	$number{$name} = number_of($node{$name});
	note "$name: number $number{$name}, claimed "
	  . $node{$name}->safe_psql('postgres', 'SELECT claim_ms FROM uniqueid_node_status()')
	  . " ms after its worker started";
}
is(join(',', sort values %number), '1,2,3', 'three servers lease three distinct numbers of their range');
for my $name (qw(a b c))
{
	for my $f (sort keys %family)
	{
		my ($gen, $field) = @{ $family{$f} };
		is($node{$name}->safe_psql('postgres', "SELECT $field($gen)"),
			$number{$name}, "$f of $name carries its number");
	}
}
is( $reg->safe_psql('registry',
		'SELECT string_agg(number || holder_name, \',\' ORDER BY number) FROM uniqueid_catalog.uniqueid_node_claims'),
	join(',', map { $number{$_} . $_ } sort { $number{$a} <=> $number{$b} } qw(a b c)),
	'the claims table names the holders');

# ---- a killed, d takes its number ----
# what a made last: 2,000 of each family
my $made = join(', ', map { "$family{$_}[0] AS $_" } sort keys %family);
$node{a}->safe_psql('postgres', "CREATE TABLE made AS SELECT $made FROM generate_series(1, 2000)");
my %last_a = map {
	$_ => $node{a}->safe_psql('postgres', $_ eq 'spreadid' ? "SELECT max(id_time($_)) FROM made" : "SELECT max($_) FROM made")
} keys %family;
uid_kill_all($node{a});
my $lease_until_a = $reg->safe_psql('registry',
	"SELECT lease_until FROM uniqueid_catalog.uniqueid_node_claims WHERE number = $number{a}");
$node{d} = member('d', '1-3');
uid_clock_set($node{d}, -60);
start_on_clock($node{d});
$node{d}->safe_psql('postgres', 'CREATE EXTENSION uniqueid');
ok(uid_wait_until(30, sub { number_of($node{d}) ne '' }), 'd leases a number once one is free');
is(number_of($node{d}), $number{a}, "d holds a's number");
ok( $reg->safe_psql('registry',
		"SELECT claimed_at > '$lease_until_a'::timestamptz + interval '$skew s' FROM uniqueid_catalog.uniqueid_node_claims WHERE number = $number{a}"
	) eq 't',
	"d claimed it only after a's lease and the skew allowance");
for my $f (sort keys %family)
{
	my ($gen) = @{ $family{$f} };
	my $above = $f eq 'spreadid' ? "id_time($gen) > '$last_a{$f}'" : "$gen > '$last_a{$f}'::$f";
	is($node{d}->safe_psql('postgres', "SELECT bool_and($above) FROM generate_series(1, 2000)"),
		't', "every $f d makes under the number, its clock a minute back, is above a's last");
}

# ---- the registry stopped ----
my $b = $node{b};
$reg->stop('fast');
my $stopped = time;
my ($fenced, $err) = (undef, '');
uid_wait_until(
	$lease + 5,
	sub {
		$err = uid_error($b, 'SELECT next_snowflake()');
		$fenced = time - $stopped if $err =~ /ERROR/;
		return defined $fenced;
	});
ok(defined $fenced, 'with the registry down, snowflake stops on b');
note sprintf('b stopped making node-bearing IDs %.1f s after the registry went down', $fenced // -1);
like(
	$err,
	qr/ERROR:  55000: cannot generate snowflake values: the lease on node number $number{b} from registry service=uidreg has run out/,
	'with the documented error (55000, the registry and the lease)');
# the promise: stopped by (last renewal sent) + lease - skew, which is before the registry went down + lease - skew
my $deadline = $stopped + $lease - $skew;
uid_sleep_until($deadline);
for my $f (sort keys %family)
{
	like(uid_error($b, "SELECT $family{$f}[0]"), qr/ERROR:  55000: cannot generate $f values: the lease/,
		"$f is refused on b by the end of the lease less the skew allowance");
}
is($b->safe_psql('postgres', 'SELECT next_uuid7() IS NOT NULL AND next_ulid() IS NOT NULL AND next_objectid() IS NOT NULL'),
	't', 'families without a node field go on');
like($b->safe_psql('postgres', 'SELECT last_error FROM uniqueid_node_status()'),
	qr/could not connect to server service=uidreg/, 'uniqueid_node_status() says why');
is($b->safe_psql('postgres', 'SELECT uniqueid_node() IS NULL'), 't', 'uniqueid_node() is NULL meanwhile');

# ---- two servers started at once for one free number (the registry still down) ----
$node{e} = member('e', '5');
$node{f} = member('f', '5');
for (qw(e f))
{
	start_on_clock($node{$_});
	$node{$_}->safe_psql('postgres', 'CREATE EXTENSION uniqueid');
}
$reg->start;
my $back = time;
ok(uid_wait_until(30, sub { $b->psql('postgres', 'SELECT next_snowflake()') == 0 }),
	'b makes snowflakes again once the registry is back');
note sprintf('b resumed %.1f s after the registry came back', time - $back);
is(number_of($b), $number{b}, 'under the same number');
is($b->safe_psql('postgres', 'SELECT id_node(next_snowflake())'), $number{b}, 'which its IDs carry');
ok(uid_wait_until(30, sub { grep { number_of($node{$_}) eq '5' } qw(e f) }), 'e or f leases number 5');
# past a whole lease and allowance, still one holder: the other never takes it
usleep(1e6 * ($lease + $skew + 1));
my @holders = grep { number_of($node{$_}) eq '5' } qw(e f);
is(scalar @holders, 1, 'exactly one of two servers racing for one number holds it');
my ($loser) = grep { $_ ne $holders[0] } qw(e f);
like(
	$node{$loser}->safe_psql('postgres', 'SELECT last_error FROM uniqueid_node_status()'),
	qr/no node number of uniqueid.node_range 5-5 is free in registry service=uidreg/,
	'the other says that no number is free');
like(uid_error($node{$loser}, 'SELECT next_sno()'),
	qr/ERROR:  55000: cannot generate sno values: this server holds no node number from registry service=uidreg/,
	'and makes no node-bearing ID');
is($reg->safe_psql('registry', 'SELECT holder_name FROM uniqueid_catalog.uniqueid_node_claims WHERE number = 5'),
	$holders[0], 'the claims table names the winner');

# ---- the group check of active-active replication reads leased numbers ----
# (subscriptions never connected: the check reads their connection strings)
my $d = $node{d};
for my $to (qw(b registry))
{
	my $n = $to eq 'registry' ? $reg : $node{$to};
	$d->safe_psql('postgres',
		"CREATE SUBSCRIPTION sub_$to CONNECTION '" . $n->connstr . " dbname=postgres' PUBLICATION p"
		  . ' WITH (connect = false, enabled = false, create_slot = false, slot_name = NONE)');
}
is( $d->safe_psql('postgres',
		"SELECT string_agg(coalesce(subscription, 'self') || ' ' || node || ' ' || leased, ', ' ORDER BY subscription NULLS FIRST)"
		  . ' FROM uniqueid_check_group()'),
	"self $number{a} true, sub_b $number{b} true, sub_registry 0 false",
	'uniqueid_check_group() reads the numbers leased, and uniqueid.node of a server that does not lease');
uid_set($reg, 'uniqueid.node', $number{b});
my $leased_b = "port=${\ $b->port } dbname=postgres \\(subscription sub_b\\) \\(leased\\)";
my $set_reg = "port=${\ $reg->port } dbname=postgres \\(subscription sub_registry\\) \\(uniqueid\\.node\\)";
like(uid_error($d, 'SELECT * FROM uniqueid_check_group()'),
	qr/ERROR:  22023: node number $number{b} is used by host=\S+ ($leased_b and host=\S+ $set_reg|$set_reg and host=\S+ $leased_b)/,
	'a number leased by one server and set on another: 22023 naming both');
uid_set($reg, 'uniqueid.node', '0');
$d->safe_psql('postgres', "DROP SUBSCRIPTION sub_$_") for qw(b registry);

# ---- c frozen past its lease; g takes its number ----
my $c = $node{c};
$c->safe_psql('postgres', "CREATE TABLE made AS SELECT $made FROM generate_series(1, 2000)");
my %last_c = map {
	$_ => $c->safe_psql('postgres', $_ eq 'spreadid' ? "SELECT max(id_time($_)) FROM made" : "SELECT max($_) FROM made")
} keys %family;
my @frozen = ($c->{_pid}, map { /(\d+)/ ? $1 : () } `pgrep -P $c->{_pid}`);
kill 'STOP', @frozen;
$node{g} = member('g', $number{c});
start_on_clock($node{g});
$node{g}->safe_psql('postgres', 'CREATE EXTENSION uniqueid');
ok(uid_wait_until(30, sub { number_of($node{g}) eq $number{c} }), "g leases c's number while c is frozen");
kill 'CONT', @frozen;
# right after waking, and for a while: never an ID under the old number
my ($made_old, $tries) = (0, 0);
my $until = time + 3;
while (time < $until)
{
	my ($rc, $out) = $c->psql('postgres', 'SELECT id_node(next_snowflake())');
	$tries++;
	$made_old++ if $rc == 0 && $out eq $number{c};
	usleep(50_000);
}
is($made_old, 0, "woken, c makes no ID under its old number ($tries tries)");
like(uid_error($c, 'SELECT next_id()'), qr/ERROR:  55000: cannot generate shardid values: this server holds no node number/,
	'and holds none, as no other number of its range is free');
for my $f (sort keys %family)
{
	my ($gen) = @{ $family{$f} };
	my $above = $f eq 'spreadid' ? "id_time($gen) > '$last_c{$f}'" : "$gen > '$last_c{$f}'::$f";
	is($node{g}->safe_psql('postgres', "SELECT bool_and($above) FROM generate_series(1, 2000)"),
		't', "every $f g makes under c's number is above c's last");
}

# a clean shutdown gives the number back, its horizon down to the server's
# durable one (below the recorded one, which covers a lease more); c, which
# would claim it back at once, is stopped first
$c->stop('fast');
my $recorded = $reg->safe_psql('registry', "SELECT horizon FROM uniqueid_catalog.uniqueid_node_claims WHERE number = $number{c}");
$node{g}->stop('fast');
is( $reg->safe_psql('registry',
		"SELECT lease_until = '-infinity' AND horizon < '$recorded' FROM uniqueid_catalog.uniqueid_node_claims WHERE number = $number{c}"),
	't',
	'a clean shutdown gives the number back, with a lower horizon')
  or diag "recorded $recorded, after: "
  . $reg->safe_psql('registry', "SELECT lease_until, horizon, previous_horizon FROM uniqueid_catalog.uniqueid_node_claims WHERE number = $number{c}");

# A server that takes a number over waits, under a synchronous standby that
# never answers, to make the previous holder's horizon durable (holding the
# horizon's lock, as a backend would): it holds no number meanwhile, and a
# fast shutdown ends the wait.  h waits for number 5, which the winner of
# the race gives back (the loser, which would take it, stopped first).
$node{h} = member('h', '5', allows_streaming => 1);
$node{h}->append_conf('postgresql.conf', "synchronous_standby_names = 'nosuch'");
start_on_clock($node{h});
$node{$loser}->stop('fast');
# (an ID made, so that the horizon given back is above the start of time)
$node{$holders[0]}->safe_psql('postgres', 'SELECT next_snowflake()');
$node{$holders[0]}->stop('fast');
ok( uid_wait_until(30, sub {
		$reg->safe_psql('registry', 'SELECT holder_name FROM uniqueid_catalog.uniqueid_node_claims WHERE number = 5') eq 'h' }),
	'h claims number 5 once it is given back');
usleep(1e6 * $lease);
is($node{h}->safe_psql('postgres', 'SHOW uniqueid.node_leased'), 'none',
	'but holds no number while its horizon waits for the standby');
my $t0 = time;
$node{h}->stop('fast');
note sprintf('h stopped in %.1f s', time - $t0);
like(slurp_file($node{h}->logfile), qr/canceling the wait for synchronous replication/,
	'a fast shutdown ends the wait (the server stopped)');

$_->stop('fast') for grep { $_->{_pid} } values %node;
$reg->stop('fast');
done_testing();
