-- short codes: id_encode, id_decode, id_decode_shardid, lexical_add
CREATE EXTENSION IF NOT EXISTS uniqueid;
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/try.sql

-- every named alphabet at 0, 1, 61 and the largest bigint
SELECT a AS alphabet, id_encode(0, a) AS zero, id_encode(1, a) AS one, id_encode(61, a) AS sixty_one,
       id_encode(9223372036854775807, a) AS max_bigint,
       id_decode(id_encode(9223372036854775807, a), a) = 9223372036854775807 AS round_trip
FROM unnest(ARRAY['base32', 'base36', 'base58', 'base62', 'base64url']) AS a;
SELECT id_encode(123456789) AS default_base62, id_decode('8M0kX') AS decoded;

-- literal alphabets
SELECT id_encode(10, '01') AS binary, id_decode('1010', '01') AS from_binary,
       id_encode(255, '0123456789abcdef') AS hex, id_encode(5, 'ab') AS ab;

-- Crockford base32: case-insensitive, O reads as 0, I and L as 1
SELECT id_decode('10', 'base32') AS ten_upper, id_decode('1o', 'base32') AS o_is_zero,
       id_decode('iL', 'base32') AS i_l_are_one, id_decode('zz', 'base32') AS lower_z;
SELECT id_decode('U', 'base32');

-- the 64-bit ID types encode all 64 bits, and decode back
SELECT id_encode('18446744073709551615'::shardid) AS all_ones,
       id_decode_shardid(id_encode('18446744073709551615'::shardid)) AS back,
       id_encode('11637205501278089'::shardid, 'base36') AS example,
       id_decode_shardid('36l1mejpvnt', 'base36') AS example_back;

-- shortlex order: after zz comes 000; the empty code comes first
SELECT lexical_add('zz', 'base36', 1) AS after_zz, lexical_add('000', 'base36', -1) AS before_000,
       lexical_add('', 'base36', 1) AS first_nonempty, lexical_add('0', 'base36', -1) AS empty,
       lexical_add('a', 'base36', 36 + 36 * 36) AS three_chars,
       lexical_add('ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ', 'base62', 1) AS longer_than_64_bits,
       lexical_add('oil', 'base32', 0) AS canonical_crockford;

-- errors
SELECT q, pg_temp.try(q) AS result
FROM (VALUES ('SELECT id_encode(-1)'),
             ($$SELECT id_decode('')$$),
             ($$SELECT id_decode('ab-c')$$),
             ($$SELECT id_decode('AzL8n0Y58m8')$$),
             ($$SELECT id_decode('LygHa16AHYF')$$),
             ($$SELECT id_decode_shardid('LygHa16AHYG')$$),
             ($$SELECT id_decode('0', 'base36')$$),
             ($$SELECT id_decode('A', 'base36')$$),
             ($$SELECT id_encode(1, 'a')$$),
             ($$SELECT id_encode(1, '')$$),
             ($$SELECT id_encode(1, repeat('x', 257))$$),
             ($$SELECT id_encode(1, 'abca')$$),
             ($$SELECT id_encode(1, 'aé')$$),
             ($$SELECT lexical_add('a!', 'base62', 1)$$),
             ($$SELECT id_decode('aé!', 'base62')$$),
             ($$SELECT lexical_add('0', 'base36', -2)$$),
             ($$SELECT lexical_add('', 'base36', -1)$$)) AS t(q);
SELECT id_encode(-1);
SELECT id_decode('ab-c');
SELECT id_encode(1, 'abca');
SELECT lexical_add('0', 'base36', -2);

SELECT proname, provolatile, proparallel, proisstrict FROM pg_proc
WHERE proname IN ('id_encode', 'id_decode', 'id_decode_shardid', 'lexical_add') ORDER BY 1, 2;

-- the README's recipe: a sequence per server stepping by the server count,
-- and a stored code column
CREATE SEQUENCE ticket START WITH 2 INCREMENT BY 2;
CREATE TABLE orders (
    id   bigint PRIMARY KEY DEFAULT nextval('ticket'),
    code text GENERATED ALWAYS AS (id_encode(id, 'base32')) STORED UNIQUE
);
INSERT INTO orders SELECT FROM generate_series(1, 3);
SELECT id, code FROM orders ORDER BY id;
SELECT id FROM orders WHERE id = id_decode('6', 'base32');

-- a long bad code is quoted by its first 64 bytes and its length only
SELECT id_decode(repeat('1', 100000), 'base62');
SELECT id_decode(repeat('1', 100) || '!', 'base62');
