-- shardid: binary send/recv is 8 bytes big-endian and round trips
CREATE EXTENSION IF NOT EXISTS uniqueid;

SELECT shardid_send('11637205501278089') AS example, shardid_send('18446744073709551615') AS all_ones;

-- a round trip through COPY in binary format (psql reads and writes the file)
CREATE TABLE bin_src (id shardid);
INSERT INTO bin_src VALUES ('0'), ('1'), ('11637205501278089'), ('9223372036854775808'), ('18446744073709551615');
CREATE TABLE bin_dst (id shardid);
\copy bin_src TO 'results/shardid.bin' WITH (FORMAT binary)
\copy bin_dst FROM 'results/shardid.bin' WITH (FORMAT binary)
SELECT (SELECT array_agg(id ORDER BY id) FROM bin_src) = (SELECT array_agg(id ORDER BY id) FROM bin_dst) AS same;
SELECT id FROM bin_dst ORDER BY id;
