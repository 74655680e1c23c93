// t/076_orms.pl's TypeORM side: the data source of datasource.js (MODEL),
// synchronized RUNS times (argv[2], default 2); before each run, the
// statements it would run (the schema builder's log(), which
// migration:generate writes into a migration); a run that fails stops
// there, with its error.  Then, unless a run failed, an author saved
// (returning its key), another inserted with the key BIG (past 2^53, odd)
// and read back, and 300 books of the author read back saved in chunks of
// 100 (returning their keys; or the error that stopped them).  Prints as JSON what each run wanted and did, the keys TypeORM
// got back (as it gives them: int8 as a string, which is exact, or with
// PARSE_INT8=yes a number) with each book's title, and the same read from
// the table.
const fs = require('fs');
const ds = require('./datasource');

const BIG = '1152921504606846977';
// (typeorm's package.json is not among its exports)
const version = JSON.parse(fs.readFileSync(require.resolve('typeorm').replace(/(typeorm)\/.*$/, '$1/package.json'))).version;

async function main() {
  await ds.initialize();
  const runs = [];
  for (let i = 0; i < Number(process.argv[2] || 2); i++) {
    const pending = (await ds.driver.createSchemaBuilder().log()).upQueries.map((q) => q.query);
    try {
      await ds.synchronize();
      runs.push({ pending });
    } catch (e) {
      runs.push({ pending, error: `${e.code} ${e.message}` });
      break;
    }
  }
  const out = { typeorm: version, runs };
  if (!runs.some((r) => r.error)) {
    const author = await ds.getRepository('Author').save({ name: 'Octavia' });
    // a key past 2^53 with its lowest bit set, read back through TypeORM
    await ds.query(`INSERT INTO authors (id, name) VALUES (${BIG}, 'Ursula') ON CONFLICT DO NOTHING`);
    const ursula = await ds.getRepository('Author').findOneBy({ name: 'Ursula' });
    Object.assign(out, {
      author: String(author.id),
      author_type: typeof author.id,
      author_in_table: (await ds.query("SELECT id::text FROM authors WHERE name = 'Octavia' ORDER BY id DESC LIMIT 1"))[0].id,
      read_back: String(ursula.id),
    });
    const rows = Array.from({ length: 300 }, (_, i) => ({ author: { id: ursula.id }, title: `book ${i}` }));
    try {
      const books = await ds.getRepository('Book').save(rows, { chunk: 100 });
      const table = await ds.query("SELECT id::text || ' ' || title AS book FROM books ORDER BY id");
      Object.assign(out, {
        books: books.map((b) => `${b.id} ${b.title}`),
        book_types: [...new Set(books.map((b) => typeof b.id))],
        book_table: table.map((b) => b.book),
      });
    } catch (e) {
      out.books_error = `${e.code} ${e.message}`;
    }
  }
  console.log(JSON.stringify(out));
  await ds.destroy();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
