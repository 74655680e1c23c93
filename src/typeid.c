/*
 * typeid.c - the typeid type (jetify's TypeID spec, version 0.3): a type
 * prefix and a UUID, written prefix_suffix with the suffix the UUID's 128
 * bits after two zero bits in 26 characters of lowercase Crockford base 32,
 * and no separator when the prefix is empty.  Text and binary I/O,
 * comparison (prefix, then UUID), hashing and sort support, the prefix and
 * the UUID as accessors and casts, id_time, a constructor, and the generator
 * next_typeid(prefix) on next_uuid7's slot.
 *
 * Stored as a varlena: the 16 bytes of the UUID, then the prefix (0 to 63
 * bytes of [a-z_], starting and ending with a letter).
 */
#include "typeid.h"

#include "byteid.h"
#include "codec.h"
#include "generator.h"
#include "utils/builtins.h"
#include "utils/uuid.h"
#include "uuid7.h"

#define TYPEID_UUID_BYTES 16
#define TYPEID_PREFIX_MAX 63
#define TYPEID_SUFFIX_CHARS UID_BASE32_CHARS(TYPEID_UUID_BYTES, 2)

/* A typeid as stored: varlena header, UUID, prefix. */
typedef struct UidTypeid
{
	char		vl_len_[4];
	uint8		uuid[TYPEID_UUID_BYTES];
	char		prefix[FLEXIBLE_ARRAY_MEMBER];
} UidTypeid;

/* the fields of a (possibly short-header) typeid datum */
#define TYPEID_UUID(t) ((const uint8 *) VARDATA_ANY(t))
#define TYPEID_PREFIX(t) ((const char *) VARDATA_ANY(t) + TYPEID_UUID_BYTES)
#define TYPEID_PREFIX_LEN(t) ((int) VARSIZE_ANY_EXHDR(t) - TYPEID_UUID_BYTES)

#define TYPEID_ARG(n) PG_GETARG_VARLENA_PP(n)

/*
 * Whether s[0..len-1] is a type prefix: empty, or [a-z] and '_' up to 63
 * bytes, starting and ending with a letter.  Sets *why when it is not.
 */
static bool
typeid_prefix_ok(const char *s, int len, const char **why)
{
	if (len > TYPEID_PREFIX_MAX)
	{
		*why = "A type prefix is at most 63 characters.";
		return false;
	}
	for (int i = 0; i < len; i++)
	{
		if (s[i] == '_' && (i == 0 || i == len - 1))
		{
			*why = "A type prefix starts and ends with a letter.";
			return false;
		}
		if (!(s[i] >= 'a' && s[i] <= 'z') && s[i] != '_')
		{
			*why = "A type prefix has only lowercase letters a-z and underscores.";
			return false;
		}
	}
	return true;
}

/* A new typeid of the given prefix (already checked) and UUID. */
static UidTypeid *
typeid_make(const char *prefix, int prefix_len, const uint8 *uuid)
{
	UidTypeid  *t = palloc(offsetof(UidTypeid, prefix) + prefix_len);

	SET_VARSIZE(t, offsetof(UidTypeid, prefix) + prefix_len);
	memcpy(t->uuid, uuid, TYPEID_UUID_BYTES);
	memcpy(t->prefix, prefix, prefix_len);
	return t;
}

/* Errors out unless prefix is a type prefix (for the constructor and generator). */
static void
typeid_check_prefix(const text *prefix)
{
	const char *why = NULL;

	if (!typeid_prefix_ok(VARDATA_ANY(prefix), VARSIZE_ANY_EXHDR(prefix), &why))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid type prefix for type typeid: \"%s\"", uid_quote_input(text_to_cstring(prefix))),
				 errdetail("%s", why)));
}

PG_FUNCTION_INFO_V1(typeid_in);
/* text input: prefix_suffix, or the suffix alone for the empty prefix */
Datum
typeid_in(PG_FUNCTION_ARGS)
{
	const char *str = PG_GETARG_CSTRING(0);
	int			len = (int) strlen(str);
	const char *sep = strrchr(str, '_');
	int			prefix_len = sep ? (int) (sep - str) : 0;
	const char *suffix = sep ? sep + 1 : str;
	const char *why = NULL;
	uint8		uuid[TYPEID_UUID_BYTES];
	uid_parse_result r;

	if (sep != NULL && prefix_len == 0)
		why = "The separator \"_\" follows a type prefix; a typeid without one is the suffix alone.";
	else if (!typeid_prefix_ok(str, prefix_len, &why))
		 /* why is set */ ;
	else if ((r = uid_base32_parse(suffix, len - (suffix - str), uid_crockford_lower, 0, uuid, TYPEID_UUID_BYTES, 2)) ==
			 UID_PARSE_RANGE)
		why = "The first character of the suffix is at most 7.";
	else if (r != UID_PARSE_OK)
		why = "The suffix is exactly 26 characters of lowercase Crockford base 32 (0-9 and a-z but i, l, o and u).";
	if (why != NULL)
		ereturn(UID_ESCONTEXT(fcinfo), (Datum) 0,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for type typeid: \"%s\"", uid_quote_input(str)),
				 errdetail("%s", why)));
	PG_RETURN_POINTER(typeid_make(str, prefix_len, uuid));
}

