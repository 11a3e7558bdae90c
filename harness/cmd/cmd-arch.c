/*
 * cmd-arch.c
 *	The architecture model as commands (model/): encode, decode, layout,
 *	tmem_plan, k4.  Every answer comes from model/; this file only parses
 *	options and prints.  Bad input: one line naming the value and the legal
 *	range, exit 2.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cmd/cmd-list.h"
#include "model/arch.h"
#include "model/legal.h"
#include "model/published-b300.h"
#include "model/sdesc.h"
#include "model/tmem-plan.h"
#include "model/tmem.h"

/* ---- option helpers --------------------------------------------------------- */

/* Print "tcprobe CMD: ..." and return 2. */
static int bad(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "tcprobe %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 2;
}

/* Parse an unsigned number (decimal or 0x hex) within [lo, hi]; -1 on error (message printed). */
static int num(const char *cmd, const char *opt, const char *s, unsigned long long lo, unsigned long long hi,
	       unsigned long long *out)
{
	char *end;
	unsigned long long v;

	if (!s) {
		bad(cmd, "%s needs a value", opt);
		return -1;
	}
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || s[0] == '-' || v < lo || v > hi) {
		bad(cmd, "%s: got '%s', expected an integer in [%llu, %llu]", opt, s, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

static int type_arg(const char *cmd, const char *opt, const char *s, tcp_type_t *t)
{
	int v = tcp_type_parse(s);

	if (v < 0) {
		bad(cmd, "%s: got '%s', expected one of %s", opt, s ? s : "", tcp_type_names());
		return -1;
	}
	*t = (tcp_type_t)v;
	return 0;
}

static int major_arg(const char *cmd, const char *opt, const char *s, unsigned *m)
{
	if (s && (!strcmp(s, "k") || !strcmp(s, "K"))) {
		*m = 0;
		return 0;
	}
	if (s && (!strcmp(s, "mn") || !strcmp(s, "MN") || !strcmp(s, "m") || !strcmp(s, "n"))) {
		*m = 1;
		return 0;
	}
	bad(cmd, "%s: got '%s', expected k or mn", opt, s ? s : "");
	return -1;
}

static const struct {
	const char *name;
	tcp_swizzle_t code;
} layouts[] = {
	{ "none", TCP_SW_NONE }, { "sw32", TCP_SW_32B }, { "sw64", TCP_SW_64B }, { "sw128", TCP_SW_128B },
	{ "sw128-32b", TCP_SW_128B_32B },
};

static const char *layout_name(tcp_swizzle_t s)
{
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
		if (layouts[i].code == s)
			return layouts[i].name;
	return "?";
}

static int help_wanted(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
	return 0;
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

static const char *encode_idesc_help =
	"usage: tcprobe encode idesc --kind KIND [options]\n"
	"Encode a tcgen05.mma instruction descriptor; the MMA must be legal.\n"
	"  --kind KIND          f16 tf32 f8f6f4 i8 mxf8f6f4 mxf4 mxf4nvf4\n"
	"  --a T, --b T, --d T  element types (defaults: bf16/tf32/e4m3/s8/e2m1, f32 or s32)\n"
	"  --m M, --n N         shape (default 128 x 128)\n"
	"  --k 96               the sm_103a K = 96 form (kind::mxf4nvf4, dense; idesc bit 31)\n"
	"  --cta-group 1|2      (default 1)\n"
	"  --a-major k|mn, --b-major k|mn\n"
	"  --neg-a, --neg-b, --saturate, --sparse, --ws\n"
	"  --sparse-sel 0..3, --max-shift 0|8|16|32 (.ws)\n"
	"  --sf ue8m0|ue4m3, --scale-vec 1|2|4, --a-sf-id 0..3, --b-sf-id 0..3 (block-scaled)\n"
	"  --arch TARGET        the MMA must also exist on TARGET (sm_100a, sm_103a, sm_110a;\n"
	"                       model/arch.c): e.g. kind::i8 is refused for sm_103a\n";

static int encode_idesc(int argc, char **argv)
{
	const char *cmd = "encode idesc";
	tcp_mma_cfg_t c;
	tcp_idesc_t d;
	unsigned long long v;
	unsigned sel = 0, shift = 0, asf = 0, bsf = 0;
	int kind = -1, i;
	char why[256];
	uint32_t out;
	const tcp_target_info_t *tgt = NULL;

	for (i = 2; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--kind"))
			kind = tcp_kind_parse(argv[i + 1]);
	if (kind < 0)
		return bad(cmd, "--kind is required: expected one of %s", tcp_kind_names());
	tcp_mma_cfg_default((tcp_kind_t)kind, &c);
	for (i = 2; i < argc; i++) {
		const char *o = argv[i], *a = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(o, "--kind")) {
			i++;
		} else if (!strcmp(o, "--a") || !strcmp(o, "--b") || !strcmp(o, "--d") || !strcmp(o, "--sf")) {
			tcp_type_t *t = o[2] == 'a' ? &c.a : o[2] == 'b' ? &c.b : o[2] == 'd' ? &c.d : &c.sf;

			if (type_arg(cmd, o, a, t))
				return 2;
			i++;
		} else if (!strcmp(o, "--m") || !strcmp(o, "--n")) {
			if (num(cmd, o, a, 1, 1024, &v))
				return 2;
			*(o[2] == 'm' ? &c.m : &c.n) = (unsigned)v;
			i++;
		} else if (!strcmp(o, "--k")) {
			if (num(cmd, o, a, 0, 96, &v))
				return 2;
			if (v != 96)
				return bad(cmd, "--k: got %llu, expected 96 (the only K not implied by the kind)", v);
			c.k = 96;
			i++;
		} else if (!strcmp(o, "--arch")) {
			if (!a || !(tgt = tcp_target_find(a)) || !(tgt->feat & TCP_FEAT_TCGEN05)) {
				char names[128];
				unsigned mask = 0;

				for (int t = 0; t < TCP_TGT_COUNT; t++)
					if (tcp_targets[t].feat & TCP_FEAT_TCGEN05)
						mask |= TCP_TGT_BIT(t);
				return bad(cmd, "--arch: got '%s', expected a tcgen05 target: %s", a ? a : "",
					   tcp_target_list(mask, names, sizeof(names)));
			}
			i++;
		} else if (!strcmp(o, "--cta-group")) {
			if (num(cmd, o, a, 1, 2, &v))
				return 2;
			c.cta_group = (int)v;
			i++;
		} else if (!strcmp(o, "--a-major") || !strcmp(o, "--b-major")) {
			if (major_arg(cmd, o, a, o[2] == 'a' ? &c.a_major : &c.b_major))
				return 2;
			i++;
		} else if (!strcmp(o, "--neg-a")) {
			c.neg_a = 1;
		} else if (!strcmp(o, "--neg-b")) {
			c.neg_b = 1;
		} else if (!strcmp(o, "--saturate")) {
			c.saturate = 1;
		} else if (!strcmp(o, "--sparse")) {
			c.sparse = 1;
		} else if (!strcmp(o, "--ws")) {
			c.ws = 1;
		} else if (!strcmp(o, "--sparse-sel")) {
			if (num(cmd, o, a, 0, 3, &v))
				return 2;
			sel = (unsigned)v;
			i++;
		} else if (!strcmp(o, "--max-shift")) {
			if (num(cmd, o, a, 0, 32, &v))
				return 2;
			if (v != 0 && v != 8 && v != 16 && v != 32)
				return bad(cmd, "--max-shift: got %llu, expected 0, 8, 16 or 32", v);
			shift = v == 0 ? 0 : v == 8 ? 1 : v == 16 ? 2 : 3;
			i++;
		} else if (!strcmp(o, "--scale-vec")) {
			if (num(cmd, o, a, 1, 4, &v))
				return 2;
			if (v == 3)
				return bad(cmd, "--scale-vec: got 3, expected 1, 2 or 4");
			c.scale_vec = (unsigned)v;
			i++;
		} else if (!strcmp(o, "--a-sf-id") || !strcmp(o, "--b-sf-id")) {
			if (num(cmd, o, a, 0, 3, &v))
				return 2;
			*(o[2] == 'a' ? &asf : &bsf) = (unsigned)v;
			i++;
		} else {
			return bad(cmd, "unknown option '%s' (tcprobe encode idesc --help)", o);
		}
	}
	if (sel && !c.sparse)
		return bad(cmd, "--sparse-sel %u needs --sparse", sel);
	if (shift && !c.ws)
		return bad(cmd, "--max-shift needs --ws");
	if ((asf || bsf) && !tcp_kind_block_scaled(c.kind))
		return bad(cmd, "scale-factor ids exist only for block-scaled kinds; got kind::%s",
			   tcp_kind_name(c.kind));
	if (!tcp_mma_legal(&c, why, sizeof(why)))
		return bad(cmd, "illegal MMA: %s", why);
	if (tgt && !tcp_mma_legal_on(&c, tgt, why, sizeof(why)))
		return bad(cmd, "not on %s: %s", tgt->name, why);
	tcp_mma_to_idesc(&c, &d);
	d.sparse_sel = sel;
	d.max_shift = shift;
	d.a_sf_id = asf;
	d.b_sf_id = bsf;
	if (tcp_idesc_encode(&d, &out))
		return bad(cmd, "the descriptor cannot represent this MMA");
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

static const char *encode_sdesc_help =
	"usage: tcprobe encode sdesc --start ADDR --lbo BYTES --sbo BYTES --layout L [options]\n"
	"Encode a shared-memory matrix descriptor (sm_100 tcgen05, or Hopper wgmma with --hopper).\n"
	"  --start, --lbo, --sbo   bytes, multiples of 16, below 0x40000 (decimal or 0x hex)\n"
	"  --layout L              none sw32 sw64 sw128 sw128-32b (the last sm_100 only)\n"
	"  --base-offset 0..7, --lbo-mode 0|1 (sm_100; 1 = absolute, sm_103a), --hopper\n";

static int encode_sdesc(int argc, char **argv)
{
	const char *cmd = "encode sdesc";
	tcp_sdesc_t d = { 0, 0, 0, 0, 0, TCP_SW_NONE };
	unsigned long long v;
	int hopper = 0;
	uint64_t out;

	for (int i = 2; i < argc; i++) {
		const char *o = argv[i], *a = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(o, "--hopper")) {
			hopper = 1;
			continue;
		}
		if (!strcmp(o, "--layout")) {
			size_t k;

			for (k = 0; k < sizeof(layouts) / sizeof(layouts[0]); k++)
				if (a && !strcmp(a, layouts[k].name))
					break;
			if (k == sizeof(layouts) / sizeof(layouts[0]))
				return bad(cmd, "--layout: got '%s', expected none, sw32, sw64, sw128 or sw128-32b",
					   a ? a : "");
			d.layout = layouts[k].code;
		} else if (!strcmp(o, "--start") || !strcmp(o, "--lbo") || !strcmp(o, "--sbo")) {
			if (num(cmd, o, a, 0, 0x3FFF0, &v))
				return 2;
			if (v % 16)
				return bad(cmd, "%s: got %llu, expected a multiple of 16 in [0, 0x3fff0]", o, v);
			*(o[2] == 's' && o[3] == 't' ? &d.start : o[2] == 'l' ? &d.lbo : &d.sbo) = (uint32_t)v;
		} else if (!strcmp(o, "--base-offset")) {
			if (num(cmd, o, a, 0, 7, &v))
				return 2;
			d.base_offset = (unsigned)v;
		} else if (!strcmp(o, "--lbo-mode")) {
			if (num(cmd, o, a, 0, 1, &v))
				return 2;
			d.lbo_mode = (unsigned)v;
		} else {
			return bad(cmd, "unknown option '%s' (tcprobe encode sdesc --help)", o);
		}
		i++;
	}
	if (hopper && d.layout == TCP_SW_128B_32B)
		return bad(cmd, "--layout sw128-32b does not exist on Hopper (legal: none, sw32, sw64, sw128)");
	if (hopper && d.lbo_mode)
		return bad(cmd, "--lbo-mode 1 does not exist on Hopper");
	if (hopper ? tcp_wgdesc_encode(&d, &out) : tcp_sdesc_encode(&d, &out))
		return bad(cmd, "fields not encodable");
	print_sdesc(out, &d, hopper);
	return 0;
}

static const char *decode_help =
	"usage: tcprobe decode idesc HEX --kind KIND\n"
	"       tcprobe decode sdesc HEX [--hopper]\n"
	"Name every field of a descriptor; exit 2 if reserved bits are set or a code is undefined.\n";

static int decode(int argc, char **argv)
{
	const char *cmd = "decode";
	unsigned long long v;
	int hopper = 0, kind = -1;

	if (argc < 3 || (strcmp(argv[1], "idesc") && strcmp(argv[1], "sdesc")))
		return bad(cmd, "expected 'idesc HEX --kind KIND' or 'sdesc HEX [--hopper]' (tcprobe decode --help)");
	if (num(cmd, argv[1], argv[2], 0, !strcmp(argv[1], "idesc") ? 0xFFFFFFFFull : ~0ull, &v))
		return 2;
	for (int i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "--hopper")) {
			hopper = 1;
		} else if (!strcmp(argv[i], "--kind") && i + 1 < argc) {
			kind = tcp_kind_parse(argv[++i]);
			if (kind < 0)
				return bad(cmd, "--kind: got '%s', expected one of %s", argv[i], tcp_kind_names());
		} else {
			return bad(cmd, "unknown option '%s' (tcprobe decode --help)", argv[i]);
		}
	}
	if (!strcmp(argv[1], "idesc")) {
		tcp_idesc_t d;

		if (kind < 0)
			return bad(cmd, "idesc needs --kind (the kind is the instruction's, not a field): one of %s",
				   tcp_kind_names());
		if (tcp_idesc_decode((uint32_t)v, (tcp_kind_t)kind, &d)) {
			print_idesc((uint32_t)v, &d);
			return bad(cmd, "0x%08llx is not a valid kind::%s descriptor (reserved bit or undefined code)",
				   v, tcp_kind_name((tcp_kind_t)kind));
		}
		print_idesc((uint32_t)v, &d);
		return 0;
	} else {
		tcp_sdesc_t d;

		if (hopper ? tcp_wgdesc_decode(v, &d) : tcp_sdesc_decode(v, &d)) {
			print_sdesc(v, &d, hopper);
			return bad(cmd, "0x%016llx is not a valid %s descriptor (%s)", v, hopper ? "wgmma" : "sm_100",
				   hopper ? "bits outside the fields are set" :
				   "version bits 46-48 must be 0b001, reserved bits 0, layout 0/1/2/4/6");
		}
		print_sdesc(v, &d, hopper);
		return 0;
	}
}

int tcp_cmd_encode(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "idesc"))
		return help_wanted(argc, argv) ? (fputs(encode_idesc_help, stdout), 0) : encode_idesc(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "sdesc"))
		return help_wanted(argc, argv) ? (fputs(encode_sdesc_help, stdout), 0) : encode_sdesc(argc, argv);
	if (help_wanted(argc, argv)) {
		fputs(encode_idesc_help, stdout);
		fputs(encode_sdesc_help, stdout);
		return 0;
	}
	return bad("encode", "got '%s', expected idesc or sdesc (tcprobe encode --help)", argc > 1 ? argv[1] : "");
}

