# A crash loop under load (issue 39): ten crashes in a row, each right
# after a run that keeps a generator at or past its capacity, and each
# followed by a restart at once (the clock set back to where it was at the
# crash, as t/038_crash_loop.pl does).  1.7 and the first fix of 1.8 walked
# the floor a lease (and what the load borrowed) further ahead of the clock
# with every crash: the horizon went a lease past IDs that already led the
# clock, and the next start's IDs borrowed ahead of that floor again.
#
# Design (doc/durability.md, "A crash loop"): while the clock is behind the
# floor, the horizon goes no further past the IDs than the floor carried
# forward by the monotonic clock, and the IDs borrow from the floor's lead
# first (the high-water mark starts below the floor by the lead allowance and
# a second).  So, with a lead allowance A (uniqueid.max_clock_lead, 1 s), the
# lease (1 s) and the family's unit u, every ID and the horizon lead the clock
# by at most A + lease + u after any number of crashes.
#
# - sonyflake, 38,400 IDs a start: a second and a half of its capacity
#   (256 per 10 ms), more than a start can make without waiting;
# - shardid, 1,000,000 IDs a start with next_id(6): 1,024 a millisecond, at
#   or past its capacity on a fast machine (the bound holds below it too);
# - shard 5, adopted 30 s ahead of the clock, one ID before and one after a
#   second's pause each start: its IDs stand in for the clock from its
#   floor on, and its horizon keeps the least margin past them (0.5 s, for
#   a standby) rather than a lease, so that a restart that takes no time
#   adds at most that and its unit (1 ms) to its lead (1.7 added a lease;
#   from the first crash on: the adoption, made while the server ran,
#   leased a second past it once).
#
# And after every crash each family's first ID is above its last one
# before it.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;
use Time::HiRes qw(time usleep);

my $crashes = 10;
my ($allowance, $lease) = (1000, 1000);

my $run_fn = q{
	CREATE FUNCTION run(gen text, typ text, n int, pause float8) RETURNS SETOF text
	LANGUAGE plpgsql AS $$
	DECLARE
		lo text;
		hi text;
		lead float8;
	BEGIN
		EXECUTE format('SELECT min(id)::text, max(id)::text FROM (SELECT %s AS id FROM generate_series(1, %s)) s',
			gen, n) INTO lo, hi;
		IF pause > 0 THEN
			PERFORM pg_sleep(pause);
			EXECUTE format('SELECT (%s)::text', gen) INTO hi;
		END IF;
		EXECUTE format('SELECT extract(epoch FROM id_time(%L::%s) - clock_timestamp()) * 1000', hi, typ) INTO lead;
		RETURN NEXT concat_ws(' ', 'ids', lo, hi, round(lead::numeric, 1));
		RETURN NEXT concat_ws(' ', 'horizon', round(extract(epoch FROM (
			SELECT max(horizon) FROM uniqueid_catalog.uniqueid_durability) - clock_timestamp())::numeric * 1000, 1));
		RETURN NEXT concat_ws(' ', 'clock', extract(epoch FROM clock_timestamp()));
	END $$};

# run => [type, generator, IDs a start, pause (s), unit (ms)]
my %runs = (
	sonyflake => [ 'sonyflake', 'next_sonyflake()', 38400, 0, 10 ],
	shardid => [ 'shardid', 'next_id(6)', 1000000, 0, 1 ],
	adopted => [ 'shardid', 'next_id(5)', 1, 1, 1 ]);
my @runs = sort keys %runs;

