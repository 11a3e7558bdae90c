/*
 * emu-cute-check.cc
 *	The emulation's descriptor decoders (probes/emu/emu-decode.h) and the
 *	model's encoders (model/idesc.h, model/sdesc.h + model/smem-layout.h)
 *	against CUTLASS CuTe, on the host (make emu-cute-check):
 *	  - shared-memory tiles laid out with CuTe's canonical SM100 atoms
 *	    (UMMA::Layout_K_{INTER,SW32,SW64,SW128}_Atom<T>,
 *	    Layout_MN_{INTER,SW32,SW64,SW128,SW128_32B}_Atom<T>; f16, bf16,
 *	    tf32, 8-bit) tiled to the probes' M/N extents x 8 MMAs of K, the
 *	    descriptor of every MMA's slice from UMMA::make_umma_desc<Major>:
 *	    every element's decoded offset from the tile base equals CuTe's
 *	    (swizzled) offset, and where model/smem-layout.h builds the same
 *	    tile its descriptor bits and placements equal CuTe's;
 *	  - instruction descriptors from UMMA::make_instr_desc<...> and
 *	    make_instr_desc_block_scaled<...> (scale-factor ids through
 *	    make_runtime_instr_desc_block_scaled, K = 96 by k_size_ = 1 as
 *	    SM103::mma_unpack sets it) for the (kind, type pair, M, N,
 *	    cta_group) of the sm_100a / sm_103a default sweeps
 *	    (sweeps/default.sweep tc_mma_*, tc_mma_k96): decoded types, M, N,
 *	    K, majors, scale format and ids equal the template's, and
 *	    model/idesc.h encodes the same 32 bits.
 *	On the host CuTe's smem start address is 0 (cast_smem_ptr_to_uint has
 *	no host form and prints an error line; stdout is discarded for that
 *	reason): the start field is filled with the slice's offset from a
 *	1024-byte-aligned buffer, and offsets are compared.
 */
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <fcntl.h>
#include <unistd.h>

#include <cute/tensor.hpp>
#include <cute/arch/mma_sm100_desc.hpp>
#include <cute/atom/mma_traits_sm100.hpp>

#include "model/idesc.h"
#include "model/smem-layout.h"
#include "probes/emu/emu-decode.h"

using namespace cute;

static long n_tiles, n_elems, n_model_tiles, n_idesc, n_fail, n_unused_stride;

#define CHECK(cond, ...)                                                        \
	do {                                                                    \
		if (!(cond)) {                                                  \
			if (n_fail++ < 20) {                                    \
				fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
				fprintf(stderr, __VA_ARGS__);                   \
				fprintf(stderr, "\n");                          \
			}                                                       \
		}                                                               \
	} while (0)

alignas(1024) static uint8_t smem_buf[1 << 18];

/* ---- tiles ---- */

enum atom_id { K_INTER, K_SW32, K_SW64, K_SW128, MN_INTER, MN_SW32, MN_SW64, MN_SW128, MN_SW128_32B };

template <class T, int A> auto atom()
{
	if constexpr (A == K_INTER) return UMMA::Layout_K_INTER_Atom<T>{};
	else if constexpr (A == K_SW32) return UMMA::Layout_K_SW32_Atom<T>{};
	else if constexpr (A == K_SW64) return UMMA::Layout_K_SW64_Atom<T>{};
	else if constexpr (A == K_SW128) return UMMA::Layout_K_SW128_Atom<T>{};
	else if constexpr (A == MN_INTER) return UMMA::Layout_MN_INTER_Atom<T>{};
	else if constexpr (A == MN_SW32) return UMMA::Layout_MN_SW32_Atom<T>{};
	else if constexpr (A == MN_SW64) return UMMA::Layout_MN_SW64_Atom<T>{};
	else if constexpr (A == MN_SW128) return UMMA::Layout_MN_SW128_Atom<T>{};
	else return UMMA::Layout_MN_SW128_32B_Atom<T>{};
}

