# TimescaleDB on the time inside the ID (doc/partitioning.md): a hypertable
# whose time dimension is the ID column, through id_time as the
# partitioning function, for a shardid column and a uuid column filled by
# next_uuid7(): chunks made by the ID's day, and which predicates exclude
# chunks: id >= TYPE_floor(t) and id_time(id) >= t (at plan time, or when
# the query starts for now()), while id >= timestamptz reads every chunk
# and still returns the right rows.
#
# Needs TimescaleDB (preloaded): Debian packages 2.19 for PostgreSQL 17 (and
# a later one for 18); none for 15 or 19, where this test skips saying so.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use UniqueidTest;
use Test::More;
use PostgreSQL::Test::Utils;

my $node = uid_node('tsdb', conf => ['timezone = UTC']);
my $pkglib = $node->config_data('--pkglibdir');
my ($so) = glob("$pkglib/timescaledb*.so");
plan skip_all => "TimescaleDB is not installed for this server (no timescaledb.so in $pkglib; "
  . 'Debian packages it as postgresql-17-timescaledb and postgresql-18-timescaledb only)'
  unless $so;
$node->append_conf('postgresql.conf',
	"shared_preload_libraries = 'uniqueid, timescaledb'\ntimescaledb.telemetry_level = off\n");
$node->start;

sub sql { return $node->safe_psql('postgres', $_[0]) }
sql(q{CREATE EXTENSION uniqueid; CREATE EXTENSION timescaledb});
note 'TimescaleDB ' . sql(q{SELECT extversion FROM pg_extension WHERE extname = 'timescaledb'});

# the chunks a query reads: those in its plan (excluded ones are not) that
# ran, from EXPLAIN's JSON
sql(q{CREATE FUNCTION chunks_read(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    plan jsonb;
BEGIN
    EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, FORMAT JSON) ' || q INTO plan;
    RETURN (SELECT count(*) FROM jsonb_path_query(plan, 'strict $.**') n
            WHERE jsonb_typeof(n) = 'object' AND n->>'Relation Name' LIKE '\_hyper\_%'
              AND (n->>'Actual Loops')::int > 0);
END $$});

# one day a chunk, by the ID's time: id_time of the column's type as the
# partitioning function (named with its argument type: id_time is
# overloaded, and create_hypertable takes a regproc)
for my $t ([ 'shardid', 'next_id(3)', 'shardid_floor' ], [ 'uuid', 'next_uuid7()', 'uuid7_floor' ])
{
	my ($type, $gen, $floor) = @$t;
	my $tab = "ev_$type";
	sql(qq{CREATE TABLE $tab (id $type NOT NULL DEFAULT $gen, note text)});
	my ($rc, $out, $err) = $node->psql('postgres',
		qq{SELECT create_hypertable('$tab', by_range('id', interval '1 day', partition_func => 'id_time'))});
	like($err, qr/more than one function named "id_time"/,
		"$type: partition_func => 'id_time' is ambiguous (doc/partitioning.md says to name the argument type)");
	is( sql(qq{SELECT (create_hypertable('$tab', by_range('id', interval '1 day',
			partition_func => 'id_time($type)'::regprocedure))).created}),
		't', "$type: create_hypertable with partition_func => 'id_time($type)'::regprocedure");

	# six days of rows, four a day, at fixed times, and one made now
	sql(qq{INSERT INTO $tab SELECT $floor(t), 'fixed'
		FROM generate_series(timestamptz '2026-03-01', timestamptz '2026-03-06 18:00', interval '6 hours') t;
		INSERT INTO $tab (note) VALUES ('now')});
	is( sql(qq{SELECT count(*) || ' ' || bool_and(days = 1) || ' ' || sum(n)
			FROM (SELECT tableoid, count(DISTINCT date_trunc('day', id_time(id))) AS days, count(*) AS n
			      FROM $tab GROUP BY tableoid) c}),
		'7 true 25', "$type: seven chunks (six days and today), each holding the rows of one day of its IDs' time");

	# which predicates exclude chunks: a floor of a constant and id_time(id)
	# at plan time, id_time(id) against now() when the query starts; a floor
	# of now() none (TimescaleDB 2.19 to 2.31 apply the partitioning
	# function to constants only: doc/partitioning.md says so, and this
	# tells when that changes)
	my %reads = (
		"id >= $floor('2026-03-05')" => 3,
		"id >= $floor('2026-03-05') AND id < $floor('2026-03-06')" => 1,
		"id_time(id) >= '2026-03-05'" => 3,
		"id_time(id) >= now() - interval '1 day'" => 1,
		"id >= $floor(now() - interval '1 day')" => 7,
	);
	for my $pred (sort keys %reads)
	{
		is(sql(qq{SELECT chunks_read('SELECT * FROM $tab WHERE ' || \$p\$$pred\$p\$)}), $reads{$pred},
			"$type: WHERE $pred reads $reads{$pred} of 7 chunks");
	}
	# every predicate, excluding chunks or not, returns the rows of its times
	is( sql(qq{SELECT count(*) FROM $tab WHERE id >= $floor('2026-03-05')}),
		sql(qq{SELECT count(*) FROM $tab WHERE id_time(id) >= '2026-03-05'}),
		"$type: id >= $floor(t) and id_time(id) >= t return the same rows");
	if ($type ne 'uuid')
	{
		is(sql(qq{SELECT chunks_read(\$p\$SELECT * FROM $tab WHERE id >= timestamptz '2026-03-05'\$p\$)}), 7,
			"$type: WHERE id >= timestamptz '2026-03-05' reads every chunk (the doc's limit)");
		is(sql(qq{SELECT count(*) FROM $tab WHERE id >= timestamptz '2026-03-05'}), 9,
			"$type: id >= timestamptz returns the same 9 rows (8 fixed, 1 now)");
	}
}

$node->stop;
done_testing();
