# pg_partman on the time inside the ID (doc/partitioning.md): uniqueid's
# floor functions and text decoders as pg_partman's time encoder and
# decoder, for a uuid column filled by next_uuid7() and a text column
# holding ulids; partitions made ahead, rows routed, maintenance adding
# partitions and dropping old ones per retention, the decoder reading the
# bounds back, pruning in the plans; the error pg_partman gives a column of
# uniqueid's own types, and the recipe for them: the ID kept as bigint,
# partitioned by the IDs of one day.
#
# Needs pg_partman 5.2 or later (its time encoders): Debian packages 5.2.4
# for PostgreSQL 17 and 5.5.0 for 18; 4.7.2 for 15 and none for 19, where
# this test skips saying so.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;
use PostgreSQL::Test::Utils;
use POSIX ();

my $node = uid_node('partman', conf => ['timezone = UTC']);
$node->start;
my $version = $node->safe_psql('postgres',
	"SELECT max(version COLLATE \"C\") FROM pg_available_extension_versions WHERE name = 'pg_partman'");
my ($major, $minor) = $version =~ /^(\d+)\.(\d+)/;
if (!defined $major || $major < 5 || ($major == 5 && $minor < 2))
{
	$node->stop;
	plan skip_all => 'pg_partman 5.2 or later is not installed for this server ('
	  . ($version ne '' ? "it has $version, " : 'none; ')
	  . 'time encoders came in 5.2: Debian packages 5.2.4 for PostgreSQL 17, 5.5.0 for 18)';
}

sub sql { return $node->safe_psql('postgres', $_[0]) }

# The partitions are days (from 00:00 UTC, and shardid's days of IDs from
# 21:07:01.721 UTC) that pg_partman computes from its own now(), and the
# checks from theirs: the test starts at least 90 s clear of both
# boundaries (waiting, at most 90 s, when it is closer), and takes seconds.
my $since_midnight = sql(q{SELECT extract(epoch FROM now() - date_trunc('day', now()))});
for my $boundary (86400, 76021.721)
{
	my $left = POSIX::fmod($boundary - $since_midnight + 86400, 86400);
	if ($left < 90)
	{
		note sprintf('waiting %.1f s to start clear of a day boundary', $left + 1);
		sleep(int($left) + 2);
	}
}
sub rows { return [ map { [ split /\|/, $_, -1 ] } grep { $_ ne '' } split /\n/, sql($_[0]) ] }

sql(q{CREATE EXTENSION uniqueid; CREATE SCHEMA partman; CREATE EXTENSION pg_partman SCHEMA partman});
note "pg_partman " . sql("SELECT extversion FROM pg_extension WHERE extname = 'pg_partman'");

# ---- a uuid column filled by next_uuid7() ----
sql(q{CREATE TABLE public.events (id uuid NOT NULL DEFAULT next_uuid7() PRIMARY KEY, note text)
	PARTITION BY RANGE (id)});
is( sql(q{SELECT partman.create_parent('public.events', 'id', '1 day', p_premake := 3,
		p_time_encoder := 'public.uuid7_floor', p_time_decoder := 'public.uuid_text_time')}),
	't', 'create_parent takes uuid7_floor and uuid_text_time as the encoder and decoder of a uuid column');

