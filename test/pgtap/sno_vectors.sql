-- pgTAP: the sno conformance vectors: sno_vectors.tsv (encoding and fields),
-- sno_generate_vectors.tsv (through make_sno, out-of-range times rejected),
-- sno_decode_vectors.tsv (strict decoding)
\set QUIET on
SET client_min_messages = warning;
BEGIN;
SET LOCAL timezone = 'UTC';
CREATE TEMP TABLE v (name text, bytes_hex text, encoded text, unix_ns numeric, time_utc text,
                     meta int, partition int, seq int, tick int, source text);
\copy v FROM 'test/vectors/sno_vectors.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
CREATE TEMP TABLE g (input_time_utc text, input_unix_ns numeric, meta int, partition int, seq int,
                     tick int, bytes_hex text, encoded text, decoded_unix_ns numeric,
                     decoded_time_utc text, note text, source text);
\copy g FROM 'test/vectors/sno_generate_vectors.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
CREATE TEMP TABLE d (input text, expected text, note text, source text);
\copy d FROM 'test/vectors/sno_decode_vectors.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
-- an empty field of the TSV is the empty string where the vector means one
UPDATE d SET input = '' WHERE input IS NULL;

SELECT plan(3 + 7 * (SELECT count(*)::int FROM v)
          + (SELECT count(*)::int FROM g WHERE note LIKE 'OUT OF RANGE%')
          + 2 * (SELECT count(*)::int FROM g WHERE note NOT LIKE 'OUT OF RANGE%')
          + (SELECT count(*)::int FROM d));

SELECT is((SELECT count(*)::int FROM v), 10, 'sno_vectors loaded');
SELECT is((SELECT count(*)::int FROM g), 18, 'sno_generate_vectors loaded');
SELECT is((SELECT count(*)::int FROM d), 16, 'sno_decode_vectors loaded');

SELECT is(encoded::sno::bytea, decode(bytes_hex, 'hex'), format('%s: %s decodes to %s', name, encoded, bytes_hex)) FROM v;
SELECT is(decode(bytes_hex, 'hex')::sno::text, encoded, format('%s: bytes encode to %s', name, encoded)) FROM v;
SELECT is(id_time(encoded::sno), time_utc::timestamptz, format('%s: id_time', name)) FROM v;
SELECT is(id_meta(encoded::sno), meta, format('%s: id_meta', name)) FROM v;
SELECT is(id_partition(encoded::sno), partition, format('%s: id_partition', name)) FROM v;
SELECT is(id_seq(encoded::sno), seq, format('%s: id_seq', name)) FROM v;
SELECT is(make_sno(time_utc::timestamptz, meta, partition, seq, tick), encoded::sno,
          format('%s: make_sno rebuilds it (tick %s)', name, tick)) FROM v;

-- in-range generation vectors, through make_sno (time truncated to 4 ms; the
-- nanosecond inputs are first truncated to microseconds, PostgreSQL's resolution)
SELECT is(make_sno(timestamptz 'epoch' + floor(input_unix_ns / 1000)::bigint * interval '1 microsecond',
                   meta, partition, seq, tick)::text, encoded,
          format('make_sno(%s, %s, %s, %s) = %s', input_time_utc, meta, partition, seq, encoded))
FROM g WHERE note NOT LIKE 'OUT OF RANGE%';
SELECT is(id_time(encoded::sno), coalesce(decoded_time_utc, input_time_utc)::timestamptz,
          format('%s decodes to its time', encoded))
FROM g WHERE note NOT LIKE 'OUT OF RANGE%';
-- where the original silently wrapped, this spec rejects the time
SELECT throws_ok(format('SELECT make_sno(%L::timestamptz, %s, %s, %s)', input_time_utc, meta, partition, seq),
                 '22008', NULL, format('%s is rejected, not wrapped', input_time_utc))
FROM g WHERE note LIKE 'OUT OF RANGE%';

-- decoding: canonical strings decode, everything else is 22P02 (the original
-- accepted any character and decoded it differently per platform)
SELECT CASE WHEN expected LIKE 'ERROR:%'
            THEN throws_ok(format('SELECT %L::sno', input), '22P02', NULL,
                           format('%L is rejected (%s)', input, expected))
            ELSE is(input::sno::bytea, decode(expected, 'hex'), format('%s decodes to %s', input, expected))
       END
FROM d;

SELECT * FROM finish();
ROLLBACK;