static constexpr tcp_swizzle_t model_layout(int a)
{
	return a == K_INTER || a == MN_INTER ? TCP_SW_NONE : a == K_SW32 || a == MN_SW32 ? TCP_SW_32B :
	       a == K_SW64 || a == MN_SW64 ? TCP_SW_64B : a == MN_SW128_32B ? TCP_SW_128B_32B : TCP_SW_128B;
}

/*
 * One tile: R rows (M or N) x 8 MMAs of K, the atom tiled in the order
 * model/smem-layout.h places it (K-major none: K first, i.e. K-adjacent
 * core matrices adjacent; every other layout MN first, CuTe's default).
 */
template <class T, int A, int R> void check_tile()
{
	constexpr bool mn = A >= MN_INTER;
	constexpr int bits = sizeof_bits_v<T>;
	constexpr int MK = 256 / bits;		/* K of one MMA: 32 bytes */
	constexpr int KT = 8 * MK;
	using Atom = decltype(atom<T, A>());
	constexpr int atom_mn = size<0>(Atom{}), atom_k = size<1>(Atom{});

	if constexpr (R % atom_mn == 0 && KT % atom_k == 0) {
		auto shape = make_shape(Int<R>{}, Int<KT>{});
		auto layout = [&] {
			if constexpr (A == K_INTER)
				return tile_to_shape(Atom{}, shape, Step<_2, _1>{});
			else
				return tile_to_shape(Atom{}, shape);
		}();
		T *base = reinterpret_cast<T *>(smem_buf);
		Tensor tile = make_tensor(make_smem_ptr(base), layout);
		tcp_tile_t mt = { model_layout(A), mn ? 1u : 0u, (unsigned)bits, 0, (unsigned)R, (unsigned)KT, 0 };
		bool model_same = tcp_tile_check(&mt) == 0;

		for (int ks = 0; ks < KT / MK; ks++) {
			Tensor slice = local_tile(tile, make_shape(Int<R>{}, Int<MK>{}), make_coord(0, ks));
			UMMA::SmemDescriptor desc = UMMA::make_umma_desc<mn ? UMMA::Major::MN : UMMA::Major::K>(slice);
			uint32_t start = (uint32_t)((uint8_t *)raw_pointer_cast(slice.data()) - smem_buf);
			tcp_emu_sdesc_t d;

			desc.start_address_ = (uint16_t)(start >> 4);
			CHECK(tcp_emu_sdesc_decode(desc.desc_, &d) == TCP_EMU_OK, "atom %d: desc 0x%016llx refused", A,
			      (unsigned long long)desc.desc_);
			if (model_same) {
				tcp_sdesc_t s;
				uint64_t mv = 0;

				tcp_tile_desc(&mt, 0, (unsigned)ks, &s);
				CHECK(tcp_sdesc_encode(&s, &mv) == 0, "atom %d: model cannot encode", A);
				if (mv != desc.desc_) {
					/* equal up to a stride this slice never uses (CuTe writes 0 for a
					 * mode of size 1): same other bits, same address for every chunk */
					const uint64_t strides = 0x3FFFull << 16 | 0x3FFFull << 32;
					tcp_emu_sdesc_t dm;
					bool same = (mv & ~strides) == (desc.desc_ & ~strides) &&
						    tcp_emu_sdesc_decode(mv, &dm) == TCP_EMU_OK;

					for (int i = 0; same && i < (mn ? MK : R); i++)
						for (int j = 0; same && j < (mn ? R : MK) * bits / 128; j++)
							same = tcp_emu_sdesc_chunk(&dm, mn, i, j) == tcp_emu_sdesc_chunk(&d, mn, i, j);
					CHECK(same, "atom %d T %d-bit R %d kstep %d: model desc 0x%016llx, CuTe 0x%016llx", A,
					      bits, R, ks, (unsigned long long)mv, (unsigned long long)desc.desc_);
					n_unused_stride++;
				}
			}
			for (int r = 0; r < R; r++)
				for (int k = 0; k < MK; k++) {
					uint32_t cute_off = (uint32_t)((uint8_t *)&slice(r, k) - smem_buf);
					unsigned i = mn ? k : r, j = mn ? r * bits / 128 : k * bits / 128;
					unsigned e = (mn ? r : k) * bits % 128 / 8;
					uint32_t dec = tcp_emu_sdesc_chunk(&d, mn, i, j) + e;

					CHECK(dec == cute_off, "atom %d T %d-bit R %d kstep %d (%d, %d): decoder %u, CuTe %u", A,
					      bits, R, ks, r, k, dec, cute_off);
					if (model_same)
						CHECK(tcp_tile_place(&mt, r, ks * MK + k) == cute_off * 8,
						      "atom %d (%d, %d): model bit %u, CuTe byte %u", A, r, ks * MK + k,
						      tcp_tile_place(&mt, r, ks * MK + k), cute_off);
					n_elems++;
				}
		}
		n_tiles++;
		n_model_tiles += model_same;
	}
}

