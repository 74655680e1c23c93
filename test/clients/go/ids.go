// Every uniqueid type through pgx (v5), in text and in binary.
//
// Inserts rows into the table ids (t/075_clients.pl makes it: one column
// per type, each with its generator as default, and a serial n), reads them
// back, and passes each ID back as a query parameter, first in text (what
// pgx does out of the box with a type it does not know), then in binary
// (on a connection with the types of doc/clients.md, copied below,
// registered).  Every value is compared with what the server says of the
// row: the ID's text form (col::text) and id_time(col), and for binary its
// natural value (col::bigint, col::bytea, the UUID, the typeid's prefix and
// UUID).  Connects with libpq's environment (PGHOST, PGPORT, PGUSER,
// PGDATABASE); prints a TAP line per type and format, and exits 1 if any is
// "not ok".
package main

import (
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// doc/clients.md: pgx, binary
// registerUniqueid makes conn read and write uniqueid's types in binary: an
// 8-byte ID as an int64, the others as []byte (a typeid: its prefix, then
// its UUID's 16 bytes); uuid needs nothing.
func registerUniqueid(ctx context.Context, conn *pgx.Conn) error {
	for _, t := range []struct {
		name  string
		codec pgtype.Codec
	}{
		{"shardid", pgtype.Int8Codec{}}, {"snowflake", pgtype.Int8Codec{}}, {"sonyflake", pgtype.Int8Codec{}},
		{"shortid", pgtype.Int8Codec{}}, {"spreadid", pgtype.Int8Codec{}},
		{"sno", pgtype.ByteaCodec{}}, {"objectid", pgtype.ByteaCodec{}}, {"ulid", pgtype.ByteaCodec{}},
		{"ksuid", pgtype.ByteaCodec{}}, {"rsxid", pgtype.ByteaCodec{}}, {"typeid", pgtype.ByteaCodec{}},
	} {
		var oid uint32
		if err := conn.QueryRow(ctx, "SELECT to_regtype($1)::oid", t.name).Scan(&oid); err != nil {
			return err
		}
		conn.TypeMap().RegisterType(&pgtype.Type{Name: t.name, OID: oid, Codec: t.codec})
	}
	return nil
}

// end of doc/clients.md

// the columns of ids (named after their types) and how each is read in binary
var types = []struct{ name, kind string }{
	{"shardid", "int64"}, {"snowflake", "int64"}, {"sonyflake", "int64"}, {"shortid", "int64"},
	{"spreadid", "int64"}, {"sno", "bytes"}, {"objectid", "bytes"}, {"uuid", "uuid"},
	{"ulid", "bytes"}, {"ksuid", "bytes"}, {"rsxid", "bytes"}, {"typeid", "typeid"},
}

const rows = 3

// SQL's natural value of a column, as text, to compare a binary read with
func natural(kind, t string) string {
	switch kind {
	case "int64":
		return t + "::bigint::text"
	case "bytes":
		return "encode(" + t + "::bytea, 'hex')"
	case "typeid":
		return "typeid_prefix(" + t + ") || ' ' || " + t + "::uuid"
	}
	return t + "::text"
}

// a Go value to scan a column into, in text (a string) or binary (what the
// codecs above make)
func target(fmtName, kind string) any {
	if fmtName == "text" {
		return new(string)
	}
	switch kind {
	case "int64":
		return new(int64)
	case "uuid":
		return new(pgtype.UUID)
	}
	return new([]byte)
}

// a scanned value written as text or as natural() writes it
func show(kind string, v any) string {
	switch p := v.(type) {
	case *string:
		return *p
	case *int64:
		return fmt.Sprint(*p)
	case *pgtype.UUID:
		return uuidText(p.Bytes[:])
	case *[]byte:
		if kind == "typeid" {
			b := *p
			return string(b[:len(b)-16]) + " " + uuidText(b[len(b)-16:])
		}
		return hex.EncodeToString(*p)
	}
	return fmt.Sprintf("%T", v)
}

// the usual text of 16 bytes of a UUID
func uuidText(b []byte) string {
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

type sqlSays struct {
	text, nat string
	time      time.Time
}

// What the server says of row n, per column.
func truth(ctx context.Context, conn *pgx.Conn, n int32) (map[string]sqlSays, error) {
	q := "SELECT "
	for i, t := range types {
		if i > 0 {
			q += ", "
		}
		q += t.name + "::text, id_time(" + t.name + "), " + natural(t.kind, t.name)
	}
	vals := make([]sqlSays, len(types))
	dest := []any{}
	for i := range vals {
		dest = append(dest, &vals[i].text, &vals[i].time, &vals[i].nat)
	}
	if err := conn.QueryRow(ctx, q+" FROM ids WHERE n = $1", n).Scan(dest...); err != nil {
		return nil, err
	}
	m := map[string]sqlSays{}
	for i, t := range types {
		m[t.name] = vals[i]
	}
	return m, nil
}

// check inserts rows rows through conn in fmtName and checks every ID
// against what plain says; returns the failures by type.
func check(ctx context.Context, plain, conn *pgx.Conn, fmtName string) (map[string]string, error) {
	failed := map[string]string{}
	fail := func(t, msg string) {
		if failed[t] == "" {
			failed[t] = msg
		}
	}
	wantFormat := int16(pgx.TextFormatCode)
	if fmtName == "binary" {
		wantFormat = pgx.BinaryFormatCode
	}
	for i := 0; i < rows; i++ {
		var n int32
		dest := []any{&n}
		for _, t := range types {
			dest = append(dest, target(fmtName, t.kind))
		}
		r, err := conn.Query(ctx, "INSERT INTO ids DEFAULT VALUES RETURNING *")
		if err != nil {
			return nil, err
		}
		if !r.Next() {
			r.Close()
			return nil, fmt.Errorf("INSERT returned no row: %v", r.Err())
		}
		formats := map[string]int16{}
		for _, f := range r.FieldDescriptions() {
			formats[f.Name] = f.Format
		}
		err = r.Scan(dest...)
		r.Close()
		if err != nil {
			return nil, err
		}
		sql, err := truth(ctx, plain, n)
		if err != nil {
			return nil, err
		}
		for k, t := range types {
			want := sql[t.name]
			// (pgx reads uuid in binary even out of the box)
			if formats[t.name] != wantFormat && t.kind != "uuid" {
				fail(t.name, fmt.Sprintf("row %d: read in format %d", n, formats[t.name]))
				continue
			}
			got := show(t.kind, dest[k+1])
			expected := want.text
			if fmtName == "binary" {
				expected = want.nat
			}
			if got != expected {
				fail(t.name, fmt.Sprintf("row %d: read %q, SQL says %q", n, got, expected))
				continue
			}
			// the value as read: a string, or the int64, []byte or UUID
			param := dest[k+1]
			found := []sqlSays{}
			fr, err := conn.Query(ctx, "SELECT "+t.name+"::text, id_time("+t.name+") FROM ids WHERE "+t.name+" = $1", param)
			if err != nil {
				fail(t.name, fmt.Sprintf("row %d: %s = $1 with %s: %v", n, t.name, got, err))
				continue
			}
			for fr.Next() {
				var s sqlSays
				if err := fr.Scan(&s.text, &s.time); err != nil {
					fail(t.name, err.Error())
				}
				found = append(found, s)
			}
			fr.Close()
			if len(found) != 1 || found[0].text != want.text || !found[0].time.Equal(want.time) {
				fail(t.name, fmt.Sprintf("row %d: %s = $1 with %s found %v, not [%s %v]", n, t.name, got, found, want.text, want.time))
			}
		}
	}
	return failed, nil
}

func run() (bool, error) {
	ctx := context.Background()
	plain, err := pgx.Connect(ctx, "")
	if err != nil {
		return false, err
	}
	defer plain.Close(ctx)
	fmt.Printf("# pgx v5 (Go %s), PostgreSQL %s\n", runtime.Version(), plain.PgConn().ParameterStatus("server_version"))
	textFailed, err := check(ctx, plain, plain, "text")
	if err != nil {
		return false, err
	}
	binary, err := pgx.Connect(ctx, "")
	if err != nil {
		return false, err
	}
	defer binary.Close(ctx)
	if err := registerUniqueid(ctx, binary); err != nil {
		return false, err
	}
	binaryFailed, err := check(ctx, plain, binary, "binary")
	if err != nil {
		return false, err
	}
	i := 0
	ok := true
	for _, r := range []struct {
		fmtName string
		failed  map[string]string
	}{{"text", textFailed}, {"binary", binaryFailed}} {
		for _, t := range types {
			i++
			if why := r.failed[t.name]; why != "" {
				fmt.Printf("not ok %d - %s, %s: %s\n", i, t.name, r.fmtName, why)
				ok = false
			} else {
				fmt.Printf("ok %d - %s, %s: %d rows read, and found by parameter\n", i, t.name, r.fmtName, rows)
			}
		}
	}
	fmt.Printf("1..%d\n", i)
	return ok, nil
}

func main() {
	ok, err := run()
	if err != nil {
		fmt.Printf("not ok - %v\n", err)
		os.Exit(1)
	}
	if !ok {
		os.Exit(1)
	}
}