int tcp_cmd_decode(int argc, char **argv)
{
	if (help_wanted(argc, argv)) {
		fputs(decode_help, stdout);
		return 0;
	}
	return decode(argc, argv);
}

/* ---- layout: accumulator and tcgen05.ld maps --------------------------------- */

static const char *layout_help =
	"usage: tcprobe layout --cta-group 1|2 --m M --n N [--ws] [--sparse] [--lane-align 0|16]\n"
	"                      (--at ROW,COL | --all)\n"
	"       tcprobe layout --ld SHAPE [--num X] [--half H]\n"
	"Where tcgen05.mma writes accumulator element D[ROW][COL] in TMEM: CTA of the pair,\n"
	"lane, column offset (PTX data-path layouts A-G); --all prints the whole map as CSV.\n"
	"--ld prints the tcgen05.ld/st map (thread, register -> lane, column) of a shape:\n"
	"32x32b 16x64b 16x128b 16x256b 16x32bx2, .num X (power of two), H = 16x32bx2's offset.\n";

static const char *const ld_names[TCP_LD_SHAPE_COUNT] = { "32x32b", "16x64b", "16x128b", "16x256b", "16x32bx2" };

static int layout_ld(const char *shape, unsigned nx, unsigned half)
{
	int s;
	unsigned nr;

	for (s = 0; s < TCP_LD_SHAPE_COUNT; s++)
		if (!strcmp(shape, ld_names[s]))
			break;
	if (s == TCP_LD_SHAPE_COUNT)
		return bad("layout", "--ld: got '%s', expected 32x32b, 16x64b, 16x128b, 16x256b or 16x32bx2", shape);
	nr = tcp_ld_regs((tcp_ld_shape_t)s, nx);
	if (!nr)
		return bad("layout", "--num: got %u, expected a power of two with at most 128 registers (%u per x1)",
			   nx, tcp_ld_base_regs((tcp_ld_shape_t)s));
	printf("thread,reg,lane,col\n");
	for (unsigned t = 0; t < 32; t++)
		for (unsigned r = 0; r < nr; r++) {
			unsigned lane = 0, col = 0;

			tcp_ld_map((tcp_ld_shape_t)s, nx, half, t, r, &lane, &col);
			printf("%u,%u,%u,%u\n", t, r, lane, col);
		}
	return 0;
}

