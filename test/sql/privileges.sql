-- What a role without privileges cannot do: change any uniqueid.* setting
-- (for itself, a role or a database), move logical shards between servers,
-- or read the horizon's state file.  (Capture through search_path: the
-- security test.)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS uniqueid;
RESET client_min_messages;
CREATE ROLE uid_nobody;
SET ROLE uid_nobody;
\set VERBOSITY sqlstate
SET uniqueid.node = 7;
SET uniqueid.shards = 'all';
SET uniqueid.max_clock_lead = 0;
ALTER ROLE uid_nobody SET uniqueid.node = 7;
ALTER DATABASE contrib_regression SET uniqueid.shards = '';
SELECT set_config('uniqueid.sno_sequence_min', '5', false);
SELECT shard_adopt(1, '0'::shardid);
SELECT shard_release(1);
SELECT pg_read_file('uniqueid.horizon');
SELECT pg_read_binary_file('uniqueid.horizon');
SELECT pg_stat_file('uniqueid.horizon');
COPY (SELECT 1) TO 'uniqueid.horizon';
\set VERBOSITY default
-- the settings are what the server says, for this role too
SELECT current_setting('uniqueid.node') = (SELECT boot_val FROM pg_settings WHERE name = 'uniqueid.node') AS node_unchanged;
RESET ROLE;
-- not even a superuser can change them for a session: they are server-wide
\set VERBOSITY sqlstate
SET uniqueid.node = 7;
ALTER ROLE uid_nobody SET uniqueid.node = 7;
\set VERBOSITY default
DROP ROLE uid_nobody;
