/*
 * sdesc.h
 *	Shared-memory matrix descriptors: the 64-bit sm_100 tcgen05 descriptor
 *	and, for the Hopper baseline, the 64-bit wgmma descriptor.
 *	Sources: PTX ISA "Shared memory descriptor" (tcgen05, Table 40) and
 *	"Matrix Descriptor Format" (wgmma 9.7.15.5.1.2.2); CUTLASS
 *	cute/arch/mma_sm100_desc.hpp (SmemDescriptor); tcgen05-facts.md s.2.
 *
 *	sm_100:  0-13 start>>4  16-29 LBO>>4  32-45 SBO>>4  46-48 fixed 0b001
 *	         49-51 base offset  52 LBO mode  53-60 zero  61-63 layout
 *	sm_90:   0-13 start>>4  16-29 LBO>>4  32-45 SBO>>4  49-51 base offset
 *	         62-63 swizzle (0 none, 1 128B, 2 64B, 3 32B)
 *	Addresses are encoded as (x & 0x3FFFF) >> 4: 16-byte units, 256 KiB.
 */
#ifndef TCP_MODEL_SDESC_H
#define TCP_MODEL_SDESC_H

#include "model/hd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Layout (swizzle) codes, as the sm_100 descriptor's bits 61-63 spell them. */
typedef enum {
	TCP_SW_NONE = 0,	/* interleaved core matrices, no swizzle */
	TCP_SW_128B_32B = 1,	/* 128B swizzle with 32-byte atoms (sm_100 only) */
	TCP_SW_128B = 2,
	TCP_SW_64B = 4,
	TCP_SW_32B = 6
} tcp_swizzle_t;

#define TCP_SDESC_VERSION	1ull	/* bits 46-48, fixed 0b001 on sm_100 */
#define TCP_SDESC_ADDR_MASK	0x3FFFFu

/* Descriptor fields in bytes (not in 16-byte units). */
typedef struct {
	uint32_t start;		/* shared-memory byte address of the matrix */
	uint32_t lbo;		/* leading-dimension byte offset (or address, lbo_mode 1) */
	uint32_t sbo;		/* stride-dimension byte offset */
	unsigned base_offset;	/* 0..7, 0 when the swizzle pattern starts aligned */
	unsigned lbo_mode;	/* sm_100: 0 relative, 1 absolute (sm_103a) */
	tcp_swizzle_t layout;
} tcp_sdesc_t;

TCP_HD int tcp_swizzle_valid(unsigned code)
{
	return code == 0 || code == 1 || code == 2 || code == 4 || code == 6;
}

/* Width of a swizzle row in bytes: 16 (none, one core-matrix row), 32, 64, 128. */
TCP_HD unsigned tcp_swizzle_bytes(tcp_swizzle_t s)
{
	switch (s) {
	case TCP_SW_32B: return 32;
	case TCP_SW_64B: return 64;
	case TCP_SW_128B: case TCP_SW_128B_32B: return 128;
	default: return 16;
	}
}

/* Bytes after which the swizzle pattern repeats (8 rows): 256/512/1024; none: 128. */
TCP_HD unsigned tcp_swizzle_period(tcp_swizzle_t s)
{
	return 8 * tcp_swizzle_bytes(s);
}

/* Hopper's 2-bit swizzle code, -1 for layouts wgmma lacks (128B with 32B atoms). */
TCP_HD int tcp_swizzle_hopper_code(tcp_swizzle_t s)
{
	switch (s) {
	case TCP_SW_NONE: return 0;
	case TCP_SW_128B: return 1;
	case TCP_SW_64B: return 2;
	case TCP_SW_32B: return 3;
	default: return -1;
	}
}

TCP_HD uint64_t tcp_sdesc_enc_addr(uint32_t x)
{
	return (uint64_t)((x & TCP_SDESC_ADDR_MASK) >> 4);
}

