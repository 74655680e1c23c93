-- uniqueid 1.7 -> 1.8: the node registry when it fails (doc/negotiated-nodes.md,
-- "When the registry fails"): its own commits synchronous, a claim retried
-- with its token answered with the same number, every recorded horizon
-- within a day of the registry's clock, bad arguments told from a lost
-- number, and a grace period after the registry was restarted, promoted or
-- restored.  The columns uniqueid.serial_normalization makes
-- (doc/orms.md): uniqueid_normalized_columns(), and uniqueid_convert_key
-- to bigint, which moves an existing key to the same form.  Keyed,
-- reversible masks of every type (doc/masking.md): id_mask, id_unmask,
-- uuid7_mask, uuid7_unmask and id_mask_key_symbol.

\echo Use "ALTER EXTENSION uniqueid UPDATE TO '1.8'" to load this file. \quit

-- How far past the registry's clock a recorded horizon may be, at most: a
-- day.  The horizons are bounded by the registry's allowance below (the
-- longest terms its holders sent, at most about two hours); this is the
-- bound of that bound, whatever the terms.
CREATE FUNCTION uniqueid_node_allowance_ms() RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN 86400000;

-- The registry's incarnation: the cluster, timeline and start that last
-- answered a claim or renewal, since when it may have forgotten claims
-- (-infinity: never), the end of the grace period that began then, and the
-- longest terms (ahead_ms, skew_ms) a claim or renewal has sent.  What the
-- registry does not know, it assumes the worst about: with no row (a new
-- registry, a standby cloned or a backup taken before the first claim, a
-- restore from a dump, which does not carry the row), or another
-- incarnation than the last (a restart, a promotion, a restore), it may
-- have forgotten claims and horizons, so
-- * no number is claimed for the grace period, the longest ahead_ms plus
--   skew_ms seen (the lease, the lead allowance, the longest unit and the
--   skew of the holders), or the claimer's if longer (longer terms sent
--   during the period lengthen it; after it, only the allowance), and no
--   lease that had ended is renewed then (its number may have been handed
--   on in what was forgotten);
-- * no lease that ended before it may have forgotten, or within the skew
--   allowance of that (its clock may be behind its predecessor's by that
--   much), is renewed again: its holder claims the number anew;
-- * every claim after it starts above the end of the grace period and the
--   skew (the floor): no horizon the registry forgot is past it, since
--   every horizon it records is within its allowance, the same terms, of
--   its clock.
-- A brand-new registry pays the grace period once, at its first claim.
CREATE TABLE uniqueid_node_registry (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    system_identifier numeric NOT NULL,
    timeline text NOT NULL,
    started timestamptz NOT NULL,
    since timestamptz NOT NULL,
    max_ahead_ms integer NOT NULL,
    max_skew_ms integer NOT NULL,
    grace_until timestamptz NOT NULL
);
REVOKE ALL ON uniqueid_node_registry FROM PUBLIC;

-- The commit of a registry function waits for the synchronous standbys,
-- whatever the role's synchronous_commit says (transaction-local).
CREATE FUNCTION uniqueid_node_sync_commit() RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $function$
BEGIN
    IF current_setting('synchronous_commit') NOT IN ('on', 'remote_apply') THEN
        PERFORM set_config('synchronous_commit', 'on', true);
    END IF;
END
$function$;
REVOKE EXECUTE ON FUNCTION uniqueid_node_sync_commit() FROM PUBLIC;

