// t/076_orms.pl's Drizzle side, on the tables of schema.js: an author
// inserted (returning its key), another inserted with the key
// 1152921504606846977 (past 2^53, odd) and read back, and 300 books of the
// author read back in batches of 100 (returning their keys).  Prints as JSON the keys Drizzle got back (as
// MODE makes them: a BigInt, exact, by default; a number with
// MODE=number) with each book's title, the same read from the table, or
// the error that stopped the books.
const { drizzle } = require('drizzle-orm/node-postgres');
const { eq, sql } = require('drizzle-orm');
const { Pool } = require('pg');
const { authors, books } = require('./schema');

async function main() {
  const pool = new Pool({ options: '-c uniqueid.serial_normalization=snowflake' });
  const db = drizzle(pool);
  const [author] = await db.insert(authors).values({ name: 'Octavia' }).returning();
  const octavia = await db.execute(sql`SELECT id::text FROM authors WHERE name = 'Octavia' ORDER BY id DESC LIMIT 1`);
  // a key past 2^53 with its lowest bit set, read back through Drizzle
  await db.execute(sql`INSERT INTO authors (id, name) VALUES (1152921504606846977, 'Ursula') ON CONFLICT DO NOTHING`);
  const [ursula] = await db.select().from(authors).where(eq(authors.name, 'Ursula'));
  const out = {
    author: String(author.id), author_type: typeof author.id, author_in_table: octavia.rows[0].id,
    read_back: String(ursula.id),
  };
  try {
    const got = [];
    for (let batch = 0; batch < 3; batch++) {
      const rows = Array.from({ length: 100 }, (_, i) => ({ authorId: ursula.id, title: `book ${batch * 100 + i}` }));
      got.push(...await db.insert(books).values(rows).returning());
    }
    const table = await db.execute(sql`SELECT id::text || ' ' || title AS book FROM books ORDER BY id`);
    Object.assign(out, {
      books: got.map((b) => `${b.id} ${b.title}`),
      book_types: [...new Set(got.map((b) => typeof b.id))],
      book_table: table.rows.map((b) => b.book),
    });
  } catch (e) {
    out.books_error = `${e.cause?.code ?? e.code} ${e.cause?.message ?? e.message}`;
  }
  console.log(JSON.stringify(out));
  await pool.end();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
