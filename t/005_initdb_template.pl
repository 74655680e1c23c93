# The harness's initdb template (t/UniqueidTest.pm): where test/run.sh sets
# UID_INITDB_TEMPLATES, clusters are copies of one initdb per set of
# options, each a cluster of its own: its system identifier (which the
# registry tells holders apart by) and its mock authentication nonce its
# own, pg_control and the WAL agreeing on them, and pg_control otherwise
# what initdb itself writes.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

plan skip_all => 'UID_INITDB_TEMPLATES is not set: every cluster runs initdb'
  unless $ENV{UID_INITDB_TEMPLATES};

# pg_controldata of a cluster, as field => value
sub control
{
	my ($node) = @_;
	my ($out) = run_command([ 'pg_controldata', '-D', $node->data_dir ]);
	return { map { /^([^:]+):\s*(.*)$/ ? ($1, $2) : () } split /\n/, $out };
}

my @nodes = map { uid_node("tpl$_") } 1 .. 3;
# one with another option: a template of its own
my $sums = PostgreSQL::Test::Cluster->new('tplsums');
$sums->init(extra => [ '--encoding=UTF8', '--locale=C.UTF-8', '--data-checksums' ]);
# and one made by initdb itself, with uid_node's options
my $fresh;
{
	local $ENV{UID_INITDB_TEMPLATES};
	$fresh = uid_node('fresh');
}

# (this file's log: what the framework's init did)
my $log = slurp_file("$PostgreSQL::Test::Utils::log_path/regress_log_005_initdb_template");
my $copies = () = $log =~ /copying the initdb template/g;
is($copies, 4, 'four clusters are copies of a template, the one without UID_INITDB_TEMPLATES is not');
my @tpl = grep { -d } glob("$ENV{UID_INITDB_TEMPLATES}/*");
ok(@tpl >= 2, 'another option makes another template (' . scalar(@tpl) . ' there)');
is(control($sums)->{'Data page checksum version'}, '1', 'the copy of the template with --data-checksums has checksums');

my (%sysid, %nonce);
my $want = control($fresh);
my @same = grep {
	!/^(Database system identifier|Mock authentication nonce|pg_control last modified|Time of latest checkpoint)$/
} sort keys %$want;
for my $node (@nodes, $sums)
{
	my $c = control($node);
	my $name = $node->name;
	ok(!$sysid{ $c->{'Database system identifier'} }++, "$name: a system identifier no other copy has");
	ok(!$nonce{ $c->{'Mock authentication nonce'} }++, "$name: a mock authentication nonce no other copy has");
	next if $node == $sums;
	my @differ = grep { ($c->{$_} // '') ne $want->{$_} } @same;
	is("@differ", '', "$name: pg_control as initdb writes it but for the identifier, the nonce and times ("
		  . scalar(@same) . ' fields)');
}
ok(!$sysid{ $want->{'Database system identifier'} } && !$nonce{ $want->{'Mock authentication nonce'} },
	'no copy has the identifier or nonce of a cluster initdb made');

for my $node (@nodes)
{
	$node->start;
	my $sysid = $node->safe_psql('postgres', 'SELECT system_identifier FROM pg_control_system()');
	is($sysid, control($node)->{'Database system identifier'},
		$node->name . ': the server reports the identifier pg_controldata reads (its WAL names it: it started)');
	# a checkpoint and a switch to a new segment, then a crash: recovery
	# reads the WAL the copy began with and what it wrote
	$node->safe_psql('postgres', 'CREATE TABLE t AS SELECT 1 AS a; CHECKPOINT; SELECT pg_switch_wal()');
	$node->safe_psql('postgres', 'INSERT INTO t VALUES (2)');
	$node->stop('immediate');
	$node->start;
	is($node->safe_psql('postgres', 'SELECT sum(a) FROM t'), '3', $node->name . ': recovers after a crash');
}
$_->stop for @nodes;
done_testing();
