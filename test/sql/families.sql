-- snowflake, sonyflake, shortid, spreadid: text forms, bad input, casts,
-- constructors, operator classes, time comparison, generators
CREATE EXTENSION IF NOT EXISTS uniqueid;
SET timezone = 'UTC';
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/try.sql

-- published examples
SELECT '204697221847986177'::snowflake AS twitter, id_time('204697221847986177'::snowflake),
       id_node('204697221847986177'::snowflake), id_seq('204697221847986177'::snowflake);
SELECT '282372624875852340'::sonyflake AS sony, id_time('282372624875852340'::sonyflake),
       id_seq('282372624875852340'::sonyflake), id_node('282372624875852340'::sonyflake);
SELECT 'xinaS8QBh'::shortid AS shortid, 'xinaS8QBh'::shortid::bigint AS value, id_time('xinaS8QBh'::shortid),
       id_seq('xinaS8QBh'::shortid), id_random('xinaS8QBh'::shortid);
SELECT s::spreadid, id_time(s::spreadid), id_seq(s::spreadid), id_node(s::spreadid),
       id_cluster(s::spreadid), id_mode(s::spreadid)
FROM (VALUES ('cb54ecf2840a0015'), ('0853CDCAB4CA1015')) AS t(s);

-- shortid's smallest values are padded to 4 digits (the original refused them)
SELECT 0::bigint::shortid AS zero, 1::bigint::shortid AS one, 262143::bigint::shortid AS below_2_18,
       'AAAA'::shortid::bigint AS back;

-- bad text, per type
SELECT t AS type, v AS input, pg_temp.try(format('SELECT %L::%s', v, t)) AS result
FROM (VALUES ('snowflake', '9223372036854775807'), ('snowflake', '9223372036854775808'), ('snowflake', '-1'),
             ('snowflake', ''), ('sonyflake', '18446744073709551615'), ('sonyflake', '1e3'),
             ('shortid', 'AAB'), ('shortid', 'AAABA'), ('shortid', 'AAB^'), ('shortid', 'AAB='),
             ('shortid', '___________'), ('shortid', 'ABCDEFGHIJKL'), ('shortid', '__________'),
             ('spreadid', '0123456789abcde'), ('spreadid', '0123456789abcdefa'), ('spreadid', '0123456789abcdeg'),
             ('spreadid', ' 0123456789abcde')) AS x(t, v);

-- casts: to bigint by assignment; from bigint explicit and checked
SELECT (-1)::bigint::spreadid AS all_ones, 5::bigint::snowflake AS small;
SELECT q, pg_temp.try(q) AS result
FROM (VALUES ('SELECT (-1)::bigint::snowflake'), ('SELECT (-1)::bigint::sonyflake'),
             ($$SELECT x'1000000000000000'::bigint::shortid$$)) AS t(q);
CREATE TABLE legacy_ids (a bigint, b bigint);
INSERT INTO legacy_ids VALUES ('204697221847986177'::snowflake, 'xinaS8QBh'::shortid);
SELECT * FROM legacy_ids;

-- constructors: every field range-checked (22003), times outside the layout 22008
SELECT make_snowflake('2012-05-21 22:16:35.436+00', 35, 1) AS snowflake,
       make_sonyflake('2020-01-01+00', 5, 4660) AS sonyflake,
       make_shortid('2019-07-03 18:45:04.129+00', 270, 98) AS shortid,
       make_spreadid('2024-09-12 14:28:32.512+00', 43, 1758, 15, 'spread') AS spreadid;
SELECT q, pg_temp.try(q) AS result
FROM (VALUES ('SELECT make_snowflake(now(), 1024, 0)'), ('SELECT make_snowflake(now(), 0, 4096)'),
             ($$SELECT make_snowflake('2010-11-04 01:42:54.656+00', 0, 0)$$),
             ('SELECT make_sonyflake(now(), 256, 0)'), ('SELECT make_sonyflake(now(), 0, 65536)'),
             ($$SELECT make_sonyflake('2188-11-16 03:28:58.88+00', 0, 0)$$),
             ('SELECT make_shortid(now(), 512, 0)'), ('SELECT make_shortid(now(), 0, -1)'),
             ($$SELECT make_shortid('2157-07-13 07:35:11.104+00', 0, 0)$$),
             ('SELECT make_spreadid(now(), 64, 0, 0, ''time'')'), ('SELECT make_spreadid(now(), 0, 2048, 0, ''time'')'),
             ('SELECT make_spreadid(now(), 0, 0, 16, ''time'')'), ('SELECT make_spreadid(now(), 0, 0, 0, ''SPREAD'')'),
             ($$SELECT make_spreadid('2109-05-15 07:35:11.104+00', 0, 0, 0, 'time')$$)) AS t(q);
SELECT make_spreadid(now(), 0, 0, 0, 'sideways');

-- operator classes
SELECT t.typname, a.amname, c.opcname, amvalidate(c.oid)
FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod JOIN pg_type t ON t.oid = c.opcintype
WHERE t.typname IN ('snowflake', 'sonyflake', 'shortid', 'spreadid') ORDER BY 1, 2;

-- time ranges through the index of the time-ordered types; spreadid has none
CREATE TABLE tweets (id snowflake PRIMARY KEY);
INSERT INTO tweets SELECT make_snowflake(t, 1, 0) FROM generate_series('2025-12-30'::timestamptz, '2026-02-02', '1 hour') t;
SELECT count(*), min(id), max(id) FROM tweets WHERE id >= timestamptz '2026-01-01' AND id < timestamptz '2026-02-01';
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM tweets WHERE id >= timestamptz '2026-01-01' AND id < timestamptz '2026-02-01';
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT make_sonyflake('2026-01-01', 0, 0) >= timestamptz '2026-01-01' AS sony_bound,
       make_shortid('2026-01-01', 0, 0) >= timestamptz '2026-01-01' AS shortid_bound,
       make_sonyflake('2026-01-01 00:00:00.010+00', 0, 0) = timestamptz '2026-01-01 00:00:00.001+00' AS rounds_up_to_10ms;
SELECT (-1)::bigint::spreadid < now();

-- generators: uniqueid.node as node, machine and generator id
SELECT id_node(next_snowflake()) AS snowflake_node, id_node(next_sonyflake()) AS sony_machine,
       id_node(next_spreadid()) AS spread_generator, id_cluster(next_spreadid('time')) AS cluster,
       id_mode(next_spreadid()) AS default_mode, id_mode(next_spreadid('time')) AS time_mode;
SELECT next_spreadid('both');
\echo :LAST_ERROR_SQLSTATE
SELECT proname, provolatile, proparallel FROM pg_proc
WHERE proname IN ('next_snowflake', 'next_sonyflake', 'next_shortid', 'next_spreadid',
                  'make_snowflake', 'make_sonyflake', 'make_shortid', 'make_spreadid') ORDER BY 1;
