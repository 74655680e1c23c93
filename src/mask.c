/*
 * mask.c - keyed, reversible masks of every ID type (doc/masking.md):
 * id_mask and id_unmask for the 8-byte types, sno, objectid, ulid, ksuid,
 * rsxid, typeid and UUID version 7; uuid7_mask and uuid7_unmask (a version
 * 7 UUID as a version 4 one); id_mask_key_symbol.  FF1 with AES in radix 2
 * (ff1.c) over exactly the ID's bits, the type (and a typeid's prefix) as
 * the tweak; the text is maskcode.c's: a key symbol, then fixed-width
 * digits.
 *
 * Keys come as arguments and go nowhere else: no message here shows one.
 * Each backend keeps the AES key schedules of its last few keys (compared
 * byte for byte), and wipes a key's copy when it makes room for another.
 */
#include "mask.h"

#include "ff1.h"
#include "id64.h"
#include "layout.h"
#include "maskcode.h"
#include "shortcode.h"

#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/uuid.h"

/* The tweak's first byte: one per type (and one per function on UUIDs). */
typedef enum UidMaskTweak
{
	UID_MASK_SHARDID = 1,
	UID_MASK_SNOWFLAKE,
	UID_MASK_SONYFLAKE,
	UID_MASK_SHORTID,
	UID_MASK_SPREADID,
	UID_MASK_SNO,
	UID_MASK_OBJECTID,
	UID_MASK_ULID,
	UID_MASK_KSUID,
	UID_MASK_RSXID,
	UID_MASK_TYPEID,
	UID_MASK_UUID,				/* id_mask(uuid) */
	UID_MASK_UUID7_AS_V4		/* uuid7_mask */
} UidMaskTweak;

/* How a type's value is held. */
typedef enum UidMaskKind
{
	UID_MASK_ID64,				/* an 8-byte type: uint64 Datum, layout's bits */
	UID_MASK_BYTES,				/* a fixed-length byte string by reference */
	UID_MASK_UUID7				/* the 122 variable bits of a version 7 UUID */
} UidMaskKind;

/* A maskable type. */
typedef struct UidMaskType
{
	const char *typname;
	UidMaskTweak tweak;
	UidMaskKind kind;
	int			nbytes;			/* UID_MASK_BYTES: the length */
	const UidLayout *layout;	/* UID_MASK_ID64 */
} UidMaskType;

/* Keys whose AES key schedules a backend keeps. */
#define UID_MASK_KEYS 4

typedef struct UidMaskKey
{
	int			len;			/* 0: unused */
	unsigned char key[32];
	uid_ff1		f;
	unsigned	check;			/* the key check byte */
} UidMaskKey;

static UidMaskKey uid_mask_keys[UID_MASK_KEYS];
static int	uid_mask_next;

/* The block whose encryption under a key gives the key check byte. */
static const unsigned char uid_mask_check_block[16] = "uniqueid:key-chk";

/* Whether a[0..n-1] equals b[0..n-1], in time independent of where they differ. */
static bool
uid_mask_same(const unsigned char *a, const unsigned char *b, int n)
{
	unsigned char diff = 0;

	for (int i = 0; i < n; i++)
		diff |= a[i] ^ b[i];
	return diff == 0;
}

