-- uniqueid, SQL edition: removal (portable/uniqueid-remove.sql).
--
-- Removes what portable/uniqueid.sql installed in the schema first in
-- search_path (current_schema()), as the role that installed it:
--
--   psql -v ON_ERROR_STOP=1 -1 -f portable/uniqueid-remove.sql   (or paste it)
--
-- Refuses, changing nothing, while anything outside the edition depends on
-- it (a column of type shardid, snowflake or sonyflake, a default calling
-- next_id(), a view or function using it), and names what does.

DO $remove$
DECLARE
    s name := pg_catalog.current_schema();
    ns oid := (SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = pg_catalog.current_schema());
    users text;
    r record;
BEGIN
    IF pg_catalog.to_regclass(pg_catalog.quote_ident(s) || '.uniqueid_node') IS NULL THEN
        RAISE EXCEPTION 'uniqueid''s SQL edition is not installed in schema %', s
            USING ERRCODE = 'undefined_object',
                  HINT = 'Put the schema it was installed in first in search_path.';
    END IF;

    -- the edition's own objects: its functions, types, operators and relations in s
    CREATE TEMPORARY TABLE uniqueid_edition ON COMMIT DROP AS
        SELECT 'pg_proc'::regclass AS classid, p.oid AS objid FROM pg_catalog.pg_proc p
         WHERE p.pronamespace = ns
           AND (p.proname LIKE 'uniqueid\_%' OR p.proname IN ('id_time', 'id_shard', 'id_seq', 'id_node', 'id_parts',
                'make_shardid', 'make_snowflake', 'make_sonyflake', 'shardid_floor', 'snowflake_floor',
                'sonyflake_floor', 'uuid7_floor', 'next_id', 'next_snowflake', 'next_sonyflake', 'next_uuid7'))
        UNION ALL
        SELECT 'pg_type'::regclass, t.oid FROM pg_catalog.pg_type t
         WHERE t.typnamespace = ns AND t.typname IN ('shardid', 'snowflake', 'sonyflake')
        UNION ALL
        SELECT 'pg_operator'::regclass, o.oid FROM pg_catalog.pg_operator o
         WHERE o.oprnamespace = ns AND o.oprcode::oid IN (SELECT p.oid FROM pg_catalog.pg_proc p
                                                         WHERE p.pronamespace = ns AND p.proname LIKE 'uniqueid\_%')
        UNION ALL
        SELECT 'pg_class'::regclass, c.oid FROM pg_catalog.pg_class c
         WHERE c.relnamespace = ns AND c.relname LIKE 'uniqueid\_%';

    -- whatever else depends on them (a column's type or default, a view, a
    -- function whose body uses them)
    SELECT pg_catalog.string_agg(DISTINCT pg_catalog.pg_describe_object(d.classid, d.objid, d.objsubid), ', ')
      INTO users
      FROM pg_catalog.pg_depend d
      JOIN uniqueid_edition e ON e.classid = d.refclassid AND e.objid = d.refobjid
     WHERE d.deptype = 'n'
       AND NOT EXISTS (SELECT FROM uniqueid_edition e2 WHERE e2.classid = d.classid AND e2.objid = d.objid)
       -- the array type and constraints of a domain, the index of a table, a sequence owned by it
       AND NOT (d.classid = 'pg_constraint'::regclass
                AND EXISTS (SELECT FROM pg_catalog.pg_constraint c JOIN uniqueid_edition e3
                             ON e3.objid IN (c.contypid, c.conrelid) WHERE c.oid = d.objid))
       AND NOT (d.classid = 'pg_class'::regclass
                AND EXISTS (SELECT FROM pg_catalog.pg_index i JOIN uniqueid_edition e4 ON e4.objid = i.indrelid
                             WHERE i.indexrelid = d.objid));
    IF users IS NOT NULL THEN
        RAISE EXCEPTION 'uniqueid''s SQL edition in schema % is still in use', s
            USING ERRCODE = 'dependent_objects_still_exist',
                  DETAIL = 'In use by: ' || users || '.',
                  HINT = 'Change those columns and defaults first (doc/portable.md says how to move to the C extension); nothing was removed.';
    END IF;

    -- each object after those made later (which may use it): the domains
    -- after the functions that take them, before the function of their check
    FOR r IN SELECT e.classid, e.objid, c.relkind FROM uniqueid_edition e
               LEFT JOIN pg_catalog.pg_class c ON e.classid = 'pg_class'::regclass AND c.oid = e.objid
              WHERE e.classid <> 'pg_class'::regclass OR c.relkind IN ('r', 'S')
              ORDER BY e.objid DESC LOOP
        EXECUTE CASE
            WHEN r.classid = 'pg_operator'::regclass THEN pg_catalog.format('DROP OPERATOR %s', r.objid::regoperator)
            WHEN r.classid = 'pg_proc'::regclass THEN pg_catalog.format('DROP FUNCTION %s', r.objid::regprocedure)
            WHEN r.classid = 'pg_type'::regclass THEN pg_catalog.format('DROP DOMAIN %s', r.objid::regtype)
            WHEN r.relkind = 'r' THEN pg_catalog.format('DROP TABLE %s', r.objid::regclass)
            ELSE pg_catalog.format('DROP SEQUENCE %s', r.objid::regclass) END;
    END LOOP;
END
$remove$;
