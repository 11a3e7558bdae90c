/*
 * cmd-arch.c
 *	The architecture model as commands (model/): encode, decode, layout,
 *	tmem-plan, k4.  Every answer comes from model/; this file declares each
 *	command's options (harness/cmd/options.h) and prints.  Bad input: one
 *	line naming the value and the legal range, exit 2.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cmd/cmd-list.h"
#include "harness/cmd/options.h"
#include "model/arch.h"
#include "model/legal.h"
#include "model/published-b300.h"
#include "model/sdesc.h"
#include "model/tmem-plan.h"
#include "model/tmem.h"

/* ---- values every command shares ------------------------------------------------ */

/* An element type (f16, bf16, e4m3, ...) into the tcp_type_t at o->ctx. */
static int type_cb(tcp_opt_t *o, const char *val, char *err, size_t len)
{
	int v = tcp_type_parse(val);

	if (v < 0)
		return tcp_opt_bad(err, len, o, val, "one of %s", tcp_type_names());
	*(tcp_type_t *)o->ctx = (tcp_type_t)v;
	return 0;
}

/* An MMA kind into the int at o->ctx. */
static int kind_cb(tcp_opt_t *o, const char *val, char *err, size_t len)
{
	int *kind = o->ctx;

	if ((*kind = tcp_kind_parse(val)) < 0)
		return tcp_opt_bad(err, len, o, val, "one of %s", tcp_kind_names());
	return 0;
}

/* "0x..." or decimal, whole, in lo..hi (a positional argument): 0, or 2 after one line. */
static int hex_arg(const tcp_cmd_spec_t *c, const char *what, const char *s, unsigned long long hi,
		   unsigned long long *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	if (errno || end == s || *end || s[0] == '-' || *out > hi)
		return tcp_cmd_bad(c, "%s: got '%s', expected an integer in 0..%#llx", what, s, hi);
	return 0;
}

static const tcp_opt_choice_t cta_groups[] = { { "1", 1, 0 }, { "2", 2, 0 }, { NULL, 0, 0 } };
static const tcp_opt_choice_t majors[] = {
	{ "k", 0, 0 }, { "mn", 1, 0 }, { "K", 0, 1 }, { "MN", 1, 1 }, { "m", 1, 1 }, { "n", 1, 1 }, { NULL, 0, 0 },
};

static const tcp_opt_choice_t layouts[] = {
	{ "none", TCP_SW_NONE, 0 }, { "sw32", TCP_SW_32B, 0 }, { "sw64", TCP_SW_64B, 0 }, { "sw128", TCP_SW_128B, 0 },
	{ "sw128-32b", TCP_SW_128B_32B, 0 }, { NULL, 0, 0 },
};

static const char *layout_name(tcp_swizzle_t s)
{
	for (size_t i = 0; layouts[i].name; i++)
		if (layouts[i].value == (int)s)
			return layouts[i].name;
	return "?";
}

/* Run fn on "CMD SUB --help": that subcommand's help. */
static int sub_help(int (*fn)(int, char **), const char *cmd, const char *sub)
{
	char *hv[] = { (char *)cmd, (char *)sub, "--help", NULL };

	return fn(3, hv);
}

/* ---- encode / decode: instruction descriptor -------------------------------- */

static void print_idesc(uint32_t v, const tcp_idesc_t *d)
{
	int bs = tcp_kind_block_scaled(d->kind);

	printf("idesc 0x%08x  (kind::%s)\n", v, tcp_kind_name(d->kind));
	printf("  bits   field                 value\n");
	printf("  0-1    sparsity selector     %u\n", d->sparse_sel);
	printf("  2      sparse                %u\n", d->sparse);
	if (bs) {
		printf("  4-5    B scale-factor id     %u\n", d->b_sf_id);
	} else {
		printf("  3      saturate              %u\n", d->saturate);
		printf("  4-5    D type                %u (%s)\n", (v >> 4) & 3, tcp_type_name(d->d));
	}
	printf("  7-9    A type                %u (%s)\n", (v >> 7) & 7, tcp_type_name(d->a));
	printf("  10-12  B type                %u (%s)\n", (v >> 10) & 7, tcp_type_name(d->b));
	printf("  13     negate A              %u\n", d->neg_a);
	printf("  14     negate B              %u\n", d->neg_b);
	printf("  15     A major               %u (%s)\n", d->a_major, d->a_major ? "MN" : "K");
	printf("  16     B major               %u (%s)\n", d->b_major, d->b_major ? "MN" : "K");
	printf("  17-22  N >> 3                %u (N = %u)\n", (v >> 17) & 63, d->n);
	if (bs) {
		printf("  23     scale type            %u (%s)\n", (v >> 23) & 1, tcp_type_name(d->sf));
		printf("  27-28  M >> 7                %u (M = %u)\n", (v >> 27) & 3, d->m);
		printf("  29-30  A scale-factor id     %u\n", d->a_sf_id);
		printf("  31     K96 (sm_103a)         %u\n", d->k96);
	} else {
		printf("  24-28  M >> 4                %u (M = %u)\n", (v >> 24) & 31, d->m);
		printf("  30-31  max shift (.ws)       %u (%s)\n", d->max_shift,
		       (const char *[]){ "none", "8", "16", "32" }[d->max_shift & 3]);
	}
}

static const char encode_idesc_about[] =
	"Encode a tcgen05.mma instruction descriptor; the MMA must be legal.\n";

static const tcp_opt_choice_t k96[] = { { "96", 96, 0 }, { NULL, 0, 0 } };
static const tcp_opt_choice_t shifts[] = { { "0", 0, 0 }, { "8", 1, 0 }, { "16", 2, 0 }, { "32", 3, 0 }, { NULL, 0, 0 } };
static const tcp_opt_choice_t scale_vecs[] = { { "1", 1, 0 }, { "2", 2, 0 }, { "4", 4, 0 }, { NULL, 0, 0 } };

