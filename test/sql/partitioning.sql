-- partitioning: tables PARTITION BY RANGE (id) on the time inside the ID,
-- for every time-ordered type (shardid, snowflake, sonyflake, shortid,
-- sno, objectid, ulid, ksuid, rsxid, uuid from next_uuid7, typeid of one
-- prefix), with monthly partitions bounded by the floor functions
-- (doc/partitioning.md): rows routed by their ID's time, static pruning
-- for `id >= timestamptz` (for uuid and typeid, which have no operators
-- with timestamptz, `id >= uuid7_floor(...)`, `typeid_floor`), run-time pruning for
-- `id >= now() - interval '1 day'`, a default partition, and DETACH and
-- DROP of an old month.  The months are the ones around the current one,
-- so that generated IDs land in a partition of their own; what is printed
-- does not depend on the date.  Plans are read from EXPLAIN's JSON, which
-- every version prints alike.
CREATE EXTENSION IF NOT EXISTS uniqueid;
SET timezone = 'UTC';

CREATE TEMP TABLE fam (typ text, gen text, floor_fn text, ts_ops boolean);
-- (typeid's floor needs its prefix: a function of one argument for it)
CREATE FUNCTION pg_temp.ev_typeid_floor(t timestamptz) RETURNS typeid
    LANGUAGE sql IMMUTABLE STRICT RETURN typeid_floor('ev', t);
INSERT INTO fam VALUES
    ('shardid', 'next_id(7)', 'shardid_floor', true),
    ('snowflake', 'next_snowflake()', 'snowflake_floor', true),
    ('sonyflake', 'next_sonyflake()', 'sonyflake_floor', true),
    ('shortid', 'next_shortid()', 'shortid_floor', true),
    ('sno', 'next_sno()', 'sno_floor', true),
    ('objectid', 'next_objectid()', 'objectid_floor', true),
    ('ulid', 'next_ulid()', 'ulid_floor', true),
    ('ksuid', 'next_ksuid()', 'ksuid_floor', true),
    ('rsxid', 'next_rsxid()', 'rsxid_floor', true),
    ('uuid', 'next_uuid7()', 'uuid7_floor', false),
    ('typeid', 'next_typeid(''ev'')', 'pg_temp.ev_typeid_floor', false);
-- the months: two before the current one, the current one, the next one
CREATE TEMP TABLE months AS
SELECT k, CASE WHEN k < 0 THEN 'm_minus' || -k WHEN k = 0 THEN 'm_0' ELSE 'm_plus' || k END AS name,
       date_trunc('month', now()) + k * interval '1 month' AS lo,
       date_trunc('month', now()) + (k + 1) * interval '1 month' AS hi
FROM generate_series(-2, 1) AS k;

-- ev_TYPE (id TYPE DEFAULT generator, note text), its months' partitions
-- bounded by the floor function, and a default partition
DO $$
DECLARE
    f record;
    m record;
BEGIN
    FOR f IN SELECT * FROM fam LOOP
        EXECUTE format('CREATE TABLE %I (id %s NOT NULL DEFAULT %s PRIMARY KEY, note text) PARTITION BY RANGE (id)',
                       'ev_' || f.typ, f.typ, f.gen);
        FOR m IN SELECT * FROM months LOOP
            EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%s(%L)) TO (%s(%L))',
                           'ev_' || f.typ || '_' || m.name, 'ev_' || f.typ, f.floor_fn, m.lo, f.floor_fn, m.hi);
        END LOOP;
        EXECUTE format('CREATE TABLE %I PARTITION OF %I DEFAULT', 'ev_' || f.typ || '_default', 'ev_' || f.typ);
    END LOOP;
END $$;

