-- Masks (doc/masking.md): id_mask and id_unmask of every type, uuid7_mask
-- and uuid7_unmask, id_mask_key_symbol; the codes of fixed IDs under a
-- fixed key (they must never change: codes handed out must still unmask),
-- round trips, one length per type and alphabet, the type and a typeid's
-- prefix in the tweak, and the refusals.  The properties over many IDs are
-- t/066_masking.pl's.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS uniqueid;
RESET client_min_messages;
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/try.sql
\set k1 '\'\\x000102030405060708090a0b0c0d0e0f\'::bytea'
\set k2 '\'\\x2b7e151628aed2a6abf7158809cf4f3cef4359d8d580aa4f7f036d6f04fc6a94\'::bytea'
\set k3 '\'\\x2b7e151628aed2a6abf7158809cf4f3cef4359d8d580aa4f\'::bytea'
-- fixed IDs of every type, their codes under k1 and back
CREATE TEMP TABLE fixed AS SELECT
    4242::bigint::shardid AS shardid, 4242::bigint::snowflake AS snowflake,
    4242::bigint::sonyflake AS sonyflake, 4242::bigint::shortid AS shortid,
    4242::bigint::spreadid AS spreadid,
    '\x0102030405060708090a'::bytea::sno AS sno,
    '\x0102030405060708090a0b0c'::bytea::objectid AS objectid,
    '\x0102030405060708090a0b0c0d0e0f10'::bytea::ulid AS ulid,
    '\x0102030405060708090a0b0c0d0e0f1011121314'::bytea::ksuid AS ksuid,
    '\x0102030405060708090a0b0c'::bytea::rsxid AS rsxid,
    '01890a5d-ac96-774b-bcce-b302099a8057'::uuid AS uuid,
    make_typeid('user', '01890a5d-ac96-774b-bcce-b302099a8057') AS typeid;
SELECT t, code, length(code) AS len, back = id AS round_trip
FROM fixed, LATERAL (VALUES
    ('shardid', id_mask(shardid, :k1), id_unmask(id_mask(shardid, :k1), :k1, NULL::shardid)::text, shardid::text),
    ('snowflake', id_mask(snowflake, :k1), id_unmask(id_mask(snowflake, :k1), :k1, NULL::snowflake)::text, snowflake::text),
    ('sonyflake', id_mask(sonyflake, :k1), id_unmask(id_mask(sonyflake, :k1), :k1, NULL::sonyflake)::text, sonyflake::text),
    ('shortid', id_mask(shortid, :k1), id_unmask(id_mask(shortid, :k1), :k1, NULL::shortid)::text, shortid::text),
    ('spreadid', id_mask(spreadid, :k1), id_unmask(id_mask(spreadid, :k1), :k1, NULL::spreadid)::text, spreadid::text),
    ('sno', id_mask(sno, :k1), id_unmask(id_mask(sno, :k1), :k1, NULL::sno)::text, sno::text),
    ('objectid', id_mask(objectid, :k1), id_unmask(id_mask(objectid, :k1), :k1, NULL::objectid)::text, objectid::text),
    ('ulid', id_mask(ulid, :k1), id_unmask(id_mask(ulid, :k1), :k1, NULL::ulid)::text, ulid::text),
    ('ksuid', id_mask(ksuid, :k1), id_unmask(id_mask(ksuid, :k1), :k1, NULL::ksuid)::text, ksuid::text),
    ('rsxid', id_mask(rsxid, :k1), id_unmask(id_mask(rsxid, :k1), :k1, NULL::rsxid)::text, rsxid::text),
    ('uuid', id_mask(uuid, :k1), id_unmask(id_mask(uuid, :k1), :k1, NULL::uuid)::text, uuid::text),
    ('typeid', id_mask(typeid, :k1), id_unmask(id_mask(typeid, :k1), :k1, NULL::typeid)::text, typeid::text),
    ('uuid7_mask', uuid7_mask(uuid, :k1)::text, uuid7_unmask(uuid7_mask(uuid, :k1), :k1)::text, uuid::text)
) AS v(t, code, back, id);
-- the same under a 24- and a 32-byte key, and in other alphabets
SELECT id_mask(4242::bigint::snowflake, :k3) AS aes192, id_mask(4242::bigint::snowflake, :k2) AS aes256,
       id_mask(4242::bigint::snowflake, :k1, 'base32') AS base32,
       id_mask(4242::bigint::snowflake, :k1, 'base62') AS base62,
       id_mask(4242::bigint::snowflake, :k1, '0123456789') AS decimal;
