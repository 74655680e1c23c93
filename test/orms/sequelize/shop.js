// t/076_orms.pl's Sequelize models: keys as Sequelize makes them (BIGINT
// with autoIncrement: BIGSERIAL), one referencing the other, on the server
// libpq's PG* variables name, every connection with
// uniqueid.serial_normalization = snowflake.
const { DataTypes, Sequelize } = require('sequelize');

const sequelize = new Sequelize({
  dialect: 'postgres',
  host: process.env.PGHOST,
  port: Number(process.env.PGPORT),
  username: process.env.PGUSER,
  database: process.env.PGDATABASE,
  dialectOptions: { options: '-c uniqueid.serial_normalization=snowflake' },
  logging: false,
});

const Author = sequelize.define('Author', {
  id: { type: DataTypes.BIGINT, autoIncrement: true, primaryKey: true },
  name: { type: DataTypes.TEXT, allowNull: false },
}, { tableName: 'authors', timestamps: false });

const Book = sequelize.define('Book', {
  id: { type: DataTypes.BIGINT, autoIncrement: true, primaryKey: true },
  title: { type: DataTypes.TEXT, allowNull: false },
}, { tableName: 'books', timestamps: false });

Book.belongsTo(Author, { foreignKey: { name: 'author_id', allowNull: false } });

module.exports = { sequelize, Author, Book };
