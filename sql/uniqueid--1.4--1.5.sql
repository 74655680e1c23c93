-- uniqueid 1.4 -> 1.5: checking the identities of a group of servers that
-- replicate to each other, every one writable (active-active under logical
-- replication, doc/active-active.md).

\echo Use "ALTER EXTENSION uniqueid UPDATE TO '1.5'" to load this file. \quit

-- uniqueid_remote_settings(conninfo): the uniqueid settings of the server a
-- libpq connection string reaches (55000 where uniqueid is not loaded),
-- its postmaster's start, port and system identifier (which tell servers
-- apart), its clock, the clock's offset from this server's and the round
-- trip (the offset is right to within half of it).  Every wait ends within
-- 10 s.  Connects as this server does, so it is for superusers, or for
-- roles granted it whose connection strings give a password.
CREATE FUNCTION uniqueid_remote_settings(
    conninfo text,
    OUT server text, OUT node integer, OUT cluster integer, OUT shards text,
    OUT started timestamptz, OUT port integer, OUT clock timestamptz,
    OUT clock_offset interval, OUT round_trip interval, OUT system_identifier bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'uniqueid_remote_settings' LANGUAGE C VOLATILE STRICT;
REVOKE EXECUTE ON FUNCTION uniqueid_remote_settings(text) FROM PUBLIC;

-- uniqueid_settings_conflicts(settings, kind): what makes two servers of a
-- set able to make the same IDs, one sentence each, sorted; settings is a
-- JSON array of objects {name, node, shards}, and kind the noun that goes
-- before a name in the sentences ('node' on Citus; NULL for none).  The same
-- uniqueid.node, overlapping uniqueid.shards, or a server's own shard
-- (next_id(), numbered uniqueid.node) in another's uniqueid.shards.  Shared
-- by uniqueid_check_nodes() (Citus) and uniqueid_check_group().
CREATE FUNCTION uniqueid_settings_conflicts(settings jsonb, kind text) RETURNS text[]
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $function$
    WITH s AS (
        SELECT * FROM jsonb_to_recordset(settings) AS x(name text, node int, shards text)),
    owned AS (
        SELECT s.name, o AS shard FROM s, @extschema@.uniqueid_owned_shards(s.shards) AS o)
    SELECT array_agg(p ORDER BY p) FROM (
        SELECT format('uniqueid.node %s is set on %s', s.node, string_agg(s.name, ' and ' ORDER BY s.name)) AS p
        FROM s GROUP BY s.node HAVING count(*) > 1
        UNION ALL
        SELECT format('%s%s and %s both own %s of the same shards (%s to %s) in uniqueid.shards',
                      kind || 's ', a.name, b.name, count(*), min(a.shard), max(a.shard))
        FROM owned a JOIN owned b ON a.shard = b.shard AND a.name < b.name
        GROUP BY a.name, b.name
        UNION ALL
        SELECT format('shard %s is %s%s''s own (next_id() there, uniqueid.node %s) and in the uniqueid.shards of %s%s',
                      s.node, kind || ' ', s.name, s.node, kind || ' ', o.name)
        FROM s JOIN owned o ON o.shard = s.node AND o.name <> s.name
    ) q
$function$;

-- uniqueid_raise_conflicts(problems, hint): raises 22023 with the first
-- problem as the message and all of them as the detail when there are more.
CREATE FUNCTION uniqueid_raise_conflicts(problems text[], hint text) RETURNS void
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $function$
BEGIN
    IF cardinality(problems) = 1 THEN
        RAISE EXCEPTION '%', problems[1] USING ERRCODE = 'invalid_parameter_value', HINT = hint;
    ELSIF cardinality(problems) > 1 THEN
        RAISE EXCEPTION '%', problems[1]
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'All conflicts: ' || array_to_string(problems, E';\n') || '.',
                  HINT = hint;
    END IF;
END
$function$;

-- uniqueid_check_nodes(), as in 1.1, through the shared check (its messages
-- name the nodes "host:port" as before).
CREATE OR REPLACE FUNCTION uniqueid_check_nodes(
    OUT nodename text, OUT nodeport integer, OUT node integer,
    OUT cluster integer, OUT shards text)
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
        'Give every node its own uniqueid.node, and each logical shard to at most one node''s uniqueid.shards.');
    RETURN QUERY SELECT x.nodename, x.nodeport, x.node, x.cluster, x.shards
        FROM jsonb_to_recordset(settings) AS x(nodename text, nodeport int, node int, cluster int, shards text)
        ORDER BY x.node;
END
$function$;

-- A server of a group, as uniqueid_group_settings() and
-- uniqueid_check_group() list it.
CREATE TYPE uniqueid_group_server AS (
    name text, subscription name, node integer, cluster integer,
    shards text, clock_offset interval, round_trip interval);

-- uniqueid_group_settings(): the uniqueid settings of this server and of
-- the publisher of every subscription of this database, read over the
-- subscriptions' own connection strings; a server reached twice is listed
-- once.  55000 names the servers that cannot be read.  For superusers (the
-- connection strings of subscriptions are theirs to read).
CREATE FUNCTION uniqueid_group_settings() RETURNS SETOF uniqueid_group_server
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
    g := ('this server', NULL, current_setting('uniqueid.node')::int, current_setting('uniqueid.cluster')::int,
          current_setting('uniqueid.shards'), interval '0', interval '0');
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
              r.node, r.cluster, r.shards, r.clock_offset, r.round_trip);
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
REVOKE EXECUTE ON FUNCTION uniqueid_group_settings() FROM PUBLIC;

-- uniqueid_check_group(): uniqueid_group_settings(), after checking that no
-- two of the servers can make the same IDs (22023 names them, as
-- uniqueid_check_nodes() does on Citus).  Run it on each server of a group
-- that replicates to each other (in a full mesh, on one of them reads
-- every server): a repeated uniqueid.node would otherwise show only as a
-- replication conflict, or not at all.
CREATE FUNCTION uniqueid_check_group() RETURNS SETOF uniqueid_group_server
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
    -- read once: what is checked is what is returned
    servers @extschema@.uniqueid_group_server[] :=
        ARRAY(SELECT g FROM @extschema@.uniqueid_group_settings() g ORDER BY g.subscription NULLS FIRST);
BEGIN
    PERFORM @extschema@.uniqueid_raise_conflicts(
        @extschema@.uniqueid_settings_conflicts((SELECT jsonb_agg(to_jsonb(x)) FROM unnest(servers) x), NULL),
        'Give every server of the group its own uniqueid.node, and each logical shard to at most one server''s uniqueid.shards (uniqueid.shards = '''' on servers that use next_id() alone).');
    RETURN QUERY SELECT * FROM unnest(servers);
END
$function$;
REVOKE EXECUTE ON FUNCTION uniqueid_check_group() FROM PUBLIC;