-- every code begins with its key's symbol
SELECT id_mask_key_symbol(:k1) AS k1, id_mask_key_symbol(:k2) AS k2, id_mask_key_symbol(:k3) AS k3,
       id_mask_key_symbol(:k1, 'base32') AS k1_base32,
       left(id_mask(4242::bigint::snowflake, :k2), 1) = id_mask_key_symbol(:k2) AS first_is_symbol;
-- base32 (Crockford) codes are read case-insensitively, as id_decode reads them
SELECT id_unmask(lower(id_mask(ulid, :k1, 'base32')), :k1, NULL::ulid, 'base32') = ulid AS lower_base32 FROM fixed;

-- Generated IDs of every type: each round-trips; no two codes are equal; a
-- type's codes have one length per alphabet.
CREATE TEMP TABLE gen AS SELECT i,
    next_id(i % 8) AS shardid, next_snowflake() AS snowflake, next_sonyflake() AS sonyflake,
    next_shortid() AS shortid, next_spreadid('time') AS spreadid, next_sno(0) AS sno,
    next_objectid() AS objectid, next_ulid() AS ulid, next_ksuid() AS ksuid,
    next_rsxid() AS rsxid, next_uuid7() AS uuid, next_typeid(CASE WHEN i % 2 = 0 THEN 'user' ELSE '' END) AS typeid
FROM generate_series(1, 500) i;
CREATE TEMP TABLE codes AS
SELECT a, t, code, ok FROM gen,
    LATERAL (VALUES ('base64url'), ('base32'), ('base58'), ('01'), ('ab')) AS al(a),
    LATERAL (VALUES
    ('shardid', id_mask(shardid, :k1, a), id_unmask(id_mask(shardid, :k1, a), :k1, NULL::shardid, a) = shardid),
    ('snowflake', id_mask(snowflake, :k1, a), id_unmask(id_mask(snowflake, :k1, a), :k1, NULL::snowflake, a) = snowflake),
    ('sonyflake', id_mask(sonyflake, :k2, a), id_unmask(id_mask(sonyflake, :k2, a), :k2, NULL::sonyflake, a) = sonyflake),
    ('shortid', id_mask(shortid, :k1, a), id_unmask(id_mask(shortid, :k1, a), :k1, NULL::shortid, a) = shortid),
    ('spreadid', id_mask(spreadid, :k3, a), id_unmask(id_mask(spreadid, :k3, a), :k3, NULL::spreadid, a) = spreadid),
    ('sno', id_mask(sno, :k1, a), id_unmask(id_mask(sno, :k1, a), :k1, NULL::sno, a) = sno),
    ('objectid', id_mask(objectid, :k1, a), id_unmask(id_mask(objectid, :k1, a), :k1, NULL::objectid, a) = objectid),
    ('ulid', id_mask(ulid, :k1, a), id_unmask(id_mask(ulid, :k1, a), :k1, NULL::ulid, a) = ulid),
    ('ksuid', id_mask(ksuid, :k2, a), id_unmask(id_mask(ksuid, :k2, a), :k2, NULL::ksuid, a) = ksuid),
    ('rsxid', id_mask(rsxid, :k1, a), id_unmask(id_mask(rsxid, :k1, a), :k1, NULL::rsxid, a) = rsxid),
    ('uuid', id_mask(uuid, :k1, a), id_unmask(id_mask(uuid, :k1, a), :k1, NULL::uuid, a) = uuid)
) AS v(t, code, ok);
SELECT t, a, count(*) AS ids, count(DISTINCT code) AS codes, bool_and(ok) AS round_trips,
       min(length(code)) AS len, max(length(code)) = min(length(code)) AS one_length
FROM codes GROUP BY t, a ORDER BY a, t;
-- a typeid's code is a TypeID of its prefix, whose UUID has the key's symbol in its version and variant bits
SELECT count(*) AS ids,
       bool_and(id_unmask(id_mask(typeid, :k1), :k1, NULL::typeid) = typeid) AS round_trips,
       count(DISTINCT id_mask(typeid, :k1)) AS codes,
       bool_and(typeid_prefix(id_mask(typeid, :k1)::typeid) = typeid_prefix(typeid)) AS same_prefix,
       bool_and(right(id_mask(typeid, :k1), 26) ~ '^[0-7][0-9a-hjkmnp-tv-z]{25}$') AS suffix_is_typeid,
       count(DISTINCT key_bits) AS key_bits_values, min(key_bits) AS key_bits,
       strpos('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_', id_mask_key_symbol(:k1)) - 1 AS symbol_value
