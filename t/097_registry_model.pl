# The model of the node registry's lease protocol (model/registry.pml,
# model/README.md), checked with SPIN by model/check.sh: the NEW rules
# exhaustively (uniqueness, lead and recovery: no error), and each OLD
# rule of the four defects fixed in 1.8 (its counterexample found).  One
# check per model/check.sh --list entry, each its own test; on a failure,
# the end of pan's output.  No server; skips without spin or a C compiler.
# Every command runs under `timeout`.
use strict;
use warnings FATAL => 'all';
use FindBin;
use Test::More;

my $check = "$FindBin::RealBin/../model/check.sh";

sub have { return system("command -v '$_[0]' >/dev/null 2>&1") == 0 }

plan skip_all => 'timeout (coreutils) is not installed' unless have('timeout');
plan skip_all => 'spin is not installed (apt-get install spin): the model is not checked' unless have('spin');
my $cc = $ENV{CC} // 'gcc';
plan skip_all => "no C compiler ($cc): SPIN's verifier is C" unless have($cc);

my @names = grep { /\S/ } map { s/\s+$//r } `timeout 30 bash '$check' --list`;
ok(@names >= 5, 'model/check.sh lists its checks: the new rules and the old rules of four defects')
  or diag("model/check.sh --list: @names");

# (each check: spin and pan built in a temporary directory, pan's search
# bounded by model/check.sh's own timeout; this one bounds the whole)
for my $name (@names)
{
	my $out = `timeout 1200 bash '$check' '$name' 2>&1`;
	my $rc = $?;
	my ($line) = split /\n/, $out // '';
	$line //= "model/check.sh $name printed nothing";
	$line =~ s/^(?:ok|FAIL)\s+//;
	$line =~ s/\s+/ /g;
	ok($rc == 0, "model: $line")
	  or diag($rc >> 8 == 124 ? "model/check.sh $name timed out (1200 s)\n$out" : $out);
}
done_testing();
