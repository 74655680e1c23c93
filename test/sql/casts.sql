-- shardid: casts to and from bigint and timestamptz, and to text
CREATE EXTENSION IF NOT EXISTS uniqueid;
SET timezone = 'UTC';

-- the 64 bits are reinterpreted both ways
SELECT '18446744073709551615'::shardid::bigint AS all_ones, (-1)::bigint::shardid AS back,
       '11637205501278089'::shardid::bigint AS example;

-- assignment cast lets a bigint column default to the generator's type
CREATE TABLE legacy (id bigint);
INSERT INTO legacy VALUES ('11637205501278089'::shardid);
SELECT id FROM legacy;

-- no implicit casts: mixing with bigint needs an explicit cast
SELECT '1'::shardid = 1::bigint;
SELECT '1'::shardid = 1::bigint::shardid AS explicit_ok;
-- bigint to shardid is explicit only
INSERT INTO legacy SELECT 1::bigint::shardid;
CREATE TABLE modern (id shardid);
INSERT INTO modern VALUES (5::bigint);

-- display form and time
SELECT '11637205501278089'::shardid::text, '11637205501278089'::shardid::timestamptz;

-- catalog: contexts of the casts
SELECT castsource::regtype, casttarget::regtype, castcontext, castmethod
FROM pg_cast WHERE castsource = 'shardid'::regtype OR casttarget = 'shardid'::regtype
ORDER BY castsource::regtype::text, casttarget::regtype::text;
