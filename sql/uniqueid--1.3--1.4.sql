-- uniqueid 1.3 -> 1.4: an ID's parts in one call, and moving an existing
-- table's integer key onto shardid or snowflake (doc/moving.md).

\echo Use "ALTER EXTENSION uniqueid UPDATE TO '1.4'" to load this file. \quit

-- id_parts(id): every field of an ID, as a row whose columns are the
-- accessors' values (id_time, id_shard, id_seq, ...), named and ordered as
-- the type's make_* function takes them, so that make_shardid(p.time,
-- p.shard, p.seq) and the others give the ID back.  SELECT * FROM id_parts(id) for columns, to_jsonb(id_parts(id))
-- for one JSON object.  Bound to the accessors when created (BEGIN ATOMIC),
-- whatever the caller's search_path.
CREATE FUNCTION id_parts(id shardid, OUT "time" timestamptz, OUT shard integer, OUT seq integer)
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    BEGIN ATOMIC SELECT id_time(id), id_shard(id), id_seq(id); END;
CREATE FUNCTION id_parts(id snowflake, OUT "time" timestamptz, OUT node integer, OUT seq integer)
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    BEGIN ATOMIC SELECT id_time(id), id_node(id), id_seq(id); END;
CREATE FUNCTION id_parts(id sonyflake, OUT "time" timestamptz, OUT seq integer, OUT machine integer)
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    BEGIN ATOMIC SELECT id_time(id), id_seq(id), id_node(id); END;
CREATE FUNCTION id_parts(id shortid, OUT "time" timestamptz, OUT seq integer, OUT random integer)
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    BEGIN ATOMIC SELECT id_time(id), id_seq(id), id_random(id); END;
CREATE FUNCTION id_parts(id spreadid, OUT "time" timestamptz, OUT seq integer, OUT generator integer,
                         OUT cluster integer, OUT mode text)
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    BEGIN ATOMIC SELECT id_time(id), id_seq(id), id_node(id), id_cluster(id), id_mode(id); END;
CREATE FUNCTION id_parts(id sno, OUT "time" timestamptz, OUT meta integer, OUT partition integer,
                         OUT seq integer, OUT tick integer)
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    BEGIN ATOMIC SELECT id_time(id), id_meta(id), id_partition(id), id_seq(id), id_tick(id); END;
CREATE FUNCTION id_parts(id objectid, OUT "time" timestamptz, OUT random bigint, OUT counter integer)
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    BEGIN ATOMIC SELECT id_time(id), id_random(id), id_counter(id); END;
CREATE FUNCTION id_parts(id ulid, OUT "time" timestamptz, OUT random bytea)
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    BEGIN ATOMIC SELECT id_time(id), id_random(id); END;
CREATE FUNCTION id_parts(id ksuid, OUT "time" timestamptz, OUT payload bytea)
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    BEGIN ATOMIC SELECT id_time(id), id_payload(id); END;
CREATE FUNCTION id_parts(id rsxid, OUT "time" timestamptz, OUT machine integer, OUT process integer,
                         OUT counter integer)
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    BEGIN ATOMIC SELECT id_time(id), id_machine(id), id_process(id), id_counter(id); END;
-- a uuid: its version where its variant is RFC 9562's (else NULL), and its
-- time where the version holds one (1, 6 and 7; else NULL, where id_time
-- raises an error)
CREATE FUNCTION id_parts(id uuid, OUT version integer, OUT "time" timestamptz)
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    BEGIN ATOMIC
        SELECT v, CASE WHEN v IN (1, 6, 7) THEN id_time(id) END
        FROM (SELECT CASE WHEN pg_catalog.get_byte(b, 8) >> 6 = 2 THEN pg_catalog.get_byte(b, 6) >> 4 END
              FROM pg_catalog.uuid_send(id) AS b) AS x(v);
    END;
-- a typeid: its prefix, its UUID, and that UUID's time as above
CREATE FUNCTION id_parts(id typeid, OUT prefix text, OUT uuid uuid, OUT "time" timestamptz)
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    BEGIN ATOMIC SELECT typeid_prefix(id), uuid(id), (id_parts(uuid(id))).time; END;

