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
