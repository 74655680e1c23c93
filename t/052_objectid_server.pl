# The errors of next_objectid() that need a server of their own.  Without
# shared_preload_libraries the type works and the generator refuses with
# 55000 and a hint naming the setting; preloaded but in recovery (a standby
# with no primary) it refuses with 25006; promoted, it generates.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;

# not preloaded (the later line wins); wal_level = replica so that the same
# cluster can later start as a standby
my $node = uid_node('objectid_server',
	conf => [ "shared_preload_libraries = ''", 'wal_level = replica' ]);
$node->start;

my ($ret, $out, $err) = $node->psql('postgres', q{
	CREATE EXTENSION uniqueid;
	SELECT id_counter(make_objectid(now(), 1, 42)), '507c7f79bcf86cd7994f6c0e'::objectid::timestamptz < now()});
is("$out$err", '42|t', 'objectid, its constructor and casts work without preloading');
$err = uid_error($node, 'SELECT next_objectid()');
like($err,
	qr/ERROR:  55000: uniqueid must be loaded via shared_preload_libraries to generate objectid values/,
	'next_objectid raises 55000 naming shared_preload_libraries');
like($err, qr/HINT:  Add uniqueid to shared_preload_libraries/, 'with a hint that names the setting');

# the same cluster, preloaded, restarted as a standby (standby.signal, no primary)
$node->stop;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'uniqueid'");
$node->set_standby_mode;
$node->start;
$err = uid_error($node, 'SELECT next_objectid()');
like($err, qr/ERROR:  25006: cannot generate objectid values during recovery/,
	'next_objectid during recovery raises 25006');
($ret, $out, $err) = $node->psql('postgres',
	q{SELECT id_time('507c7f79bcf86cd7994f6c0e'::objectid) = to_timestamp(1350336377)});
is("$out$err", 't', 'the type reads during recovery');
$node->promote;
($ret, $out, $err) = $node->psql('postgres',
	'SELECT count(DISTINCT id) FROM (SELECT next_objectid() AS id FROM generate_series(1, 1000)) s');
is("$out$err", '1000', 'once promoted, next_objectid generates');

done_testing();