/* What encode idesc's command line gives: the fields of g it names override the kind's defaults. */
typedef struct {
	int kind;
	tcp_mma_cfg_t g;
	unsigned sel, shift, asf, bsf;
	const tcp_target_info_t *tgt;
} idesc_args_t;

/* --arch: a tcgen05 target. */
static int tcgen05_cb(tcp_opt_t *o, const char *val, char *err, size_t len)
{
	const tcp_target_info_t **tgt = o->ctx;
	char names[128];
	unsigned mask = 0;

	if ((*tgt = tcp_target_find(val)) && ((*tgt)->feat & TCP_FEAT_TCGEN05))
		return 0;
	for (int t = 0; t < TCP_TGT_COUNT; t++)
		if (tcp_targets[t].feat & TCP_FEAT_TCGEN05)
			mask |= TCP_TGT_BIT(t);
	return tcp_opt_bad(err, len, o, val, "a tcgen05 target: %s", tcp_target_list(mask, names, sizeof(names)));
}

/* The fields of tcp_mma_cfg_t an option of encode idesc sets. */
static const struct {
	const char *opt;
	size_t off, size;
} idesc_fields[] = {
#define F(opt, field) { opt, offsetof(tcp_mma_cfg_t, field), sizeof(((tcp_mma_cfg_t *)0)->field) }
	F("--a", a), F("--b", b), F("--d", d), F("--sf", sf), F("--m", m), F("--n", n), F("--k", k),
	F("--cta-group", cta_group), F("--a-major", a_major), F("--b-major", b_major), F("--neg-a", neg_a),
	F("--neg-b", neg_b), F("--saturate", saturate), F("--sparse", sparse), F("--ws", ws),
	F("--scale-vec", scale_vec),
#undef F
};

/* encode idesc's options and their help, filling args. */
#define IDESC_OPTS(args) \
	{ .name = "--kind", .metavar = "KIND", .kind = TCP_OPT_STRING, .fn = kind_cb, .ctx = &(args)->kind, \
	  .what = "an MMA kind", .help = "f16 tf32 f8f6f4 i8 mxf8f6f4 mxf4 mxf4nvf4 (required)" }, \
	{ .name = "--a", .metavar = "T", .kind = TCP_OPT_STRING, .fn = type_cb, .ctx = &(args)->g.a, \
	  .what = "an element type", .help = "A's element type (default: bf16/tf32/e4m3/s8/e2m1)" }, \
	{ .name = "--b", .metavar = "T", .kind = TCP_OPT_STRING, .fn = type_cb, .ctx = &(args)->g.b, \
	  .what = "an element type", .help = "B's element type (default: the kind's, as for A)" }, \
	{ .name = "--d", .metavar = "T", .kind = TCP_OPT_STRING, .fn = type_cb, .ctx = &(args)->g.d, \
	  .what = "an element type", .help = "D's element type (default: f32 or s32)" }, \
	{ .name = "--m", .metavar = "M", .kind = TCP_OPT_INT, .lo = 1, .hi = 1024, .flags = TCP_OPT_HEX, \
	  .uval = &(args)->g.m, .def = "128", .help = "shape M" }, \
	{ .name = "--n", .metavar = "N", .kind = TCP_OPT_INT, .lo = 1, .hi = 1024, .flags = TCP_OPT_HEX, \
	  .uval = &(args)->g.n, .def = "128", .help = "shape N" }, \
	{ .name = "--k", .metavar = "96", .kind = TCP_OPT_CHOICE, .choices = k96, .uval = &(args)->g.k, \
	  .help = "the sm_103a K = 96 form (kind::mxf4nvf4, dense; idesc bit 31)" }, \
	{ .name = "--cta-group", .kind = TCP_OPT_CHOICE, .choices = cta_groups, .ival = &(args)->g.cta_group, \
	  .def = "1", .help = "CTAs of the MMA" }, \
	{ .name = "--a-major", .kind = TCP_OPT_CHOICE, .choices = majors, .uval = &(args)->g.a_major, \
	  .def = "k", .help = "A's major-ness" }, \
	{ .name = "--b-major", .kind = TCP_OPT_CHOICE, .choices = majors, .uval = &(args)->g.b_major, \
	  .def = "k", .help = "B's major-ness" }, \
	{ .name = "--neg-a", .kind = TCP_OPT_FLAG, .uval = &(args)->g.neg_a, .help = "negate A" }, \
	{ .name = "--neg-b", .kind = TCP_OPT_FLAG, .uval = &(args)->g.neg_b, .help = "negate B" }, \
	{ .name = "--saturate", .kind = TCP_OPT_FLAG, .uval = &(args)->g.saturate, .help = "saturate D" }, \
	{ .name = "--sparse", .kind = TCP_OPT_FLAG, .uval = &(args)->g.sparse, .help = "structured-sparse A" }, \
	{ .name = "--ws", .kind = TCP_OPT_FLAG, .uval = &(args)->g.ws, .help = "tcgen05.mma.ws" }, \
	{ .name = "--sparse-sel", .metavar = "N", .kind = TCP_OPT_INT, .lo = 0, .hi = 3, .flags = TCP_OPT_HEX, \
	  .uval = &(args)->sel, .help = "sparsity selector (with --sparse)" }, \
	{ .name = "--max-shift", .kind = TCP_OPT_CHOICE, .choices = shifts, .uval = &(args)->shift, \
	  .help = "the .ws max shift (with --ws)" }, \
	{ .name = "--sf", .metavar = "T", .kind = TCP_OPT_STRING, .fn = type_cb, .ctx = &(args)->g.sf, \
	  .what = "a scale-factor type", .help = "block-scaled: scale-factor type, ue8m0 or ue4m3" }, \
	{ .name = "--scale-vec", .kind = TCP_OPT_CHOICE, .choices = scale_vecs, .uval = &(args)->g.scale_vec, \
	  .help = "block-scaled: scale_vec::1X/2X/4X (default: the kind's)" }, \
	{ .name = "--a-sf-id", .metavar = "N", .kind = TCP_OPT_INT, .lo = 0, .hi = 3, .flags = TCP_OPT_HEX, \
	  .uval = &(args)->asf, .help = "block-scaled: A's scale-factor id" }, \
	{ .name = "--b-sf-id", .metavar = "N", .kind = TCP_OPT_INT, .lo = 0, .hi = 3, .flags = TCP_OPT_HEX, \
	  .uval = &(args)->bsf, .help = "block-scaled: B's scale-factor id" }, \
	{ .name = "--arch", .metavar = "TARGET", .kind = TCP_OPT_STRING, .fn = tcgen05_cb, .ctx = &(args)->tgt, \
	  .what = "a tcgen05 target", .help = "the MMA must also exist on TARGET (sm_100a, sm_103a, sm_110a; " \
	  "model/arch.c): e.g. kind::i8 is refused for sm_103a" }

