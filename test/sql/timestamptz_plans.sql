-- Every plan gives the same rows for conditions that compare an ID with a
-- timestamptz.  For each time-ordered type, conditions are generated from
-- = < <= > >= against ID constants and timestamptz constants (inside one
-- unit, on unit boundaries, at the first and last times the type holds, and
-- the infinities), in both argument orders, and combined two and three at a
-- time.  Each query runs as a sequential scan (the reference), an index scan,
-- an index-only scan, a bitmap scan of the btree index, a bitmap scan of a
-- BRIN index, and as prepared generic plans of the last four; every result
-- must equal the sequential scan's, row for row, and every plan must be the
-- one asked for (or the planner's proof that no row can match).
CREATE EXTENSION IF NOT EXISTS uniqueid;
SET timezone = 'UTC';
SET client_min_messages = warning;

-- How to make the IDs of a type: the smallest, the second smallest and the
-- largest ID of the unit that begins at a time (%s), and the type's first
-- and last ID.
CREATE TABLE plan_types (typ text PRIMARY KEY, unit interval, lo text, lo_next text, hi text,
    first_id text, last_id text);
INSERT INTO plan_types VALUES
 ('shardid', '1 ms', 'make_shardid(%s, 0, 0)', 'make_shardid(%s, 0, 1)', 'make_shardid(%s, 8191, 1023)',
  $$'0'::shardid$$, $$'18446744073709551615'::shardid$$),
 ('snowflake', '1 ms', 'make_snowflake(%s, 0, 0)', 'make_snowflake(%s, 0, 1)', 'make_snowflake(%s, 1023, 4095)',
  '0::bigint::snowflake', '9223372036854775807::bigint::snowflake'),
 ('sonyflake', '10 ms', 'make_sonyflake(%s, 0, 0)', 'make_sonyflake(%s, 0, 1)', 'make_sonyflake(%s, 255, 65535)',
  '0::bigint::sonyflake', '9223372036854775807::bigint::sonyflake'),
 ('shortid', '1 ms', 'make_shortid(%s, 0, 0)', 'make_shortid(%s, 0, 1)', 'make_shortid(%s, 511, 511)',
  '0::bigint::shortid', '1152921504606846975::bigint::shortid'),
 ('sno', '4 ms', 'make_sno(%s, 0, 0, 0, 0)', 'make_sno(%s, 0, 0, 1, 0)', 'make_sno(%s, 255, 65535, 65535, 1)',
  $$'\x00000000000000000000'::bytea::sno$$, $$'\xffffffffffffffffffff'::bytea::sno$$),
 ('objectid', '1 s', 'make_objectid(%s, 0, 0)', 'make_objectid(%s, 0, 1)', 'make_objectid(%s, 1099511627775, 16777215)',
  $$'000000000000000000000000'::objectid$$, $$'ffffffffffffffffffffffff'::objectid$$);

-- the plans of the check, and how each is forced
CREATE TABLE plan_modes (mode text PRIMARY KEY, ord int, tab text, generic bool, gucs text[], node text);
INSERT INTO plan_modes VALUES
 ('seq', 0, 'plan_t', false,
  '{enable_seqscan=on,enable_indexscan=off,enable_indexonlyscan=off,enable_bitmapscan=off}', 'Seq Scan on plan_t'),
 ('index', 1, 'plan_t', false,
  '{enable_seqscan=off,enable_indexscan=on,enable_indexonlyscan=off,enable_bitmapscan=off}', 'Index Scan using plan_t_pkey'),
 ('index only', 2, 'plan_t', false,
  '{enable_seqscan=off,enable_indexscan=on,enable_indexonlyscan=on,enable_bitmapscan=off}', 'Index Only Scan using plan_t_pkey'),
 ('bitmap', 3, 'plan_t', false,
  '{enable_seqscan=off,enable_indexscan=off,enable_indexonlyscan=off,enable_bitmapscan=on}', 'Bitmap Index Scan on plan_t_pkey'),
 ('brin', 4, 'plan_b', false,
  '{enable_seqscan=off,enable_indexscan=on,enable_indexonlyscan=on,enable_bitmapscan=on}', 'Bitmap Index Scan on plan_b_brin'),
 ('generic index', 5, 'plan_t', true,
  '{enable_seqscan=off,enable_indexscan=on,enable_indexonlyscan=off,enable_bitmapscan=off}', 'Index Scan using plan_t_pkey'),
 ('generic bitmap', 6, 'plan_t', true,
  '{enable_seqscan=off,enable_indexscan=off,enable_indexonlyscan=off,enable_bitmapscan=on}', 'Bitmap Index Scan on plan_t_pkey'),
 ('generic brin', 7, 'plan_b', true,
  '{enable_seqscan=off,enable_indexscan=on,enable_indexonlyscan=on,enable_bitmapscan=on}', 'Bitmap Index Scan on plan_b_brin');

CREATE TABLE plan_mismatches (typ text, mode text, query text, got text, want text);

-- Makes the tables of one type: the smallest, second smallest and largest ID
-- of units at the start of the type's range, around a boundary b, and at
-- its end; in plan_b in ID order over pages of a few rows each, so that
-- BRIN's one-page ranges tell them apart.
CREATE PROCEDURE plan_setup(p_typ text) LANGUAGE plpgsql AS $fn$
DECLARE
    t plan_types;
    first_t timestamptz;
    last_t timestamptz;
    b timestamptz := '2026-01-01 00:00:00+00';	-- a unit boundary of every type
    mk text;
BEGIN
    SELECT * INTO t FROM plan_types WHERE typ = p_typ;
    EXECUTE format('SELECT id_time(%s), id_time(%s)', t.first_id, t.last_id) INTO first_t, last_t;
    DROP TABLE IF EXISTS plan_t, plan_b;
    EXECUTE format('CREATE TABLE plan_t (id %s PRIMARY KEY, pad text) WITH (fillfactor = 10)', p_typ);
    EXECUTE format('CREATE TABLE plan_b (id %s, pad text) WITH (fillfactor = 10)', p_typ);
    FOREACH mk IN ARRAY ARRAY[t.lo, t.lo_next, t.hi] LOOP
        EXECUTE format('INSERT INTO plan_t SELECT %s, repeat(''x'', 500) FROM unnest($1) AS p', format(mk, 'p'))
        USING ARRAY[first_t, first_t + t.unit, b - t.unit, b, b + t.unit, b + 2 * t.unit,
                    last_t - t.unit, last_t];
    END LOOP;
    INSERT INTO plan_b SELECT * FROM plan_t ORDER BY id;
    CREATE INDEX plan_b_brin ON plan_b USING brin (id) WITH (pages_per_range = 1);
END
$fn$;

-- Runs the check for one type on the tables of plan_setup: every pair of
-- conditions with a timestamptz in it, and `triples` three-condition queries
-- drawn by a fixed linear congruential sequence.  Returns how many queries
-- and runs were compared and how many differed; what differed (rows or
-- plan) goes to plan_mismatches.
CREATE FUNCTION plan_check(p_typ text, triples int, OUT queries int, OUT runs int, OUT mismatches int)
LANGUAGE plpgsql AS $fn$
DECLARE
    t plan_types;
    m plan_modes;
    first_t timestamptz;
    last_t timestamptz;
    b timestamptz := '2026-01-01 00:00:00+00';
    ops text[] := ARRAY['=', '<', '<=', '>', '>='];
    cval text[] := '{}';	-- the constant of each condition, as an SQL literal
    ctyp text[] := '{}';	-- its type
    cop text[] := '{}';
    cflip bool[] := '{}';	-- written as "constant OP id"
    qconds int[] := '{}';	-- three conditions per query (0 = none)
    want text[] := '{}';
    conds text[];
    params text[];
    ptypes text[];
    sql text;
    got text;
    plan text;
    seed bigint := 12345;
    n int;
    k int := 0;
    c int;
    arg text;
BEGIN
    SELECT * INTO t FROM plan_types WHERE typ = p_typ;
    EXECUTE format('SELECT id_time(%s), id_time(%s)', t.first_id, t.last_id) INTO first_t, last_t;

    -- the conditions: each operator against each constant; timestamptz
    -- constants in both argument orders, alternately
    FOREACH sql IN ARRAY ARRAY[format(t.lo, quote_literal(b)), format(t.lo_next, quote_literal(b)),
                               format(t.hi, quote_literal(b)), format(t.lo, quote_literal(b + t.unit)),
                               t.first_id, t.last_id] LOOP
        EXECUTE 'SELECT quote_literal((' || sql || ')::text)' INTO got;
        FOR i IN 1..5 LOOP
            cval := cval || format('%s::%s', got, p_typ);
            ctyp := ctyp || p_typ;
            cop := cop || ops[i];
            cflip := cflip || false;
        END LOOP;
    END LOOP;
    FOREACH got IN ARRAY ARRAY[b, b + interval '1 microsecond', b + t.unit / 2,
                               b + t.unit - interval '1 microsecond', b + t.unit,
                               first_t - interval '1 microsecond', first_t, first_t + interval '1 microsecond',
                               last_t - interval '1 microsecond', last_t, last_t + interval '1 microsecond',
                               '-infinity', 'infinity']::text[] LOOP
        FOR i IN 1..5 LOOP
            k := k + 1;
            cval := cval || format('%s::timestamptz', quote_literal(got));
            ctyp := ctyp || 'timestamptz'::text;
            cop := cop || ops[i];
            cflip := cflip || (k % 2 = 0);
        END LOOP;
    END LOOP;

    -- the queries: every pair (i <= j) with a timestamptz, then the triples
    n := array_length(cval, 1);
    FOR i IN 1..n LOOP
        FOR j IN i..n LOOP
            IF ctyp[i] = 'timestamptz' OR ctyp[j] = 'timestamptz' THEN
                qconds := qconds || ARRAY[i, j, 0];
            END IF;
        END LOOP;
    END LOOP;
    FOR q IN 1..triples * 3 LOOP
        seed := (seed * 1103515245 + 12345) % 2147483648;
        qconds := qconds || (1 + (seed / 65536) % n)::int;
    END LOOP;
    queries := array_length(qconds, 1) / 3;
    runs := 0;

    FOR m IN SELECT * FROM plan_modes ORDER BY ord LOOP
        PERFORM set_config(split_part(g, '=', 1), split_part(g, '=', 2), true) FROM unnest(m.gucs) AS g;
        PERFORM set_config('plan_cache_mode', CASE WHEN m.generic THEN 'force_generic_plan' ELSE 'auto' END, true);
        FOR q IN 1..queries LOOP
            conds := '{}';
            params := '{}';
            ptypes := '{}';
            FOR x IN 1..3 LOOP
                c := qconds[3 * (q - 1) + x];
                CONTINUE WHEN c = 0;
                IF m.generic THEN
                    params := params || cval[c];
                    ptypes := ptypes || ctyp[c];
                    arg := '$' || array_length(params, 1);
                ELSE
                    arg := cval[c];
                END IF;
                conds := conds || CASE WHEN cflip[c] THEN format('%s %s id', arg, cop[c])
                                       ELSE format('id %s %s', cop[c], arg) END;
            END LOOP;
            -- the rows as one string, in an order that does not depend on the plan
            sql := format('SELECT coalesce(string_agg(id::text, %L ORDER BY id::text), %L) FROM (SELECT id FROM %s WHERE %s) s',
                          ',', '', m.tab, array_to_string(conds, ' AND '));
            IF m.generic THEN
                EXECUTE format('PREPARE plan_q(%s) AS %s', array_to_string(ptypes, ', '), sql);
                sql := format('EXECUTE plan_q(%s)', array_to_string(params, ', '));
            END IF;
            plan := '';
            FOR got IN EXECUTE 'EXPLAIN (COSTS OFF) ' || sql LOOP
                plan := plan || got || E'\n';
            END LOOP;
            EXECUTE sql INTO got;
            IF m.generic THEN
                sql := sql || ' -- ' || array_to_string(conds, ' AND ');
                DEALLOCATE plan_q;
            END IF;
            runs := runs + 1;
            IF position(m.node IN plan) = 0 AND plan NOT LIKE '%One-Time Filter: false%' THEN
                INSERT INTO plan_mismatches VALUES (p_typ, m.mode, sql, plan, m.node);
            END IF;
            IF m.mode = 'seq' THEN
                want := want || got;
            ELSIF got <> want[q] THEN
                INSERT INTO plan_mismatches VALUES (p_typ, m.mode, sql, got, want[q]);
            END IF;
        END LOOP;
    END LOOP;
    SELECT count(*) INTO mismatches FROM plan_mismatches WHERE typ = p_typ;
END
$fn$;

CALL plan_setup('shardid');
VACUUM ANALYZE plan_t, plan_b;
SELECT 'shardid' AS type, * FROM plan_check('shardid', 600);

CALL plan_setup('snowflake');
VACUUM ANALYZE plan_t, plan_b;
SELECT 'snowflake' AS type, * FROM plan_check('snowflake', 600);

CALL plan_setup('sonyflake');
VACUUM ANALYZE plan_t, plan_b;
SELECT 'sonyflake' AS type, * FROM plan_check('sonyflake', 600);

CALL plan_setup('shortid');
VACUUM ANALYZE plan_t, plan_b;
SELECT 'shortid' AS type, * FROM plan_check('shortid', 600);

CALL plan_setup('sno');
VACUUM ANALYZE plan_t, plan_b;
SELECT 'sno' AS type, * FROM plan_check('sno', 600);

CALL plan_setup('objectid');
VACUUM ANALYZE plan_t, plan_b;
SELECT 'objectid' AS type, * FROM plan_check('objectid', 600);

-- what differed, if anything (the first few)
SELECT * FROM plan_mismatches ORDER BY typ, mode, query LIMIT 20;
