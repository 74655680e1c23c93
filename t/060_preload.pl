# Without shared_preload_libraries the types work and every generator
# refuses with object_not_in_prerequisite_state and a hint naming the
# setting.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;

# the last shared_preload_libraries line wins over uid_node's
my $node = uid_node('preload', conf => ["shared_preload_libraries = ''"]);
$node->start;

# nothing on stderr either (but notices, as the old harness's psql hid them)
my ($ret, $out, $err) = $node->psql('postgres', q{
	SET client_min_messages = warning;
	CREATE EXTENSION uniqueid;
	SELECT id_shard(make_shardid(now(), 42, 1)), '11637205501278089'::shardid::timestamptz < now();
});
ok($ret == 0 && $out eq '42|t' && $err eq '',
	'types, constructor and casts work without preloading')
  or diag("got: $out$err");

my $needs = qr/ERROR:  55000: uniqueid must be loaded via shared_preload_libraries/;
$err = uid_error($node, 'SELECT next_id(1)');
like($err, $needs, 'next_id raises 55000 naming shared_preload_libraries');
like($err, qr/HINT:  Add uniqueid to shared_preload_libraries/,
	'with a hint that names the setting');
my @fails = grep { uid_error($node, "SELECT $_") !~ $needs }
  (qw{next_sno() next_snowflake() next_sonyflake() next_shortid() next_spreadid() next_objectid() next_uuid7()},
	qw{next_ulid() next_ksuid() next_rsxid()}, q{next_typeid('user')});
is("@fails", '', 'every other generator raises 55000 too');

done_testing();