/* The cipher of the key argument argno: kept, or keyed now in place of the oldest. */
static UidMaskKey *
uid_mask_key(FunctionCallInfo fcinfo, int argno)
{
	bytea	   *k = PG_GETARG_BYTEA_PP(argno);
	int			len = VARSIZE_ANY_EXHDR(k);
	const unsigned char *key = (const unsigned char *) VARDATA_ANY(k);
	UidMaskKey *e;
	unsigned char out[16];

	if (len != 16 && len != 24 && len != 32)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid key length for masking: %d bytes", len),
				 errdetail("A key is 16, 24 or 32 bytes (AES-128, AES-192 or AES-256)."),
				 errhint("Make one with gen_random_bytes(32) of pgcrypto, or with openssl rand -hex 32 and decode(..., 'hex').")));
	for (int i = 0; i < UID_MASK_KEYS; i++)
	{
		e = &uid_mask_keys[i];
		if (e->len == len && uid_mask_same(e->key, key, len))
			return e;
	}
	e = &uid_mask_keys[uid_mask_next];
	uid_mask_next = (uid_mask_next + 1) % UID_MASK_KEYS;
	if (e->len != 0)
		uid_ff1_free(&e->f);
	explicit_bzero(e->key, sizeof(e->key));
	e->len = 0;
	if (uid_ff1_init(&e->f, key, len) != UID_FF1_OK || uid_ff1_block(&e->f, uid_mask_check_block, out) != UID_FF1_OK)
	{
		uid_ff1_free(&e->f);
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("could not set up AES for masking")));
	}
	memcpy(e->key, key, len);
	e->len = len;
	e->check = out[0];
	explicit_bzero(out, sizeof(out));
	return e;
}

/* Bits of a type's value. */
static int
uid_mask_nbits(const UidMaskType *t)
{
	if (t->kind == UID_MASK_UUID7)
		return 122;
	if (t->kind == UID_MASK_BYTES)
		return 8 * t->nbytes;
	{
		uint64		used = uid64_used_bits(t->layout);
		int			nbits = 0;

		while (nbits < 64 && (used >> nbits) != 0)
			nbits++;
		if (used != (nbits == 64 ? ~UINT64CONST(0) : (UINT64CONST(1) << nbits) - 1))
			elog(ERROR, "the fields of type %s are not the low bits", t->typname);
		return nbits;
	}
}

/* Whether u is a version 7 UUID (RFC 9562 variant). */
static inline bool
uid_mask_is_v7(const unsigned char *u)
{
	return (u[6] >> 4) == 7 && (u[8] >> 6) == 2;
}

/*
 * The error for a UUID u that is not of version 7: a uuid's, or a typeid's
 * (shown: its text, made only here, off the path of every valid ID).
 */
static void
uid_mask_not_v7(const unsigned char *u, bool typeid, const char *shown)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 typeid ? errmsg("typeid %s does not hold a UUID of version 7", shown)
			 : errmsg("uuid %s is not a UUID of version 7", shown),
			 errdetail("Masks take the 122 variable bits of a version 7 UUID (RFC 9562 variant); this one's version is %d, its variant bits %d%d.",
					   u[6] >> 4, u[8] >> 7, (u[8] >> 6) & 1)));
}

/* The value of argument 0 as (nbits + 7) / 8 bytes, big-endian, right-aligned. */
static void
uid_mask_load(FunctionCallInfo fcinfo, const UidMaskType *t, int nbits, unsigned char *val)
{
	int			nbytes = (nbits + 7) / 8;

	switch (t->kind)
	{
		case UID_MASK_ID64:
			{
				uint64		v = DatumGetUInt64(PG_GETARG_DATUM(0));

				for (int i = nbytes - 1; i >= 0; i--, v >>= 8)
					val[i] = (unsigned char) v;
				break;
			}
		case UID_MASK_BYTES:
			memcpy(val, PG_GETARG_POINTER(0), t->nbytes);
			break;
		case UID_MASK_UUID7:
			{
				pg_uuid_t  *u = PG_GETARG_UUID_P(0);

				if (!uid_mask_is_v7(u->data))
					uid_mask_not_v7(u->data, false, DatumGetCString(DirectFunctionCall1(uuid_out, UUIDPGetDatum(u))));
				uid_uuid_pack122(u->data, val);
				break;
			}
	}
}