int tcp_cmd_layout(int argc, char **argv)
{
	const char *cmd = "layout";
	tcp_acc_cfg_t c = { 1, 128, 0, 0, 0, 0 };
	unsigned long long v;
	unsigned am = 0, an = 0, ldnum = 1, half = 0;
	int at = 0, all = 0;
	const char *ld = NULL;
	tcp_tmem_cell_t o;
	char *end;

	if (help_wanted(argc, argv)) {
		fputs(layout_help, stdout);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		const char *op = argv[i], *a = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(op, "--ws")) {
			c.ws = 1;
		} else if (!strcmp(op, "--sparse")) {
			c.sparse = 1;
		} else if (!strcmp(op, "--all")) {
			all = 1;
		} else if (!strcmp(op, "--cta-group") || !strcmp(op, "--m") || !strcmp(op, "--n") ||
			   !strcmp(op, "--lane-align") || !strcmp(op, "--num") || !strcmp(op, "--half")) {
			if (num(cmd, op, a, 0, 1024, &v))
				return 2;
			if (!strcmp(op, "--cta-group"))
				c.cta_group = (int)v;
			else if (!strcmp(op, "--m"))
				c.m = (unsigned)v;
			else if (!strcmp(op, "--n"))
				c.n = (unsigned)v;
			else if (!strcmp(op, "--num"))
				ldnum = (unsigned)v;
			else if (!strcmp(op, "--half"))
				half = (unsigned)v;
			else if (v != 0 && v != 16)
				return bad(cmd, "--lane-align: got %llu, expected 0 or 16", v);
			else
				c.lane_align = (unsigned)v;
			i++;
		} else if (!strcmp(op, "--ld")) {
			if (!a)
				return bad(cmd, "--ld needs a shape");
			ld = a;
			i++;
		} else if (!strcmp(op, "--at")) {
			if (!a || (am = (unsigned)strtoul(a, &end, 10), *end != ',') ||
			    (an = (unsigned)strtoul(end + 1, &end, 10), *end))
				return bad(cmd, "--at: got '%s', expected ROW,COL", a ? a : "");
			at = 1;
			i++;
		} else {
			return bad(cmd, "unknown option '%s' (tcprobe layout --help)", op);
		}
	}
	if (ld)
		return layout_ld(ld, ldnum, half);
	if (c.cta_group != 1 && c.cta_group != 2)
		return bad(cmd, "--cta-group: got %d, expected 1 or 2", c.cta_group);
	if (!tcp_acc_layout(&c))
		return bad(cmd, "--m: got %u, no accumulator layout with cta_group::%d%s (legal M: %s)", c.m,
			   c.cta_group, c.ws ? " .ws" : "",
			   c.ws ? (c.cta_group == 1 ? "32, 64, 128" : "none: .ws is cta_group::1 only") :
			   c.cta_group == 1 ? "64, 128" : "128, 256");
	if (c.n < 8 || c.n > 256 || c.n % (c.cta_group == 2 ? 16 : 8))
		return bad(cmd, "--n: got %u, expected [%d, 256] step %d", c.n, c.cta_group == 2 ? 16 : 8,
			   c.cta_group == 2 ? 16 : 8);
	if (c.ws && c.n != 64 && c.n != 128 && c.n != 256)
		return bad(cmd, "--n: got %u, .ws needs 64, 128 or 256", c.n);
	if (all) {
		printf("m,n,cta,lane,col\n");
		for (unsigned m = 0; m < c.m; m++)
			for (unsigned n = 0; n < c.n; n++) {
				tcp_acc_map(&c, m, n, &o);
				printf("%u,%u,%u,%u,%u\n", m, n, o.cta, o.lane, o.col);
			}
		return 0;
	}
	if (!at)
		return bad(cmd, "expected --at ROW,COL or --all (tcprobe layout --help)");
	if (tcp_acc_map(&c, am, an, &o))
		return bad(cmd, "--at: got %u,%u, expected ROW in [0, %u) and COL in [0, %u)", am, an, c.m, c.n);
	printf("layout %c (cta_group::%d, M = %u, N = %u%s%s): %u columns per CTA\n", tcp_acc_layout(&c),
	       c.cta_group, c.m, c.n, c.ws ? ", .ws" : "", c.sparse ? ", sparse A" : "", tcp_acc_cols(&c));
	printf("D[%u][%u] -> CTA %u (%s), lane %u, column %u  (taddr offset 0x%08x)\n", am, an, o.cta,
	       o.cta ? "odd" : "even", o.lane, o.col, tcp_tmem_addr(o.lane, o.col));
	printf("read it from warp %u of the warpgroup (lanes %u-%u)\n", o.lane / 32, o.lane / 32 * 32,
	       o.lane / 32 * 32 + 31);
	return 0;
}

