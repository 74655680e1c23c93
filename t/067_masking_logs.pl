# The keys of doc/masking.md's recommended setup stay out of the server's
# log and statistics, as the document promises ("With the wrapper, no
# statement text ever holds a key"), on a server that logs everything a
# careful operator might turn on: every statement, the statement of every
# error, auto_explain's plans of nested statements with their output
# columns, and pg_stat_statements tracking nested statements.  The setup,
# the application's calls and the rotation are the document's own blocks,
# run word for word; the application also makes errors inside the
# wrappers.  Then every key of the table is looked for, in hex, in the log
# and in pg_stat_statements.
#
# Also: the document's masking.rotate() refuses, rather than spinning until
# a timeout, once every symbol of the alphabet is a kept key's.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;
use PostgreSQL::Test::Utils;

my $node = uid_node(
	'masking_logs',
	conf => [
		"shared_preload_libraries = 'uniqueid, pg_stat_statements, auto_explain'",
		"pg_stat_statements.track = all",
		"log_statement = 'all'",
		"log_min_error_statement = error",
		"auto_explain.log_min_duration = 0",
		"auto_explain.log_nested_statements = on",
		"auto_explain.log_verbose = on",
	]);
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION uniqueid; CREATE EXTENSION pg_stat_statements');

# the document's sql blocks, in order
my $doc = slurp_file("$FindBin::RealBin/../doc/masking.md");
my @blocks = $doc =~ /^```sql\n(.*?)^```/msg;
my ($setup) = grep { /CREATE TABLE masking\.keys/ } @blocks;
my ($app) = grep { /SET ROLE masking_app/ } @blocks;
my ($rotation) = grep { /masking\.rotate\(\) IS NOT NULL/ } @blocks;
ok(defined $setup && defined $app && defined $rotation, "doc/masking.md's setup, application and rotation blocks found");

my $log_start = -s $node->logfile;
$node->safe_psql('postgres', $setup);
# (the application's block shows an error: it runs without stopping at it)
$node->psql('postgres', $app);
$node->safe_psql('postgres', $rotation);
# errors inside the wrappers, as the application's role
for my $code ('x', 'AAAAAAAAAAAAAAA', 'A=AAAAAAAAAAA', 'A___________')
{
	$node->psql('postgres', "SET ROLE masking_app; SELECT masking.unmask('$code')");
}
is($node->safe_psql('postgres', 'SELECT count(*) FROM masking.keys'), '2', 'two keys kept after the rotation');

my @keys = split /\n/, $node->safe_psql('postgres', q{SELECT encode(key, 'hex') FROM masking.keys});
my $log = slurp_file($node->logfile, $log_start);
my $stats = $node->safe_psql('postgres', 'SELECT string_agg(query, E\'\n\') FROM pg_stat_statements');
for my $i (0 .. $#keys)
{
	my $k = $keys[$i];
	ok(index(lc $log, $k) < 0, "key " . ($i + 1) . " is not in the server log")
	  or diag(join "\n", grep { index(lc $_, $k) >= 0 } split /\n/, $log);
	ok(index(lc $stats, $k) < 0, "key " . ($i + 1) . " is not in pg_stat_statements");
}

# every base64url symbol a kept key's: rotate() must refuse, not loop
$node->safe_psql(
	'postgres', q{
INSERT INTO masking.keys
    SELECT DISTINCT ON (symbol) symbol, k, false
    FROM (SELECT id_mask_key_symbol(k) AS symbol, k FROM (SELECT gen_random_bytes(32) AS k FROM generate_series(1, 5000)) s) s
ON CONFLICT (symbol) DO NOTHING});
is($node->safe_psql('postgres', 'SELECT count(DISTINCT symbol) FROM masking.keys'), '64', 'every symbol taken');
my ($ret, $out, $err) =
  $node->psql('postgres', "\\set VERBOSITY verbose\nSET statement_timeout = '20s';\nSELECT masking.rotate();");
isnt($ret, 0, 'rotate() with every symbol taken fails');
unlike($err, qr/canceling statement due to statement timeout/, 'rotate() refuses by itself, without waiting for a timeout');
like($err, qr/ERROR:  54000: every key symbol is taken/, 'rotate() says every symbol is taken, with SQLSTATE 54000');
like($err, qr/HINT:  Delete an old key/, 'rotate() hints at deleting an old key');
is($node->safe_psql('postgres', 'SELECT count(*) FROM masking.keys WHERE current'), '1', 'the refused rotation left the current key current');

$node->stop;
done_testing();
