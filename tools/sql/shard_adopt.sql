---------------------------------------------------------------------------
-- moving a logical shard between servers
---------------------------------------------------------------------------

CREATE FUNCTION shard_adopt(shard integer, last shardid) RETURNS void
    AS 'MODULE_PATHNAME', 'shard_adopt' LANGUAGE C VOLATILE STRICT;
REVOKE EXECUTE ON FUNCTION shard_adopt(integer, shardid) FROM PUBLIC;
