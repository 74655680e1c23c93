/*
 * rsxid.c - the 12-byte rsxid type (the xid of github.com/rs/xid, named so
 * because PostgreSQL's own xid, the transaction ID, is found first on every
 * search path): base32hex text, binary I/O, byte-order comparison with
 * abbreviated-key sort support, hashing, comparison with timestamptz, the
 * bytea casts, fields and constructor; and its generator next_rsxid(), on
 * the 64-bit engine (generator.h).
 *
 * Layout, most significant first: Unix seconds 32 . machine 24 . process 16
 * . counter 24.  The text is the 96 bits then four zero bits, 20 characters
 * of lowercase base32hex (0-9, a-v).
 *
 * next_rsxid fills the machine field with uniqueid.node (so servers with
 * their own uniqueid.node, as every generator wants, never collide) and the
 * process field with the low 16 bits of the cluster's system identifier
 * (the same on a physical standby, whose promotion continues above the
 * horizon; different, almost always, on another cluster left at the same
 * uniqueid.node).
 */
#include "rsxid.h"

#include "byteid.h"
#include "codec.h"
#include "access/xlog.h"
#include "generator.h"
#include "utils/builtins.h"

#define UID_RSXID_BYTES 12
#define UID_RSXID_TIME_BYTES 4
#define UID_RSXID_TIME_MAX UINT64CONST(0xffffffff)
#define UID_RSXID_CHARS UID_BASE32_CHARS(UID_RSXID_BYTES, 0)
#define UID_RSXID_FIELD24_MAX ((1 << 24) - 1)

typedef struct UidRsxid
{
	uint8		b[UID_RSXID_BYTES];
} UidRsxid;

#define RSXID_ARG(n) ((const UidRsxid *) PG_GETARG_POINTER(n))

/* Compares id with the smallest rsxid whose time is at or after ts. */
static int
rsxid_cmp_timestamptz(const UidRsxid *id, TimestampTz ts)
{
	return uid_byteid_cmp_time(id->b, UID_RSXID_BYTES, UID_RSXID_TIME_BYTES, ts, 0, USECS_PER_SEC,
							   UID_RSXID_TIME_MAX);
}

/* Binary I/O, bytea casts, comparison, hashing and timestamptz operators. */
UID_BYTEID_FUNCS(rsxid, UidRsxid, UID_RSXID_BYTES, rsxid_cmp_timestamptz, 0, USECS_PER_SEC, UID_RSXID_TIME_MAX)

/* btree support 2: memcmp, with abbreviated keys of the first 8 bytes (time, machine, process) */
UID_BYTEID_SORTSUPPORT(rsxid, UidRsxid)

/* Assembles an rsxid from its fields (all already range-checked). */
static inline void
rsxid_pack(UidRsxid *out, uint64 seconds, uint32 machine, uint32 process, uint32 counter)
{
	uint64		hi = pg_hton64(seconds << 32 | (uint64) machine << 8 | process >> 8);
	uint32		lo = pg_hton32((process & 0xff) << 24 | counter);

	memcpy(out->b, &hi, sizeof(hi));
	memcpy(out->b + 8, &lo, sizeof(lo));
}

PG_FUNCTION_INFO_V1(rsxid_in);
/* text input: exactly 20 lowercase base32hex characters */
Datum
rsxid_in(PG_FUNCTION_ARGS)
{
	const char *str = PG_GETARG_CSTRING(0);
	UidRsxid   *id = palloc(sizeof(UidRsxid));

	if (uid_base32_parse(str, strlen(str), uid_base32hex_lower, 0, id->b, UID_RSXID_BYTES, 0) != UID_PARSE_OK)
		ereturn(UID_ESCONTEXT(fcinfo), (Datum) 0,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for type rsxid: \"%s\"", uid_quote_input(str)),
				 errdetail("An rsxid is written as exactly 20 characters of lowercase base32hex (0-9, a-v), the last one 0 or g."),
				 uid_looks_like_time(str) ?
				 errhint("To compare an rsxid with a time, write the time as a timestamptz, such as timestamptz '%s'.",
						 str) : 0));
	PG_RETURN_POINTER(id);
}

