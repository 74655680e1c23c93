//! Every uniqueid type through the postgres crate, in text and in binary.
//!
//! Inserts rows into the table ids (t/075_clients.pl makes it: one column
//! per type, each with its generator as default, and a serial n), reads
//! them back, and passes each ID back as a query parameter, first in text
//! (simple_query's rows, and a text parameter cast in SQL: the crate sends
//! every parameter in binary, as the Rust type the server's type accepts),
//! then in binary (with the types of doc/clients.md, copied below).  Every
//! value is compared with what the server says of the row: the ID's text
//! form (col::text) and id_time(col), and for binary its natural value
//! (col::bigint, col::bytea, the UUID, the typeid's prefix and UUID).
//! Connects with libpq's environment (PGHOST, PGPORT, PGUSER, PGDATABASE);
//! prints a TAP line per type and format, and exits 1 if any is "not ok".
use std::collections::HashMap;
use std::env;
use std::process::exit;
use std::time::SystemTime;

use postgres::{Client, NoTls, Row, SimpleQueryMessage};

// doc/clients.md: rust-postgres, binary
use std::error::Error;

use bytes::BytesMut;
use postgres::types::{to_sql_checked, FromSql, IsNull, ToSql, Type};

/// An 8-byte ID (shardid, snowflake, sonyflake, shortid, spreadid): its int64.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Id64(pub i64);

/// The bytes of a sno, objectid, ulid, ksuid or rsxid.
#[derive(Debug, Clone, PartialEq)]
pub struct IdBytes(pub Vec<u8>);

/// A typeid: its prefix and its UUID.
#[derive(Debug, Clone, PartialEq)]
pub struct Typeid {
    pub prefix: String,
    pub uuid: uuid::Uuid,
}

type BoxError = Box<dyn Error + Sync + Send>;

impl<'a> FromSql<'a> for Id64 {
    fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
        Ok(Id64(i64::from_be_bytes(raw.try_into()?)))
    }
    fn accepts(ty: &Type) -> bool {
        matches!(
            ty.name(),
            "shardid" | "snowflake" | "sonyflake" | "shortid" | "spreadid"
        )
    }
}

impl ToSql for Id64 {
    fn to_sql(&self, _: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        out.extend_from_slice(&self.0.to_be_bytes());
        Ok(IsNull::No)
    }
    fn accepts(ty: &Type) -> bool {
        <Id64 as FromSql>::accepts(ty)
    }
    to_sql_checked!();
}

impl<'a> FromSql<'a> for IdBytes {
    fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
        Ok(IdBytes(raw.to_vec()))
    }
    fn accepts(ty: &Type) -> bool {
        matches!(ty.name(), "sno" | "objectid" | "ulid" | "ksuid" | "rsxid")
    }
}

impl ToSql for IdBytes {
    fn to_sql(&self, _: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        out.extend_from_slice(&self.0);
        Ok(IsNull::No)
    }
    fn accepts(ty: &Type) -> bool {
        <IdBytes as FromSql>::accepts(ty)
    }
    to_sql_checked!();
}

impl<'a> FromSql<'a> for Typeid {
    fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
        let (prefix, uuid) = raw.split_at(
            raw.len()
                .checked_sub(16)
                .ok_or("a typeid is at least 16 bytes")?,
        );
        Ok(Typeid {
            prefix: String::from_utf8(prefix.to_vec())?,
            uuid: uuid::Uuid::from_slice(uuid)?,
        })
    }
    fn accepts(ty: &Type) -> bool {
        ty.name() == "typeid"
    }
}

impl ToSql for Typeid {
    fn to_sql(&self, _: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        out.extend_from_slice(self.prefix.as_bytes());
        out.extend_from_slice(self.uuid.as_bytes());
        Ok(IsNull::No)
    }
    fn accepts(ty: &Type) -> bool {
        <Typeid as FromSql>::accepts(ty)
    }
    to_sql_checked!();
}
// end of doc/clients.md

