# Streaming replication.  On a standby the generators raise
# read_only_sql_transaction while types and accessors work.  The standby
# learns the primary's horizon from the WAL, so once promoted, with a clock
# 30 s behind the old primary's, its IDs are greater than every ID the old
# primary issued.  A standby without uniqueid preloaded stops with a clear
# message at the first horizon record.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = uid_node('primary', allows_streaming => 1);
$primary->start;
$primary->safe_psql('postgres', q{
	CREATE EXTENSION uniqueid;
	CREATE TABLE got (id shardid, sid sno);
	INSERT INTO got SELECT next_id(1), next_sno()});
$primary->backup('base');

# a streaming standby whose every process reads a clock 30 s behind
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'base', has_streaming => 1);
uid_clock_set($standby, -30);
ok(uid_on_clock($standby, sub { $standby->start(fail_ok => 1) }),
	'standby started, its clock 30 s behind');

# a streaming standby without uniqueid preloaded (the backup has the
# primary's postgresql.conf; the later line wins).  It stops at the first
# horizon record, maybe before it accepts connections: so pg_ctl start may
# fail either way.
my $nopreload = PostgreSQL::Test::Cluster->new('nopreload');
$nopreload->init_from_backup($primary, 'base', has_streaming => 1);
$nopreload->append_conf('postgresql.conf', "shared_preload_libraries = ''");
$nopreload->start(fail_ok => 1);

# IDs on the primary after the base backup, in two bursts so that the
# horizon advances (and is logged) more than once: the second once its IDs
# renew it
$primary->safe_psql('postgres',
	'INSERT INTO got SELECT next_id(1), next_sno() FROM generate_series(1, 100000)');
uid_wait_renewal($primary) or die "the horizon's renewal did not come\n";
$primary->safe_psql('postgres',
	'INSERT INTO got SELECT next_id(1), next_sno() FROM generate_series(1, 100000)');
my $target = $primary->safe_psql('postgres', 'SELECT pg_current_wal_lsn()');
$standby->poll_query_until('postgres', "SELECT pg_last_wal_replay_lsn() >= '$target'");

like(uid_error($standby, 'SELECT next_id(1)'),
	qr/ERROR:  25006: cannot generate shardid values during recovery/,
	'next_id on a standby raises 25006');
like(uid_error($standby, 'SELECT next_sno()'),
	qr/ERROR:  25006: cannot generate sno values during recovery/,
	'next_sno on a standby raises 25006');
my @fails = grep { uid_error($standby, "SELECT next_$_()") !~ /ERROR:  25006: cannot generate/ }
  qw(snowflake sonyflake shortid spreadid objectid uuid7);
is("@fails", '', 'every other generator raises 25006 on the standby too');
my ($ret, $out, $err) =
  $standby->psql('postgres', 'SELECT count(*) FROM got WHERE id_shard(id) = 1');
is($out, '200001', "the standby replayed the primary's IDs and reads them");

# (the standby's clock stepped back by the time since the primary's last
# ID, so that it is 30 s behind that ID now, however long the steps above
# took on a busy machine; its IDs are checked against the clock it read
# while it made them)
my $since = $primary->safe_psql('postgres',
	q{SELECT extract(epoch FROM clock_timestamp() - (SELECT max(id_time(id)) FROM got))});
uid_clock_set($standby, -30 - $since);
$standby->promote;
$primary->stop;
$standby->safe_psql('postgres', 'CREATE TABLE promoted AS
	SELECT next_id(1) AS id, next_sno() AS sid, clock_timestamp() AS at FROM generate_series(1, 100000)');
my ($behind, $ok_shard, $ok_sno) = split /\|/, $standby->safe_psql('postgres', q{SELECT
	(SELECT max(at) FROM promoted) < (SELECT max(id_time(id)) FROM got),
	(SELECT min(id) FROM promoted) > (SELECT max(id) FROM got),
	(SELECT min(sid) FROM promoted) > (SELECT max(sid) FROM got)});
is($behind, 't', "the promoted standby made its IDs with its clock behind the old primary's last ID (30 s when promoted)");
is($ok_shard, 't', "promoted with its clock 30 s behind, every next_id exceeds the old primary's");
is($ok_sno, 't', "and every next_sno exceeds the old primary's");

my $rmgr_msg = qr/resource manager with ID 201 not registered/;
uid_wait_until(30, sub { slurp_file($nopreload->logfile) =~ $rmgr_msg });
my $log = slurp_file($nopreload->logfile);
like($log, $rmgr_msg, 'a standby without uniqueid preloaded stops, naming resource manager 201');
like($log, qr/shared_preload_libraries/, 'and shared_preload_libraries');
# Once its postmaster is gone (it removes its pid file on the way out), let
# the framework know, so that its END does not try to stop it: stop finds no
# server, fails (tolerated) and forgets the postmaster.
uid_wait_until(30, sub { !-e $nopreload->data_dir . '/postmaster.pid' })
  or diag('the standby without uniqueid did not stop');
$nopreload->stop('immediate', fail_ok => 1);

done_testing();
