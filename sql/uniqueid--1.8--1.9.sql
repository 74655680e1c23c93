-- uniqueid 1.8 -> 1.9 (in progress): see CHANGELOG.md.  The tables, views
-- and sequences uniqueid makes for itself move to a schema of the
-- extension's own, uniqueid_catalog, out of the schema the user installed
-- into (where every schema tool and ORM listed them among the user's own):
-- the registry's tables uniqueid_node_claims and uniqueid_node_registry,
-- the views uniqueid_generators and uniqueid_durability, and each
-- database's horizon sequences uniqueid_horizon_ms and
-- uniqueid_shard_horizon_ms.  They keep their names, data, privileges and
-- pg_dump registration (ALTER ... SET SCHEMA moves the object itself); the
-- functions, types and operators stay where they are.  The registry's
-- functions that name the tables are made again with the new names.

\echo Use "ALTER EXTENSION uniqueid UPDATE TO '1.9'" to load this file. \quit

-- The schema, unless the extension was installed into one of that name
-- (then everything is there already).  An empty schema of that name that
-- the role running this script made, and granted nobody anything on, it
-- takes over: Rails 7.1 to 8.0 write every schema into db/schema.rb, and
-- db:schema:load makes this one just before it enables the extension.
-- Any other stops the install or update, saying why.  Then its privileges
-- are its owner's and, for USAGE, everyone's, whatever default privileges
-- the installing role has for new schemas.  (Every operator, function and
-- type here is named with its schema: an operator of another schema on the
-- path with the exact argument types would be taken over pg_catalog's.)
DO $do$
DECLARE
    nsp pg_catalog.oid := pg_catalog.to_regnamespace('uniqueid_catalog');
    n pg_catalog.pg_namespace;
    why pg_catalog.text;
    g pg_catalog.oid;
BEGIN
    IF nsp OPERATOR(pg_catalog.=) '@extschema@'::pg_catalog.regnamespace::pg_catalog.oid THEN
        RETURN;
    END IF;
    IF nsp IS NULL THEN
        CREATE SCHEMA uniqueid_catalog;
    ELSE
        SELECT * INTO n FROM pg_catalog.pg_namespace x WHERE x.oid OPERATOR(pg_catalog.=) nsp;
        IF EXISTS (SELECT FROM pg_catalog.pg_depend d
                   WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_namespace'::pg_catalog.regclass::pg_catalog.oid
                     AND d.refobjid OPERATOR(pg_catalog.=) nsp
                     AND d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_default_acl'::pg_catalog.regclass::pg_catalog.oid) THEN
            why := 'Default privileges are set in it (ALTER DEFAULT PRIVILEGES IN SCHEMA).';
        ELSIF EXISTS (SELECT FROM pg_catalog.pg_depend d
                      WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_namespace'::pg_catalog.regclass::pg_catalog.oid
                        AND d.refobjid OPERATOR(pg_catalog.=) nsp) THEN
            why := 'It has objects in it.';
        ELSIF n.nspowner OPERATOR(pg_catalog.<>) current_user::pg_catalog.regrole::pg_catalog.oid THEN
            why := pg_catalog.format('It is owned by %s, not by the role that installs uniqueid.',
                                     n.nspowner::pg_catalog.regrole);
        ELSE
            SELECT CASE WHEN pg_catalog.count(*) OPERATOR(pg_catalog.>) 0 THEN
                       pg_catalog.format('It grants privileges to %s.', pg_catalog.string_agg(DISTINCT
                           CASE WHEN a.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid THEN 'PUBLIC'
                                ELSE a.grantee::pg_catalog.regrole::pg_catalog.text END, ', ')) END
            INTO why
            FROM pg_catalog.aclexplode(n.nspacl) a WHERE a.grantee OPERATOR(pg_catalog.<>) n.nspowner;
        END IF;
        IF why IS NOT NULL THEN
            RAISE EXCEPTION 'schema "uniqueid_catalog" already exists'
                USING ERRCODE = 'duplicate_schema', DETAIL = why,
                      HINT = 'uniqueid keeps its tables, views and sequences in a schema of that name: '
                             'rename yours, or empty it, first (see doc/installing.md).';
        END IF;
        ALTER EXTENSION uniqueid ADD SCHEMA uniqueid_catalog;
    END IF;
    ALTER TABLE @extschema@.uniqueid_node_claims SET SCHEMA uniqueid_catalog;
    ALTER TABLE @extschema@.uniqueid_node_registry SET SCHEMA uniqueid_catalog;
    ALTER VIEW @extschema@.uniqueid_generators SET SCHEMA uniqueid_catalog;
    ALTER VIEW @extschema@.uniqueid_durability SET SCHEMA uniqueid_catalog;
    ALTER SEQUENCE @extschema@.uniqueid_horizon_ms SET SCHEMA uniqueid_catalog;
    ALTER SEQUENCE @extschema@.uniqueid_shard_horizon_ms SET SCHEMA uniqueid_catalog;
    COMMENT ON SCHEMA uniqueid_catalog IS
        'uniqueid''s own tables, views and sequences: the registry''s, the monitoring views, the horizons';
    FOR g IN SELECT DISTINCT a.grantee
             FROM pg_catalog.pg_namespace x, pg_catalog.aclexplode(x.nspacl) a
             WHERE x.nspname OPERATOR(pg_catalog.=) 'uniqueid_catalog'::pg_catalog.name
               AND a.grantee OPERATOR(pg_catalog.<>) x.nspowner LOOP
        EXECUTE pg_catalog.format('REVOKE ALL ON SCHEMA uniqueid_catalog FROM %s',
                                  CASE WHEN g OPERATOR(pg_catalog.=) 0::pg_catalog.oid THEN 'PUBLIC'
                                       ELSE g::pg_catalog.regrole::pg_catalog.text END);
    END LOOP;
    -- Everyone may look in it, as in pg_catalog; each object keeps its own
    -- privileges (the views are for pg_read_all_stats, the tables for no one).
    GRANT USAGE ON SCHEMA uniqueid_catalog TO PUBLIC;
END
$do$;

-- The registry's functions as in 1.8, naming the tables where they are now.
CREATE OR REPLACE FUNCTION uniqueid_node_incarnation(ahead_ms integer, skew_ms integer,
    OUT renewable_from timestamptz, OUT grace_until timestamptz, OUT floor_at timestamptz, OUT allowance interval)
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
    v_sysid numeric := (SELECT s.system_identifier FROM pg_control_system() s);
    v_timeline text := substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8);
    v_started timestamptz := pg_postmaster_start_time();
    r uniqueid_catalog.uniqueid_node_registry;
    v_ahead integer;
    v_skew integer;
    v_since timestamptz;
BEGIN
    SELECT * INTO r FROM uniqueid_catalog.uniqueid_node_registry;
    IF NOT FOUND OR r.system_identifier <> v_sysid OR r.timeline <> v_timeline OR r.started <> v_started
       OR r.max_ahead_ms < ahead_ms OR r.max_skew_ms < skew_ms THEN
        SELECT * INTO r FROM uniqueid_catalog.uniqueid_node_registry FOR UPDATE;
        IF NOT FOUND THEN
            -- (no record: it may have forgotten everything; from now)
            SELECT greatest(uniqueid_node_incarnation.ahead_ms, max(least(7201000, greatest(
                       extract(epoch FROM c.lease_until - c.renewed_at) * 1000,
                       extract(epoch FROM c.horizon - c.renewed_at) * 1000)))::integer),
                   greatest(uniqueid_node_incarnation.skew_ms, max(least(1800000, c.skew_ms)))
            INTO v_ahead, v_skew
            FROM uniqueid_catalog.uniqueid_node_claims c
            WHERE c.lease_until > '-infinity' AND c.horizon > '-infinity';
            INSERT INTO uniqueid_catalog.uniqueid_node_registry
            VALUES (true, v_sysid, v_timeline, v_started, clock_timestamp(), v_ahead, v_skew,
                    clock_timestamp() + (v_ahead + v_skew) * interval '1 millisecond')
            ON CONFLICT DO NOTHING;
            SELECT * INTO r FROM uniqueid_catalog.uniqueid_node_registry FOR UPDATE;
        END IF;
        v_ahead := greatest(r.max_ahead_ms, ahead_ms);
        v_skew := greatest(r.max_skew_ms, skew_ms);
        IF r.system_identifier = v_sysid AND r.timeline = v_timeline AND r.started = v_started THEN
            -- (longer terms lengthen a grace period under way, not one that ended)
            UPDATE uniqueid_catalog.uniqueid_node_registry x
            SET max_ahead_ms = v_ahead, max_skew_ms = v_skew,
                grace_until = CASE WHEN clock_timestamp() < r.grace_until
                                   THEN greatest(r.grace_until, r.since + (v_ahead + v_skew) * interval '1 millisecond')
                                   ELSE r.grace_until END
            RETURNING x.* INTO r;
        ELSE
            -- (a restart alone: from the start; a promotion or a restore: from now)
            v_since := CASE WHEN r.system_identifier = v_sysid AND r.timeline = v_timeline
                            THEN v_started ELSE clock_timestamp() END;
            UPDATE uniqueid_catalog.uniqueid_node_registry x
            SET system_identifier = v_sysid, timeline = v_timeline, started = v_started, since = v_since,
                max_ahead_ms = v_ahead, max_skew_ms = v_skew,
                grace_until = v_since + (v_ahead + v_skew) * interval '1 millisecond'
            RETURNING x.* INTO r;
        END IF;
    END IF;
    allowance := (r.max_ahead_ms + r.max_skew_ms) * interval '1 millisecond';
    renewable_from := r.since + r.max_skew_ms * interval '1 millisecond';
    grace_until := r.grace_until;
    -- (and the skew: the clock of a registry that replaced another may be
    -- behind the other's by that much)
    floor_at := r.grace_until + r.max_skew_ms * interval '1 millisecond';
END
$function$;

CREATE OR REPLACE FUNCTION uniqueid_node_extend(
    claimed integer, claim_token bigint, lease integer, skew integer, base bigint, ahead integer,
    renewable_from timestamptz, grace_until timestamptz, allowance interval,
    OUT number integer, OUT previous_horizon_ms bigint, OUT horizon_ms bigint, OUT lease_until_ms bigint)
RETURNS SETOF record
LANGUAGE sql VOLATILE STRICT
SET search_path = pg_catalog, pg_temp
AS $function$
    UPDATE uniqueid_catalog.uniqueid_node_claims c SET
        renewed_at = clock_timestamp(),
        lease_until = greatest(c.lease_until, clock_timestamp() + $3 * interval '1 millisecond'),
        skew_ms = greatest(c.skew_ms, $4),
        horizon = @extschema@.uniqueid_node_horizon(c.horizon, $5, $6, $9)
    WHERE c.number = $1 AND c.token = $2 AND c.lease_until >= $7
      AND (c.lease_until + greatest(c.skew_ms, $4) * interval '1 millisecond' >= clock_timestamp()
           OR clock_timestamp() >= $8)
    RETURNING c.number,
              CASE WHEN c.previous_horizon = '-infinity' THEN 0
                   ELSE @extschema@.uniqueid_timestamptz_to_ms(c.previous_horizon) END,
              @extschema@.uniqueid_timestamptz_to_ms(c.horizon),
              @extschema@.uniqueid_timestamptz_to_ms(c.lease_until)
$function$;

CREATE OR REPLACE FUNCTION uniqueid_claim_node(
    lo integer, hi integer, system_identifier numeric, name text, token bigint,
    lease_ms integer, skew_ms integer, base_ms bigint, ahead_ms integer,
    OUT number integer, OUT previous_horizon_ms bigint, OUT horizon_ms bigint, OUT lease_until_ms bigint)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE STRICT SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
    candidate integer;
    i record;
BEGIN
    IF lo < 0 OR hi > 65535 OR lo > hi THEN
        RAISE EXCEPTION 'node range %-% is not within 0-65535', lo, hi USING ERRCODE = '22023';
    END IF;
    PERFORM @extschema@.uniqueid_node_check_terms(lease_ms, skew_ms, base_ms, ahead_ms);
    PERFORM @extschema@.uniqueid_node_sync_commit();
    SELECT * INTO i FROM @extschema@.uniqueid_node_incarnation(ahead_ms, skew_ms);
    -- the same claim again (uniqueid_node_extend: in the grace period, only
    -- while its lease runs)
    SELECT c.number INTO candidate FROM uniqueid_catalog.uniqueid_node_claims c
    WHERE c.token = uniqueid_claim_node.token AND c.number BETWEEN lo AND hi
      AND c.holder_system_identifier = uniqueid_claim_node.system_identifier
      AND c.holder_name = uniqueid_claim_node.name AND c.lease_until > '-infinity';
    IF FOUND THEN
        RETURN QUERY SELECT * FROM @extschema@.uniqueid_node_extend(candidate, token, lease_ms, skew_ms,
                                                                     base_ms, ahead_ms, i.renewable_from, i.grace_until,
                                                                     i.allowance);
        IF FOUND THEN
            RETURN;
        END IF;
    END IF;
    IF clock_timestamp() < i.grace_until THEN
        number := NULL;
        previous_horizon_ms := NULL;
        horizon_ms := NULL;
        lease_until_ms := @extschema@.uniqueid_timestamptz_to_ms(i.grace_until);
        RETURN NEXT;
        RETURN;
    END IF;
    -- (a number taken between the choice and the claim: the next choice)
    FOR attempt IN 1..8 LOOP
        SELECT n INTO candidate FROM (
            SELECT c.number AS n,
                   CASE WHEN c.holder_system_identifier = uniqueid_claim_node.system_identifier
                             AND c.holder_name = uniqueid_claim_node.name THEN 0 ELSE 1 END AS pref
            FROM uniqueid_catalog.uniqueid_node_claims c
            WHERE c.number BETWEEN lo AND hi
              AND c.lease_until + greatest(c.skew_ms, uniqueid_claim_node.skew_ms) * interval '1 millisecond' < clock_timestamp()
            UNION ALL
            SELECT (SELECT g FROM generate_series(lo, hi) g
                    WHERE NOT EXISTS (SELECT FROM uniqueid_catalog.uniqueid_node_claims c WHERE c.number = g)
                    ORDER BY g LIMIT 1), 1
        ) f
        WHERE n IS NOT NULL
        ORDER BY pref, n LIMIT 1;
        IF candidate IS NULL THEN
            RETURN;
        END IF;
        RETURN QUERY
        INSERT INTO uniqueid_catalog.uniqueid_node_claims AS c VALUES (
            candidate, system_identifier, name, token, clock_timestamp(), clock_timestamp(),
            clock_timestamp() + lease_ms * interval '1 millisecond', uniqueid_claim_node.skew_ms,
            @extschema@.uniqueid_node_claim_horizon(i.floor_at, base_ms, lease_ms, ahead_ms, i.allowance), i.floor_at)
        ON CONFLICT ON CONSTRAINT uniqueid_node_claims_pkey DO UPDATE SET
            holder_system_identifier = excluded.holder_system_identifier,
            holder_name = excluded.holder_name,
            token = excluded.token,
            claimed_at = excluded.claimed_at,
            renewed_at = excluded.renewed_at,
            lease_until = excluded.lease_until,
            skew_ms = excluded.skew_ms,
            horizon = @extschema@.uniqueid_node_claim_horizon(greatest(c.horizon, i.floor_at), base_ms, lease_ms,
                                                              ahead_ms, i.allowance),
            previous_horizon = greatest(c.horizon, i.floor_at)
        WHERE c.lease_until + greatest(c.skew_ms, uniqueid_claim_node.skew_ms) * interval '1 millisecond' < clock_timestamp()
        RETURNING c.number,
                  CASE WHEN c.previous_horizon = '-infinity' THEN 0
                       ELSE @extschema@.uniqueid_timestamptz_to_ms(c.previous_horizon) END,
                  @extschema@.uniqueid_timestamptz_to_ms(c.horizon),
                  @extschema@.uniqueid_timestamptz_to_ms(c.lease_until);
        IF FOUND THEN
            RETURN;
        END IF;
    END LOOP;
END
$function$;

CREATE OR REPLACE FUNCTION uniqueid_renew_node(
    number integer, token bigint, lease_ms integer, skew_ms integer, base_ms bigint, ahead_ms integer,
    OUT horizon_ms bigint, OUT lease_until_ms bigint)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE STRICT SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
    i record;
    holder bigint;
BEGIN
    PERFORM @extschema@.uniqueid_node_check_terms(lease_ms, skew_ms, base_ms, ahead_ms);
    PERFORM @extschema@.uniqueid_node_sync_commit();
    SELECT * INTO i FROM @extschema@.uniqueid_node_incarnation(ahead_ms, skew_ms);
    RETURN QUERY SELECT e.horizon_ms, e.lease_until_ms
    FROM @extschema@.uniqueid_node_extend(number, token, lease_ms, skew_ms, base_ms, ahead_ms,
                                          i.renewable_from, i.grace_until, i.allowance) e;
    IF FOUND THEN
        RETURN;
    END IF;
    SELECT c.token INTO holder FROM uniqueid_catalog.uniqueid_node_claims c WHERE c.number = uniqueid_renew_node.number;
    IF NOT FOUND THEN
        horizon_ms := NULL;
        lease_until_ms := NULL;
        RETURN NEXT;
    ELSIF holder = token THEN
        horizon_ms := NULL;
        lease_until_ms := @extschema@.uniqueid_timestamptz_to_ms(i.grace_until);
        RETURN NEXT;
    END IF;
END
$function$;

CREATE OR REPLACE FUNCTION uniqueid_release_node(number integer, token bigint, horizon_ms bigint)
RETURNS boolean
LANGUAGE plpgsql VOLATILE STRICT SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $function$
BEGIN
    PERFORM @extschema@.uniqueid_node_sync_commit();
    UPDATE uniqueid_catalog.uniqueid_node_claims c SET
        lease_until = '-infinity',
        horizon = greatest(c.previous_horizon,
                           least(c.horizon, @extschema@.uniqueid_ms_to_timestamptz(uniqueid_release_node.horizon_ms)))
    WHERE c.number = uniqueid_release_node.number AND c.token = uniqueid_release_node.token;
    RETURN FOUND;
END
$function$;


-- uniqueid_convert_key as in 1.8, telling how far it is: a NOTICE before
-- each statement it runs, "step N of M" and the statement, for the caller
-- (client_min_messages = warning silences them), and the step as the
-- session's application_name meanwhile, which other sessions see in
-- pg_stat_activity (doc/moving.md).
CREATE OR REPLACE FUNCTION uniqueid_convert_key(table_name regclass, column_name name, new_type regtype DEFAULT 'shardid',
                                     shard integer DEFAULT NULL, dry_run boolean DEFAULT false)
RETURNS SETOF text
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
SET row_security = off
AS $function$
DECLARE
    ext name := (SELECT nspname FROM pg_namespace WHERE oid = '@extschema@'::regnamespace);
    tname name;
    fam name;
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
    n int := 0;
    app text := current_setting('application_name');
BEGIN
    -- (bigint: the key stays a bigint and takes snowflakes, as
    -- uniqueid.serial_normalization makes it)
    IF new_type = 'bigint'::regtype THEN
        tname := 'bigint';
        fam := 'snowflake';
    ELSE
        SELECT t.typname INTO tname FROM pg_type t
        WHERE t.oid = new_type AND t.typnamespace = '@extschema@'::regnamespace AND t.typname IN ('shardid', 'snowflake');
        fam := tname;
    END IF;
    IF tname IS NULL THEN
        RAISE EXCEPTION 'cannot convert a key to type %', new_type
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'uniqueid_convert_key converts integer keys to shardid or snowflake, whose IDs are '
                         'integers too, or to bigint taking snowflakes. doc/moving.md says how to move uuid and text keys.';
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
    ELSIF col.typ = new_type AND tname <> 'bigint' THEN
        RAISE EXCEPTION 'column "%" of relation % is already of type %', column_name, table_name, new_type
            USING ERRCODE = 'datatype_mismatch';
    ELSIF tname = 'bigint' AND EXISTS (SELECT FROM @extschema@.uniqueid_normalized_columns() n
                                       WHERE n.table_name = uniqueid_convert_key.table_name
                                         AND n.column_name = uniqueid_convert_key.column_name) THEN
        RAISE EXCEPTION 'column "%" of relation % already takes snowflakes', column_name, table_name
            USING ERRCODE = 'datatype_mismatch', DETAIL = 'It is a bigint defaulting to next_snowflake().';
    ELSIF EXISTS (SELECT FROM pg_partitioned_table p WHERE p.partrelid = table_name AND col.attnum = ANY (p.partattrs)) THEN
        RAISE EXCEPTION 'column "%" is in the partition key of %', column_name, table_name
            USING ERRCODE = 'feature_not_supported',
                  DETAIL = 'PostgreSQL cannot change the type of a partition key column.',
                  HINT = 'Create a table partitioned by the new type (doc/partitioning.md) and copy the rows into it.';
    END IF;
    gen := CASE WHEN tname = 'snowflake' THEN format('%I.next_snowflake()', ext)
                WHEN tname = 'bigint' THEN format('%I.next_snowflake()::bigint', ext)
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
    EXECUTE format('SELECT %I.%I(clock_timestamp())::bigint', ext, fam || '_floor') INTO floor_now;
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
                      DETAIL = format('A %s is not negative; its IDs sort as unsigned numbers.', fam);
        ELSIF hi >= floor_now THEN
            RAISE EXCEPTION 'column "%" of relation % holds %, which would not sort before the new IDs', c.attname, c.rel, hi
                USING ERRCODE = 'numeric_value_out_of_range',
                      DETAIL = format('As a %s, %s is at or past the IDs of now, which start at %s.', fam, hi, floor_now);
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
      AND EXISTS (SELECT FROM unnest(rels, atts) AS k(rel, att) WHERE k.rel = f.confrelid AND k.att = ANY (f.confkey))
      -- (to bigint, only those with a column of another type, which changes)
      AND (tname <> 'bigint' OR EXISTS (
          SELECT FROM pg_attribute a
          WHERE ((a.attrelid = f.conrelid AND a.attnum = ANY (f.conkey)) OR (a.attrelid = f.confrelid AND a.attnum = ANY (f.confkey)))
            AND a.atttypid <> 'bigint'::regtype));
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
    -- of its columns is parsed again only once both have it; to bigint, only
    -- the columns of another type); the key's default
    stmts := stmts || (
        SELECT array_agg(format('ALTER TABLE %s %s', r::regclass, alters) ORDER BY d, r::regclass::text)
        FROM (SELECT k.rel AS r, min(k.depth) AS d,
                     string_agg(concat_ws(', ',
                                    CASE WHEN tname = 'bigint' AND a.atttypid = 'bigint'::regtype THEN NULL
                                         WHEN tname = 'bigint' THEN format('ALTER COLUMN %I TYPE bigint USING %I::bigint',
                                                                           a.attname, a.attname)
                                         ELSE format('ALTER COLUMN %I TYPE %I.%I USING %I::bigint::%I.%I',
                                                     a.attname, ext, tname, a.attname, ext, tname) END,
                                    CASE WHEN k.rel = table_name AND k.att = col.attnum
                                         THEN format('ALTER COLUMN %I SET DEFAULT %s', a.attname, gen) END),
                                ', ' ORDER BY k.att) FILTER (WHERE tname <> 'bigint' OR a.atttypid <> 'bigint'::regtype
                                                                   OR (k.rel = table_name AND k.att = col.attnum)) AS alters
              FROM unnest(rels, atts, depths) AS k(rel, att, depth)
              JOIN pg_attribute a ON a.attrelid = k.rel AND a.attnum = k.att
              GROUP BY k.rel) x
        WHERE alters IS NOT NULL);
    stmts := stmts || coalesce(adds, '{}');

    -- the statements run with the extension's schema on the path: ALTER
    -- TYPE parses the table's CHECK constraints and index expressions again,
    -- and an operator such as <> that they use is the extension's now
    PERFORM set_config('search_path', format('pg_catalog, %I, pg_temp', ext), true);
    FOREACH s IN ARRAY stmts LOOP
        n := n + 1;
        IF NOT dry_run THEN
            -- progress: what runs now, for the caller (a NOTICE, which
            -- client_min_messages = warning silences) and for other
            -- sessions (the application_name pg_stat_activity shows; the
            -- caller's again at the end, or at the rollback of an error)
            RAISE NOTICE 'uniqueid_convert_key: step % of %: %', n, cardinality(stmts), s;
            PERFORM set_config('application_name', format('uniqueid_convert_key: step %s of %s', n, cardinality(stmts)), true);
            EXECUTE s;
        END IF;
        RETURN NEXT s;
    END LOOP;
    IF NOT dry_run THEN
        PERFORM set_config('application_name', app, true);
    END IF;
END
$function$;
COMMENT ON FUNCTION uniqueid_convert_key(regclass, name, regtype, integer, boolean) IS
    'moves an integer key and the foreign keys that reference it onto shardid or snowflake, or to bigint taking snowflakes, keeping every value; returns the statements (dry_run: runs none), with a NOTICE before each it runs';
