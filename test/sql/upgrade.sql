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
