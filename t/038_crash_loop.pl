# A crash loop (issue 39): a server that crashes right after making one ID
# and restarts at once, twenty times in a row, for each family alone and
# for all of them together.  After every crash:
#
# - every family's new ID is above every ID it made before (no repeat, no
#   step back; objectid's random bytes and ksuid's, rsxid's counters do not
#   order across starts, so their second alone must);
# - the ID's time leads the server's clock by no more than the horizon's
#   lease (1 s) plus the largest time unit of the families in use, and so
#   does the horizon the server comes back with; so the lead does not grow
#   with the number of crashes (1.6 walked a one-second family, and with it
#   the floor of every generator, a second a crash less the restart's time).
#
# "At once": a restart takes no time on the server's clock.  Each server
# runs on test/clockshift.c, and right after each start, before its first
# ID, its clock is set back to what it read at the end of the last call
# before the crash (nothing of uniqueid reads the clock in between), so that
# the result does not depend on how long a restart takes on this machine: a
# restart slower than the walk would hide it.
#
# The clock is read right after each ID is made (and after the horizon):
# the lead measured is at most the lead the ID had when it was made, so the
# bound needs no allowance for the measurement.  The design bound
# (doc/durability.md, "A crash loop"): a restart's floor is the horizon,
# written at most lease + unit ahead of the clock, and the first unit a
# family takes at the floor ends no further ahead than that, or than the
# floor itself was; to get there it waits, at most one unit.
#
# Each run has a server of its own, and the runs go side by side: a round
# makes the IDs of every server at once, cuts the power of all, and starts
# them again (a one-second family waits up to a second a start: twenty
# rounds of that, not twenty per family).
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;
use Time::HiRes qw(time usleep);

my $lease = 1000;
my $crashes = 20;

# family => [type, generator, unit (ms)]
my %fam = (
	shardid => [ 'shardid', 'next_id(6)', 1 ],
	snowflake => [ 'snowflake', 'next_snowflake()', 1 ],
	uuid7 => [ 'uuid', 'next_uuid7()', 1 ],
	ulid => [ 'ulid', 'next_ulid()', 1 ],
	typeid => [ 'typeid', q{next_typeid('user')}, 1 ],
	shortid => [ 'shortid', 'next_shortid()', 1 ],
	spreadid => [ 'spreadid', q{next_spreadid('time')}, 1 ],
	sno => [ 'sno', 'next_sno()', 4 ],
	sonyflake => [ 'sonyflake', 'next_sonyflake()', 10 ],
	objectid => [ 'objectid', 'next_objectid()', 1000 ],
	ksuid => [ 'ksuid', 'next_ksuid()', 1000 ],
	rsxid => [ 'rsxid', 'next_rsxid()', 1000 ]);
# run => its families: sno, sonyflake and the one-second families alone, the
# families of a millisecond (which differ in nothing else) together, and all
my %runs = (
	sno => ['sno'],
	sonyflake => ['sonyflake'],
	objectid => ['objectid'],
	ksuid => ['ksuid'],
	rsxid => ['rsxid'],
	millisecond => [ grep { $fam{$_}[2] == 1 } sort keys %fam ],
	all => [ sort keys %fam ]);
my @runs = qw(sno sonyflake millisecond objectid ksuid rsxid all);

# take(FAMILIES, GENERATORS, TYPES): one ID of each, in turn, and for each a
# line "family id lead": its lead over the clock (ms), read right after it;
# then "horizon - lead", read after all of them, and "clock - SECONDS", the
# clock at the end (Unix time)
my $take_fn = q{
	CREATE FUNCTION take(fams text[], gens text[], types text[]) RETURNS SETOF text
	LANGUAGE plpgsql AS $$
	DECLARE
		v text;
		lead float8;
	BEGIN
		FOR i IN 1 .. array_length(gens, 1) LOOP
			EXECUTE format('SELECT (%s)::text', gens[i]) INTO v;
			EXECUTE format('SELECT extract(epoch FROM id_time(%L::%s) - clock_timestamp()) * 1000', v, types[i])
			  INTO lead;
			RETURN NEXT concat_ws(' ', fams[i], v, round(lead::numeric, 1));
		END LOOP;
		RETURN NEXT concat_ws(' ', 'horizon', '-',
			round(extract(epoch FROM uniqueid_horizon() - clock_timestamp())::numeric * 1000, 1));
		RETURN NEXT concat_ws(' ', 'clock', '-', extract(epoch FROM clock_timestamp()));
	END $$};