/* The Datum of a type's value val. */
static Datum
uid_mask_store(const UidMaskType *t, int nbits, const unsigned char *val)
{
	int			nbytes = (nbits + 7) / 8;

	switch (t->kind)
	{
		case UID_MASK_ID64:
			{
				uint64		v = 0;

				for (int i = 0; i < nbytes; i++)
					v = v << 8 | val[i];
				return UInt64GetDatum(v);
			}
		case UID_MASK_BYTES:
			{
				unsigned char *id = palloc(t->nbytes);

				memcpy(id, val, t->nbytes);
				return PointerGetDatum(id);
			}
		case UID_MASK_UUID7:
			{
				pg_uuid_t  *u = palloc(sizeof(pg_uuid_t));

				uid_uuid_unpack122(val, 7, 2, u->data);
				return UUIDPGetDatum(u);
			}
	}
	return (Datum) 0;			/* not reached */
}

/* Errors out on an FF1 failure (out of memory in OpenSSL; the rest cannot happen here). */
static void
uid_mask_ff1_check(uid_ff1_status st)
{
	if (st != UID_FF1_OK)
		ereport(ERROR,
				(errcode(st == UID_FF1_CRYPTO ? ERRCODE_OUT_OF_MEMORY : ERRCODE_INTERNAL_ERROR),
				 errmsg("could not mask with AES (FF1 status %d)", (int) st)));
}

/* Reports a code uid_maskcode_parse refused. */
static void
uid_mask_bad_code(uid_maskcode_status st, text *code, size_t errpos, const UidMaskType *t,
				  const uid_alphabet *a, int nbits, const UidMaskKey *k)
{
	const char *shown = uid_quote_input(text_to_cstring(code));

	switch (st)
	{
		case UID_MASKCODE_OK:
			return;
		case UID_MASKCODE_BAD_CHAR:
			uid_bad_char(code, errpos);
			break;
		case UID_MASKCODE_LENGTH:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid masked %s: \"%s\"", t->typname, shown),
					 errdetail("A masked %s is %d characters in this alphabet, not %d.", t->typname,
							   1 + uid_maskcode_width(nbits, a->base), (int) VARSIZE_ANY_EXHDR(code))));
			break;
		case UID_MASKCODE_RANGE:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid masked %s: \"%s\"", t->typname, shown),
					 errdetail("Its digits are more than the %d bits of a %s.", nbits, t->typname)));
			break;
		case UID_MASKCODE_KEY:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("masked %s \"%s\" was not made with this key", t->typname, shown),
					 errdetail("The code's key symbol is \"%c\"; this key's is \"%c\".",
							   VARDATA_ANY(code)[0], a->symbols[k->check % a->base]),
					 errhint("Unmask it with the key whose id_mask_key_symbol is \"%c\".", VARDATA_ANY(code)[0])));
			break;
	}
}

/* id_mask(id, key, alphabet) of a type */
static Datum
uid_mask_datum(FunctionCallInfo fcinfo, const UidMaskType *t)
{
	UidMaskKey *k = uid_mask_key(fcinfo, 1);
	const uid_alphabet *a = uid_get_alphabet(fcinfo, 2);
	int			nbits = uid_mask_nbits(t);
	unsigned char val[32],
				tweak = (unsigned char) t->tweak;
	char		code[UID_MASKCODE_MAX + 1];
	size_t		len;

	uid_mask_load(fcinfo, t, nbits, val);
	uid_mask_ff1_check(uid_ff1_bits(&k->f, val, nbits, &tweak, 1, val, 0));
	len = uid_maskcode_format(val, nbits, a, k->check, code);
	return PointerGetDatum(cstring_to_text_with_len(code, (int) len));
}

/* id_unmask(code, key, NULL::type, alphabet) of a type: not strict, as its third argument is NULL */
static Datum
uid_unmask_datum(FunctionCallInfo fcinfo, const UidMaskType *t)
{
	text	   *code;
	UidMaskKey *k;
	const uid_alphabet *a;
	int			nbits = uid_mask_nbits(t);
	unsigned char val[32],
				tweak = (unsigned char) t->tweak;
	size_t		errpos = 0;
	uid_maskcode_status st;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(3))
		PG_RETURN_NULL();
	code = PG_GETARG_TEXT_PP(0);
	k = uid_mask_key(fcinfo, 1);
	a = uid_get_alphabet(fcinfo, 3);
	st = uid_maskcode_parse(VARDATA_ANY(code), VARSIZE_ANY_EXHDR(code), a, nbits, k->check, val, &errpos);
	uid_mask_bad_code(st, code, errpos, t, a, nbits, k);
	uid_mask_ff1_check(uid_ff1_bits(&k->f, val, nbits, &tweak, 1, val, 1));
	return uid_mask_store(t, nbits, val);
}