/// the columns of ids (named after their types) and how each is read in binary
const TYPES: [(&str, &str); 12] = [
    ("shardid", "int64"),
    ("snowflake", "int64"),
    ("sonyflake", "int64"),
    ("shortid", "int64"),
    ("spreadid", "int64"),
    ("sno", "bytes"),
    ("objectid", "bytes"),
    ("uuid", "uuid"),
    ("ulid", "bytes"),
    ("ksuid", "bytes"),
    ("rsxid", "bytes"),
    ("typeid", "typeid"),
];
const ROWS: usize = 3;

/// SQL's natural value of a column, as text, to compare a binary read with
fn natural(kind: &str, t: &str) -> String {
    match kind {
        "int64" => format!("{t}::bigint::text"),
        "bytes" => format!("encode({t}::bytea, 'hex')"),
        "typeid" => format!("typeid_prefix({t}) || ' ' || {t}::uuid"),
        _ => format!("{t}::text"),
    }
}

/// A value read in binary, written as natural() writes it, and as a parameter.
enum Value {
    Id64(Id64),
    IdBytes(IdBytes),
    Uuid(uuid::Uuid),
    Typeid(Typeid),
}

impl Value {
    fn read(row: &Row, t: &str, kind: &str) -> Result<Value, postgres::Error> {
        Ok(match kind {
            "int64" => Value::Id64(row.try_get(t)?),
            "bytes" => Value::IdBytes(row.try_get(t)?),
            "uuid" => Value::Uuid(row.try_get(t)?),
            _ => Value::Typeid(row.try_get(t)?),
        })
    }
    fn natural(&self) -> String {
        match self {
            Value::Id64(v) => v.0.to_string(),
            Value::IdBytes(v) => v.0.iter().map(|b| format!("{b:02x}")).collect(),
            Value::Uuid(v) => v.to_string(),
            Value::Typeid(v) => format!("{} {}", v.prefix, v.uuid),
        }
    }
    fn param(&self) -> &(dyn ToSql + Sync) {
        match self {
            Value::Id64(v) => v,
            Value::IdBytes(v) => v,
            Value::Uuid(v) => v,
            Value::Typeid(v) => v,
        }
    }
}

/// What the server says of a column of a row: text, id_time, natural.
struct Says {
    text: String,
    time: SystemTime,
    nat: String,
}

fn truth(client: &mut Client, n: i32) -> Result<HashMap<&'static str, Says>, postgres::Error> {
    let cols: Vec<String> = TYPES
        .iter()
        .map(|(t, k)| format!("{t}::text, id_time({t}), {}", natural(k, t)))
        .collect();
    let row = client.query_one(
        &format!("SELECT {} FROM ids WHERE n = $1", cols.join(", ")),
        &[&n],
    )?;
    let mut m = HashMap::new();
    for (i, (t, _)) in TYPES.iter().enumerate() {
        m.insert(
            *t,
            Says {
                text: row.try_get(3 * i)?,
                time: row.try_get(3 * i + 1)?,
                nat: row.try_get(3 * i + 2)?,
            },
        );
    }
    Ok(m)
}

/// None when the query (WHERE t = $1) with param finds exactly the row that
/// says says; else what it found.
fn find(
    client: &mut Client,
    query: &str,
    param: &(dyn ToSql + Sync),
    says: &Says,
) -> Option<String> {
    match client.query(query, &[param]) {
        Err(e) => Some(format!("an error: {e}")),
        Ok(rows) => {
            let found: Vec<(String, SystemTime)> = rows
                .iter()
                .map(|r| (r.get::<_, String>(0), r.get::<_, SystemTime>(1)))
                .collect();
            if found.len() == 1 && found[0].0 == says.text && found[0].1 == says.time {
                None
            } else {
                Some(format!(
                    "{found:?}, not [({:?}, {:?})]",
                    says.text, says.time
                ))
            }
        }
    }
}