PG_FUNCTION_INFO_V1(typeid_out);
/* text output: prefix_suffix, or the suffix alone */
Datum
typeid_out(PG_FUNCTION_ARGS)
{
	struct varlena *t = TYPEID_ARG(0);
	int			prefix_len = TYPEID_PREFIX_LEN(t);
	char	   *buf = palloc(prefix_len + 1 + TYPEID_SUFFIX_CHARS + 1);
	char	   *p = buf;

	if (prefix_len > 0)
	{
		memcpy(p, TYPEID_PREFIX(t), prefix_len);
		p += prefix_len;
		*p++ = '_';
	}
	uid_base32_format(TYPEID_UUID(t), TYPEID_UUID_BYTES, uid_crockford_lower, 2, p);
	PG_RETURN_CSTRING(buf);
}

PG_FUNCTION_INFO_V1(typeid_recv);
/* binary input: the prefix's bytes, then the UUID's 16 (the prefix checked) */
Datum
typeid_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	int			prefix_len = buf->len - buf->cursor - TYPEID_UUID_BYTES;
	const char *why = NULL;
	const char *prefix;

	if (prefix_len < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid binary typeid: %d bytes", buf->len - buf->cursor),
				 errdetail("A binary typeid is its prefix's bytes followed by the 16 bytes of its UUID.")));
	prefix = pq_getmsgbytes(buf, prefix_len);
	if (!typeid_prefix_ok(prefix, prefix_len, &why))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid type prefix in binary typeid"),
				 errdetail("%s", why)));
	PG_RETURN_POINTER(typeid_make(prefix, prefix_len, (const uint8 *) pq_getmsgbytes(buf, TYPEID_UUID_BYTES)));
}

