-- uniqueid, SQL edition: removal (portable/uniqueid-remove.sql).
--
-- Removes what portable/uniqueid.sql installed in the schema first in
-- search_path (current_schema()), as the role that installed it:
--
--   psql -v ON_ERROR_STOP=1 -1 -f portable/uniqueid-remove.sql   (or paste it)
--
-- Removes the edition's own objects only, each named below with its
-- argument types: a table, function or sequence of the user's in the same
-- schema stays, whatever its name.  Refuses, changing nothing, while
-- anything outside the edition depends on it (a column of type shardid,
-- snowflake or sonyflake or of an array of them, a default calling
-- next_id(), a view or SQL-standard function using it), and names what
-- does.

DO $remove$
DECLARE
    s name := pg_catalog.current_schema();
    ns oid := (SELECT n.oid FROM pg_catalog.pg_namespace n WHERE n.nspname OPERATOR(pg_catalog.=) pg_catalog.current_schema());
    users text;
    r record;
BEGIN
    IF pg_catalog.to_regclass(pg_catalog.quote_ident(s) OPERATOR(pg_catalog.||) '.uniqueid_node') IS NULL THEN
        RAISE EXCEPTION 'uniqueid''s SQL edition is not installed in schema %', s
            USING ERRCODE = 'undefined_object',
                  HINT = 'Put the schema it was installed in first in search_path.';
    END IF;
    -- the names below resolve in pg_catalog, then the edition's schema, only
    -- (to the end of this statement's transaction)
    PERFORM pg_catalog.set_config('search_path', pg_catalog.quote_ident(s), true);

    -- the edition's own objects: exactly the functions, domains, operators,
    -- tables and sequences portable/uniqueid.sql makes (the array types of
    -- the domains too, for what depends on them; they go with the domains)
    CREATE TEMPORARY TABLE uniqueid_edition ON COMMIT DROP AS
        SELECT 'pg_catalog.pg_proc'::pg_catalog.regclass AS classid, p.oid AS objid
          FROM pg_catalog.unnest(ARRAY[
                 'uniqueid_out_of_range(text, text, bigint, bigint)',
                 'uniqueid_time_out_of_range(text, timestamptz, timestamptz, timestamptz)',
                 'uniqueid_not_an_id(text, bigint)', 'uniqueid_unix_ms(timestamptz)', 'uniqueid_unix_time(bigint)',
                 'id_time(shardid)', 'id_shard(shardid)', 'id_seq(shardid)', 'id_parts(shardid)',
                 'id_time(snowflake)', 'id_node(snowflake)', 'id_seq(snowflake)', 'id_parts(snowflake)',
                 'id_time(sonyflake)', 'id_seq(sonyflake)', 'id_node(sonyflake)', 'id_parts(sonyflake)',
                 'id_time(uuid)', 'id_parts(uuid)',
                 'uniqueid_time_units(text, timestamptz, bigint, bigint, integer)',
                 'uniqueid_floor_units(text, timestamptz, bigint, bigint, integer)',
                 'shardid_floor(timestamptz)', 'snowflake_floor(timestamptz)', 'sonyflake_floor(timestamptz)',
                 'uuid7_floor(timestamptz)',
                 'uniqueid_time_point(timestamptz, bigint, bigint, integer, integer)',
                 'uniqueid_time_below(timestamptz, bigint, bigint, integer, integer)',
                 'uniqueid_shardid_lt(shardid, timestamptz)', 'uniqueid_shardid_le(shardid, timestamptz)',
                 'uniqueid_shardid_gt(shardid, timestamptz)', 'uniqueid_shardid_ge(shardid, timestamptz)',
                 'uniqueid_snowflake_lt(snowflake, timestamptz)', 'uniqueid_snowflake_le(snowflake, timestamptz)',
                 'uniqueid_snowflake_gt(snowflake, timestamptz)', 'uniqueid_snowflake_ge(snowflake, timestamptz)',
                 'uniqueid_sonyflake_lt(sonyflake, timestamptz)', 'uniqueid_sonyflake_le(sonyflake, timestamptz)',
                 'uniqueid_sonyflake_gt(sonyflake, timestamptz)', 'uniqueid_sonyflake_ge(sonyflake, timestamptz)',
                 'uniqueid_advance(regclass, bigint)',
                 'make_shardid(timestamptz, integer, integer)', 'make_snowflake(timestamptz, integer, integer)',
                 'make_sonyflake(timestamptz, integer, integer)',
                 'uniqueid_set_node(integer)', 'uniqueid_own_shards(integer, integer)',
                 'uniqueid_disown_shards(integer, integer)', 'uniqueid_node_for(text, text, integer)',
                 'uniqueid_high_water()', 'next_id(integer)', 'next_id()', 'next_snowflake()', 'next_sonyflake()',
                 'next_uuid7()']) AS f(sig)
          JOIN pg_catalog.pg_proc p
            ON p.oid OPERATOR(pg_catalog.=) pg_catalog.to_regprocedure(pg_catalog.quote_ident(s) OPERATOR(pg_catalog.||) '.' OPERATOR(pg_catalog.||) f.sig)
        UNION ALL
        SELECT 'pg_catalog.pg_type'::pg_catalog.regclass, x.oid
          FROM pg_catalog.pg_type t, LATERAL (VALUES (t.oid), (t.typarray)) AS x(oid)
         WHERE t.typnamespace OPERATOR(pg_catalog.=) ns AND t.typtype OPERATOR(pg_catalog.=) 'd'::"char"
           AND t.typbasetype OPERATOR(pg_catalog.=) 'pg_catalog.int8'::pg_catalog.regtype
           AND t.typname OPERATOR(pg_catalog.=) ANY ('{shardid,snowflake,sonyflake}'::name[])
        UNION ALL
        SELECT 'pg_catalog.pg_operator'::pg_catalog.regclass, o.oid
          FROM pg_catalog.unnest('{<,<=,>,>=}'::text[]) AS op, pg_catalog.unnest('{shardid,snowflake,sonyflake}'::text[]) AS ty,
               LATERAL (SELECT pg_catalog.to_regoperator(pg_catalog.format('%I.%s(%I.%I, timestamptz)', s, op, s, ty))::oid AS oid) o
         WHERE o.oid IS NOT NULL
        UNION ALL
        SELECT 'pg_catalog.pg_class'::pg_catalog.regclass, c.oid FROM pg_catalog.pg_class c
         WHERE c.relnamespace OPERATOR(pg_catalog.=) ns
           AND (c.relkind OPERATOR(pg_catalog.=) 'r'::"char"
                    AND c.relname OPERATOR(pg_catalog.=) ANY ('{uniqueid_node,uniqueid_shard}'::name[])
                OR c.relkind OPERATOR(pg_catalog.=) 'S'::"char"
                    AND (c.relname OPERATOR(pg_catalog.=) ANY ('{uniqueid_snowflake_state,uniqueid_sonyflake_state,uniqueid_uuid7_state}'::name[])
                         OR c.relname::text OPERATOR(pg_catalog.~) '^uniqueid_shard_(0|[1-9][0-9]{0,3})_state$'::text));

    -- whatever else depends on them (a column's type or default, a view, a
    -- function whose body uses them)
    SELECT pg_catalog.string_agg(DISTINCT pg_catalog.pg_describe_object(d.classid, d.objid, d.objsubid), ', ')
      INTO users
      FROM pg_catalog.pg_depend d
      JOIN uniqueid_edition e ON e.classid OPERATOR(pg_catalog.=) d.refclassid AND e.objid OPERATOR(pg_catalog.=) d.refobjid
     WHERE d.deptype OPERATOR(pg_catalog.=) 'n'::"char"
       AND NOT EXISTS (SELECT FROM uniqueid_edition e2
                        WHERE e2.classid OPERATOR(pg_catalog.=) d.classid AND e2.objid OPERATOR(pg_catalog.=) d.objid)
       -- the constraints of a domain or table of the edition, the index of a table
       AND NOT (d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_constraint'::pg_catalog.regclass
                AND EXISTS (SELECT FROM pg_catalog.pg_constraint c JOIN uniqueid_edition e3
                             ON e3.objid OPERATOR(pg_catalog.=) ANY (ARRAY[c.contypid, c.conrelid])
                             WHERE c.oid OPERATOR(pg_catalog.=) d.objid))
       AND NOT (d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
                AND EXISTS (SELECT FROM pg_catalog.pg_index i JOIN uniqueid_edition e4
                             ON e4.objid OPERATOR(pg_catalog.=) i.indrelid
                             WHERE i.indexrelid OPERATOR(pg_catalog.=) d.objid));
    IF users IS NOT NULL THEN
        RAISE EXCEPTION 'uniqueid''s SQL edition in schema % is still in use', s
            USING ERRCODE = 'dependent_objects_still_exist',
                  DETAIL = 'In use by: ' OPERATOR(pg_catalog.||) users OPERATOR(pg_catalog.||) '.',
                  HINT = 'Change those columns and defaults first (doc/portable.md says how to move to the C extension); nothing was removed.';
    END IF;

    -- each object after those made later (which may use it): the domains
    -- after the functions that take them, before the function of their check
    FOR r IN SELECT e.classid, e.objid, c.relkind FROM uniqueid_edition e
               LEFT JOIN pg_catalog.pg_class c
                 ON e.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass AND c.oid OPERATOR(pg_catalog.=) e.objid
               LEFT JOIN pg_catalog.pg_type t
                 ON e.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_type'::pg_catalog.regclass AND t.oid OPERATOR(pg_catalog.=) e.objid
              WHERE (e.classid OPERATOR(pg_catalog.<>) 'pg_catalog.pg_type'::pg_catalog.regclass OR t.typtype OPERATOR(pg_catalog.=) 'd'::"char")
              ORDER BY e.objid DESC LOOP
        EXECUTE CASE
            WHEN r.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_operator'::pg_catalog.regclass
                THEN pg_catalog.format('DROP OPERATOR %s', r.objid::pg_catalog.regoperator)
            WHEN r.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
                THEN pg_catalog.format('DROP FUNCTION %s', r.objid::pg_catalog.regprocedure)
            WHEN r.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_type'::pg_catalog.regclass
                THEN pg_catalog.format('DROP DOMAIN %s', r.objid::pg_catalog.regtype)
            WHEN r.relkind OPERATOR(pg_catalog.=) 'r'::"char" THEN pg_catalog.format('DROP TABLE %s', r.objid::pg_catalog.regclass)
            ELSE pg_catalog.format('DROP SEQUENCE %s', r.objid::pg_catalog.regclass) END;
    END LOOP;
END
$remove$;
