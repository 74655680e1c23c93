-- uniqueid 1.5 -> 1.6: node numbers negotiated in a registry instead of set
-- by hand (uniqueid.node_registry, doc/negotiated-nodes.md).

\echo Use "ALTER EXTENSION uniqueid UPDATE TO '1.6'" to load this file. \quit

-- The claims of node numbers, in the registry database: a row per number
-- ever leased.  A number is free when its lease ended more than the
-- clock-skew allowance ago (its holder's or the claimer's, the larger).  horizon: no ID its holder made under
-- the number has a time unit that ends past it; previous_horizon: the one
-- its previous holder recorded, which the holder started above.  Written
-- only through the functions below (SECURITY DEFINER), which the registry
-- role is granted; nobody else may read it.
CREATE TABLE uniqueid_node_claims (
    number integer PRIMARY KEY CHECK (number BETWEEN 0 AND 65535),
    holder_system_identifier numeric NOT NULL,
    holder_name text NOT NULL,
    token bigint NOT NULL,
    claimed_at timestamptz NOT NULL,
    renewed_at timestamptz NOT NULL,
    lease_until timestamptz NOT NULL,
    skew_ms integer NOT NULL,
    horizon timestamptz NOT NULL,
    previous_horizon timestamptz NOT NULL
);
REVOKE ALL ON uniqueid_node_claims FROM PUBLIC;
-- (a registry restored from a dump keeps the horizons)
SELECT pg_catalog.pg_extension_config_dump('uniqueid_node_claims', '');

-- Unix milliseconds as a timestamptz and back, exactly.
CREATE FUNCTION uniqueid_ms_to_timestamptz(ms bigint) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN 'epoch'::timestamptz + ms * interval '1 millisecond';
CREATE FUNCTION uniqueid_timestamptz_to_ms(t timestamptz) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN floor(extract(epoch FROM t) * 1000)::bigint;

-- uniqueid_claim_node(lo, hi, system identifier, name, token, lease_ms,
-- skew_ms, base_ms, ahead_ms): the claim of a node worker (node.c): the
-- number of lo..hi this holder had last, if free, else the lowest free one,
-- leased for lease_ms, its horizon at base_ms (or the previous one, if
-- later) plus ahead_ms.  The lease is at most an hour, ahead_ms the lease
-- plus at most an hour and a second (uniqueid.max_clock_lead and a unit),
-- and base_ms (the holder's clock, or its horizon) at most a day past the
-- registry's clock: a role that may claim cannot push the horizons, which
-- the next holders start above, further than that.  One INSERT ... ON CONFLICT DO UPDATE ... WHERE per
-- number tried, in read committed: the number's row is locked, and the
-- condition that the lease ended skew_ms ago is checked on its latest
-- version, so that of two claims of one number exactly one wins.  No row
-- when no number is free.
CREATE FUNCTION uniqueid_claim_node(
    lo integer, hi integer, system_identifier numeric, name text, token bigint,
    lease_ms integer, skew_ms integer, base_ms bigint, ahead_ms integer,
    OUT number integer, OUT previous_horizon_ms bigint, OUT horizon_ms bigint, OUT lease_until_ms bigint)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE STRICT SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
    candidate integer;
BEGIN
    IF lo < 0 OR hi > 65535 OR lo > hi THEN
        RAISE EXCEPTION 'node range %-% is not within 0-65535', lo, hi USING ERRCODE = '22023';
    END IF;
    -- (ahead: the lease, uniqueid.max_clock_lead, at most an hour, and a second)
    IF lease_ms NOT BETWEEN 1000 AND 3600000 OR skew_ms < 0 OR 2 * skew_ms >= lease_ms
       OR base_ms NOT BETWEEN 0 AND @extschema@.uniqueid_timestamptz_to_ms(clock_timestamp()) + 86400000
       OR ahead_ms NOT BETWEEN lease_ms AND lease_ms + 3601000 THEN
        RAISE EXCEPTION 'invalid lease % ms, skew % ms, base % ms or ahead % ms', lease_ms, skew_ms, base_ms, ahead_ms
            USING ERRCODE = '22023';
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
            @extschema@.uniqueid_ms_to_timestamptz(base_ms + ahead_ms), '-infinity')
        ON CONFLICT ON CONSTRAINT uniqueid_node_claims_pkey DO UPDATE SET
            holder_system_identifier = excluded.holder_system_identifier,
            holder_name = excluded.holder_name,
            token = excluded.token,
            claimed_at = excluded.claimed_at,
            renewed_at = excluded.renewed_at,
            lease_until = excluded.lease_until,
            skew_ms = excluded.skew_ms,
            horizon = greatest(c.horizon, @extschema@.uniqueid_ms_to_timestamptz(base_ms))
                      + ahead_ms * interval '1 millisecond',
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

