/*
 * peaks.c
 *	The published dense peaks per chip (model/peaks.h).  Figures are the
 *	vendor's dense (non-sparse) numbers; where a datasheet states only the
 *	sparse one, half of it.  U = unknown (not published, or not stated for
 *	that accumulator), 0 = the chip has no such tensor operation.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/peaks.h"

#define U TCP_PEAK_UNKNOWN

/*                                   f16.f32 f16.f16 tf32   fp8.f32 fp8.f16 i8     fp4 */
const tcp_peak_chip_t tcp_peak_chips[] = {
	/* Ampere GA100: NVIDIA A100 datasheet, dense FP16/BF16 312, TF32 156, INT8 624 at 1410 MHz */
	{ 0x20B0, "NVIDIA A100-SXM4-40GB", 80, 108, 1410, { 2048, 2048, 1024, 0, 0, 4096, 0 },
	  TCP_PK_F16_F32, 312, "NVIDIA A100 datasheet / GA100 whitepaper" },
	{ 0x20B2, "NVIDIA A100-SXM4-80GB", 80, 108, 1410, { 2048, 2048, 1024, 0, 0, 4096, 0 },
	  TCP_PK_F16_F32, 312, "NVIDIA A100 datasheet / GA100 whitepaper" },
	{ 0x20F1, "NVIDIA A100-PCIE-40GB", 80, 108, 1410, { 2048, 2048, 1024, 0, 0, 4096, 0 },
	  TCP_PK_F16_F32, 312, "NVIDIA A100 datasheet / GA100 whitepaper" },
	{ 0x20B5, "NVIDIA A100 80GB PCIe", 80, 108, 1410, { 2048, 2048, 1024, 0, 0, 4096, 0 },
	  TCP_PK_F16_F32, 312, "NVIDIA A100 datasheet / GA100 whitepaper" },
	/* Ampere GA10x: data-center / workstation parts run f32 accumulate at full rate */
	{ 0x2236, "NVIDIA A10", 86, 72, 1695, { 1024, 1024, 512, 0, 0, 2048, 0 },
	  TCP_PK_F16_F32, 125, "NVIDIA A10 datasheet: FP16 125, TF32 62.5, INT8 250 dense" },
	{ 0x2235, "NVIDIA A40", 86, 84, 1740, { 1024, 1024, 512, 0, 0, 2048, 0 },
	  TCP_PK_F16_F32, 149.7, "NVIDIA A40 datasheet: FP16 149.7, TF32 74.8, INT8 299.3 dense" },
	{ 0x2230, "NVIDIA RTX A6000", 86, 84, 1800, { 1024, 1024, 512, 0, 0, 2048, 0 },
	  TCP_PK_F16_F32, 154.8, "GA102 whitepaper appendix (RTX A6000): FP16 f32-acc 154.8 dense" },
	/* GeForce GA102: f32 accumulate at half the f16-accumulate rate */
	{ 0x2204, "NVIDIA GeForce RTX 3090", 86, 82, 1695, { 512, 1024, 256, 0, 0, 2048, 0 },
	  TCP_PK_F16_F16, 142, "GA102 whitepaper appendix: FP16 f16-acc 142, f32-acc 71, TF32 35.6, INT8 284" },
	/* Ada AD10x */
	{ 0x27B8, "NVIDIA L4", 89, 58, 2040, { 1024, U, 512, 2048, U, 2048, 0 },
	  TCP_PK_F16_F32, 121, "NVIDIA L4 datasheet: FP16 242, FP8 485, TF32 120, INT8 485 (sparse; halved); "
	  "accumulator not stated (taken as f32)" },
	{ 0x26B5, "NVIDIA L40", 89, 142, 2490, { 512, U, 256, 1024, U, 1024, 0 },
	  TCP_PK_F16_F32, 181.05, "NVIDIA L40 datasheet: FP16 181.05, FP8 362, TF32 90.5, INT8 362 dense; "
	  "accumulator not stated (taken as f32)" },
	{ 0x26B9, "NVIDIA L40S", 89, 142, 2490, { 1024, U, 512, 2048, U, 2048, 0 },
	  TCP_PK_F16_F32, 362.05, "NVIDIA L40S datasheet: FP16 362.05, FP8 733, TF32 183, INT8 733 dense; "
	  "accumulator not stated (taken as f32)" },
	{ 0x2684, "NVIDIA GeForce RTX 4090", 89, 128, 2520, { 512, 1024, 256, U, 2048, 2048, 0 },
	  TCP_PK_F16_F16, 330.3, "Ada (AD102) whitepaper appendix: FP16 f16-acc 330.3, f32-acc 165.2, "
	  "TF32 82.6, FP8 f16-acc 660.6, INT8 660.6; FP8 f32-acc not confirmed here" },
	/* Hopper: the wgmma rate (mma.sync reaches about 2/3 of it) */
	{ 0x2330, "NVIDIA H100 80GB HBM3", 90, 132, 1830, { 4096, 4096, 2048, 8192, 8192, 8192, 0 },
	  TCP_PK_F16_F32, 989.4, "NVIDIA H100 SXM datasheet: FP16 989.4, TF32 494.7, FP8 1979, INT8 1979 dense" },
	{ 0x2335, "NVIDIA H200", 90, 132, 1830, { 4096, 4096, 2048, 8192, 8192, 8192, 0 },
	  TCP_PK_F16_F32, 989.5, "NVIDIA H200 datasheet: FP16 1979, FP8 3958 (sparse; halved); "
	  "per clock = H100 SXM" },
	/* Blackwell data center: tcgen05 rates (model/kinds.h); the datasheet clock is not public */
	{ 0x2901, "NVIDIA B200", 100, 148, 0, { 8192, 8192, 4096, 16384, 16384, 16384, 32768 },
	  TCP_PK_F16_F32, 0, "CUTLASS media/docs/cpp/blackwell_functionality.md per-SM rates (model/kinds.h)" },
	/* Blackwell GeForce / workstation / GB10 (mma.sync only) */
	{ 0x2B85, "NVIDIA GeForce RTX 5090", 120, 170, 2407, { 512, 1024, 256, U, 2048, 2048, 4096 },
	  TCP_PK_F4, 1676, "RTX Blackwell (GB202) whitepaper appendix: FP4 3352 AI TOPS (sparse), "
	  "FP16 f16-acc 419, f32-acc 209.5, TF32 104.8, FP8 f16-acc 838, INT8 838 dense; FP8 f32-acc not confirmed here" },
	{ 0, "NVIDIA RTX PRO 6000 Blackwell Workstation Edition", 120, 188, 2617, { U, U, U, U, U, U, 4096 },
	  TCP_PK_F4, 2000, "NVIDIA RTX PRO 6000 Blackwell datasheet: 4000 AI TOPS FP4 (sparse; halved); "
	  "other kinds not published per accumulator" },
	{ 0, "NVIDIA GB10", 121, 48, 0, { U, U, U, U, U, U, U },
	  TCP_PK_F4, 0, "DGX Spark: 1 PFLOP FP4 (sparse), no clock published: no per-clock figure" },
};
const int tcp_npeak_chips = (int)(sizeof(tcp_peak_chips) / sizeof(tcp_peak_chips[0]));

