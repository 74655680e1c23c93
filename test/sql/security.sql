-- Extension script hardening: objects planted by an unprivileged role in the
-- target schema must not be picked up by CREATE EXTENSION nor by the types.
-- Runs in a database of its own so that it can drop and re-create the extension.
CREATE DATABASE uid_security;
\c uid_security
SET timezone = 'UTC';
CREATE ROLE uid_attacker;
CREATE SCHEMA uid_trap AUTHORIZATION uid_attacker;
SET ROLE uid_attacker;
-- a look-alike of a built-in the install script names (functions with
-- internal arguments, like brin_minmax_*, an unprivileged role cannot make),
-- which would announce itself if ever called
CREATE FUNCTION uid_trap.btequalimage(oid) RETURNS boolean LANGUAGE plpgsql
    AS $$ BEGIN RAISE EXCEPTION 'trap btequalimage called'; END $$;
RESET ROLE;

CREATE EXTENSION uniqueid SCHEMA uid_trap;

-- the operator families point at pg_catalog's functions, not the trap
SELECT DISTINCT pr.pronamespace::regnamespace AS schema, p.amproc::regprocedure AS support
FROM pg_amproc p JOIN pg_opfamily f ON f.oid = p.amprocfamily JOIN pg_proc pr ON pr.oid = p.amproc
WHERE f.opfnamespace = 'uid_trap'::regnamespace AND pr.pronamespace <> 'uid_trap'::regnamespace
ORDER BY 1, 2;
SELECT count(*) AS trap_functions_in_families
FROM pg_amproc p JOIN pg_proc pr ON pr.oid = p.amproc
WHERE pr.pronamespace = 'uid_trap'::regnamespace AND pr.proname = 'btequalimage';

-- the types work with the trap schema first in the path
SET search_path = uid_trap, public;
CREATE TABLE t (id shardid PRIMARY KEY);
INSERT INTO t SELECT make_shardid('2024-01-01'::timestamptz + n * interval '1 minute', 1, 0) FROM generate_series(1, 100) n;
CREATE INDEX ON t USING brin (id);
SELECT count(*) FROM t WHERE id >= '2024-01-01 00:50+00'::timestamptz AND id < '2024-01-01 01:00+00'::timestamptz;
RESET search_path;
DROP EXTENSION uniqueid CASCADE;

-- The capture README's "Installing safely" guards against: a role allowed to
-- create in the schema plants an id_encode that an integer literal would
-- match better than id_encode(bigint).  Every integer type has an id_encode
-- of its own, so a planted one has the exact signature of an extension
-- function: installing into that schema fails, naming it, instead of
-- leaving calls to the role's function.
CREATE SCHEMA uid_shared;
GRANT USAGE, CREATE ON SCHEMA uid_shared TO uid_attacker;
SET ROLE uid_attacker;
CREATE FUNCTION uid_shared.id_encode(integer, text DEFAULT 'base62') RETURNS text LANGUAGE sql
    AS $$ SELECT 'captured' $$;
RESET ROLE;
\set VERBOSITY terse
CREATE EXTENSION uniqueid SCHEMA uid_shared;
\set VERBOSITY default
DROP FUNCTION uid_shared.id_encode(integer, text);
CREATE EXTENSION uniqueid SCHEMA uid_shared;
SET search_path = uid_shared;
SELECT id_encode(123456789) AS integer_literal, id_encode(12345::smallint) AS smallint_value,
       lexical_add('a', 'base62', 1) AS lexical_add;
-- A look-alike elsewhere in the path has an extension function's exact
-- signature too, so the order of the path decides: the extension's schema
-- before any schema untrusted roles can create in.
SET ROLE uid_attacker;
CREATE FUNCTION uid_trap.id_encode(integer, text DEFAULT 'base62') RETURNS text LANGUAGE sql
    AS $$ SELECT 'captured' $$;
RESET ROLE;
SET search_path = uid_shared, uid_trap;
SELECT id_encode(123456789) AS extension_schema_first;
SET search_path = uid_trap, uid_shared;
SELECT id_encode(123456789) AS untrusted_schema_first;
RESET search_path;

\c contrib_regression
DROP DATABASE uid_security;
DROP ROLE uid_attacker;