/* ---- tmem_plan ------------------------------------------------------------------ */

static const char *plan_help =
	"usage: tcprobe tmem_plan --m M --n N [--cta-group 1|2] [--acc f32|s32|f16] [--stages S]\n"
	"                         [--a-tmem --a-type T --a-k K [--a-stages S]]\n"
	"                         [--scale-vec 1X|2X|4X [--sf-k K] [--sf-stages S]] [--sparse [--meta-k K]]\n"
	"       tcprobe tmem_plan --all [--csv]\n"
	"TMEM columns each part of a tile needs (32-column unit, one power-of-two allocation),\n"
	"the total against 512, whether it fits and how many CTAs can hold TMEM at once.\n"
	"--all: the CUTLASS tile grid 128x{64,128,192,256} (cta_group::1) and\n"
	"256x{64,128,192,256} (cta_group::2) with 1, 2, 3 f32 accumulator stages.\n";

static int plan_all(int csv)
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
					return bad("tmem_plan", "%s", why);
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

int tcp_cmd_tmem_plan(int argc, char **argv)
{
	const char *cmd = "tmem_plan";
	tcp_tmem_req_t r;
	tcp_tmem_plan_t p;
	unsigned long long v;
	int all = 0, csv = 0, have_m = 0, have_n = 0, have_cg = 0;
	char why[256];

	if (help_wanted(argc, argv)) {
		fputs(plan_help, stdout);
		return 0;
	}
	tcp_tmem_req_default(&r, 128, 128);
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i], *a = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(o, "--all")) {
			all = 1;
		} else if (!strcmp(o, "--csv")) {
			csv = 1;
		} else if (!strcmp(o, "--a-tmem")) {
			r.a_tmem = 1;
		} else if (!strcmp(o, "--sparse")) {
			r.sparse = 1;
		} else if (!strcmp(o, "--acc") || !strcmp(o, "--a-type")) {
			if (type_arg(cmd, o, a, o[2] == 'a' && o[3] == 'c' ? &r.acc : &r.a_type))
				return 2;
			i++;
		} else if (!strcmp(o, "--scale-vec")) {
			if (a && (!strcmp(a, "1X") || !strcmp(a, "2X") || !strcmp(a, "block32")))
				r.sf_block = 32;
			else if (a && (!strcmp(a, "4X") || !strcmp(a, "block16")))
				r.sf_block = 16;
			else
				return bad(cmd, "--scale-vec: got '%s', expected 1X, 2X (block 32) or 4X (block 16)",
					   a ? a : "");
			i++;
		} else if (!strcmp(o, "--m") || !strcmp(o, "--n") || !strcmp(o, "--cta-group") ||
			   !strcmp(o, "--stages") || !strcmp(o, "--a-k") || !strcmp(o, "--a-stages") ||
			   !strcmp(o, "--sf-k") || !strcmp(o, "--sf-stages") || !strcmp(o, "--meta-k")) {
			if (num(cmd, o, a, 0, 4096, &v))
				return 2;
			if (!strcmp(o, "--m"))
				r.m = (unsigned)v, have_m = 1;
			else if (!strcmp(o, "--n"))
				r.n = (unsigned)v, have_n = 1;
			else if (!strcmp(o, "--cta-group"))
				r.cta_group = (int)v, have_cg = 1;
			else if (!strcmp(o, "--stages"))
				r.stages = (unsigned)v;
			else if (!strcmp(o, "--a-k"))
				r.a_k = (unsigned)v;
			else if (!strcmp(o, "--a-stages"))
				r.a_stages = (unsigned)v;
			else if (!strcmp(o, "--sf-k"))
				r.sf_k = (unsigned)v;
			else if (!strcmp(o, "--sf-stages"))
				r.sf_stages = (unsigned)v;
			else
				r.meta_k = (unsigned)v;
			i++;
		} else {
			return bad(cmd, "unknown option '%s' (tcprobe tmem_plan --help)", o);
		}
	}
	if (all)
		return plan_all(csv);
	if (!have_m || !have_n)
		return bad(cmd, "--m and --n are required (or --all)");
	if (!have_cg)
		r.cta_group = r.m == 256 ? 2 : 1;
	if (r.a_tmem && !r.a_k)
		r.a_k = 32 * 8 / (unsigned)(tcp_type_bits(r.a_type) ? tcp_type_bits(r.a_type) : 8) * 4;
	if (tcp_tmem_plan(&r, &p, why, sizeof(why)))
		return bad(cmd, "%s", why);
	if (csv) {
		printf("part,columns,rounded\n");
		for (int i = 0; i < p.nparts; i++)
			printf("%s,%u,%u\n", p.part[i].name, p.part[i].cols, p.part[i].cols_rounded);
		printf("total,%u,%u\n", p.total, p.alloc);
		return 0;
	}
	printf("tile %ux%u, cta_group::%d, %s accumulator x %u stage%s (per CTA)\n", r.m, r.n, r.cta_group,
	       tcp_type_name(r.acc), r.stages, r.stages > 1 ? "s" : "");
	printf("  part                 columns  rounded to 32\n");
	for (int i = 0; i < p.nparts; i++)
		printf("  %-20s %7u  %7u\n", p.part[i].name, p.part[i].cols, p.part[i].cols_rounded);
	printf("  total                %16u of 512\n", p.total);
	if (p.fits)
		printf("  fits: yes; tcgen05.alloc %u columns; %d CTA%s per SM by TMEM\n", p.alloc, p.ctas,
		       p.ctas > 1 ? "s" : "");
	else
		printf("  fits: NO (%u > 512 columns)\n", p.total);
	return p.fits ? 0 : 1;
}

