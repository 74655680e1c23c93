# A registry that forgets (doc/negotiated-nodes.md, "When the registry
# fails"): it must never hand a number out twice, nor let a new holder's
# IDs fall among a forgotten holder's, nor make the holders' lead grow
# with each handover, and every message says what happened.
#
#   A standby of the registry, cloned before the first claim and never
#   replicating after, is promoted once the primary is stopped: it has no
#   claim and no record of its incarnation, yet it grants nothing for the
#   grace period, while the holder that the primary knew still generates.
#
#   A standby that has an older claim but not the holder's is promoted
#   with the holder down; the next holder's clock is 20 s behind: its IDs
#   still start above every ID the forgotten holder made (the number's
#   previous horizon is not known, so it is the end of the grace period).
#
#   Two servers take a number from each other, crash after crash: the
#   lead of the new holder's IDs over its clock stays within the lease,
#   the lead allowance and a unit, whatever the number of handovers.
#
#   The registry is down for longer than a lease, then restarted: the
#   holder says that the registry may have forgotten claims since its lease
#   ran out (not that another server claimed its number), and claims the
#   number anew when the grace period ends.
#
#   A holder frozen past its lease, its number taken meanwhile by one the
#   registry then forgets: woken, it claims the number anew, above the
#   registry's floor, rather than renewing its old claim.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);

# short leases: renewed every second, fenced 2.5 s after the last renewal
# was sent, free 3.5 s after the last renewal was written; a grace period
# of the lease, the lead allowance, a unit and the skew (5.5 s)
my ($lease, $skew) = (3, 0.5);

sub registry
{
	my ($name, %init) = @_;
	my $reg = uid_node($name, conf => ["uniqueid.shards = ''"], %init);
	$reg->start;
	$reg->safe_psql('postgres', 'CREATE EXTENSION uniqueid');
	return $reg;
}

# a standby of reg from a base backup taken now (not started)
sub standby_of
{
	my ($reg, $name) = @_;
	$reg->backup("${name}_backup");
	my $std = PostgreSQL::Test::Cluster->new($name);
	$std->init_from_backup($reg, "${name}_backup", has_streaming => 1);
	return $std;
}