static const UidMaskType uid_mask_shardid = {"shardid", UID_MASK_SHARDID, UID_MASK_ID64, 8, &uid_shardid_layout};
static const UidMaskType uid_mask_snowflake = {"snowflake", UID_MASK_SNOWFLAKE, UID_MASK_ID64, 8, &uid_snowflake_layout};
static const UidMaskType uid_mask_sonyflake = {"sonyflake", UID_MASK_SONYFLAKE, UID_MASK_ID64, 8, &uid_sonyflake_layout};
static const UidMaskType uid_mask_shortid = {"shortid", UID_MASK_SHORTID, UID_MASK_ID64, 8, &uid_shortid_layout};
static const UidMaskType uid_mask_spreadid = {"spreadid", UID_MASK_SPREADID, UID_MASK_ID64, 8, &uid_spreadid_layout};
static const UidMaskType uid_mask_sno = {"sno", UID_MASK_SNO, UID_MASK_BYTES, 10, NULL};
static const UidMaskType uid_mask_objectid = {"objectid", UID_MASK_OBJECTID, UID_MASK_BYTES, 12, NULL};
static const UidMaskType uid_mask_ulid = {"ulid", UID_MASK_ULID, UID_MASK_BYTES, 16, NULL};
static const UidMaskType uid_mask_ksuid = {"ksuid", UID_MASK_KSUID, UID_MASK_BYTES, 20, NULL};
static const UidMaskType uid_mask_rsxid = {"rsxid", UID_MASK_RSXID, UID_MASK_BYTES, 12, NULL};
static const UidMaskType uid_mask_uuid = {"uuid", UID_MASK_UUID, UID_MASK_UUID7, 16, NULL};