/* ---- k4: the K/4 identity table ------------------------------------------------- */

static const char *k4_help =
	"usage: tcprobe k4 [--csv]\n"
	"The K/4 identity: an M x N x K MMA does 2MNK FLOP and reads + writes the f32\n"
	"accumulator once (8 bytes per M*N element), so FLOP per accumulator byte = K/4.\n"
	"Per kind and generation: MMA-K, published dense FLOP/clk/SM (NVIDIA cudnn-frontend\n"
	"peak tables, CUTLASS blackwell_functionality.md), the accumulator bandwidth it implies\n"
	"and its ratio to Hopper f16.  Published figures, not measurements, but for B300's\n"
	"K = 96 row (sm_103a): its K is published, its rate an estimate (1.5 x B200's from\n"
	"a published ratio; the source column says so).\n";

int tcp_cmd_k4(int argc, char **argv)
{
	static const tcp_gen_t gens[] = { TCP_GEN_SM90, TCP_GEN_SM100 };
	const double acc_bytes = 8.0;	/* 4 B read + 4 B write per element */
	double ref = tcp_kind_flop_clk_sm(TCP_KIND_F16, TCP_GEN_SM90) / (tcp_kind_k(TCP_KIND_F16) / 4.0);
	int csv = 0;

	if (help_wanted(argc, argv)) {
		fputs(k4_help, stdout);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--csv"))
			csv = 1;
		else
			return bad("k4", "unknown option '%s' (tcprobe k4 --help)", argv[i]);
	}
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
