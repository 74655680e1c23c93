# The unit tests of the pure codecs (test/codec_test.c, test/basen_test.c)
# and of the masks' cipher and text (test/ff1_test.c),
# built by the Makefile without the server.  Each program prints TAP; every
# one of its checks is reported here as a test of its own.
use strict;
use warnings FATAL => 'all';
use FindBin;
use Test::More;

for my $unit (qw(codec_test basen_test ff1_test))
{
	my $bin = "$FindBin::RealBin/../test/$unit";
	ok(-x $bin, "$unit is built (make test/$unit)") or next;
	my @out = `$bin`;
	is($? >> 8, 0, "$unit exits 0");
	my ($plan) = map { /^1\.\.(\d+)$/ ? $1 : () } @out;
	my @checks = grep { /^(not )?ok \d+/ } @out;
	is(scalar(@checks), $plan // -1, "$unit ran every check it planned");
	for (@checks)
	{
		chomp;
		/^(not )?ok \d+ - (.*)$/;
		ok(!defined $1, "$unit: $2");
	}
}
done_testing();