/* The MMA a's options describe, checked: 0, or 2 after one line. */
static int idesc_cfg(tcp_cmd_spec_t *cmd, const idesc_args_t *a, tcp_mma_cfg_t *c)
{
	char why[256];

	if (a->kind < 0)
		return tcp_cmd_bad(cmd, "--kind: got nothing, expected one of %s", tcp_kind_names());
	tcp_mma_cfg_default((tcp_kind_t)a->kind, c);
	for (size_t i = 0; i < sizeof(idesc_fields) / sizeof(idesc_fields[0]); i++)
		if (tcp_opts_find(cmd, idesc_fields[i].opt)->seen)
			memcpy((char *)c + idesc_fields[i].off, (const char *)&a->g + idesc_fields[i].off,
			       idesc_fields[i].size);
	if (a->sel && !c->sparse)
		return tcp_cmd_bad(cmd, "--sparse-sel %u needs --sparse", a->sel);
	if (a->shift && !c->ws)
		return tcp_cmd_bad(cmd, "--max-shift needs --ws");
	if ((a->asf || a->bsf) && !tcp_kind_block_scaled(c->kind))
		return tcp_cmd_bad(cmd, "scale-factor ids exist only for block-scaled kinds; got kind::%s",
				   tcp_kind_name(c->kind));
	if (!tcp_mma_legal(c, why, sizeof(why)))
		return tcp_cmd_bad(cmd, "illegal MMA: %s", why);
	if (a->tgt && !tcp_mma_legal_on(c, a->tgt, why, sizeof(why)))
		return tcp_cmd_bad(cmd, "not on %s: %s", a->tgt->name, why);
	return 0;
}

static int encode_idesc(int argc, char **argv)
{
	idesc_args_t a = { .kind = -1 };
	tcp_opt_t opts[] = { IDESC_OPTS(&a) };
	tcp_cmd_spec_t cmd = { .name = "encode idesc", .usage = "usage: tcprobe encode idesc --kind KIND [options]\n",
			       .about = encode_idesc_about, .opts = opts, .nopts = TCP_NOPTS(opts),
			       .args_what = "an option" };
	tcp_mma_cfg_t c;
	tcp_idesc_t d;
	uint32_t out;
	int rc;

	if ((rc = tcp_opts_parse(&cmd, argc, argv, 2)) != TCP_OPTS_OK || (rc = idesc_cfg(&cmd, &a, &c)))
		return rc;
	tcp_mma_to_idesc(&c, &d);
	d.sparse_sel = a.sel;
	d.max_shift = a.shift;
	d.a_sf_id = a.asf;
	d.b_sf_id = a.bsf;
	if (tcp_idesc_encode(&d, &out))
		return tcp_cmd_bad(&cmd, "the descriptor cannot represent this MMA");
	print_idesc(out, &d);
	printf("  K = %u, FLOP per MMA = %.0f\n", tcp_mma_k(&c), 2.0 * c.m * c.n * tcp_mma_k(&c));
	return 0;
}

/* ---- encode / decode: shared-memory descriptors ------------------------------ */

static void print_sdesc(uint64_t v, const tcp_sdesc_t *d, int hopper)
{
	printf("%s 0x%016llx\n", hopper ? "wgmma desc" : "sdesc", (unsigned long long)v);
	printf("  bits   field                 value\n");
	printf("  0-13   start >> 4            0x%x (start 0x%x)\n", d->start >> 4, d->start);
	printf("  16-29  LBO >> 4              %u (LBO %u B)\n", d->lbo >> 4, d->lbo);
	printf("  32-45  SBO >> 4              %u (SBO %u B)\n", d->sbo >> 4, d->sbo);
	if (!hopper)
		printf("  46-48  fixed version         %u\n", (unsigned)(v >> 46) & 7);
	printf("  49-51  base offset           %u\n", d->base_offset);
	if (hopper) {
		printf("  62-63  swizzle               %u (%s)\n", (unsigned)(v >> 62), layout_name(d->layout));
	} else {
		printf("  52     LBO mode              %u (%s)\n", d->lbo_mode, d->lbo_mode ? "absolute" : "relative");
		printf("  61-63  layout                %u (%s)\n", (unsigned)(v >> 61), layout_name(d->layout));
	}
}

static const char encode_sdesc_about[] =
	"Encode a shared-memory matrix descriptor (sm_100 tcgen05, or Hopper wgmma with\n"
	"--hopper).\n";

/* --start, --lbo, --sbo: bytes, a multiple of 16 below 0x40000. */
static int addr_cb(tcp_opt_t *o, const char *val, char *err, size_t len)
{
	if (tcp_opt_value(o, val, err, len))
		return -1;
	if (*o->uval % 16)
		return tcp_opt_bad(err, len, o, val, "a multiple of 16 in 0..0x3fff0");
	return 0;
}