/*
 * Rows: the probes' A extents (M / cta_group: 64, 128) and B extents
 * (N / cta_group: 8 .. 256); 8 (cta_group::2 N = 16), 32, 64, 128, 256
 * are the distinct layout cases (one 8-row group, fewer rows than a
 * swizzle atom's MN, several atoms).
 */
template <class T, int A> void check_atom()
{
	check_tile<T, A, 8>();
	check_tile<T, A, 32>();
	check_tile<T, A, 64>();
	check_tile<T, A, 128>();
	check_tile<T, A, 256>();
}

template <class T> void check_type()
{
	check_atom<T, K_INTER>();
	check_atom<T, K_SW32>();
	check_atom<T, K_SW64>();
	check_atom<T, K_SW128>();
	check_atom<T, MN_INTER>();
	check_atom<T, MN_SW32>();
	check_atom<T, MN_SW64>();
	check_atom<T, MN_SW128>();
	check_atom<T, MN_SW128_32B>();
}

/* ---- instruction descriptors ---- */

template <class T> constexpr unsigned emu_fmt()
{
	if constexpr (is_same_v<T, half_t>) return TCP_EMU_FMT_F16;
	else if constexpr (is_same_v<T, bfloat16_t>) return TCP_EMU_FMT_BF16;
	else if constexpr (is_same_v<T, tfloat32_t>) return TCP_EMU_FMT_TF32;
	else if constexpr (is_same_v<T, float_e4m3_t>) return TCP_EMU_FMT_E4M3;
	else if constexpr (is_same_v<T, float_e5m2_t>) return TCP_EMU_FMT_E5M2;
	else if constexpr (is_same_v<T, float_e2m3_t>) return TCP_EMU_FMT_E2M3;
	else if constexpr (is_same_v<T, float_e3m2_t>) return TCP_EMU_FMT_E3M2;
	else if constexpr (is_same_v<T, detail::float_e2m1_unpacksmem_t>) return TCP_EMU_FMT_E2M1;
	else if constexpr (is_same_v<T, float_e2m1_t>) return TCP_EMU_FMT_E2M1;
	else if constexpr (is_same_v<T, int8_t>) return TCP_EMU_FMT_S8;
	else if constexpr (is_same_v<T, uint8_t>) return TCP_EMU_FMT_U8;
	else if constexpr (is_same_v<T, float>) return TCP_EMU_FMT_F32;
	else if constexpr (is_same_v<T, int32_t>) return TCP_EMU_FMT_S32;
	else if constexpr (is_same_v<T, float_ue8m0_t>) return TCP_EMU_FMT_UE8M0;
	else return TCP_EMU_FMT_UE4M3;
}

