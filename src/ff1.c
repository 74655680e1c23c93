/*
 * ff1.c - FF1 (NIST SP 800-38G, section 6.2) with AES through OpenSSL's EVP
 * interface: the general path for any radix on digit arrays, the radix-2
 * path on bit strings, and one raw block for key check values.  See ff1.h.
 */
#include "ff1.h"

#include <string.h>

#include <openssl/evp.h>

/* Little-endian 32-bit limbs: enough for radix^128 <= 2^2048 and y of d <= 260 bytes. */
#define FF1_LIMBS 72

typedef struct ff1_num
{
	int			len;			/* limbs in use; 0 is the value 0 */
	uint32_t	limb[FF1_LIMBS];
} ff1_num;

/* Longest Q: the tweak, 15 bytes of padding, the round, NUM(B) of b <= 256 bytes. */
#define FF1_QMAX (UID_FF1_TWEAK_MAX + 16 + 1 + 256)
/* Most bytes of S: d <= 4 * 64 + 4, rounded up to whole blocks. */
#define FF1_SMAX 272

/* Wipes a buffer in a way the compiler may not drop. */
static void
ff1_wipe(void *p, size_t n)
{
	volatile unsigned char *v = p;

	while (n--)
		*v++ = 0;
}

uid_ff1_status
uid_ff1_init(uid_ff1 *f, const unsigned char *key, size_t keylen)
{
	const EVP_CIPHER *c;
	EVP_CIPHER_CTX *ctx;

	switch (keylen)
	{
		case 16:
			c = EVP_aes_128_ecb();
			break;
		case 24:
			c = EVP_aes_192_ecb();
			break;
		case 32:
			c = EVP_aes_256_ecb();
			break;
		default:
			return UID_FF1_KEY_LENGTH;
	}
	memset(f, 0, sizeof(*f));
	ctx = EVP_CIPHER_CTX_new();
	if (ctx == NULL)
		return UID_FF1_CRYPTO;
	if (EVP_EncryptInit_ex(ctx, c, NULL, key, NULL) != 1 || EVP_CIPHER_CTX_set_padding(ctx, 0) != 1)
	{
		EVP_CIPHER_CTX_free(ctx);
		return UID_FF1_CRYPTO;
	}
	f->ctx = ctx;
	return UID_FF1_OK;
}

void
uid_ff1_free(uid_ff1 *f)
{
	if (f->ctx != NULL)
		EVP_CIPHER_CTX_free(f->ctx);	/* cleans the key schedule */
	ff1_wipe(f, sizeof(*f));
}

/*
 * out = AES_K(in), 16 bytes; in and out may be the same.  EVP_Cipher, the
 * one-shot call without EVP_EncryptUpdate's buffering, as every call is one
 * whole block of ECB (it returns 1, or the bytes done for a custom cipher).
 */
static int
ff1_aes(uid_ff1 *f, const unsigned char *in, unsigned char *out)
{
	return EVP_Cipher(f->ctx, out, in, 16) > 0;
}

uid_ff1_status
uid_ff1_block(uid_ff1 *f, const unsigned char in[16], unsigned char out[16])
{
	return ff1_aes(f, in, out) ? UID_FF1_OK : UID_FF1_CRYPTO;
}

/* The encryption of P = [1,2,1] [radix]^3 [10] [u mod 256] [n]^4 [t]^4, kept for reuse. */
static int
ff1_p(uid_ff1 *f, uint32_t radix, uint32_t n, uint32_t t)
{
	unsigned char p[16];

	if (f->p_n == n && f->p_radix == radix && f->p_t == t)
		return 1;
	p[0] = 1;
	p[1] = 2;
	p[2] = 1;
	p[3] = (unsigned char) (radix >> 16);
	p[4] = (unsigned char) (radix >> 8);
	p[5] = (unsigned char) radix;
	p[6] = 10;
	p[7] = (unsigned char) ((n / 2) & 0xff);
	p[8] = (unsigned char) (n >> 24);
	p[9] = (unsigned char) (n >> 16);
	p[10] = (unsigned char) (n >> 8);
	p[11] = (unsigned char) n;
	p[12] = (unsigned char) (t >> 24);
	p[13] = (unsigned char) (t >> 16);
	p[14] = (unsigned char) (t >> 8);
	p[15] = (unsigned char) t;
	f->p_n = 0;
	if (!ff1_aes(f, p, f->p_enc))
		return 0;
	f->p_radix = radix;
	f->p_n = n;
	f->p_t = t;
	return 1;
}

