-- Soft input errors (PostgreSQL 16 and later): bad text input of every type
-- is reported by pg_input_is_valid and pg_input_error_info, with its
-- SQLSTATE and message, without raising.  PostgreSQL 15 has neither
-- function, so there the test stops here (input_validity_1.out).
CREATE EXTENSION IF NOT EXISTS uniqueid;
SELECT current_setting('server_version_num')::int >= 160000 AS soft_errors \gset
\if :soft_errors
\else
\quit
\endif
SELECT t AS type, v AS input, pg_input_is_valid(v, t) AS valid, e.sql_error_code, e.message
FROM (VALUES ('shardid', '11637205501278089'), ('shardid', ''), ('shardid', '-1'), ('shardid', '007'),
             ('shardid', '18446744073709551616'), ('shardid', '2026-01-01'),
             ('snowflake', '1541815603606036480'), ('snowflake', '9223372036854775808'), ('snowflake', 'x'),
             ('sonyflake', '1'), ('sonyflake', '9223372036854775808'), ('sonyflake', ' 1'),
             ('shortid', 'AAAAAAAA'), ('shortid', 'abc'), ('shortid', 'abc$'),
             ('spreadid', '0000000000001000'), ('spreadid', '000000000000100'), ('spreadid', '000000000000100g'),
             ('sno', '2222222222222222'), ('sno', '222222222222222'), ('sno', 'AAAAAAAAAAAAAAAA'),
             ('objectid', '507f1f77bcf86cd799439011'), ('objectid', '507f1f77bcf86cd79943901'),
             ('objectid', '507f1f77bcf86cd79943901z'), ('objectid', '2026-01-01 00:00')) AS x(t, v),
     LATERAL pg_input_error_info(v, t) AS e
ORDER BY t, v;
-- the hint for a time written where an ID is expected
SELECT hint FROM pg_input_error_info('2026-01-01', 'shardid');