FROM gen, LATERAL (SELECT uuid_send(uuid(id_mask(typeid, :k1)::typeid)) AS b) m,
    LATERAL (SELECT (get_byte(b, 6) >> 4) * 4 + (get_byte(b, 8) >> 6) AS key_bits) kb;
-- the masked UUIDs are of version 4 (RFC 9562 variant) and give back the version 7 ones
SELECT count(*) AS ids, bool_and(uuid7_unmask(uuid7_mask(uuid, :k1), :k1) = uuid) AS round_trips,
       bool_and(substr(uuid7_mask(uuid, :k1)::text, 15, 1) = '4') AS version_4,
       bool_and(substr(uuid7_mask(uuid, :k1)::text, 20, 1) IN ('8', '9', 'a', 'b')) AS variant,
       count(DISTINCT uuid7_mask(uuid, :k1)) AS masks
FROM gen;
-- The type is in the tweak: the same bits as two types give unrelated
-- codes; so is a typeid's prefix.
SELECT substr(id_mask(4242::bigint::shardid, :k1), 2) <> substr(id_mask(4242::bigint::snowflake, :k1), 2) AS shardid_vs_snowflake,
       substr(id_mask('\x0102030405060708090a0b0c'::bytea::objectid, :k1), 2)
         <> substr(id_mask('\x0102030405060708090a0b0c'::bytea::rsxid, :k1), 2) AS objectid_vs_rsxid,
       substr(id_mask(uuid, :k1), 2) <> substr(id_mask(uuid::ulid, :k1), 2) AS uuid_vs_ulid,
       right(id_mask(make_typeid('user', uuid), :k1), 26) <> right(id_mask(make_typeid('post', uuid), :k1), 26) AS prefix
FROM fixed;

-- NULL in, NULL out
SELECT id_mask(NULL::snowflake, :k1) IS NULL AS a, id_mask(4242::bigint::snowflake, NULL) IS NULL AS b,
       id_mask(4242::bigint::snowflake, :k1, NULL) IS NULL AS c,
       id_unmask(NULL, :k1, NULL::snowflake) IS NULL AS d, id_unmask('x', NULL, NULL::snowflake) IS NULL AS e,
       id_unmask('x', :k1, NULL::snowflake, NULL) IS NULL AS f, id_unmask(NULL, :k1, NULL::typeid) IS NULL AS g,
       uuid7_mask(NULL, :k1) IS NULL AS h, uuid7_unmask(NULL, :k1) IS NULL AS i,
       id_mask_key_symbol(NULL) IS NULL AS j;

-- Refusals, with their SQLSTATEs; no message shows a key.  Keys: 16, 24 or 32 bytes.
SELECT k, pg_temp.try(format('SELECT id_mask(1::bigint::snowflake, %L::bytea)', k)) AS id_mask,
       pg_temp.try(format('SELECT id_unmask(%L, %L::bytea, NULL::snowflake)', 'AAAAAAAAAAAA', k)) AS id_unmask
FROM (VALUES (''), ('\x73656372657473656372657473656372'), ('\x736563726574736563726574736563'),
             ('\x7365637265747365637265747365637265'), ('\x73656372657473656372657473656372657473656372657473656372657473'),
             ('\x736563726574736563726574736563726574736563726574736563726574736563')) AS x(k);
SELECT pg_temp.try('SELECT uuid7_mask(''01890a5d-ac96-774b-bcce-b302099a8057'', ''\x0102''::bytea)') AS uuid7_mask,
       pg_temp.try('SELECT id_mask_key_symbol(''\x0102''::bytea)') AS key_symbol,
       pg_temp.try('SELECT id_mask(make_typeid(''user'', ''01890a5d-ac96-774b-bcce-b302099a8057''), ''\x0102''::bytea)') AS typeid;
