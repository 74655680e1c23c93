# The layers of src/ (src/LAYERS): tools/layers.pl builds every file with
# this server's compiler and flags (pg_config, without LTO, at -O0) and checks that
# each #include and each link-time reference points down the map, that no
# part depends on itself through others, and that each header declares
# what its .c offers, and only that.  Every rule it checks is reported here
# as a test of its own, with what breaks it.
use strict;
use warnings FATAL => 'all';
use FindBin;
use Test::More;

# (the server's pg_config: the TAP harness puts its bindir first on PATH)
my $pg_config = $ENV{PG_CONFIG} || 'pg_config';
my $tool = "$FindBin::RealBin/../tools/layers.pl";
my @out = `$^X $tool --pg-config $pg_config 2>&1`;
my $status = $? >> 8;
my ($plan) = map { /^1\.\.(\d+)$/ ? $1 : () } @out;
my (@checks, %diag, $last);
for (@out)
{
	chomp;
	if (/^(not )?ok \d+ - (.*)$/)
	{
		push @checks, [ !defined $1, $2 ];
		$last = $2;
	}
	elsif (/^#\s?(.*)$/ && defined $last)
	{
		push @{ $diag{$last} }, $1;
	}
}
ok(defined $plan && @checks == $plan, 'tools/layers.pl ran every check it planned')
  or diag(join("\n", @out));
for (@checks)
{
	my ($ok, $name) = @$_;
	ok($ok, $name) or diag(join("\n", @{ $diag{$name} // [] }));
}
is($status, (grep { !$_->[0] } @checks) ? 1 : 0, 'tools/layers.pl exits as its checks say');
done_testing();
