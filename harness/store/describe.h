/*
 * describe.h
 *	What a measured point is, in the terms the readers need: its probe's
 *	family, the MMA kind, the types of A, B and the accumulator, and the
 *	FLOP one run() does (measurements.csv's version 3 columns, columns.h).
 *	The sweep writes them on every row of the point; the run model reads
 *	them, and for a run written before version 3 derives them here, once,
 *	from what the old run holds (its axis values, its probe names, its
 *	provenance; its family from declared.h), so that no reader (analyze/) asks the probe registry of its
 *	own binary or reads meaning into axis strings.
 */
#ifndef TCP_DESCRIBE_H
#define TCP_DESCRIBE_H

#ifdef __cplusplus
extern "C" {
#endif

/* A point's description.  Strings are static (model/kinds.h names) or point
 * into the caller's data; "" = none. */
typedef struct {
	const char *family;
	const char *mma_kind, *a_type, *b_type, *acc_type;
	int sparse;		/* 1 2:4 structured sparse, 0 dense, -1 no MMA */
} tcp_point_desc_t;

/*
 * tcp_describe_axes()
 *	The MMA kind and types of a point from its axes an[i]=av[i] (value names
 *	as the probe declares them): the kind from a `kind` axis (a model/kinds.h
 *	kind, or an element type that selects one: "bf16", "e4m3_e5m2"), else a
 *	type axis (`type`, `dtype`, `atype`, `a_type`, `a`); A's type from
 *	`atype` (unless "auto") else the kind value's first type token; B's from
 *	`btype` likewise, else the kind value's second token, else A's; the
 *	accumulator from `acc`, else s32 for i8 and f32 for every other kind;
 *	sparse when a `sparse` axis is there and not 0.
 *	Family is left as it is.
 */
void tcp_describe_axes(int naxes, const char *const *an, const char *const *av, tcp_point_desc_t *d);

/*
 * tcp_describe_old_arch()
 *	The one target a pre-version-3 row ran on: its `arch` cell when that is
 *	one name (`sm_90a`, `sm_100a`, `host`); else the target of the run's
 *	compute capability (provenance `compute_capability`, 9.0 or 10.0); else
 *	the probe's generation by name (tc_* sm_100a; wgmma*, mma_sync sm_90a);
 *	else the cell as written.
 */
const char *tcp_describe_old_arch(const char *cell, const char *probe, const char *cc);

/* The generation (90, 100) of a target name, 0 when neither a Hopper nor a
 * tcgen05 target. */
int tcp_describe_gen(const char *arch);

#ifdef __cplusplus
}
#endif
#endif /* TCP_DESCRIBE_H */