template <class T> constexpr tcp_type_t model_type()
{
	if constexpr (is_same_v<T, half_t>) return TCP_T_F16;
	else if constexpr (is_same_v<T, bfloat16_t>) return TCP_T_BF16;
	else if constexpr (is_same_v<T, tfloat32_t>) return TCP_T_TF32;
	else if constexpr (is_same_v<T, float_e4m3_t>) return TCP_T_E4M3;
	else if constexpr (is_same_v<T, float_e5m2_t>) return TCP_T_E5M2;
	else if constexpr (is_same_v<T, float_e2m3_t>) return TCP_T_E2M3;
	else if constexpr (is_same_v<T, float_e3m2_t>) return TCP_T_E3M2;
	else if constexpr (is_same_v<T, detail::float_e2m1_unpacksmem_t> || is_same_v<T, float_e2m1_t>) return TCP_T_E2M1;
	else if constexpr (is_same_v<T, int8_t>) return TCP_T_S8;
	else if constexpr (is_same_v<T, uint8_t>) return TCP_T_U8;
	else if constexpr (is_same_v<T, float>) return TCP_T_F32;
	else if constexpr (is_same_v<T, int32_t>) return TCP_T_S32;
	else if constexpr (is_same_v<T, float_ue8m0_t>) return TCP_T_UE8M0;
	else return TCP_T_UE4M3;
}

/* The fields both descriptors share, decoded against the template's. */
static void check_common(const tcp_emu_idesc_t &f, unsigned kind, unsigned cg, unsigned fa, unsigned fb, unsigned m,
			 unsigned n, unsigned amn, unsigned bmn, uint32_t v)
{
	CHECK(f.a_fmt == fa && f.b_fmt == fb, "kind %u idesc 0x%08x: A/B %u/%u, want %u/%u", kind, v, f.a_fmt, f.b_fmt, fa,
	      fb);
	CHECK(f.m == m && f.n == n, "kind %u cg %u idesc 0x%08x: M %u N %u, want %u %u", kind, cg, v, f.m, f.n, m, n);
	CHECK(f.a_mn_major == amn && f.b_mn_major == bmn, "kind %u idesc 0x%08x: majors", kind, v);
	CHECK(f.neg_a == 0 && f.neg_b == 0 && f.sparse == 0, "kind %u idesc 0x%08x: negate/sparse", kind, v);
}

/* Dense kinds: UMMA::make_instr_desc<A, B, C, M, N, majors>. */
template <class TA, class TB, class TC, int M, int N, UMMA::Major MA = UMMA::Major::K, UMMA::Major MB = UMMA::Major::K>
void idesc_dense(unsigned kind, unsigned cg)
{
	uint32_t v = (uint32_t)UMMA::make_instr_desc<TA, TB, TC, M, N, MA, MB>();
	tcp_emu_idesc_t f;
	const char *why = tcp_emu_idesc_why(kind, cg, v);
	tcp_idesc_t md = {};
	uint32_t mv = 0;

	CHECK(!why, "kind %u cg %u M %d N %d idesc 0x%08x refused: %s", kind, cg, M, N, v, why);
	tcp_emu_idesc_decode(kind, cg, v, &f);
	check_common(f, kind, cg, emu_fmt<TA>(), emu_fmt<TB>(), M, N, MA == UMMA::Major::MN, MB == UMMA::Major::MN, v);
	CHECK(f.d_fmt == emu_fmt<TC>(), "kind %u idesc 0x%08x: D %u", kind, v, f.d_fmt);
	CHECK(f.k == tcp_emu_kind_k(kind) && f.sat == 0 && f.max_shift == 0, "kind %u idesc 0x%08x: K %u", kind, v, f.k);
	md.kind = (tcp_kind_t)kind;
	md.a = model_type<TA>();
	md.b = model_type<TB>();
	md.d = model_type<TC>();
	md.m = M;
	md.n = N;
	md.a_major = MA == UMMA::Major::MN;
	md.b_major = MB == UMMA::Major::MN;
	CHECK(tcp_idesc_encode(&md, &mv) == 0 && mv == v, "kind %u M %d N %d: model 0x%08x, CuTe 0x%08x", kind, M, N, mv,
	      v);
	n_idesc++;
}