#define ADDR_OPT(opt, dst, help_text) \
	{ .name = opt, .metavar = "BYTES", .kind = TCP_OPT_INT, .lo = 0, .hi = 0x3FFF0, .flags = TCP_OPT_HEX, \
	  .uval = dst, .fn = addr_cb, .what = "a multiple of 16", .help = help_text }

static int encode_sdesc(int argc, char **argv)
{
	tcp_sdesc_t d = { 0, 0, 0, 0, 0, TCP_SW_NONE };
	int hopper = 0, layout = TCP_SW_NONE, rc;
	uint64_t out;
	tcp_opt_t opts[] = {
		ADDR_OPT("--start", &d.start, "the matrix's shared-memory address (decimal or 0x hex)"),
		ADDR_OPT("--lbo", &d.lbo, "leading-dimension byte offset"),
		ADDR_OPT("--sbo", &d.sbo, "stride-dimension byte offset"),
		{ .name = "--layout", .metavar = "L", .kind = TCP_OPT_CHOICE, .choices = layouts, .ival = &layout,
		  .def = "none", .help = "none sw32 sw64 sw128 sw128-32b (the last sm_100 only)" },
		{ .name = "--base-offset", .metavar = "N", .kind = TCP_OPT_INT, .lo = 0, .hi = 7, .flags = TCP_OPT_HEX,
		  .uval = &d.base_offset, .help = "the swizzle pattern's base offset" },
		{ .name = "--lbo-mode", .metavar = "N", .kind = TCP_OPT_INT, .lo = 0, .hi = 1, .flags = TCP_OPT_HEX,
		  .uval = &d.lbo_mode, .help = "sm_100: 1 = absolute LBO (sm_103a)" },
		{ .name = "--hopper", .kind = TCP_OPT_FLAG, .ival = &hopper, .help = "a Hopper wgmma descriptor" },
	};
	tcp_cmd_spec_t cmd = { .name = "encode sdesc", .usage = "usage: tcprobe encode sdesc --start ADDR --lbo "
			       "BYTES --sbo BYTES --layout L\n                           [options]\n", .about = encode_sdesc_about, .opts = opts,
			       .nopts = TCP_NOPTS(opts), .args_what = "an option" };

	if ((rc = tcp_opts_parse(&cmd, argc, argv, 2)) != TCP_OPTS_OK)
		return rc;
	d.layout = (tcp_swizzle_t)layout;
	if (hopper && d.layout == TCP_SW_128B_32B)
		return tcp_cmd_bad(&cmd, "--layout sw128-32b does not exist on Hopper (legal: none, sw32, sw64, sw128)");
	if (hopper && d.lbo_mode)
		return tcp_cmd_bad(&cmd, "--lbo-mode 1 does not exist on Hopper");
	if (hopper ? tcp_wgdesc_encode(&d, &out) : tcp_sdesc_encode(&d, &out))
		return tcp_cmd_bad(&cmd, "fields not encodable");
	print_sdesc(out, &d, hopper);
	return 0;
}

static int decode_idesc(int argc, char **argv)
{
	int kind = -1, rc;
	char *hex = NULL;
	unsigned long long v;
	tcp_idesc_t d;
	tcp_opt_t opts[] = {
		{ .name = "--kind", .metavar = "KIND", .kind = TCP_OPT_STRING, .fn = kind_cb, .ctx = &kind,
		  .what = "an MMA kind", .help = "the instruction's kind (not a field of the descriptor; required)" },
	};
	tcp_cmd_spec_t cmd = { .name = "decode idesc", .usage = "usage: tcprobe decode idesc HEX --kind KIND\n",
			       .about = "Name every field of an instruction descriptor; exit 2 if reserved bits "
					"are set\nor a code is undefined.\n", .opts = opts, .nopts = TCP_NOPTS(opts),
			       .args_what = "HEX (the descriptor)", .min_args = 1, .max_args = 1, .args = &hex };

	if ((rc = tcp_opts_parse(&cmd, argc, argv, 2)) != TCP_OPTS_OK || (rc = hex_arg(&cmd, "HEX", hex, 0xFFFFFFFFull, &v)))
		return rc;
	if (kind < 0)
		return tcp_cmd_bad(&cmd, "--kind: got nothing, expected one of %s (the kind is the instruction's, "
				   "not a field)", tcp_kind_names());
	rc = tcp_idesc_decode((uint32_t)v, (tcp_kind_t)kind, &d);
	print_idesc((uint32_t)v, &d);
	if (rc)
		return tcp_cmd_bad(&cmd, "0x%08llx is not a valid kind::%s descriptor (reserved bit or undefined code)",
				   v, tcp_kind_name((tcp_kind_t)kind));
	return 0;
}

static int decode_sdesc(int argc, char **argv)
{
	int hopper = 0, rc;
	char *hex = NULL;
	unsigned long long v;
	tcp_sdesc_t d;
	tcp_opt_t opts[] = {
		{ .name = "--hopper", .kind = TCP_OPT_FLAG, .ival = &hopper, .help = "a Hopper wgmma descriptor" },
	};
	tcp_cmd_spec_t cmd = { .name = "decode sdesc", .usage = "usage: tcprobe decode sdesc HEX [--hopper]\n",
			       .about = "Name every field of a shared-memory descriptor; exit 2 if reserved bits "
					"are set\nor a code is undefined.\n", .opts = opts, .nopts = TCP_NOPTS(opts),
			       .args_what = "HEX (the descriptor)", .min_args = 1, .max_args = 1, .args = &hex };

	if ((rc = tcp_opts_parse(&cmd, argc, argv, 2)) != TCP_OPTS_OK || (rc = hex_arg(&cmd, "HEX", hex, ~0ull, &v)))
		return rc;
	rc = hopper ? tcp_wgdesc_decode(v, &d) : tcp_sdesc_decode(v, &d);
	print_sdesc(v, &d, hopper);
	if (rc)
		return tcp_cmd_bad(&cmd, "0x%016llx is not a valid %s descriptor (%s)", v, hopper ? "wgmma" : "sm_100",
				   hopper ? "bits outside the fields are set" :
				   "version bits 46-48 must be 0b001, reserved bits 0, layout 0/1/2/4/6");
	return 0;
}