-- bad codes
SELECT q, pg_temp.try(q) FROM (VALUES
    (format('SELECT id_unmask(%L, %s, NULL::snowflake)', '', :'k1')),
    (format('SELECT id_unmask(%L, %s, NULL::snowflake)', '2AAAAAAAAA', :'k1')),
    (format('SELECT id_unmask(%L, %s, NULL::snowflake)', '2AAAAAAAAAAAA', :'k1')),
    (format('SELECT id_unmask(%L, %s, NULL::snowflake)', '2AAAAA=AAAAA', :'k1')),
    (format('SELECT id_unmask(%L, %s, NULL::snowflake)', '2AAAAAéAAAA', :'k1')),
    (format('SELECT id_unmask(%L, %s, NULL::snowflake)', '2I__________', :'k1')),
    (format('SELECT id_unmask(%L, %s, NULL::shardid)', '2Q__________', :'k1')),
    (format('SELECT id_unmask(%L, %s, NULL::shardid)', '2P__________', :'k1')),
    (format('SELECT id_unmask(%L, %s, NULL::shardid)', id_mask(4242::bigint::shardid, :k2), :'k1')),
    (format('SELECT id_unmask(%L, %s, NULL::shardid, %L)', id_mask(4242::bigint::shardid, :k1), :'k1', 'base62')),
    (format('SELECT id_unmask(%L, %s, NULL::typeid)', 'user_01h455vb4pex5vsknk084sn02q', :'k1')),
    (format('SELECT id_unmask(%L, %s, NULL::typeid)', 'user_x', :'k1')),
    (format('SELECT id_unmask(%L, %s, NULL::uuid)', '2AAAAAAAAAAAAAAAAAAAAA', :'k2'))
) AS x(q);
-- IDs that are not masked: UUIDs of other versions; and alphabets id_encode refuses too
SELECT q, pg_temp.try(q) FROM (VALUES
    (format('SELECT id_mask(%L::uuid, %s)', '01890a5d-ac96-474b-bcce-b302099a8057', :'k1')),
    (format('SELECT uuid7_mask(%L::uuid, %s)', '01890a5d-ac96-474b-bcce-b302099a8057', :'k1')),
    (format('SELECT uuid7_mask(%L::uuid, %s)', '01890a5d-ac96-774b-0cce-b302099a8057', :'k1')),
    (format('SELECT uuid7_unmask(%L::uuid, %s)', '01890a5d-ac96-774b-bcce-b302099a8057', :'k1')),
    (format('SELECT id_mask(make_typeid(%L, %L), %s)', 'user', '01890a5d-ac96-474b-bcce-b302099a8057', :'k1')),
    (format('SELECT id_mask(1::bigint::snowflake, %s, %L)', :'k1', 'a')),
    (format('SELECT id_mask(1::bigint::snowflake, %s, %L)', :'k1', 'abca')),
    (format('SELECT id_mask(1::bigint::snowflake, %s, %L)', :'k1', repeat('x', 300)))
) AS x(q);

-- The recommended setup (doc/masking.md): the keys in a table only their
-- owner reads, SECURITY DEFINER wrappers with a fixed search_path that
-- callers are granted.  The caller masks and unmasks, and cannot read a
-- key; an error inside the wrapper does not show the key either.
CREATE ROLE uid_mask_owner;
CREATE ROLE uid_mask_app;
CREATE SCHEMA uid_mask AUTHORIZATION uid_mask_owner;
GRANT USAGE ON SCHEMA uid_mask TO uid_mask_app;
SET ROLE uid_mask_owner;
CREATE TABLE uid_mask.keys (
    symbol text PRIMARY KEY,
    key bytea NOT NULL CHECK (length(key) IN (16, 24, 32)),
    current boolean NOT NULL DEFAULT false
);
CREATE UNIQUE INDEX ON uid_mask.keys (current) WHERE current;
REVOKE ALL ON uid_mask.keys FROM PUBLIC;
CREATE FUNCTION uid_mask.mask(id snowflake) RETURNS text
    LANGUAGE sql STABLE STRICT SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
    RETURN (SELECT id_mask(id, key) FROM uid_mask.keys WHERE current);
CREATE FUNCTION uid_mask.unmask(code text) RETURNS snowflake
    LANGUAGE sql STABLE STRICT SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
    RETURN (SELECT id_unmask(code, key, NULL::snowflake) FROM uid_mask.keys WHERE symbol = left(code, 1));