-- The registry's incarnation as a caller with the terms ahead_ms and skew_ms
-- sees it, noted first (the row is locked only to change it): from when a
-- lease may be renewed (one that ended before is not: since, when it may
-- have forgotten claims, and the skew; -infinity: any), the end of its
-- grace period (-infinity: none), the floor of every claim (the end of the
-- grace period and the skew), and the allowance of a recorded horizon past
-- its clock (the longest ahead_ms plus skew_ms).  A new row, with claims in
-- the table (a restore from a dump), takes the longest terms that the
-- claims show too: each one's lease and horizon past its last renewal, and
-- its skew.
CREATE FUNCTION uniqueid_node_incarnation(ahead_ms integer, skew_ms integer,
    OUT renewable_from timestamptz, OUT grace_until timestamptz, OUT floor_at timestamptz, OUT allowance interval)
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
    v_sysid numeric := (SELECT s.system_identifier FROM pg_control_system() s);
    v_timeline text := substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8);
    v_started timestamptz := pg_postmaster_start_time();
    r @extschema@.uniqueid_node_registry;
    v_ahead integer;
    v_skew integer;
    v_since timestamptz;
BEGIN
    SELECT * INTO r FROM @extschema@.uniqueid_node_registry;
    IF NOT FOUND OR r.system_identifier <> v_sysid OR r.timeline <> v_timeline OR r.started <> v_started
       OR r.max_ahead_ms < ahead_ms OR r.max_skew_ms < skew_ms THEN
        SELECT * INTO r FROM @extschema@.uniqueid_node_registry FOR UPDATE;
        IF NOT FOUND THEN
            -- (no record: it may have forgotten everything; from now)
            SELECT greatest(uniqueid_node_incarnation.ahead_ms, max(least(7201000, greatest(
                       extract(epoch FROM c.lease_until - c.renewed_at) * 1000,
                       extract(epoch FROM c.horizon - c.renewed_at) * 1000)))::integer),
                   greatest(uniqueid_node_incarnation.skew_ms, max(least(1800000, c.skew_ms)))
            INTO v_ahead, v_skew
            FROM @extschema@.uniqueid_node_claims c
            WHERE c.lease_until > '-infinity' AND c.horizon > '-infinity';
            INSERT INTO @extschema@.uniqueid_node_registry
            VALUES (true, v_sysid, v_timeline, v_started, clock_timestamp(), v_ahead, v_skew,
                    clock_timestamp() + (v_ahead + v_skew) * interval '1 millisecond')
            ON CONFLICT DO NOTHING;
            SELECT * INTO r FROM @extschema@.uniqueid_node_registry FOR UPDATE;
        END IF;
        v_ahead := greatest(r.max_ahead_ms, ahead_ms);
        v_skew := greatest(r.max_skew_ms, skew_ms);
        IF r.system_identifier = v_sysid AND r.timeline = v_timeline AND r.started = v_started THEN
            -- (longer terms lengthen a grace period under way, not one that ended)
            UPDATE @extschema@.uniqueid_node_registry x
            SET max_ahead_ms = v_ahead, max_skew_ms = v_skew,
                grace_until = CASE WHEN clock_timestamp() < r.grace_until
                                   THEN greatest(r.grace_until, r.since + (v_ahead + v_skew) * interval '1 millisecond')
                                   ELSE r.grace_until END
            RETURNING x.* INTO r;
        ELSE
            -- (a restart alone: from the start; a promotion or a restore: from now)
            v_since := CASE WHEN r.system_identifier = v_sysid AND r.timeline = v_timeline
                            THEN v_started ELSE clock_timestamp() END;
            UPDATE @extschema@.uniqueid_node_registry x
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
REVOKE EXECUTE ON FUNCTION uniqueid_node_incarnation(integer, integer) FROM PUBLIC;

-- A registry (a database with claims) as it is now is its incarnation: the
-- update forgot nothing.  (Elsewhere the table stays empty, so that a
-- migration by logical replication of all tables finds no row there.)
INSERT INTO uniqueid_node_registry
SELECT true, s.system_identifier, substr(pg_catalog.pg_walfile_name(pg_catalog.pg_current_wal_lsn()), 1, 8),
       pg_catalog.pg_postmaster_start_time(), '-infinity', 0, 0, '-infinity'
FROM pg_catalog.pg_control_system() s
WHERE NOT pg_catalog.pg_is_in_recovery() AND EXISTS (SELECT FROM uniqueid_node_claims);

