# uniqueid.node and uniqueid.cluster in generated IDs, and the node limits of
# the layouts: a server with node 3000 (cluster 9) generates sonyflakes
# (16-bit machine), snos (16-bit partition) and next_id()'s shardids (13-bit
# shard) with it, and refuses
# snowflakes (10-bit node) and spreadids (11-bit generator) with 22023 naming
# the setting.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;

my $node = uid_node('node_settings',
	conf => [ 'uniqueid.node = 3000', 'uniqueid.cluster = 9' ]);
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION uniqueid');

is($node->safe_psql('postgres', 'SELECT id_node(next_sonyflake()), id_partition(next_sno())'),
	'3000|3000', "sonyflake's machine and sno's partition are uniqueid.node");
# next_id() is this server's own shard, whatever uniqueid.shards says
uid_set($node, 'uniqueid.shards', '');
is($node->safe_psql('postgres', 'SELECT id_shard(next_id()), next_id() < next_id()'),
	'3000|t', "next_id() generates for shard 3000, this server's own, with uniqueid.shards empty");

like(uid_error($node, 'SELECT next_snowflake()'),
	qr/22023: uniqueid\.node 3000 does not fit the 10-bit node of type snowflake/,
	'next_snowflake refuses node 3000 (22023)');
like(uid_error($node, 'SELECT next_spreadid()'),
	qr/22023: uniqueid\.node 3000 does not fit the 11-bit generator id of type spreadid/,
	'next_spreadid refuses node 3000 (22023)');

uid_set($node, 'uniqueid.node', '1500');
is($node->safe_psql('postgres', "SELECT id_node(next_spreadid()), id_cluster(next_spreadid('time'))"),
	'1500|9', 'after a reload to node 1500, spreadid carries generator 1500 and cluster 9');

uid_set($node, 'uniqueid.node', '9000');
like(uid_error($node, 'SELECT next_id()'),
	qr/22023: uniqueid\.node 9000 does not fit the 13-bit shard of type shardid/,
	'next_id() refuses node 9000, which is no shard number (22023)');

done_testing();