/* id_mask_T and id_unmask_T: the SQL functions of type T */
#define UID_MASK_FUNCS(T) \
PG_FUNCTION_INFO_V1(id_mask_##T); \
Datum \
id_mask_##T(PG_FUNCTION_ARGS) \
{ \
	return uid_mask_datum(fcinfo, &uid_mask_##T); \
} \
PG_FUNCTION_INFO_V1(id_unmask_##T); \
Datum \
id_unmask_##T(PG_FUNCTION_ARGS) \
{ \
	return uid_unmask_datum(fcinfo, &uid_mask_##T); \
}

UID_MASK_FUNCS(shardid)
UID_MASK_FUNCS(snowflake)
UID_MASK_FUNCS(sonyflake)
UID_MASK_FUNCS(shortid)
UID_MASK_FUNCS(spreadid)
UID_MASK_FUNCS(sno)
UID_MASK_FUNCS(objectid)
UID_MASK_FUNCS(ulid)
UID_MASK_FUNCS(ksuid)
UID_MASK_FUNCS(rsxid)
UID_MASK_FUNCS(uuid)

/* A typeid's parts: the 16 bytes of its UUID, then its prefix (typeid.c's layout). */
#define UID_MASK_TYPEID_UUID(t) ((unsigned char *) VARDATA_ANY(t))
#define UID_MASK_TYPEID_PREFIX(t) ((const unsigned char *) VARDATA_ANY(t) + 16)
#define UID_MASK_TYPEID_PREFIX_LEN(t) ((int) VARSIZE_ANY_EXHDR(t) - 16)

/* FF1 of a typeid's 122 bits, the tweak its type byte and prefix */
static void
uid_mask_typeid_ff1(UidMaskKey *k, const struct varlena *t, unsigned char *val, int decrypt)
{
	unsigned char tweak[1 + 63];
	int			plen = UID_MASK_TYPEID_PREFIX_LEN(t);

	if (plen < 0 || plen > 63)
		elog(ERROR, "typeid of %d bytes", (int) VARSIZE_ANY_EXHDR(t));
	tweak[0] = UID_MASK_TYPEID;
	memcpy(tweak + 1, UID_MASK_TYPEID_PREFIX(t), plen);
	uid_mask_ff1_check(uid_ff1_bits(&k->f, val, 122, tweak, 1 + plen, val, decrypt));
}

/* The output function of the type of argument argno. */
static Oid
uid_mask_typoutput(FunctionCallInfo fcinfo, int argno)
{
	Oid			typoutput;
	bool		isvarlena;

	getTypeOutputInfo(get_fn_expr_argtype(fcinfo->flinfo, argno), &typoutput, &isvarlena);
	return typoutput;
}

PG_FUNCTION_INFO_V1(id_mask_typeid);
/*
 * id_mask(typeid, key): a TypeID of the same prefix whose UUID holds the
 * masked 122 bits, and the key check's low 6 bits where a UUID has its
 * version (4 bits) and variant (2 bits).
 */
Datum
id_mask_typeid(PG_FUNCTION_ARGS)
{
	struct varlena *t = PG_GETARG_VARLENA_PP(0);
	UidMaskKey *k = uid_mask_key(fcinfo, 1);
	Oid			typoutput = uid_mask_typoutput(fcinfo, 0);
	struct varlena *m;
	unsigned char val[16];

	if (!uid_mask_is_v7(UID_MASK_TYPEID_UUID(t)))
		uid_mask_not_v7(UID_MASK_TYPEID_UUID(t), true, OidOutputFunctionCall(typoutput, PointerGetDatum(t)));
	uid_uuid_pack122(UID_MASK_TYPEID_UUID(t), val);
	uid_mask_typeid_ff1(k, t, val, 0);
	m = palloc(VARSIZE_ANY_EXHDR(t) + VARHDRSZ);
	SET_VARSIZE(m, VARSIZE_ANY_EXHDR(t) + VARHDRSZ);
	memcpy(VARDATA(m), VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
	uid_uuid_unpack122(val, (k->check >> 2) & 0xf, k->check & 3, (unsigned char *) VARDATA(m));
	PG_RETURN_TEXT_P(cstring_to_text(OidOutputFunctionCall(typoutput, PointerGetDatum(m))));
}

PG_FUNCTION_INFO_V1(id_unmask_typeid);
/* id_unmask(code, key, NULL::typeid): the typeid id_mask made the code of (not strict) */
Datum
id_unmask_typeid(PG_FUNCTION_ARGS)
{
	text	   *code;
	UidMaskKey *k;
	Oid			typinput,
				typioparam;
	struct varlena *t;
	unsigned char *u,
				val[16];
	unsigned	found;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		PG_RETURN_NULL();
	code = PG_GETARG_TEXT_PP(0);
	k = uid_mask_key(fcinfo, 1);
	getTypeInputInfo(get_fn_expr_argtype(fcinfo->flinfo, 2), &typinput, &typioparam);
	t = (struct varlena *) DatumGetPointer(OidInputFunctionCall(typinput, text_to_cstring(code), typioparam, -1));
	t = pg_detoast_datum_copy(t);
	u = UID_MASK_TYPEID_UUID(t);
	found = (unsigned) (u[6] >> 4) << 2 | u[8] >> 6;
	if (found != (k->check & 63))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("masked typeid \"%s\" was not made with this key", uid_quote_input(text_to_cstring(code))),
				 errdetail("Its UUID's version and variant bits hold another key's symbol.")));
	uid_uuid_pack122(u, val);
	uid_mask_typeid_ff1(k, t, val, 1);
	uid_uuid_unpack122(val, 7, 2, u);
	PG_RETURN_POINTER(t);
}

PG_FUNCTION_INFO_V1(uuid7_mask);
/* uuid7_mask(uuid, key): the version 7 UUID's 122 variable bits masked, as a version 4 UUID */
Datum
uuid7_mask(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = PG_GETARG_UUID_P(0);
	UidMaskKey *k = uid_mask_key(fcinfo, 1);
	pg_uuid_t  *r = palloc(sizeof(pg_uuid_t));
	unsigned char val[16],
				tweak = UID_MASK_UUID7_AS_V4;

	if (!uid_mask_is_v7(u->data))
		uid_mask_not_v7(u->data, false, DatumGetCString(DirectFunctionCall1(uuid_out, UUIDPGetDatum(u))));
	uid_uuid_pack122(u->data, val);
	uid_mask_ff1_check(uid_ff1_bits(&k->f, val, 122, &tweak, 1, val, 0));
	uid_uuid_unpack122(val, 4, 2, r->data);
	PG_RETURN_UUID_P(r);
}

PG_FUNCTION_INFO_V1(uuid7_unmask);
/* uuid7_unmask(uuid, key): the version 7 UUID that uuid7_mask made the version 4 UUID of */
Datum
uuid7_unmask(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = PG_GETARG_UUID_P(0);
	UidMaskKey *k = uid_mask_key(fcinfo, 1);
	pg_uuid_t  *r = palloc(sizeof(pg_uuid_t));
	unsigned char val[16],
				tweak = UID_MASK_UUID7_AS_V4;

	if ((u->data[6] >> 4) != 4 || (u->data[8] >> 6) != 2)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("uuid %s is not a UUID of version 4",
						DatumGetCString(DirectFunctionCall1(uuid_out, UUIDPGetDatum(u)))),
				 errdetail("uuid7_mask makes UUIDs of version 4 (RFC 9562 variant); this one's version is %d.",
						   u->data[6] >> 4)));
	uid_uuid_pack122(u->data, val);
	uid_mask_ff1_check(uid_ff1_bits(&k->f, val, 122, &tweak, 1, val, 1));
	uid_uuid_unpack122(val, 7, 2, r->data);
	PG_RETURN_UUID_P(r);
}

PG_FUNCTION_INFO_V1(id_mask_key_symbol);
/*
 * id_mask_key_symbol(key, alphabet): the symbol that begins the codes
 * id_mask makes with the key in the alphabet (a typeid's code holds its
 * low 6 bits in its UUID's version and variant bits)
 */
Datum
id_mask_key_symbol(PG_FUNCTION_ARGS)
{
	UidMaskKey *k = uid_mask_key(fcinfo, 0);
	const uid_alphabet *a = uid_get_alphabet(fcinfo, 1);
	char		c = (char) a->symbols[k->check % a->base];

	PG_RETURN_TEXT_P(cstring_to_text_with_len(&c, 1));
}

PG_FUNCTION_INFO_V1(id_mask_typeid_symbol);
/*
 * id_mask_typeid_symbol(code typeid): the base64url symbol of the key that
 * made a typeid code, read from its UUID's version (4 bits) and variant
 * (2 bits), where id_mask_typeid put the key check's low 6 bits: the same
 * symbol as id_mask_key_symbol(key), whose base64url value is check mod 64.
 */
Datum
id_mask_typeid_symbol(PG_FUNCTION_ARGS)
{
	struct varlena *t = PG_GETARG_VARLENA_PP(0);
	const unsigned char *u = UID_MASK_TYPEID_UUID(t);
	uid_alphabet a;
	char		c;

	if (VARSIZE_ANY_EXHDR(t) < 16)
		elog(ERROR, "typeid of %d bytes", (int) VARSIZE_ANY_EXHDR(t));
	if (uid_basen_alphabet_init(&a, "base64url", strlen("base64url"), NULL) != UID_BASEN_OK)
		elog(ERROR, "the base64url alphabet is missing");
	c = (char) a.symbols[(u[6] >> 4) << 2 | u[8] >> 6];
	PG_RETURN_TEXT_P(cstring_to_text_with_len(&c, 1));
}