# each partition is one UTC day: from uuid7_floor(day) to uuid7_floor(day + 1),
# named after the day; three before today, today, three after
my $check_days = q{
	SELECT count(lo) AS parts,
	       count(*) FILTER (WHERE lo = uuid7_floor(d) AND hi = uuid7_floor(d + interval '1 day')
	                          AND c.relname = 'events_p' || to_char(d, 'YYYYMMDD')) AS exact_days,
	       min(d) = date_trunc('day', now()) - interval '3 days' AS first_ok,
	       max(d)
	FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid,
	     LATERAL (SELECT m[1]::uuid AS lo, m[2]::uuid AS hi, id_time(m[1]::uuid) AS d
	              FROM regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \(''([^'']*)''\) TO \(''([^'']*)''\)') m) b
	WHERE i.inhparent = 'events'::regclass};
my $days = rows($check_days)->[0];
is($days->[0], 7, 'seven daily partitions besides the default one (premake 3: three days back, today, three ahead)');
is($days->[1], 7, 'every partition runs from uuid7_floor(day) to uuid7_floor(day + 1 day) and is named after its day');
is($days->[2], 't', 'the first is three days back');
is(sql(q{SELECT max(id_time(m[1]::uuid)) = date_trunc('day', now()) + interval '3 days'
	FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid,
	     regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \(''([^'']*)''\)') m
	WHERE i.inhparent = 'events'::regclass}), 't', 'the last is three days ahead');

# the decoder reads the bounds back: show_partition_info gives the day
# (given the parent table: 5.2.4 looks the decoder up by that argument only)
is( sql(qq{SELECT (child_start_time, child_end_time) = (date_trunc('day', now()), date_trunc('day', now()) + interval '1 day')
		FROM partman.show_partition_info('public.events_p' || to_char(now(), 'YYYYMMDD'),
		                               p_parent_table := 'public.events')}),
	't', "show_partition_info decodes today's partition's bounds with uuid_text_time: today, tomorrow");

# rows routed: generated now to today's partition, one of 10 days ago
# (older than every partition) to the default one
sql(q{INSERT INTO events (note) VALUES ('now');
	INSERT INTO events VALUES (uuid7_floor(now() - interval '10 days'), 'ten days ago'),
	                          (uuid7_floor(date_trunc('day', now()) + interval '2 days'), 'in two days')});
is( sql(q{SELECT string_agg(note || ':' || (tableoid::regclass::text = CASE note
		WHEN 'now' THEN 'events_p' || to_char(now(), 'YYYYMMDD')
		WHEN 'in two days' THEN 'events_p' || to_char(now() + interval '2 days', 'YYYYMMDD')
		ELSE 'events_default' END)::text, ',' ORDER BY note) FROM events}),
	'in two days:true,now:true,ten days ago:true',
	"rows go to their ID's day: next_uuid7() to today's, an ID of 10 days ago to the default partition");

# maintenance: a longer premake adds partitions ahead through the encoder;
# retention drops the days that ended more than a day ago
# (the names of the daily partitions of days FROM to TO from today)
sub day_names
{
	my ($table, $from, $to) = @_;
	return sql(qq{SELECT string_agg('${table}_p' || to_char(now() + k * interval '1 day', 'YYYYMMDD'), ' ' ORDER BY k)
		FROM generate_series($from, $to) k});
}
my $list = qq{SELECT string_agg(c.relname, ' ' ORDER BY c.relname) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
	WHERE i.inhparent = 'events'::regclass AND c.relname <> 'events_default'};
sql(q{UPDATE partman.part_config SET premake = 5 WHERE parent_table = 'public.events';
	SELECT partman.run_maintenance('public.events')});
is(sql($list), day_names('events', -3, 7),
	'run_maintenance with premake 5 makes five days ahead of the newest row (in two days): up to day 7');
$days = rows($check_days)->[0];
is($days->[1], 11, 'each bounded by uuid7_floor of its day and the next');
sql(q{UPDATE partman.part_config SET retention = '1 day', retention_keep_table = false WHERE parent_table = 'public.events';
	SELECT partman.run_maintenance('public.events')});
is(sql($list), day_names('events', -1, 7),
	"retention '1 day' drops the two days that ended more than a day ago (decoded by uuid_text_time), and nothing later");
is(sql(q{SELECT count(*) FROM events}), 3, 'no row was lost: the dropped days held none, the default partition stays');

# pruning: a literal time prunes at plan time, now() when the query starts
my $plan = sql(qq{EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT * FROM events
	WHERE id >= uuid7_floor(now() + interval '2 days')});
like($plan, qr/Subplans Removed: 3/, 'id >= uuid7_floor(now() + 2 days) removes yesterday, today and tomorrow when the query starts');
my $lit = sql(q{SELECT date_trunc('day', now()) + interval '4 days'});
$plan = sql(qq{EXPLAIN (COSTS OFF) SELECT * FROM events WHERE id >= uuid7_floor('$lit')});
my @scanned = sort grep { !/_pkey$/ } $plan =~ /Scan on (events_\w+)/g;
is_deeply(\@scanned, [ sort('events_default', map { 'events_p' . sql(qq{SELECT to_char(timestamptz '$lit' + interval '$_ days', 'YYYYMMDD')}) } 0 .. 3) ],
	"id >= uuid7_floor('<in 4 days>') is pruned at plan time to days 4 to 7 and the default partition");

# ---- a text column holding ulids (in the C collation: byte order) ----
sql(q{CREATE TABLE public.notes (id text COLLATE "C" NOT NULL DEFAULT next_ulid()::text PRIMARY KEY, body text)
	PARTITION BY RANGE (id)});
is( sql(q{SELECT partman.create_parent('public.notes', 'id', '1 day', p_premake := 2,
		p_time_encoder := 'public.ulid_floor', p_time_decoder := 'public.ulid_text_time')}),
	't', 'create_parent takes ulid_floor and ulid_text_time for a text column of ulids');
is( sql(q{SELECT count(m) || ' ' || count(*) FILTER (WHERE m[1] = ulid_floor(d)::text AND m[2] = ulid_floor(d + interval '1 day')::text)
		FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid,
		     regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \(''([^'']*)''\) TO \(''([^'']*)''\)') m,
		     LATERAL (SELECT ulid_text_time(m[1]) AS d) t
		WHERE i.inhparent = 'notes'::regclass}),
	'5 5', "five daily partitions, each from ulid_floor(day)'s text to the next day's");
sql(q{INSERT INTO notes (body) VALUES ('now')});
is( sql(q{SELECT tableoid::regclass::text = 'notes_p' || to_char(now(), 'YYYYMMDD') FROM notes}),
	't', "next_ulid()'s text goes to today's partition");
is( sql(q{SELECT (child_start_time, child_end_time) = (date_trunc('day', now()), date_trunc('day', now()) + interval '1 day')
		FROM partman.show_partition_info('public.notes_p' || to_char(now(), 'YYYYMMDD'),
		                               p_parent_table := 'public.notes')}),
	't', 'show_partition_info decodes the text bounds with ulid_text_time');

# ksuids as text: base 62 (0-9, A-Z, a-z) sorts by time in byte order
# only, which the C collation is; a linguistic collation (ICU's root one
# here) puts 'a' before 'B' and so some later ksuids before earlier ones
is( sql(q{SELECT 'a' COLLATE "C" < 'B' COLLATE "C", EXISTS (SELECT FROM pg_collation WHERE collname = 'und-x-icu')
		AND ('a' COLLATE "und-x-icu" < 'B' COLLATE "und-x-icu")}),
	'f|t', "'B' sorts before 'a' in the C collation, after it in ICU's: text ID columns need COLLATE \"C\"");
sql(q{CREATE TABLE public.tokens (id text COLLATE "C" NOT NULL DEFAULT next_ksuid()::text PRIMARY KEY)
	PARTITION BY RANGE (id)});
sql(q{SELECT partman.create_parent('public.tokens', 'id', '1 day', p_premake := 1,
	p_time_encoder := 'public.ksuid_floor', p_time_decoder := 'public.ksuid_text_time')});
sql(q{INSERT INTO tokens SELECT FROM generate_series(1, 100)});
is( sql(q{SELECT count(*) FILTER (WHERE tableoid::regclass::text = 'tokens_p' || to_char(now(), 'YYYYMMDD')) FROM tokens}),
	100, "a hundred next_ksuid() texts all go to today's partition (bounds ksuid_floor(day)::text)");

# ---- uniqueid's own types: pg_partman refuses them ----
sql(q{CREATE TABLE public.photos (id shardid NOT NULL DEFAULT next_id(5) PRIMARY KEY) PARTITION BY RANGE (id)});
my ($rc, $out, $err) = $node->psql('postgres', q{SELECT partman.create_parent('public.photos', 'id', '1 day',
	p_time_encoder := 'public.shardid_floor', p_time_decoder := 'public.shardid_text_time')});
like($err, qr/pg_partman only supports partitioning of data types that are integer, numeric, date\/timestamp or specially encoded text\. Supplied column is of type shardid/,
	'pg_partman refuses a shardid control column, encoder or not (doc/partitioning.md quotes the error)');

# the recipe: the ID as bigint (the same bits), partitioned by the IDs of
# one day; pg_partman aligns integer partitions to multiples of the
# interval, so each runs from the shardid epoch's time of day (21:07:01.721
# UTC) to the next day's
my $day_of_ids = sql(q{SELECT shardid_floor('2026-01-02')::bigint - shardid_floor('2026-01-01')::bigint});
is($day_of_ids, 86400000 << 23, 'one day of shardids is 86,400,000 ms shifted past the shard and sequence bits');
sql(q{CREATE TABLE public.photos_b (id bigint NOT NULL DEFAULT next_id(5)::bigint PRIMARY KEY, note text)
	PARTITION BY RANGE (id)});
is( sql(qq{SELECT partman.create_parent('public.photos_b', 'id', '$day_of_ids', p_premake := 2,
		p_start_partition := shardid_floor(now() - interval '1 day')::bigint::text)}),
	't', "create_parent on the bigint column with one day of shardids as the interval");
is( sql(qq{SELECT count(m) || ' ' || count(*) FILTER (WHERE m[2]::bigint - m[1]::bigint = $day_of_ids AND m[1]::bigint % $day_of_ids = 0
		                                AND to_char(id_time(m[1]::bigint::shardid), 'HH24:MI:SS.MS') = '21:07:01.721')
		FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid,
		     regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \\(''?([0-9]+)''?\\) TO \\(''?([0-9]+)''?\\)') m
		WHERE i.inhparent = 'photos_b'::regclass}),
	'3 3', 'three partitions, each one day of IDs from 21:07:01.721 UTC');
sql(q{INSERT INTO photos_b (note) VALUES ('now')});
is( sql(q{SELECT tableoid::regclass::text <> 'photos_b_default' AND id_time(p.lo::shardid) <= now() AND id_time(p.hi::shardid) > now()
		FROM photos_b e, LATERAL (SELECT m[1]::bigint AS lo, m[2]::bigint AS hi
		                          FROM pg_class c, regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \(''?([0-9]+)''?\) TO \(''?([0-9]+)''?\)') m
		                          WHERE c.oid = e.tableoid) p}),
	't', "next_id(5)::bigint goes to the partition of the day of IDs that holds now");
$plan = sql(q{EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT * FROM photos_b WHERE id >= shardid_floor(now())::bigint});
my $ended = sql(q{SELECT count(*) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid,
	regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \(''?([0-9]+)''?\)') m
	WHERE i.inhparent = 'photos_b'::regclass AND m[1]::bigint <= shardid_floor(now())::bigint});
ok($ended >= 1, 'at least the first day of IDs (from a day ago) has ended');
like($plan, qr/Subplans Removed: $ended\b/,
	"id >= shardid_floor(now())::bigint removes exactly the $ended day(s) of IDs that ended before now, when the query starts");
is(sql(q{SELECT id_time(id::shardid) >= now() - interval '1 minute' FROM photos_b}), 't',
	'id::shardid reads the bigint back as a shardid');

$node->stop;
done_testing();