/* Common checks: 16-byte alignment, the 18-bit range, base offset. */
TCP_HD int tcp_sdesc_fields_ok(const tcp_sdesc_t *d)
{
	if ((d->start | d->lbo | d->sbo) & 15)
		return 0;
	if (d->start > TCP_SDESC_ADDR_MASK || d->lbo > TCP_SDESC_ADDR_MASK ||
	    d->sbo > TCP_SDESC_ADDR_MASK)
		return 0;
	return d->base_offset <= 7 && d->lbo_mode <= 1;
}

/*
 * tcp_sdesc_encode(), tcp_sdesc_decode()
 *	sm_100 descriptor.  encode: 0 or -1 (misaligned, out of range, bad
 *	layout code).  decode: 0 or -1 (version bits not 0b001, reserved bits
 *	set, layout code 3/5/7).
 */
TCP_HD int tcp_sdesc_encode(const tcp_sdesc_t *d, uint64_t *out)
{
	if (!tcp_sdesc_fields_ok(d) || !tcp_swizzle_valid((unsigned)d->layout))
		return -1;
	*out = tcp_sdesc_enc_addr(d->start) | tcp_sdesc_enc_addr(d->lbo) << 16 |
	       tcp_sdesc_enc_addr(d->sbo) << 32 | TCP_SDESC_VERSION << 46 |
	       (uint64_t)d->base_offset << 49 | (uint64_t)d->lbo_mode << 52 |
	       (uint64_t)d->layout << 61;
	return 0;
}

TCP_HD int tcp_sdesc_decode(uint64_t v, tcp_sdesc_t *d)
{
	const uint64_t reserved = 3ull << 14 | 3ull << 30 | 0xFFull << 53;

	d->start = (uint32_t)(v & 0x3FFF) << 4;
	d->lbo = (uint32_t)((v >> 16) & 0x3FFF) << 4;
	d->sbo = (uint32_t)((v >> 32) & 0x3FFF) << 4;
	d->base_offset = (unsigned)(v >> 49) & 7;
	d->lbo_mode = (unsigned)(v >> 52) & 1;
	d->layout = (tcp_swizzle_t)(v >> 61);
	if (((v >> 46) & 7) != TCP_SDESC_VERSION || (v & reserved))
		return -1;
	return tcp_swizzle_valid((unsigned)(v >> 61)) ? 0 : -1;
}

/*
 * tcp_wgdesc_encode(), tcp_wgdesc_decode()
 *	Hopper wgmma descriptor (same struct; lbo_mode must be 0 and the layout
 *	one Hopper has).  decode: -1 when a bit outside the fields is set.
 */
TCP_HD int tcp_wgdesc_encode(const tcp_sdesc_t *d, uint64_t *out)
{
	int sw = tcp_swizzle_hopper_code(d->layout);

	if (!tcp_sdesc_fields_ok(d) || sw < 0 || d->lbo_mode)
		return -1;
	*out = tcp_sdesc_enc_addr(d->start) | tcp_sdesc_enc_addr(d->lbo) << 16 |
	       tcp_sdesc_enc_addr(d->sbo) << 32 | (uint64_t)d->base_offset << 49 |
	       (uint64_t)sw << 62;
	return 0;
}

TCP_HD int tcp_wgdesc_decode(uint64_t v, tcp_sdesc_t *d)
{
	const uint64_t reserved = 3ull << 14 | 3ull << 30 | 7ull << 46 | 0x3FFull << 52;

	d->start = (uint32_t)(v & 0x3FFF) << 4;
	d->lbo = (uint32_t)((v >> 16) & 0x3FFF) << 4;
	d->sbo = (uint32_t)((v >> 32) & 0x3FFF) << 4;
	d->base_offset = (unsigned)(v >> 49) & 7;
	d->lbo_mode = 0;
	switch (v >> 62) {
	case 1: d->layout = TCP_SW_128B; break;
	case 2: d->layout = TCP_SW_64B; break;
	case 3: d->layout = TCP_SW_32B; break;
	default: d->layout = TCP_SW_NONE; break;
	}
	return (v & reserved) ? -1 : 0;
}

#ifdef __cplusplus
}
#endif
#endif /* TCP_MODEL_SDESC_H */
