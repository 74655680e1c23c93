-- uniqueid 1.3 -> 1.4: an ID's parts in one call, and moving an existing
-- table's integer key onto shardid or snowflake (doc/moving.md).

\echo Use "ALTER EXTENSION uniqueid UPDATE TO '1.4'" to load this file. \quit

-- id_parts(id): every field of an ID, as a row whose columns are the
-- accessors' values (id_time, id_shard, id_seq, ...) and are named as the
-- type's make_* function names its arguments, so that make_TYPE(p.*) gives
-- the ID back.  SELECT * FROM id_parts(id) for columns, to_jsonb(id_parts(id))
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
--   the order inserts lock them);
--   the foreign keys between the columns are dropped, the columns change
--   type (bigint to shardid rebuilds indexes only; anything else rewrites),
--   and the foreign keys are added again as they were (which checks them);
--   the key's IDENTITY, or its default and the sequence it owns, go; its
--   default becomes next_id(shard) (next_id() without one) or
--   next_snowflake().
-- Returns the statements, in order; with dry_run, runs none of them.  Before
-- anything (dry_run too), refuses a column holding a negative value or one
-- at or past the type's floor of now (it would not sort before new IDs).
CREATE FUNCTION uniqueid_convert_key(table_name regclass, column_name name, new_type regtype DEFAULT 'shardid',
                                     shard integer DEFAULT NULL, dry_run boolean DEFAULT false)
RETURNS SETOF text
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
    ext name := '@extschema@';
    tname name;
    col record;
    rels oid[];
    atts int2[];
    depths int[];
    drops text[];
    adds text[];
    lo bigint;
    hi bigint;
    floor_now bigint;
    seq regclass;
    gen text;
    stmts text[] := '{}';
    s text;
