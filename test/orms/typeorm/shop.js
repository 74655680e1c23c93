// t/076_orms.pl's TypeORM entities (EntitySchema, the decorators' plain
// JavaScript form), keyed as MODEL says:
//   generated  the keys TypeORM makes: authors' a @PrimaryGeneratedColumn
//              (BIGSERIAL), books' one with 'identity'
//   declared   the declaration doc/orms.md gives: a bigint primary key
//              whose database default is next_snowflake()
const { EntitySchema } = require('typeorm');

const generated = {
  authors: { type: 'bigint', primary: true, generated: 'increment' },
  books: { type: 'bigint', primary: true, generated: 'identity' },
};
const declared = {
  id: { type: 'bigint', primary: true, default: () => 'next_snowflake()' },
};

function entities(model) {
  const key = (table) => (model === 'generated' ? generated[table] : declared.id);
  const Author = new EntitySchema({
    name: 'Author',
    tableName: 'authors',
    columns: { id: key('authors'), name: { type: 'text' } },
  });
  const Book = new EntitySchema({
    name: 'Book',
    tableName: 'books',
    columns: { id: key('books'), title: { type: 'text' } },
    relations: {
      author: { type: 'many-to-one', target: 'Author', joinColumn: { name: 'author_id' }, nullable: false },
    },
  });
  return [Author, Book];
}

module.exports = { entities };
