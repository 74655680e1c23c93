# The node registry when it fails (doc/negotiated-nodes.md, "When the
# registry fails"): an answer whose outcome is unknown is never a grant.
#
#   A claim whose commit fails (a deferred constraint trigger raises at
#   COMMIT, after the rows were sent): the server holds no number, and
#   another server that then claims it makes the only IDs under it.
#
#   Renewals whose commits fail: the holder stops making node-bearing IDs
#   by the end of its last good lease less the skew allowance, before the
#   registry hands the number on, and the next holder's IDs are above its.
#
#   A claim whose wait for a synchronous standby is canceled (the registry
#   reports success with only a WARNING: committed locally, maybe not on
#   the standby): no number until a claim commits on the standby too, and
#   that claim, retried with the same token, is the first one's row.
#
#   A holder's clock stepped two days ahead and back, no ID made meanwhile:
#   it keeps its number and makes node-bearing IDs at the right time again
#   (1.7 lost the number, with a false message, and stopped for a day).
#
#   The registry's clock stepped forward past two skew allowances: it hands
#   a number on while its holder may still use it; the IDs stay unique.
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
# was sent, free 3.5 s after the last renewal was written
my ($lease, $skew) = (3, 0.5);

# a registry, its claims failing at commit for the holders and kinds of
# write in table fail
# (sync: with a synchronous standby that never answers, set up with local
# commits)
sub registry
{
	my ($name, $sync) = @_;
	my $reg = uid_node($name,
		conf => [ "uniqueid.shards = ''", $sync ? "synchronous_standby_names = 'nosuch'" : () ],
		$sync ? (allows_streaming => 1) : ());
	uid_on_clock($reg, sub { $reg->start });
	$reg->safe_psql('postgres', 'SET synchronous_commit = local; CREATE EXTENSION uniqueid');
	# a new registry grants no number for its grace period (t/055): this
	# one's, for the longest terms below (c's 30 s lease), is over
	uid_registry_past_grace($reg);
	$reg->safe_psql('postgres', q{
		SET synchronous_commit = local;
		CREATE TABLE fail (holder text, what text);
		CREATE FUNCTION fail_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN
			IF EXISTS (SELECT FROM public.fail f WHERE f.holder = NEW.holder_name
			           AND f.what = CASE WHEN TG_OP = 'UPDATE' AND OLD.token = NEW.token
			                             THEN 'renew' ELSE 'claim' END) THEN
				RAISE EXCEPTION 'the test fails the commit of % for %', TG_OP, NEW.holder_name;
			END IF;
			RETURN NULL;
		END $$;
		CREATE CONSTRAINT TRIGGER fail_at_commit AFTER INSERT OR UPDATE ON uniqueid_catalog.uniqueid_node_claims
			DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION fail_at_commit()});
	return $reg;
}

# a server that leases a number of `range` from `reg`
# (lease: its own, default $lease; clock: its clock's offset at the start, s)
sub member
{
	my ($name, $reg, $range, $its_lease, $clock) = @_;
	$its_lease //= $lease;
	my $node = uid_node($name,
		conf => [
			"cluster_name = '$name'",
			"uniqueid.node_registry = 'host=" . $reg->host . ' port=' . $reg->port . " dbname=postgres'",
			"uniqueid.node_range = '$range'", "uniqueid.node_lease = '${its_lease}s'",
			"uniqueid.node_skew = '${\ ($skew * 1000)}ms'", "uniqueid.shards = ''"
		]);
	uid_clock_set($node, $clock) if $clock;
	uid_on_clock($node, sub { $node->start });
	$node->safe_psql('postgres', 'CREATE EXTENSION uniqueid');
	return $node;
}

sub number_of { $_[0]->safe_psql('postgres', 'SELECT uniqueid_node()') }
sub last_error { $_[0]->safe_psql('postgres', 'SELECT coalesce(last_error, \'\') FROM uniqueid_node_status()') }
sub snowflakes
{
	my ($node, $n) = @_;
	return split /\n/, $node->safe_psql('postgres', "SELECT next_snowflake() FROM generate_series(1, $n)");
}

my $reg = registry('registry');

