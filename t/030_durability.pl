# No duplicate across a crash or a restart with the clock set back.
# 1. IDs are generated, the postmaster and its processes are killed with
#    SIGKILL, and the server restarts with its clock 5 minutes behind: every new ID
#    of every generator is greater than every ID issued before the crash
#    (objectid included, whose random part changes with each start: its
#    seconds alone must order it).
# 2. A clean restart with the clock 60 s behind: the same.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;

# the first run on the real clock
my $node = uid_node('durability');
$node->start;
my $dir = $node->basedir;

# sql(SQL): its result, in a new backend
sub sql { return $node->safe_psql('postgres', $_[0]); }

sql(q{
	CREATE EXTENSION uniqueid;
	CREATE TABLE got (run int, shard_id shardid, sno_id sno, oid_id objectid);
});
# the other generators, fewer rows each run (sonyflake gives 256 IDs per 10 ms)
sql('CREATE TABLE more (run int, sf snowflake, sy sonyflake, si shortid, sp spreadid, u7 uuid,
	ul ulid, ks ksuid, rx rsxid, ti typeid)');
sub more
{
	sql("INSERT INTO more SELECT $_[0], next_snowflake(), next_sonyflake(), next_shortid(), next_spreadid('time'), next_uuid7(),
		next_ulid(), next_ksuid(), next_rsxid(), next_typeid('user')
		FROM generate_series(1, 5000)");
	return;
}
# more_after(RUN): whether every column of run RUN is above all of the earlier runs
sub more_after
{
	my ($r) = @_;
	return sql(qq{SELECT bool_and(ok) FROM (
		SELECT (SELECT min(sf) FROM more WHERE run = $r) > (SELECT max(sf) FROM more WHERE run < $r) AS ok
		UNION ALL SELECT (SELECT min(sy) FROM more WHERE run = $r) > (SELECT max(sy) FROM more WHERE run < $r)
		UNION ALL SELECT (SELECT min(si) FROM more WHERE run = $r) > (SELECT max(si) FROM more WHERE run < $r)
		UNION ALL SELECT (SELECT min(sp) FROM more WHERE run = $r) > (SELECT max(sp) FROM more WHERE run < $r)
		UNION ALL SELECT (SELECT u7 FROM more WHERE run = $r ORDER BY u7 LIMIT 1) > (SELECT u7 FROM more WHERE run < $r ORDER BY u7 DESC LIMIT 1)
		UNION ALL SELECT (SELECT min(ul) FROM more WHERE run = $r) > (SELECT max(ul) FROM more WHERE run < $r)
		UNION ALL SELECT (SELECT min(ks) FROM more WHERE run = $r) > (SELECT max(ks) FROM more WHERE run < $r)
		UNION ALL SELECT (SELECT min(rx) FROM more WHERE run = $r) > (SELECT max(rx) FROM more WHERE run < $r)
		UNION ALL SELECT (SELECT min(ti) FROM more WHERE run = $r) > (SELECT max(ti) FROM more WHERE run < $r)) s});
}
sub gen { sql("INSERT INTO got SELECT $_[0], next_id(1), next_sno(), next_objectid() FROM generate_series(1, 100000)"); return; }

gen(1);
# a second burst once its IDs renew the horizon, so that it has advanced
# more than once
uid_wait_renewal($node) or die "the horizon's renewal did not come\n";
gen(1);
more(1);
sql("COPY got TO '$dir/run1.copy'");
sql("COPY more TO '$dir/more1.copy'");
ok(eval { uid_kill_all($node) }, 'postmaster and its processes killed with SIGKILL, all gone')
  or diag($@);

uid_clock_set($node, -300);
ok(uid_on_clock($node, sub { $node->start(fail_ok => 1) }),
	'restarted after the crash with the clock 5 minutes behind');
# the table was not flushed before the crash (fsync off, no checkpoint): take the copy
sql("TRUNCATE got; COPY got FROM '$dir/run1.copy'");
sql("TRUNCATE more; COPY more FROM '$dir/more1.copy'");
my $behind = sql("SELECT clock_timestamp() < (SELECT max(id_time(shard_id)) FROM got) - interval '60 s'");
gen(2);
more(2);
my $more2_ok = more_after(2);
my ($ok_shard, $ok_sno, $ok_oid_crash) = split /\|/, sql(q{
	SELECT (SELECT min(shard_id) FROM got WHERE run = 2) > (SELECT max(shard_id) FROM got WHERE run = 1),
		(SELECT min(sno_id) FROM got WHERE run = 2) > (SELECT max(sno_id) FROM got WHERE run = 1),
		(SELECT min(oid_id) FROM got WHERE run = 2) > (SELECT max(oid_id) FROM got WHERE run = 1)});
is($behind, 't', "the restarted server's clock is behind the IDs issued before the crash");
is($ok_shard, 't', 'after the crash every next_id is greater than every earlier one');
is($ok_sno,   't', 'after the crash every next_sno is greater than every earlier one');

sql("CHECKPOINT; COPY got TO '$dir/run2.copy'");
$node->stop;
uid_clock_set($node, -60);
ok(uid_on_clock($node, sub { $node->start(fail_ok => 1) }),
	'clean restart with the clock 60 s behind');
gen(3);
more(3);
my $more3_ok = more_after(3);
my ($ok_shard3, $ok_sno3, $dups, $ok_oid_restart, $total) = split /\|/, sql(q{
	SELECT (SELECT min(shard_id) FROM got WHERE run = 3) > (SELECT max(shard_id) FROM got WHERE run < 3),
		(SELECT min(sno_id) FROM got WHERE run = 3) > (SELECT max(sno_id) FROM got WHERE run < 3),
		(SELECT count(*) - count(DISTINCT shard_id) + count(*) - count(DISTINCT sno_id) + count(*) - count(DISTINCT oid_id) FROM got),
		(SELECT min(oid_id) FROM got WHERE run = 3) > (SELECT max(oid_id) FROM got WHERE run < 3),
		(SELECT count(*) FROM got)});
ok($ok_shard3 eq 't' && $ok_sno3 eq 't',
	"after the clean restart every new ID is greater than every earlier one (shardid: $ok_shard3, sno: $ok_sno3)");
is($dups, '0', "$total IDs of each type over three runs, no duplicate");
is($ok_oid_crash, 't', 'after the crash every next_objectid is greater than every earlier one');
is($ok_oid_restart, 't', 'after the clean restart every next_objectid is greater than every earlier one');
is($more2_ok, 't',
	'after the crash next_snowflake, next_sonyflake, next_shortid, next_spreadid, next_uuid7, next_ulid, next_ksuid, next_rsxid and next_typeid are above all earlier IDs');
is($more3_ok, 't', 'after the clean restart they are above all earlier IDs too');

done_testing();
