-- The group check of active-active replication (1.5,
-- doc/active-active.md), on one server: what it reads of this server, the
-- conflicts it names, and what it refuses.  t/071_active_active.pl runs it
-- on three servers that replicate to each other.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS uniqueid;
RESET client_min_messages;
\set VERBOSITY terse
-- no subscription: this server alone, as it is configured
SELECT name, subscription, node = current_setting('uniqueid.node')::int AS node_is_the_setting,
       shards = current_setting('uniqueid.shards') AS shards_are_the_setting, clock_offset, round_trip
FROM uniqueid_check_group();
-- every kind of conflict, each named (and the servers that have none not)
SELECT unnest(uniqueid_settings_conflicts(
    '[{"name": "this server", "node": 1, "shards": ""},
      {"name": "x (subscription s1)", "node": 2, "shards": "1, 7-9"},
      {"name": "y (subscription s2)", "node": 2, "shards": "8-20"},
      {"name": "z (subscription s3)", "node": 4, "shards": ""}]', NULL));
-- the nouns of uniqueid_check_nodes() on Citus
SELECT unnest(uniqueid_settings_conflicts(
    '[{"name": "h:1", "node": 1, "shards": "2"}, {"name": "h:2", "node": 2, "shards": ""}]', 'node'));
-- none: NULL
SELECT uniqueid_settings_conflicts(
    '[{"name": "a", "node": 1, "shards": "5"}, {"name": "b", "node": 2, "shards": "6"}]', NULL) IS NULL AS no_conflict;
-- the message and the hint of the check
SELECT uniqueid_raise_conflicts(ARRAY['uniqueid.node 2 is set on x and y'], 'the hint');
\echo :LAST_ERROR_SQLSTATE
\set VERBOSITY default
SELECT uniqueid_raise_conflicts(ARRAY['first', 'second'], 'the hint');
\set VERBOSITY terse
-- a server that cannot be reached: 08001, naming it (and no password)
SELECT * FROM uniqueid_remote_settings('host=/nonexistent port=1 dbname=app user=u password=secret');
\echo :LAST_ERROR_SQLSTATE
-- a connection string that does not parse; a dbname that is a URI with a
-- password is not shown
SELECT * FROM uniqueid_remote_settings('dbname=postgresql://u:secret@/app?host=/nonexistent');
SELECT * FROM uniqueid_remote_settings('host=/nonexistent nonsense');
\echo :LAST_ERROR_SQLSTATE
-- not for everyone: it connects as the server
CREATE ROLE uid_group_nobody;
SET ROLE uid_group_nobody;
SELECT * FROM uniqueid_check_group();
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uniqueid_group_settings();
SELECT * FROM uniqueid_remote_settings('host=/nonexistent');
RESET ROLE;
-- granted, a role must give the password itself: not from the server's
-- password files
GRANT EXECUTE ON FUNCTION uniqueid_remote_settings(text) TO uid_group_nobody;
SET ROLE uid_group_nobody;
SELECT * FROM uniqueid_remote_settings('host=/nonexistent passfile=/var/lib/postgresql/.pgpass');
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uniqueid_remote_settings('host=/nonexistent password=');
\echo :LAST_ERROR_SQLSTATE
-- (with one, it tries, and fails to connect here)
SELECT * FROM uniqueid_remote_settings('host=/nonexistent password=secret');
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
REVOKE EXECUTE ON FUNCTION uniqueid_remote_settings(text) FROM uid_group_nobody;
DROP ROLE uid_group_nobody;
\set VERBOSITY default