-- The terms a claim or renewal sends, checked: 22023 naming them.
CREATE FUNCTION uniqueid_node_check_terms(lease_ms integer, skew_ms integer, base_ms bigint, ahead_ms integer)
RETURNS void
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $function$
BEGIN
    -- (ahead: the lease, uniqueid.max_clock_lead, at most an hour, and a second)
    IF lease_ms NOT BETWEEN 1000 AND 3600000 OR skew_ms < 0 OR 2 * skew_ms::bigint >= lease_ms
       OR base_ms NOT BETWEEN 0 AND 253402300799999 OR ahead_ms NOT BETWEEN lease_ms AND lease_ms + 3601000 THEN
        RAISE EXCEPTION 'invalid lease % ms, skew % ms, base % ms or ahead % ms', lease_ms, skew_ms, base_ms, ahead_ms
            USING ERRCODE = '22023',
                  DETAIL = 'The lease must be 1 s to 1 h, the skew less than half of it, the base a time of years 1970 to 9999, and ahead the lease plus at most 1 h 1 s.';
    END IF;
END
$function$;
REVOKE EXECUTE ON FUNCTION uniqueid_node_check_terms(integer, integer, bigint, integer) FROM PUBLIC;

-- The horizon recorded for base_ms plus ahead_ms over a horizon already
-- recorded (or the floor a new holder starts above): never lower than
-- that, never past the registry's clock plus its allowance (nor a day):
-- so no horizon it may forget is past the floor of a later claim.
CREATE FUNCTION uniqueid_node_horizon(recorded timestamptz, base_ms bigint, ahead_ms integer, allowance interval)
RETURNS timestamptz
LANGUAGE sql VOLATILE
SET search_path = pg_catalog, pg_temp
RETURN greatest(recorded,
                least(@extschema@.uniqueid_ms_to_timestamptz(base_ms + ahead_ms),
                      clock_timestamp() + least(allowance,
                                                @extschema@.uniqueid_node_allowance_ms() * interval '1 millisecond')));
REVOKE EXECUTE ON FUNCTION uniqueid_node_horizon(timestamptz, bigint, integer, interval) FROM PUBLIC;

-- The horizon of a new claim over the previous horizon (or floor): the
-- claimer's base plus ahead_ms, or the previous horizon plus the lease if
-- later, within the bounds above.  The claimer's IDs start above the
-- previous horizon, and may go on from there for the lease before a
-- renewal records more, whatever its clock says; never the previous
-- horizon plus ahead_ms, which adds the lead allowance once more with each
-- handover.
CREATE FUNCTION uniqueid_node_claim_horizon(previous timestamptz, base_ms bigint, lease_ms integer,
                                            ahead_ms integer, allowance interval)
RETURNS timestamptz
LANGUAGE sql VOLATILE
SET search_path = pg_catalog, pg_temp
RETURN @extschema@.uniqueid_node_horizon(previous,
           CASE WHEN previous = '-infinity' THEN base_ms
                ELSE greatest(base_ms, @extschema@.uniqueid_timestamptz_to_ms(previous) + lease_ms - ahead_ms) END,
           ahead_ms, allowance);
REVOKE EXECUTE ON FUNCTION uniqueid_node_claim_horizon(timestamptz, bigint, integer, integer, interval) FROM PUBLIC;