-- uniqueid_convert_key(table_name, column_name, new_type, shard, dry_run):
-- moves an integer key (serial, bigserial, IDENTITY or plain) onto shardid
-- or snowflake in the caller's transaction, with every column that
-- references it through foreign keys (and those that reference them), so
-- that existing rows keep their numbers and new rows get the generator's
-- IDs, which sort after all of them:
--   the tables are locked ACCESS EXCLUSIVE (the referencing ones first, in
--   the order a single-statement insert locks them);
--   then, under the locks, every value of those columns is checked: none
--   negative, none at or past the type's floor of now (it would not sort
--   before new IDs);
--   the foreign keys between the columns are dropped, each table's columns
--   change type in one ALTER TABLE (bigint to shardid rebuilds indexes
--   only; anything else rewrites), and the foreign keys are added again as
--   they were (which checks them);
--   the key's IDENTITY, or its default and the sequences it owns (in its
--   partitions too), go; its default becomes next_id(shard) (next_id()
--   without one) or next_snowflake(), which is called once first, so that
--   a shard this server does not own stops everything here.
-- Returns the statements, in order; with dry_run, runs none of them (and
-- checks the values without the locks).  At READ COMMITTED only: a
-- transaction snapshot taken before the locks would not see every value.
CREATE FUNCTION uniqueid_convert_key(table_name regclass, column_name name, new_type regtype DEFAULT 'shardid',
                                     shard integer DEFAULT NULL, dry_run boolean DEFAULT false)
RETURNS SETOF text
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
SET row_security = off
AS $function$
DECLARE
    ext name := (SELECT nspname FROM pg_namespace WHERE oid = '@extschema@'::regnamespace);
    tname name;
    col record;
    c record;
    rels oid[];
    atts int2[];
    depths int[];
    locked oid[] := '{}';
    drops text[];
    adds text[];
    lo bigint;
    hi bigint;
    floor_now bigint;
    gen text;
    stmts text[] := '{}';
    s text;
