# An adopted shard's floor stays with the shard.  Shard 5 is adopted from a
# last ID 58 minutes ahead of this server's clock; its IDs stay above that
# ID, and every other generator stays within the horizon's lease (1 s) of
# the clock: right after the adoption, after a clean restart, after a crash,
# and on a standby promoted after the primary's crash, which learned the
# shard's horizon from the WAL alone.  Each fault comes more than a lease
# after the server last started: the lease (durability.md) is what a server
# with a right clock may run ahead of it after a restart, and a restart
# within the lease adds to the lead the server came back with.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = uid_node('primary', allows_streaming => 1,
	conf => [ "uniqueid.shards = '0-15'", 'uniqueid.node = 3' ]);
uid_on_clock($primary, sub { $primary->start });
$primary->safe_psql('postgres', q{
	CREATE EXTENSION uniqueid;
	CREATE TABLE s5 (id shardid PRIMARY KEY);
	SELECT next_id(1), next_uuid7()});
# the standby is made before the adoption: it learns of it from the WAL only
$primary->backup('base');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'base', has_streaming => 1);
uid_on_clock($standby, sub { $standby->start });

my $last = $primary->safe_psql('postgres',
	q{SELECT make_shardid(now() + interval '58 min', 5, 100)});
$primary->safe_psql('postgres', "SELECT shard_adopt(5, '$last')");
$primary->safe_psql('postgres', 'INSERT INTO s5 SELECT next_id(5) FROM generate_series(1, 10000)');
is($primary->safe_psql('postgres', "SELECT min(id) > '$last' FROM s5"), 't',
	'the adopted shard issues IDs above the last one adopted');
like(slurp_file($primary->data_dir . '/uniqueid.horizon'), qr/^shard 5 \d+$/m,
	"the shard's own horizon is in the state file");

# The generators other than shard 5's, and how far each one's ID is ahead of
# the clock read just after it; the names of those more than the lease ahead.
my $others = q{
	SELECT coalesce(string_agg(g || ' ' || (t - clock_timestamp()), ', '), '')
	FROM (VALUES ('next_id(1)', id_time(next_id(1))), ('next_id()', id_time(next_id())),
		('next_snowflake', id_time(next_snowflake())), ('next_sonyflake', id_time(next_sonyflake())),
		('next_shortid', id_time(next_shortid())), ('next_sno', id_time(next_sno())),
		('next_objectid', id_time(next_objectid())), ('next_uuid7', id_time(next_uuid7()))) v(g, t)
	WHERE t > clock_timestamp() + interval '1 s'};

# every other generator near the clock; shard 5 above everything it issued,
# 10,000 more of its IDs stored
sub check
{
	my ($node, $when) = @_;
	is($node->safe_psql('postgres', $others), '',
		"$when: every other generator within the lease of the clock");
	is($node->safe_psql('postgres', q{
		WITH n AS (INSERT INTO s5 SELECT next_id(5) FROM generate_series(1, 10000) RETURNING id)
		SELECT (SELECT min(id) FROM n) > (SELECT max(id) FROM s5)}), 't',
		"$when: shard 5 goes on above every ID it issued");
	return;
}

# (each restart once the clock has passed the server's horizon: its floor
# behind the clock)
check($primary, 'after the adoption');
uid_wait_past_horizon($primary) or die "the clock did not pass the horizon\n";
$primary->stop;
uid_on_clock($primary, sub { $primary->start });
check($primary, 'after a clean restart');
uid_wait_past_horizon($primary) or die "the clock did not pass the horizon\n";
uid_kill_all($primary);
uid_on_clock($primary, sub { $primary->start });
check($primary, 'after a crash');
is($primary->safe_psql('postgres', "SELECT count(*), min(id) > '$last' FROM s5"), '40000|t',
	'40,000 IDs of shard 5, all above the adopted one');

# the standby replays the shard's horizon, then is promoted after the
# primary's crash
my $lsn = $primary->safe_psql('postgres', 'SELECT pg_current_wal_lsn()');
ok($standby->poll_query_until('postgres', "SELECT pg_last_wal_replay_lsn() >= '$lsn'"),
	'the standby replayed the WAL');
like(slurp_file($standby->data_dir . '/uniqueid.horizon'), qr/^shard 5 \d+$/m,
	"the standby's state file has the shard's horizon, from its WAL record");
uid_wait_past_horizon($primary) or die "the clock did not pass the horizon\n";
uid_kill_all($primary);
$standby->promote;
check($standby, 'after a promotion');
is($standby->safe_psql('postgres', 'SELECT count(*) FROM s5'), '50000', 'with every ID of shard 5 kept');

$standby->stop;
done_testing();