/*
 *  subcommand()
 *	`tcprobe CMD idesc|sdesc ...`: the one argv[1] names; --help: both
 *	helps; else one line, 2.
 */
static int subcommand(int argc, char **argv, const char *cmd, int (*idesc)(int, char **),
		      int (*sdesc)(int, char **))
{
	if (argc >= 2 && !strcmp(argv[1], "idesc"))
		return idesc(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "sdesc"))
		return sdesc(argc, argv);
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return sub_help(idesc, cmd, "idesc") | sub_help(sdesc, cmd, "sdesc");
	fprintf(stderr, "tcprobe: %s: got '%s', expected idesc or sdesc (tcprobe %s --help)\n", cmd,
		argc > 1 ? argv[1] : "", cmd);
	return 2;
}

int tcp_cmd_encode(int argc, char **argv)
{
	return subcommand(argc, argv, "encode", encode_idesc, encode_sdesc);
}

int tcp_cmd_decode(int argc, char **argv)
{
	return subcommand(argc, argv, "decode", decode_idesc, decode_sdesc);
}

/* ---- layout: accumulator and tcgen05.ld maps --------------------------------- */

static const char layout_about[] =
	"Where tcgen05.mma writes accumulator element D[ROW][COL] in TMEM: CTA of the\n"
	"pair, lane, column offset (PTX data-path layouts A-G); --all prints the whole\n"
	"map as CSV. --ld prints the tcgen05.ld/st map (thread, register -> lane, column)\n"
	"of a shape.\n";

static const tcp_opt_choice_t ld_shapes[] = {
	{ "32x32b", TCP_LD_32X32B, 0 }, { "16x64b", TCP_LD_16X64B, 0 }, { "16x128b", TCP_LD_16X128B, 0 },
	{ "16x256b", TCP_LD_16X256B, 0 }, { "16x32bx2", TCP_LD_16X32BX2, 0 }, { NULL, 0, 0 },
};
static const tcp_opt_choice_t lane_aligns[] = { { "0", 0, 0 }, { "16", 16, 0 }, { NULL, 0, 0 } };

/* What layout's command line gives besides the accumulator's configuration. */
typedef struct {
	tcp_acc_cfg_t c;
	unsigned am, an, ldnum, half;
	int at, all, ld;
} layout_args_t;

/* --at ROW,COL */
static int at_cb(tcp_opt_t *o, const char *val, char *err, size_t len)
{
	layout_args_t *a = o->ctx;
	char *end;

	if ((a->am = (unsigned)strtoul(val, &end, 10), *end != ',') || (a->an = (unsigned)strtoul(end + 1, &end, 10), *end))
		return tcp_opt_bad(err, len, o, val, "ROW,COL");
	a->at = 1;
	return 0;
}

static int layout_ld(const tcp_cmd_spec_t *cmd, tcp_ld_shape_t s, unsigned nx, unsigned half)
{
	unsigned nr = tcp_ld_regs(s, nx);

	if (!nr)
		return tcp_cmd_bad(cmd, "--num: got %u, expected a power of two with at most 128 registers (%u per x1)",
				   nx, tcp_ld_base_regs(s));
	printf("thread,reg,lane,col\n");
	for (unsigned t = 0; t < 32; t++)
		for (unsigned r = 0; r < nr; r++) {
			unsigned lane = 0, col = 0;

			tcp_ld_map(s, nx, half, t, r, &lane, &col);
			printf("%u,%u,%u,%u\n", t, r, lane, col);
		}
	return 0;
}

/* The accumulator's shape has a layout: 0, or 2 after one line. */
static int layout_check(const tcp_cmd_spec_t *cmd, const tcp_acc_cfg_t *c)
{
	unsigned step = c->cta_group == 2 ? 16 : 8;

	if (!tcp_acc_layout(c))
		return tcp_cmd_bad(cmd, "--m: got %u, no accumulator layout with cta_group::%d%s (legal M: %s)", c->m,
				   c->cta_group, c->ws ? " .ws" : "",
				   c->ws ? (c->cta_group == 1 ? "32, 64, 128" : "none: .ws is cta_group::1 only") :
				   c->cta_group == 1 ? "64, 128" : "128, 256");
	if (c->n < 8 || c->n > 256 || c->n % step)
		return tcp_cmd_bad(cmd, "--n: got %u, expected [%u, 256] step %u", c->n, step, step);
	if (c->ws && c->n != 64 && c->n != 128 && c->n != 256)
		return tcp_cmd_bad(cmd, "--n: got %u, .ws needs 64, 128 or 256", c->n);
	return 0;
}

/* --at ROW,COL: where that element is. */
static int layout_at(const tcp_cmd_spec_t *cmd, const tcp_acc_cfg_t *c, unsigned am, unsigned an)
{
	tcp_tmem_cell_t o = { 0 };

	if (tcp_acc_map(c, am, an, &o))
		return tcp_cmd_bad(cmd, "--at: got %u,%u, expected ROW in [0, %u) and COL in [0, %u)", am, an, c->m, c->n);
	printf("layout %c (cta_group::%d, M = %u, N = %u%s%s): %u columns per CTA\n", tcp_acc_layout(c),
	       c->cta_group, c->m, c->n, c->ws ? ", .ws" : "", c->sparse ? ", sparse A" : "", tcp_acc_cols(c));
	printf("D[%u][%u] -> CTA %u (%s), lane %u, column %u  (taddr offset 0x%08x)\n", am, an, o.cta,
	       o.cta ? "odd" : "even", o.lane, o.col, tcp_tmem_addr(o.lane, o.col));
	printf("read it from warp %u of the warpgroup (lanes %u-%u)\n", o.lane / 32, o.lane / 32 * 32,
	       o.lane / 32 * 32 + 31);
	return 0;
}

