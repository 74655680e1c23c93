# Removing the library, as README's "Upgrading and removing" says.  After a
# crash the WAL to replay holds horizon records, so a server started without
# uniqueid in shared_preload_libraries refuses to start (and starts again
# once the library is back).  The documented procedure: a clean shutdown with
# the library still loaded, then remove it and start: the server starts,
# every stored ID reads back, and a generator says it needs the library.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;

my $node = uid_node('remove');
# preload(LIST): sets shared_preload_libraries (the last line of the file wins)
sub preload { $node->append_conf('postgresql.conf', "shared_preload_libraries = '$_[0]'"); }
sub sql     { return $node->safe_psql('postgres', $_[0]); }

$node->start;
sql('CREATE EXTENSION uniqueid; CREATE TABLE t (id shardid PRIMARY KEY, s sno)');
sql('INSERT INTO t SELECT next_id(1), next_sno() FROM generate_series(1, 1000)');
# a checkpoint, then a horizon record after it: the next IDs renew the lease
sql('CHECKPOINT');
uid_wait_renewal($node) or die "the horizon's renewal did not come\n";
sql('INSERT INTO t SELECT next_id(1), next_sno() FROM generate_series(1, 1000)');
ok(uid_kill_all($node), 'the server crashed (SIGKILL) after generating');

preload('');
my $log_at = -s $node->logfile;
if ($node->start(fail_ok => 1))
{
	fail('after a crash the server started without uniqueid');
	$node->stop;
}
else
{
	ok($node->log_contains('resource manager with ID 201 not registered', $log_at),
		'after a crash it refuses to start without uniqueid: resource manager 201 not registered');
}

preload('uniqueid');
ok($node->start(fail_ok => 1) && sql('SELECT count(*) FROM t') eq '2000',
	'with uniqueid back it recovers, and all 2000 rows are there');

# the procedure: a clean shutdown with the library loaded, then remove it
ok($node->stop('fast', fail_ok => 1), 'clean shutdown with uniqueid still loaded');
preload('');
ok($node->start(fail_ok => 1), 'started without uniqueid in shared_preload_libraries');
is( sql('SELECT count(*), count(DISTINCT id), min(id_time(id)) <= max(id_time(id)), count(DISTINCT s) FROM t'),
	'2000|2000|t|2000', 'every stored ID reads back, with its time');
my ($ret, $out, $err) = $node->psql('postgres', 'SELECT next_id(1)');
like($err, qr/uniqueid must be loaded via shared_preload_libraries/,
	'next_id says it needs the library');

done_testing();
