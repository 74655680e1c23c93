-- pgTAP: the objectid conformance vectors: objectid_vectors.tsv (hex form and
-- fields; make_objectid rebuilds each ID) and objectid_parse.tsv (either case
-- accepted and written lowercase; a wrong length or a non-hex digit is 22P02)
\set QUIET on
SET client_min_messages = warning;
BEGIN;
SET LOCAL timezone = 'UTC';
CREATE TEMP TABLE v (hex text, timestamp_s bigint, time_utc text, random5_hex text, counter int, source text);
\copy v FROM 'test/vectors/objectid_vectors.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
CREATE TEMP TABLE p (input text, expected text, note text, source text);
\copy p FROM 'test/vectors/objectid_parse.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
-- an empty field of the TSV is the empty string where the vector means one
UPDATE p SET input = '' WHERE input IS NULL;

SELECT plan(2 + 8 * (SELECT count(*)::int FROM v) + (SELECT count(*)::int FROM p));

SELECT is((SELECT count(*)::int FROM v), 6, 'objectid_vectors loaded');
SELECT is((SELECT count(*)::int FROM p), 5, 'objectid_parse loaded');

SELECT is(hex::objectid::text, hex, format('%s: canonical text round trip', hex)) FROM v;
SELECT is(hex::objectid::bytea, decode(hex, 'hex'), format('%s: the 12 bytes', hex)) FROM v;
SELECT is(decode(hex, 'hex')::objectid, hex::objectid, format('%s: from its 12 bytes', hex)) FROM v;
-- the seconds are unsigned: 0x80000000 and 0xffffffff are after 2038, not before 1970
SELECT is(id_time(hex::objectid), to_timestamp(timestamp_s), format('%s: id_time is %s s', hex, timestamp_s)) FROM v;
SELECT is(id_time(hex::objectid), time_utc::timestamptz, format('%s: id_time is %s', hex, time_utc)) FROM v;
SELECT is(id_random(hex::objectid), ('x' || lpad(random5_hex, 16, '0'))::bit(64)::bigint,
          format('%s: id_random is 0x%s', hex, random5_hex)) FROM v;
SELECT is(id_counter(hex::objectid), counter, format('%s: id_counter is %s', hex, counter)) FROM v;
SELECT is(make_objectid(time_utc::timestamptz, ('x' || lpad(random5_hex, 16, '0'))::bit(64)::bigint, counter),
          hex::objectid, format('%s: make_objectid rebuilds it', hex)) FROM v;

-- parsing: accepted inputs canonicalize to `expected`; ERROR rows raise 22P02
-- with a message that quotes the input
SELECT CASE WHEN expected LIKE 'ERROR:%'
            THEN throws_ok(format('SELECT %L::objectid', input), '22P02',
                           format('invalid input syntax for type objectid: "%s"', input),
                           format('%L is rejected (%s: %s)', input, expected, note))
            ELSE is(input::objectid::text, expected, format('%s is read as %s (%s)', input, expected, note))
       END
FROM p;

SELECT * FROM finish();
ROLLBACK;
