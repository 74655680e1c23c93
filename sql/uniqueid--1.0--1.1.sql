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

---------------------------------------------------------------------------
-- ulid (the ULID spec): 16 bytes, Unix ms 48 . random 80;
-- text: 26 characters of Crockford's base 32
-- (generated by tools/gen_sql.py)
---------------------------------------------------------------------------

CREATE TYPE ulid;

CREATE FUNCTION ulid_in(cstring) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_out(ulid) RETURNS cstring
    AS 'MODULE_PATHNAME', 'ulid_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_recv(internal) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_send(ulid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'ulid_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE ulid (
    INPUT = ulid_in,
    OUTPUT = ulid_out,
    RECEIVE = ulid_recv,
    SEND = ulid_send,
    INTERNALLENGTH = 16,
    ALIGNMENT = char,
    STORAGE = plain
);
COMMENT ON TYPE ulid IS 'ULID: 48-bit Unix ms time, 80 random bits (a 16-bit counter first when generated); Crockford base-32 text';

CREATE FUNCTION ulid_eq(ulid, ulid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'ulid_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_ne(ulid, ulid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'ulid_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_lt(ulid, ulid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'ulid_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_le(ulid, ulid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'ulid_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_gt(ulid, ulid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'ulid_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_ge(ulid, ulid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'ulid_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_cmp(ulid, ulid) RETURNS integer
    AS 'MODULE_PATHNAME', 'ulid_cmp_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_sortsupport(internal) RETURNS void
    AS 'MODULE_PATHNAME', 'ulid_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_hash(ulid) RETURNS integer
    AS 'MODULE_PATHNAME', 'ulid_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_hash_extended(ulid, bigint) RETURNS bigint
    AS 'MODULE_PATHNAME', 'ulid_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR = (LEFTARG = ulid, RIGHTARG = ulid, PROCEDURE = ulid_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (LEFTARG = ulid, RIGHTARG = ulid, PROCEDURE = ulid_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = ulid, RIGHTARG = ulid, PROCEDURE = ulid_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = ulid, RIGHTARG = ulid, PROCEDURE = ulid_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = ulid, RIGHTARG = ulid, PROCEDURE = ulid_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = ulid, RIGHTARG = ulid, PROCEDURE = ulid_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);

-- comparison with timestamptz: id OP t compares id with the smallest ulid
-- whose time is at or after t
CREATE FUNCTION ulid_eq_tstz(ulid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'ulid_eq_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_ne_tstz(ulid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'ulid_ne_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_lt_tstz(ulid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'ulid_lt_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_le_tstz(ulid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'ulid_le_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_gt_tstz(ulid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'ulid_gt_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_ge_tstz(ulid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'ulid_ge_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_cmp_tstz(ulid, timestamptz) RETURNS integer
    AS 'MODULE_PATHNAME', 'ulid_cmp_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_eq_ulid(timestamptz, ulid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_eq_ulid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_ne_ulid(timestamptz, ulid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_ne_ulid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_lt_ulid(timestamptz, ulid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_lt_ulid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_le_ulid(timestamptz, ulid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_le_ulid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_gt_ulid(timestamptz, ulid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_gt_ulid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_ge_ulid(timestamptz, ulid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_ge_ulid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_cmp_ulid(timestamptz, ulid) RETURNS integer
    AS 'MODULE_PATHNAME', 'tstz_cmp_ulid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_cmp_as_ulid(timestamptz, timestamptz) RETURNS integer
    AS 'MODULE_PATHNAME', 'tstz_cmp_as_ulid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR = (LEFTARG = ulid, RIGHTARG = timestamptz, PROCEDURE = ulid_eq_tstz,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel);
CREATE OPERATOR <> (LEFTARG = ulid, RIGHTARG = timestamptz, PROCEDURE = ulid_ne_tstz,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = ulid, RIGHTARG = timestamptz, PROCEDURE = ulid_lt_tstz,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = ulid, RIGHTARG = timestamptz, PROCEDURE = ulid_le_tstz,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = ulid, RIGHTARG = timestamptz, PROCEDURE = ulid_gt_tstz,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = ulid, RIGHTARG = timestamptz, PROCEDURE = ulid_ge_tstz,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE OPERATOR = (LEFTARG = timestamptz, RIGHTARG = ulid, PROCEDURE = tstz_eq_ulid,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel);
CREATE OPERATOR <> (LEFTARG = timestamptz, RIGHTARG = ulid, PROCEDURE = tstz_ne_ulid,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = timestamptz, RIGHTARG = ulid, PROCEDURE = tstz_lt_ulid,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = timestamptz, RIGHTARG = ulid, PROCEDURE = tstz_le_ulid,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = timestamptz, RIGHTARG = ulid, PROCEDURE = tstz_gt_ulid,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = timestamptz, RIGHTARG = ulid, PROCEDURE = tstz_ge_ulid,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);

-- min() and max(), answered from a btree index when there is one
CREATE FUNCTION ulid_smaller(ulid, ulid) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_smaller' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_larger(ulid, ulid) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_larger' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE AGGREGATE min(ulid) (SFUNC = ulid_smaller, STYPE = ulid, COMBINEFUNC = ulid_smaller,
    SORTOP = <, PARALLEL = SAFE);
CREATE AGGREGATE max(ulid) (SFUNC = ulid_larger, STYPE = ulid, COMBINEFUNC = ulid_larger,
    SORTOP = >, PARALLEL = SAFE);

CREATE OPERATOR CLASS ulid_ops DEFAULT FOR TYPE ulid USING btree AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 ulid_cmp(ulid, ulid),
    FUNCTION 2 ulid_sortsupport(internal),
    FUNCTION 4 pg_catalog.btequalimage(oid);

-- the timestamptz members, as for the 8-byte families (a range of times is
-- an index range scan on the ID)
ALTER OPERATOR FAMILY ulid_ops USING btree ADD
    OPERATOR 1 < (ulid, timestamptz), OPERATOR 2 <= (ulid, timestamptz),
    OPERATOR 3 = (ulid, timestamptz), OPERATOR 4 >= (ulid, timestamptz),
    OPERATOR 5 > (ulid, timestamptz),
    FUNCTION 1 ulid_cmp_tstz(ulid, timestamptz),
    OPERATOR 1 < (timestamptz, ulid), OPERATOR 2 <= (timestamptz, ulid),
    OPERATOR 3 = (timestamptz, ulid), OPERATOR 4 >= (timestamptz, ulid),
    OPERATOR 5 > (timestamptz, ulid),
    FUNCTION 1 tstz_cmp_ulid(timestamptz, ulid),
    FUNCTION 1 (timestamptz, timestamptz) tstz_cmp_as_ulid(timestamptz, timestamptz);

CREATE OPERATOR CLASS ulid_ops DEFAULT FOR TYPE ulid USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 ulid_hash(ulid),
    FUNCTION 2 ulid_hash_extended(ulid, bigint);

CREATE OPERATOR CLASS ulid_minmax_ops DEFAULT FOR TYPE ulid USING brin AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 pg_catalog.brin_minmax_opcinfo(internal),
    FUNCTION 2 pg_catalog.brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 pg_catalog.brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 pg_catalog.brin_minmax_union(internal, internal, internal);

ALTER OPERATOR FAMILY ulid_minmax_ops USING brin ADD
    OPERATOR 1 < (ulid, timestamptz), OPERATOR 2 <= (ulid, timestamptz),
    OPERATOR 3 = (ulid, timestamptz), OPERATOR 4 >= (ulid, timestamptz),
    OPERATOR 5 > (ulid, timestamptz);

-- time and fields
CREATE FUNCTION id_time(ulid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'ulid_time' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_random(ulid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'ulid_random' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION make_ulid("time" timestamptz, random bytea) RETURNS ulid
    AS 'MODULE_PATHNAME', 'make_ulid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- casts, all explicit (implicit ones would make operators ambiguous)
CREATE FUNCTION ulid(bytea) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bytea(ulid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'ulid_to_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (bytea AS ulid) WITH FUNCTION ulid(bytea);
CREATE CAST (ulid AS bytea) WITH FUNCTION bytea(ulid);
CREATE FUNCTION ulid(uuid) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_from_uuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid(ulid) RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_to_uuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (uuid AS ulid) WITH FUNCTION ulid(uuid);
CREATE CAST (ulid AS uuid) WITH FUNCTION uuid(ulid);
CREATE CAST (ulid AS timestamptz) WITH FUNCTION id_time(ulid);

-- the generator
CREATE FUNCTION next_ulid() RETURNS ulid
    AS 'MODULE_PATHNAME', 'next_ulid' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

---------------------------------------------------------------------------
-- ksuid (Segment's KSUID): 20 bytes, seconds 32 since 2014-05-13 16:53:20 UTC
-- . payload 128; text: 27 base-62 digits
-- (generated by tools/gen_sql.py)
---------------------------------------------------------------------------

CREATE TYPE ksuid;

CREATE FUNCTION ksuid_in(cstring) RETURNS ksuid
    AS 'MODULE_PATHNAME', 'ksuid_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ksuid_out(ksuid) RETURNS cstring
    AS 'MODULE_PATHNAME', 'ksuid_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ksuid_recv(internal) RETURNS ksuid
    AS 'MODULE_PATHNAME', 'ksuid_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ksuid_send(ksuid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'ksuid_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE ksuid (
    INPUT = ksuid_in,
    OUTPUT = ksuid_out,
    RECEIVE = ksuid_recv,
    SEND = ksuid_send,
    INTERNALLENGTH = 20,
    ALIGNMENT = char,
    STORAGE = plain
);
COMMENT ON TYPE ksuid IS 'KSUID: 32-bit seconds since 2014-05-13T16:53:20Z, 128-bit payload; base-62 text';

CREATE FUNCTION ksuid_eq(ksuid, ksuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'ksuid_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ksuid_ne(ksuid, ksuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'ksuid_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ksuid_lt(ksuid, ksuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'ksuid_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ksuid_le(ksuid, ksuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'ksuid_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ksuid_gt(ksuid, ksuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'ksuid_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ksuid_ge(ksuid, ksuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'ksuid_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ksuid_cmp(ksuid, ksuid) RETURNS integer
    AS 'MODULE_PATHNAME', 'ksuid_cmp_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ksuid_sortsupport(internal) RETURNS void
    AS 'MODULE_PATHNAME', 'ksuid_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ksuid_hash(ksuid) RETURNS integer
    AS 'MODULE_PATHNAME', 'ksuid_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ksuid_hash_extended(ksuid, bigint) RETURNS bigint
    AS 'MODULE_PATHNAME', 'ksuid_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR = (LEFTARG = ksuid, RIGHTARG = ksuid, PROCEDURE = ksuid_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (LEFTARG = ksuid, RIGHTARG = ksuid, PROCEDURE = ksuid_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = ksuid, RIGHTARG = ksuid, PROCEDURE = ksuid_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = ksuid, RIGHTARG = ksuid, PROCEDURE = ksuid_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = ksuid, RIGHTARG = ksuid, PROCEDURE = ksuid_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = ksuid, RIGHTARG = ksuid, PROCEDURE = ksuid_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);

-- comparison with timestamptz: id OP t compares id with the smallest ksuid
-- whose time is at or after t
CREATE FUNCTION ksuid_eq_tstz(ksuid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'ksuid_eq_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ksuid_ne_tstz(ksuid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'ksuid_ne_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ksuid_lt_tstz(ksuid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'ksuid_lt_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ksuid_le_tstz(ksuid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'ksuid_le_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ksuid_gt_tstz(ksuid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'ksuid_gt_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ksuid_ge_tstz(ksuid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'ksuid_ge_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ksuid_cmp_tstz(ksuid, timestamptz) RETURNS integer
    AS 'MODULE_PATHNAME', 'ksuid_cmp_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_eq_ksuid(timestamptz, ksuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_eq_ksuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_ne_ksuid(timestamptz, ksuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_ne_ksuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_lt_ksuid(timestamptz, ksuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_lt_ksuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_le_ksuid(timestamptz, ksuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_le_ksuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_gt_ksuid(timestamptz, ksuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_gt_ksuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_ge_ksuid(timestamptz, ksuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_ge_ksuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_cmp_ksuid(timestamptz, ksuid) RETURNS integer
    AS 'MODULE_PATHNAME', 'tstz_cmp_ksuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_cmp_as_ksuid(timestamptz, timestamptz) RETURNS integer
    AS 'MODULE_PATHNAME', 'tstz_cmp_as_ksuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR = (LEFTARG = ksuid, RIGHTARG = timestamptz, PROCEDURE = ksuid_eq_tstz,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel);
CREATE OPERATOR <> (LEFTARG = ksuid, RIGHTARG = timestamptz, PROCEDURE = ksuid_ne_tstz,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = ksuid, RIGHTARG = timestamptz, PROCEDURE = ksuid_lt_tstz,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = ksuid, RIGHTARG = timestamptz, PROCEDURE = ksuid_le_tstz,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = ksuid, RIGHTARG = timestamptz, PROCEDURE = ksuid_gt_tstz,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = ksuid, RIGHTARG = timestamptz, PROCEDURE = ksuid_ge_tstz,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE OPERATOR = (LEFTARG = timestamptz, RIGHTARG = ksuid, PROCEDURE = tstz_eq_ksuid,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel);
CREATE OPERATOR <> (LEFTARG = timestamptz, RIGHTARG = ksuid, PROCEDURE = tstz_ne_ksuid,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = timestamptz, RIGHTARG = ksuid, PROCEDURE = tstz_lt_ksuid,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = timestamptz, RIGHTARG = ksuid, PROCEDURE = tstz_le_ksuid,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = timestamptz, RIGHTARG = ksuid, PROCEDURE = tstz_gt_ksuid,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = timestamptz, RIGHTARG = ksuid, PROCEDURE = tstz_ge_ksuid,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);

-- min() and max(), answered from a btree index when there is one
CREATE FUNCTION ksuid_smaller(ksuid, ksuid) RETURNS ksuid
    AS 'MODULE_PATHNAME', 'ksuid_smaller' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ksuid_larger(ksuid, ksuid) RETURNS ksuid
    AS 'MODULE_PATHNAME', 'ksuid_larger' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE AGGREGATE min(ksuid) (SFUNC = ksuid_smaller, STYPE = ksuid, COMBINEFUNC = ksuid_smaller,
    SORTOP = <, PARALLEL = SAFE);
CREATE AGGREGATE max(ksuid) (SFUNC = ksuid_larger, STYPE = ksuid, COMBINEFUNC = ksuid_larger,
    SORTOP = >, PARALLEL = SAFE);

CREATE OPERATOR CLASS ksuid_ops DEFAULT FOR TYPE ksuid USING btree AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 ksuid_cmp(ksuid, ksuid),
    FUNCTION 2 ksuid_sortsupport(internal),
    FUNCTION 4 pg_catalog.btequalimage(oid);

-- the timestamptz members, as for the 8-byte families (a range of times is
-- an index range scan on the ID)
ALTER OPERATOR FAMILY ksuid_ops USING btree ADD
    OPERATOR 1 < (ksuid, timestamptz), OPERATOR 2 <= (ksuid, timestamptz),
    OPERATOR 3 = (ksuid, timestamptz), OPERATOR 4 >= (ksuid, timestamptz),
    OPERATOR 5 > (ksuid, timestamptz),
    FUNCTION 1 ksuid_cmp_tstz(ksuid, timestamptz),
    OPERATOR 1 < (timestamptz, ksuid), OPERATOR 2 <= (timestamptz, ksuid),
    OPERATOR 3 = (timestamptz, ksuid), OPERATOR 4 >= (timestamptz, ksuid),
    OPERATOR 5 > (timestamptz, ksuid),
    FUNCTION 1 tstz_cmp_ksuid(timestamptz, ksuid),
    FUNCTION 1 (timestamptz, timestamptz) tstz_cmp_as_ksuid(timestamptz, timestamptz);

CREATE OPERATOR CLASS ksuid_ops DEFAULT FOR TYPE ksuid USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 ksuid_hash(ksuid),
    FUNCTION 2 ksuid_hash_extended(ksuid, bigint);

CREATE OPERATOR CLASS ksuid_minmax_ops DEFAULT FOR TYPE ksuid USING brin AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 pg_catalog.brin_minmax_opcinfo(internal),
    FUNCTION 2 pg_catalog.brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 pg_catalog.brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 pg_catalog.brin_minmax_union(internal, internal, internal);

ALTER OPERATOR FAMILY ksuid_minmax_ops USING brin ADD
    OPERATOR 1 < (ksuid, timestamptz), OPERATOR 2 <= (ksuid, timestamptz),
    OPERATOR 3 = (ksuid, timestamptz), OPERATOR 4 >= (ksuid, timestamptz),
    OPERATOR 5 > (ksuid, timestamptz);

-- time and fields
CREATE FUNCTION id_time(ksuid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'ksuid_time' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_payload(ksuid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'ksuid_payload' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION make_ksuid("time" timestamptz, payload bytea) RETURNS ksuid
    AS 'MODULE_PATHNAME', 'make_ksuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- casts, all explicit (implicit ones would make operators ambiguous)
CREATE FUNCTION ksuid(bytea) RETURNS ksuid
    AS 'MODULE_PATHNAME', 'ksuid_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bytea(ksuid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'ksuid_to_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (bytea AS ksuid) WITH FUNCTION ksuid(bytea);
CREATE CAST (ksuid AS bytea) WITH FUNCTION bytea(ksuid);
CREATE CAST (ksuid AS timestamptz) WITH FUNCTION id_time(ksuid);

-- the generator
CREATE FUNCTION next_ksuid() RETURNS ksuid
    AS 'MODULE_PATHNAME', 'next_ksuid' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

---------------------------------------------------------------------------
-- rsxid (github.com/rs/xid; core's xid is the transaction ID): 12 bytes,
-- Unix seconds 32 . machine 24 . process 16 . counter 24; text: 20 base32hex
-- (generated by tools/gen_sql.py)
---------------------------------------------------------------------------

CREATE TYPE rsxid;

CREATE FUNCTION rsxid_in(cstring) RETURNS rsxid
    AS 'MODULE_PATHNAME', 'rsxid_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION rsxid_out(rsxid) RETURNS cstring
    AS 'MODULE_PATHNAME', 'rsxid_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION rsxid_recv(internal) RETURNS rsxid
    AS 'MODULE_PATHNAME', 'rsxid_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION rsxid_send(rsxid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'rsxid_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE rsxid (
    INPUT = rsxid_in,
    OUTPUT = rsxid_out,
    RECEIVE = rsxid_recv,
    SEND = rsxid_send,
    INTERNALLENGTH = 12,
    ALIGNMENT = char,
    STORAGE = plain
);
COMMENT ON TYPE rsxid IS 'xid of rs/xid: 32-bit Unix seconds, 24-bit machine, 16-bit process, 24-bit counter; base32hex text';

CREATE FUNCTION rsxid_eq(rsxid, rsxid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'rsxid_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION rsxid_ne(rsxid, rsxid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'rsxid_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION rsxid_lt(rsxid, rsxid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'rsxid_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION rsxid_le(rsxid, rsxid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'rsxid_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION rsxid_gt(rsxid, rsxid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'rsxid_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION rsxid_ge(rsxid, rsxid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'rsxid_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION rsxid_cmp(rsxid, rsxid) RETURNS integer
    AS 'MODULE_PATHNAME', 'rsxid_cmp_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION rsxid_sortsupport(internal) RETURNS void
    AS 'MODULE_PATHNAME', 'rsxid_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION rsxid_hash(rsxid) RETURNS integer
    AS 'MODULE_PATHNAME', 'rsxid_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION rsxid_hash_extended(rsxid, bigint) RETURNS bigint
    AS 'MODULE_PATHNAME', 'rsxid_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR = (LEFTARG = rsxid, RIGHTARG = rsxid, PROCEDURE = rsxid_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (LEFTARG = rsxid, RIGHTARG = rsxid, PROCEDURE = rsxid_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = rsxid, RIGHTARG = rsxid, PROCEDURE = rsxid_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = rsxid, RIGHTARG = rsxid, PROCEDURE = rsxid_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = rsxid, RIGHTARG = rsxid, PROCEDURE = rsxid_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = rsxid, RIGHTARG = rsxid, PROCEDURE = rsxid_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);

-- comparison with timestamptz: id OP t compares id with the smallest rsxid
-- whose time is at or after t
CREATE FUNCTION rsxid_eq_tstz(rsxid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'rsxid_eq_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION rsxid_ne_tstz(rsxid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'rsxid_ne_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION rsxid_lt_tstz(rsxid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'rsxid_lt_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION rsxid_le_tstz(rsxid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'rsxid_le_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION rsxid_gt_tstz(rsxid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'rsxid_gt_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION rsxid_ge_tstz(rsxid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'rsxid_ge_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION rsxid_cmp_tstz(rsxid, timestamptz) RETURNS integer
    AS 'MODULE_PATHNAME', 'rsxid_cmp_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_eq_rsxid(timestamptz, rsxid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_eq_rsxid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_ne_rsxid(timestamptz, rsxid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_ne_rsxid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_lt_rsxid(timestamptz, rsxid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_lt_rsxid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_le_rsxid(timestamptz, rsxid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_le_rsxid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_gt_rsxid(timestamptz, rsxid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_gt_rsxid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_ge_rsxid(timestamptz, rsxid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_ge_rsxid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_cmp_rsxid(timestamptz, rsxid) RETURNS integer
    AS 'MODULE_PATHNAME', 'tstz_cmp_rsxid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_cmp_as_rsxid(timestamptz, timestamptz) RETURNS integer
    AS 'MODULE_PATHNAME', 'tstz_cmp_as_rsxid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR = (LEFTARG = rsxid, RIGHTARG = timestamptz, PROCEDURE = rsxid_eq_tstz,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel);
CREATE OPERATOR <> (LEFTARG = rsxid, RIGHTARG = timestamptz, PROCEDURE = rsxid_ne_tstz,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = rsxid, RIGHTARG = timestamptz, PROCEDURE = rsxid_lt_tstz,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = rsxid, RIGHTARG = timestamptz, PROCEDURE = rsxid_le_tstz,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = rsxid, RIGHTARG = timestamptz, PROCEDURE = rsxid_gt_tstz,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = rsxid, RIGHTARG = timestamptz, PROCEDURE = rsxid_ge_tstz,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE OPERATOR = (LEFTARG = timestamptz, RIGHTARG = rsxid, PROCEDURE = tstz_eq_rsxid,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel);
CREATE OPERATOR <> (LEFTARG = timestamptz, RIGHTARG = rsxid, PROCEDURE = tstz_ne_rsxid,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = timestamptz, RIGHTARG = rsxid, PROCEDURE = tstz_lt_rsxid,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = timestamptz, RIGHTARG = rsxid, PROCEDURE = tstz_le_rsxid,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = timestamptz, RIGHTARG = rsxid, PROCEDURE = tstz_gt_rsxid,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = timestamptz, RIGHTARG = rsxid, PROCEDURE = tstz_ge_rsxid,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);

-- min() and max(), answered from a btree index when there is one
CREATE FUNCTION rsxid_smaller(rsxid, rsxid) RETURNS rsxid
    AS 'MODULE_PATHNAME', 'rsxid_smaller' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION rsxid_larger(rsxid, rsxid) RETURNS rsxid
    AS 'MODULE_PATHNAME', 'rsxid_larger' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE AGGREGATE min(rsxid) (SFUNC = rsxid_smaller, STYPE = rsxid, COMBINEFUNC = rsxid_smaller,
    SORTOP = <, PARALLEL = SAFE);
CREATE AGGREGATE max(rsxid) (SFUNC = rsxid_larger, STYPE = rsxid, COMBINEFUNC = rsxid_larger,
    SORTOP = >, PARALLEL = SAFE);

CREATE OPERATOR CLASS rsxid_ops DEFAULT FOR TYPE rsxid USING btree AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 rsxid_cmp(rsxid, rsxid),
    FUNCTION 2 rsxid_sortsupport(internal),
    FUNCTION 4 pg_catalog.btequalimage(oid);

-- the timestamptz members, as for the 8-byte families (a range of times is
-- an index range scan on the ID)
ALTER OPERATOR FAMILY rsxid_ops USING btree ADD
    OPERATOR 1 < (rsxid, timestamptz), OPERATOR 2 <= (rsxid, timestamptz),
    OPERATOR 3 = (rsxid, timestamptz), OPERATOR 4 >= (rsxid, timestamptz),
    OPERATOR 5 > (rsxid, timestamptz),
    FUNCTION 1 rsxid_cmp_tstz(rsxid, timestamptz),
    OPERATOR 1 < (timestamptz, rsxid), OPERATOR 2 <= (timestamptz, rsxid),
    OPERATOR 3 = (timestamptz, rsxid), OPERATOR 4 >= (timestamptz, rsxid),
    OPERATOR 5 > (timestamptz, rsxid),
    FUNCTION 1 tstz_cmp_rsxid(timestamptz, rsxid),
    FUNCTION 1 (timestamptz, timestamptz) tstz_cmp_as_rsxid(timestamptz, timestamptz);

CREATE OPERATOR CLASS rsxid_ops DEFAULT FOR TYPE rsxid USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 rsxid_hash(rsxid),
    FUNCTION 2 rsxid_hash_extended(rsxid, bigint);

CREATE OPERATOR CLASS rsxid_minmax_ops DEFAULT FOR TYPE rsxid USING brin AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 pg_catalog.brin_minmax_opcinfo(internal),
    FUNCTION 2 pg_catalog.brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 pg_catalog.brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 pg_catalog.brin_minmax_union(internal, internal, internal);

ALTER OPERATOR FAMILY rsxid_minmax_ops USING brin ADD
    OPERATOR 1 < (rsxid, timestamptz), OPERATOR 2 <= (rsxid, timestamptz),
    OPERATOR 3 = (rsxid, timestamptz), OPERATOR 4 >= (rsxid, timestamptz),
    OPERATOR 5 > (rsxid, timestamptz);

-- time and fields
CREATE FUNCTION id_time(rsxid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'rsxid_time' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_machine(rsxid) RETURNS integer
    AS 'MODULE_PATHNAME', 'rsxid_machine' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_process(rsxid) RETURNS integer
    AS 'MODULE_PATHNAME', 'rsxid_process' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_counter(rsxid) RETURNS integer
    AS 'MODULE_PATHNAME', 'rsxid_counter' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION make_rsxid("time" timestamptz, machine integer, process integer, counter integer) RETURNS rsxid
    AS 'MODULE_PATHNAME', 'make_rsxid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- casts, all explicit (implicit ones would make operators ambiguous)
CREATE FUNCTION rsxid(bytea) RETURNS rsxid
    AS 'MODULE_PATHNAME', 'rsxid_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bytea(rsxid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'rsxid_to_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (bytea AS rsxid) WITH FUNCTION rsxid(bytea);
CREATE CAST (rsxid AS bytea) WITH FUNCTION bytea(rsxid);
CREATE CAST (rsxid AS timestamptz) WITH FUNCTION id_time(rsxid);

-- the generator
CREATE FUNCTION next_rsxid() RETURNS rsxid
    AS 'MODULE_PATHNAME', 'next_rsxid' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

---------------------------------------------------------------------------
-- typeid (jetify's TypeID spec 0.3): a type prefix and a UUID, written
-- prefix_suffix; ordered by prefix, then UUID
---------------------------------------------------------------------------

CREATE TYPE typeid;

CREATE FUNCTION typeid_in(cstring) RETURNS typeid
    AS 'MODULE_PATHNAME', 'typeid_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION typeid_out(typeid) RETURNS cstring
    AS 'MODULE_PATHNAME', 'typeid_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION typeid_recv(internal) RETURNS typeid
    AS 'MODULE_PATHNAME', 'typeid_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION typeid_send(typeid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'typeid_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- a varlena of 16 to 79 bytes after its header; STORAGE main gives it the
-- 1-byte header on disk (plain would keep 4 and align them), and the
-- functions read it packed and free what they copy
CREATE TYPE typeid (
    INPUT = typeid_in,
    OUTPUT = typeid_out,
    RECEIVE = typeid_recv,
    SEND = typeid_send,
    INTERNALLENGTH = VARIABLE,
    ALIGNMENT = int4,
    STORAGE = main
);
COMMENT ON TYPE typeid IS 'TypeID: a type prefix of up to 63 letters and underscores and a UUID (normally version 7); text prefix_suffix, the suffix in lowercase Crockford base 32';

CREATE FUNCTION typeid_eq(typeid, typeid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'typeid_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION typeid_ne(typeid, typeid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'typeid_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION typeid_lt(typeid, typeid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'typeid_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION typeid_le(typeid, typeid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'typeid_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION typeid_gt(typeid, typeid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'typeid_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION typeid_ge(typeid, typeid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'typeid_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION typeid_cmp(typeid, typeid) RETURNS integer
    AS 'MODULE_PATHNAME', 'typeid_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION typeid_sortsupport(internal) RETURNS void
    AS 'MODULE_PATHNAME', 'typeid_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION typeid_hash(typeid) RETURNS integer
    AS 'MODULE_PATHNAME', 'typeid_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION typeid_hash_extended(typeid, bigint) RETURNS bigint
    AS 'MODULE_PATHNAME', 'typeid_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR = (LEFTARG = typeid, RIGHTARG = typeid, PROCEDURE = typeid_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (LEFTARG = typeid, RIGHTARG = typeid, PROCEDURE = typeid_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = typeid, RIGHTARG = typeid, PROCEDURE = typeid_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = typeid, RIGHTARG = typeid, PROCEDURE = typeid_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = typeid, RIGHTARG = typeid, PROCEDURE = typeid_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = typeid, RIGHTARG = typeid, PROCEDURE = typeid_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);

-- min() and max(), answered from a btree index when there is one
CREATE FUNCTION typeid_smaller(typeid, typeid) RETURNS typeid
    AS 'MODULE_PATHNAME', 'typeid_smaller' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION typeid_larger(typeid, typeid) RETURNS typeid
    AS 'MODULE_PATHNAME', 'typeid_larger' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE AGGREGATE min(typeid) (SFUNC = typeid_smaller, STYPE = typeid, COMBINEFUNC = typeid_smaller,
    SORTOP = <, PARALLEL = SAFE);
CREATE AGGREGATE max(typeid) (SFUNC = typeid_larger, STYPE = typeid, COMBINEFUNC = typeid_larger,
    SORTOP = >, PARALLEL = SAFE);

-- no timestamptz members: the prefix leads the order, so the IDs of a time
-- range are not one range of the index (within one prefix they are; index
-- id_time(id) for time ranges across prefixes)
CREATE OPERATOR CLASS typeid_ops DEFAULT FOR TYPE typeid USING btree AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 typeid_cmp(typeid, typeid),
    FUNCTION 2 typeid_sortsupport(internal),
    FUNCTION 4 pg_catalog.btequalimage(oid);

CREATE OPERATOR CLASS typeid_ops DEFAULT FOR TYPE typeid USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 typeid_hash(typeid),
    FUNCTION 2 typeid_hash_extended(typeid, bigint);

CREATE OPERATOR CLASS typeid_minmax_ops DEFAULT FOR TYPE typeid USING brin AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 pg_catalog.brin_minmax_opcinfo(internal),
    FUNCTION 2 pg_catalog.brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 pg_catalog.brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 pg_catalog.brin_minmax_union(internal, internal, internal);

-- the prefix, the UUID and its time
CREATE FUNCTION typeid_prefix(typeid) RETURNS text
    AS 'MODULE_PATHNAME', 'typeid_prefix' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid(typeid) RETURNS uuid
    AS 'MODULE_PATHNAME', 'typeid_to_uuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (typeid AS uuid) WITH FUNCTION uuid(typeid);
CREATE FUNCTION id_time(typeid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'typeid_time' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (typeid AS timestamptz) WITH FUNCTION id_time(typeid);
CREATE FUNCTION make_typeid(prefix text, id uuid) RETURNS typeid
    AS 'MODULE_PATHNAME', 'make_typeid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- the generator: a typeid of the prefix around next_uuid7()
CREATE FUNCTION next_typeid(prefix text) RETURNS typeid
    AS 'MODULE_PATHNAME', 'next_typeid' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
