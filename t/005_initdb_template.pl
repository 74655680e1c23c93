# The harness's initdb template (t/UniqueidTest.pm): where test/run.sh sets
# UID_INITDB_TEMPLATES, clusters are copies of one initdb, each with a
# system identifier of its own, which the registry tells holders apart by;
# the copies start, and pg_control and the WAL agree on it.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use PostgreSQL::Test::Utils;
use Test::More;

plan skip_all => 'UID_INITDB_TEMPLATES is not set: every cluster runs initdb'
  unless $ENV{UID_INITDB_TEMPLATES};

my @nodes = map { uid_node("tpl$_") } 1 .. 3;
my %seen;
for my $node (@nodes)
{
	$node->start;
	my $sysid = $node->safe_psql('postgres', 'SELECT system_identifier FROM pg_control_system()');
	my ($out) = run_command([ 'pg_controldata', '-D', $node->data_dir ]);
	my ($ctl) = $out =~ /^Database system identifier:\s+(\d+)$/m;
	is($ctl, $sysid, $node->name . ": pg_controldata reads the identifier the server reports ($sysid)");
	ok(!$seen{$sysid}++, $node->name . ": no other cluster has it");
	# a checkpoint and a switch to a new segment: the WAL names it too
	$node->safe_psql('postgres', 'CREATE TABLE t AS SELECT 1 AS a; CHECKPOINT; SELECT pg_switch_wal(); CHECKPOINT');
	$node->restart;
	is($node->safe_psql('postgres', 'SELECT a FROM t'), '1', $node->name . ': restarts, recovering its WAL');
}
# (this file's log: what the framework's init did, three times)
my $log = slurp_file("$PostgreSQL::Test::Utils::log_path/regress_log_005_initdb_template");
my $copies = () = $log =~ /copying the initdb template/g;
is($copies, 3, 'the three clusters are copies of the template');
$_->stop for @nodes;
done_testing();
