// Every uniqueid type through node-postgres, in text and as binary
// parameters.
//
// Inserts rows into the table ids (t/075_clients.pl makes it: one column
// per type, each with its generator as default, and a serial n), reads them
// back in text, and passes each ID back as a query parameter: in text (what
// node-postgres does out of the box), then in binary (a Buffer, made by the
// lines of doc/clients.md, copied below, from the ID's natural value that
// SQL gives: col::bigint, col::bytea, the UUID, the typeid's prefix and
// UUID).  Every value is compared with what the server says of the row: the
// ID's text form (col::text) and id_time(col).  Results stay in text:
// node-postgres 8 decodes every field of a binary result as UTF-8 and back,
// which changes any byte sequence UTF-8 cannot carry (its issue 3495; the
// query option binary: true reads SELECT 1000::int4 as 1007).  Connects
// with libpq's environment (PGHOST, PGPORT, PGUSER, PGDATABASE); prints a
// TAP line per type and format, and exits 1 if any is "not ok".
'use strict'

const pg = require('pg')

// doc/clients.md: node-postgres, binary parameters
// A Buffer parameter is sent in binary, and the server takes its type from
// the query.  The binary forms of uniqueid's types: an 8-byte ID's int64
// (a BigInt here), the bytes of the others, and a typeid's prefix then its
// UUID's 16 bytes (its prefix and UUID in text here).
const toBinary = {
  int64: (n) => {
    const b = Buffer.alloc(8)
    b.writeBigInt64BE(n)
    return b
  },
  bytes: (b) => b,
  uuid: (u) => Buffer.from(u.replace(/-/g, ''), 'hex'),
  typeid: (prefix, uuid) => Buffer.concat([Buffer.from(prefix), toBinary.uuid(uuid)]),
}
// end of doc/clients.md

// the columns of ids (named after their types) and their binary forms
const kinds = {
  shardid: 'int64', snowflake: 'int64', sonyflake: 'int64', shortid: 'int64', spreadid: 'int64',
  sno: 'bytes', objectid: 'bytes', uuid: 'uuid', ulid: 'bytes', ksuid: 'bytes', rsxid: 'bytes',
  typeid: 'typeid',
}
const columns = Object.keys(kinds)
// SQL's natural value of a column, and the binary parameter made of it
const natural = {
  int64: [(t) => `${t}::bigint`, (v) => toBinary.int64(BigInt(v))],
  bytes: [(t) => `${t}::bytea`, (v) => toBinary.bytes(v)],
  uuid: [(t) => `${t}`, (v) => toBinary.uuid(v)],
  typeid: [(t) => `ARRAY[typeid_prefix(${t}), ${t}::uuid::text]`, ([prefix, uuid]) => toBinary.typeid(prefix, uuid)],
}
const ROWS = 3

// What the server says of row n: per column [text, id_time in ms, natural].
async function truth(client, n) {
  const cols = columns.map((t) => `${t}::text, id_time(${t}), ${natural[kinds[t]][0](t)}`).join(', ')
  const { rows } = await client.query({ text: `SELECT ${cols} FROM ids WHERE n = $1`, values: [n], rowMode: 'array' })
  const r = rows[0]
  return Object.fromEntries(columns.map((t, i) => [t, [r[3 * i], r[3 * i + 1].getTime(), r[3 * i + 2]]]))
}

// Inserts ROWS rows and checks every ID with parameters in fmt; returns the
// failures by type.
async function check(client, fmt) {
  const failed = {}
  const fail = (t, msg) => { failed[t] = failed[t] || msg }
  for (let i = 0; i < ROWS; i++) {
    const row = (await client.query('INSERT INTO ids DEFAULT VALUES RETURNING *')).rows[0]
    const sql = await truth(client, row.n)
    for (const t of columns) {
      const [text, time, nat] = sql[t]
      if (row[t] !== text) {
        fail(t, `row ${row.n}: read ${JSON.stringify(row[t])}, SQL says ${JSON.stringify(text)}`)
        continue
      }
      const param = fmt === 'text' ? row[t] : natural[kinds[t]][1](nat)
      let found
      try {
        found = (await client.query({
          text: `SELECT ${t}::text, id_time(${t}) FROM ids WHERE ${t} = $1`, values: [param], rowMode: 'array',
        })).rows.map(([s, ts]) => [s, ts.getTime()])
      } catch (e) {
        found = `an error: ${e.message}`
      }
      if (JSON.stringify(found) !== JSON.stringify([[text, time]])) {
        fail(t, `row ${row.n}: ${t} = $1 with ${fmt === 'text' ? param : param.toString('hex')} found ` +
          `${JSON.stringify(found)}, not ${JSON.stringify([[text, time]])}`)
      }
    }
  }
  return failed
}

async function main() {
  const client = new pg.Client()
  await client.connect()
  const version = (await client.query('SHOW server_version')).rows[0].server_version
  console.log(`# node-postgres ${require('pg/package.json').version} (node ${process.version}), PostgreSQL ${version}`)
  const results = [['text', await check(client, 'text')], ['binary', await check(client, 'binary')]]
  await client.end()
  let i = 0
  let ok = true
  for (const [fmt, failed] of results) {
    for (const t of columns) {
      i++
      if (failed[t]) {
        console.log(`not ok ${i} - ${t}, ${fmt}: ${failed[t]}`)
        ok = false
      } else {
        console.log(`ok ${i} - ${t}, ${fmt}: ${ROWS} rows read in text, and found by ${fmt} parameter`)
      }
    }
  }
  console.log(`1..${i}`)
  return ok ? 0 : 1
}

main().then((rc) => process.exit(rc), (e) => {
  console.log(`not ok - ${e.stack}`)
  process.exit(1)
})
