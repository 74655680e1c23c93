# The edges of the generators' durable state (issue: "no repeated ID through
# the operations users run", part 3), each a defect found on 1.1:
#
# 1. A state file holding a horizon past objectid's last second (2106): the
#    floor must not wrap objectid's 32-bit seconds (it returned 1976).
# 2. A malformed state file (negative, non-numeric, out of range, a bad
#    shard line, empty): the server refuses to start, naming the file and
#    what it holds.  "-1" used to read as 2^64 - 1 and switch the horizon off.
# 3. Twenty crashes and restarts in a row, one ID after each, the clock
#    behind: the IDs stay within one lease of the first (each restart added
#    a lease).
# 4. sno with a small sequence pool, a quick clean restart, borrowing ahead
#    of the startup floor while the clock passes it: the values stay in
#    order (the borrowed lead was taken for a clock regression, and the tick
#    flipped).
# 5. ulid's very last unit: its slot state is all ones, which is also the
#    mark of a released shard; past it, "no IDs left", not "handed over".
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;
use PostgreSQL::Test::Utils;
use Time::HiRes qw(time usleep);

my $node = uid_node('edges', conf => ["timezone = 'UTC'"]);
my $state = $node->data_dir . '/uniqueid.horizon';
$node->start;
sub sql { return $node->safe_psql('postgres', $_[0]); }
sql('CREATE EXTENSION uniqueid');

# write_state(TEXT): the state file holds TEXT (the server is stopped)
sub write_state
{
	open my $fh, '>', $state or die "cannot write $state: $!";
	print $fh $_[0];
	close $fh;
	return;
}

# 1. objectid past 2106: 2112-01-01 in Unix ms
$node->stop;
write_state("4481452800000\n");
$node->start;
like(uid_error($node, 'SELECT next_objectid()'),
	qr/ERROR:  22008: type objectid has no IDs left after 2106-02-07 06:28:15\+00$/m,
	'a floor in 2112: next_objectid() raises 22008, no ID wrapped to 1976');
like(uid_error($node, 'SELECT next_id(1)'), qr/ERROR:  22008: type shardid has no IDs left/m,
	'a floor in 2112: next_id() raises 22008 too');
is(sql("SELECT id_time(next_uuid7()) >= '2112-01-01'"), 't',
	'a floor in 2112: next_uuid7(), whose range goes on, issues from the floor');

# a shard released where the floor is past its layout's range (2081): the
# layout's last ID, not one wrapped into the past
is(sql(q{SELECT id_time(shard_release(3)) > '2081-01-01'}), 't',
	'a floor in 2112: shard_release() returns the layout\'s last ID, not a wrapped one');

# the state file written back by hand below the IDs made (2024): the
# database's sequence (1.2) still holds the horizon in 2112, and the
# generators stay above it
$node->stop;
write_state("1732000000000\n");
$node->start;
like(uid_error($node, 'SELECT next_id(1)'),
	qr/ERROR:  XX001: sequence "uniqueid_horizon_ms" of database "postgres" holds \d+, more than a day ahead of this server's clock/m,
	'a state file set back by hand: the database\'s sequence, in 2112, stops the generators, and says so');
# (the extension made again: a database without that horizon, for what follows)
sql('DROP EXTENSION uniqueid; CREATE EXTENSION uniqueid');

# a shard named twice in the state file (two files merged by hand): the
# greater horizon holds
$node->stop;
write_state("1732000000000\nshard 5 2524608000000\nshard 5 1732000000000\n");
$node->start;
is(sql(q{SELECT id_time(next_id(5)) >= '2050-01-01'}), 't',
	'a shard named twice in the state file: the greater of its horizons is its floor');
sql('DROP EXTENSION uniqueid; CREATE EXTENSION uniqueid');

# 2. malformed state files: the server does not start, and says why
$node->stop;
my @bad = (
	[ "-1\n",                   'its first line is not a number of milliseconds' ],
	[ "abc\n",                  'its first line is not a number of milliseconds' ],
	[ "1732000000000",          'its first line is not a number of milliseconds' ],
	[ "99999999999999999999\n", 'its first line is not a number of milliseconds' ],
	[ "281474976711657\n",      'the horizon is past the last time of every type' ],
	[ "1732000000000\nshard 9000 1732000000000\n", 'a line names no shard from 0 to 8191' ],
	[ "1732000000000\nshard 5 -3\n", "a shard's horizon is not a number of milliseconds" ],
	[ "1732000000000\n\n", 'a line after the first does not begin with "shard "' ],
	[ '', 'its first line is not a number of milliseconds' ]);
