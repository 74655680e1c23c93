// t/076_orms.pl's Drizzle tables, keyed as MODEL says:
//   generated  the keys drizzle-kit makes: authors' bigserial, books'
//              generatedByDefaultAsIdentity() (which drizzle-kit writes
//              with every sequence option, each its default)
//   declared   the declaration doc/orms.md gives: a bigint primary key
//              whose database default is next_snowflake()
// MODE is the keys' JavaScript type (default bigint, exact).
const { pgTable, bigserial, bigint, text } = require('drizzle-orm/pg-core');
const { sql } = require('drizzle-orm');

const model = process.env.MODEL || 'declared';
const mode = process.env.MODE || 'bigint';

// the declaration doc/orms.md gives
const declared = () =>
  bigint('id', { mode: 'bigint' }).primaryKey().default(sql`next_snowflake()`);

function key(table) {
  if (model === 'generated') {
    return table === 'authors'
      ? bigserial('id', { mode }).primaryKey()
      : bigint('id', { mode }).primaryKey().generatedByDefaultAsIdentity();
  }
  return mode === 'bigint' ? declared() : bigint('id', { mode }).primaryKey().default(sql`next_snowflake()`);
}

const authors = pgTable('authors', { id: key('authors'), name: text('name').notNull() });
const books = pgTable('books', {
  id: key('books'),
  authorId: bigint('author_id', { mode }).notNull().references(() => authors.id),
  title: text('title').notNull(),
});

module.exports = { authors, books };