# a server that leases a number of `range` from the registries (the first
# of them that is a primary), on a clock the test moves
sub member
{
	my ($name, $range, $regs, %opt) = @_;
	my $node = uid_node($name,
		conf => [
			"cluster_name = '$name'",
			"uniqueid.node_registry = 'host=" . join(',', map { $_->host } @$regs)
			  . ' port=' . join(',', map { $_->port } @$regs)
			  . " dbname=postgres target_session_attrs=read-write'",
			"uniqueid.node_range = '$range'", "uniqueid.node_lease = '${lease}s'",
			"uniqueid.node_skew = '${\ ($skew * 1000)}ms'", "uniqueid.shards = ''",
			@{ $opt{conf} // [] }
		]);
	uid_clock_set($node, $opt{clock}) if $opt{clock};
	uid_on_clock($node, sub { $node->start });
	$node->safe_psql('postgres', 'CREATE EXTENSION uniqueid');
	return $node;
}

sub number_of { $_[0]->safe_psql('postgres', 'SELECT uniqueid_node()') }

# up to n snowflakes of node (none when it refuses)
sub snowflakes
{
	my ($node, $n) = @_;
	my ($rc, $out) = $node->psql('postgres', "SELECT next_snowflake() FROM generate_series(1, $n)");
	return $rc == 0 ? split(/\n/, $out) : ();
}

# max of a list of snowflakes (as integers)
sub max_of { my $m = 0; for (@_) { $m = $_ if $_ > $m } return $m; }

# the registry's record of one claim renewed after the call: waits for it
sub wait_renewal
{
	my ($reg, $number) = @_;
	my $seen = $reg->safe_psql('postgres', "SELECT renewed_at FROM uniqueid_catalog.uniqueid_node_claims WHERE number = $number");
	return uid_wait_until(30, sub {
		$reg->safe_psql('postgres', "SELECT renewed_at FROM uniqueid_catalog.uniqueid_node_claims WHERE number = $number") ne $seen });
}

# ---- a standby cloned before the first claim, promoted ----
# (each registry's own first grace period, a new registry's, is over: t/059
# and node_registry.sql show it; here the holders' terms, 5 s ahead and
# 0.5 s of skew, or 9 s ahead for p and q below)
my $r1 = registry('r1', allows_streaming => 1);
my $s1 = standby_of($r1, 's1');
uid_registry_past_grace($r1, 'postgres', 5000, 500);
my $a = member('a', '1', [ $r1, $s1 ]);
ok(uid_wait_until(60, sub { number_of($a) eq '1' }), 'a leases number 1 from the registry');
my $c = member('c', '1', [ $r1, $s1 ]);
my @a_ids = snowflakes($a, 1000);
ok(wait_renewal($r1, 1), "a renews its lease");
# the old primary stopped first, as the doc says, then the standby promoted
$r1->stop('immediate');
my $cut = time;
$s1->start;
$s1->promote;
# a makes IDs under its claim until it stops; then a (claiming anew) or c
# takes the number from the promoted standby: every ID of that new claim is
# above every ID of a's first
my (@later, $later_at, $a_stopped);
while (time < $cut + 60)
{
	my @got = snowflakes($a, 200);
	if (!defined $a_stopped)
	{
		push @a_ids, @got;
		$a_stopped = time - $cut unless @got;
	}
	else
	{
		push @later, @got;
	}
	push @later, snowflakes($c, 200);
	$later_at //= time - $cut if @later;
	last if @later >= 2000;
	usleep(10_000);
}
ok(defined $later_at, 'a or c leases number 1 from the promoted standby');
note sprintf('a stopped %.1f s after the cut; number 1 was leased again %.1f s after it, by %s',
	$a_stopped // -1, $later_at // -1, number_of($c) eq '1' ? 'c' : 'a');
my %seen_a = map { $_ => 1 } @a_ids;
is(scalar(grep { $seen_a{$_} } @later), 0, "no snowflake made under the new claim repeats one of a's first");
my $a_max = max_of(@a_ids);
is(scalar(grep { $_ <= $a_max } @later), 0,
	"every snowflake made under the new claim is above a's first: the standby, with no record of its incarnation, granted nothing for the grace period");
my $a_log = slurp_file($a->logfile);
ok($a_log !~ /records another claim/, 'a never says that another server claimed its number');
ok($a_log =~ /lost node number 1: registry .* has no claim of it/, 'a says that the registry has no claim of its number');
$_->stop('fast') for ($a, $c, $s1);

# ---- a standby with an older claim, promoted; the next holder's clock behind ----
my $r2 = registry('r2', allows_streaming => 1);
uid_registry_past_grace($r2, 'postgres', 5000, 500);
my $s2 = standby_of($r2, 's2');
$s2->start;
my $z = member('z', '5', [ $r2, $s2 ]);
ok(uid_wait_until(60, sub { number_of($z) eq '5' }), 'z leases number 5');
ok(uid_wait_until(30, sub { $s2->safe_psql('postgres', 'SELECT count(*) FROM uniqueid_catalog.uniqueid_node_claims') eq '1' }),
	"the standby has z's claim");
$s2->stop('fast');
my $a2 = member('a2', '1', [ $r2, $s2 ]);
ok(uid_wait_until(60, sub { number_of($a2) eq '1' }), 'a2 leases number 1, which the standby never hears of');
my @a2_ids;
for (1 .. 10) { push @a2_ids, snowflakes($a2, 500); usleep(100_000) }
# a2 and the registry's primary go down together
uid_kill_all($a2);
$r2->stop('immediate');
$s2->start;
$s2->promote;
my $c2 = member('c2', '1', [ $r2, $s2 ], clock => -20);
ok(uid_wait_until(60, sub { number_of($c2) eq '1' }), 'c2, its clock 20 s behind, leases number 1 after the grace period');
my @c2_ids = snowflakes($c2, 2000);
my $a2_max = max_of(@a2_ids);
is(scalar(grep { $_ <= $a2_max } @c2_ids), 0,
	"every snowflake of c2 is above a2's: a number whose previous horizon is not known starts at the end of the grace period");
$_->stop('fast') for ($z, $c2, $s2);

# ---- crash after crash, the number taken over each time ----
my $r3 = registry('r3');
uid_registry_past_grace($r3, 'postgres', 9000, 500);
my %h = map { $_ => member("h$_", '1', [$r3], conf => ["uniqueid.max_clock_lead = '5s'"]) } qw(p q);
ok(uid_wait_until(60, sub { grep { number_of($h{$_}) eq '1' } qw(p q) }), 'p or q leases number 1');
my ($holder) = grep { number_of($h{$_}) eq '1' } qw(p q);
my $bound = $lease + 5 + 1;
for my $round (1 .. 4)
{
	my $other = $holder eq 'p' ? 'q' : 'p';
	snowflakes($h{$holder}, 100);
	$h{$holder}->stop('immediate');
	ok(uid_wait_until(60, sub { number_of($h{$other}) eq '1' }), "handover $round: $other takes number 1");
	my $lead = $h{$other}->safe_psql('postgres',
		'SELECT extract(epoch FROM id_time(s) - clock_timestamp()) FROM next_snowflake() s');
	ok($lead <= $bound,
		sprintf('handover %d: the new holder leads its clock by %.2f s, within the lease, lead allowance and unit (%d s)',
			$round, $lead, $bound));
	uid_on_clock($h{$holder}, sub { $h{$holder}->start });
	$holder = $other;
}
$_->stop('fast') for values %h;

# ---- the registry down for longer than a lease, then restarted ----
my $d = member('d', '2', [$r3]);
ok(uid_wait_until(60, sub { number_of($d) eq '2' }), 'd leases number 2');
snowflakes($d, 100);
$r3->stop('fast');
sleep($lease + $skew + 1.5);
ok(!snowflakes($d, 1), 'd stops while the registry is down');
# (the grace period counts from the registry's start)
my $back = time;
$r3->start;
ok(uid_wait_until(60, sub { snowflakes($d, 1) }), 'd generates again once the registry is back');
my $resumed = time - $back;
# (the longest terms the registry has seen: p's and q's, with their 5 s
# lead allowance)
my $grace = $r3->safe_psql('postgres', 'SELECT (max_ahead_ms + max_skew_ms) / 1000.0 FROM uniqueid_catalog.uniqueid_node_registry');
note sprintf('d generated again %.1f s after the registry was started (its grace period: %.1f s)', $resumed, $grace);
ok($resumed >= $grace - 0.1, 'not before the grace period ends');
ok($resumed <= $grace + 15, 'but at its end, give or take a retry and a busy machine (15 s)');
is(number_of($d), '2', 'under the same number');
my $log = slurp_file($d->logfile);
ok($log !~ /records another claim/, 'd never says that another server claimed its number');
ok($log =~ /lost node number 2: registry .* renews its lease no more, as it may have forgotten claims .* when the lease was ending or had ended; it is claimed anew after the registry's grace period, which ends at/,
	'd says that the registry may have forgotten claims, and when its grace period ends');
$d->stop('fast');
$r3->stop('fast');

# ---- a holder frozen past its lease, its number taken meanwhile by a
# holder the registry then forgets (a failover to a standby that has only
# the frozen holder's claim): woken, the frozen holder must not take the
# number back by renewing its old claim, whose lease ran out before the
# registry forgot, but claim it anew, above the registry's floor ----
my $r5 = registry('r5', allows_streaming => 1);
uid_registry_past_grace($r5, 'postgres', 5000, 500);
my $s5 = standby_of($r5, 's5');
$s5->start;
my $x = member('x', '1', [ $r5, $s5 ], clock => -20);
ok(uid_wait_until(60, sub { number_of($x) eq '1' }), 'x, its clock 20 s behind, leases number 1');
snowflakes($x, 100);
ok( uid_wait_until(30, sub {
			$s5->safe_psql('postgres', "SELECT count(*) FROM uniqueid_catalog.uniqueid_node_claims WHERE holder_name = 'x'") eq '1' }),
	"the standby has x's claim");
# (the standby lags from now on)
$s5->stop('fast');
my @frozen = ($x->{_pid}, map { /(\d+)/ ? $1 : () } `pgrep -P $x->{_pid}`);
kill 'STOP', @frozen;
my $y = member('y', '1', [ $r5, $s5 ]);
ok(uid_wait_until(60, sub { number_of($y) eq '1' }), 'y leases number 1 while x is frozen');
my @y_ids;
for (1 .. 10) { push @y_ids, snowflakes($y, 500); usleep(100_000) }
uid_kill_all($y);
$r5->stop('immediate');
$s5->start;
$s5->promote;
kill 'CONT', @frozen;
my @x_ids;
ok(uid_wait_until(60, sub { push @x_ids, snowflakes($x, 500); @x_ids > 0 }), 'woken, x generates again');
push @x_ids, snowflakes($x, 1000);
my $y_max = max_of(@y_ids);
is(scalar(grep { $_ <= $y_max } @x_ids), 0,
	"every snowflake x makes is above y's: x claimed the number anew, above the registry's floor, rather than renewing its lease that ran out before the registry forgot");
$_->stop('fast') for ($x, $s5);
done_testing();