-- uniqueid_renew_node(number, token, lease_ms, skew_ms, base_ms, ahead_ms):
-- renews the holder's lease (whether or not it ran out, as long as nobody
-- claimed the number since; never to end sooner than it did, as the holder
-- counts on the longest lease it was given) and raises the horizon to
-- base_ms plus ahead_ms, within the claim's bounds.  No row when the
-- number is no longer the token's.
CREATE FUNCTION uniqueid_renew_node(
    number integer, token bigint, lease_ms integer, skew_ms integer, base_ms bigint, ahead_ms integer,
    OUT horizon_ms bigint, OUT lease_until_ms bigint)
RETURNS SETOF record
LANGUAGE sql VOLATILE STRICT SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    UPDATE @extschema@.uniqueid_node_claims c SET
        renewed_at = clock_timestamp(),
        lease_until = greatest(c.lease_until, clock_timestamp() + uniqueid_renew_node.lease_ms * interval '1 millisecond'),
        skew_ms = greatest(c.skew_ms, uniqueid_renew_node.skew_ms),
        horizon = greatest(c.horizon, @extschema@.uniqueid_ms_to_timestamptz(uniqueid_renew_node.base_ms + uniqueid_renew_node.ahead_ms))
    WHERE c.number = uniqueid_renew_node.number AND c.token = uniqueid_renew_node.token
      AND uniqueid_renew_node.lease_ms BETWEEN 1000 AND 3600000 AND uniqueid_renew_node.skew_ms >= 0
      AND uniqueid_renew_node.base_ms BETWEEN 0 AND @extschema@.uniqueid_timestamptz_to_ms(clock_timestamp()) + 86400000
      AND uniqueid_renew_node.ahead_ms BETWEEN uniqueid_renew_node.lease_ms AND uniqueid_renew_node.lease_ms + 3601000
    RETURNING @extschema@.uniqueid_timestamptz_to_ms(c.horizon), @extschema@.uniqueid_timestamptz_to_ms(c.lease_until);
END;

-- uniqueid_release_node(number, token, horizon_ms): gives a number back at
-- its holder's clean shutdown: the lease ends now, and the horizon comes
-- down to horizon_ms, the holder's durable horizon, which lies above every
-- ID it made under the number and above the previous holder's horizon (it
-- never goes below that, nor up).  False when the number is not the token's.
CREATE FUNCTION uniqueid_release_node(number integer, token bigint, horizon_ms bigint)
RETURNS boolean
LANGUAGE sql VOLATILE STRICT SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    WITH r AS (
        UPDATE @extschema@.uniqueid_node_claims c SET
            lease_until = '-infinity',
            horizon = greatest(c.previous_horizon,
                               least(c.horizon, @extschema@.uniqueid_ms_to_timestamptz(uniqueid_release_node.horizon_ms)))
        WHERE c.number = uniqueid_release_node.number AND c.token = uniqueid_release_node.token
        RETURNING 1)
    SELECT count(*) = 1 FROM r;
END;

REVOKE EXECUTE ON FUNCTION uniqueid_claim_node(integer, integer, numeric, text, bigint, integer, integer, bigint, integer),
    uniqueid_renew_node(integer, bigint, integer, integer, bigint, integer),
    uniqueid_release_node(integer, bigint, bigint) FROM PUBLIC;

-- uniqueid_node(): the node number of this server's IDs: uniqueid.node, or
-- the number leased from uniqueid.node_registry (NULL while none is held).
CREATE FUNCTION uniqueid_node() RETURNS integer
AS 'MODULE_PATHNAME', 'uniqueid_node' LANGUAGE C VOLATILE PARALLEL SAFE;

-- uniqueid_node_status(): the lease as this server sees it: the registry,
-- the number held, how long node-bearing IDs may still be made without a
-- renewal (lease_left), the lease's end on the registry's clock, the
-- horizon recorded, when the number was claimed and last renewed, how long
-- the claim took after the worker started, and the worker's last failure.
-- With no registry, only node (uniqueid.node).
CREATE FUNCTION uniqueid_node_status(
    OUT registry text, OUT node integer, OUT lease_left interval, OUT lease_until timestamptz,
    OUT horizon timestamptz, OUT claimed_at timestamptz, OUT renewed_at timestamptz,
    OUT claim_ms bigint, OUT last_error text, OUT last_error_at timestamptz)
