// Every uniqueid type through the PostgreSQL JDBC driver, in text and in
// binary.
//
// Inserts rows into the table ids (t/075_clients.pl makes it: one column
// per type, each with its generator as default, and a serial n), reads them
// back, and passes each ID back as a query parameter, first in text (what
// pgjdbc does out of the box: getString, and setObject with Types.OTHER),
// then in binary (with the class and the connection of doc/clients.md,
// copied below).  Every value is compared with what the server says of the
// row: the ID's text form (col::text) and id_time(col), and for binary its
// natural value (col::bigint, col::bytea, the UUID, the typeid's prefix and
// UUID).  Connects over TCP (pgjdbc has no Unix sockets of its own) to
// 127.0.0.1, or PGHOST when it is not a directory, with PGPORT, PGUSER and
// PGDATABASE; prints a TAP line per type and format, and exits 1 if any is
// "not ok".
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.UUID;

import org.postgresql.PGConnection;
import org.postgresql.util.PGBinaryObject;
import org.postgresql.util.PGobject;

public class Ids {
    // the columns of ids (named after their types) and how each is read in binary
    static final Map<String, String> KINDS = new LinkedHashMap<>();
    static {
        for (String t : new String[] {"shardid", "snowflake", "sonyflake", "shortid", "spreadid"})
            KINDS.put(t, "int64");
        KINDS.put("sno", "bytes");
        KINDS.put("objectid", "bytes");
        KINDS.put("uuid", "uuid");
        for (String t : new String[] {"ulid", "ksuid", "rsxid"})
            KINDS.put(t, "bytes");
        KINDS.put("typeid", "typeid");
    }
    static final int ROWS = 3;

    // SQL's natural value of a column, as text, to compare a binary read with
    static String natural(String kind, String t) {
        switch (kind) {
            case "int64": return t + "::bigint::text";
            case "bytes": return "encode(" + t + "::bytea, 'hex')";
            case "typeid": return "typeid_prefix(" + t + ") || ' ' || " + t + "::uuid";
            default: return t + "::text";
        }
    }

    // A value read in binary as text, written as natural() writes it (the
    // class checked: with binary transfer off, its bytes are not set).
    static String naturalText(String kind, Object v) {
        if (kind.equals("uuid"))
            return v instanceof UUID ? v.toString() : "a " + v.getClass().getName() + " (not a UUID)";
        if (!(v instanceof UniqueidBinary) || ((UniqueidBinary) v).bytes == null)
            return "a " + v.getClass().getName() + " without bytes (not a binary UniqueidBinary)";
        UniqueidBinary b = (UniqueidBinary) v;
        switch (kind) {
            case "int64": return Long.toString(b.toLong());
            case "bytes": return HexFormat.of().formatHex(b.bytes);
            default: return b.typeidPrefix() + " " + b.typeidUuid();
        }
    }