/*
 * One round's S (d bytes): R = PRF(P || Q) with Q = T || 0^pad || [i] ||
 * num[0..b-1], then R || AES(R ^ [1]) || ... cut to d bytes.  ff1_p has run.
 */
static int
ff1_round(uid_ff1 *f, const unsigned char *tweak, size_t t, int i,
		  const unsigned char *num, size_t b, size_t d, unsigned char *s)
{
	unsigned char q[FF1_QMAX];
	size_t		pad = (16 - (t + b + 1) % 16) % 16;
	size_t		qlen = t + pad + 1 + b;
	unsigned char r[16];

	if (t > 0)
		memcpy(q, tweak, t);
	memset(q + t, 0, pad);
	q[t + pad] = (unsigned char) i;
	memcpy(q + t + pad + 1, num, b);
	memcpy(r, f->p_enc, 16);
	for (size_t off = 0; off < qlen; off += 16)
	{
		for (int k = 0; k < 16; k++)
			r[k] ^= q[off + k];
		if (!ff1_aes(f, r, r))
			return 0;
	}
	memcpy(s, r, d < 16 ? d : 16);
	for (size_t j = 1; 16 * j < d; j++)
	{
		unsigned char x[16];
		size_t		take = d - 16 * j < 16 ? d - 16 * j : 16;

		memcpy(x, r, 16);
		x[15] ^= (unsigned char) j;
		x[14] ^= (unsigned char) (j >> 8);
		if (!ff1_aes(f, x, x))
			return 0;
		memcpy(s + 16 * j, x, take);
	}
	return 1;
}

/* x = x * mul + add */
static void
ff1_num_muladd(ff1_num *x, uint32_t mul, uint32_t add)
{
	uint64_t	carry = add;

	for (int k = 0; k < x->len; k++)
	{
		uint64_t	p = (uint64_t) x->limb[k] * mul + carry;

		x->limb[k] = (uint32_t) p;
		carry = p >> 32;
	}
	if (carry != 0 && x->len < FF1_LIMBS)
		x->limb[x->len++] = (uint32_t) carry;
}

/* x = x / div; returns the remainder */
static uint32_t
ff1_num_divmod(ff1_num *x, uint32_t div)
{
	uint64_t	rem = 0;

	for (int k = x->len - 1; k >= 0; k--)
	{
		uint64_t	cur = (rem << 32) | x->limb[k];

		x->limb[k] = (uint32_t) (cur / div);
		rem = cur % div;
	}
	while (x->len > 0 && x->limb[x->len - 1] == 0)
		x->len--;
	return (uint32_t) rem;
}

/* NUM_radix of digits[0..len-1], most significant first */
static void
ff1_num_digits(ff1_num *x, const uint32_t *digits, size_t len, uint32_t radix)
{
	x->len = 0;
	for (size_t k = 0; k < len; k++)
		ff1_num_muladd(x, radix, digits[k]);
}

/* NUM of a big-endian byte string */
static void
ff1_num_bytes(ff1_num *x, const unsigned char *s, size_t len)
{
	x->len = 0;
	for (size_t k = 0; k < len; k++)
		ff1_num_muladd(x, 256, s[k]);
}

/* [x]^len: the low len bytes of x, big-endian */
static void
ff1_num_out(const ff1_num *x, unsigned char *out, size_t len)
{
	for (size_t k = 0; k < len; k++)
	{
		size_t		byte = k;	/* from the least significant */
		size_t		limb = byte / 4;

		out[len - 1 - k] = limb < (size_t) x->len ? (unsigned char) (x->limb[limb] >> (8 * (byte % 4))) : 0;
	}
}

/* Bits needed for x (0 for 0). */
static size_t
ff1_num_bitlen(const ff1_num *x)
{
	size_t		bits;
	uint32_t	top;

	if (x->len == 0)
		return 0;
	bits = 32 * (size_t) (x->len - 1);
	for (top = x->limb[x->len - 1]; top != 0; top >>= 1)
		bits++;
	return bits;
}

