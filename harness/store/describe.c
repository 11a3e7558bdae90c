/*
 * describe.c
 *	A point's description from its axes (describe.h), and the derivations
 *	for runs written before measurements.csv carried it.
 */
#include <string.h>

#include "harness/store/csvio.h"
#include "harness/store/describe.h"
#include "model/kinds.h"

/* The first type token of v ("e4m3" of "e4m3_e5m2"), second when second is set;
 * -1 when none. */
static int type_token(const char *v, int second)
{
	char tok[32];
	size_t n = 0;

	if (!v)
		return -1;
	if (second) {
		v += strcspn(v, "._-/:+ ");
		if (!*v++)
			return -1;
	}
	while (v[n] && n + 1 < sizeof(tok) && !strchr("._-/:+ ", v[n])) {
		tok[n] = v[n];
		n++;
	}
	tok[n] = 0;
	return tcp_type_parse(tok);
}

/*
 *  kind_of_value()
 *	An axis value as an MMA kind: a tcgen05 kind name ("f8f6f4"), an
 *	element type that selects the kind ("bf16", "e4m3", "s8"), or either
 *	followed by a suffix ("e4m3.e5m2", "bf16_f32").  -1 when none matches.
 */
static int kind_of_value(const char *v)
{
	char tok[32];
	size_t n = 0;
	int k;

	if (!v || !*v)
		return -1;
	if ((k = tcp_kind_parse(v)) >= 0)
		return k;
	while (v[n] && n + 1 < sizeof(tok) && !strchr("._-/:+ ", v[n])) {
		tok[n] = v[n];
		n++;
	}
	tok[n] = 0;
	if ((k = tcp_kind_parse(tok)) >= 0)
		return k;
	if (!strcmp(tok, "fp8"))
		return TCP_KIND_F8F6F4;
	if (!strcmp(tok, "int8"))
		return TCP_KIND_I8;
	if (!strcmp(tok, "fp16"))
		return TCP_KIND_F16;
	switch (tcp_type_parse(tok)) {
	case TCP_T_F16: case TCP_T_BF16: return TCP_KIND_F16;
	case TCP_T_TF32: return TCP_KIND_TF32;
	case TCP_T_E4M3: case TCP_T_E5M2: case TCP_T_E2M3: case TCP_T_E3M2: case TCP_T_E2M1:
		return TCP_KIND_F8F6F4;
	case TCP_T_S8: case TCP_T_U8: return TCP_KIND_I8;
	default: return -1;
	}
}

static const char *axis(int n, const char *const *an, const char *const *av, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(an[i], name))
			return av[i];
	return NULL;
}

static const char *type_str(int t)
{
	return t >= 0 ? tcp_type_name((tcp_type_t)t) : "";
}

void tcp_describe_axes(int naxes, const char *const *an, const char *const *av, tcp_point_desc_t *d)
{
	static const char *const names[] = { "kind", "type", "dtype", "atype", "a_type", "a", NULL };
	const char *kv = NULL, *v;
	int kind = -1, a, b, acc;

	d->mma_kind = d->a_type = d->b_type = d->acc_type = "";
	d->sparse = -1;
	for (int i = 0; names[i] && kind < 0; i++)
		if ((v = axis(naxes, an, av, names[i]))) {
			kind = kind_of_value(v);
			kv = v;
			break;
		}
	if (kind < 0)
		return;
	d->mma_kind = tcp_kind_name((tcp_kind_t)kind);
	v = axis(naxes, an, av, "atype");
	a = v && strcmp(v, "auto") ? type_token(v, 0) : type_token(kv, 0);
	v = axis(naxes, an, av, "btype");
	b = v && strcmp(v, "auto") ? type_token(v, 0) : type_token(kv, 1);
	if (b < 0)
		b = a;
	v = axis(naxes, an, av, "acc");
	acc = v ? type_token(v, 0) : -1;
	if (acc < 0)
		acc = kind == TCP_KIND_I8 ? TCP_T_S32 : TCP_T_F32;
	d->a_type = type_str(a);
	d->b_type = type_str(b);
	d->acc_type = type_str(acc);
	v = axis(naxes, an, av, "sparse");
	d->sparse = v && strcmp(v, "0") != 0;
}

const char *tcp_describe_old_arch(const char *cell, const char *probe, const char *cc)
{
	if (cell && (!strcmp(cell, "sm_90a") || !strcmp(cell, "sm_100a") || !strcmp(cell, "host")))
		return cell;
	if (cc) {
		double v = tcp_csv_num(cc);
		if (v == 9.0 || v == 90)
			return "sm_90a";
		if (v == 10.0 || v == 100)
			return "sm_100a";
	}
	if (!strncmp(probe, "tc_", 3))
		return "sm_100a";
	if (!strncmp(probe, "wgmma", 5) || !strncmp(probe, "mma_sync", 8))
		return "sm_90a";
	return cell ? cell : "";
}

int tcp_describe_gen(const char *arch)
{
	if (!arch)
		return 0;
	if (!strcmp(arch, "sm_90a"))
		return 90;
	if (!strcmp(arch, "sm_100a") || !strcmp(arch, "sm_103a") || !strcmp(arch, "sm_110a"))
		return 100;
	return 0;
}
