-- pgTAP: short codes over many values.  id_decode(id_encode(v)) = v for
-- 100,000 random bigints (0 and the maximum included) in every named
-- alphabet; shardids over the full unsigned range; lexical_add agrees with
-- a reference computed by rank arithmetic (bijective base-N, in numeric).
\set QUIET on
SET client_min_messages = warning;
BEGIN;
SELECT plan(12);

CREATE TEMP TABLE vals AS
SELECT abs(hashint8extended(n, 7)) AS v FROM generate_series(1::bigint, 100000) n
UNION ALL SELECT 0 UNION ALL SELECT 9223372036854775807;

SELECT is((SELECT count(*)::int FROM vals WHERE id_decode(id_encode(v, a), a) <> v), 0,
          format('%s: 100,002 values round trip, 0 and 2^63-1 included', a))
FROM unnest(ARRAY['base32', 'base36', 'base58', 'base62', 'base64url']) AS a;

-- encoding preserves order within one length (a code sorts like its number
-- when codes of equal length are compared bytewise in base62's ASCII order)
SELECT is((SELECT count(*)::int FROM (SELECT v, id_encode(v) AS c FROM vals) s1
           JOIN (SELECT v, id_encode(v) AS c FROM vals) s2 ON length(s1.c) = length(s2.c)
           AND s1.v < s2.v AND s1.c COLLATE "C" >= s2.c COLLATE "C"
           WHERE s1.v % 1000 = 0 AND s2.v % 997 = 0), 0,
          'base62 codes of equal length sort like their values');

SELECT is((SELECT count(*)::int FROM (SELECT hashint8extended(n, 3)::shardid AS id FROM generate_series(1::bigint, 100000) n) s
           WHERE id_decode_shardid(id_encode(id, 'base36'), 'base36') <> id), 0,
          'shardids round trip over the full unsigned range');

-- the reference: rank of a code and code of a rank, in bijective base-N
CREATE FUNCTION pg_temp.rank_of(code text, alphabet text) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$
    SELECT coalesce(sum(strpos(alphabet, substr(code, i, 1))::numeric
                        * length(alphabet)::numeric ^ (length(code) - i)), 0)
    FROM generate_series(1, length(code)) AS i
$$;
CREATE FUNCTION pg_temp.code_of(r numeric, alphabet text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
    n int := length(alphabet);
    out text := '';
BEGIN
    WHILE r > 0 LOOP
        r := r - 1;
        out := substr(alphabet, (r % n)::int + 1, 1) || out;
        r := floor(r / n);
    END LOOP;
    RETURN out;
END $$;

CREATE TEMP TABLE pairs AS
SELECT a.name, a.symbols,
       pg_temp.code_of(abs(hashint8extended(k, 11)) % (length(a.symbols)::numeric ^ 6), a.symbols) AS code,
       (hashint8extended(k, 13) % 100000000) AS n
FROM (VALUES ('base36', '0123456789abcdefghijklmnopqrstuvwxyz'),
             ('base62', '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'),
             ('base58', '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'),
             ('binary', '01')) AS a(name, symbols),
     generate_series(1::bigint, 2500) AS k;
-- keep only pairs that stay at or above the first code
DELETE FROM pairs WHERE pg_temp.rank_of(code, symbols) + n < 0;

SELECT is((SELECT count(*)::int FROM pairs
           WHERE lexical_add(code, CASE name WHEN 'binary' THEN symbols ELSE name END, n)
                 <> pg_temp.code_of(pg_temp.rank_of(code, symbols) + n, symbols)), 0,
          format('lexical_add agrees with rank arithmetic for %s (code, n) pairs', (SELECT count(*) FROM pairs)));
SELECT ok((SELECT count(*) FROM pairs WHERE n < 0) > 1000, 'the pairs include negative steps');
SELECT is(lexical_add(repeat('z', 40), 'base36', 1), repeat('0', 41), '40 z + 1 carries into 41 characters');
SELECT is(lexical_add(repeat('0', 41), 'base36', -1), repeat('z', 40), 'and back');
SELECT is((SELECT string_agg(lexical_add('', 'base36', k), ',' ORDER BY k) FROM generate_series(35, 38) k),
          'y,z,00,01', 'shortlex: single characters, then pairs');

SELECT * FROM finish();
ROLLBACK;