# ---- a claim whose commit fails ----
$reg->safe_psql('postgres', "INSERT INTO fail VALUES ('a', 'claim')");
my $ha = member('a', $reg, '1');
ok(uid_wait_until(30, sub { last_error($ha) =~ /outcome of uniqueid's query on registry .* is unknown/ }),
	"a's claims fail at commit: their outcome is unknown to a")
  or diag 'last error: ' . last_error($ha);
like(last_error($ha), qr/the test fails the commit of INSERT for a/, 'with the error the registry sent after the rows');
is(number_of($ha), '', 'a holds no number');
is($reg->safe_psql('postgres', 'SELECT count(*) FROM uniqueid_catalog.uniqueid_node_claims'), '0', 'the registry has no claim');
like(uid_error($ha, 'SELECT next_snowflake()'), qr/ERROR:  55000: cannot generate snowflake values: this server holds no node number/,
	'a makes no snowflake');

my $hb = member('b', $reg, '1');
ok(uid_wait_until(30, sub { number_of($hb) eq '1' }), 'b leases number 1');
my @b_ids = snowflakes($hb, 2000);
is(number_of($ha), '', 'a still holds no number');
like(uid_error($ha, 'SELECT next_snowflake()'), qr/ERROR:  55000/, 'nor makes snowflakes while b does');

# b gives the number back; a's claims commit again: a takes it, above b's IDs
$hb->stop('fast');
$reg->safe_psql('postgres', 'DELETE FROM fail');
ok(uid_wait_until(30, sub { number_of($ha) eq '1' }), 'a leases number 1 once its claims commit');
my @a_ids = snowflakes($ha, 2000);
my ($b_max) = sort { $b <=> $a } @b_ids;
is(scalar(grep { $_ <= $b_max } @a_ids), 0, "every snowflake a makes under number 1 is above b's");

# ---- renewals whose commits fail ----
# a's last renewal that commits is sent before the row below is: from then
# on, a stops by that renewal + lease - skew
$reg->safe_psql('postgres', "INSERT INTO fail VALUES ('a', 'renew')");
my $failing = time;
my $deadline = $failing + $lease - $skew;
my $a_max = 0;
while (time < $deadline + 1)
{
	my ($rc, $out) = $ha->psql('postgres', 'SELECT next_snowflake()');
	$a_max = $out if $rc == 0 && $out > $a_max;
	last if $rc != 0 && time >= $deadline;
	usleep(20_000);
}
uid_sleep_until($deadline);
like(uid_error($ha, 'SELECT next_snowflake()'), qr/ERROR:  55000: cannot generate snowflake values: the lease on node number 1/,
	'renewals failing at commit, a stops by the end of its last good lease less the skew allowance');
like(last_error($ha), qr/outcome of uniqueid's query on registry .* is unknown/, 'and says why');
uid_on_clock($hb, sub { $hb->start });
ok(uid_wait_until(30, sub { number_of($hb) eq '1' }), 'b leases number 1 once the registry lets it go');
@b_ids = snowflakes($hb, 2000);
is(scalar(grep { $_ <= $a_max } @b_ids), 0, "every snowflake b makes is above a's last");
like(uid_error($ha, 'SELECT next_snowflake()'), qr/ERROR:  55000/, 'a makes none under number 1 while b holds it');
$reg->safe_psql('postgres', 'DELETE FROM fail');
ok( uid_wait_until(30, sub { slurp_file($ha->logfile) =~ /lost node number 1: registry .* records another claim of it/ }),
	'a learns at its next renewal that another server claimed the number');
$ha->stop('fast');
$hb->stop('fast');

# ---- a claim whose wait for the synchronous standby is canceled ----
# (c's lease is 30 s, so that its worker waits 10 s for an answer: the
# test cancels the wait before that)
my $sync = registry('sync', 1);
my $hc = member('c', $sync, '7', 30);
my $cancel = q{SELECT count(pg_cancel_backend(pid)) FROM pg_stat_activity
	WHERE application_name = 'uniqueid node registry' AND wait_event = 'SyncRep'};
my ($first, $canceled) = ('', 0);
for my $round (1 .. 3)
{
	last unless uid_wait_until(30, sub { $sync->safe_psql('postgres', $cancel) > 0 });
	$canceled++;
	uid_wait_until(10, sub { last_error($hc) =~ /canceling wait for synchronous replication/ });
	$first ||= $sync->safe_psql('postgres', 'SELECT token || \' \' || claimed_at FROM uniqueid_catalog.uniqueid_node_claims WHERE number = 7');
	is(number_of($hc), '', "wait for the standby canceled ($round): the claim committed locally only, c holds no number");
}
is($canceled, 3, 'three claims waited for the standby, and were canceled');
like(last_error($hc), qr/outcome of uniqueid's query on registry .* is unknown: WARNING:  canceling wait for synchronous replication/,
	'c says the outcome is unknown, quoting the WARNING');
isnt($first, '', 'the registry has the claim, committed locally');
$sync->append_conf('postgresql.conf', "synchronous_standby_names = ''");
$sync->reload;
ok(uid_wait_until(30, sub { number_of($hc) eq '7' }), 'c leases number 7 once a claim commits on the standbys too');
is($sync->safe_psql('postgres', 'SELECT token || \' \' || claimed_at FROM uniqueid_catalog.uniqueid_node_claims WHERE number = 7'),
	$first, "which is the first claim's row: retried with its token, the number it claimed");
$hc->stop('fast');
$sync->stop('fast');

# ---- a holder's clock two days ahead for 5 s, no ID made meanwhile ----
my $hd = member('d', $reg, '9');
ok(uid_wait_until(30, sub { number_of($hd) eq '9' }), 'd leases number 9');
snowflakes($hd, 10);
uid_clock_set($hd, 2 * 86400);
sleep 5;
uid_clock_set($hd, 0);
my $right = time;
ok(uid_wait_until(30, sub { $hd->psql('postgres', 'SELECT next_snowflake()') == 0 }),
	'once its clock is right, d makes snowflakes again');
note sprintf('d made snowflakes %.1f s after its clock was right', time - $right);
is($hd->safe_psql('postgres', q{SELECT id_node(s) = 9 AND id_time(s) < now() + interval '1 minute'
	FROM next_snowflake() s}), 't', 'under number 9, at the time of its clock');
is(number_of($hd), '9', 'd kept number 9');
unlike(slurp_file($hd->logfile), qr/lost node number/, 'd never said it lost the number');
$hd->stop('fast');

# ---- a server that starts with its clock two days ahead claims number 9,
# which d held, and makes no ID: it moves its horizon up to d's (the claim's
# previous horizon), leased from there, not from its clock; so neither its
# own horizon nor the one the registry records is days ahead, and once its
# clock is right its IDs are at the right time (before the fix, both
# horizons were a day or two ahead, and so were its IDs) ----
my $hg = member('g', $reg, '9', undef, 2 * 86400);
ok(uid_wait_until(30, sub { number_of($hg) eq '9' }), 'g, its clock two days ahead, leases number 9');
is($reg->safe_psql('postgres', q{SELECT previous_horizon > now() - interval '10 min' FROM uniqueid_catalog.uniqueid_node_claims
	WHERE number = 9}), 't', "the claim's previous horizon is d's");
ok(uid_wait_until(30, sub { $reg->safe_psql('postgres',
	q{SELECT renewed_at > claimed_at FROM uniqueid_catalog.uniqueid_node_claims WHERE number = 9}) eq 't' }), 'g renewed its lease');
my ($g_h, $g_rec) = split /\|/, $hg->safe_psql('postgres', q{SELECT extract(epoch FROM uniqueid_horizon())})
  . '|' . $reg->safe_psql('postgres', q{SELECT extract(epoch FROM horizon) FROM uniqueid_catalog.uniqueid_node_claims WHERE number = 9});
my $real = time;
ok($g_h < $real + 60, sprintf("g's durable horizon is not days ahead (%.1f s past the real clock)", $g_h - $real));
ok($g_rec < $real + 60, sprintf('nor is the horizon the registry records for g at its renewal (%.1f s past the real clock)', $g_rec - $real));
uid_clock_set($hg, 0);
is($hg->safe_psql('postgres', q{SELECT id_node(s) = 9 AND id_time(s) < now() + interval '1 minute'
	FROM next_snowflake() s}), 't', 'once its clock is right, g makes snowflakes at the time of its clock');
$hg->stop('fast');

# ---- the registry's clock steps forward past two skew allowances ----
# e holds number 3 and its renewals fail; f waits for the number.  The
# registry's clock 10 s ahead: it hands the number to f while e may still
# make IDs under it (until its last good lease less the skew).  The IDs
# stay unique: e's never pass the horizon it recorded, f's start above it.
my $he = member('e', $reg, '3');
ok(uid_wait_until(30, sub { number_of($he) eq '3' }), 'e leases number 3');
my $hf = member('f', $reg, '3');
# e makes IDs under the number before the fault (waited for: a busy
# machine may take long to start f, and e's lease may run out meanwhile)
my (%e_ids, @f_ids, $overlap);
ok( uid_wait_until(30, sub {
			my ($rc, $out) = $he->psql('postgres', 'SELECT next_snowflake() FROM generate_series(1, 100)');
			$e_ids{$_} = 1 for $rc == 0 ? split(/\n/, $out) : ();
			$rc == 0 }),
	'e makes IDs under number 3');
$reg->safe_psql('postgres', "INSERT INTO fail VALUES ('e', 'renew')");
uid_clock_set($reg, 10);
my $until = time + $lease + 1;
while (time < $until && !@f_ids)
{
	my ($rc, $out) = $he->psql('postgres', 'SELECT next_snowflake() FROM generate_series(1, 100)');
	$e_ids{$_} = 1 for $rc == 0 ? split(/\n/, $out) : ();
	if (number_of($hf) eq '3')
	{
		@f_ids = snowflakes($hf, 2000);
		($rc, $out) = $he->psql('postgres', 'SELECT next_snowflake() FROM generate_series(1, 100)');
		$overlap = $rc == 0;
		$e_ids{$_} = 1 for $rc == 0 ? split(/\n/, $out) : ();
	}
	usleep(20_000);
}
ok(uid_wait_until(30, sub { number_of($hf) eq '3' }), 'f leases number 3, the registry seeing e\'s lease ended');
push @f_ids, snowflakes($hf, 2000);
note(($overlap ? 'e still made IDs under number 3 after f claimed it' : 'e had stopped before f claimed it')
	. sprintf(' (%d IDs of e)', scalar keys %e_ids));
my ($e_max) = sort { $b <=> $a } keys %e_ids;
is(scalar(grep { $e_ids{$_} } @f_ids), 0, 'no snowflake of f repeats one of e');
is(scalar(grep { $_ <= $e_max } @f_ids), 0, "every snowflake of f is above e's: the horizon, not the lease, keeps them apart");
uid_clock_set($reg, 0);
$he->stop('fast');
$hf->stop('fast');
$reg->stop('fast');
done_testing();
