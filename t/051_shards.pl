# uniqueid.shards on a server that owns shards 0-4095 and 8000-8191 (and
# uniqueid.max_clock_lead at 50 ms): SHOW reads the settings back, next_id
# generates for an owned shard and refuses the others with 22023 naming the
# setting and a hint, and a reload changes what is owned.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;

my $node = uid_node('shards',
	conf => [ "uniqueid.shards = '0-4095,8000-8191'", 'uniqueid.max_clock_lead = 50' ]);
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION uniqueid');

is( $node->safe_psql('postgres',
		"SELECT current_setting('uniqueid.shards'), current_setting('uniqueid.max_clock_lead')"),
	'0-4095,8000-8191|50ms',
	'SHOW reads back uniqueid.shards and uniqueid.max_clock_lead');
is( $node->safe_psql('postgres',
		'SELECT id_shard(next_id(0)), id_shard(next_id(4095)), id_shard(next_id(8000)), id_shard(next_id(8191))'),
	'0|4095|8000|8191',
	'next_id generates for the ends of both owned ranges');

for my $s (4096, 5000)
{
	my $err = uid_error($node, "SELECT next_id($s)");
	ok( $err =~ /22023: shard $s is not owned by this server/
		  && $err =~ /This server's uniqueid\.shards is "0-4095,8000-8191"/
		  && $err =~ /HINT:  Generate IDs for shard $s on the server that owns it/,
		"next_id($s) is refused: 22023, the setting in the detail, a hint")
	  or diag($err);
}

uid_set($node, 'uniqueid.shards', '5000');
is($node->safe_psql('postgres', 'SELECT id_shard(next_id(5000))'),
	'5000', "after a reload to '5000', shard 5000 is owned");
like(uid_error($node, 'SELECT next_id(0)'), qr/shard 0 is not owned by this server/,
	'and shard 0 no longer is');

done_testing();
