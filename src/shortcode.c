/*
 * shortcode.c - short codes for people: id_encode, id_decode and
 * lexical_add, the SQL face of the pure base-N code in basen.c.
 */
#include "shortcode.h"

#include "layout.h"

#include "basen.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"

/* The alphabet of the last call, cached per call site (fn_extra). */
typedef struct UidAlphabetCache
{
	int			speclen;
	char		spec[256];
	uid_alphabet alphabet;
} UidAlphabetCache;

/* The alphabet named or spelled by the text argument, built once per call site. */
const uid_alphabet *
uid_get_alphabet(FunctionCallInfo fcinfo, int argno)
{
	text	   *t = PG_GETARG_TEXT_PP(argno);
	const char *spec = VARDATA_ANY(t);
	int			len = VARSIZE_ANY_EXHDR(t);
	UidAlphabetCache *cache = fcinfo->flinfo->fn_extra;
	size_t		errpos = 0;
	uid_basen_status st;

	if (cache != NULL && cache->speclen == len && memcmp(cache->spec, spec, len) == 0)
		return &cache->alphabet;
	if (cache == NULL)
		cache = fcinfo->flinfo->fn_extra =
			MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, sizeof(UidAlphabetCache));
	cache->speclen = -1;
	if (pg_database_encoding_max_length() > 1)
	{
		for (int i = 0; i < len; i++)
			if (IS_HIGHBIT_SET(spec[i]))
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("alphabet \"%s\" has a multibyte character", uid_quote_input(text_to_cstring(t))),
						 errdetail("Alphabets are made of single-byte characters; in this database's encoding, that is ASCII.")));
	}
	st = uid_basen_alphabet_init(&cache->alphabet, spec, len, &errpos);
	if (st == UID_BASEN_ALPHABET_DUPLICATE)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("alphabet \"%s\" repeats the character \"%c\"", uid_quote_input(text_to_cstring(t)), spec[errpos]),
				 errhint("An alphabet is a name (base32, base36, base58, base62, base64url) or 2 to 256 distinct characters.")));
	if (st != UID_BASEN_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("alphabet \"%s\" is too %s", uid_quote_input(text_to_cstring(t)),
						st == UID_BASEN_ALPHABET_SHORT ? "short" : "long"),
				 errdetail("It has %d characters.", len),
				 errhint("An alphabet is a name (base32, base36, base58, base62, base64url) or 2 to 256 distinct characters.")));
	if (len <= (int) sizeof(cache->spec))
	{
		memcpy(cache->spec, spec, len);
		cache->speclen = len;
	}
	return &cache->alphabet;
}

/* Reports a character of code, at byte offset errpos, that is not in the alphabet. */
void
uid_bad_char(text *code, size_t errpos)
{
	const char *s = VARDATA_ANY(code);

	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid character \"%s\" at position %d of code \"%s\"",
					pnstrdup(s + errpos, pg_mblen(s + errpos)),
					pg_mbstrlen_with_len(s, (int) errpos) + 1, uid_quote_input(text_to_cstring(code))),
			 errdetail("The character is not in the alphabet.")));
}

/* Encodes 64 bits as text. */
static text *
uid_encode_text(uint64 v, const uid_alphabet *a)
{
	char		buf[UID_BASEN_ENCODE_MAX + 1];
	size_t		n = uid_basen_encode(v, a, buf);

	return cstring_to_text_with_len(buf, (int) n);
}

/* Decodes a code into 64 bits, reporting bad characters as 22P02. */
static uint64
uid_decode_text(text *code, const uid_alphabet *a, const char *typname)
{
	const char *s = VARDATA_ANY(code);
	size_t		len = VARSIZE_ANY_EXHDR(code);
	size_t		errpos = 0;
	uint64		v = 0;

	switch (uid_basen_decode(s, len, a, &v, &errpos))
	{
		case UID_BASEN_OK:
			break;
		case UID_BASEN_OVERFLOW:
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("code \"%s\" is out of range for type %s", uid_quote_input(text_to_cstring(code)), typname)));
			break;
		case UID_BASEN_BAD_CHAR:
			uid_bad_char(code, errpos);
			break;
		default:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for a code: \"%s\"", uid_quote_input(text_to_cstring(code))),
					 errdetail("A code has at least one character.")));
	}
	return v;
}

PG_FUNCTION_INFO_V1(id_encode);
/* id_encode(value smallint|integer|bigint, alphabet): non-negative values only */
Datum
id_encode(PG_FUNCTION_ARGS)
{
	int64		v = uid_getarg_integer(fcinfo, 0);

	if (v < 0)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("cannot encode negative value " INT64_FORMAT, v),
				 errhint("Codes stand for non-negative numbers; an ID type's own overload encodes all its 64 bits.")));
	PG_RETURN_TEXT_P(uid_encode_text((uint64) v, uid_get_alphabet(fcinfo, 1)));
}

PG_FUNCTION_INFO_V1(id_encode_uid64);
/* id_encode(id, alphabet) for the 8-byte ID types: the unsigned 64 bits */
Datum
id_encode_uid64(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(uid_encode_text(DatumGetUInt64(PG_GETARG_DATUM(0)), uid_get_alphabet(fcinfo, 1)));
}

PG_FUNCTION_INFO_V1(id_decode);
/* id_decode(code, alphabet) -> bigint */
Datum
id_decode(PG_FUNCTION_ARGS)
{
	text	   *code = PG_GETARG_TEXT_PP(0);
	uint64		v = uid_decode_text(code, uid_get_alphabet(fcinfo, 1), "bigint");

	if (v > (uint64) PG_INT64_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("code \"%s\" is out of range for type bigint", uid_quote_input(text_to_cstring(code)))));
	PG_RETURN_INT64((int64) v);
}

PG_FUNCTION_INFO_V1(id_decode_shardid);
/* id_decode_shardid(code, alphabet) -> shardid, the full unsigned range */
Datum
id_decode_shardid(PG_FUNCTION_ARGS)
{
	return UInt64GetDatum(uid_decode_text(PG_GETARG_TEXT_PP(0), uid_get_alphabet(fcinfo, 1), "shardid"));
}

PG_FUNCTION_INFO_V1(lexical_add);
/* lexical_add(code, alphabet, n smallint|integer|bigint): n places further in shortlex order */
Datum
lexical_add(PG_FUNCTION_ARGS)
{
	text	   *code = PG_GETARG_TEXT_PP(0);
	const uid_alphabet *a = uid_get_alphabet(fcinfo, 1);
	int64		n = uid_getarg_integer(fcinfo, 2);
	const char *s = VARDATA_ANY(code);
	size_t		len = VARSIZE_ANY_EXHDR(code);
	size_t		cap = UID_BASEN_ADD_BUFSIZE(len);
	char	   *out = palloc(cap);
	size_t		outlen = 0;
	size_t		errpos = 0;

	switch (uid_basen_lexical_add(s, len, a, n, out, cap, &outlen, &errpos))
	{
		case UID_BASEN_OK:
			break;
		case UID_BASEN_BAD_CHAR:
			uid_bad_char(code, errpos);
			break;
		case UID_BASEN_BELOW_FIRST:
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("code \"%s\" moved by " INT64_FORMAT " places is before the first code",
							uid_quote_input(text_to_cstring(code)), n),
					 errdetail("The first code in shortlex order is the empty string.")));
			break;
		default:
			elog(ERROR, "lexical_add: unexpected status");
	}
	PG_RETURN_TEXT_P(cstring_to_text_with_len(out, (int) outlen));
}
