/*
 * ff1.h - the format-preserving cipher FF1 (NIST SP 800-38G) with AES, for
 * any radix (general path) and for bit strings (radix 2, fast path), on
 * OpenSSL's EVP interface.
 *
 * Nothing here includes PostgreSQL headers, so the cipher can be unit-tested
 * and fuzzed outside the server (test/ff1_test.c, test/fuzz/ff1_fuzz.c).
 * Functions never print or abort: they return a uid_ff1_status.  Key bytes
 * live only in the EVP context; uid_ff1_free wipes and frees it.
 *
 * Decisions:
 * - The general path takes numerals as arrays of digits (0..radix-1), radix
 *   2..65536, 2 to UID_FF1_MAXLEN digits, radix^n >= 1,000,000 (the
 *   standard's minimum domain), tweaks of 0 to UID_FF1_TWEAK_MAX bytes.
 * - The bit path takes an nbits-bit value (20..UID_FF1_MAXBITS) as a
 *   big-endian byte string of (nbits + 7) / 8 bytes, right-aligned (the
 *   unused high bits of the first byte are zero); the numeral is its bits,
 *   most significant first.  It gives what the general path gives for radix
 *   2 on the same bits (test/ff1_test.c checks it), faster: the halves'
 *   arithmetic modulo 2^m is byte arithmetic.
 * - The PRF's first block P depends only on radix, n and the tweak length:
 *   its encryption is kept for the last such triple.
 */
#ifndef UNIQUEID_FF1_H
#define UNIQUEID_FF1_H

#include <stddef.h>
#include <stdint.h>

/* Outcome of every function here that can fail. */
typedef enum uid_ff1_status
{
	UID_FF1_OK = 0,
	UID_FF1_KEY_LENGTH,			/* key is not 16, 24 or 32 bytes */
	UID_FF1_DOMAIN,				/* radix, length or radix^n out of range */
	UID_FF1_DIGIT,				/* a digit is not below the radix */
	UID_FF1_TWEAK,				/* tweak longer than UID_FF1_TWEAK_MAX */
	UID_FF1_NONZERO_PAD,		/* bit path: high bits above nbits set */
	UID_FF1_CRYPTO				/* OpenSSL failed (out of memory) */
} uid_ff1_status;

#define UID_FF1_MAXLEN 256		/* general path: most digits */
#define UID_FF1_MAXBITS 256		/* bit path: most bits */
#define UID_FF1_TWEAK_MAX 256	/* longest tweak, bytes */

/* A keyed cipher; zero it, then uid_ff1_init. */
typedef struct uid_ff1
{
	void	   *ctx;			/* EVP_CIPHER_CTX *, AES-ECB, no padding */
	/* the encryption of P for the last (radix, n, t) */
	uint32_t	p_radix;
	uint32_t	p_n;
	uint32_t	p_t;
	unsigned char p_enc[16];
} uid_ff1;

/* Keys AES with key[0..keylen-1] (16, 24 or 32 bytes).  Errors: KEY_LENGTH, CRYPTO. */
extern uid_ff1_status uid_ff1_init(uid_ff1 *f, const unsigned char *key, size_t keylen);

/* Wipes and frees the key schedule; f may then be keyed again. */
extern void uid_ff1_free(uid_ff1 *f);

/* AES_K(block): one raw block encryption (for key check values). */
extern uid_ff1_status uid_ff1_block(uid_ff1 *f, const unsigned char in[16], unsigned char out[16]);

/*
 * FF1.Encrypt (decrypt false) or FF1.Decrypt (decrypt true) of the n digits
 * x[] in radix under tweak[0..tweaklen-1], into y[] (may be x).  Errors:
 * DOMAIN, DIGIT, TWEAK, CRYPTO.
 */
extern uid_ff1_status uid_ff1_digits(uid_ff1 *f, uint32_t radix, const uint16_t *x, size_t n,
									 const unsigned char *tweak, size_t tweaklen,
									 uint16_t *y, int decrypt);

/*
 * FF1 in radix 2 on the nbits-bit value in[] ((nbits + 7) / 8 bytes,
 * big-endian, right-aligned) into out[] (same size; may be in).  Errors:
 * DOMAIN, NONZERO_PAD, TWEAK, CRYPTO.
 */
extern uid_ff1_status uid_ff1_bits(uid_ff1 *f, const unsigned char *in, size_t nbits,
								   const unsigned char *tweak, size_t tweaklen,
								   unsigned char *out, int decrypt);

#endif							/* UNIQUEID_FF1_H */
