-- The upgrade chain.  This test runs first: it installs the oldest release,
-- 1.0, and walks ALTER EXTENSION uniqueid UPDATE to the default version, so
-- that every later test runs on the upgraded catalog.  Then a fresh install
-- of the default version, in a database of its own, must have the same
-- objects: the same members, the same definition of every function and
-- operator, and the same members of every operator family.
CREATE EXTENSION uniqueid VERSION '1.0';
ALTER EXTENSION uniqueid UPDATE;
SELECT extversion = (SELECT default_version FROM pg_available_extensions WHERE name = 'uniqueid') AS at_default
FROM pg_extension WHERE extname = 'uniqueid';

CREATE VIEW uid_members AS
WITH m AS (
    SELECT d.classid, d.objid, d.objsubid
    FROM pg_depend d JOIN pg_extension x ON x.oid = d.refobjid AND x.extname = 'uniqueid'
    WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e')
SELECT pg_describe_object(m.classid, m.objid, m.objsubid)
       || coalesce(' ' || (SELECT concat_ws(' ', p.prosrc, p.probin IS NOT NULL, p.provolatile, p.proisstrict,
                                            p.proparallel, p.proleakproof, p.prorettype::regtype,
                                            pg_get_function_arguments(p.oid))
                           FROM pg_proc p WHERE m.classid = 'pg_proc'::regclass AND p.oid = m.objid), '')
       || coalesce(' ' || (SELECT concat_ws(' ', o.oprcode, o.oprcom::regoperator, o.oprnegate::regoperator,
                                            o.oprcanmerge, o.oprcanhash, o.oprrest, o.oprjoin)
                           FROM pg_operator o WHERE m.classid = 'pg_operator'::regclass AND o.oid = m.objid), '')
       AS member
FROM m
UNION ALL
SELECT pg_describe_object('pg_amop'::regclass, a.oid, 0)
FROM m JOIN pg_amop a ON m.classid = 'pg_opfamily'::regclass AND a.amopfamily = m.objid
UNION ALL
SELECT pg_describe_object('pg_amproc'::regclass, a.oid, 0)
FROM m JOIN pg_amproc a ON m.classid = 'pg_opfamily'::regclass AND a.amprocfamily = m.objid;
-- (as an array: a member such as a PL/pgSQL function's source spans lines)
SELECT array_agg(member ORDER BY member) AS upgraded FROM uid_members \gset
SELECT pg_get_viewdef('uid_members') AS members_view \gset
-- (how many differs between versions: 17 records more dependencies than 15)
SELECT count(*) > 400 AS has_its_members,
       count(*) FILTER (WHERE member LIKE 'operator % of operator family %') > 100 AS has_family_members
FROM uid_members;

CREATE DATABASE uid_fresh;
\c uid_fresh
CREATE EXTENSION uniqueid;
CREATE VIEW uid_members AS :members_view
-- what one has and the other lacks (nothing)
SELECT 'only after the upgrade' AS side, m AS member
FROM unnest(:'upgraded'::text[]) AS m WHERE m NOT IN (SELECT member FROM uid_members)
UNION ALL
SELECT 'only in a fresh install', member
FROM uid_members WHERE member NOT IN (SELECT unnest(:'upgraded'::text[]))
ORDER BY 1, 2;
\c contrib_regression
DROP DATABASE uid_fresh;
DROP VIEW uid_members;

-- 1.2 -> 1.3 over the uuid7_floor that doc/uuid7.md of 1.0 to 1.2 asked
-- users to write themselves: the update stops with nothing changed, saying
-- what to do; once that function is dropped it goes through, and the
-- extension's gives the values the user's gave
CREATE DATABASE uid_recipe;
\c uid_recipe
SET timezone = 'UTC';
CREATE EXTENSION uniqueid VERSION '1.2';
CREATE FUNCTION uuid7_floor(t timestamptz) RETURNS uuid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN (lpad(to_hex(ceil(extract(epoch FROM t) * 1000)::bigint), 12, '0')
            || '70008000000000000000')::uuid;
CREATE TABLE recipe AS
SELECT t, uuid7_floor(t) AS floor
FROM (VALUES (timestamptz '2026-12-01'), ('2026-12-01 00:00:00.0001'), ('2026-12-01 00:00:00.999001'),
             ('1970-01-01'), ('2100-06-30 23:59:59.9999')) v(t);
-- (PostgreSQL 18 adds the script's name and line to the context)
\set SHOW_CONTEXT never
ALTER EXTENSION uniqueid UPDATE TO '1.3';
\set SHOW_CONTEXT errors
SELECT extversion FROM pg_extension WHERE extname = 'uniqueid';
DROP FUNCTION uuid7_floor(timestamptz);
ALTER EXTENSION uniqueid UPDATE TO '1.3';
SELECT extversion,
       (SELECT l.lanname FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
        WHERE p.oid = 'uuid7_floor(timestamptz)'::regprocedure) AS language,
       (SELECT bool_and(uuid7_floor(t) = floor) FROM recipe) AS same_values
FROM pg_extension WHERE extname = 'uniqueid';
-- a fresh install over such a function stops the same way
DROP EXTENSION uniqueid;
CREATE FUNCTION uuid7_floor(t timestamptz) RETURNS uuid LANGUAGE sql RETURN NULL::uuid;
\set SHOW_CONTEXT never
CREATE EXTENSION uniqueid;
\set SHOW_CONTEXT errors
SELECT count(*) AS installed FROM pg_extension WHERE extname = 'uniqueid';
\c contrib_regression
DROP DATABASE uid_recipe;

-- 1.8 -> 1.9: uniqueid's own tables, views and sequences move to the schema
-- uniqueid_catalog with their data, privileges and pg_dump registration,
-- and the registry's functions and the generators find them there
CREATE DATABASE uid_catalog;
\c uid_catalog
CREATE EXTENSION uniqueid VERSION '1.8';
CREATE ROLE regress_uid_watcher;
GRANT SELECT ON uniqueid_node_claims TO regress_uid_watcher;
SELECT uniqueid_timestamptz_to_ms(clock_timestamp()) AS base \gset
-- a registry past its grace period, with a claim of token 42
INSERT INTO uniqueid_node_registry
SELECT true, s.system_identifier, substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8),
       pg_postmaster_start_time(), now() - interval '1 day', 62000, 20000, now() - interval '1 day'
FROM pg_control_system() s;
SELECT number FROM uniqueid_claim_node(3, 5, 111, 'a', 42, 60000, 20000, :base, 62000);
-- (a carried value behind the clock: it moves no generator)
SELECT setval('uniqueid_shard_horizon_ms', 12345) AS shard_horizon;
-- 1.8's sequence, where 1.8 has it, covers the IDs made here
SELECT next_snowflake() AS id \gset
SELECT last_value >= uniqueid_timestamptz_to_ms(id_time(:'id'::snowflake)) AS covered_at_1_8 FROM uniqueid_horizon_ms;
SELECT last_value AS horizon_1_8 FROM uniqueid_horizon_ms \gset
ALTER EXTENSION uniqueid UPDATE TO '1.9';
-- every table, view and sequence of the extension's is in uniqueid_catalog
-- (its composite type stays with the functions)
SELECT n.nspname, c.relname, c.relkind
FROM pg_depend d JOIN pg_class c ON d.classid = 'pg_class'::regclass AND c.oid = d.objid
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'uniqueid') AND d.deptype = 'e'
ORDER BY 1, 2;
\d
-- the data, the privileges, and what pg_dump dumps
SELECT number, holder_name, token FROM uniqueid_catalog.uniqueid_node_claims;
SELECT max_ahead_ms, max_skew_ms FROM uniqueid_catalog.uniqueid_node_registry;
SELECT h.last_value = :horizon_1_8 AS horizon_kept, s.last_value AS shard_horizon
FROM uniqueid_catalog.uniqueid_horizon_ms h, uniqueid_catalog.uniqueid_shard_horizon_ms s;
SELECT has_table_privilege('regress_uid_watcher', 'uniqueid_catalog.uniqueid_node_claims', 'SELECT') AS watcher_reads_claims,
       has_table_privilege('regress_uid_watcher', 'uniqueid_catalog.uniqueid_node_registry', 'SELECT') AS watcher_reads_registry,
       has_table_privilege('pg_read_all_stats', 'uniqueid_catalog.uniqueid_generators', 'SELECT') AS stats_read_generators,
       has_table_privilege('regress_uid_watcher', 'uniqueid_catalog.uniqueid_durability', 'SELECT') AS watcher_reads_durability;
SELECT array(SELECT c::regclass::text FROM unnest(extconfig) c ORDER BY 1) AS dumped
FROM pg_extension WHERE extname = 'uniqueid';
-- the registry's functions: the claim renewed with its token, and released
SELECT horizon_ms - :base AS horizon_ahead FROM uniqueid_renew_node(3, 42, 60000, 20000, :base + 1000, 62000);
SELECT uniqueid_release_node(3, 42, :base + 1000) AS released;
SELECT number, lease_until = '-infinity' AS ended FROM uniqueid_catalog.uniqueid_node_claims;
-- a new session's generator covers its IDs in the sequence where it is now
\c uid_catalog
SELECT next_snowflake() AS id \gset
SELECT last_value >= uniqueid_timestamptz_to_ms(id_time(:'id'::snowflake)) AS covered_at_1_9
FROM uniqueid_catalog.uniqueid_horizon_ms;
\c contrib_regression
DROP DATABASE uid_catalog;
DROP ROLE regress_uid_watcher;

-- a schema uniqueid_catalog of the user's stops the install and the update,
-- with nothing changed, when it has objects, another owner, or privileges
-- granted; an empty one of this role's (as Rails' db:schema:load makes it
-- before it enables the extension) is taken over; and the extension may be
-- installed into it
CREATE DATABASE uid_catalog;
\c uid_catalog
CREATE ROLE regress_uid_other;
CREATE SCHEMA uniqueid_catalog;
CREATE TABLE uniqueid_catalog.mine (a int);
\set SHOW_CONTEXT never
CREATE EXTENSION uniqueid;
CREATE EXTENSION uniqueid VERSION '1.8';
ALTER EXTENSION uniqueid UPDATE;
DROP TABLE uniqueid_catalog.mine;
ALTER SCHEMA uniqueid_catalog OWNER TO regress_uid_other;
ALTER EXTENSION uniqueid UPDATE;
ALTER SCHEMA uniqueid_catalog OWNER TO CURRENT_USER;
GRANT CREATE ON SCHEMA uniqueid_catalog TO regress_uid_other;
ALTER EXTENSION uniqueid UPDATE;
\set SHOW_CONTEXT errors
SELECT extversion, (SELECT count(*) FROM pg_class WHERE relnamespace = 'uniqueid_catalog'::regnamespace) AS in_schema
FROM pg_extension WHERE extname = 'uniqueid';
REVOKE CREATE ON SCHEMA uniqueid_catalog FROM regress_uid_other;
ALTER EXTENSION uniqueid UPDATE;
SELECT extversion, (SELECT count(*) FROM pg_class WHERE relnamespace = 'uniqueid_catalog'::regnamespace
                    AND relkind IN ('r', 'v', 'S')) AS in_schema,
       (SELECT count(*) FROM pg_depend d WHERE d.refobjid = x.oid AND d.deptype = 'e'
          AND d.classid = 'pg_namespace'::regclass AND d.objid = 'uniqueid_catalog'::regnamespace) AS schema_is_member