RETURNS record
AS 'MODULE_PATHNAME', 'uniqueid_node_status' LANGUAGE C VOLATILE;
REVOKE EXECUTE ON FUNCTION uniqueid_node_status() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION uniqueid_node_status() TO pg_read_all_stats;

-- The group check and the Citus check know leased numbers: a server's node
-- is the number its IDs carry now, uniqueid.node or the number leased
-- (NULL while it holds none), and `leased` says which.  Two servers with
-- the same number are named as before; with a leased number among them, the
-- message says "node number" and which of them leased it.

-- uniqueid_remote_settings(conninfo), with the column leased
DROP FUNCTION uniqueid_remote_settings(text);
CREATE FUNCTION uniqueid_remote_settings(
    conninfo text,
    OUT server text, OUT node integer, OUT cluster integer, OUT shards text,
    OUT started timestamptz, OUT port integer, OUT clock timestamptz,
    OUT clock_offset interval, OUT round_trip interval, OUT system_identifier bigint,
    OUT leased boolean)
RETURNS record
AS 'MODULE_PATHNAME', 'uniqueid_remote_settings' LANGUAGE C VOLATILE STRICT;
REVOKE EXECUTE ON FUNCTION uniqueid_remote_settings(text) FROM PUBLIC;

ALTER TYPE uniqueid_group_server ADD ATTRIBUTE leased boolean;

CREATE OR REPLACE FUNCTION uniqueid_settings_conflicts(settings jsonb, kind text) RETURNS text[]
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $function$
    WITH s AS (
        SELECT x.name, x.node, x.shards, coalesce(x.leased, false) AS leased
        FROM jsonb_to_recordset(settings) AS x(name text, node int, shards text, leased boolean)),
    owned AS (
        SELECT s.name, o AS shard FROM s, @extschema@.uniqueid_owned_shards(s.shards) AS o)
    SELECT array_agg(p ORDER BY p) FROM (
        SELECT CASE WHEN bool_or(s.leased)
                    THEN format('node number %s is used by %s', s.node,
                                string_agg(s.name || CASE WHEN s.leased THEN ' (leased)' ELSE ' (uniqueid.node)' END,
                                           ' and ' ORDER BY s.name))
                    ELSE format('uniqueid.node %s is set on %s', s.node, string_agg(s.name, ' and ' ORDER BY s.name))
               END AS p
        FROM s WHERE s.node IS NOT NULL GROUP BY s.node HAVING count(*) > 1
        UNION ALL
        SELECT format('%s%s and %s both own %s of the same shards (%s to %s) in uniqueid.shards',
                      kind || 's ', a.name, b.name, count(*), min(a.shard), max(a.shard))
        FROM owned a JOIN owned b ON a.shard = b.shard AND a.name < b.name
        GROUP BY a.name, b.name
        UNION ALL
        SELECT format('shard %s is %s%s''s own (next_id() there, %s %s) and in the uniqueid.shards of %s%s',
                      s.node, kind || ' ', s.name, CASE WHEN s.leased THEN 'node number' ELSE 'uniqueid.node' END,
                      s.node, kind || ' ', o.name)
        FROM s JOIN owned o ON o.shard = s.node AND o.name <> s.name
    ) q
$function$;

CREATE OR REPLACE FUNCTION uniqueid_group_settings() RETURNS SETOF uniqueid_group_server
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
    g @extschema@.uniqueid_group_server;
    seen text[];
    unread text[] := '{}';
    sub record;
    r record;
    detail text;
