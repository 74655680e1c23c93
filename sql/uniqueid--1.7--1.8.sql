-- uniqueid 1.7 -> 1.8: the node registry when it fails (doc/negotiated-nodes.md,
-- "When the registry fails"): its own commits synchronous, a claim retried
-- with its token answered with the same number, every recorded horizon
-- within a day of the registry's clock, bad arguments told from a lost
-- number, and a grace period after the registry was restarted, promoted or
-- restored.  The columns uniqueid.serial_normalization makes
-- (doc/orms.md): uniqueid_normalized_columns().

\echo Use "ALTER EXTENSION uniqueid UPDATE TO '1.8'" to load this file. \quit

-- How far past the registry's clock a recorded horizon may be: a day.  One
-- constant for the claim, the renewal and the release, so that a role that
-- may claim cannot push the horizons further (the next holders start above
-- them), and a holder whose clock or horizon is further ahead still renews
-- (its horizon is recorded at the bound; its node-bearing IDs past it are
-- refused until the clock catches up) rather than losing its number.
CREATE FUNCTION uniqueid_node_allowance_ms() RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN 86400000;

-- The registry's incarnation: the cluster, timeline and start that last
-- answered a claim or renewal, and the longest terms (ahead_ms, skew_ms) a
-- claim or renewal has sent.  When the incarnation changes (a restart, a
-- promotion, a restore: the registry may have forgotten claims and
-- horizons written since its backup or by an asynchronous primary), no
-- number is claimed for the grace period: the longest ahead_ms plus
-- skew_ms seen (the lease, the lead allowance, the longest unit and the
-- skew of the holders), or the claimer's if longer; and no lease that had
-- ended is renewed then (its number may have been handed on in what was
-- forgotten).  Not dumped: a database restored from a dump has no row,
-- which, with claims in the table, starts a grace period too.
CREATE TABLE uniqueid_node_registry (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    system_identifier numeric NOT NULL,
    timeline text NOT NULL,
    started timestamptz NOT NULL,
    since timestamptz NOT NULL,
    max_ahead_ms integer NOT NULL,
    max_skew_ms integer NOT NULL
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

-- The end of the registry's grace period (-infinity: none), its
-- incarnation and the terms ahead_ms and skew_ms noted first.  A registry
-- with no claims yet has none.  (The row is locked only to change it.)
CREATE FUNCTION uniqueid_node_grace_until(ahead_ms integer, skew_ms integer) RETURNS timestamptz
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
    v_sysid numeric := (SELECT s.system_identifier FROM pg_control_system() s);
    v_timeline text := substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8);
    v_started timestamptz := pg_postmaster_start_time();
    r @extschema@.uniqueid_node_registry;
BEGIN
    SELECT * INTO r FROM @extschema@.uniqueid_node_registry;
    IF FOUND AND r.system_identifier = v_sysid AND r.timeline = v_timeline AND r.started = v_started
       AND r.max_ahead_ms >= ahead_ms AND r.max_skew_ms >= skew_ms THEN
        RETURN r.since + (r.max_ahead_ms + r.max_skew_ms) * interval '1 millisecond';
    END IF;
    SELECT * INTO r FROM @extschema@.uniqueid_node_registry FOR UPDATE;
    IF NOT FOUND THEN
        INSERT INTO @extschema@.uniqueid_node_registry
        VALUES (true, v_sysid, v_timeline, v_started,
                CASE WHEN EXISTS (SELECT FROM @extschema@.uniqueid_node_claims) THEN clock_timestamp()
                     ELSE '-infinity' END,
                ahead_ms, skew_ms)
        ON CONFLICT DO NOTHING;
        SELECT * INTO r FROM @extschema@.uniqueid_node_registry FOR UPDATE;
    END IF;
    -- (a restart alone: from the start; a promotion or a restore: from now)
    UPDATE @extschema@.uniqueid_node_registry x
    SET system_identifier = v_sysid, timeline = v_timeline, started = v_started,
        since = CASE WHEN r.system_identifier = v_sysid AND r.timeline = v_timeline AND r.started = v_started
                     THEN r.since
                     WHEN r.system_identifier = v_sysid AND r.timeline = v_timeline
                     THEN v_started ELSE clock_timestamp() END,
        max_ahead_ms = greatest(r.max_ahead_ms, ahead_ms),
        max_skew_ms = greatest(r.max_skew_ms, skew_ms)
    RETURNING x.* INTO r;
    RETURN r.since + (r.max_ahead_ms + r.max_skew_ms) * interval '1 millisecond';
