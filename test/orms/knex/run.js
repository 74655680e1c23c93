// t/076_orms.pl's Knex side: on connections with
// uniqueid.serial_normalization = snowflake, runs the migrations of
// migrations/ with Knex's migrator, inserts an author (returning its key)
// and 300 books with batchInsert in batches of 100 (returning theirs), and
// prints as JSON the keys Knex got back (int8 comes back as a string,
// which is exact), the keys in the table as text, and what the common
// types.setTypeParser(20, parseInt) makes of them.
const path = require('path');
const pg = require('pg');
const knex = require('knex')({
  client: 'pg',
  connection: {
    host: process.env.PGHOST,
    port: Number(process.env.PGPORT),
    user: process.env.PGUSER,
    database: process.env.PGDATABASE,
    options: '-c uniqueid.serial_normalization=snowflake',
  },
});

async function main() {
  const [, log] = await knex.migrate.latest({ directory: path.join(__dirname, 'migrations') });
  const [author] = await knex('authors').insert({ name: 'Octavia' }).returning('id');
  const rows = Array.from({ length: 300 }, (_, i) => ({ author_id: author.id, title: `book ${i}` }));
  const books = await knex.batchInsert('books', rows, 100).returning('id');
  const table = await knex('books').select(knex.raw('id::text AS id')).orderBy('id');
  // the pitfall doc/orms.md warns of
  pg.types.setTypeParser(20, parseInt);
  const parsed = await knex('books').select('id').orderBy('id');
  console.log(JSON.stringify({
    migrations: log,
    author: author.id,
    books: books.map((b) => b.id),
    book_table: table.map((b) => b.id),
    // (as the application would send them back, and the numbers themselves)
    parse_int: parsed.map((b) => String(b.id)),
    parse_int_value: parsed.map((b) => BigInt(b.id).toString()),
  }));
  await knex.destroy();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
