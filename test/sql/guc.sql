-- uniqueid.* settings: values, validation, and that sessions cannot change them
-- (but uniqueid.serial_normalization, which they may: test/sql/serial.sql)
-- (guc_1.out: 16 and later write units in the range of a range error)
CREATE EXTENSION IF NOT EXISTS uniqueid;

-- (their values depend on the server: t/051_shards.pl and t/050_node_settings.pl
-- check them on servers configured for it)
SELECT name, unit, context, vartype, min_val, max_val, boot_val FROM pg_settings
WHERE name LIKE 'uniqueid.%' ORDER BY name;

-- server-wide only: a session may not change them
SET uniqueid.shards = '0-10';
\echo :LAST_ERROR_SQLSTATE
SET uniqueid.node = 1;
\echo :LAST_ERROR_SQLSTATE
SET uniqueid.max_clock_lead = 5;
\echo :LAST_ERROR_SQLSTATE

-- the prefix is reserved
SET uniqueid.no_such_setting = 1;
\echo :LAST_ERROR_SQLSTATE

-- bad values are refused before they reach the configuration file
ALTER SYSTEM SET uniqueid.shards = '5-3';
ALTER SYSTEM SET uniqueid.shards = '8192';
ALTER SYSTEM SET uniqueid.shards = '1,,2';
ALTER SYSTEM SET uniqueid.shards = 'some';
ALTER SYSTEM SET uniqueid.shards = '1-';
ALTER SYSTEM SET uniqueid.node = 65536;
ALTER SYSTEM SET uniqueid.cluster = 16;
ALTER SYSTEM SET uniqueid.max_clock_lead = -1;

-- the node registry's settings (1.6): a range of node numbers, and a
-- leased number that only the server sets
ALTER SYSTEM SET uniqueid.node_range = '5-3';
ALTER SYSTEM SET uniqueid.node_range = '0-65536';
ALTER SYSTEM SET uniqueid.node_range = 'all';
ALTER SYSTEM SET uniqueid.node_range = '1-2-3';
SET uniqueid.node_leased = '3';
\echo :LAST_ERROR_SQLSTATE
ALTER SYSTEM SET uniqueid.node_leased = '3';
SELECT current_setting('uniqueid.node_leased') = '' AS no_registry_no_lease;
-- the registry's connection string is for superusers to read
CREATE ROLE uid_guc_reader;
SET ROLE uid_guc_reader;
SELECT current_setting('uniqueid.node_registry');
RESET ROLE;
DROP ROLE uid_guc_reader;