/*
 * Block-scaled kinds: make_instr_desc_block_scaled, the ids from TMEM
 * addresses through make_runtime_instr_desc_block_scaled (bits 30-31 of
 * each scale-factor address), K = 96 as SM103::mma_unpack sets it.
 */
template <class TA, class TB, class SF, int M, int N, UMMA::Major MA = UMMA::Major::K, UMMA::Major MB = UMMA::Major::K>
void idesc_bs(unsigned kind, unsigned cg, bool k96 = false)
{
	UMMA::InstrDescriptorBlockScaled id = UMMA::make_instr_desc_block_scaled<TA, TB, float, SF, M, N, MA, MB>();
	unsigned ida_max = kind == TCP_EMU_KIND_MXF8F6F4 ? 4 : 2;

	if (k96)
		id.k_size_ = 1;
	for (unsigned ia = 0; ia < ida_max; ia++)
		for (unsigned ib = 0; ib < ida_max; ib++) {
			unsigned sa = kind == TCP_EMU_KIND_MXF8F6F4 ? ia : 2 * ia, sb = kind == TCP_EMU_KIND_MXF8F6F4 ? ib : 2 * ib;
			uint64_t e = UMMA::make_runtime_instr_desc_block_scaled<>(id, sa << 30 | 0x20u, sb << 30 | 0x40u);
			uint32_t v = (uint32_t)(e >> 32), mv = 0;
			tcp_emu_idesc_t f;
			const char *why = tcp_emu_idesc_why(kind, cg, v);
			tcp_idesc_t md = {};

			CHECK(!why, "kind %u cg %u M %d N %d idesc 0x%08x refused: %s", kind, cg, M, N, v, why);
			tcp_emu_idesc_decode(kind, cg, v, &f);
			check_common(f, kind, cg, emu_fmt<TA>(), emu_fmt<TB>(), M, N, MA == UMMA::Major::MN,
				     MB == UMMA::Major::MN, v);
			CHECK(f.sf_fmt == emu_fmt<SF>() && f.sfa_id == sa && f.sfb_id == sb && f.d_fmt == TCP_EMU_FMT_F32,
			      "kind %u idesc 0x%08x: scale format %u ids %u %u", kind, v, f.sf_fmt, f.sfa_id, f.sfb_id);
			CHECK(f.k == (k96 ? 96u : tcp_emu_kind_k(kind)) && f.k96 == k96, "kind %u idesc 0x%08x: K %u", kind,
			      v, f.k);
			md.kind = (tcp_kind_t)kind;
			md.a = model_type<TA>();
			md.b = model_type<TB>();
			md.d = TCP_T_F32;
			md.sf = model_type<SF>();
			md.m = M;
			md.n = N;
			md.a_major = MA == UMMA::Major::MN;
			md.b_major = MB == UMMA::Major::MN;
			md.a_sf_id = sa;
			md.b_sf_id = sb;
			md.k96 = k96;
			CHECK(tcp_idesc_encode(&md, &mv) == 0 && mv == v, "kind %u M %d N %d: model 0x%08x, CuTe 0x%08x", kind,
			      M, N, mv, v);
			n_idesc++;
		}
}

/* Every N of a list, for one type triple and M. */
template <class TA, class TB, class TC, int M, int... N> void dense_ns(unsigned kind, unsigned cg)
{
	(idesc_dense<TA, TB, TC, M, N>(kind, cg), ...);
}

template <class TA, class TB, class SF, int M, int... N> void bs_ns(unsigned kind, unsigned cg, bool k96 = false)
{
	(idesc_bs<TA, TB, SF, M, N>(kind, cg, k96), ...);
}

