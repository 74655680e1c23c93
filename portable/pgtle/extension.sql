-- portable/pgtle/extension.sql - what the SQL edition adds when it is the
-- pg_tle extension uniqueid_sql (make pgtle appends it to
-- portable/uniqueid.sql in the installer, portable/uniqueid-pgtle.sql):
-- pg_dump carries the generators' state with the extension, and a restore
-- puts the dumped state in place of the one CREATE EXTENSION made.
--
-- pg_dump writes an extension's objects as CREATE EXTENSION and their
-- contents not at all, except its configuration tables' rows and its
-- configuration sequences' values: the node number, the shards owned and
-- every state sequence the install made are configuration.  (A shard owned
-- later gets its state sequence then, outside the extension: pg_dump dumps
-- it as the database's own, with its value, and DROP EXTENSION leaves it,
-- so that owning the shard again goes on above its IDs.)
SELECT pg_catalog.pg_extension_config_dump('@extschema@.uniqueid_node', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.uniqueid_shard', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.uniqueid_snowflake_state', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.uniqueid_sonyflake_state', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.uniqueid_uuid7_state', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.uniqueid_shard_0_state', '');

-- The shards given back (uniqueid_disown_shards): a dump names them, so
-- that a restore gives back shard 0, which CREATE EXTENSION owns, when the
-- dumped database had given it back.  A shard is in uniqueid_shard or here,
-- never in both.
CREATE TABLE @extschema@.uniqueid_shard_disowned (
    shard integer PRIMARY KEY
);
COMMENT ON TABLE @extschema@.uniqueid_shard_disowned IS 'uniqueid SQL edition (pg_tle): the shards this database gave back, for pg_dump';
SELECT pg_catalog.pg_extension_config_dump('@extschema@.uniqueid_shard_disowned', '');

-- A restore's rows, in whatever order pg_restore loads the tables, replace
-- the install's: the node number, a shard's state, a shard given back.
-- (The edition itself never inserts into uniqueid_node, and inserts into
-- uniqueid_shard only a shard it does not own.)
CREATE FUNCTION @extschema@.uniqueid_sql_restore() RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog
AS $$
BEGIN
    IF TG_TABLE_NAME OPERATOR(pg_catalog.=) 'uniqueid_node' THEN
        UPDATE @extschema@.uniqueid_node SET node = NEW.node;
        IF FOUND THEN
            RETURN NULL;
        END IF;
    ELSIF TG_TABLE_NAME OPERATOR(pg_catalog.=) 'uniqueid_shard' THEN
        UPDATE @extschema@.uniqueid_shard x SET state = NEW.state WHERE x.shard OPERATOR(pg_catalog.=) NEW.shard;
        IF FOUND THEN
            RETURN NULL;
        END IF;
    ELSE
        -- (its trigger below records the shard given back, once)
        DELETE FROM @extschema@.uniqueid_shard x WHERE x.shard OPERATOR(pg_catalog.=) NEW.shard;
        IF EXISTS (SELECT FROM @extschema@.uniqueid_shard_disowned x WHERE x.shard OPERATOR(pg_catalog.=) NEW.shard) THEN
            RETURN NULL;
        END IF;
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER uniqueid_sql_restore BEFORE INSERT ON @extschema@.uniqueid_node
    FOR EACH ROW EXECUTE FUNCTION @extschema@.uniqueid_sql_restore();
CREATE TRIGGER uniqueid_sql_restore BEFORE INSERT ON @extschema@.uniqueid_shard
    FOR EACH ROW EXECUTE FUNCTION @extschema@.uniqueid_sql_restore();
CREATE TRIGGER uniqueid_sql_restore BEFORE INSERT ON @extschema@.uniqueid_shard_disowned
    FOR EACH ROW EXECUTE FUNCTION @extschema@.uniqueid_sql_restore();

-- uniqueid_shard_disowned follows uniqueid_shard
CREATE FUNCTION @extschema@.uniqueid_sql_disowned() RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog
AS $$
BEGIN
    IF TG_OP OPERATOR(pg_catalog.=) 'DELETE' THEN
        INSERT INTO @extschema@.uniqueid_shard_disowned VALUES (OLD.shard) ON CONFLICT DO NOTHING;
    ELSE
        DELETE FROM @extschema@.uniqueid_shard_disowned x WHERE x.shard OPERATOR(pg_catalog.=) NEW.shard;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER uniqueid_sql_disowned AFTER INSERT OR DELETE ON @extschema@.uniqueid_shard
    FOR EACH ROW EXECUTE FUNCTION @extschema@.uniqueid_sql_disowned();

-- They fire also where session_replication_role is replica, as some restore
-- with (the generators' state must not go back to the install's there either)
ALTER TABLE @extschema@.uniqueid_node ENABLE ALWAYS TRIGGER uniqueid_sql_restore;
ALTER TABLE @extschema@.uniqueid_shard ENABLE ALWAYS TRIGGER uniqueid_sql_restore;
ALTER TABLE @extschema@.uniqueid_shard_disowned ENABLE ALWAYS TRIGGER uniqueid_sql_restore;
ALTER TABLE @extschema@.uniqueid_shard ENABLE ALWAYS TRIGGER uniqueid_sql_disowned;
