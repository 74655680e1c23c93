# next_uuid7 on servers that cannot generate: without uniqueid in
# shared_preload_libraries it raises 55000 with a hint naming the setting
# (id_time(uuid) still works), and during recovery it raises 25006.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;

# not preloaded (the later line wins); wal_level = replica so that the same
# cluster can later start as a standby
my $node = uid_node('uuid7_servers',
	conf => [ "shared_preload_libraries = ''", 'wal_level = replica' ]);
$node->start;

my ($ret, $out, $err) = $node->psql('postgres', q{
	SET timezone = 'UTC';
	CREATE EXTENSION uniqueid;
	SELECT id_time('017F22E2-79B0-7CC3-98C4-DC0C0C07398F'::uuid)});
is("$out$err", '2022-02-22 19:22:22+00', 'id_time(uuid) works without preloading');
$err = uid_error($node, 'SELECT next_uuid7()');
like($err,
	qr/ERROR:  55000: uniqueid must be loaded via shared_preload_libraries to generate uuid values/,
	'without preloading next_uuid7 raises 55000 naming shared_preload_libraries');
like($err, qr/HINT:  Add uniqueid to shared_preload_libraries/, 'with a hint that names the setting');

# the same cluster, preloaded, restarted as a standby (standby.signal, no primary)
$node->stop;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'uniqueid'");
$node->set_standby_mode;
$node->start;
($ret, $out, $err) = $node->psql('postgres', 'SELECT pg_is_in_recovery()');
is($out, 't', 'the server is in recovery');
$err = uid_error($node, 'SELECT next_uuid7()');
like($err, qr/ERROR:  25006: cannot generate uuid values during recovery/,
	'during recovery next_uuid7 raises 25006');

done_testing();