/* --all: the whole map as CSV. */
static int layout_all(const tcp_acc_cfg_t *c)
{
	tcp_tmem_cell_t o = { 0 };

	printf("m,n,cta,lane,col\n");
	for (unsigned m = 0; m < c->m; m++)
		for (unsigned n = 0; n < c->n; n++) {
			tcp_acc_map(c, m, n, &o);
			printf("%u,%u,%u,%u,%u\n", m, n, o.cta, o.lane, o.col);
		}
	return 0;
}

#define SIZE_OPT(opt, mv, dst, help_text) \
	{ .name = opt, .metavar = mv, .kind = TCP_OPT_INT, .lo = 0, .hi = 1024, .flags = TCP_OPT_HEX, .uval = dst, \
	  .help = help_text }

int tcp_cmd_layout(int argc, char **argv)
{
	layout_args_t a = { .c = { 1, 128, 0, 0, 0, 0 }, .ldnum = 1, .ld = -1 };
	tcp_opt_t opts[] = {
		{ .name = "--cta-group", .kind = TCP_OPT_CHOICE, .choices = cta_groups, .ival = &a.c.cta_group,
		  .def = "1", .help = "CTAs of the MMA" },
		SIZE_OPT("--m", "M", &a.c.m, "instruction M (the pair's M for cta_group::2; default 128)"),
		SIZE_OPT("--n", "N", &a.c.n, "instruction N"),
		{ .name = "--ws", .kind = TCP_OPT_FLAG, .uval = &a.c.ws, .help = "tcgen05.mma.ws" },
		{ .name = "--sparse", .kind = TCP_OPT_FLAG, .uval = &a.c.sparse, .help = "structured-sparse A" },
		{ .name = "--lane-align", .kind = TCP_OPT_CHOICE, .choices = lane_aligns, .uval = &a.c.lane_align,
		  .def = "0", .help = "layouts F and C: the lane the accumulator starts at" },
		{ .name = "--at", .metavar = "ROW,COL", .kind = TCP_OPT_STRING, .fn = at_cb, .ctx = &a,
		  .what = "ROW,COL", .help = "where D[ROW][COL] goes" },
		{ .name = "--all", .kind = TCP_OPT_FLAG, .ival = &a.all, .help = "the whole map as CSV" },
		{ .name = "--ld", .metavar = "SHAPE", .kind = TCP_OPT_CHOICE, .choices = ld_shapes, .ival = &a.ld,
		  .help = "the tcgen05.ld/st map of a shape: 32x32b 16x64b 16x128b 16x256b 16x32bx2" },
		SIZE_OPT("--num", "X", &a.ldnum, "with --ld: .num X, a power of two (default 1)"),
		SIZE_OPT("--half", "H", &a.half, "with --ld: 16x32bx2's offset"),
	};
	tcp_cmd_spec_t cmd = { .name = "layout", .usage = "usage: tcprobe layout --cta-group 1|2 --m M --n N [--ws] "
			       "[--sparse]\n                      [--lane-align 0|16] (--at ROW,COL | --all)\n"
			       "       tcprobe layout --ld SHAPE [--num X] [--half H]\n", .about = layout_about,
			       .opts = opts, .nopts = TCP_NOPTS(opts), .args_what = "an option" };
	int rc;

	if ((rc = tcp_opts_parse(&cmd, argc, argv, 1)) != TCP_OPTS_OK)
		return rc;
	if (a.ld >= 0)
		return layout_ld(&cmd, (tcp_ld_shape_t)a.ld, a.ldnum, a.half);
	if ((rc = layout_check(&cmd, &a.c)))
		return rc;
	if (a.all)
		return layout_all(&a.c);
	if (!a.at)
		return tcp_cmd_bad(&cmd, "expected --at ROW,COL or --all (tcprobe layout --help)");
	return layout_at(&cmd, &a.c, a.am, a.an);
}

/* ---- tmem-plan ------------------------------------------------------------------ */

static const char plan_usage[] =
	"usage: tcprobe tmem-plan --m M --n N [--cta-group 1|2] [--acc f32|s32|f16]\n"
	"                         [--stages S] [--a-tmem --a-type T --a-k K\n"
	"                         [--a-stages S]]\n"
	"                         [--scale-vec 1X|2X|4X [--sf-k K] [--sf-stages S]]\n"
	"                         [--sparse [--meta-k K]]\n"
	"       tcprobe tmem-plan --all [--csv]\n";
static const char plan_about[] =
	"TMEM columns each part of a tile needs (32-column unit, one power-of-two\n"
	"allocation), the total against 512, whether it fits and how many CTAs can hold\n"
	"TMEM at once. --all: the CUTLASS tile grid 128x{64,128,192,256} (cta_group::1)\n"
	"and 256x{64,128,192,256} (cta_group::2) with 1, 2, 3 f32 accumulator stages.\n";

