// t/076_orms.pl's TypeORM data source, on the server libpq's PG* variables
// name, with the entities of shop.js as MODEL says (default: declared);
// the CLI's -d (migration:generate) takes it as it is.
const { DataSource } = require('typeorm');
const { entities } = require('./shop');

module.exports = new DataSource({
  type: 'postgres',
  host: process.env.PGHOST,
  port: Number(process.env.PGPORT),
  username: process.env.PGUSER,
  database: process.env.PGDATABASE,
  entities: entities(process.env.MODEL || 'declared'),
  extra: { options: '-c uniqueid.serial_normalization=snowflake' },
  parseInt8: process.env.PARSE_INT8 === 'yes',
});