const tcp_peak_chip_t *tcp_peak_find(unsigned pci_device_id, const char *name)
{
	if (pci_device_id)
		for (int i = 0; i < tcp_npeak_chips; i++)
			if (tcp_peak_chips[i].pci_device_id == pci_device_id)
				return &tcp_peak_chips[i];
	if (name)
		for (int i = 0; i < tcp_npeak_chips; i++)
			if (!strcmp(tcp_peak_chips[i].name, name))
				return &tcp_peak_chips[i];
	return NULL;
}

int tcp_peak_class(tcp_kind_t kind, tcp_type_t ab, tcp_type_t acc)
{
	switch (kind) {
	case TCP_KIND_F16:
		return acc == TCP_T_F16 ? TCP_PK_F16_F16 : TCP_PK_F16_F32;
	case TCP_KIND_TF32:
		return TCP_PK_TF32;
	case TCP_KIND_I8:
		return TCP_PK_I8;
	case TCP_KIND_F8F6F4: case TCP_KIND_MXF8F6F4:
		return acc == TCP_T_F16 ? TCP_PK_F8_F16 : TCP_PK_F8_F32;
	case TCP_KIND_MXF4: case TCP_KIND_MXF4NVF4:
		return TCP_PK_F4;
	default:
		(void)ab;
		return -1;
	}
}

const char *tcp_peak_class_name(int cls)
{
	static const char *const n[TCP_PK_COUNT] = { "f16.f32", "f16.f16", "tf32", "fp8.f32", "fp8.f16",
						     "i8", "fp4" };
	return cls >= 0 && cls < TCP_PK_COUNT ? n[cls] : "?";
}

double tcp_peak_rate(const tcp_peak_chip_t *chip, int cls, char *reason, size_t len)
{
	if (!chip) {
		snprintf(reason, len, "chip not in the peaks table (model/peaks.c)");
		return NAN;
	}
	if (cls < 0 || cls >= TCP_PK_COUNT) {
		snprintf(reason, len, "no rate class for this form");
		return NAN;
	}
	if (chip->rate[cls] == TCP_PEAK_UNKNOWN) {
		snprintf(reason, len, "%s: no published %s peak", chip->name, tcp_peak_class_name(cls));
		return NAN;
	}
	if (chip->rate[cls] == TCP_PEAK_ABSENT) {
		snprintf(reason, len, "%s has no %s tensor operation", chip->name, tcp_peak_class_name(cls));
		return NAN;
	}
	return chip->rate[cls];
}
