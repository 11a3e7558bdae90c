/*
 * kinds.c
 *	Host-only name tables for kinds and element types (model/kinds.h).
 */
#include <string.h>

#include "model/kinds.h"

static const char *const kind_names[TCP_KIND_COUNT] = {
	"f16", "tf32", "f8f6f4", "i8", "mxf8f6f4", "mxf4", "mxf4nvf4",
};

static const char *const type_names[TCP_T_COUNT] = {
	"f16", "bf16", "tf32", "e4m3", "e5m2", "e2m3", "e3m2", "e2m1",
	"s8", "u8", "f32", "s32", "ue8m0", "ue4m3",
};

/*
 *  tcp_kind_name(), tcp_kind_parse(), tcp_type_name(), tcp_type_parse()
 *	code <-> name; unknown codes give "?", unknown names -1.
 */
const char *tcp_kind_name(tcp_kind_t k)
{
	return (unsigned)k < TCP_KIND_COUNT ? kind_names[k] : "?";
}

int tcp_kind_parse(const char *s)
{
	for (int i = 0; s && i < TCP_KIND_COUNT; i++)
		if (!strcmp(s, kind_names[i]))
			return i;
	return -1;
}

const char *tcp_type_name(tcp_type_t t)
{
	return (unsigned)t < TCP_T_COUNT ? type_names[t] : "?";
}

int tcp_type_parse(const char *s)
{
	for (int i = 0; s && i < TCP_T_COUNT; i++)
		if (!strcmp(s, type_names[i]))
			return i;
	return -1;
}

const char *tcp_kind_names(void)
{
	return "f16, tf32, f8f6f4, i8, mxf8f6f4, mxf4, mxf4nvf4";
}

const char *tcp_type_names(void)
{
	return "f16, bf16, tf32, e4m3, e5m2, e2m3, e3m2, e2m1, s8, u8, f32, s32, ue8m0, ue4m3";
}
