-- uniqueid 1.0 -> 1.1: defaults that work on every server of a cluster
\echo Use "ALTER EXTENSION uniqueid UPDATE TO '1.1'" to load this file. \quit

-- next_id(): the next shardid of this server's own logical shard, the one
-- numbered uniqueid.node.  A column default that is right wherever it is
-- evaluated (on Citus: on the node a row enters through), as long as every
-- server has its own uniqueid.node.
CREATE FUNCTION next_id() RETURNS @extschema@.shardid
    AS 'MODULE_PATHNAME', 'next_id_own' LANGUAGE C VOLATILE PARALLEL SAFE;

-- shard_release(shard): this server stops generating a logical shard (until
-- it restarts or adopts it again) and returns the greatest ID it gave it, for
-- shard_adopt() on the server that takes it over.
CREATE FUNCTION shard_release(shard integer) RETURNS @extschema@.shardid
    AS 'MODULE_PATHNAME', 'shard_release' LANGUAGE C VOLATILE STRICT;
REVOKE EXECUTE ON FUNCTION shard_release(integer) FROM PUBLIC;

-- uniqueid_owned_shards(setting): the shard numbers a uniqueid.shards value
-- names ('all', '', or numbers and ranges such as '0-1023,4096').
CREATE FUNCTION uniqueid_owned_shards(setting text) RETURNS SETOF integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
    SELECT g
    FROM regexp_split_to_table(CASE WHEN lower(btrim(setting)) = 'all' THEN '0-8191' ELSE setting END, ',') AS part,
         LATERAL (SELECT btrim(split_part(part, '-', 1)) AS lo, btrim(split_part(part, '-', 2)) AS hi) b,
         LATERAL generate_series(b.lo::int, coalesce(nullif(b.hi, ''), b.lo)::int) AS g
    WHERE btrim(part) <> ''
$function$;

-- uniqueid_shards_setting(shards): the uniqueid.shards value that names
-- exactly these shards, runs written as ranges ('0-3,10'); the inverse of
-- uniqueid_owned_shards.
CREATE FUNCTION uniqueid_shards_setting(shards integer[]) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
    SELECT coalesce(string_agg(CASE WHEN lo = hi THEN lo::text ELSE lo || '-' || hi END, ',' ORDER BY lo), '')
    FROM (SELECT min(s) AS lo, max(s) AS hi
          FROM (SELECT s, s - row_number() OVER (ORDER BY s) AS run
                FROM (SELECT DISTINCT s FROM unnest(shards) AS s WHERE s IS NOT NULL) d) i
          GROUP BY run) r
$function$;

-- uniqueid_node_settings(): on a Citus coordinator, the uniqueid settings of
-- every node, read over Citus's own connections; 55000 naming the nodes
-- that cannot be read.
CREATE FUNCTION uniqueid_node_settings(
    OUT nodename text, OUT nodeport integer, OUT node integer,
    OUT cluster integer, OUT shards text)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
    unread text[] := '{}';
    r record;
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
                     || '|' || current_setting('uniqueid.shards')$$) x
        LEFT JOIN pg_dist_node n ON n.nodeid = x.nodeid
        ORDER BY 1, 2
    LOOP
        IF NOT r.success THEN
            unread := unread || format('node %s:%s: %s', r.host, r.port, r.result);
            CONTINUE;
        END IF;
        nodename := r.host;
        nodeport := r.port;
        node := split_part(r.result, '|', 1)::int;
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

-- uniqueid_check_nodes(): on a Citus coordinator, reads the uniqueid
-- settings of every node and raises 22023, naming the nodes, when two nodes
-- could make the same IDs: the same uniqueid.node, overlapping
-- uniqueid.shards, or a node's own shard (next_id(), numbered uniqueid.node)
-- in another node's uniqueid.shards.  Otherwise returns every node's settings.
CREATE FUNCTION uniqueid_check_nodes(
    OUT nodename text, OUT nodeport integer, OUT node integer,
    OUT cluster integer, OUT shards text)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
    settings jsonb;
    problems text[];
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
        RAISE EXCEPTION 'uniqueid_check_nodes() needs the citus extension in this database'
            USING ERRCODE = 'feature_not_supported',
                  HINT = 'Run it on the coordinator of a Citus cluster.';
    END IF;
    -- read once: what is checked is what is returned
    SELECT jsonb_agg(to_jsonb(x)) INTO settings FROM @extschema@.uniqueid_node_settings() x;

    WITH s AS (
        SELECT x.nodename || ':' || x.nodeport AS name, x.*
        FROM jsonb_to_recordset(settings) AS x(nodename text, nodeport int, node int, cluster int, shards text)),
    owned AS (
        SELECT s.name, o AS shard FROM s, @extschema@.uniqueid_owned_shards(s.shards) AS o)
    SELECT array_agg(p ORDER BY p) INTO problems FROM (
        SELECT format('uniqueid.node %s is set on %s', s.node, string_agg(s.name, ' and ' ORDER BY s.name)) AS p
        FROM s GROUP BY s.node HAVING count(*) > 1
        UNION ALL
        SELECT format('nodes %s and %s both own %s of the same shards (%s to %s) in uniqueid.shards',
                      a.name, b.name, count(*), min(a.shard), max(a.shard))
        FROM owned a JOIN owned b ON a.shard = b.shard AND a.name < b.name
        GROUP BY a.name, b.name
        UNION ALL
        SELECT format('shard %s is node %s''s own (next_id() there, uniqueid.node %s) and in the uniqueid.shards of node %s',
                      s.node, s.name, s.node, o.name)
        FROM s JOIN owned o ON o.shard = s.node AND o.name <> s.name
    ) q;
    IF cardinality(problems) = 1 THEN
        RAISE EXCEPTION '%', problems[1]
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Give every node its own uniqueid.node, and each logical shard to at most one node''s uniqueid.shards.';
    ELSIF cardinality(problems) > 1 THEN
        RAISE EXCEPTION '%', problems[1]
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'All conflicts: ' || array_to_string(problems, E';\n') || '.',
                  HINT = 'Give every node its own uniqueid.node, and each logical shard to at most one node''s uniqueid.shards.';
    END IF;
    RETURN QUERY SELECT x.nodename, x.nodeport, x.node, x.cluster, x.shards
        FROM jsonb_to_recordset(settings) AS x(nodename text, nodeport int, node int, cluster int, shards text)
        ORDER BY x.node;
