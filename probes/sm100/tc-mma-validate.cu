/*
 * tc-mma-validate.cu
 *	The validation kernels of the MMA probes (tc_mma_lat, tc_mma_ii,
 *	tc_mma_tput), instantiated once for the three of them instead of once
 *	per probe file: one MMA (+ the masked one) for every kind variant,
 *	cta_group, A placement and commit form (tc-mma.cuh TC_MODE_VALIDATE).
 *	Not a probe: it registers nothing.
 */
#include "probes/sm100/tc-mma.cuh"

extern const tc_cast_table_t tc_mma_validate_tab = TC_TABLE_CAST(TC_MODE_VALIDATE, 0);
