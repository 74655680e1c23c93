-- Moving existing tables onto uniqueid (doc/moving.md).
-- uniqueid_convert_key moves an integer key, and every column that
-- references it through foreign keys, onto shardid or snowflake: values
-- kept, sequences and identities gone, foreign keys as they were, new IDs
-- after the old.  Then the one-statement moves: uuid to next_uuid7(), text
-- to ulid, ksuid and typeid.
CREATE EXTENSION IF NOT EXISTS uniqueid;
SET client_min_messages = warning;
\set SHOW_CONTEXT never
CREATE SCHEMA shop;
SET search_path = shop, public;
-- two levels of foreign keys (customers <- orders <- order_lines, the last
-- through a two-column key), one to itself, a partitioned table, a serial
-- key of type integer, an IDENTITY, ON DELETE CASCADE
CREATE TABLE customers (id bigserial PRIMARY KEY, name text NOT NULL,
                        referred_by bigint REFERENCES customers);
CREATE TABLE orders (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                     customer_id bigint NOT NULL REFERENCES customers ON DELETE CASCADE,
                     UNIQUE (customer_id, id));
CREATE TABLE order_lines (customer_id bigint NOT NULL, order_id bigint NOT NULL, line int NOT NULL,
                          FOREIGN KEY (customer_id, order_id) REFERENCES orders (customer_id, id) ON DELETE CASCADE)
    PARTITION BY RANGE (line);
CREATE TABLE order_lines_1 PARTITION OF order_lines FOR VALUES FROM (1) TO (3);
CREATE TABLE order_lines_2 PARTITION OF order_lines FOR VALUES FROM (3) TO (100);
CREATE TABLE notes (id serial PRIMARY KEY, body text);
INSERT INTO customers (name, referred_by)
SELECT 'c' || g, CASE WHEN g > 1 THEN g - 1 END FROM generate_series(1, 20) g;
INSERT INTO orders (customer_id) SELECT 1 + g % 20 FROM generate_series(1, 60) g;
INSERT INTO order_lines SELECT customer_id, id, l FROM orders, generate_series(1, 4) l;
INSERT INTO notes (body) VALUES ('a'), ('b');
-- every row as text, to compare after the move
CREATE TABLE before AS
SELECT 'customers' AS t, format('%s %s %s', id, name, referred_by) AS r FROM customers
UNION ALL SELECT 'orders', format('%s %s', id, customer_id) FROM orders
UNION ALL SELECT 'order_lines', format('%s %s %s', customer_id, order_id, line) FROM order_lines;
SELECT relfilenode AS customers_file FROM pg_class WHERE oid = 'customers'::regclass \gset
CREATE VIEW key_columns AS
SELECT attrelid::regclass AS "table", attname AS "column", format_type(atttypid, atttypmod) AS type,
       pg_get_expr(d.adbin, d.adrelid) AS "default", attidentity AS "identity"
FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
WHERE attrelid IN ('customers'::regclass, 'orders'::regclass, 'order_lines'::regclass,
                   'order_lines_1'::regclass, 'notes'::regclass)
  AND attnum > 0 AND atttypid <> 'text'::regtype AND attname <> 'line'
ORDER BY 1, 2;

-- a statement prepared before the move, as a driver's statement cache keeps
PREPARE customer_named(text) AS SELECT id FROM customers WHERE name = $1;
EXECUTE customer_named('c3');

-- the dry run: the statements, none run
SELECT * FROM uniqueid_convert_key('customers', 'id', 'shardid', shard => 12, dry_run => true);
SELECT * FROM key_columns WHERE "table" = 'customers'::regclass;
SELECT to_regclass('customers_id_seq') IS NOT NULL AS sequence_kept;

-- the move, in one transaction with what checks it
BEGIN;
SELECT count(*) AS statements FROM uniqueid_convert_key('customers', 'id', 'shardid', shard => 12);
SELECT count(*) AS statements FROM uniqueid_convert_key('orders', 'id', 'snowflake');
COMMIT;
SELECT * FROM key_columns;
-- every value kept, the sequences gone, no rewrite of customers (bigint to
-- shardid changes no bit; its indexes are rebuilt)
SELECT (SELECT array_agg(t || ': ' || r ORDER BY t, r) FROM before)
     = (SELECT array_agg(t || ': ' || r ORDER BY t, r) FROM (
          SELECT 'customers' AS t, format('%s %s %s', id, name, referred_by) AS r FROM customers
          UNION ALL SELECT 'orders', format('%s %s', id, customer_id) FROM orders
          UNION ALL SELECT 'order_lines', format('%s %s %s', customer_id, order_id, line) FROM order_lines) x)
       AS every_value_kept;
