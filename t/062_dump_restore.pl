# pg_dump of a table of shardids restores into a second database with the
# same values, indexes and defaults (plain and custom formats).
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;

my $node = uid_node('dump_restore');
$node->start;
$node->safe_psql('postgres', q{
	CREATE DATABASE uid_dump_src;
	CREATE DATABASE uid_dump_plain;
	CREATE DATABASE uid_dump_custom;
});
$node->safe_psql('uid_dump_src', q{
	CREATE EXTENSION uniqueid;
	CREATE TABLE photos (id shardid PRIMARY KEY DEFAULT next_id(7), at timestamptz);
	CREATE INDEX photos_brin ON photos USING brin (id);
	INSERT INTO photos (at) SELECT now() FROM generate_series(1, 5000);
	INSERT INTO photos VALUES ('0', NULL), ('18446744073709551615', NULL), ('9223372036854775808', NULL);
});
my $sum = q{SELECT count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM photos};
my $want = $node->safe_psql('uid_dump_src', $sum);
my $dir = $node->basedir;

$node->run_log([ 'pg_dump', '-d', 'uid_dump_src', '-f', "$dir/plain.sql" ])
  and $node->run_log(
	[ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', 'uid_dump_plain', '-f', "$dir/plain.sql" ]);
my $got = $node->safe_psql('uid_dump_plain', $sum);
ok($want ne '' && $got eq $want, "plain dump restores the same values ($want)")
  or diag("want $want, got $got");

$node->run_log([ 'pg_dump', '-d', 'uid_dump_src', '-Fc', '-f', "$dir/custom.dump" ])
  and $node->run_log([ 'pg_restore', '-d', 'uid_dump_custom', "$dir/custom.dump" ]);
is($node->safe_psql('uid_dump_custom', $sum), $want, 'custom-format dump restores the same values');
is( $node->safe_psql('uid_dump_custom', 'INSERT INTO photos (at) VALUES (now()) RETURNING id_shard(id)'),
	'7', 'the restored default still generates for shard 7');
is($node->safe_psql('uid_dump_custom', q{SELECT count(*) FROM pg_indexes WHERE tablename = 'photos'}),
	'2', 'primary key and BRIN index restored');

done_testing();
