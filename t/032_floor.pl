# The floor set at startup protects every generator for the whole run.
# IDs are made, the server restarts, one generator is used once the clock has
# passed the floor, then the test sets the server's clock back 30 s, and only
# then two generators are used for the first time since the restart: their
# IDs are still above every ID made before the restart.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;

# the first run on the real clock
my $node = uid_node('floor');
$node->start;

# sql(SQL): its result, in a new backend
sub sql { return $node->safe_psql('postgres', $_[0]); }

sql(q{
	CREATE EXTENSION uniqueid;
	CREATE TABLE before (sf snowflake, sh shardid);
	INSERT INTO before SELECT next_snowflake(), next_id(2) FROM generate_series(1, 5000);
});
$node->stop;
uid_on_clock($node, sub { $node->start });
# once the clock, still right, has passed the horizon (the lease, 1 s, ran
# out): shard 1 passes the floor
uid_wait_past_horizon($node) or die "the clock did not pass the horizon\n";
is(sql("SELECT id_time(next_id(1)) >= clock_timestamp() - interval '1 s'"), 't',
	'after the restart the clock has passed the floor, and next_id(1) follows the clock');
# (30 s behind the last ID made before the restart, however long the
# steps since took on a busy machine)
my $since = sql(q{SELECT extract(epoch FROM clock_timestamp() - (SELECT max(id_time(sf)) FROM before))});
uid_clock_set($node, -30 - $since);
# wait (at most 10 s) for the server to read its clock again
my $stepped_back = 'SELECT clock_timestamp() < (SELECT max(id_time(sf)) FROM before)';
uid_wait_until(10, sub { sql($stepped_back) eq 't' });
is(sql($stepped_back), 't', 'then the clock stepped back behind the IDs made before the restart');
is(sql('SELECT next_snowflake() > (SELECT max(sf) FROM before)'), 't',
	'the first next_snowflake since the restart is above every earlier snowflake');
is(sql('SELECT next_id(2) > (SELECT max(sh) FROM before)'), 't',
	'the first next_id(2) since the restart is above every earlier ID of shard 2');

done_testing();