-- A claim held by `token` extended: its lease renewed (never to end sooner
-- than it did), its horizon raised to base_ms plus ahead_ms within the
-- bounds; only a lease that ends at or after renewable_from (the registry
-- may have forgotten claims before, uniqueid_node_incarnation: a lease that
-- ended before may have been handed on in what it forgot, and its holder
-- must claim the number anew, above the registry's floor), and, in the
-- registry's grace period (before grace_until), only one that still runs.
-- No row when the number is not the token's, or the lease is not renewed.
-- For the claim retried with its token and the renewal.
CREATE FUNCTION uniqueid_node_extend(
    claimed integer, claim_token bigint, lease integer, skew integer, base bigint, ahead integer,
    renewable_from timestamptz, grace_until timestamptz, allowance interval,
    OUT number integer, OUT previous_horizon_ms bigint, OUT horizon_ms bigint, OUT lease_until_ms bigint)
RETURNS SETOF record
LANGUAGE sql VOLATILE STRICT
SET search_path = pg_catalog, pg_temp
AS $function$
    UPDATE @extschema@.uniqueid_node_claims c SET
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
REVOKE EXECUTE ON FUNCTION uniqueid_node_extend(integer, bigint, integer, integer, bigint, integer, timestamptz,
                                                timestamptz, interval)
    FROM PUBLIC;

-- uniqueid_claim_node: as in 1.6, and
-- * a claim retried with its token (its first try's outcome unknown to the
--   holder) is answered with the number that try claimed, if nobody claimed
--   it since, written again (so that this commit, waiting for the standbys,
--   covers the first);
-- * the new holder starts above the previous horizon, or the registry's
--   floor if later (a number whose previous horizon may have been
--   forgotten: uniqueid_node_incarnation), never below;
-- * its horizon is its base plus ahead_ms, or the previous horizon plus the
--   lease if later (never the previous horizon plus ahead_ms: an adopted
--   floor is carried as it is, so that the lead of the holders does not
--   grow with each handover), at most the registry's clock plus its
--   allowance: claims and releases in a row cannot push it further; it may
--   then equal the previous horizon, leaving the holder no room until
--   renewals give some;
-- * in the registry's grace period, a row with no number, and the period's
--   end as lease_until_ms;
-- * base_ms past the registry's clock plus a day is no longer refused (the
--   horizon is bounded instead).
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
    SELECT c.number INTO candidate FROM @extschema@.uniqueid_node_claims c
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
            FROM @extschema@.uniqueid_node_claims c
            WHERE c.number BETWEEN lo AND hi
              AND c.lease_until + greatest(c.skew_ms, uniqueid_claim_node.skew_ms) * interval '1 millisecond' < clock_timestamp()
            UNION ALL
            SELECT (SELECT g FROM generate_series(lo, hi) g
                    WHERE NOT EXISTS (SELECT FROM @extschema@.uniqueid_node_claims c WHERE c.number = g)
                    ORDER BY g LIMIT 1), 1
        ) f
        WHERE n IS NOT NULL
        ORDER BY pref, n LIMIT 1;
        IF candidate IS NULL THEN
            RETURN;
        END IF;
        RETURN QUERY
        INSERT INTO @extschema@.uniqueid_node_claims AS c VALUES (
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

-- (CREATE OR REPLACE: the grants to the registry role stay)

-- uniqueid_renew_node: as in 1.6, but bad terms are an error (22023), not
-- "no row", which now means only that another claim of the number holds
-- it; a row with no horizon says why else a lease was not renewed: the
-- token's lease had ended and the registry may have forgotten claims since
-- (lease_until_ms: the end of its grace period, after which the holder may
-- claim the number anew), or the registry has no claim of the number at
-- all (lease_until_ms NULL: it forgot it).  The horizon is bounded as a
-- claim's, and the commit is synchronous.
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
    SELECT c.token INTO holder FROM @extschema@.uniqueid_node_claims c WHERE c.number = uniqueid_renew_node.number;
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

-- uniqueid_release_node: as in 1.6 (the horizon only comes down, never
-- below the previous holder's), with a synchronous commit.
CREATE OR REPLACE FUNCTION uniqueid_release_node(number integer, token bigint, horizon_ms bigint)
RETURNS boolean
LANGUAGE plpgsql VOLATILE STRICT SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $function$
BEGIN
    PERFORM @extschema@.uniqueid_node_sync_commit();
    UPDATE @extschema@.uniqueid_node_claims c SET
        lease_until = '-infinity',
        horizon = greatest(c.previous_horizon,
                           least(c.horizon, @extschema@.uniqueid_ms_to_timestamptz(uniqueid_release_node.horizon_ms)))
    WHERE c.number = uniqueid_release_node.number AND c.token = uniqueid_release_node.token;
    RETURN FOUND;
END
$function$;

-- The columns uniqueid.serial_normalization made (doc/orms.md): every bigint
-- column of this database whose default is this extension's
-- next_snowflake(), cast to bigint or not (the setting's default, or the
-- same written by hand), with the default as \d shows it.  Catalogs only:
-- it works without the library preloaded.
CREATE FUNCTION uniqueid_normalized_columns(OUT table_name regclass, OUT column_name name,
                                            OUT column_default text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'uniqueid_normalized_columns'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

-- uniqueid_convert_key: as in 1.4, and to new_type bigint too: the key (and
-- every column that references it) becomes, or stays, a bigint, and its
-- default next_snowflake()::bigint, the form uniqueid.serial_normalization
-- gives the keys ORMs create, so that an application's old keys and new
-- ones are of one type (doc/orms.md).  Its values are checked as a
-- snowflake's: none negative, none at or past the IDs of now.
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
        IF NOT dry_run THEN
            EXECUTE s;
        END IF;
        RETURN NEXT s;
    END LOOP;
END
$function$;
COMMENT ON FUNCTION uniqueid_convert_key(regclass, name, regtype, integer, boolean) IS
    'moves an integer key and the foreign keys that reference it onto shardid or snowflake, or to bigint taking snowflakes, keeping every value; returns the statements (dry_run: runs none)';

-- Masks (doc/masking.md): FF1 with AES (NIST SP 800-38G) over all of an
-- ID's bits under a key of 16, 24 or 32 bytes, the type as its tweak.
-- id_mask gives a code of one length per type and alphabet: a key symbol,
-- then the masked bits; id_unmask gives the ID back (its third argument,
-- NULL::type, names the type, so it is not strict).  A uuid is masked
-- when it is of version 7.

CREATE FUNCTION id_mask(id shardid, key bytea, alphabet text DEFAULT 'base64url') RETURNS text
    AS 'MODULE_PATHNAME', 'id_mask_shardid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_unmask(code text, key bytea, type shardid, alphabet text DEFAULT 'base64url') RETURNS shardid
    AS 'MODULE_PATHNAME', 'id_unmask_shardid' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION id_mask(id snowflake, key bytea, alphabet text DEFAULT 'base64url') RETURNS text
    AS 'MODULE_PATHNAME', 'id_mask_snowflake' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_unmask(code text, key bytea, type snowflake, alphabet text DEFAULT 'base64url') RETURNS snowflake
    AS 'MODULE_PATHNAME', 'id_unmask_snowflake' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION id_mask(id sonyflake, key bytea, alphabet text DEFAULT 'base64url') RETURNS text
    AS 'MODULE_PATHNAME', 'id_mask_sonyflake' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_unmask(code text, key bytea, type sonyflake, alphabet text DEFAULT 'base64url') RETURNS sonyflake
    AS 'MODULE_PATHNAME', 'id_unmask_sonyflake' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION id_mask(id shortid, key bytea, alphabet text DEFAULT 'base64url') RETURNS text
    AS 'MODULE_PATHNAME', 'id_mask_shortid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_unmask(code text, key bytea, type shortid, alphabet text DEFAULT 'base64url') RETURNS shortid
    AS 'MODULE_PATHNAME', 'id_unmask_shortid' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION id_mask(id spreadid, key bytea, alphabet text DEFAULT 'base64url') RETURNS text
    AS 'MODULE_PATHNAME', 'id_mask_spreadid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_unmask(code text, key bytea, type spreadid, alphabet text DEFAULT 'base64url') RETURNS spreadid
    AS 'MODULE_PATHNAME', 'id_unmask_spreadid' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION id_mask(id sno, key bytea, alphabet text DEFAULT 'base64url') RETURNS text
    AS 'MODULE_PATHNAME', 'id_mask_sno' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_unmask(code text, key bytea, type sno, alphabet text DEFAULT 'base64url') RETURNS sno
    AS 'MODULE_PATHNAME', 'id_unmask_sno' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION id_mask(id objectid, key bytea, alphabet text DEFAULT 'base64url') RETURNS text
    AS 'MODULE_PATHNAME', 'id_mask_objectid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_unmask(code text, key bytea, type objectid, alphabet text DEFAULT 'base64url') RETURNS objectid
    AS 'MODULE_PATHNAME', 'id_unmask_objectid' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION id_mask(id ulid, key bytea, alphabet text DEFAULT 'base64url') RETURNS text
    AS 'MODULE_PATHNAME', 'id_mask_ulid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_unmask(code text, key bytea, type ulid, alphabet text DEFAULT 'base64url') RETURNS ulid
    AS 'MODULE_PATHNAME', 'id_unmask_ulid' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION id_mask(id ksuid, key bytea, alphabet text DEFAULT 'base64url') RETURNS text
    AS 'MODULE_PATHNAME', 'id_mask_ksuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_unmask(code text, key bytea, type ksuid, alphabet text DEFAULT 'base64url') RETURNS ksuid
    AS 'MODULE_PATHNAME', 'id_unmask_ksuid' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION id_mask(id rsxid, key bytea, alphabet text DEFAULT 'base64url') RETURNS text
    AS 'MODULE_PATHNAME', 'id_mask_rsxid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_unmask(code text, key bytea, type rsxid, alphabet text DEFAULT 'base64url') RETURNS rsxid
    AS 'MODULE_PATHNAME', 'id_unmask_rsxid' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION id_mask(id uuid, key bytea, alphabet text DEFAULT 'base64url') RETURNS text
    AS 'MODULE_PATHNAME', 'id_mask_uuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_unmask(code text, key bytea, type uuid, alphabet text DEFAULT 'base64url') RETURNS uuid
    AS 'MODULE_PATHNAME', 'id_unmask_uuid' LANGUAGE C IMMUTABLE PARALLEL SAFE;

-- A typeid's code is a TypeID of its prefix: the masked UUID in 26
-- characters, the key's symbol in its version and variant bits.
CREATE FUNCTION id_mask(id typeid, key bytea) RETURNS text
    AS 'MODULE_PATHNAME', 'id_mask_typeid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_unmask(code text, key bytea, type typeid) RETURNS typeid
    AS 'MODULE_PATHNAME', 'id_unmask_typeid' LANGUAGE C IMMUTABLE PARALLEL SAFE;
-- A version 7 UUID as a version 4 UUID, and back.
CREATE FUNCTION uuid7_mask(id uuid, key bytea) RETURNS uuid
    AS 'MODULE_PATHNAME', 'uuid7_mask' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid7_unmask(id uuid, key bytea) RETURNS uuid
    AS 'MODULE_PATHNAME', 'uuid7_unmask' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
-- The symbol that begins the codes a key makes: keys kept side by side
-- for a rotation have different symbols.
CREATE FUNCTION id_mask_key_symbol(key bytea, alphabet text DEFAULT 'base64url') RETURNS text
    AS 'MODULE_PATHNAME', 'id_mask_key_symbol' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_mask_key_symbol(bytea, text) IS
    'the symbol that begins every code id_mask makes with this key in this alphabet';
-- A typeid's code begins with its prefix: the key's symbol is in its
-- UUID's version and variant bits, and this reads it, for a wrapper to
-- pick the key by (WHERE symbol = id_mask_typeid_symbol(code::typeid)).
CREATE FUNCTION id_mask_typeid_symbol(code typeid) RETURNS text
    AS 'MODULE_PATHNAME', 'id_mask_typeid_symbol' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_mask_typeid_symbol(typeid) IS
    'the base64url symbol (id_mask_key_symbol(key)) of the key that made this typeid code';