    // What the server says of row n: per column {text, id_time, natural}.
    static Map<String, Object[]> truth(Connection conn, int n) throws SQLException {
        List<String> cols = new ArrayList<>();
        KINDS.forEach((t, k) -> cols.add(t + "::text, id_time(" + t + "), " + natural(k, t)));
        Map<String, Object[]> m = new LinkedHashMap<>();
        try (PreparedStatement s = conn.prepareStatement("SELECT " + String.join(", ", cols) + " FROM ids WHERE n = ?")) {
            s.setInt(1, n);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                int i = 0;
                for (String t : KINDS.keySet()) {
                    m.put(t, new Object[] {r.getString(3 * i + 1), r.getObject(3 * i + 2, OffsetDateTime.class), r.getString(3 * i + 3)});
                    i++;
                }
            }
        }
        return m;
    }

    // Inserts ROWS rows through conn in fmt and checks every ID against what
    // plain says; returns the failures by type.
    static Map<String, String> check(Connection plain, Connection conn, String fmt) throws SQLException {
        Map<String, String> failed = new LinkedHashMap<>();
        for (int i = 0; i < ROWS; i++) {
            try (PreparedStatement ins = conn.prepareStatement("INSERT INTO ids DEFAULT VALUES RETURNING *");
                 ResultSet row = ins.executeQuery()) {
                row.next();
                int n = row.getInt("n");
                Map<String, Object[]> sql = truth(plain, n);
                for (Map.Entry<String, String> e : KINDS.entrySet()) {
                    String t = e.getKey();
                    Object[] want = sql.get(t);
                    Object value = fmt.equals("text") ? row.getString(t) : row.getObject(t);
                    String got = fmt.equals("text") ? (String) value : naturalText(e.getValue(), value);
                    String expected = (String) want[fmt.equals("text") ? 0 : 2];
                    if (!Objects.equals(got, expected)) {
                        failed.putIfAbsent(t, "row " + n + ": read " + got + ", SQL says " + expected);
                        continue;
                    }
                    String found = find(conn, t, fmt, value, (String) want[0], (OffsetDateTime) want[1]);
                    if (found != null)
                        failed.putIfAbsent(t, "row " + n + ": " + t + " = ? with " + got + " found " + found);
                }
            }
        }
        return failed;
    }

    // null when WHERE t = ? with value (text: a String sent as Types.OTHER,
    // binary: as read) finds exactly one row of that text and id_time; else
    // what it found.
    static String find(Connection conn, String t, String fmt, Object value, String text, OffsetDateTime time) throws SQLException {
        try (PreparedStatement s = conn.prepareStatement("SELECT " + t + "::text, id_time(" + t + ") FROM ids WHERE " + t + " = ?")) {
            if (fmt.equals("text"))
                s.setObject(1, value, Types.OTHER);
            else
                s.setObject(1, value);
            List<String> rows = new ArrayList<>();
            boolean same = true;
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    OffsetDateTime at = r.getObject(2, OffsetDateTime.class);
                    rows.add(r.getString(1) + " at " + at);
                    same &= text.equals(r.getString(1)) && time.isEqual(at);
                }
            }
            return rows.size() == 1 && same ? null : rows + ", not [" + text + " at " + time + "]";
        } catch (SQLException e) {
            return "an error: " + e.getMessage();
        }
    }

    // doc/clients.md: JDBC, binary
    // uniqueid's types (uuid, which pgjdbc knows, aside)
    static final String[] UNIQUEID_TYPES = {"shardid", "snowflake", "sonyflake", "shortid", "spreadid",
        "sno", "objectid", "ulid", "ksuid", "rsxid", "typeid"};

    // A connection that reads and writes uniqueid's types in binary, as
    // UniqueidBinary: addDataType with a PGBinaryObject class turns binary
    // transfer on for the type, and prepareThreshold=-1 from the first
    // execution of a statement (else pgjdbc reads its first four in text).
    static Connection connectBinary(String url, Properties props) throws SQLException {
        Properties p = new Properties();
        p.putAll(props);
        p.setProperty("prepareThreshold", "-1");
        Connection conn = DriverManager.getConnection(url, p);
        for (String t : UNIQUEID_TYPES)
            conn.unwrap(PGConnection.class).addDataType(t, UniqueidBinary.class);
        return conn;
    }
    // end of doc/clients.md

    public static void main(String[] args) throws Exception {
        String host = System.getenv().getOrDefault("PGHOST", "");
        if (host.isEmpty() || host.startsWith("/"))
            host = "127.0.0.1";
        String url = "jdbc:postgresql://" + host + ":" + System.getenv().getOrDefault("PGPORT", "5432") + "/"
            + System.getenv().getOrDefault("PGDATABASE", "postgres");
        Properties props = new Properties();
        props.setProperty("user", System.getenv().getOrDefault("PGUSER", "postgres"));
        List<Map.Entry<String, Map<String, String>>> results = new ArrayList<>();
        try (Connection plain = DriverManager.getConnection(url, props)) {
            System.out.println("# pgjdbc " + plain.getMetaData().getDriverVersion() + " (Java " + System.getProperty("java.version")
                + "), PostgreSQL " + plain.getMetaData().getDatabaseProductVersion());
            results.add(Map.entry("text", check(plain, plain, "text")));
            try (Connection binary = connectBinary(url, props)) {
                results.add(Map.entry("binary", check(plain, binary, "binary")));
            }
        }
        int i = 0;
        boolean ok = true;
        for (Map.Entry<String, Map<String, String>> r : results) {
            for (String t : KINDS.keySet()) {
                i++;
                String why = r.getValue().get(t);
                if (why != null) {
                    System.out.println("not ok " + i + " - " + t + ", " + r.getKey() + ": " + why);
                    ok = false;
                } else {
                    System.out.println("ok " + i + " - " + t + ", " + r.getKey() + ": " + ROWS + " rows read, and found by parameter");
                }
            }
        }
        System.out.println("1.." + i);
        System.exit(ok ? 0 : 1);
    }

    // doc/clients.md: JDBC, UniqueidBinary
    // A uniqueid value in binary: what its type's send function writes.
    // pgjdbc reads the types given to addDataType as this class, and sends
    // it back in binary.
    public static class UniqueidBinary extends PGobject implements PGBinaryObject {
        byte[] bytes;

        public void setByteValue(byte[] value, int offset) {
            bytes = Arrays.copyOfRange(value, offset, value.length);
        }

        public int lengthInBytes() {
            return bytes.length;
        }

        public void toBytes(byte[] target, int offset) {
            System.arraycopy(bytes, 0, target, offset, bytes.length);
        }

        // an 8-byte ID (shardid, snowflake, sonyflake, shortid, spreadid) as its int64
        long toLong() {
            return ByteBuffer.wrap(bytes).getLong();
        }

        // a typeid's prefix and UUID (its last 16 bytes)
        String typeidPrefix() {
            return new String(bytes, 0, bytes.length - 16, StandardCharsets.US_ASCII);
        }

        UUID typeidUuid() {
            ByteBuffer b = ByteBuffer.wrap(bytes, bytes.length - 16, 16);
            return new UUID(b.getLong(), b.getLong());
        }
    }
    // end of doc/clients.md
}
