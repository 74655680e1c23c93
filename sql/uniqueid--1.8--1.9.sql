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