/* f16: tc_mma_lat cta_group::1 M 64/128 N 8..256 step 8, cta_group::2 M 128/256 N 16..256 step 16. */
template <class TA, class TC> void f16_case()
{
#define N8 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120, 128, 136, 144, 152, 160, 168, 176, 184, 192, \
	   200, 208, 216, 224, 232, 240, 248, 256
#define N16 16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256
	dense_ns<TA, TA, TC, 64, N8>(TCP_EMU_KIND_F16, 1);
	dense_ns<TA, TA, TC, 128, N8>(TCP_EMU_KIND_F16, 1);
	dense_ns<TA, TA, TC, 128, N16>(TCP_EMU_KIND_F16, 2);
	dense_ns<TA, TA, TC, 256, N16>(TCP_EMU_KIND_F16, 2);
}

/* Plan N lists of the other kinds (tc_mma_lat / _ii / _tput): 64, 80, 96, 112, 128, 192, 256. */
#define NP 64, 80, 96, 112, 128, 192, 256

template <class TA, class TB> void f8f6f4_pair()
{
	dense_ns<TA, TB, float, 128, 128, 256>(TCP_EMU_KIND_F8F6F4, 1);
	dense_ns<TA, TB, float, 128, 128, 256>(TCP_EMU_KIND_F8F6F4, 2);
	dense_ns<TA, TB, float, 256, 128, 256>(TCP_EMU_KIND_F8F6F4, 2);
	bs_ns<TA, TB, float_ue8m0_t, 128, 128, 256>(TCP_EMU_KIND_MXF8F6F4, 1);
	bs_ns<TA, TB, float_ue8m0_t, 128, 128, 256>(TCP_EMU_KIND_MXF8F6F4, 2);
	bs_ns<TA, TB, float_ue8m0_t, 256, 128, 256>(TCP_EMU_KIND_MXF8F6F4, 2);
}

template <class TA> void f8f6f4_row()
{
	f8f6f4_pair<TA, float_e4m3_t>();
	f8f6f4_pair<TA, float_e5m2_t>();
	f8f6f4_pair<TA, float_e2m3_t>();
	f8f6f4_pair<TA, float_e3m2_t>();
	f8f6f4_pair<TA, detail::float_e2m1_unpacksmem_t>();
}

