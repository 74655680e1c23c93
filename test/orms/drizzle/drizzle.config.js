// t/076_orms.pl's drizzle-kit configuration: schema.js on the server
// libpq's PG* variables name, with the setting in the connection's options
module.exports = {
  dialect: 'postgresql',
  schema: './schema.js',
  out: process.env.DRIZZLE_OUT || './drizzle',
  dbCredentials: {
    url: `postgresql://${process.env.PGUSER}@localhost/${process.env.PGDATABASE}`
      + `?host=${process.env.PGHOST}&port=${process.env.PGPORT}`
      + '&options=-c%20uniqueid.serial_normalization%3Dsnowflake',
  },
};