uid_ff1_status
uid_ff1_digits(uid_ff1 *f, uint32_t radix, const uint16_t *x, size_t n,
			   const unsigned char *tweak, size_t t, uint16_t *y, int decrypt)
{
	uint32_t	a[UID_FF1_MAXLEN],
				bb[UID_FF1_MAXLEN],
				c[UID_FF1_MAXLEN];
	size_t		u,
				v,
				alen,
				blen,
				b,
				d;
	uint64_t	dom = 1;
	ff1_num		num;
	unsigned char nb[256],
				s[FF1_SMAX];

	if (radix < 2 || radix > 65536 || n < 2 || n > UID_FF1_MAXLEN)
		return UID_FF1_DOMAIN;
	for (size_t k = 0; k < n && dom < 1000000; k++)
		dom *= radix;
	if (dom < 1000000)
		return UID_FF1_DOMAIN;
	if (t > UID_FF1_TWEAK_MAX)
		return UID_FF1_TWEAK;
	for (size_t k = 0; k < n; k++)
		if (x[k] >= radix)
			return UID_FF1_DIGIT;
	u = n / 2;
	v = n - u;
	/* b = ceil(ceil(v * log2(radix)) / 8) = bytes of radix^v - 1 */
	for (size_t k = 0; k < v; k++)
		c[k] = radix - 1;
	ff1_num_digits(&num, c, v, radix);
	b = (ff1_num_bitlen(&num) + 7) / 8;
	d = 4 * ((b + 3) / 4) + 4;
	if (!ff1_p(f, radix, (uint32_t) n, (uint32_t) t))
		return UID_FF1_CRYPTO;
	for (size_t k = 0; k < u; k++)
		a[k] = x[k];
	for (size_t k = 0; k < v; k++)
		bb[k] = x[u + k];
	alen = u;
	blen = v;
	for (int r = 0; r < 10; r++)
	{
		int			i = decrypt ? 9 - r : r;
		size_t		m = i % 2 == 0 ? u : v;
		uint32_t   *src = decrypt ? bb : a; /* the half that takes y */
		const uint32_t *fed = decrypt ? a : bb; /* the half fed to the PRF */
		size_t		fedlen = decrypt ? alen : blen;
		uint32_t	carry = 0;

		ff1_num_digits(&num, fed, fedlen, radix);
		ff1_num_out(&num, nb, b);
		if (!ff1_round(f, tweak, t, i, nb, b, d, s))
			return UID_FF1_CRYPTO;
		ff1_num_bytes(&num, s, d);
		/* c = src +- y mod radix^m, digit by digit from the least significant */
		for (size_t k = m; k-- > 0;)
		{
			int64_t		yd = ff1_num_divmod(&num, radix);
			int64_t		sum = decrypt ? (int64_t) src[k] - yd - carry : (int64_t) src[k] + yd + carry;

			if (decrypt)
			{
				carry = sum < 0;
				c[k] = (uint32_t) (sum < 0 ? sum + radix : sum);
			}
			else
			{
				carry = sum >= (int64_t) radix;
				c[k] = (uint32_t) (carry ? sum - radix : sum);
			}
		}
		if (decrypt)
		{
			/* B = A, A = C */
			memcpy(bb, a, alen * sizeof(uint32_t));
			blen = alen;
			memcpy(a, c, m * sizeof(uint32_t));
			alen = m;
		}
		else
		{
			memcpy(a, bb, blen * sizeof(uint32_t));
			alen = blen;
			memcpy(bb, c, m * sizeof(uint32_t));
			blen = m;
		}
	}
	for (size_t k = 0; k < alen; k++)
		y[k] = (uint16_t) a[k];
	for (size_t k = 0; k < blen; k++)
		y[alen + k] = (uint16_t) bb[k];
	ff1_wipe(s, d);
	return UID_FF1_OK;
}

/* A half of the bit path: up to 128 bits. */
typedef struct ff1_half
{
	uint64_t	hi;
	uint64_t	lo;
} ff1_half;

/* x modulo 2^m (m <= 128) */
static ff1_half
ff1_half_mask(ff1_half x, size_t m)
{
	if (m < 64)
	{
		x.hi = 0;
		x.lo &= (UINT64_C(1) << m) - 1;
	}
	else if (m < 128)
		x.hi &= (UINT64_C(1) << (m - 64)) - 1;
	return x;
}

/* The big-endian bytes s[0..len-1] (len <= 16) as a half */
static ff1_half
ff1_half_load(const unsigned char *s, size_t len)
{
	ff1_half	x = {0, 0};

	for (size_t k = 0; k < len; k++)
	{
		x.hi = x.hi << 8 | x.lo >> 56;
		x.lo = x.lo << 8 | s[k];
	}
	return x;
}