PG_FUNCTION_INFO_V1(rsxid_out);
/* text output: 20 lowercase base32hex characters */
Datum
rsxid_out(PG_FUNCTION_ARGS)
{
	char	   *buf = palloc(UID_RSXID_CHARS + 1);

	uid_base32_format(RSXID_ARG(0)->b, UID_RSXID_BYTES, uid_base32hex_lower, 0, buf);
	PG_RETURN_CSTRING(buf);
}

PG_FUNCTION_INFO_V1(rsxid_time);
/* id_time(rsxid): the second the ID was made in */
Datum
rsxid_time(PG_FUNCTION_ARGS)
{
	uint64		s = uid_byteid_uint(RSXID_ARG(0)->b, UID_RSXID_TIME_BYTES);

	PG_RETURN_TIMESTAMPTZ((TimestampTz) ((int64) s * USECS_PER_SEC - UID_PG_EPOCH_UNIX_US));
}

PG_FUNCTION_INFO_V1(rsxid_machine);
/* id_machine(rsxid): the 24-bit machine field */
Datum
rsxid_machine(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32((int32) uid_byteid_uint(RSXID_ARG(0)->b + 4, 3));
}

PG_FUNCTION_INFO_V1(rsxid_process);
/* id_process(rsxid): the 16-bit process field */
Datum
rsxid_process(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32((int32) uid_byteid_uint(RSXID_ARG(0)->b + 7, 2));
}

PG_FUNCTION_INFO_V1(rsxid_counter);
/* id_counter(rsxid): the 24-bit counter */
Datum
rsxid_counter(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32((int32) uid_byteid_uint(RSXID_ARG(0)->b + 9, 3));
}

PG_FUNCTION_INFO_V1(make_rsxid);
/* make_rsxid(time, machine, process, counter) */
Datum
make_rsxid(PG_FUNCTION_ARGS)
{
	TimestampTz ts = PG_GETARG_TIMESTAMPTZ(0);
	int32		machine = PG_GETARG_INT32(1);
	int32		process = PG_GETARG_INT32(2);
	int32		counter = PG_GETARG_INT32(3);
	UidRsxid   *id = palloc(sizeof(UidRsxid));
	uint64		seconds = uid_time_units(&uid_rsxid_layout, ts);

	uid_check_range("rsxid", "machine", machine, UID_RSXID_FIELD24_MAX);
	uid_check_range("rsxid", "process", process, PG_UINT16_MAX);
	uid_check_range("rsxid", "counter", counter, UID_RSXID_FIELD24_MAX);
	rsxid_pack(id, seconds, (uint32) machine, (uint32) process, (uint32) counter);
	PG_RETURN_POINTER(id);
}

PG_FUNCTION_INFO_V1(rsxid_floor);
/* rsxid_floor(time): the smallest rsxid whose time is at or after time */
Datum
rsxid_floor(PG_FUNCTION_ARGS)
{
	UidRsxid   *id = palloc(sizeof(UidRsxid));

	uid_byteid_floor(id->b, UID_RSXID_BYTES, UID_RSXID_TIME_BYTES, "rsxid", PG_GETARG_TIMESTAMPTZ(0),
					 0, USECS_PER_SEC, UID_RSXID_TIME_MAX);
	PG_RETURN_POINTER(id);
}

PG_FUNCTION_INFO_V1(next_rsxid);
/*
 * next_rsxid(): the next rsxid of this server, strictly greater than every
 * one it issued before: the second and the counter from one shared-memory
 * slot of uid_generate, around this server's machine and process fields.
 */
Datum
next_rsxid(PG_FUNCTION_ARGS)
{
	uint64		tc;
	int			machine;
	UidRsxid   *id;

	uid_require_generator("rsxid");
	machine = uid_node_for("rsxid", "machine", 24);
	tc = uid_generate_node(&uid_rsxid_layout, UID_SLOT_RSXID, 0);
	id = palloc(sizeof(UidRsxid));
	rsxid_pack(id, tc >> 24, (uint32) machine, (uint32) (GetSystemIdentifier() & 0xffff),
			   (uint32) (tc & UID_RSXID_FIELD24_MAX));
	PG_RETURN_POINTER(id);
}

/* What the engine and the views know of rsxid (family.h; module.c registers it) */
const UidFamily uid_rsxid_family = {
	.stat = UID_SLOT_RSXID,
	.name = "rsxid",
	.typname = "rsxid",
	.node_bearing = true,
	.layout = &uid_rsxid_layout,
};