my (%node, %take, %lead, %over, %ids);
for my $r (@runs)
{
	my @f = @{ $runs{$r} };
	$node{$r} = uid_node("loop_$r", conf => ["timezone = 'UTC'"]);
	uid_on_clock($node{$r}, sub { $node{$r}->start });
	$node{$r}->safe_psql('postgres', "CREATE EXTENSION uniqueid; $take_fn");
	$take{$r} = sprintf(q{SELECT take(ARRAY[%s], ARRAY[%s], ARRAY[%s])},
		join(', ', map { "'$_'" } @f),
		join(', ', map { (my $g = $fam{$_}[1]) =~ s/'/''/g; "'$g'" } @f),
		join(', ', map { "'$fam{$_}[0]'" } @f));
}
# the bound of a run: the lease and its families' largest unit
sub bound { return $lease + (sort { $b <=> $a } map { $fam{$_}[2] } @{ $runs{ $_[0] } })[0]; }

my $started = time;
for my $crash (1 .. $crashes)
{
	my @res = uid_concurrently_on(map { [ $node{$_}, 'postgres', $take{$_} ] } @runs);
	my %clock;
	for my $r (@runs)
	{
		my $res = shift @res;
		die "crash $crash, $r: $res->{err}" unless $res->{ok};
		for (split /\n/, $res->{out})
		{
			my ($f, $id, $l) = split / /;
			if ($f eq 'clock')
			{
				$clock{$r} = $l;
				next;
			}
			push @{ $ids{$r}{$f} }, $id unless $f eq 'horizon';
			push @{ $lead{$r}{$f} }, $l;
			push @{ $over{$r} }, "crash $crash: $f $l ms" if $l > bound($r);
		}
	}
	# a power cut of every server at once, then each one's processes gone
	kill 'KILL', map { my $pm = $_->{_pid}; ($pm, map { /(\d+)/ ? $1 : () } `pgrep -P $pm`) } values %node;
	uid_kill_all($_) for values %node;
	for my $r (@runs)
	{
		uid_on_clock($node{$r}, sub { $node{$r}->start });
		# the clock where it was at the crash (each process reads it again
		# within a millisecond)
		uid_clock_set($node{$r}, $clock{$r} - time);
	}
	usleep(2_000);
}
note(sprintf('%d rounds of %d crashes in %.0f s', $crashes, scalar @runs, time - $started));

for my $r (@runs)
{
	my @f = (@{ $runs{$r} }, 'horizon');
	note(sprintf('%s, %s: lead over the clock (ms) after each crash: %s', $r, $_, join(', ', @{ $lead{$r}{$_} })))
	  for @f;
	is(join('; ', @{ $over{$r} // [] }), '',
		sprintf('%s: %d crashes, one ID each: every ID, and the horizon, within the lease + %d ms (%d ms) of the '
			  . 'clock after each crash, the last too (first -> last: %s)',
			$r eq 'all' ? 'all families' : $r eq 'millisecond' ? 'the families of a millisecond' : "$r alone",
			$crashes, bound($r) - $lease, bound($r),
			join(', ', map { "$_ $lead{$r}{$_}[0] -> $lead{$r}{$_}[-1]" } @f)));
}

# every family's IDs in the order made, on each server: each above the one
# before it, so above all before it
my $check = $node{all};
$check->safe_psql('postgres', 'CREATE TABLE made (r text, n int, f text, id text)');
for my $r (@runs)
{
	for my $f (@{ $runs{$r} })
	{
		my @v = @{ $ids{$r}{$f} };
		$check->safe_psql('postgres',
			'INSERT INTO made VALUES ' . join(', ', map { "('$r', $_, '$f', '$v[$_]')" } 0 .. $#v));
	}
}
my @back;
for my $f (sort keys %fam)
{
	my $type = $fam{$f}[0];
	my $r = $check->safe_psql('postgres', qq{SELECT count(*) || ' of ' || (SELECT count(*) FROM made WHERE f = '$f') FROM (
		SELECT id::$type <= lag(id::$type) OVER (PARTITION BY r ORDER BY n) AS back
		FROM made WHERE f = '$f') s WHERE back});
	push @back, "$f: $r" unless $r =~ /^0 /;
}
is(join(', ', @back), '', "after every crash, every family's ID is above all it made before (none repeated, none back)");

done_testing();