for my $case (@bad)
{
	my ($text, $why) = @$case;
	(my $shown = $text) =~ s/\n/\\n/g;
	write_state($text);
	my $offset = -s $node->logfile;
	my $started = $node->start(fail_ok => 1);
	my $log = slurp_file($node->logfile, $offset);
	ok(!$started, "a state file holding \"$shown\": the server does not start");
	like($log, qr/FATAL:  file "\Q$state\E" does not hold a horizon: \Q$why\E/,
		"... and says the file and why: $why");
	like($log, $text eq '' ? qr/DETAIL:  The file is empty\./ : qr/DETAIL:  The file holds \d+ bytes, beginning "\Q$shown\E"/,
		'... what the file holds');
	like($log, qr/HINT:  It must be a number of milliseconds since 1970/, '... and what to do');
	$node->stop('immediate', fail_ok => 1) if $started;
}

# 3. twenty crashes in a row, one ID after each, with the server's clock
# held 10 s behind the first ID (set again before each restart, so that it
# stays behind however long the restarts take): every restart floors above
# the clock.  The IDs move on by a unit a restart, and never more than the
# lease (1 s) past the first one, and a unit and what each start ran (the
# margin a start's horizon keeps past its ID is at most the time since its
# floor was fixed, within the call that made the ID).
write_state("0\n");
uid_on_clock($node, sub { $node->start });
my $t_first = time;
my $first = sql('SELECT next_id(6)');
# ms: a unit and the call, each start so far
my $ran = 1 + int((time - $t_first) * 1000 + 1);
my (@after, @bound);
for my $i (1 .. 20)
{
	uid_kill_all($node);
	uid_clock_set($node, $t_first - time - 10);
	uid_on_clock($node, sub { $node->start });
	my $t0 = time;
	push @after, sql(qq{SELECT round(extract(epoch FROM id_time(next_id(6)) - id_time('$first'::shardid)) * 1000)});
	push @bound, 1000 + $ran;
	$ran += 1 + int((time - $t0) * 1000 + 1);
}
note('ms past the first ID of the first next_id(6) after each restart: ' . join(', ', @after));
note('bounds: ' . join(', ', @bound));
ok(!(grep { $after[$_] > $bound[$_] } 0 .. $#after),
	'twenty crashes in a row, the clock behind: no ID more than the 1 s lease (and a unit and the call a restart) '
	  . 'past the first (' . (sort { $b <=> $a } @after)[0] . ' ms, bound ' . $bound[-1] . ' ms)');
ok($after[-1] > $after[0], '... and each restart still moved on');
uid_clock_set($node, 0);
$node->stop;
$node->start;

# 4. sno, four sequence numbers per 4 ms unit, a quick clean restart (the
# clock 0.8 s behind the horizon, as the lease leaves it), then 30 batches of
# 200 values 100 ms apart: more than the clock gives, so they borrow ahead of
# the floor, up to the lead; the clock passes the floor meanwhile.  Every
# value sorts above the ones before it, on one tick.
$node->append_conf('postgresql.conf', 'uniqueid.sno_sequence_max = 3');
$node->restart;
sql('CREATE TABLE got (n int, s sno)');
sql('SELECT next_sno()');
$node->stop;
my ($h) = slurp_file($state) =~ /^(\d+)/;
uid_on_clock($node, sub { $node->start });
uid_clock_set($node, ($h - 800) / 1000 - time);
for my $b (0 .. 29)
{
	sql("INSERT INTO got SELECT $b * 200 + n, next_sno() FROM generate_series(1, 200) n");
	usleep(100_000);
}
is(sql('SELECT count(DISTINCT s) || \' \' || (SELECT count(*) FROM (SELECT s <= lag(s) OVER (ORDER BY n) AS back FROM got) b WHERE back) FROM got'),
	'6000 0', 'sno after a quick clean restart, borrowing ahead of the floor: 6,000 values, none out of order');
is(sql('SELECT count(DISTINCT id_tick(s)) FROM got'), '1', '... and the tick never flipped (the clock did not go back)');
uid_clock_set($node, 0);

# 5. ulid's last millisecond (10889-08-02 05:31:50.655 UTC) as the floor:
# its 65,536 sequence numbers, then an error that says so
$node->stop;
write_state("281474976710655\n");
$node->start;
is(sql("SELECT count(DISTINCT u) FROM (SELECT next_ulid() AS u FROM generate_series(1, 65536)) s"), '65536',
	"ulid's last millisecond: 65,536 values");
like(uid_error($node, 'SELECT next_ulid()'),
	qr/ERROR:  22008: type ulid has no IDs left after 10889-08-02 05:31:50.655\+00$/m,
	'past it: no IDs left (its state is all ones, as a released shard\'s is)');

done_testing();