/// Inserts ROWS rows in fmt and checks every ID; the failures by type.
fn check(client: &mut Client, fmt: &str) -> Result<HashMap<&'static str, String>, postgres::Error> {
    let mut failed: HashMap<&'static str, String> = HashMap::new();
    for _ in 0..ROWS {
        // text: simple_query's rows; binary: query's
        let (n, text_row, binary_row) = if fmt == "text" {
            let row = client
                .simple_query("INSERT INTO ids DEFAULT VALUES RETURNING *")?
                .into_iter()
                .find_map(|m| {
                    if let SimpleQueryMessage::Row(r) = m {
                        Some(r)
                    } else {
                        None
                    }
                })
                .expect("INSERT ... RETURNING returns a row");
            let n: i32 = row.get("n").unwrap_or_default().parse().unwrap_or_default();
            let texts: HashMap<&str, String> = TYPES
                .iter()
                .map(|(t, _)| (*t, row.get(*t).unwrap_or_default().to_string()))
                .collect();
            (n, Some(texts), None)
        } else {
            let row = client.query_one("INSERT INTO ids DEFAULT VALUES RETURNING *", &[])?;
            (row.get::<_, i32>("n"), None, Some(row))
        };
        let sql = truth(client, n)?;
        for (t, kind) in TYPES {
            let says = &sql[t];
            if failed.contains_key(t) {
                continue;
            }
            let why = if let Some(texts) = &text_row {
                let got = &texts[t];
                if *got != says.text {
                    Some(format!("row {n}: read {got:?}, SQL says {:?}", says.text))
                } else {
                    let q = format!(
                        "SELECT {t}::text, id_time({t}) FROM ids WHERE {t} = $1::text::{t}"
                    );
                    find(client, &q, got, says)
                        .map(|f| format!("row {n}: {t} = $1::text::{t} with {got:?} found {f}"))
                }
            } else {
                match Value::read(binary_row.as_ref().unwrap(), t, kind) {
                    Err(e) => Some(format!("row {n}: {e}")),
                    Ok(v) if v.natural() != says.nat => Some(format!(
                        "row {n}: read {:?}, SQL says {:?}",
                        v.natural(),
                        says.nat
                    )),
                    Ok(v) => {
                        let q = format!("SELECT {t}::text, id_time({t}) FROM ids WHERE {t} = $1");
                        find(client, &q, v.param(), says)
                            .map(|f| format!("row {n}: {t} = $1 with {} found {f}", v.natural()))
                    }
                }
            };
            if let Some(why) = why {
                failed.insert(t, why);
            }
        }
    }
    Ok(failed)
}

fn run() -> Result<bool, postgres::Error> {
    let var = |name: &str, default: &str| env::var(name).unwrap_or_else(|_| default.to_string());
    let mut client = Client::configure()
        .host(&var("PGHOST", "/var/run/postgresql"))
        .port(var("PGPORT", "5432").parse().unwrap_or(5432))
        .user(&var("PGUSER", "postgres"))
        .dbname(&var("PGDATABASE", "postgres"))
        .connect(NoTls)?;
    let version: String = client.query_one("SHOW server_version", &[])?.get(0);
    println!("# the postgres crate, PostgreSQL {version}");
    let results = [
        ("text", check(&mut client, "text")?),
        ("binary", check(&mut client, "binary")?),
    ];
    let mut i = 0;
    let mut ok = true;
    for (fmt, failed) in &results {
        for (t, _) in TYPES {
            i += 1;
            match failed.get(t) {
                Some(why) => {
                    println!("not ok {i} - {t}, {fmt}: {why}");
                    ok = false;
                }
                None => println!("ok {i} - {t}, {fmt}: {ROWS} rows read, and found by parameter"),
            }
        }
    }
    println!("1..{i}");
    Ok(ok)
}

fn main() {
    match run() {
        Ok(true) => {}
        Ok(false) => exit(1),
        Err(e) => {
            println!("not ok - {e}");
            exit(1);
        }
    }
}