END
$function$;

-- uniqueid_move_shard(shard, target_nodename, target_nodeport): on a Citus
-- coordinator, hands the generation of logical shard `shard` (next_id(shard))
-- from the node whose uniqueid.shards has it to the target node, in the
-- order that keeps IDs unique and increasing: the source loses the shard
-- from its uniqueid.shards and stops (shard_release), then the target
-- continues above the source's last ID (shard_adopt) and gains it.  Between
-- the two, next_id(shard) fails on both nodes.  Returns the last ID.
CREATE FUNCTION uniqueid_move_shard(shard integer, target_nodename text, target_nodeport integer)
RETURNS @extschema@.shardid
LANGUAGE plpgsql VOLATILE STRICT
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
    r record;
    src record;
    tgt record;
    owners int := 0;
    last text;
    res record;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
        RAISE EXCEPTION 'uniqueid_move_shard() needs the citus extension in this database'
            USING ERRCODE = 'feature_not_supported',
                  HINT = 'On servers without Citus, call shard_release() and shard_adopt() yourself.';
    END IF;
    IF shard < 0 OR shard > 8191 THEN
        RAISE EXCEPTION 'shard % is out of range for type shardid', shard
            USING ERRCODE = 'numeric_value_out_of_range', DETAIL = 'Valid values of shard are 0 to 8191.';
    END IF;
    FOR r IN SELECT * FROM @extschema@.uniqueid_node_settings() LOOP
        IF shard IN (SELECT @extschema@.uniqueid_owned_shards(r.shards)) THEN
            src := r;
            owners := owners + 1;
        END IF;
        IF r.nodename = target_nodename AND r.nodeport = target_nodeport THEN
            tgt := r;
        END IF;
    END LOOP;
    IF tgt IS NULL THEN
        RAISE EXCEPTION 'node %:% is not a node of this cluster', target_nodename, target_nodeport
            USING ERRCODE = 'invalid_parameter_value', HINT = 'The nodes are listed in pg_dist_node.';
    ELSIF owners = 0 THEN
        RAISE EXCEPTION 'no node has shard % in its uniqueid.shards', shard
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Give the shard to one node with ALTER SYSTEM SET uniqueid.shards there, instead of moving it.';
    ELSIF owners > 1 THEN
        RAISE EXCEPTION 'shard % is in the uniqueid.shards of more than one node', shard
            USING ERRCODE = 'invalid_parameter_value', HINT = 'uniqueid_check_nodes() lists the conflicts.';
    ELSIF src.nodename = tgt.nodename AND src.nodeport = tgt.nodeport THEN
        RAISE EXCEPTION 'shard % is already generated on node %:%', shard, tgt.nodename, tgt.nodeport
            USING ERRCODE = 'invalid_parameter_value';
    END IF;

    -- the source: out of its settings (for good), then stopped (at once)
    FOR res IN SELECT * FROM master_run_on_worker(
        ARRAY[src.nodename, src.nodename, src.nodename], ARRAY[src.nodeport, src.nodeport, src.nodeport],
        ARRAY[format('ALTER SYSTEM SET uniqueid.shards = %L', @extschema@.uniqueid_shards_setting(
                         array_remove(ARRAY(SELECT @extschema@.uniqueid_owned_shards(src.shards)), shard))),
              'SELECT pg_reload_conf()',
              format('SELECT @extschema@.shard_release(%s)', shard)], false)
    LOOP
        IF NOT res.success THEN
            RAISE EXCEPTION 'could not release shard % on node %:%', shard, src.nodename, src.nodeport
                USING ERRCODE = 'object_not_in_prerequisite_state', DETAIL = res.result;
        END IF;
        last := res.result;
    END LOOP;

    -- the target: above the last ID, then the shard in its settings
    FOR res IN SELECT * FROM master_run_on_worker(
        ARRAY[tgt.nodename, tgt.nodename, tgt.nodename], ARRAY[tgt.nodeport, tgt.nodeport, tgt.nodeport],
        ARRAY[CASE WHEN coalesce(last, '') = '' THEN 'SELECT 1'
                   ELSE format('SELECT @extschema@.shard_adopt(%s, %L)', shard, last) END,
              format('ALTER SYSTEM SET uniqueid.shards = %L', @extschema@.uniqueid_shards_setting(
                         ARRAY(SELECT @extschema@.uniqueid_owned_shards(tgt.shards)) || shard)),
              'SELECT pg_reload_conf()'], false)
    LOOP
        IF NOT res.success THEN
            RAISE EXCEPTION 'shard % is released on node %:% but could not be adopted by node %:%',
                    shard, src.nodename, src.nodeport, tgt.nodename, tgt.nodeport
                USING ERRCODE = 'object_not_in_prerequisite_state',
                      DETAIL = res.result,
                      HINT = format('No node generates it now. Once the problem is fixed, run shard_adopt(%s, %L) on the target and add the shard to its uniqueid.shards.', shard, last);
        END IF;
    END LOOP;
    RETURN nullif(last, '')::@extschema@.shardid;
END
$function$;