static int plan_all(const tcp_cmd_spec_t *cmd, int csv)
{
	static const unsigned ns[] = { 64, 128, 192, 256 };

	if (csv)
		printf("m,n,cta_group,stages,columns,alloc,fits,ctas\n");
	else
		printf("tile       cta_group  stages  columns  alloc  fits  CTAs/SM (TMEM)\n");
	for (unsigned m = 128; m <= 256; m *= 2)
		for (size_t i = 0; i < 4; i++)
			for (unsigned st = 1; st <= 3; st++) {
				tcp_tmem_req_t r;
				tcp_tmem_plan_t p;
				char why[128];

				tcp_tmem_req_default(&r, m, ns[i]);
				r.stages = st;
				if (tcp_tmem_plan(&r, &p, why, sizeof(why)))
					return tcp_cmd_bad(cmd, "%s", why);
				if (csv)
					printf("%u,%u,%d,%u,%u,%u,%d,%d\n", m, ns[i], r.cta_group, st, p.total, p.alloc,
					       p.fits, p.ctas);
				else
				{
					char al[16];

					snprintf(al, sizeof(al), p.alloc ? "%u" : "-", p.alloc);
					printf("%3ux%-3u    %d          %u       %4u     %4s   %-4s  %d\n", m, ns[i],
					       r.cta_group, st, p.total, al, p.fits ? "yes" : "no", p.ctas);
				}
			}
	if (!csv)
		printf("(alloc: the power-of-two tcgen05.alloc; M = 256 is per CTA of the pair)\n");
	return 0;
}

static const tcp_opt_choice_t sf_blocks[] = {
	{ "1X", 32, 0 }, { "2X", 32, 0 }, { "4X", 16, 0 }, { "block32", 32, 1 }, { "block16", 16, 1 }, { NULL, 0, 0 },
};

/* The plan's parts as a table or CSV; exit 1 when it does not fit. */
static int plan_print(const tcp_tmem_req_t *r, const tcp_tmem_plan_t *p, int csv)
{
	if (csv) {
		printf("part,columns,rounded\n");
		for (int i = 0; i < p->nparts; i++)
			printf("%s,%u,%u\n", p->part[i].name, p->part[i].cols, p->part[i].cols_rounded);
		printf("total,%u,%u\n", p->total, p->alloc);
		return 0;
	}
	printf("tile %ux%u, cta_group::%d, %s accumulator x %u stage%s (per CTA)\n", r->m, r->n, r->cta_group,
	       tcp_type_name(r->acc), r->stages, r->stages > 1 ? "s" : "");
	printf("  part                 columns  rounded to 32\n");
	for (int i = 0; i < p->nparts; i++)
		printf("  %-20s %7u  %7u\n", p->part[i].name, p->part[i].cols, p->part[i].cols_rounded);
	printf("  total                %16u of 512\n", p->total);
	if (p->fits)
		printf("  fits: yes; tcgen05.alloc %u columns; %d CTA%s per SM by TMEM\n", p->alloc, p->ctas,
		       p->ctas > 1 ? "s" : "");
	else
		printf("  fits: NO (%u > 512 columns)\n", p->total);
	return p->fits ? 0 : 1;
}

#define COUNT_OPT(opt, mv, dst, help_text) \
	{ .name = opt, .metavar = mv, .kind = TCP_OPT_INT, .lo = 0, .hi = 4096, .flags = TCP_OPT_HEX, .uval = dst, \
	  .help = help_text }

/* tmem-plan's options and their help, filling r, *all and *csv. */
#define PLAN_OPTS(r, all, csv) \
	COUNT_OPT("--m", "M", &(r)->m, "tile M (the pair's M for cta_group::2; required)"), \
	COUNT_OPT("--n", "N", &(r)->n, "tile N (required)"), \
	{ .name = "--cta-group", .metavar = "1|2", .kind = TCP_OPT_INT, .lo = 0, .hi = 4096, .ival = &(r)->cta_group, \
	  .flags = TCP_OPT_HEX | TCP_OPT_NORANGE, .def = "2 for M = 256, else 1", .help = "CTAs of the MMA" }, \
	{ .name = "--acc", .metavar = "T", .kind = TCP_OPT_STRING, .fn = type_cb, .ctx = &(r)->acc, \
	  .what = "an element type", .def = "f32", .help = "accumulator type: f32, s32 or f16" }, \
	COUNT_OPT("--stages", "S", &(r)->stages, "accumulator buffers (default 1)"), \
	{ .name = "--a-tmem", .kind = TCP_OPT_FLAG, .uval = &(r)->a_tmem, .help = "A held in TMEM" }, \
	{ .name = "--a-type", .metavar = "T", .kind = TCP_OPT_STRING, .fn = type_cb, .ctx = &(r)->a_type, \
	  .what = "an element type", .help = "A's element type" }, \
	COUNT_OPT("--a-k", "K", &(r)->a_k, "K elements of A per buffer (default: 32 bytes' worth x 4)"), \
	COUNT_OPT("--a-stages", "S", &(r)->a_stages, "A buffers"), \
	{ .name = "--scale-vec", .metavar = "1X|2X|4X", .kind = TCP_OPT_CHOICE, .choices = sf_blocks, \
	  .uval = &(r)->sf_block, .what = "1X, 2X (block 32) or 4X (block 16)", \
	  .help = "block scaling: 1X, 2X (a scale factor per 32 K elements) or 4X (per 16)" }, \
	COUNT_OPT("--sf-k", "K", &(r)->sf_k, "K elements whose scale factors are held per buffer"), \
	COUNT_OPT("--sf-stages", "S", &(r)->sf_stages, "scale-factor buffers"), \
	{ .name = "--sparse", .kind = TCP_OPT_FLAG, .uval = &(r)->sparse, .help = "sparsity metadata for A" }, \
	COUNT_OPT("--meta-k", "K", &(r)->meta_k, "logical K elements whose metadata is held per buffer"), \
	{ .name = "--all", .kind = TCP_OPT_FLAG, .ival = all, .help = "the CUTLASS tile grid (below)" }, \
	{ .name = "--csv", .kind = TCP_OPT_FLAG, .ival = csv, .help = "CSV instead of a table" }