BEGIN
    SELECT t.typname INTO tname FROM pg_type t
    WHERE t.oid = new_type AND t.typnamespace = ext::regnamespace AND t.typname IN ('shardid', 'snowflake');
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
    SELECT a.attnum, a.atttypid::regtype AS typ, a.attidentity, c.relkind, c.relispartition INTO col
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
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
    ELSIF col.typ NOT IN ('smallint'::regtype, 'integer'::regtype, 'bigint'::regtype) THEN
        RAISE EXCEPTION 'column "%" of relation % is of type %, not an integer type', column_name, table_name, col.typ
            USING ERRCODE = 'datatype_mismatch';
    ELSIF EXISTS (SELECT FROM pg_partitioned_table p WHERE p.partrelid = table_name AND col.attnum = ANY (p.partattrs)) THEN
        RAISE EXCEPTION 'column "%" is in the partition key of %', column_name, table_name
            USING ERRCODE = 'feature_not_supported',
                  DETAIL = 'PostgreSQL cannot change the type of a partition key column.',
                  HINT = 'Create a table partitioned by the new type (doc/partitioning.md) and copy the rows into it.';
    END IF;

    -- the existing values must all sort below the IDs made from now on
    EXECUTE format('SELECT min(%1$I)::bigint, max(%1$I)::bigint FROM %2$s', column_name, table_name) INTO lo, hi;
    EXECUTE format('SELECT %I.%I(clock_timestamp())::bigint', ext, tname || '_floor') INTO floor_now;
    IF lo < 0 THEN
        RAISE EXCEPTION 'column "%" of relation % holds the negative value %', column_name, table_name, lo
            USING ERRCODE = 'numeric_value_out_of_range',
                  DETAIL = format('A %s is not negative; its IDs sort as unsigned numbers.', tname);
    ELSIF hi >= floor_now THEN
        RAISE EXCEPTION 'column "%" of relation % holds %, which would not sort before the new IDs', column_name, table_name, hi
            USING ERRCODE = 'numeric_value_out_of_range',
                  DETAIL = format('As a %s, %s is at or past the IDs of now, which start at %s.', tname, hi, floor_now);
    END IF;

    -- the columns: the key and, through foreign keys, every column that
    -- references one of them, with its depth: how many tables away from the
    -- key's it is (a table's reference to itself adds none)
    WITH RECURSIVE cols(rel, att, depth) AS (
        SELECT table_name::oid, col.attnum, 0
        UNION
        SELECT c.conrelid, c.conkey[i], cols.depth + (c.conrelid <> c.confrelid)::int
        FROM cols JOIN pg_constraint c ON c.contype = 'f' AND c.conparentid = 0 AND c.confrelid = cols.rel,
             generate_subscripts(c.confkey, 1) AS i
        WHERE c.confkey[i] = cols.att AND cols.depth < 100)
    SELECT array_agg(rel ORDER BY rel), array_agg(att ORDER BY rel), array_agg(depth ORDER BY rel)
    INTO rels, atts, depths
    FROM (SELECT rel, att, max(depth) AS depth FROM cols GROUP BY rel, att) x;

    -- the referencing tables first, deepest first: the order an insert
    -- locks them in (its table, then the one its foreign key checks)
    stmts := stmts || format('LOCK TABLE %s IN ACCESS EXCLUSIVE MODE',
        (SELECT string_agg(r::regclass::text, ', ' ORDER BY d DESC, r::regclass::text)
         FROM (SELECT r, max(d) AS d FROM unnest(rels, depths) AS u(r, d) GROUP BY r) x));
    -- the foreign keys on those columns, dropped now and added again at the end
    SELECT array_agg(format('ALTER TABLE %s DROP CONSTRAINT %I', f.conrelid::regclass, f.conname)
                     ORDER BY f.conrelid::regclass::text, f.conname),
           array_agg(format('ALTER TABLE %s ADD CONSTRAINT %I %s', f.conrelid::regclass, f.conname, f.def)
                     ORDER BY f.conrelid::regclass::text, f.conname)
    INTO drops, adds
    FROM (SELECT DISTINCT c.conrelid, c.conname, pg_get_constraintdef(c.oid) AS def
          FROM pg_constraint c JOIN unnest(rels, atts) AS k(rel, att) ON k.rel = c.confrelid AND k.att = ANY (c.confkey)
          WHERE c.contype = 'f' AND c.conparentid = 0) f;
    stmts := stmts || coalesce(drops, '{}');
    -- the key's identity, or its default and the sequence that column owns
    seq := pg_get_serial_sequence(table_name::text, column_name);
    IF col.attidentity <> '' THEN
        stmts := stmts || format('ALTER TABLE %s ALTER COLUMN %I DROP IDENTITY', table_name, column_name);
    ELSIF EXISTS (SELECT FROM pg_attrdef d WHERE d.adrelid = table_name AND d.adnum = col.attnum) THEN
        stmts := stmts || format('ALTER TABLE %s ALTER COLUMN %I DROP DEFAULT', table_name, column_name);
        IF seq IS NOT NULL THEN
            stmts := stmts || format('DROP SEQUENCE %s', seq);
        END IF;
    END IF;
    -- the new type, the key's default
    gen := CASE WHEN tname = 'snowflake' THEN format('%I.next_snowflake()', ext)
                ELSE format('%I.next_id(%s)', ext, shard) END;
    stmts := stmts || (
        SELECT array_agg(format('ALTER TABLE %s ALTER COLUMN %I TYPE %I.%I USING %I::bigint::%I.%I%s',
                                k.rel::regclass, a.attname, ext, tname, a.attname, ext, tname,
                                CASE WHEN k.rel = table_name AND k.att = col.attnum THEN format(', ALTER COLUMN %I SET DEFAULT %s', a.attname, gen) ELSE '' END)
                         ORDER BY k.depth, k.rel::regclass::text, a.attname)
        FROM unnest(rels, atts, depths) AS k(rel, att, depth)
        JOIN pg_attribute a ON a.attrelid = k.rel AND a.attnum = k.att);
    stmts := stmts || coalesce(adds, '{}');

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
