# next_objectid() and next_uuid7() where a server cannot generate.  Without
# uniqueid in shared_preload_libraries the types work (objectid's
# constructor and casts, id_time(uuid)) and the generators refuse with 55000
# and a hint naming the setting; preloaded but in recovery (a standby with no
# primary) they refuse with 25006 while the types read; promoted, the server
# generates.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;

# not preloaded (the later line wins); wal_level = replica so that the same
# cluster can later start as a standby
my $node = uid_node('no_generation',
	conf => [ "shared_preload_libraries = ''", 'wal_level = replica' ]);
$node->start;

my ($ret, $out, $err) = $node->psql('postgres', q{
	CREATE EXTENSION uniqueid;
	SELECT id_counter(make_objectid(now(), 1, 42)), '507c7f79bcf86cd7994f6c0e'::objectid::timestamptz < now()});
is("$out$err", '42|t', 'objectid, its constructor and casts work without preloading');
($ret, $out, $err) = $node->psql('postgres', q{
	SET timezone = 'UTC';
	SELECT id_time('017F22E2-79B0-7CC3-98C4-DC0C0C07398F'::uuid)});
is("$out$err", '2022-02-22 19:22:22+00', 'id_time(uuid) works without preloading');
for my $g ([ 'objectid', 'next_objectid' ], [ 'uuid', 'next_uuid7' ])
{
	my ($type, $fn) = @$g;
	$err = uid_error($node, "SELECT $fn()");
	like($err,
		qr/ERROR:  55000: uniqueid must be loaded via shared_preload_libraries to generate $type values/,
		"without preloading $fn raises 55000 naming shared_preload_libraries");
	like($err, qr/HINT:  Add uniqueid to shared_preload_libraries/, "$fn: with a hint that names the setting");
}

# the same cluster, preloaded, restarted as a standby (standby.signal, no primary)
$node->stop;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'uniqueid'");
$node->set_standby_mode;
$node->start;
($ret, $out, $err) = $node->psql('postgres', 'SELECT pg_is_in_recovery()');
is($out, 't', 'the server is in recovery');
for my $g ([ 'objectid', 'next_objectid' ], [ 'uuid', 'next_uuid7' ])
{
	my ($type, $fn) = @$g;
	like(uid_error($node, "SELECT $fn()"), qr/ERROR:  25006: cannot generate $type values during recovery/,
		"during recovery $fn raises 25006");
}
($ret, $out, $err) = $node->psql('postgres',
	q{SELECT id_time('507c7f79bcf86cd7994f6c0e'::objectid) = to_timestamp(1350336377)});
is("$out$err", 't', 'the type reads during recovery');
$node->promote;
($ret, $out, $err) = $node->psql('postgres',
	'SELECT count(DISTINCT id) FROM (SELECT next_objectid() AS id FROM generate_series(1, 1000)) s');
is("$out$err", '1000', 'once promoted, next_objectid generates');

done_testing();
