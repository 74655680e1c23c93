# The horizon's state file cannot be written: a real failure, not a mock
# (a directory stands where the file's temporary copy is written, so
# creating it fails with EISDIR).  Generators go on below the durable
# horizon, then, once an ID would need it advanced, raise that error and
# issue nothing.  After the fault is cleared and the server restarts with its
# clock 30 s behind, no ID repeats or sorts below one issued before.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;

my $node = uid_node('horizon_fault');
uid_on_clock($node, sub { $node->start });
my $pgdata = $node->data_dir;
sub sql { return $node->safe_psql('postgres', $_[0]); }

sql(q{CREATE EXTENSION uniqueid; CREATE TABLE got (k serial, id shardid, u uuid)});
sql(q{INSERT INTO got (id, u) SELECT next_id(2), next_uuid7() FROM generate_series(1, 1000)});
ok(-f "$pgdata/uniqueid.horizon", 'the horizon is in its state file');

# the fault: the state file's temporary copy cannot be created
mkdir "$pgdata/uniqueid.horizon.tmp" or die "cannot make the obstacle: $!";

# generate, a statement at a time, until the horizon must move (its lease is
# 1 s): that statement fails, with the file's error
my ($failed, $err, $batches) = (0, '', 0);
for (1 .. 100)
{
	my ($ret, $out, $e) = $node->psql('postgres',
		q{INSERT INTO got (id, u) SELECT next_id(2), next_uuid7() FROM generate_series(1, 1000); SELECT pg_sleep(0.05)});
	$batches++;
	if ($ret != 0)
	{
		($failed, $err) = (1, $e);
		last;
	}
}
ok($failed, "once the horizon must move, generation fails ($batches statements of 1,000 IDs)");
like($err, qr/could not create file "uniqueid\.horizon\.tmp": Is a directory/,
	'with the error of the state file, named');
my ($ret, $out, $e2) = $node->psql('postgres', 'SELECT next_sno()');
like($e2, qr/could not create file "uniqueid\.horizon\.tmp"/, 'and every other generator fails alike');
my $before = sql('SELECT count(*) FROM got');

# cleared, and a restart 30 s behind
rmdir "$pgdata/uniqueid.horizon.tmp" or die "cannot remove the obstacle: $!";
$node->stop;
uid_clock_set($node, -30);
uid_on_clock($node, sub { $node->start });
sql(q{CREATE TABLE after AS SELECT next_id(2) AS id, next_uuid7() AS u FROM generate_series(1, 10000)});
is(sql(q{SELECT (SELECT min(id) FROM after) > (SELECT max(id) FROM got)
	AND (SELECT u FROM after ORDER BY u LIMIT 1) > (SELECT u FROM got ORDER BY u DESC LIMIT 1)}), 't',
	"after the fault, a restart 30 s behind: every new ID is above the $before issued before");
is(sql(q{SELECT count(*) FROM got g JOIN after a ON a.id = g.id}), 0, 'no ID repeats');

done_testing();
