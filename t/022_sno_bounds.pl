# uniqueid.sno_sequence_min/_max, row by row of
# test/vectors/sno_generator_bounds.tsv.  This spec keeps "a pool of at least
# 4 values" (max - min + 1 >= 4, min <= max); where the original library
# differs (it swaps reversed bounds, reads 0/0 as the default, and rejects
# pools of 4 and 5 despite its own message), the test says so.  Then a small
# pool is used in order, a used-up pool moving to the next 4 ms unit.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;

my $node = uid_node('sno_bounds');
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION uniqueid');

# set_bounds(MIN, MAX): both settings, reloaded; returns once a new session
# sees them.
sub set_bounds
{
	my ($min, $max) = @_;
	$node->safe_psql('postgres', qq{
		ALTER SYSTEM SET uniqueid.sno_sequence_min = $min;
		ALTER SYSTEM SET uniqueid.sno_sequence_max = $max;
		SELECT pg_reload_conf();
	});
	$node->poll_query_until('postgres', qq{
		SELECT current_setting('uniqueid.sno_sequence_min') = '$min'
		   AND current_setting('uniqueid.sno_sequence_max') = '$max'})
	  or die "uniqueid.sno_sequence_min/_max = $min/$max not applied\n";
	return;
}

my $tsv = "$FindBin::RealBin/../test/vectors/sno_generator_bounds.tsv";
open my $fh, '<', $tsv or die "cannot read $tsv: $!";
<$fh>;    # the header
while (my $line = <$fh>)
{
	chomp $line;
	next if $line eq '';
	my ($min, $max, $original) = split /\t/, $line;
	set_bounds($min, $max);
	my $want = ($min <= $max && $max - $min + 1 >= 4) ? 'OK' : 'ERROR';
	my ($ret, $out, $err) = $node->psql('postgres', qq{
		SELECT bool_and(id_seq(id) BETWEEN $min AND $max)
		FROM (SELECT next_sno() AS id FROM generate_series(1, 50)) s});
	my $got =
	    ($ret == 0 && $out eq 't' && $err eq '') ? 'OK'
	  : ($err =~ /leave a sequence pool of fewer than 4 values/) ? 'ERROR'
	  :   "unexpected: $out $err";
	my $note = $want ne $original ? " (the original library says $original)" : '';
	is($got, $want, "min $min, max $max: $want$note");
}
close $fh;

# a small pool: 6 values per 4 ms unit, used in order, then the next unit
set_bounds(10, 15);
my ($distinct, $inpool, $back, $perunit) = split /\|/, $node->safe_psql('postgres', q{
	CREATE TEMP TABLE s AS SELECT n, next_sno() AS id FROM generate_series(1, 600) n;
	SELECT count(DISTINCT id), bool_and(id_seq(id) BETWEEN 10 AND 15),
	       (SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS b FROM s) q WHERE b),
	       (SELECT max(c) FROM (SELECT count(*) AS c FROM s GROUP BY id_time(id)) g) FROM s});
is("$distinct $inpool $back", '600 t 0',
	'600 IDs from a pool of 10..15: distinct, in the pool, increasing');
cmp_ok($perunit, '<=', 6,
	'at most 6 IDs per 4 ms unit: a used-up pool moves to the next unit');

done_testing();