my (%node, %sql, %lead, %hlead, %ids);
for my $r (@runs)
{
	my ($type, $gen, $n, $pause) = @{ $runs{$r} };
	$node{$r} = uid_node("load_$r", conf => [ "timezone = 'UTC'", "uniqueid.shards = '0-15'" ]);
	uid_on_clock($node{$r}, sub { $node{$r}->start });
	$node{$r}->safe_psql('postgres', "CREATE EXTENSION uniqueid; $run_fn");
	(my $g = $gen) =~ s/'/''/g;
	$sql{$r} = "SELECT run('$g', '$type', $n, $pause)";
}
# shard 5 from a last ID 30 s ahead of the clock
$node{adopted}->safe_psql('postgres',
	q{SELECT shard_adopt(5, make_shardid(clock_timestamp() + interval '30 s', 5, 100))});

my $started = time;
for my $crash (1 .. $crashes)
{
	my @res = uid_concurrently_on(map { [ $node{$_}, 'postgres', $sql{$_} ] } @runs);
	my %clock;
	for my $r (@runs)
	{
		my $res = shift @res;
		die "crash $crash, $r: $res->{err}" unless $res->{ok};
		for (split /\n/, $res->{out})
		{
			my @w = split / /;
			if ($w[0] eq 'ids')
			{
				push @{ $ids{$r} }, [ $w[1], $w[2] ];
				push @{ $lead{$r} }, $w[3];
			}
			push @{ $hlead{$r} }, $w[1] if $w[0] eq 'horizon';
			$clock{$r} = $w[1] if $w[0] eq 'clock';
		}
	}
	kill 'KILL', map { my $pm = $_->{_pid}; ($pm, map { /(\d+)/ ? $1 : () } `pgrep -P $pm`) } values %node;
	uid_kill_all($_) for values %node;
	for my $r (@runs)
	{
		uid_on_clock($node{$r}, sub { $node{$r}->start });
		uid_clock_set($node{$r}, $clock{$r} - time);
	}
	usleep(2_000);
}
note(sprintf('%d rounds of %d crashes under load in %.0f s', $crashes, scalar @runs, time - $started));

for my $r (qw(sonyflake shardid))
{
	my $bound = $allowance + $lease + $runs{$r}[4];
	note("$r: lead of the last ID over the clock (ms) at each crash: @{ $lead{$r} }");
	note("$r: lead of the horizon (ms) at each crash: @{ $hlead{$r} }");
	my @over = map { "crash " . ($_ + 1) . ": ID $lead{$r}[$_] ms, horizon $hlead{$r}[$_] ms" }
	  grep { $lead{$r}[$_] > $bound || $hlead{$r}[$_] > $bound } 0 .. $crashes - 1;
	is(join('; ', @over), '',
		"$r under load: $crashes crashes, the IDs and the horizon within the allowance + lease + unit "
		  . "($bound ms) of the clock at every crash (first -> last: ID $lead{$r}[0] -> $lead{$r}[-1], "
		  . "horizon $hlead{$r}[0] -> $hlead{$r}[-1])");
}

# the adopted shard: from its first crash on, at most the least margin and a unit (501 ms) a crash more
{
	my @l = @{ $lead{adopted} };
	note("adopted shard 5: lead of its ID (ms) at each crash: @l");
	my @over = map { "start " . ($_ + 1) . ": $l[$_ - 1] -> $l[$_] ms" } grep { $l[$_] > $l[$_ - 1] + 501 } 2 .. $#l;
	is(join('; ', @over), '',
		"a shard adopted 30 s ahead: after its first crash, its lead grows by at most the least margin and its "
		  . "unit (501 ms) a crash ($l[1] -> $l[-1] ms)");
}

my @back;
for my $r (@runs)
{
	my $type = $runs{$r}[0];
	my @p = @{ $ids{$r} };
	for my $i (1 .. $#p)
	{
		my $above = $node{$r}->safe_psql('postgres', "SELECT '$p[$i][0]'::$type > '$p[$i-1][1]'::$type");
		push @back, "$r after crash $i: $p[$i][0] not above $p[$i-1][1]" unless $above eq 't';
	}
}
is(join('; ', @back), '', 'after every crash, each first ID is above the last one before it');

$_->stop for values %node;
done_testing();