-- the bounds are the floors of the months' first instants, as IDs
SELECT pg_get_expr(c.relpartbound, c.oid) ~ ('^FOR VALUES FROM \(''' || shardid_floor(m.lo)::text || '''\) TO \('''
                                              || shardid_floor(m.hi)::text || '''\)$') AS shardid_bound_is_floor,
       m.name
FROM months m JOIN pg_class c ON c.relname = 'ev_shardid_' || m.name ORDER BY m.k;

-- routing: rows whose IDs carry chosen times (the floor of a time is an ID
-- of that time), and one from the generator
CREATE FUNCTION pg_temp.put(typ text, floor_fn text, t timestamptz, note text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('INSERT INTO %I VALUES (%s($1), $2)', 'ev_' || typ, floor_fn) USING t, note;
END $$;
SELECT count(pg_temp.put(f.typ, f.floor_fn, v.t, v.note)) AS rows_put
FROM fam f, months m0, LATERAL (VALUES
    (m0.lo, 'first instant of the month'),
    (m0.lo - interval '1 second', 'last second of the month before'),
    (m0.lo - interval '1 month' + interval '15 days', 'middle of the month before'),
    (m0.lo - interval '2 months' + interval '1 hour', 'early two months before'),
    (m0.lo + interval '1 month' + interval '3 days', 'next month'),
    (m0.lo - interval '3 months', 'three months before'),
    (m0.lo + interval '2 months', 'two months ahead')) AS v(t, note)
WHERE m0.k = 0;
DO $$
DECLARE
    f record;
BEGIN
    FOR f IN SELECT * FROM fam LOOP
        EXECUTE format('INSERT INTO %I (note) VALUES (''generated now'')', 'ev_' || f.typ);
    END LOOP;
END $$;

-- every row is in the partition of its ID's month (the default partition
-- when that month has none), the same for every type
CREATE FUNCTION pg_temp.placement(typ text)
RETURNS TABLE (note text, part text, time_in_bounds boolean) LANGUAGE plpgsql AS $$
BEGIN
    RETURN QUERY EXECUTE format(
        'SELECT e.note, substr(e.tableoid::regclass::text, length(%L) + 2),
                coalesce(id_time(e.id) >= m.lo AND id_time(e.id) < m.hi,
                         NOT EXISTS (SELECT FROM months m2 WHERE id_time(e.id) >= m2.lo AND id_time(e.id) < m2.hi))
         FROM %I e LEFT JOIN months m ON e.tableoid::regclass::text = %L || ''_'' || m.name',
        'ev_' || typ, 'ev_' || typ, 'ev_' || typ);
END $$;
SELECT p.note, p.part, bool_and(p.time_in_bounds) AS time_in_bounds, count(*) AS types
FROM fam f, LATERAL pg_temp.placement(f.typ) p WHERE p.note <> 'generated now'
GROUP BY 1, 2 ORDER BY 2, 1;
-- the generated rows: made now, so in the current month's partition (the
-- next month's, were the test to run across the end of a month)
SELECT f.typ, p.part IN ('m_0', 'm_plus1') AS this_month, p.time_in_bounds
FROM fam f, LATERAL pg_temp.placement(f.typ) p WHERE p.note = 'generated now' ORDER BY 1;

-- which partitions a query reads: those in the plan (pruned ones are not)
-- and not "never executed", and how many subplans run-time pruning removed
CREATE FUNCTION pg_temp.reads(q text, OUT parts text, OUT removed_at_run_time int) LANGUAGE plpgsql AS $$
DECLARE
    plan jsonb;
BEGIN
    EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, FORMAT JSON) ' || q INTO plan;
    SELECT string_agg(regexp_replace(n->>'Relation Name', '^ev_[a-z0-9]+_', ''), ' '
                      ORDER BY n->>'Relation Name')
           FILTER (WHERE (n->>'Actual Loops')::int > 0)
      INTO parts
      FROM jsonb_path_query(plan, 'strict $.**') AS n
     WHERE jsonb_typeof(n) = 'object' AND n ? 'Relation Name';
    SELECT coalesce(sum((n->>'Subplans Removed')::int), 0)::int INTO removed_at_run_time
      FROM jsonb_path_query(plan, 'strict $.**') AS n
     WHERE jsonb_typeof(n) = 'object' AND n ? 'Subplans Removed';
END $$;
SELECT m.lo AS m0_start, m.lo - interval '1 month' AS m1_start FROM months m WHERE k = 0 \gset

-- static pruning: `id >= timestamptz '<first instant of the month before>'`
-- reads that month, the current one, the next one and the default
-- partition (which may hold later IDs); `id < timestamptz` the months
-- before and the default partition; `id BETWEEN` one month only.  For uuid
-- and typeid (no operators with timestamptz) the same through their floor,
-- which folds to a constant.
SELECT f.typ, r.*
FROM fam f, LATERAL pg_temp.reads(format(
    CASE WHEN f.ts_ops THEN 'SELECT * FROM %I WHERE id >= timestamptz %L'
         ELSE 'SELECT * FROM %I WHERE id >= ' || f.floor_fn || '(%L)' END, 'ev_' || f.typ, :'m1_start')) r
ORDER BY 1;
SELECT f.typ, r.*
FROM fam f, LATERAL pg_temp.reads(format(
    CASE WHEN f.ts_ops THEN 'SELECT * FROM %I WHERE id < timestamptz %L'
         ELSE 'SELECT * FROM %I WHERE id < ' || f.floor_fn || '(%L)' END, 'ev_' || f.typ, :'m1_start')) r
ORDER BY 1;
SELECT f.typ, r.*
FROM fam f, LATERAL pg_temp.reads(format(
    CASE WHEN f.ts_ops THEN 'SELECT * FROM %I WHERE id >= timestamptz %L AND id < timestamptz %L'
         ELSE 'SELECT * FROM %I WHERE id >= ' || f.floor_fn || '(%L) AND id < ' || f.floor_fn || '(%L)' END,
    'ev_' || f.typ, :'m1_start', :'m0_start')) r
ORDER BY 1;

-- run-time pruning: now() is fixed when the query starts, so the months
-- that end before now() - 1 day are removed then ("Subplans Removed"):
-- two months back always, the month before when the day is over
SELECT f.typ, r.parts = CASE WHEN now() - interval '1 day' < :'m0_start'::timestamptz
                             THEN 'default m_0 m_minus1 m_plus1' ELSE 'default m_0 m_plus1' END AS reads_the_recent_months,
       r.removed_at_run_time = CASE WHEN now() - interval '1 day' < :'m0_start'::timestamptz THEN 1 ELSE 2 END
           AS removes_the_older_ones
FROM fam f, LATERAL pg_temp.reads(format(
    CASE WHEN f.ts_ops THEN 'SELECT * FROM %I WHERE id >= now() - interval ''1 day'''
         ELSE 'SELECT * FROM %I WHERE id >= ' || f.floor_fn || '(now() - interval ''1 day'')' END, 'ev_' || f.typ)) r
