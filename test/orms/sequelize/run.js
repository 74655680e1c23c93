// t/076_orms.pl's Sequelize side: sync() makes the tables of shop.js,
// then an author is created (returning its key) and 300 books with
// bulkCreate in batches of 100 (returning theirs); prints as JSON the SQL
// sync() ran, the keys Sequelize got back (as it gives them: int8 as a
// string, which is exact) with each book's title, the same read from the
// table, the ALTERs a
// later sync({ alter: true }) runs, and what describeTable reads of the
// key.
const { sequelize, Author, Book } = require('./shop');

async function main() {
  const ddl = [];
  await sequelize.sync({ logging: (sql) => ddl.push(sql) });
  const author = await Author.create({ name: 'Octavia' });
  const books = [];
  for (let batch = 0; batch < 3; batch++) {
    const rows = Array.from({ length: 100 }, (_, i) => ({ author_id: author.id, title: `book ${batch * 100 + i}` }));
    books.push(...await Book.bulkCreate(rows, { returning: ['id'] }));
  }
  const [table] = await sequelize.query("SELECT id::text || ' ' || title AS book FROM books ORDER BY id");
  // a later sync({ alter: true }) compares the models with the tables
  const altered = [];
  await sequelize.sync({ alter: true, logging: (sql) => altered.push(sql) });
  const described = await sequelize.getQueryInterface().describeTable('authors');
  console.log(JSON.stringify({
    sequelize: require('sequelize/package.json').version,
    ddl,
    author: author.id,
    author_type: typeof author.id,
    books: books.map((b) => `${b.id} ${b.title}`),
    book_types: [...new Set(books.map((b) => typeof b.id))],
    book_table: table.map((b) => b.book),
    altered: altered.filter((sql) => /ALTER TABLE/.test(sql)),
    described: described.id,
  }));
  await sequelize.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
