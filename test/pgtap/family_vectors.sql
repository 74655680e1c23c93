-- pgTAP: conformance vectors of snowflake (Twitter and Instagram rows),
-- sonyflake, shortid and spreadid.  The Discord rows of
-- snowflake_vectors.tsv use another epoch, which the snowflake type does not
-- take (it is Twitter's layout); they are left out.
\set QUIET on
SET client_min_messages = warning;
BEGIN;
SET LOCAL timezone = 'UTC';
CREATE TEMP TABLE sf (scheme text, id numeric, unix_ms bigint, time_utc text, fields text, note text, source text);
\copy sf FROM 'test/vectors/snowflake_vectors.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
CREATE TEMP TABLE sony (time_utc text, unix_ns numeric, seq int, machine int, expected_id text, time_units text,
                        error text, source text);
\copy sony FROM 'test/vectors/sonyflake_vectors.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
CREATE TEMP TABLE sv (storage_int numeric, display text, display_len int, seq int, random int, time_utc text,
                      note text, source text);
\copy sv FROM 'test/vectors/shortid_vectors.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
CREATE TEMP TABLE sp (display_input text, expected text, note text, source text);
\copy sp FROM 'test/vectors/shortid_parse.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
UPDATE sp SET display_input = '' WHERE display_input IS NULL;
CREATE TEMP TABLE rv (mode text, ms bigint, seq int, generator int, cluster int, id_hex text, source text);
\copy rv FROM 'test/vectors/spreadid_vectors.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
CREATE TEMP TABLE rp (id_hex text, ms bigint, seq int, generator int, cluster int, mode text, source text);
\copy rp FROM 'test/vectors/spreadid_parse.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
CREATE TEMP TABLE re (api text, field text, value text, expected_error text, source text);
\copy re FROM 'test/vectors/spreadid_errors.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')

-- the shortid rows this spec keeps: values below 2^60
CREATE TEMP VIEW sv_in AS SELECT * FROM sv WHERE storage_int < 2::numeric ^ 60;
CREATE FUNCTION pg_temp.mode(m text) RETURNS text LANGUAGE sql AS $$ SELECT CASE m WHEN 'SPREAD' THEN 'spread' ELSE 'time' END $$;
CREATE FUNCTION pg_temp.ts_ms(ms bigint) RETURNS timestamptz LANGUAGE sql AS $$ SELECT timestamptz 'epoch' + ms * interval '1 millisecond' $$;

SELECT plan(
    4 * (SELECT count(*)::int FROM sf WHERE scheme = 'twitter')
  + 2 * (SELECT count(*)::int FROM sf WHERE scheme = 'instagram')
  + 4 * (SELECT count(*)::int FROM sony WHERE error IS NULL) + (SELECT count(*)::int FROM sony WHERE error IS NOT NULL)
  + 5 * (SELECT count(*)::int FROM sv_in) + (SELECT count(*)::int FROM sv WHERE storage_int >= 2::numeric ^ 60)
  + (SELECT count(*)::int FROM sp)
  + 3 * (SELECT count(*)::int FROM rv)
  + 5 * (SELECT count(*)::int FROM rp)
  + (SELECT count(*)::int FROM re WHERE api = 'Blueprint')
  + (SELECT count(*)::int FROM re WHERE api = 'IDBuilder.parse' AND value <> 'null'));

-- snowflake (Twitter): node = datacenter << 5 | worker
SELECT is(id_time(id::text::snowflake), time_utc::timestamptz, format('snowflake %s: id_time', id)) FROM sf WHERE scheme = 'twitter';
SELECT is(id_node(id::text::snowflake),
          (substring(fields FROM 'dc=(\d+)'))::int * 32 + (substring(fields FROM 'worker=(\d+)'))::int,
          format('snowflake %s: id_node is datacenter and worker', id)) FROM sf WHERE scheme = 'twitter';
SELECT is(id_seq(id::text::snowflake), (substring(fields FROM 'seq=(\d+)'))::int, format('snowflake %s: id_seq', id))
FROM sf WHERE scheme = 'twitter';
SELECT is(make_snowflake(time_utc::timestamptz, id_node(id::text::snowflake), id_seq(id::text::snowflake))::text, id::text,
          format('snowflake %s: make_snowflake rebuilds it', id)) FROM sf WHERE scheme = 'twitter';
-- the Instagram rows are shardids
SELECT is(id_time(id::text::shardid), time_utc::timestamptz, format('shardid %s: id_time', id)) FROM sf WHERE scheme = 'instagram';
SELECT is(make_shardid(time_utc::timestamptz, (substring(fields FROM 'shard=(\d+)'))::int,
                       (substring(fields FROM 'seq=(\d+)'))::int)::text, id::text,
          format('shardid %s: make_shardid rebuilds it', id)) FROM sf WHERE scheme = 'instagram';

-- sonyflake: 10 ms units; the ns inputs are first truncated to microseconds
SELECT is(make_sonyflake(timestamptz 'epoch' + floor(unix_ns / 1000)::bigint * interval '1 microsecond', seq, machine)::text,
          expected_id, format('make_sonyflake(%s, %s, %s)', time_utc, seq, machine)) FROM sony WHERE error IS NULL;