/* [x]^len: the low len bytes of x (len <= 16), big-endian */
static void
ff1_half_store(ff1_half x, unsigned char *out, size_t len)
{
	for (size_t k = 0; k < len; k++)
	{
		out[len - 1 - k] = (unsigned char) x.lo;
		x.lo = x.lo >> 8 | x.hi << 56;
		x.hi >>= 8;
	}
}

uid_ff1_status
uid_ff1_bits(uid_ff1 *f, const unsigned char *in, size_t nbits,
			 const unsigned char *tweak, size_t t, unsigned char *out, int decrypt)
{
	size_t		nbytes = (nbits + 7) / 8,
				u,
				v,
				b,
				d;
	uint64_t	w[4] = {0, 0, 0, 0};	/* the whole, big-endian words, right-aligned */
	ff1_half	a,
				bb;
	unsigned char nb[16],
				s[FF1_SMAX];

	if (nbits < 20 || nbits > UID_FF1_MAXBITS)
		return UID_FF1_DOMAIN;
	if (t > UID_FF1_TWEAK_MAX)
		return UID_FF1_TWEAK;
	if (nbits % 8 != 0 && (in[0] >> (nbits % 8)) != 0)
		return UID_FF1_NONZERO_PAD;
	u = nbits / 2;
	v = nbits - u;
	b = (v + 7) / 8;
	d = 4 * ((b + 3) / 4) + 4;
	if (!ff1_p(f, 2, (uint32_t) nbits, (uint32_t) t))
		return UID_FF1_CRYPTO;
	for (size_t k = 0; k < nbytes; k++)
	{
		size_t		byte = nbytes - 1 - k;	/* from the least significant */

		w[3 - byte / 8] |= (uint64_t) in[k] << (8 * (byte % 8));
	}
	/* B: the low v bits; A: the u bits above them (v <= 128) */
	bb.hi = w[2];
	bb.lo = w[3];
	bb = ff1_half_mask(bb, v);
	{
		size_t		words = v / 64,
					bits = v % 64;
		uint64_t	sh[4] = {0, 0, 0, 0};

		for (int j = 3; j >= 0; j--)
		{
			int			src = j - (int) words;

			if (src >= 0)
				sh[j] = bits ? w[src] >> bits | (src >= 1 ? w[src - 1] << (64 - bits) : 0) : w[src];
		}
		a.hi = sh[2];
		a.lo = sh[3];
		a = ff1_half_mask(a, u);
	}
	for (int r = 0; r < 10; r++)
	{
		int			i = decrypt ? 9 - r : r;
		size_t		m = i % 2 == 0 ? u : v;
		size_t		mb = (m + 7) / 8;
		ff1_half	y,
					c,
					src = decrypt ? bb : a;

		ff1_half_store(decrypt ? a : bb, nb, b);
		if (!ff1_round(f, tweak, t, i, nb, b, d, s))
			return UID_FF1_CRYPTO;
		/* y mod 2^m: the low m bits of S[0..d-1] */
		y = ff1_half_mask(ff1_half_load(s + d - mb, mb), m);
		if (decrypt)
		{
			c.lo = src.lo - y.lo;
			c.hi = src.hi - y.hi - (src.lo < y.lo);
		}
		else
		{
			c.lo = src.lo + y.lo;
			c.hi = src.hi + y.hi + (c.lo < src.lo);
		}
		c = ff1_half_mask(c, m);
		if (decrypt)
		{
			bb = a;
			a = c;
		}
		else
		{
			a = bb;
			bb = c;
		}
	}
	/* out = A << v | B */
	{
		size_t		words = v / 64,
					bits = v % 64;
		uint64_t	ah[4] = {0, 0, a.hi, a.lo};

		w[0] = w[1] = 0;
		w[2] = bb.hi;
		w[3] = bb.lo;
		for (int j = 0; j < 4; j++)
		{
			int			src = j + (int) words;

			if (src <= 3)
				w[j] |= bits ? ah[src] << bits | (src <= 2 ? ah[src + 1] >> (64 - bits) : 0) : ah[src];
		}
	}
	for (size_t k = 0; k < nbytes; k++)
	{
		size_t		byte = nbytes - 1 - k;

		out[k] = (unsigned char) (w[3 - byte / 8] >> (8 * (byte % 8)));
	}
	ff1_wipe(s, d);
	return UID_FF1_OK;
}
