-- uniqueid 1.0 -> 1.1: defaults that work on every server of a cluster
\echo Use "ALTER EXTENSION uniqueid UPDATE TO '1.1'" to load this file. \quit

-- next_id(): the next shardid of this server's own logical shard, the one
-- numbered uniqueid.node.  A column default that is right wherever it is
-- evaluated (on Citus: on the node a row enters through), as long as every
-- server has its own uniqueid.node.
CREATE FUNCTION next_id() RETURNS shardid
    AS 'MODULE_PATHNAME', 'next_id_own' LANGUAGE C VOLATILE PARALLEL SAFE;
