-- pgTAP: every example of the TypeID spec's valid and invalid files
-- (test/vectors/typeid_{valid,invalid}.json, copied from jetify-com/typeid
-- spec/ at be8ff0d, spec version 0.3.0): each valid typeid reads as its
-- prefix and UUID and is written back the same, make_typeid builds it from
-- them; each invalid one is refused with 22P02.  Then the order, the binary
-- form, and typeid_prefix as a CHECK.
\set QUIET on
SET client_min_messages = warning;
BEGIN;
\set valid `cat test/vectors/typeid_valid.json`
\set invalid `cat test/vectors/typeid_invalid.json`
CREATE TEMP TABLE v AS SELECT e->>'name' AS name, e->>'typeid' AS typeid, e->>'prefix' AS prefix, (e->>'uuid')::uuid AS uuid
FROM jsonb_array_elements(:'valid'::jsonb) AS e;
CREATE TEMP TABLE iv AS SELECT e->>'name' AS name, e->>'typeid' AS typeid, e->>'description' AS why
FROM jsonb_array_elements(:'invalid'::jsonb) AS e;
CREATE FUNCTION pg_temp.sqlstate_of(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE q;
    RETURN 'accepted';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE;
END $$;

SELECT plan(4 * (SELECT count(*)::int FROM v) + (SELECT count(*)::int FROM iv) + 9);

SELECT is(typeid::typeid::text, typeid, format('valid %s: %s reads and writes back', name, typeid)) FROM v;
SELECT is(typeid_prefix(typeid::typeid), prefix, format('valid %s: prefix %L', name, prefix)) FROM v;
SELECT is(typeid::typeid::uuid, uuid, format('valid %s: uuid %s', name, uuid)) FROM v;
SELECT is(make_typeid(prefix, uuid)::text, typeid, format('valid %s: make_typeid(%L, %s)', name, prefix, uuid)) FROM v;
SELECT is(pg_temp.sqlstate_of(format('SELECT %L::typeid', typeid)), '22P02',
          format('invalid %s: %L is refused (%s)', name, typeid, why)) FROM iv;

-- order: by prefix (a prefix before its extensions), then UUID
SELECT is(array_agg(t ORDER BY t::typeid), ARRAY['01h5fskfsk4fpeqwnsyz5hj55t', 'a_00000000000000000000000000',
          'a_01h5fskfsk4fpeqwnsyz5hj55t', 'a_b_00000000000000000000000000', 'ab_00000000000000000000000000'],
          'typeid order: prefix first, then the UUID')
FROM unnest(ARRAY['ab_00000000000000000000000000', 'a_01h5fskfsk4fpeqwnsyz5hj55t', 'a_b_00000000000000000000000000',
                  '01h5fskfsk4fpeqwnsyz5hj55t', 'a_00000000000000000000000000']) AS t;
-- binary: the prefix's bytes, then the UUID's 16
SELECT is(typeid_send('user_01h5fskfsk4fpeqwnsyz5hj55t'),
          convert_to('user', 'UTF8') || uuid_send('01895f99-bf33-23ec-ebf2-b9f7cb1914ba'),
          'typeid binary form: prefix bytes then the UUID');
-- generated: version 7, of the prefix, increasing across prefixes
CREATE TEMP TABLE g AS SELECT i, next_typeid(CASE WHEN i % 2 = 0 THEN 'user' ELSE 'order_line' END) AS id
FROM generate_series(1, 2000) AS i;
SELECT is((SELECT count(*) FROM g WHERE substr(id::uuid::text, 15, 1) <> '7'), 0::bigint, 'next_typeid: version 7 UUIDs');
SELECT is((SELECT count(*) FROM g WHERE typeid_prefix(id) <> CASE WHEN i % 2 = 0 THEN 'user' ELSE 'order_line' END),
          0::bigint, 'next_typeid: of the prefix asked for');
SELECT is((SELECT count(*) FROM (SELECT id::uuid AS u, lag(id::uuid) OVER (ORDER BY i) AS p FROM g) AS s WHERE u <= p),
          0::bigint, 'next_typeid: UUIDs strictly increasing, across prefixes');
SELECT is(pg_temp.sqlstate_of($$SELECT next_typeid('User')$$), '22023', 'next_typeid: a bad prefix is 22023');
SELECT is(pg_temp.sqlstate_of($$SELECT make_typeid('a_', gen_random_uuid())$$), '22023', 'make_typeid: a bad prefix is 22023');
-- a column pinned to one prefix by a domain
CREATE DOMAIN pg_temp.user_id AS typeid CHECK (typeid_prefix(VALUE) = 'user');
SELECT is(pg_temp.sqlstate_of($$SELECT 'order_01h5fskfsk4fpeqwnsyz5hj55t'::pg_temp.user_id$$), '23514',
          'a domain CHECK on typeid_prefix pins the prefix');
SELECT is(pg_temp.sqlstate_of($$SELECT next_typeid('user')::pg_temp.user_id$$), 'accepted',
          'and takes the generator of its prefix');

SELECT * FROM finish();
ROLLBACK;
