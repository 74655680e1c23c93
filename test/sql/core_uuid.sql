-- next to core: no function of uniqueid has the name and argument types of a
-- core function, on any version.  From 17 on, core's uuid_extract_version
-- reads next_uuid7()'s values as version 7, and its uuid_extract_timestamp
-- reads their time as id_time does (on 18; 17's reads version 1 only and
-- gives NULL); on 18 id_time reads core uuidv7()'s values as core does.
-- Before 17 the test stops after the first check (core_uuid_2.out), on 17
-- before uuidv7() (core_uuid_1.out).
CREATE EXTENSION IF NOT EXISTS uniqueid;
SELECT p.oid::regprocedure AS collides_with_core
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension x ON x.oid = d.refobjid AND x.extname = 'uniqueid'
WHERE EXISTS (SELECT FROM pg_proc c WHERE c.pronamespace = 'pg_catalog'::regnamespace
              AND c.proname = p.proname AND c.proargtypes = p.proargtypes);
SELECT current_setting('server_version_num')::int >= 170000 AS has_extract,
       current_setting('server_version_num')::int >= 180000 AS has_uuidv7 \gset
\if :has_extract
\else
\quit
\endif
SELECT count(*) AS ids,
       count(*) FILTER (WHERE uuid_extract_version(u) = 7) AS version_7,
       count(*) FILTER (WHERE uuid_extract_timestamp(u) = id_time(u)) AS same_time,
       count(*) FILTER (WHERE id_time(u) BETWEEN t0 - interval '1 s' AND clock_timestamp() + interval '1 s') AS near_clock
FROM (SELECT next_uuid7() AS u, clock_timestamp() AS t0 FROM generate_series(1, 1000)) s;
-- RFC 9562's example of version 7
SELECT uuid_extract_timestamp('017f22e2-79b0-7cc3-98c4-dc0c0c07398f') AS core,
       id_time('017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid) AS uniqueid;
\if :has_uuidv7
\else
\quit
\endif
SELECT count(*) AS ids,
       count(*) FILTER (WHERE uuid_extract_version(u) = 7) AS version_7,
       count(*) FILTER (WHERE date_trunc('milliseconds', uuid_extract_timestamp(u)) = id_time(u)) AS same_ms
FROM (SELECT uuidv7() AS u FROM generate_series(1, 1000)) s;
-- both kinds sort by time together: a core value made after a next_uuid7()
-- value in a later millisecond sorts after it
SELECT next_uuid7() AS a \gset
SELECT pg_sleep(0.002);
SELECT uuidv7() > :'a'::uuid AS core_after_ours;