BEGIN
    SELECT t.typname INTO tname FROM pg_type t
    WHERE t.oid = new_type AND t.typnamespace = '@extschema@'::regnamespace AND t.typname IN ('shardid', 'snowflake');
    IF tname IS NULL THEN
        RAISE EXCEPTION 'cannot convert a key to type %', new_type
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'uniqueid_convert_key converts integer keys to shardid or snowflake, whose IDs are '
                         'integers too. doc/moving.md says how to move uuid and text keys.';
    END IF;
    IF shard IS NOT NULL AND tname <> 'shardid' THEN
        RAISE EXCEPTION 'a shard is given for type %', tname
            USING ERRCODE = 'invalid_parameter_value', HINT = 'Only shardid IDs have a shard.';
    ELSIF shard NOT BETWEEN 0 AND 8191 THEN
        RAISE EXCEPTION 'shard % is out of range for type shardid', shard
            USING ERRCODE = 'numeric_value_out_of_range', DETAIL = 'Valid values of shard are 0 to 8191.';
    END IF;
    IF NOT dry_run AND current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'uniqueid_convert_key cannot run at isolation level %', current_setting('transaction_isolation')
            USING ERRCODE = 'invalid_transaction_state',
                  DETAIL = 'It checks every value of the columns once it holds their locks; a snapshot taken '
                           'before them would miss rows committed meanwhile.',
                  HINT = 'Run it in a READ COMMITTED transaction.';
    END IF;
    SELECT a.attnum, a.atttypid::regtype AS typ, a.attidentity, r.relkind, r.relispartition INTO col
    FROM pg_attribute a JOIN pg_class r ON r.oid = a.attrelid
    WHERE a.attrelid = table_name AND a.attname = column_name AND a.attnum > 0 AND NOT a.attisdropped;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'column "%" of relation % does not exist', column_name, table_name
            USING ERRCODE = 'undefined_column';
    ELSIF col.relkind NOT IN ('r', 'p') THEN
        RAISE EXCEPTION '% is not a table', table_name USING ERRCODE = 'wrong_object_type';
    ELSIF col.relispartition THEN
        RAISE EXCEPTION '% is a partition', table_name
            USING ERRCODE = 'wrong_object_type', HINT = 'Convert the key of its partitioned table.';
    ELSIF col.typ = new_type THEN
        RAISE EXCEPTION 'column "%" of relation % is already of type %', column_name, table_name, new_type
            USING ERRCODE = 'datatype_mismatch';
    ELSIF EXISTS (SELECT FROM pg_partitioned_table p WHERE p.partrelid = table_name AND col.attnum = ANY (p.partattrs)) THEN
        RAISE EXCEPTION 'column "%" is in the partition key of %', column_name, table_name
            USING ERRCODE = 'feature_not_supported',
                  DETAIL = 'PostgreSQL cannot change the type of a partition key column.',
                  HINT = 'Create a table partitioned by the new type (doc/partitioning.md) and copy the rows into it.';
    END IF;
    gen := CASE WHEN tname = 'snowflake' THEN format('%I.next_snowflake()', ext)
                ELSE format('%I.next_id(%s)', ext, shard) END;
    -- the generator works here (its library preloaded, its shard owned)
    EXECUTE 'SELECT ' || gen;

    -- the columns: the key and, through foreign keys, every column that
    -- references one of them, with its depth: how many tables away from the
    -- key's it is (a table's reference to itself adds none); locked (unless
    -- dry_run) until no new one appears
    LOOP
        WITH RECURSIVE cols(rel, att, depth) AS (
            SELECT table_name::oid, col.attnum, 0
            UNION
            SELECT f.conrelid, f.conkey[i], cols.depth + (f.conrelid <> f.confrelid)::int
            FROM cols JOIN pg_constraint f ON f.contype = 'f' AND f.conparentid = 0 AND f.confrelid = cols.rel,
                 generate_subscripts(f.confkey, 1) AS i
            WHERE f.confkey[i] = cols.att AND cols.depth < 100)
        SELECT array_agg(rel ORDER BY rel, att), array_agg(att ORDER BY rel, att), array_agg(depth ORDER BY rel, att)
        INTO rels, atts, depths
        FROM (SELECT rel, att, max(depth) AS depth FROM cols GROUP BY rel, att) x;
        -- the referencing tables first, deepest first: the order a
        -- single-statement insert locks them in (its table, then the one
        -- its foreign key checks)
        s := format('LOCK TABLE %s IN ACCESS EXCLUSIVE MODE',
            (SELECT string_agg(r::regclass::text, ', ' ORDER BY d DESC, r::regclass::text)
             FROM (SELECT r, max(d) AS d FROM unnest(rels, depths) AS u(r, d) GROUP BY r) x));
        EXIT WHEN dry_run OR rels <@ locked;
        EXECUTE s;
        locked := locked || rels;
    END LOOP;
    stmts := stmts || s;

    -- every column: an integer (not a domain over one), every value of it
    -- below the IDs made from now on
    EXECUTE format('SELECT %I.%I(clock_timestamp())::bigint', ext, tname || '_floor') INTO floor_now;
    FOR c IN SELECT k.rel::regclass AS rel, a.attname, a.atttypid::regtype AS typ
             FROM unnest(rels, atts) AS k(rel, att) JOIN pg_attribute a ON a.attrelid = k.rel AND a.attnum = k.att
             ORDER BY k.rel::regclass::text, a.attname LOOP
        IF c.typ NOT IN ('smallint'::regtype, 'integer'::regtype, 'bigint'::regtype) THEN
            RAISE EXCEPTION 'column "%" of relation % is of type %, not an integer type', c.attname, c.rel, c.typ
                USING ERRCODE = 'datatype_mismatch',
                      DETAIL = CASE WHEN c.rel = table_name AND c.attname = column_name THEN 'It is the key.'
                                    ELSE 'It references the key through foreign keys.' END;
        END IF;
        EXECUTE format('SELECT min(%1$I)::bigint, max(%1$I)::bigint FROM %2$s', c.attname, c.rel) INTO lo, hi;
        IF lo < 0 THEN
            RAISE EXCEPTION 'column "%" of relation % holds the negative value %', c.attname, c.rel, lo
                USING ERRCODE = 'numeric_value_out_of_range',
                      DETAIL = format('A %s is not negative; its IDs sort as unsigned numbers.', tname);
        ELSIF hi >= floor_now THEN
            RAISE EXCEPTION 'column "%" of relation % holds %, which would not sort before the new IDs', c.attname, c.rel, hi
                USING ERRCODE = 'numeric_value_out_of_range',
                      DETAIL = format('As a %s, %s is at or past the IDs of now, which start at %s.', tname, hi, floor_now);
        END IF;
    END LOOP;

    -- the foreign keys on those columns, dropped now and added again at the end
    SELECT array_agg(format('ALTER TABLE %s DROP CONSTRAINT %I', f.conrelid::regclass, f.conname)
                     ORDER BY f.conrelid::regclass::text, f.conname),
           array_agg(format('ALTER TABLE %s ADD CONSTRAINT %I %s', f.conrelid::regclass, f.conname,
                            pg_get_constraintdef(f.oid))
                     ORDER BY f.conrelid::regclass::text, f.conname)
    INTO drops, adds
    FROM pg_constraint f
    WHERE f.contype = 'f' AND f.conparentid = 0
      AND EXISTS (SELECT FROM unnest(rels, atts) AS k(rel, att) WHERE k.rel = f.confrelid AND k.att = ANY (f.confkey));
    stmts := stmts || coalesce(drops, '{}');
    -- the key's identity, or its default and the sequences that column owns
    -- (in its partitions too: a partition attached with a serial of its own)
    IF col.attidentity <> '' THEN
        stmts := stmts || format('ALTER TABLE %s ALTER COLUMN %I DROP IDENTITY', table_name, column_name);
    END IF;
    IF col.attidentity = '' AND EXISTS (SELECT FROM pg_attrdef d WHERE d.adrelid = table_name AND d.adnum = col.attnum) THEN
        stmts := stmts || format('ALTER TABLE %s ALTER COLUMN %I DROP DEFAULT', table_name, column_name);
    END IF;
    stmts := stmts || coalesce((
        SELECT array_agg(format('DROP SEQUENCE %s', d.objid::regclass) ORDER BY d.objid::regclass::text)
        FROM (SELECT table_name::oid UNION SELECT relid FROM pg_partition_tree(table_name)) AS t(relid)
        JOIN pg_attribute a ON a.attrelid = t.relid AND a.attname = column_name
        JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_class'::regclass
                        AND d.refobjid = t.relid AND d.refobjsubid = a.attnum AND d.deptype = 'a'
        JOIN pg_class q ON q.oid = d.objid AND q.relkind = 'S'),
        '{}');
    -- the new type, in one ALTER TABLE per table (a constraint comparing two
    -- of its columns is parsed again only once both have it); the key's default
    stmts := stmts || (
        SELECT array_agg(format('ALTER TABLE %s %s', r::regclass, alters) ORDER BY d, r::regclass::text)
        FROM (SELECT k.rel AS r, min(k.depth) AS d,
                     string_agg(format('ALTER COLUMN %I TYPE %I.%I USING %I::bigint::%I.%I%s',
                                       a.attname, ext, tname, a.attname, ext, tname,
                                       CASE WHEN k.rel = table_name AND k.att = col.attnum
                                            THEN format(', ALTER COLUMN %I SET DEFAULT %s', a.attname, gen) END),
                                ', ' ORDER BY k.att) AS alters
              FROM unnest(rels, atts, depths) AS k(rel, att, depth)
              JOIN pg_attribute a ON a.attrelid = k.rel AND a.attnum = k.att
              GROUP BY k.rel) x);
    stmts := stmts || coalesce(adds, '{}');

    -- the statements run with the extension's schema on the path: ALTER
    -- TYPE parses the table's CHECK constraints and index expressions again,
    -- and an operator such as <> that they use is the extension's now
    PERFORM set_config('search_path', format('pg_catalog, %I, pg_temp', ext), true);
    FOREACH s IN ARRAY stmts LOOP
        IF NOT dry_run THEN
            EXECUTE s;
        END IF;
        RETURN NEXT s;
    END LOOP;
END
$function$;
COMMENT ON FUNCTION uniqueid_convert_key(regclass, name, regtype, integer, boolean) IS
    'moves an integer key and the foreign keys that reference it onto shardid or snowflake, keeping every value; returns the statements (dry_run: runs none)';