PG_FUNCTION_INFO_V1(typeid_send);
/* binary output: the prefix's bytes, then the UUID's 16 */
Datum
typeid_send(PG_FUNCTION_ARGS)
{
	struct varlena *t = TYPEID_ARG(0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendbytes(&buf, TYPEID_PREFIX(t), TYPEID_PREFIX_LEN(t));
	pq_sendbytes(&buf, (const char *) TYPEID_UUID(t), TYPEID_UUID_BYTES);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/* Orders typeids by prefix (bytewise, a prefix before its extensions), then UUID. */
static int
typeid_cmp_internal(const struct varlena *a, const struct varlena *b)
{
	int			la = TYPEID_PREFIX_LEN(a);
	int			lb = TYPEID_PREFIX_LEN(b);
	int			c = memcmp(TYPEID_PREFIX(a), TYPEID_PREFIX(b), Min(la, lb));

	if (c != 0)
		return c;
	if (la != lb)
		return la < lb ? -1 : 1;
	return memcmp(TYPEID_UUID(a), TYPEID_UUID(b), TYPEID_UUID_BYTES);
}

/*
 * Compares arguments 0 and 1, read packed; a copy made to read one (a value
 * compressed or out of line, which STORAGE main allows in a wide row) is
 * freed, as index searches call this many times in one memory context.
 */
static int
typeid_cmp_args(FunctionCallInfo fcinfo)
{
	struct varlena *a = TYPEID_ARG(0);
	struct varlena *b = TYPEID_ARG(1);
	int			c = typeid_cmp_internal(a, b);

	PG_FREE_IF_COPY(a, 0);
	PG_FREE_IF_COPY(b, 1);
	return c;
}

/* One comparison operator. */
#define TYPEID_CMP_OP(OP, EXPR) \
PG_FUNCTION_INFO_V1(typeid_##OP); \
Datum typeid_##OP(PG_FUNCTION_ARGS) \
{ int c = typeid_cmp_args(fcinfo); PG_RETURN_BOOL(EXPR); }

TYPEID_CMP_OP(eq, c == 0)
TYPEID_CMP_OP(ne, c != 0)
TYPEID_CMP_OP(lt, c < 0)
TYPEID_CMP_OP(le, c <= 0)
TYPEID_CMP_OP(gt, c > 0)
TYPEID_CMP_OP(ge, c >= 0)

PG_FUNCTION_INFO_V1(typeid_cmp);
/* btree support 1 */
Datum
typeid_cmp(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(typeid_cmp_args(fcinfo));
}

PG_FUNCTION_INFO_V1(typeid_smaller);
Datum
typeid_smaller(PG_FUNCTION_ARGS)
{
	return typeid_cmp_args(fcinfo) <= 0 ? PG_GETARG_DATUM(0) : PG_GETARG_DATUM(1);
}

PG_FUNCTION_INFO_V1(typeid_larger);
Datum
typeid_larger(PG_FUNCTION_ARGS)
{
	return typeid_cmp_args(fcinfo) >= 0 ? PG_GETARG_DATUM(0) : PG_GETARG_DATUM(1);
}

/* sort support's comparator: the same order, on datums that may be packed */
static int
typeid_fastcmp(Datum x, Datum y, SortSupport ssup)
{
	struct varlena *a = PG_DETOAST_DATUM_PACKED(x);
	struct varlena *b = PG_DETOAST_DATUM_PACKED(y);
	int			c = typeid_cmp_internal(a, b);

	if ((Pointer) a != DatumGetPointer(x))
		pfree(a);
	if ((Pointer) b != DatumGetPointer(y))
		pfree(b);
	return c;
}

PG_FUNCTION_INFO_V1(typeid_sortsupport);
/*
 * btree support 2: the comparator without fmgr.  No abbreviated keys: the
 * prefix leads, and in a column of one prefix (the usual case) its first
 * bytes would decide nothing.
 */
Datum
typeid_sortsupport(PG_FUNCTION_ARGS)
{
	SortSupport ssup = (SortSupport) PG_GETARG_POINTER(0);

	ssup->comparator = typeid_fastcmp;
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(typeid_hash);
/* hash support 1: the stored bytes, which equal typeids share */
Datum
typeid_hash(PG_FUNCTION_ARGS)
{
	struct varlena *t = TYPEID_ARG(0);
	Datum		h = hash_any((const unsigned char *) VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));

	PG_FREE_IF_COPY(t, 0);
	return h;
}

PG_FUNCTION_INFO_V1(typeid_hash_extended);
/* hash support 2 */
Datum
typeid_hash_extended(PG_FUNCTION_ARGS)
{
	struct varlena *t = TYPEID_ARG(0);
	Datum		h = hash_any_extended((const unsigned char *) VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t),
									  PG_GETARG_INT64(1));

	PG_FREE_IF_COPY(t, 0);
	return h;
}

PG_FUNCTION_INFO_V1(typeid_prefix);
/* typeid_prefix(typeid): the type prefix, '' when there is none */
Datum
typeid_prefix(PG_FUNCTION_ARGS)
{
	struct varlena *t = TYPEID_ARG(0);

	PG_RETURN_TEXT_P(cstring_to_text_with_len(TYPEID_PREFIX(t), TYPEID_PREFIX_LEN(t)));
}

PG_FUNCTION_INFO_V1(typeid_to_uuid);
/* uuid(typeid): the UUID of the suffix */
Datum
typeid_to_uuid(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = palloc(sizeof(pg_uuid_t));

	memcpy(u->data, TYPEID_UUID(TYPEID_ARG(0)), TYPEID_UUID_BYTES);
	PG_RETURN_UUID_P(u);
}

PG_FUNCTION_INFO_V1(typeid_time);
/* id_time(typeid): the time of its UUID (id_time(uuid): versions 1, 6 and 7) */
Datum
typeid_time(PG_FUNCTION_ARGS)
{
	pg_uuid_t	u;

	memcpy(u.data, TYPEID_UUID(TYPEID_ARG(0)), TYPEID_UUID_BYTES);
	return DirectFunctionCall1(uuid_time, UUIDPGetDatum(&u));
}

PG_FUNCTION_INFO_V1(make_typeid);
/* make_typeid(prefix, uuid): the typeid of a type prefix and any UUID */
Datum
make_typeid(PG_FUNCTION_ARGS)
{
	text	   *prefix = PG_GETARG_TEXT_PP(0);

	typeid_check_prefix(prefix);
	PG_RETURN_POINTER(typeid_make(VARDATA_ANY(prefix), VARSIZE_ANY_EXHDR(prefix), PG_GETARG_UUID_P(1)->data));
}

PG_FUNCTION_INFO_V1(next_typeid);
/*
 * next_typeid(prefix): a typeid of the prefix whose UUID is next_uuid7()'s,
 * so strictly greater than every typeid (of any prefix) and UUID version 7
 * this server issued before.
 */
Datum
next_typeid(PG_FUNCTION_ARGS)
{
	text	   *prefix = PG_GETARG_TEXT_PP(0);
	pg_uuid_t	u;

	uid_require_generator("typeid");
	typeid_check_prefix(prefix);
	uid_uuid7_next(&u);
	PG_RETURN_POINTER(typeid_make(VARDATA_ANY(prefix), VARSIZE_ANY_EXHDR(prefix), u.data));
}