int tcp_cmd_tmem_plan(int argc, char **argv)
{
	tcp_tmem_req_t r;
	tcp_tmem_plan_t p;
	int all = 0, csv = 0, rc;
	char why[256];

	tcp_tmem_req_default(&r, 128, 128);
	tcp_opt_t opts[] = { PLAN_OPTS(&r, &all, &csv) };
	tcp_cmd_spec_t cmd = { .name = "tmem-plan", .usage = plan_usage,
			       .about = plan_about, .opts = opts, .nopts = TCP_NOPTS(opts), .args_what = "an option" };

	if ((rc = tcp_opts_parse(&cmd, argc, argv, 1)) != TCP_OPTS_OK)
		return rc;
	if (all)
		return plan_all(&cmd, csv);
	if (!tcp_opts_find(&cmd, "--m")->seen || !tcp_opts_find(&cmd, "--n")->seen)
		return tcp_cmd_bad(&cmd, "%s: got nothing, expected an integer (--m and --n, or --all)",
				   tcp_opts_find(&cmd, "--m")->seen ? "--n" : "--m");
	if (!tcp_opts_find(&cmd, "--cta-group")->seen)
		r.cta_group = r.m == 256 ? 2 : 1;
	if (r.a_tmem && !r.a_k)
		r.a_k = 32 * 8 / (unsigned)(tcp_type_bits(r.a_type) ? tcp_type_bits(r.a_type) : 8) * 4;
	if (tcp_tmem_plan(&r, &p, why, sizeof(why)))
		return tcp_cmd_bad(&cmd, "%s", why);
	return plan_print(&r, &p, csv);
}

/* ---- k4: the K/4 identity table ------------------------------------------------- */

static const char k4_about[] =
	"The K/4 identity: an M x N x K MMA does 2MNK FLOP and reads + writes the f32\n"
	"accumulator once (8 bytes per M*N element), so FLOP per accumulator byte = K/4.\n"
	"Per kind and generation: MMA-K, published dense FLOP/clk/SM (NVIDIA\n"
	"cudnn-frontend peak tables, CUTLASS blackwell_functionality.md), the accumulator\n"
	"bandwidth it implies and its ratio to Hopper f16.  Published figures, not\n"
	"measurements, but for B300's K = 96 row (sm_103a): its K is published, its rate\n"
	"an estimate (1.5 x B200's from a published ratio; the source column says so).\n";

int tcp_cmd_k4(int argc, char **argv)
{
	static const tcp_gen_t gens[] = { TCP_GEN_SM90, TCP_GEN_SM100 };
	const double acc_bytes = 8.0;	/* 4 B read + 4 B write per element */
	double ref = tcp_kind_flop_clk_sm(TCP_KIND_F16, TCP_GEN_SM90) / (tcp_kind_k(TCP_KIND_F16) / 4.0);
	int csv = 0, rc;
	tcp_opt_t opts[] = {
		{ .name = "--csv", .kind = TCP_OPT_FLAG, .ival = &csv, .help = "CSV instead of a table" },
	};
	tcp_cmd_spec_t cmd = { .name = "k4", .usage = "usage: tcprobe k4 [--csv]\n", .about = k4_about,
			       .opts = opts, .nopts = TCP_NOPTS(opts), .args_what = "an option" };

	if ((rc = tcp_opts_parse(&cmd, argc, argv, 1)) != TCP_OPTS_OK)
		return rc;
	if (csv)
		printf("gen,kind,mma_k,acc_bytes_per_mn,flop_per_acc_byte,flop_clk_sm,acc_bytes_clk_sm,ratio_vs_sm90_f16,source\n");
	else
		printf("gen     kind       MMA-K  acc B/(M*N)  FLOP/acc B  FLOP/clk/SM  acc B/clk/SM  vs Hopper f16\n");
	for (size_t g = 0; g < 2; g++)
		for (int k = 0; k < TCP_KIND_COUNT; k++) {
			int mk = tcp_kind_k_gen((tcp_kind_t)k, gens[g]);
			double f = tcp_kind_flop_clk_sm((tcp_kind_t)k, gens[g]), fpb, bw;

			if (!mk || !f)
				continue;
			fpb = 2.0 * mk / acc_bytes;
			bw = f / fpb;
			if (csv)
				printf("sm_%d,%s,%d,%.0f,%g,%.0f,%.0f,%.2f,published\n", gens[g],
				       gens[g] == TCP_GEN_SM90 && k == TCP_KIND_F8F6F4 ? "fp8" :
				       tcp_kind_name((tcp_kind_t)k), mk, acc_bytes, fpb, f, bw, bw / ref);
			else
				printf("sm_%-4d %-10s %5d  %11.0f  %10g  %11.0f  %12.0f  %12.2fx\n", gens[g],
				       gens[g] == TCP_GEN_SM90 && k == TCP_KIND_F8F6F4 ? "fp8" :
				       tcp_kind_name((tcp_kind_t)k), mk, acc_bytes, fpb, f, bw, bw / ref);
		}
	/* B300's K = 96 NVFP4 (sm_103a): K published (CUTLASS), the rate an estimate
	 * from a published ratio, model/published-b300.h */
	double f = tcp_b300_k96_flop_clk_sm(), fpb = 2.0 * TCP_B300_K96_MMA_K / acc_bytes;
	if (csv)
		printf("sm_103,mxf4nvf4,%d,%.0f,%g,%.0f,%.0f,%.2f,\"estimate: %s\"\n", TCP_B300_K96_MMA_K, acc_bytes,
		       fpb, f, f / fpb, f / fpb / ref, TCP_B300_SOURCE);
	else
		printf("sm_103  %-10s %5d  %11.0f  %10g  %11.0f  %12.0f  %12.2fx  (B300 K=96, rate an ESTIMATE; %s)\n",
		       "mxf4nvf4", TCP_B300_K96_MMA_K, acc_bytes, fpb, f, f / fpb, f / fpb / ref, TCP_B300_SOURCE);
	return 0;
}
