/*
 * fuzz-desc.c
 *	libFuzzer target: the descriptor decoders and encoders of model/
 *	(tcgen05 instruction descriptor, sm_100 shared-memory descriptor,
 *	Hopper wgmma descriptor).  Input: 1 byte kind selector, 4 bytes
 *	instruction descriptor, 8 bytes sm_100 descriptor, 8 bytes wgmma
 *	descriptor (little endian; short inputs are zero-padded).
 *	Properties: a word the decoder accepts re-encodes to the same word
 *	whenever the encoder can represent the decoded fields (encode o decode
 *	= id); the decoder never reports a layout or type code the encoder does
 *	not know; no UB on any word (every shift is checked by UBSan).
 *	Seeds: tests/fuzz/corpus/desc/ (descriptors the probes build).
 */
#include <stdint.h>

#include "model/idesc.h"
#include "model/kinds.h"
#include "model/sdesc.h"
#include "tests/fuzz/fuzz-util.h"

static uint64_t le(const uint8_t *d, size_t size, size_t off, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		if (off + (size_t)i < size)
			v |= (uint64_t)d[off + i] << (8 * i);
	return v;
}

static void fuzz_idesc(uint32_t v, tcp_kind_t kind)
{
	tcp_idesc_t f;
	uint32_t again = 0;

	if (tcp_idesc_decode(v, kind, &f) != 0)
		return;
	FUZZ_CHECK(f.kind == kind, "kind %d decoded as %d", (int)kind, (int)f.kind);
	FUZZ_CHECK(tcp_idesc_type_code(kind, f.a) >= 0 && tcp_idesc_type_code(kind, f.b) >= 0,
		   "idesc 0x%08x: decoded a type the kind has no code for", v);
	if (tcp_idesc_encode(&f, &again) == 0)
		FUZZ_CHECK(again == v, "idesc kind %d: 0x%08x decodes, re-encodes as 0x%08x",
			   (int)kind, v, again);
}

static void fuzz_sdesc(uint64_t v)
{
	tcp_sdesc_t d;
	uint64_t again = 0;

	memset(&d, 0, sizeof(d));
	if (tcp_sdesc_decode(v, &d) == 0) {
		FUZZ_CHECK(tcp_swizzle_valid((unsigned)d.layout), "sdesc 0x%016llx: layout %d",
			   (unsigned long long)v, (int)d.layout);
		FUZZ_CHECK(tcp_sdesc_encode(&d, &again) == 0 && again == v,
			   "sdesc 0x%016llx decodes, re-encodes as 0x%016llx", (unsigned long long)v,
			   (unsigned long long)again);
	}
	memset(&d, 0, sizeof(d));
	if (tcp_wgdesc_decode(v, &d) == 0) {
		FUZZ_CHECK(tcp_swizzle_hopper_code(d.layout) >= 0, "wgdesc 0x%016llx: layout %d",
			   (unsigned long long)v, (int)d.layout);
		FUZZ_CHECK(tcp_wgdesc_encode(&d, &again) == 0 && again == v,
			   "wgdesc 0x%016llx decodes, re-encodes as 0x%016llx", (unsigned long long)v,
			   (unsigned long long)again);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	tcp_kind_t kind = (tcp_kind_t)(data[0] % TCP_KIND_COUNT);

	fuzz_idesc((uint32_t)le(data, size, 1, 4), kind);
	fuzz_sdesc(le(data, size, 5, 8));
	fuzz_sdesc(le(data, size, 13, 8));
	return 0;
}
