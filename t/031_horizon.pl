# The durable horizon's lease, and a crash in the middle of generation.
# 1-2. The first ID after startup moves the horizon (read from the state file
#      with pg_read_file) just past it: the end of the ID's millisecond plus
#      the 1 s lease.
# 3.   An ID made within 250 ms of the horizon renews the lease early, though
#      the horizon still covers it: the generator that renews writes while
#      the others go on below the old horizon.
# 4.   An ID past the horizon moves it before the ID is returned.
# 5.   The lease runs from the end of the ID's time unit: for objectid, the
#      end of its second, so that a renewal within one second reaches past
#      the next.
# 6-9. Two clients generate next_id(1) and next_sno() without pause across
#      several leases and renewals; the postmaster and its backends are
#      killed with SIGKILL in the middle; the server restarts with its clock
#      30 s behind. The horizon it recovers lies past every ID the clients
#      received, and every new ID is greater than all of them.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use IPC::Run;
use Test::More;
use Time::HiRes qw(time usleep);

# the first run on the real clock
my $node = uid_node('horizon');
$node->start;
my $dir = $node->basedir;

# sql(SQL): its result, in a new backend
sub sql { return $node->safe_psql('postgres', $_[0]); }

sql('CREATE EXTENSION uniqueid');
# the horizon as the state file has it, and an ID's time, in Unix ms
sql(q{
	CREATE FUNCTION horizon() RETURNS bigint LANGUAGE sql AS $$ SELECT trim(pg_read_file('uniqueid.horizon'))::bigint $$;
	CREATE FUNCTION ms(shardid) RETURNS bigint LANGUAGE sql AS $$ SELECT (extract(epoch FROM id_time($1)) * 1000)::bigint $$;
	CREATE FUNCTION clock_ms() RETURNS bigint LANGUAGE sql AS $$ SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint $$;
});
# one statement: the first ID (and the clock after it), then a wait until
# 240 ms before the horizon, a second ID, a wait until 50 ms past the new
# horizon, and a third ID.  A busy machine may pause the statement for more
# than those 240 ms, and the second ID come past the horizon: then the
# statement runs again (at most 5 times), once the clock is past the horizon
# (its first ID moves the horizon then as the first after startup did).
my ($id1, $h1, $id2, $h2, $id3, $h3, $c1);
for my $try (1 .. 5)
{
	uid_wait_past_horizon($node) or die "the clock did not pass the horizon\n" if $try > 1;
	($id1, $h1, $id2, $h2, $id3, $h3, $c1) = split /\|/, sql(q{
	CREATE TEMP TABLE r (id1 bigint, h1 bigint, id2 bigint, h2 bigint, id3 bigint, h3 bigint, c1 bigint);
	DO $$
	DECLARE v r;
	BEGIN
		v.id1 := ms(next_id(1));
		v.h1 := horizon();
		v.c1 := clock_ms();
		WHILE clock_ms() < v.h1 - 240 LOOP PERFORM pg_sleep(0.01); END LOOP;
		v.id2 := ms(next_id(1));
		v.h2 := horizon();
		WHILE clock_ms() < v.h2 + 50 LOOP PERFORM pg_sleep(0.01); END LOOP;
		v.id3 := ms(next_id(1));
		v.h3 := horizon();
		INSERT INTO r SELECT v.*;
	END $$;
	SELECT * FROM r});
	last if $id2 < $h1;
	note sprintf('try %d: the second ID came %d ms past the horizon, which it was to precede', $try, $id2 - $h1);
}
cmp_ok($id1, '<', $h1, "the first ID ($id1) lies below the horizon ($h1)");
# (the lease runs from the clock when that is later: a busy machine may
# run the write a while after the ID's clock reading, but before c1)
ok($h1 - $id1 >= 1000 && $h1 - 1000 <= ($c1 > $id1 + 1 ? $c1 : $id1 + 1),
	sprintf("the horizon is the end of the ID's millisecond plus the 1 s lease, or the clock at its write plus the lease (+%d ms; clock after it +%d ms)",
		$h1 - $id1, $c1 - $id1));
ok($id2 < $h1 && $h2 - $id2 >= 1000,
	sprintf('an ID %d ms before the horizon renewed the lease (+%d ms; ID %d, horizon before %d, after %d)',
		$h1 - $id2, $h2 - $id2, $id2, $h1, $h2));
ok($id3 >= $h2 && $id3 < $h3,
	sprintf('an ID past the horizon moved it before it was returned (+%d ms; ID %d, horizon before %d, after %d)',
		$h3 - $id3, $id3, $h2, $h3));