ORDER BY 1;
-- and with a parameter, in a prepared statement's generic plan
SET plan_cache_mode = force_generic_plan;
PREPARE since(timestamptz) AS SELECT * FROM ev_shardid WHERE id >= $1;
SELECT * FROM pg_temp.reads(format('EXECUTE since(%L)', :'m0_start'));
DEALLOCATE since;
RESET plan_cache_mode;

-- a default partition takes what no month does; a month added later while
-- the default partition holds rows of it is an error, so those rows move:
-- detach the default partition, add the month, move its rows over,
-- attach the default partition again
SELECT count(*) AS in_default FROM ev_ulid_default;
CREATE TABLE ev_ulid_m_plus2 PARTITION OF ev_ulid
    FOR VALUES FROM (ulid_floor(:'m0_start'::timestamptz + interval '2 months'))
                 TO (ulid_floor(:'m0_start'::timestamptz + interval '3 months'));
BEGIN;
ALTER TABLE ev_ulid DETACH PARTITION ev_ulid_default;
CREATE TABLE ev_ulid_m_plus2 PARTITION OF ev_ulid
    FOR VALUES FROM (ulid_floor(:'m0_start'::timestamptz + interval '2 months'))
                 TO (ulid_floor(:'m0_start'::timestamptz + interval '3 months'));
WITH moved AS (
    DELETE FROM ev_ulid_default
    WHERE id >= :'m0_start'::timestamptz + interval '2 months' AND id < :'m0_start'::timestamptz + interval '3 months'
    RETURNING *)
INSERT INTO ev_ulid SELECT * FROM moved;
ALTER TABLE ev_ulid ATTACH PARTITION ev_ulid_default DEFAULT;
COMMIT;
SELECT note, substr(tableoid::regclass::text, 9) AS part FROM ev_ulid WHERE note LIKE '%months%' ORDER BY 1;

-- retiring the oldest month: DETACH keeps its rows as a table of its own,
-- DROP removes them; the rest stays routed and readable
ALTER TABLE ev_objectid DETACH PARTITION ev_objectid_m_minus2;
SELECT count(*) AS detached_rows FROM ev_objectid_m_minus2;
DROP TABLE ev_objectid_m_minus2;
SELECT count(*) AS rows_left, count(*) FILTER (WHERE tableoid = 'ev_objectid_default'::regclass) AS in_default
FROM ev_objectid;
-- a row of the dropped month now goes to the default partition
SELECT count(pg_temp.put('objectid', 'objectid_floor', :'m0_start'::timestamptz - interval '2 months', 'after the drop'));
SELECT tableoid::regclass FROM ev_objectid WHERE note = 'after the drop';

-- a bound that is not an ID of the key's type is an error
CREATE TABLE bad_bound PARTITION OF ev_sno FOR VALUES FROM (shardid_floor('2030-01-01')) TO (shardid_floor('2030-02-01'));

DROP TABLE ev_shardid, ev_snowflake, ev_sonyflake, ev_shortid, ev_sno, ev_objectid, ev_ulid, ev_ksuid, ev_rsxid,
    ev_uuid, ev_typeid;