BEGIN
    IF NOT EXISTS (SELECT FROM pg_settings WHERE name = 'uniqueid.node') THEN
        RAISE EXCEPTION 'this server does not have uniqueid loaded'
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'Every server of the group needs uniqueid in shared_preload_libraries.';
    END IF;
    g := ('this server', NULL, @extschema@.uniqueid_node(), current_setting('uniqueid.cluster')::int,
          current_setting('uniqueid.shards'), interval '0', interval '0',
          current_setting('uniqueid.node_leased') <> '');
    -- a server reached twice (or this one, through a subscription) once
    seen := ARRAY[concat_ws(' ', (SELECT system_identifier FROM pg_control_system()),
                            pg_postmaster_start_time(), current_setting('port'))];
    RETURN NEXT g;
    FOR sub IN
        SELECT s.subname, s.subconninfo FROM pg_subscription s
        WHERE s.subdbid = (SELECT oid FROM pg_database WHERE datname = current_database())
        ORDER BY s.subname
    LOOP
        BEGIN
            r := @extschema@.uniqueid_remote_settings(sub.subconninfo);
        EXCEPTION WHEN OTHERS THEN
            GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
            unread := unread || format('subscription %s: %s', sub.subname, SQLERRM)
                             || coalesce(' (' || nullif(detail, '') || ')', '');
            CONTINUE;
        END;
        CONTINUE WHEN concat_ws(' ', r.system_identifier, r.started, r.port) = ANY (seen);
        seen := seen || concat_ws(' ', r.system_identifier, r.started, r.port);
        g := (format('%s (subscription %s)', r.server, sub.subname), sub.subname,
              r.node, r.cluster, r.shards, r.clock_offset, r.round_trip, r.leased);
        RETURN NEXT g;
    END LOOP;
    IF cardinality(unread) > 0 THEN
        RAISE EXCEPTION 'cannot read the uniqueid settings of every server of the group'
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  DETAIL = array_to_string(unread, E'\n'),
                  HINT = 'Every server of the group must be up, reachable with its subscription''s connection string, and have uniqueid in shared_preload_libraries.';
    END IF;
END
$function$;

-- uniqueid_node_settings() (Citus), with the column leased
DROP FUNCTION uniqueid_node_settings();
CREATE FUNCTION uniqueid_node_settings(
    OUT nodename text, OUT nodeport integer, OUT node integer,
    OUT cluster integer, OUT shards text, OUT leased boolean)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
    unread text[] := '{}';
    r record;
    lease text;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
        RAISE EXCEPTION 'uniqueid_node_settings() needs the citus extension in this database'
            USING ERRCODE = 'feature_not_supported',
                  HINT = 'Run it on the coordinator of a Citus cluster.';
    END IF;
    FOR r IN
        SELECT coalesce(n.nodename, current_setting('citus.local_hostname')) AS host,
               coalesce(n.nodeport, current_setting('port')::int) AS port, x.success, x.result
        FROM run_command_on_all_nodes(
            $$SELECT current_setting('uniqueid.node') || '|' || current_setting('uniqueid.cluster')
                     || '|' || current_setting('uniqueid.shards')
                     || '|' || coalesce(current_setting('uniqueid.node_leased', true), '')$$) x
        LEFT JOIN pg_dist_node n ON n.nodeid = x.nodeid
        ORDER BY 1, 2
    LOOP
        IF NOT r.success THEN
            unread := unread || format('node %s:%s: %s', r.host, r.port, r.result);
            CONTINUE;
        END IF;
        nodename := r.host;
        nodeport := r.port;
        lease := split_part(r.result, '|', 4);
        leased := lease <> '';
        node := CASE WHEN lease = '' THEN split_part(r.result, '|', 1)::int
                     WHEN lease <> 'none' THEN lease::int END;
        cluster := split_part(r.result, '|', 2)::int;
        shards := split_part(r.result, '|', 3);
        RETURN NEXT;
    END LOOP;
    IF cardinality(unread) > 0 THEN
        RAISE EXCEPTION 'cannot read the uniqueid settings of every node'
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  DETAIL = array_to_string(unread, E'\n'),
                  HINT = 'Every node needs uniqueid in shared_preload_libraries.';
    END IF;
END
$function$;

-- uniqueid_check_nodes() (Citus), with the column leased
DROP FUNCTION uniqueid_check_nodes();
CREATE FUNCTION uniqueid_check_nodes(
    OUT nodename text, OUT nodeport integer, OUT node integer,
    OUT cluster integer, OUT shards text, OUT leased boolean)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
    settings jsonb;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
        RAISE EXCEPTION 'uniqueid_check_nodes() needs the citus extension in this database'
            USING ERRCODE = 'feature_not_supported',
                  HINT = 'Run it on the coordinator of a Citus cluster.';
    END IF;
    -- read once: what is checked is what is returned
    SELECT jsonb_agg(to_jsonb(x) || jsonb_build_object('name', x.nodename || ':' || x.nodeport))
        INTO settings FROM @extschema@.uniqueid_node_settings() x;
    PERFORM @extschema@.uniqueid_raise_conflicts(@extschema@.uniqueid_settings_conflicts(settings, 'node'),
        'Give every node its own node number (uniqueid.node, or a range of its own to lease), and each logical shard to at most one node''s uniqueid.shards.');
    RETURN QUERY SELECT x.nodename, x.nodeport, x.node, x.cluster, x.shards, x.leased
        FROM jsonb_to_recordset(settings) AS x(nodename text, nodeport int, node int, cluster int, shards text, leased boolean)
        ORDER BY x.node;
END
$function$;