# objectid stands for a whole second: its lease runs from the end of it
# (once the clock is past the horizon, so that the objectid moves it)
my ($o_end, $oh) = split /\|/, sql(q{
	CREATE TEMP TABLE r2 (o_end bigint, oh bigint);
	DO $$
	DECLARE v r2;
	BEGIN
		WHILE clock_ms() < horizon() + 50 LOOP PERFORM pg_sleep(0.01); END LOOP;
		v.o_end := (extract(epoch FROM id_time(next_objectid())) * 1000)::bigint + 1000;
		v.oh := horizon();
		INSERT INTO r2 SELECT v.*;
	END $$;
	SELECT * FROM r2});
cmp_ok($oh - $o_end, '>=', 1000,
	"an objectid's second ends " . ($oh - $o_end) . " ms before the horizon (second ends at $o_end, horizon $oh)");

# two clients generating without pause, each printing every ID it receives
my (%client, %timer);
for ([ shard => 'next_id(1)' ], [ sno => 'next_sno()' ])
{
	my ($name, $expr) = @$_;
	$timer{$name} = IPC::Run::timeout(600);
	$client{$name} = IPC::Run::start(
		[ 'yes', "SELECT $expr FROM generate_series(1, 2000);" ], '|',
		[
			$node->installed_command('psql'), '-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1',
			'-d', $node->connstr('postgres')
		],
		'>', "$dir/$name.out", '2>', "$dir/$name.err", $timer{$name});
}
# until each client has received more than 100,000 IDs (2.5 s at least, so
# that the horizon has moved several times), at most 60 s
sub lines { my $n = 0; open my $fh, '<', $_[0] or return 0; $n++ while <$fh>; return $n; }
usleep(2_500_000);
uid_wait_until(60, sub { lines("$dir/shard.out") > 100_001 && lines("$dir/sno.out") > 100_001 });
# the whole server at once, as a power cut would: a backend left running would
# go on generating for its client until it noticed the postmaster's death
my $killed_ms = int(time * 1000);
my $gone = eval { uid_kill_all($node) };
diag($@) unless $gone;
# the clients end when the server goes: give them 30 s
for my $name (sort keys %client)
{
	$timer{$name}->start(30);
	eval { $client{$name}->finish; 1 } or do
	{
		diag("client $name: $@");
		$client{$name}->kill_kill;
	};
}
# the server restarts at once, its clock 30 s behind the kill (the time
# the clients took to end counted: long on a busy machine), so behind the
# last IDs; the files are read after that
uid_clock_set($node, -30 - (time - $killed_ms / 1000));
uid_on_clock($node, sub { $node->start });
my $behind = sql("SELECT clock_ms() < $killed_ms");
# scan(FILE, GREATER): the number of lines of FILE and the greatest of them
sub scan
{
	my ($file, $greater) = @_;
	my ($n, $max) = (0, undef);
	open my $fh, '<', $file or die "cannot read $file: $!";
	while (my $line = <$fh>)
	{
		chomp $line;
		$n++;
		$max = $line if !defined $max || $greater->($line, $max);
	}
	close $fh;
	return ($n, $max // '');
}
# one client per generator: the last line of each file is its greatest ID;
# the search makes sure (shardid's text is its integer, which Perl compares
# exactly; sno's text sorts as the sno does)
my ($n_shard, $max_shard) = scan("$dir/shard.out", sub { $_[0] > $_[1] });
my ($n_sno,   $max_sno)   = scan("$dir/sno.out",   sub { $_[0] gt $_[1] });
ok($gone && $n_shard > 100000 && $n_sno > 100000,
	"the server was killed with SIGKILL while generating, after $n_shard shardids and $n_sno snos were received");
my ($recovered, $max_ms, $sno_ms) = split /\|/, sql(qq{
	SELECT horizon(), ms('$max_shard'), (extract(epoch FROM id_time('$max_sno'::sno)) * 1000)::bigint});
ok($recovered > $max_ms && $recovered > $sno_ms && $behind eq 't',
	"the recovered horizon ($recovered) lies past every ID received ($max_ms, $sno_ms), with the clock 30 s behind ($behind)");
my ($ok_shard, $ok_sno) = split /\|/, sql(qq{
	SELECT min(a) > '$max_shard', min(b) > '$max_sno'
	FROM (SELECT next_id(1) AS a, next_sno() AS b FROM generate_series(1, 50000)) s});
is($ok_shard, 't', 'every next_id after the crash is greater than every one received before');
is($ok_sno,   't', 'every next_sno after the crash is greater than every one received before');

done_testing();
