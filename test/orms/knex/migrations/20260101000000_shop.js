// t/076_orms.pl's Knex migration: keys as Knex makes them (bigIncrements:
// bigserial primary key), one referencing the other.
exports.up = async (knex) => {
  await knex.schema.createTable('authors', (t) => {
    t.bigIncrements('id');
    t.text('name').notNullable();
  });
  await knex.schema.createTable('books', (t) => {
    t.bigIncrements('id');
    t.bigInteger('author_id').notNullable().references('id').inTable('authors');
    t.text('title').notNullable();
  });
};

exports.down = async (knex) => {
  await knex.schema.dropTable('books');
  await knex.schema.dropTable('authors');
};
