-- The upgrade chain.  This test runs first: it installs the oldest release,
-- 1.0, and walks ALTER EXTENSION uniqueid UPDATE to the default version, so
-- that every later test runs on the upgraded catalog.  Then a fresh install
-- of the default version, in a database of its own, must have the same
-- objects, and the same definition of every function.
CREATE EXTENSION uniqueid VERSION '1.0';
ALTER EXTENSION uniqueid UPDATE;
SELECT extversion = (SELECT default_version FROM pg_available_extensions WHERE name = 'uniqueid') AS at_default
FROM pg_extension WHERE extname = 'uniqueid';

-- every member of the extension, and each function's definition
CREATE VIEW uid_members AS
SELECT pg_describe_object(d.classid, d.objid, d.objsubid)
       || coalesce(' ' || (SELECT concat_ws(' ', p.prosrc, p.probin IS NOT NULL, p.provolatile, p.proisstrict,
                                            p.proparallel, p.proleakproof, p.prorettype::regtype,
                                            pg_get_function_arguments(p.oid))
                           FROM pg_proc p WHERE d.classid = 'pg_proc'::regclass AND p.oid = d.objid), '') AS member
FROM pg_depend d JOIN pg_extension x ON x.oid = d.refobjid AND x.extname = 'uniqueid'
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e';
SELECT string_agg(member, E'\n' ORDER BY member) AS upgraded FROM uid_members \gset
-- (how many differs between versions: 17 records more dependencies than 15)
SELECT count(*) > 400 AS has_its_members FROM uid_members;

CREATE DATABASE uid_fresh;
\c uid_fresh
CREATE EXTENSION uniqueid;
CREATE VIEW uid_members AS
SELECT pg_describe_object(d.classid, d.objid, d.objsubid)
       || coalesce(' ' || (SELECT concat_ws(' ', p.prosrc, p.probin IS NOT NULL, p.provolatile, p.proisstrict,
                                            p.proparallel, p.proleakproof, p.prorettype::regtype,
                                            pg_get_function_arguments(p.oid))
                           FROM pg_proc p WHERE d.classid = 'pg_proc'::regclass AND p.oid = d.objid), '') AS member
FROM pg_depend d JOIN pg_extension x ON x.oid = d.refobjid AND x.extname = 'uniqueid'
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e';
-- what one has and the other lacks (nothing)
SELECT 'only after the upgrade' AS side, m AS member
FROM unnest(string_to_array(:'upgraded', E'\n')) AS m WHERE m NOT IN (SELECT member FROM uid_members)
UNION ALL
SELECT 'only in a fresh install', member
FROM uid_members WHERE member NOT IN (SELECT unnest(string_to_array(:'upgraded', E'\n')))
ORDER BY 1, 2;
\c contrib_regression
DROP DATABASE uid_fresh;
DROP VIEW uid_members;