REVOKE ALL ON FUNCTION uid_mask.mask(snowflake), uid_mask.unmask(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION uid_mask.mask(snowflake), uid_mask.unmask(text) TO uid_mask_app;
INSERT INTO uid_mask.keys VALUES (id_mask_key_symbol(:k1), :k1, true);
RESET ROLE;
SET ROLE uid_mask_app;
SELECT uid_mask.unmask(uid_mask.mask(4242::bigint::snowflake)) AS round_trip,
       uid_mask.mask(4242::bigint::snowflake) = id_mask(4242::bigint::snowflake, :k1) AS same_code;
SELECT pg_temp.try('SELECT key FROM uid_mask.keys') AS read_keys;
SELECT pg_temp.try('SELECT count(*) FROM uid_mask.keys') AS count_keys;
RESET ROLE;
-- errors inside the wrapper and of the functions themselves: their
-- message, detail and hint do not hold the key (in hex, as bytea prints,
-- or as its bytes), and in the wrapper, whose statement has no key, neither
-- does the context (a key written into a statement is in the context's
-- copy of the statement: doc/masking.md)
CREATE FUNCTION pg_temp.shows_key(q text, key bytea, with_context boolean) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    m text; d text; h text; c text; all_text text;
BEGIN
    EXECUTE q;
    RETURN 'accepted';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS m = MESSAGE_TEXT, d = PG_EXCEPTION_DETAIL, h = PG_EXCEPTION_HINT, c = PG_EXCEPTION_CONTEXT;
    all_text := concat_ws(' ', m, d, h, CASE WHEN with_context THEN c END);
    RETURN SQLSTATE || CASE WHEN strpos(all_text, substr(key::text, 3)) > 0
                            OR strpos(all_text, encode(key, 'escape')) > 0
                            THEN ': shows the key' ELSE ': does not show the key' END
        || CASE WHEN c LIKE '%"unmask"%' THEN ', in the wrapper' ELSE '' END;
END $$;
GRANT EXECUTE ON FUNCTION pg_temp.shows_key(text, bytea, boolean) TO uid_mask_app;
SET ROLE uid_mask_app;
SELECT q, pg_temp.shows_key(q, :k1, true) FROM (VALUES
    ('SELECT uid_mask.unmask(''2AAAAA=AAAAA'')'),
    ('SELECT uid_mask.unmask(''2AAAAAAAAAAAA'')'),
    ('SELECT uid_mask.unmask(''2I__________'')')
) AS x(q);
RESET ROLE;
SELECT pg_temp.shows_key(format('SELECT id_unmask(%L, %L::bytea, NULL::snowflake)', '_AAAAAAAAAAA', k), k::bytea, false) AS other_symbol,
       pg_temp.shows_key(format('SELECT id_mask(1::bigint::snowflake, %L::bytea)', k || '00'), (k || '00')::bytea, false) AS bad_length,
       pg_temp.shows_key(format('SELECT id_mask(%L::uuid, %L::bytea)', '01890a5d-ac96-474b-bcce-b302099a8057', k), k::bytea, false) AS not_v7,
       -- (the check finds a key where there is one: in the statement's context)
       pg_temp.shows_key(format('SELECT id_mask(1::bigint::snowflake, %L::bytea)', k || '00'), (k || '00')::bytea, true) AS statement
FROM (VALUES ('\x73656372657473656372657473656372')) AS x(k);
-- rotation: a new current key with another symbol; old codes still unmask
CREATE TEMP TABLE old_code AS SELECT uid_mask.mask(4242::bigint::snowflake) AS code;
GRANT SELECT ON old_code TO uid_mask_app;
SET ROLE uid_mask_owner;
UPDATE uid_mask.keys SET current = false;
INSERT INTO uid_mask.keys VALUES (id_mask_key_symbol(:k2), :k2, true);
RESET ROLE;
SET ROLE uid_mask_app;
SELECT uid_mask.unmask(code) AS old_code_unmasks, uid_mask.mask(4242::bigint::snowflake) <> code AS new_code,
       uid_mask.unmask(uid_mask.mask(4242::bigint::snowflake)) AS new_round_trip
FROM old_code;
RESET ROLE;
DROP TABLE old_code;
DROP FUNCTION pg_temp.shows_key(text, bytea, boolean);
SET client_min_messages = warning;
DROP SCHEMA uid_mask CASCADE;
RESET client_min_messages;
DROP ROLE uid_mask_owner;
DROP ROLE uid_mask_app;