END
$function$;
REVOKE EXECUTE ON FUNCTION uniqueid_node_grace_until(integer, integer) FROM PUBLIC;

-- A registry (a database with claims) as it is now is its incarnation: the
-- update forgot nothing.  (Elsewhere the table stays empty, so that a
-- migration by logical replication of all tables finds no row there.)
INSERT INTO uniqueid_node_registry
SELECT true, s.system_identifier, substr(pg_catalog.pg_walfile_name(pg_catalog.pg_current_wal_lsn()), 1, 8),
       pg_catalog.pg_postmaster_start_time(), '-infinity', 0, 0
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
-- recorded: never lower than that, never past the registry's clock plus
-- the allowance (unless the one recorded already is).
CREATE FUNCTION uniqueid_node_horizon(recorded timestamptz, base_ms bigint, ahead_ms integer)
RETURNS timestamptz
LANGUAGE sql VOLATILE
SET search_path = pg_catalog, pg_temp
RETURN greatest(recorded,
                least(@extschema@.uniqueid_ms_to_timestamptz(base_ms + ahead_ms),
                      clock_timestamp() + @extschema@.uniqueid_node_allowance_ms() * interval '1 millisecond'));
REVOKE EXECUTE ON FUNCTION uniqueid_node_horizon(timestamptz, bigint, integer) FROM PUBLIC;

-- A claim held by `token` extended: its lease renewed (never to end sooner
-- than it did), its horizon raised to base_ms plus ahead_ms within the
-- bounds; in the registry's grace period (before grace_until), only a lease
-- that still runs: one that ended may have been handed on in what the
-- registry forgot.  No row when the number is not the token's.  For the
-- claim retried with its token and the renewal.
CREATE FUNCTION uniqueid_node_extend(
    claimed integer, claim_token bigint, lease integer, skew integer, base bigint, ahead integer,
    grace_until timestamptz,
    OUT number integer, OUT previous_horizon_ms bigint, OUT horizon_ms bigint, OUT lease_until_ms bigint)
RETURNS SETOF record
LANGUAGE sql VOLATILE STRICT
SET search_path = pg_catalog, pg_temp
AS $function$
    UPDATE @extschema@.uniqueid_node_claims c SET
        renewed_at = clock_timestamp(),
        lease_until = greatest(c.lease_until, clock_timestamp() + $3 * interval '1 millisecond'),
        skew_ms = greatest(c.skew_ms, $4),
        horizon = @extschema@.uniqueid_node_horizon(c.horizon, $5, $6)
    WHERE c.number = $1 AND c.token = $2
      AND (clock_timestamp() >= $7
           OR c.lease_until + greatest(c.skew_ms, $4) * interval '1 millisecond' >= clock_timestamp())
    RETURNING c.number,
              CASE WHEN c.previous_horizon = '-infinity' THEN 0
                   ELSE @extschema@.uniqueid_timestamptz_to_ms(c.previous_horizon) END,
              @extschema@.uniqueid_timestamptz_to_ms(c.horizon),
              @extschema@.uniqueid_timestamptz_to_ms(c.lease_until)
$function$;
REVOKE EXECUTE ON FUNCTION uniqueid_node_extend(integer, bigint, integer, integer, bigint, integer, timestamptz) FROM PUBLIC;