static void check_idescs()
{
	/* kind::f16 (bf16 and f16 inputs, f32 accumulators; f16 accumulators), majors both ways */
	f16_case<bfloat16_t, float>();
	f16_case<half_t, float>();
	f16_case<half_t, half_t>();
	idesc_dense<half_t, half_t, float, 128, 128, UMMA::Major::MN, UMMA::Major::K>(TCP_EMU_KIND_F16, 1);
	idesc_dense<bfloat16_t, bfloat16_t, float, 128, 128, UMMA::Major::K, UMMA::Major::MN>(TCP_EMU_KIND_F16, 1);
	idesc_dense<tfloat32_t, tfloat32_t, float, 256, 256, UMMA::Major::MN, UMMA::Major::MN>(TCP_EMU_KIND_TF32, 2);
	/* kind::tf32 */
	dense_ns<tfloat32_t, tfloat32_t, float, 64, NP>(TCP_EMU_KIND_TF32, 1);
	dense_ns<tfloat32_t, tfloat32_t, float, 128, NP>(TCP_EMU_KIND_TF32, 1);
	dense_ns<tfloat32_t, tfloat32_t, float, 128, NP>(TCP_EMU_KIND_TF32, 2);
	dense_ns<tfloat32_t, tfloat32_t, float, 256, NP>(TCP_EMU_KIND_TF32, 2);
	/* kind::f8f6f4 and kind::mxf8f6f4: every type pair */
	f8f6f4_row<float_e4m3_t>();
	f8f6f4_row<float_e5m2_t>();
	f8f6f4_row<float_e2m3_t>();
	f8f6f4_row<float_e3m2_t>();
	f8f6f4_row<detail::float_e2m1_unpacksmem_t>();
	idesc_dense<float_e4m3_t, float_e5m2_t, float, 128, 128, UMMA::Major::MN, UMMA::Major::MN>(TCP_EMU_KIND_F8F6F4, 1);
	/* kind::i8: every sign pair */
	dense_ns<int8_t, int8_t, int32_t, 128, 128, 256>(TCP_EMU_KIND_I8, 1);
	dense_ns<int8_t, uint8_t, int32_t, 128, 128, 256>(TCP_EMU_KIND_I8, 1);
	dense_ns<uint8_t, int8_t, int32_t, 128, 128, 256>(TCP_EMU_KIND_I8, 2);
	dense_ns<uint8_t, uint8_t, int32_t, 256, 128, 256>(TCP_EMU_KIND_I8, 2);
	idesc_dense<int8_t, int8_t, int32_t, 64, 24>(TCP_EMU_KIND_I8, 1);
	/* kind::mxf4 (ue8m0), kind::mxf4nvf4 (ue8m0, ue4m3), and sm_103a's K = 96 (tc_mma_k96) */
	bs_ns<float_e2m1_t, float_e2m1_t, float_ue8m0_t, 128, NP>(TCP_EMU_KIND_MXF4, 1);
	bs_ns<float_e2m1_t, float_e2m1_t, float_ue8m0_t, 128, NP>(TCP_EMU_KIND_MXF4, 2);
	bs_ns<float_e2m1_t, float_e2m1_t, float_ue8m0_t, 256, NP>(TCP_EMU_KIND_MXF4, 2);
	bs_ns<float_e2m1_t, float_e2m1_t, float_ue8m0_t, 128, 64, 128, 256>(TCP_EMU_KIND_MXF4NVF4, 1);
	bs_ns<float_e2m1_t, float_e2m1_t, float_ue4m3_t, 128, 64, 128, 256>(TCP_EMU_KIND_MXF4NVF4, 1);
	bs_ns<float_e2m1_t, float_e2m1_t, float_ue8m0_t, 256, 64, 128, 256>(TCP_EMU_KIND_MXF4NVF4, 2);
	bs_ns<float_e2m1_t, float_e2m1_t, float_ue4m3_t, 256, 64, 128, 256>(TCP_EMU_KIND_MXF4NVF4, 2);
	bs_ns<float_e2m1_t, float_e2m1_t, float_ue8m0_t, 128, 64, 128, 256>(TCP_EMU_KIND_MXF4NVF4, 1, true);
	bs_ns<float_e2m1_t, float_e2m1_t, float_ue4m3_t, 128, 64, 128, 256>(TCP_EMU_KIND_MXF4NVF4, 1, true);
	bs_ns<float_e2m1_t, float_e2m1_t, float_ue8m0_t, 256, 64, 128, 256>(TCP_EMU_KIND_MXF4NVF4, 2, true);
	bs_ns<float_e2m1_t, float_e2m1_t, float_ue4m3_t, 128, 64, 128, 256>(TCP_EMU_KIND_MXF4NVF4, 2, true);
}

int main()
{
	/* cast_smem_ptr_to_uint() prints an error line per call on the host: discard stdout */
	fflush(stdout);
	int null = open("/dev/null", O_WRONLY);

	if (null < 0 || dup2(null, 1) < 0) {
		fprintf(stderr, "emu-cute-check: cannot redirect stdout\n");
		return 1;
	}
	check_type<half_t>();
	check_type<bfloat16_t>();
	check_type<tfloat32_t>();
	check_type<float_e4m3_t>();
	check_idescs();
	fprintf(stderr, "emu-cute-check: %ld tiles (%ld also built by model/smem-layout.h; %ld model descriptors differ "
		"from CuTe's only in a stride the slice never uses), %ld elements, %ld instruction descriptors: %s\n",
		n_tiles, n_model_tiles, n_unused_stride, n_elems, n_idesc, n_fail ? "FAILED" : "decoder = CuTe, model = CuTe");
	if (n_fail)
		fprintf(stderr, "emu-cute-check: %ld mismatches\n", n_fail);
	return n_fail || n_tiles < 100 || n_idesc < 1000 ? 1 : 0;
}