SELECT to_regclass('customers_id_seq') AS customers_seq, to_regclass('orders_id_seq') AS orders_seq;
SELECT relfilenode = :customers_file AS customers_not_rewritten FROM pg_class WHERE oid = 'customers'::regclass;
-- the statement prepared before: its result's type changed, so it fails
-- once; prepared again, it works (doc/moving.md: drivers' caches)
EXECUTE customer_named('c3');
DEALLOCATE customer_named;
PREPARE customer_named(text) AS SELECT id FROM customers WHERE name = $1;
EXECUTE customer_named('c3');
-- the foreign keys, as they were
SELECT conrelid::regclass, conname, pg_get_constraintdef(oid), convalidated
FROM pg_constraint WHERE contype = 'f' AND connamespace = 'shop'::regnamespace AND conparentid = 0
ORDER BY 1, 2;
INSERT INTO orders (customer_id) VALUES ('999'::shardid);
INSERT INTO order_lines VALUES ('1', '3', 1);
-- new rows: the generators' IDs, after every old one
INSERT INTO customers (name, referred_by) VALUES ('new', '20') RETURNING id > '20' AS after_old, (id_parts(id)).shard;
INSERT INTO orders (customer_id) SELECT max(id) FROM customers RETURNING id > '60' AS after_old, id_node(id) = current_setting('uniqueid.node')::int AS this_node;
INSERT INTO order_lines SELECT customer_id, id, 1 FROM orders WHERE id > '60';
SELECT count(*) AS customers, count(*) FILTER (WHERE id > '20') AS new FROM customers;
-- ON DELETE CASCADE kept, through both levels
DELETE FROM customers WHERE name = 'new';
SELECT count(*) AS new_orders FROM orders WHERE id > '60';
DELETE FROM customers WHERE id = '20';
SELECT count(*) AS orders_of_20 FROM orders WHERE customer_id = '20';
SELECT count(*) AS lines_of_20 FROM order_lines WHERE customer_id = '20';

-- an integer serial (its values widen to 64 bits; the table is rewritten)
SELECT * FROM uniqueid_convert_key('notes', 'id');
SELECT id, body FROM notes ORDER BY id;
INSERT INTO notes (body) VALUES ('c') RETURNING id > '2' AS after_old;

-- a table referencing itself, with a CHECK comparing the two columns: they
-- change in one ALTER TABLE
CREATE TABLE staff (id bigserial PRIMARY KEY, boss bigint REFERENCES staff, CHECK (boss <> id));
INSERT INTO staff (boss) VALUES (NULL), (1), (1);
SELECT * FROM uniqueid_convert_key('staff', 'id');
INSERT INTO staff (boss) VALUES ('1') RETURNING id > '3' AS after_old;
-- a partitioned table with a partition attached with a serial of its own:
-- both sequences go
CREATE TABLE events (id bigserial, kind text, PRIMARY KEY (id, kind)) PARTITION BY LIST (kind);
CREATE TABLE events_a PARTITION OF events FOR VALUES IN ('a');
CREATE TABLE events_b (id bigserial NOT NULL, kind text NOT NULL);
ALTER TABLE events ATTACH PARTITION events_b FOR VALUES IN ('b');
INSERT INTO events (kind) VALUES ('a'), ('b');
SELECT * FROM uniqueid_convert_key('events', 'id');
SELECT to_regclass('events_id_seq') AS events_seq, to_regclass('events_b_id_seq') AS events_b_seq;
INSERT INTO events (kind) VALUES ('b') RETURNING id > '2' AS after_old;

-- what it refuses, before doing anything
CREATE TABLE neg (id bigint PRIMARY KEY);
INSERT INTO neg VALUES (-5), (7);
SELECT uniqueid_convert_key('neg', 'id');
TRUNCATE neg;
INSERT INTO neg SELECT make_snowflake('2070-01-01', 0, 0)::bigint;
-- (its detail names the floor of now)
\set VERBOSITY terse
SELECT uniqueid_convert_key('neg', 'id', 'snowflake', dry_run => true);
\set VERBOSITY default
SELECT uniqueid_convert_key('neg', 'nosuch');
SELECT uniqueid_convert_key('customers', 'id');
SELECT uniqueid_convert_key('customers', 'name');
SELECT uniqueid_convert_key('neg', 'id', 'ulid');
SELECT uniqueid_convert_key('neg', 'id', 'snowflake', shard => 1);
SELECT uniqueid_convert_key('neg', 'id', shard => 8192);
SELECT uniqueid_convert_key('order_lines_1', 'line');
SELECT uniqueid_convert_key('order_lines', 'line');
CREATE VIEW neg_view AS SELECT id FROM neg;
TRUNCATE neg;
-- (PostgreSQL's own error; its detail ends with a period from 19 on)
\set VERBOSITY terse
SELECT uniqueid_convert_key('neg', 'id');
\set VERBOSITY default
SELECT format_type(atttypid, NULL) AS neg_id_still FROM pg_attribute WHERE attrelid = 'neg'::regclass AND attname = 'id';
-- a referencing column of a domain type, or holding a negative value
-- (a NOT VALID foreign key let it in)
CREATE DOMAIN positive_id AS bigint CHECK (VALUE > 0);
CREATE TABLE pos_parent (id bigint PRIMARY KEY);
CREATE TABLE pos_child (parent positive_id REFERENCES pos_parent);
SELECT uniqueid_convert_key('pos_parent', 'id');
CREATE TABLE neg_parent (id bigint PRIMARY KEY);
CREATE TABLE neg_child (parent bigint);
INSERT INTO neg_child VALUES (-9);
ALTER TABLE neg_child ADD FOREIGN KEY (parent) REFERENCES neg_parent NOT VALID;
SELECT uniqueid_convert_key('neg_parent', 'id');
-- at REPEATABLE READ its check could miss rows: only a dry run
CREATE TABLE plain (id bigint PRIMARY KEY);
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT count(*) AS statements FROM uniqueid_convert_key('plain', 'id', 'snowflake', dry_run => true);
SELECT uniqueid_convert_key('plain', 'id', 'snowflake');
ROLLBACK;
-- their SQLSTATEs
CREATE FUNCTION pg_temp.refusal(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    state text;
BEGIN
    EXECUTE q;
    RETURN 'accepted';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE;
    RETURN state;
END $$;
INSERT INTO neg VALUES (-1);
SELECT q AS call, pg_temp.refusal('SELECT ' || q) AS sqlstate FROM (VALUES
    ('uniqueid_convert_key(''neg'', ''id'')'),
    ('uniqueid_convert_key(''neg'', ''nosuch'')'),
    ('uniqueid_convert_key(''customers'', ''id'')'),
    ('uniqueid_convert_key(''customers'', ''name'')'),
    ('uniqueid_convert_key(''neg'', ''id'', ''ulid'')'),
    ('uniqueid_convert_key(''neg'', ''id'', ''snowflake'', shard => 1)'),
    ('uniqueid_convert_key(''neg'', ''id'', shard => 8192)'),
    ('uniqueid_convert_key(''order_lines_1'', ''line'')'),
    ('uniqueid_convert_key(''order_lines'', ''line'')'),
    ('uniqueid_convert_key(''neg_view'', ''id'')'),
    ('uniqueid_convert_key(''pos_parent'', ''id'')'),
    ('uniqueid_convert_key(''neg_parent'', ''id'')')) AS v(q);
BEGIN ISOLATION LEVEL SERIALIZABLE;
SELECT pg_temp.refusal('SELECT uniqueid_convert_key(''plain'', ''id'')') AS serializable;
ROLLBACK;

-- uuid keys: the default changes, every value stays; from random UUIDs the
-- new ones do not sort after the old, from UUIDv7 they do
CREATE TABLE docs (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), body text);
INSERT INTO docs (body) SELECT 'old' FROM generate_series(1, 5);
ALTER TABLE docs ALTER COLUMN id SET DEFAULT next_uuid7();
INSERT INTO docs (body) VALUES ('new') RETURNING (id_parts(id)).version;
SELECT (id_parts(id)).version, count(*) FROM docs GROUP BY 1 ORDER BY 1;

-- text columns holding IDs: one ALTER each, USING the type's input
CREATE TABLE legacy (u text PRIMARY KEY, k text, t text);
INSERT INTO legacy VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV', '0ujtsYcgvSTl8PAuAdqWYSMnLOv', 'user_01h455vb4pex5vsknk084sn02q');
ALTER TABLE legacy ALTER COLUMN u TYPE ulid USING u::ulid, ALTER COLUMN k TYPE ksuid USING k::ksuid,
                   ALTER COLUMN t TYPE typeid USING t::typeid;
SELECT u, id_time(u) AS u_time, k, id_time(k) AS k_time, t, typeid_prefix(t) FROM legacy;
-- a text that is not one: the type's own error, and nothing changes
CREATE TABLE legacy2 (u text);
INSERT INTO legacy2 VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'), ('not-a-ulid');
ALTER TABLE legacy2 ALTER COLUMN u TYPE ulid USING u::ulid;
SELECT format_type(atttypid, NULL) AS legacy2_u_still FROM pg_attribute WHERE attrelid = 'legacy2'::regclass AND attname = 'u';

-- progress: a NOTICE before each statement it runs, which the caller sees
-- (here, with client_min_messages = notice) and can silence; none in a dry run
CREATE TABLE progress (id bigserial PRIMARY KEY, note text);
INSERT INTO progress (note) VALUES ('a'), ('b');
SET client_min_messages = notice;
SELECT count(*) AS statements FROM uniqueid_convert_key('progress', 'id', 'snowflake', dry_run => true);
SELECT count(*) AS statements FROM uniqueid_convert_key('progress', 'id', 'snowflake');
SET client_min_messages = warning;

RESET search_path;
DROP SCHEMA shop CASCADE;
