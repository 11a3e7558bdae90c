/*
 * peaks.h
 *	Published dense tensor-core peaks per chip, in FLOP (or OP) per clock per
 *	SM, keyed by the PCI device ID and NVML's / CUDA's device name, never by
 *	compute capability and SM count: an L40 and an L40S share both (sm_89,
 *	142 SMs) and differ 2x; a GeForce part runs f16/bf16 with an f32
 *	accumulator at half its f16-accumulator rate, its workstation sibling
 *	does not.  A rate nobody published is "unknown" (-1), not guessed.
 *
 *	Each row names its source and, where the source gives them, the
 *	TFLOP/s figure with the SM count and clock it implies; the unit test
 *	checks rate x SMs x clock against that figure.
 */
#ifndef TCP_MODEL_PEAKS_H
#define TCP_MODEL_PEAKS_H

#include "model/kinds.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Rate classes: the input family and the accumulator. */
typedef enum {
	TCP_PK_F16_F32 = 0,	/* f16 / bf16 inputs, f32 accumulator */
	TCP_PK_F16_F16,		/* f16 inputs, f16 accumulator */
	TCP_PK_TF32,
	TCP_PK_F8_F32,		/* e4m3/e5m2 (and fp6/fp4 in 8-bit containers, mxf8f6f4), f32 acc */
	TCP_PK_F8_F16,		/* the same into f16 */
	TCP_PK_I8,		/* s8 / u8 -> s32 */
	TCP_PK_F4,		/* mxf4 / mxf4nvf4 (K = 64) */
	TCP_PK_COUNT
} tcp_peak_class_t;

#define TCP_PEAK_UNKNOWN (-1.0)	/* nothing published */
#define TCP_PEAK_ABSENT 0.0	/* the chip has no such tensor operation */

typedef struct {
	unsigned pci_device_id;		/* PCI device ID (vendor 0x10de), 0 = not recorded here */
	const char *name;		/* as cudaGetDeviceProperties / nvmlDeviceGetName print it */
	int cc;				/* compute capability x10 */
	int sms;
	double mhz;			/* the clock the published TFLOP/s figure implies; 0 = none */
	double rate[TCP_PK_COUNT];	/* FLOP/clk/SM, TCP_PEAK_UNKNOWN or TCP_PEAK_ABSENT */
	tcp_peak_class_t check;		/* the class of the published figure below */
	double tflops;			/* that figure (dense), 0 = none to check against */
	const char *source;
} tcp_peak_chip_t;

/* The table, and its length. */
extern const tcp_peak_chip_t tcp_peak_chips[];
extern const int tcp_npeak_chips;

/*
 * tcp_peak_find()
 *	The row of the chip with this PCI device ID (when non-zero and listed),
 *	else with exactly this name; NULL when neither is in the table.
 */
const tcp_peak_chip_t *tcp_peak_find(unsigned pci_device_id, const char *name);

/* The rate class of inputs `ab` into `acc` under `kind` (-1 when none). */
int tcp_peak_class(tcp_kind_t kind, tcp_type_t ab, tcp_type_t acc);

/*
 * tcp_peak_rate()
 *	FLOP/clk/SM of `cls` on `chip`; NaN with a one-line reason when the chip
 *	is not in the table or the figure is unknown or absent.
 */
double tcp_peak_rate(const tcp_peak_chip_t *chip, int cls, char *reason, size_t len);

const char *tcp_peak_class_name(int cls);	/* "f16.f32", "fp8.f16", "fp4" */

#ifdef __cplusplus
}
#endif
#endif /* TCP_MODEL_PEAKS_H */
