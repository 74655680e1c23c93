/*
 * maskcode.c - the text of a masked ID (key symbol, fixed-width base-N
 * digits) and the 122 variable bits of a UUID.  See maskcode.h.
 */
#include "maskcode.h"

#include <string.h>

#define MC_LIMBS (UID_MASKCODE_MAXBITS / 32)

/* The exact width: base^w >= 2^nbits, counted on 32-bit limbs. */
static int
mc_width_exact(int nbits, int base)
{
	uint32_t	p[MC_LIMBS + 1] = {1};	/* little-endian */
	int			w = 0;

	for (;;)
	{
		int			bits = 0;

		for (int i = MC_LIMBS; i >= 0; i--)
			if (p[i])
			{
				bits = 32 * i;
				for (uint32_t b = p[i]; b > 1; b >>= 1)
					bits++;
				break;
			}
		/* p = base^w is a power of base: >= 2^nbits once its top bit is at nbits or above */
		if (bits >= nbits)
			return w;
		{
			uint64_t	carry = 0;

			for (int i = 0; i <= MC_LIMBS; i++)
			{
				uint64_t	x = (uint64_t) p[i] * (uint64_t) base + carry;

				p[i] = (uint32_t) x;
				carry = x >> 32;
			}
		}
		w++;
	}
}

int
uid_maskcode_width(int nbits, int base)
{
	/* the last answer, kept: every row of a query asks the same */
	static int	last_nbits = -1,
				last_base = -1,
				last_w;

	if (nbits != last_nbits || base != last_base)
	{
		last_w = mc_width_exact(nbits, base);
		last_nbits = nbits;
		last_base = base;
	}
	return last_w;
}

/* val (nbytes, big-endian) as 32-bit limbs, most significant first; returns their number */
static int
mc_load(const unsigned char *val, int nbytes, uint32_t *limb)
{
	int			nl = (nbytes + 3) / 4;

	memset(limb, 0, nl * sizeof(uint32_t));
	for (int i = 0; i < nbytes; i++)
	{
		int			byte = nbytes - 1 - i;	/* from the least significant */

		limb[nl - 1 - byte / 4] |= (uint32_t) val[i] << (8 * (byte % 4));
	}
	return nl;
}

size_t
uid_maskcode_format(const unsigned char *val, int nbits, const uid_alphabet *a,
					unsigned check, char *out)
{
	int			nbytes = (nbits + 7) / 8;
	int			w = uid_maskcode_width(nbits, a->base);
	uint32_t	limb[MC_LIMBS];
	int			nl = mc_load(val, nbytes, limb);
	uint32_t	base = (uint32_t) a->base;

	out[0] = (char) a->symbols[check % base];
	if (nl <= 2)
	{
		uint64_t	v = (uint64_t) limb[0] << (nl == 2 ? 32 : 0) | (nl == 2 ? limb[1] : 0);

		for (int k = w; k >= 1; k--)
		{
			out[k] = (char) a->symbols[v % base];
			v /= base;
		}
	}
	else
		for (int k = w; k >= 1; k--)
		{
			uint64_t	rem = 0;

			for (int i = 0; i < nl; i++)
			{
				uint64_t	cur = rem << 32 | limb[i];

				limb[i] = (uint32_t) (cur / base);
				rem = cur % base;
			}
			out[k] = (char) a->symbols[rem];
		}
	out[w + 1] = '\0';
	return (size_t) w + 1;
}

uid_maskcode_status
uid_maskcode_parse(const char *s, size_t len, const uid_alphabet *a,
				   int nbits, unsigned check, unsigned char *val, size_t *errpos)
{
	int			nbytes = (nbits + 7) / 8;
	int			nl = (nbytes + 3) / 4;
	size_t		w = (size_t) uid_maskcode_width(nbits, a->base);
	uint32_t	limb[MC_LIMBS];
	uint64_t	over = 0;
	int			key;

	if (len != w + 1)
		return UID_MASKCODE_LENGTH;
	for (size_t k = 0; k < len; k++)
		if (a->digit[(unsigned char) s[k]] < 0)
		{
			if (errpos)
				*errpos = k;
			return UID_MASKCODE_BAD_CHAR;
		}
	memset(limb, 0, sizeof(limb));
	for (size_t k = 1; k < len; k++)
	{
		uint64_t	carry = (uint64_t) a->digit[(unsigned char) s[k]];

		for (int i = nl - 1; i >= 0; i--)
		{
			uint64_t	cur = (uint64_t) limb[i] * (uint64_t) a->base + carry;

			limb[i] = (uint32_t) cur;
			carry = cur >> 32;
		}
		over |= carry;
	}
	/* the value has at most nbits bits: nothing above them in the top limb */
	if (over || (nbits % 32 && limb[0] >> (nbits % 32)))
		return UID_MASKCODE_RANGE;
	key = a->digit[(unsigned char) s[0]];
	if ((unsigned) key != check % (unsigned) a->base)
		return UID_MASKCODE_KEY;
	for (int i = 0; i < nbytes; i++)
	{
		int			byte = nbytes - 1 - i;

		val[i] = (unsigned char) (limb[nl - 1 - byte / 4] >> (8 * (byte % 4)));
	}
	return UID_MASKCODE_OK;
}

void
uid_uuid_pack122(const unsigned char uuid[16], unsigned char out[16])
{
	uint64_t	hi = 0,
				lo = 0,
				v_hi,
				v_lo;

	for (int i = 0; i < 8; i++)
	{
		hi = hi << 8 | uuid[i];
		lo = lo << 8 | uuid[8 + i];
	}
	/* hi: 48 bits . version 4 . 12 bits; lo: variant 2 . 62 bits */
	hi = (hi >> 16) << 12 | (hi & 0xfff);	/* 60 bits */
	lo &= UINT64_C(0x3fffffffffffffff); /* 62 bits */
	v_hi = hi >> 2;				/* the top 58 of 122 */
	v_lo = (hi & 3) << 62 | lo; /* the low 64 */
	for (int i = 7; i >= 0; i--)
	{
		out[i] = (unsigned char) v_hi;
		out[8 + i] = (unsigned char) v_lo;
		v_hi >>= 8;
		v_lo >>= 8;
	}
}

void
uid_uuid_unpack122(const unsigned char in[16], unsigned version, unsigned variant,
				   unsigned char uuid[16])
{
	uint64_t	v_hi = 0,
				v_lo = 0,
				hi,
				lo,
				h60;

	for (int i = 0; i < 8; i++)
	{
		v_hi = v_hi << 8 | in[i];
		v_lo = v_lo << 8 | in[8 + i];
	}
	h60 = (v_hi & UINT64_C(0x3ffffffffffffff)) << 2 | v_lo >> 62;
	hi = (h60 >> 12) << 16 | (uint64_t) (version & 0xf) << 12 | (h60 & 0xfff);
	lo = (uint64_t) (variant & 3) << 62 | (v_lo & UINT64_C(0x3fffffffffffffff));
	for (int i = 7; i >= 0; i--)
	{
		uuid[i] = (unsigned char) hi;
		uuid[8 + i] = (unsigned char) lo;
		hi >>= 8;
		lo >>= 8;
	}
}
