# sno's tick-tock rule on a clock the test sets (test/clockshift.c).
# The server's clock goes back 10 s: IDs continue at the earlier wall-clock
# time with the other tick, no duplicate, no wait.  Then it goes back again,
# into the period the first tick covered, so neither tick can be used at the
# clock's time: the generator waits until the clock is past what the current
# tick has issued, then continues on it; still no duplicate.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;
use Time::HiRes qw(usleep);

my $node = uid_node('sno_clock');
uid_on_clock($node, sub { $node->start });

# sql(SQL): its result, in a new backend
sub sql { return $node->safe_psql('postgres', $_[0]); }

sql(q{
	CREATE EXTENSION uniqueid;
	CREATE TABLE got (phase int, n int, id sno);
	CREATE TABLE took (phase int, t0 timestamptz, took interval);
});

# gen(PHASE): generate 20,000 IDs in a new backend and record how long that
# took by its clock (which does not jump during one statement)
sub gen
{
	my ($phase) = @_;
	sql(qq{DO \$\$ DECLARE t0 timestamptz := clock_timestamp(); BEGIN
		INSERT INTO got SELECT $phase, n, next_sno() FROM generate_series(1, 20000) n;
		INSERT INTO took VALUES ($phase, t0, clock_timestamp() - t0);
	END \$\$});
	return;
}
sub ticks { return sql("SELECT string_agg(DISTINCT id_tick(id)::text, ',') FROM got WHERE phase = $_[0]"); }

# phase 1 on the real clock; phase 2 with the clock 10 s behind (tick 1);
# phase 3 with it further behind: below phase 2's IDs, and below the
# highest time tick 0 issued (phase 1's), so neither tick can be used.
# Each step is made from the last IDs' time, read just before it: the
# statements between take seconds on a busy machine.
gen(1);
my $lag1 = sql(q{SELECT extract(epoch FROM clock_timestamp() - (SELECT max(id_time(id)) FROM got WHERE phase = 1))});
uid_clock_set($node, -10 - $lag1);
usleep(100_000);
gen(2);
my ($took2, $gap2) = split /\|/, sql("SELECT round(extract(epoch FROM took) * 1000),
	round(extract(epoch FROM (SELECT max(id_time(id)) FROM got WHERE phase = 1) - t0) * 1000) FROM took WHERE phase = 2");
my ($ticks1, $ticks2) = (ticks(1), ticks(2));
ok($ticks1 eq '0' && $ticks2 eq '1',
	"after the clock went back the tick flipped (phase 1: $ticks1, phase 2: $ticks2)");
is(sql("SELECT (SELECT max(id_time(id)) FROM got WHERE phase = 2) < (SELECT min(id_time(id)) FROM got WHERE phase = 1)"),
	't', 'IDs continue at the earlier wall-clock time');
is(sql("SELECT count(*) - count(DISTINCT id) FROM got"), '0', 'no duplicate after one regression');
# a wait for the clock would last until it passed phase 1's IDs: $gap2 ms
# from phase 2's start, about 10 s; 20,000 IDs without one take milliseconds
ok($took2 ne q{} && $gap2 > 1000 && $took2 < $gap2 - 100, "the first regression did not wait ($took2 ms, where a wait would take $gap2)");

# (15 s below the last IDs of phases 1 and 2, however long they took)
my $lag = sql(q{SELECT extract(epoch FROM clock_timestamp() - least(
	(SELECT max(id_time(id)) FROM got WHERE phase = 1), (SELECT max(id_time(id)) FROM got WHERE phase = 2)))});
uid_clock_set($node, -10 - $lag1 - $lag - 15);
usleep(100_000);
gen(3);
my $ticks3 = ticks(3);
ok($ticks3 eq '1'
	  && sql("SELECT (SELECT min(id) FROM got WHERE phase = 3) > (SELECT max(id) FROM got WHERE phase = 2)") eq 't',
	"after the second regression IDs continue on tick 1, above the tick's earlier IDs (phase 3: ticks $ticks3)");
# The clock started phase 3 behind the last ID of phase 2: the statement had
# to wait (by its own clock) at least until it got there.
my ($gap, $took3) = split /\|/, sql(q{
	SELECT round(extract(epoch FROM (SELECT max(id_time(id)) FROM got WHERE phase = 2) - t0) * 1000),
		round(extract(epoch FROM took) * 1000)
	FROM took WHERE phase = 3});
$_ //= '' for $gap, $took3;
ok($gap ne '' && $took3 ne '' && $gap > 100 && $took3 >= $gap - 10,
	"it waited for the clock to leave the covered period ($took3 ms for a $gap ms gap)");
is(sql("SELECT count(*) - count(DISTINCT id) FROM got"), '0', '60000 IDs, no duplicate');

done_testing();