FROM pg_extension x WHERE extname = 'uniqueid';
-- then a plain CREATE SCHEMA of it (db:schema:load's create_schema, where
-- the extension is installed already) is skipped as IF NOT EXISTS is; one
-- that would put something in it, or give it to another role, is not
CREATE SCHEMA uniqueid_catalog;
CREATE SCHEMA uniqueid_catalog CREATE TABLE mine (a int);
CREATE SCHEMA uniqueid_catalog AUTHORIZATION regress_uid_other;
DROP EXTENSION uniqueid;
SELECT to_regnamespace('uniqueid_catalog') IS NULL AS dropped_with_it;
-- the script's own statements call no operator of another role's: ones
-- planted in public with the exact argument types of its comparisons (a
-- database whose public everyone may create in) are never called; and the
-- schema it makes has its owner's privileges and everyone's USAGE only,
-- whatever default privileges the installing role has for new schemas
GRANT CREATE ON SCHEMA public TO regress_uid_other;
SET ROLE regress_uid_other;
CREATE FUNCTION public.planted(a oid, b oid) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        EXECUTE 'ALTER ROLE regress_uid_other SUPERUSER';
    END IF;
    RETURN a OPERATOR(pg_catalog.=) b;
END $$;
CREATE FUNCTION public.planted_ns(oid, regnamespace) RETURNS boolean LANGUAGE sql AS 'SELECT public.planted($1, $2::oid)';
CREATE FUNCTION public.planted_cls(oid, regclass) RETURNS boolean LANGUAGE sql AS 'SELECT public.planted($1, $2::oid)';
CREATE FUNCTION public.planted_role(oid, regrole) RETURNS boolean LANGUAGE sql AS 'SELECT NOT public.planted($1, $2::oid)';
CREATE OPERATOR public.= (LEFTARG = oid, RIGHTARG = regnamespace, FUNCTION = public.planted_ns);
CREATE OPERATOR public.= (LEFTARG = oid, RIGHTARG = regclass, FUNCTION = public.planted_cls);
CREATE OPERATOR public.<> (LEFTARG = oid, RIGHTARG = regrole, FUNCTION = public.planted_role);
RESET ROLE;
ALTER DEFAULT PRIVILEGES GRANT CREATE ON SCHEMAS TO regress_uid_other;
CREATE EXTENSION uniqueid;
ALTER DEFAULT PRIVILEGES REVOKE CREATE ON SCHEMAS FROM regress_uid_other;
SELECT rolsuper AS planter_is_superuser FROM pg_roles WHERE rolname = 'regress_uid_other';
SELECT array(SELECT CASE a.grantee WHEN 0 THEN 'PUBLIC' ELSE a.grantee::regrole::text END || ' ' || a.privilege_type
             FROM pg_namespace x, aclexplode(x.nspacl) a WHERE x.nspname = 'uniqueid_catalog'
               AND a.grantee <> x.nspowner) AS others_may;
DROP EXTENSION uniqueid;
DROP FUNCTION public.planted_ns(oid, regnamespace), public.planted_cls(oid, regclass),
              public.planted_role(oid, regrole) CASCADE;
DROP FUNCTION public.planted(oid, oid);
REVOKE CREATE ON SCHEMA public FROM regress_uid_other;
CREATE SCHEMA uniqueid_catalog;
CREATE EXTENSION uniqueid SCHEMA uniqueid_catalog;
SELECT string_agg(relname, ', ' ORDER BY relname) AS in_schema
FROM pg_class WHERE relnamespace = 'uniqueid_catalog'::regnamespace AND relkind IN ('r', 'v', 'S');
SELECT uniqueid_catalog.next_snowflake() IS NOT NULL AS generates;
\c contrib_regression
DROP DATABASE uid_catalog;
DROP ROLE regress_uid_other;