SELECT is(id_seq(expected_id::sonyflake), seq, format('sonyflake %s: id_seq', expected_id)) FROM sony WHERE error IS NULL;
SELECT is(id_node(expected_id::sonyflake), machine, format('sonyflake %s: id_node is the machine id', expected_id))
FROM sony WHERE error IS NULL;
SELECT is(id_time(expected_id::sonyflake), timestamptz '2014-09-01 00:00:00+00' + time_units::bigint * interval '10 ms',
          format('sonyflake %s: id_time', expected_id)) FROM sony WHERE error IS NULL;
SELECT throws_ok(format('SELECT make_sonyflake(%L::timestamptz, %s, %s)', time_utc, seq, machine),
                 CASE WHEN error LIKE '%sequence%' THEN '22003' ELSE '22008' END, NULL,
                 format('sonyflake %s, seq %s: %s', time_utc, seq, error)) FROM sony WHERE error IS NOT NULL;

-- shortid: display form, fields, constructor
SELECT is(storage_int::bigint::shortid::text, display, format('shortid %s displays as %s', storage_int, display)) FROM sv_in;
SELECT is(display::shortid::bigint::numeric, storage_int, format('shortid %s parses back', display)) FROM sv_in;
SELECT is(id_seq(display::shortid), seq, format('shortid %s: id_seq', display)) FROM sv_in;
SELECT is(id_random(display::shortid), random, format('shortid %s: id_random', display)) FROM sv_in;
SELECT is(make_shortid(time_utc::timestamptz, seq, random)::text, display, format('shortid %s: make_shortid rebuilds it', display))
FROM sv_in;
SELECT throws_ok(format('SELECT %s::bigint::shortid', storage_int), '22003', NULL,
                 format('%s is 2^60 or more: not a shortid (the original went on past 60 bits)', storage_int))
FROM sv WHERE storage_int >= 2::numeric ^ 60;
-- parse: canonical forms only; to_display(small values) is covered by the pg_regress test
SELECT CASE
         WHEN display_input LIKE 'to_display(%' THEN
           is(length(substring(display_input FROM '\((-?\d+)\)')::bigint::text), length(substring(display_input FROM '\((-?\d+)\)')),
              format('%s: not a parse case (padded output is tested in pg_regress)', display_input))
         WHEN expected = 'ERROR' OR note LIKE '%non-canonical%' OR note LIKE '%overflows%'
           THEN throws_ok(format('SELECT %L::shortid', display_input),
                          CASE WHEN note LIKE '%overflows%' THEN '22003' ELSE '22P02' END, NULL,
                          format('%L is rejected (%s)', display_input, coalesce(note, expected)))
         ELSE is(display_input::shortid::bigint::text, expected, format('%s parses to %s', display_input, expected))
       END
FROM sp;

-- spreadid
SELECT is(make_spreadid(pg_temp.ts_ms(ms), seq, generator, cluster, pg_temp.mode(mode))::text, id_hex,
          format('make_spreadid(%s, %s, %s, %s, %s) = %s', ms, seq, generator, cluster, mode, id_hex)) FROM rv;
SELECT is(id_time(id_hex::spreadid), pg_temp.ts_ms(ms), format('spreadid %s: id_time', id_hex)) FROM rv;
SELECT is(ARRAY[id_seq(id_hex::spreadid), id_node(id_hex::spreadid), id_cluster(id_hex::spreadid)],
          ARRAY[seq, generator, cluster], format('spreadid %s: seq, generator, cluster', id_hex)) FROM rv;
SELECT is(id_time(id_hex::spreadid), pg_temp.ts_ms(ms), format('parse %s: time', id_hex)) FROM rp;
SELECT is(id_seq(id_hex::spreadid), seq, format('parse %s: seq', id_hex)) FROM rp;
SELECT is(id_node(id_hex::spreadid), generator, format('parse %s: generator', id_hex)) FROM rp;
SELECT is(id_cluster(id_hex::spreadid), cluster, format('parse %s: cluster', id_hex)) FROM rp;
SELECT is(id_mode(id_hex::spreadid), pg_temp.mode(mode), format('parse %s: mode', id_hex)) FROM rp;
SELECT throws_ok(
         CASE field
           WHEN 'timestamp' THEN format('SELECT make_spreadid(timestamptz ''epoch'' + %s * interval ''1 ms'', 0, 0, 0, ''time'')', value)
           WHEN 'seq' THEN format('SELECT make_spreadid(now(), %s, 0, 0, ''time'')', value)
           WHEN 'gen' THEN format('SELECT make_spreadid(now(), 0, %s, 0, ''time'')', value)
           ELSE format('SELECT make_spreadid(now(), 0, 0, %s, ''time'')', value) END,
         CASE field WHEN 'timestamp' THEN '22008' ELSE '22003' END, NULL,
         format('%s %s is rejected (%s)', field, value, expected_error))
FROM re WHERE api = 'Blueprint';
SELECT throws_ok(format('SELECT %L::spreadid', repeat('0', 2 * value::int)), '22P02', NULL,
                 format('%s bytes of hex are not a spreadid', value))
FROM re WHERE api = 'IDBuilder.parse' AND value <> 'null';

SELECT * FROM finish();
ROLLBACK;