-- uniqueid_claim_node: as in 1.6, and
-- * a claim retried with its token (its first try's outcome unknown to the
--   holder) is answered with the number that try claimed, if nobody claimed
--   it since, written again (so that this commit, waiting for the standbys,
--   covers the first);
-- * the new holder's horizon is its base (or the previous horizon, if
--   later) plus ahead_ms, at most the registry's clock plus the allowance:
--   claims and releases in a row cannot push it further; it may equal the
--   previous horizon, leaving the holder no room until renewals give some;
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
    grace_until timestamptz;
BEGIN
    IF lo < 0 OR hi > 65535 OR lo > hi THEN
        RAISE EXCEPTION 'node range %-% is not within 0-65535', lo, hi USING ERRCODE = '22023';
    END IF;
    PERFORM @extschema@.uniqueid_node_check_terms(lease_ms, skew_ms, base_ms, ahead_ms);
    PERFORM @extschema@.uniqueid_node_sync_commit();
    grace_until := @extschema@.uniqueid_node_grace_until(ahead_ms, skew_ms);
    -- the same claim again (uniqueid_node_extend: in the grace period, only
    -- while its lease runs)
    SELECT c.number INTO candidate FROM @extschema@.uniqueid_node_claims c
    WHERE c.token = uniqueid_claim_node.token AND c.number BETWEEN lo AND hi
      AND c.holder_system_identifier = uniqueid_claim_node.system_identifier
      AND c.holder_name = uniqueid_claim_node.name AND c.lease_until > '-infinity';
    IF FOUND THEN
        RETURN QUERY SELECT * FROM @extschema@.uniqueid_node_extend(candidate, token, lease_ms, skew_ms,
                                                                     base_ms, ahead_ms, grace_until);
        IF FOUND THEN
            RETURN;
        END IF;
    END IF;
    IF clock_timestamp() < grace_until THEN
        number := NULL;
        previous_horizon_ms := NULL;
        horizon_ms := NULL;
        lease_until_ms := @extschema@.uniqueid_timestamptz_to_ms(grace_until);
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
            @extschema@.uniqueid_node_horizon('-infinity', base_ms, ahead_ms), '-infinity')
        ON CONFLICT ON CONSTRAINT uniqueid_node_claims_pkey DO UPDATE SET
            holder_system_identifier = excluded.holder_system_identifier,
            holder_name = excluded.holder_name,
            token = excluded.token,
            claimed_at = excluded.claimed_at,
            renewed_at = excluded.renewed_at,
            lease_until = excluded.lease_until,
            skew_ms = excluded.skew_ms,
            horizon = @extschema@.uniqueid_node_horizon(c.horizon,
                          greatest(@extschema@.uniqueid_timestamptz_to_ms(c.horizon), base_ms), ahead_ms),
            previous_horizon = c.horizon
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
-- "no row", which now means only that the number is no longer the token's
-- (or, in the grace period, that its lease had ended); the horizon is
-- bounded as a claim's, and the commit is synchronous.
CREATE OR REPLACE FUNCTION uniqueid_renew_node(
    number integer, token bigint, lease_ms integer, skew_ms integer, base_ms bigint, ahead_ms integer,
    OUT horizon_ms bigint, OUT lease_until_ms bigint)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE STRICT SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
    grace_until timestamptz;
BEGIN
    PERFORM @extschema@.uniqueid_node_check_terms(lease_ms, skew_ms, base_ms, ahead_ms);
    PERFORM @extschema@.uniqueid_node_sync_commit();
    grace_until := @extschema@.uniqueid_node_grace_until(ahead_ms, skew_ms);
    RETURN QUERY SELECT e.horizon_ms, e.lease_until_ms
    FROM @extschema@.uniqueid_node_extend(number, token, lease_ms, skew_ms, base_ms, ahead_ms, grace_until) e;
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
