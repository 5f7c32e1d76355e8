"""CPU checks of wgmma_tma_tf32: configs and their rules, the rendered instructions per mode, the
fragment permutation (a bijection, conflict-free), tensor-map arguments for float32, the launch
buffer, the heuristic's picks, and (with nvcc) every config compiling for sm_90a without spills
or serialised wgmmas."""

from __future__ import annotations

import ctypes
import re

import pytest

import tiled_matmul as tm
from tiled_matmul import execute, heuristic, numerics, tma
from tiled_matmul.device import H100_LIMITS as H100
from tiled_matmul.epilogue import ExSpec, UserArray, check_expression
from tiled_matmul.ptxas import ptxas_report
from tiled_matmul.render import kernel_name, render
from tiled_matmul.strategies.wgmma_tma_tf32 import Tf32TmaLauncher, WgmmaTmaTf32Config

from .conftest import HAS_NVCC

ENTRY = tm.STRATEGIES["wgmma_tma_tf32"]
F32 = tma.DATA_TYPE["float32"]


# ---- configs ------------------------------------------------------------------------------------
def test_every_config_is_valid_and_fits_the_h100():
    modes = set()
    for cfg in ENTRY.configs:
        cfg.validate(H100, "float32")
        assert cfg.smem_bytes() <= H100.smem_per_block_optin
        assert cfg.acc_regs <= cfg.MAX_ACC_REGS
        modes.add(cfg.precision)
    assert modes == {"tf32x3", "tf32"}
    assert ENTRY.default.precision == "tf32x3" and ENTRY.default.with_precision("tf32").passes == 1
    assert WgmmaTmaTf32Config.EXTRAS == {"epilogue"} and WgmmaTmaTf32Config.LAYOUTS == ((False, False), (False, True))
    # A column-major with tf32x3 alone (its split pass transposes A's stage)
    assert WgmmaTmaTf32Config(passes=3).layouts() == ((False, False), (False, True), (True, False))
    assert WgmmaTmaTf32Config(bm=256, passes=1).layouts() == ((False, False), (False, True))


@pytest.mark.parametrize("params,needle", [
    (dict(bm=96), "bm (96) must be 64, 128, 192 or 256"),
    (dict(bn=64), "bn (64) must be 128 or 256"),
    (dict(bm=256), "needs 256 accumulator registers"),  # tf32x3: acc + part
    (dict(bm=256, bn=256, passes=1), "needs 256 accumulator registers"),
    (dict(bm=64, bn=256), "must be 128 with passes=3"),
    (dict(passes=2), "passes (2) must be 3"),
    (dict(stages=9), "stages (9) must be between 2 and 8"),
    (dict(stages=8), "shared memory"),  # 8 x 32 KB stages + 48 KB of small parts do not fit
])
def test_rules_name_what_is_wrong(params, needle):
    with pytest.raises(ValueError, match=re.escape(needle)):
        WgmmaTmaTf32Config(**params).validate(H100, "float32")


def test_other_dtypes_are_refused_naming_the_dtypes():
    with pytest.raises(ValueError, match="wgmma_tma_tf32 computes float32 only, got float16"):
        ENTRY.default.validate(H100, "float16")
    assert ENTRY.default_dtype == "float32"


def test_grid_is_persistent_and_balanced():
    cfg = ENTRY.default
    assert cfg.grid(4096, 4096, sms=132) == (128, 1, 1)  # 1024 tiles: 8 waves of 128
    assert cfg.grid(100, 100, sms=132) == (1, 1, 1)
    for M, N in [(1, 1), (3001, 2999), (8192, 8192), (777, 65)]:
        grid = cfg.grid(M, N, sms=132)[0]
        assert grid <= 132 and -(-cfg.tiles(M, N) // grid) == -(-cfg.tiles(M, N) // 132)


def test_smem_counts_stages_and_small_part_buffers():
    cfg = ENTRY.default  # 128 x 128, 4 stages, tf32x3
    assert cfg.smem_bytes() == 4 * 256 * 128 + 3 * 128 * 128 + 1024 + 16 * 4
    one = cfg.replace(passes=1)
    assert one.smem_bytes() == 4 * 256 * 128 + 1024 + 16 * 4  # no small parts in one pass


def test_a_column_major_kernel_takes_buffers_where_they_fit():
    """A column-major (tf32x3): three more 16 KB buffers for the transposed big parts at 4 stages
    (230,464 B of the H100's 232,448 B opt-in), none at 5 (they would not fit): that kernel writes
    the big parts back into the stage after a consumer barrier."""
    acol = ExSpec("float", a_col=True, ld=True)
    four, five = ENTRY.default, ENTRY.default.replace(stages=5)
    assert four.xpose_bufs == 3 and five.xpose_bufs == 0 and four.replace(passes=1).xpose_bufs == 0
    assert four.smem_bytes_for("float32", acol) == four.smem_bytes() + 3 * 128 * 128
    assert four.smem_bytes_for("float32", acol) <= H100.smem_per_block_optin
    assert five.smem_bytes_for("float32", acol) == five.smem_bytes()
    assert four.smem_bytes_for("float32", ExSpec("float", b_col=True, ld=True)) == four.smem_bytes()
    buffered, in_place = (render(ENTRY, c, "float32", acol) for c in (four, five))
    assert "big_smem + small_buf * A_STAGE_BYTES" in buffered and "big_smem" not in in_place
    assert in_place.count("consumers_sync();") == buffered.count("consumers_sync();") + 1


# ---- rendering ----------------------------------------------------------------------------------
def test_render_per_mode():
    x3 = render(ENTRY, ENTRY.default, "float32")
    assert "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32" in x3
    assert "constexpr int PASSES = 3;" in x3 and "constexpr int SMALL_BUFS = 3;" in x3
    assert "bar.red.or.pred" in x3 and "consumers_sync();" in x3 and "fence_proxy_async_smem();" in x3
    assert "split_tf32_tc(x.x, big.x, small.x, guard);" in x3
    # the split rounds to nearest (issue 12): the shared helper, not truncation; the small part
    # keeps the low bits the tensor core drops (one add, no clear)
    assert "(__float_as_uint(x) + 0x1000u) & 0xffffe000u" in x3
    assert "small = __float_as_uint(x - __uint_as_float(big)) + 0x1000u;" in x3
    assert "split_tf32_tc(raw[ns][kk][r], frag[0][ns][kk][r], frag[1][ns][kk][r]);" in x3
    one = render(ENTRY, WgmmaTmaTf32Config(bm=256, passes=1, stages=4), "float32")
    assert "m64n256k8.f32.tf32.tf32" in one and "constexpr int N_SUB = 1;" in one
    assert "consumers_sync();" not in one and "small_desc" not in one  # A is not touched
    # tf32 rounds B to nearest with one add: the tensor core drops the 13 low bits (the template's
    # Numerics); Inf and NaN, which the add can turn into a zero, go to the exact path
    assert "frag[ns][kk][r] = __float_as_uint(raw[ns][kk][r]) + 0x1000u;" in one
    assert "TfNanGuard guard;" in one and "bool bad = guard.out();" in one and "RangeGuard guard;" not in one
    assert "struct TfNanGuard" not in x3
    # every box of B is copied (TMA zero-fills those past N): no column mask in the consumers
    assert "cols_left" not in one and "cols_left" not in x3
    wide = render(ENTRY, WgmmaTmaTf32Config(bm=128, bn=256, passes=1, stages=4), "float32")
    assert "constexpr int N_SUB = 2;" in wide and "constexpr int B_BOXES = 8;" in wide
    for src in (x3, one):
        assert "setmaxnreg.dec.sync.aligned.u32 24;" in src and "setmaxnreg.inc.sync.aligned.u32 240;" in src
        assert "wgmma_m64k16" not in src  # the 16-bit instruction of _wgmma.cuh.j2 stays out
        assert "exact_cols(A, B, C, M, N, K, lda, ldb, ldc" in src


def test_fragment_permutation_is_a_conflict_free_bijection():
    """The template's n(q, h, g) maps the 64 fragment rows onto the 64 columns of a chunk, and each
    warp-wide load of one fragment register hits 32 distinct banks in the swizzled B boxes."""
    def n_of(q, h, g):
        return 32 * (q // 2) + 16 * (g // 4) + 4 * (2 * (q % 2) + h) + g % 4

    assert sorted(n_of(q, h, g) for q in range(4) for h in range(2) for g in range(8)) == list(range(64))
    for q in range(4):
        for h in range(2):
            for kh in range(2):
                banks = set()
                for lane in range(32):
                    g, t = lane // 4, lane % 4
                    n, k = n_of(q, h, g), t + 4 * kh
                    # byte address inside a 32-column box: line k, 16-byte chunk swizzled by k % 8
                    byte = (n // 32) * 4096 + k * 128 + (((n % 32) // 4) ^ (k % 8)) * 16 + 4 * (n % 4)
                    banks.add(byte // 4 % 32)
                assert len(banks) == 32, (q, h, kh)
    # and the template computes the same offsets
    src = render(ENTRY, ENTRY.default, "float32")
    assert "chunk = 4 * (g / 4) + 2 * (q % 2) + h;" in src
    assert "32 * (q / 2) + 16 * (g / 4) + 8 * (q % 2) + g % 4;" in src


# ---- tensor maps, operands, launch ---------------------------------------------------------------
def test_float32_tensor_maps_use_128_byte_lines():
    a = tma.tiled_2d(address=0x10000, rows=3001, cols=3007, pitch=3008, itemsize=4, dtype_code=F32,
                     box_rows=128, box_cols=32)
    assert a.global_dim == (3007, 3001) and a.global_strides == (3008 * 4,) and a.box_dim == (32, 128)
    with pytest.raises(ValueError, match="exceed the 128-byte swizzle span"):
        tma.tiled_2d(address=0x10000, rows=64, cols=64, pitch=64, itemsize=4, dtype_code=F32, box_rows=32, box_cols=64)


def test_operand_problem_says_why():
    cfg = ENTRY.default
    assert "a has rows of 71 elements = 284 bytes" in cfg.operand_problem(64, 64, 71, 0x1000, 71, 0x2000, 64)
    assert "b starts at address 0x2004" in cfg.operand_problem(64, 64, 64, 0x1000, 64, 0x2004, 64)
    assert cfg.operand_problem(129, 257, 71, 0x1000, 72, 0x2000, 260) is None


def test_launch_refuses_unaligned_operands_before_touching_the_gpu():
    class Kern:
        _companions: dict = {}
        device = None

    with pytest.raises(ValueError, match="cannot read these operands with TMA: a has rows of 71 elements"):
        ENTRY.default.launch_strided(Kern(), 0x1000, 71, 0x2000, 64, 0x3000, 64, 16, 64, 71, 0)


def test_launch_buffer_matches_the_kernel_signature():
    # (tmA, tmB, A, B, C, M, N, K, lda, ldb, ldc): two 64-byte-aligned maps, 3 pointers, 6 ints
    offs = Tf32TmaLauncher.OFFSETS
    assert offs[:2] == (0, 128) and offs[2:5] == (256, 264, 272)
    assert list(offs[5:]) == [280 + 4 * i for i in range(6)] and offs[-1] + 4 <= Tf32TmaLauncher.SIZE
    assert ctypes.sizeof(ctypes.c_void_p) == 8
    src = render(ENTRY, ENTRY.default, "float32")
    assert re.search(r"const __grid_constant__ TmTensorMap tmA, const __grid_constant__ TmTensorMap tmB,\s*"
                     r"const float\* __restrict__ A, const float\* __restrict__ B, float\* __restrict__ C,\s*"
                     r"int M, int N, int K, int lda, int ldb, int ldc\)", src)


def test_launch_plans_are_bounded():
    launcher = object.__new__(Tf32TmaLauncher)
    launcher.plans = {}
    for i in range(Tf32TmaLauncher.PLANS + 10):
        launcher.remember((i,), (1, b"a", b"b"))
    assert len(launcher.plans) <= Tf32TmaLauncher.PLANS and (0,) not in launcher.plans


def test_contiguous_products_keep_their_packed_arguments():
    # no GPU: a plan (grid, A's map, B's map) and one C give a packed argument list, kept in
    # `ready` under (A, B, C, M, N, K) and bounded like the plans
    launcher = object.__new__(Tf32TmaLauncher)
    launcher.ready = {}
    grid_x, params_ptr, keep = launcher.pack_ready((9, b"a" * 128, b"b" * 128), 0x1000, 0x2000, 0x3000, 5, 6, 7)
    assert launcher.ready[(0x1000, 0x2000, 0x3000, 5, 6, 7)][1] == params_ptr and grid_x == 9
    params = keep[1]
    assert len(params) == len(Tf32TmaLauncher.OFFSETS)  # no TmExtra: the plain kernel
    assert [ctypes.string_at(params[i], 128) for i in range(2)] == [b"a" * 128, b"b" * 128]
    assert [ctypes.c_uint64.from_address(params[2 + i]).value for i in range(3)] == [0x1000, 0x2000, 0x3000]
    # M, N, K, then the pitches of contiguous operands: lda = K, ldb = ldc = N
    assert [ctypes.c_int32.from_address(params[5 + i]).value for i in range(6)] == [5, 6, 7, 7, 6, 6]
    for i in range(Tf32TmaLauncher.PLANS + 10):
        launcher.pack_ready((1, b"a" * 128, b"b" * 128), i, 0, 0, 1, 1, 1)
    assert len(launcher.ready) <= Tf32TmaLauncher.PLANS


# ---- dispatch and numerics -------------------------------------------------------------------------
def test_heuristic_picks_it_for_named_tf32_modes_on_large_outputs():
    assert heuristic.recommend(4096, 4096, 4096, precision="tf32x3", sms=132) == ("wgmma_tma_tf32", {})
    assert heuristic.recommend(8192, 8192, 8192, precision="tf32", sms=132) == (
        "wgmma_tma_tf32", {"bm": 256, "stages": 4, "passes": 1})
    assert heuristic.recommend(3001, 2999, 3007, precision="tf32x3", sms=132)[0] == "wgmma_tma_tf32"
    # below a wave of its tiles, off Hopper, or without TMA: the cp.async rungs
    assert heuristic.recommend(1024, 1024, 1024, precision="tf32x3", sms=132)[0] == "wgmma"
    assert heuristic.recommend(4096, 4096, 4096, precision="tf32", sms=132, wgmma=False)[0] == "tensor_core"
    assert heuristic.recommend(4096, 4096, 4096, precision="tf32", sms=132, tma=False) == ("wgmma", {"passes": 1})
    assert heuristic.plain_pick(4096, 4096, 4096, "float32", 132, "tf32x3") == ("wgmma", {})
    # `auto` runs it too (tf32x3 from K = 128, from one wave of 128 x 128 tiles; measured 1.48x
    # wgmma at 4096^3), the cp.async rungs below a wave, for long K (split-K)
    # and for calls the TMA rungs cannot take
    assert heuristic.TMA_TF32_AUTO
    assert heuristic.recommend(4096, 4096, 4096, sms=132) == ("wgmma_tma_tf32", {})
    assert heuristic.recommend(1536, 1536, heuristic.AUTO_CHAIN_K, sms=132) == ("wgmma_tma_tf32", {})
    # past AUTO_CHAIN_K of K in one chain: wgmma_split_k's slices of at most that depth
    name, params = heuristic.recommend(1536, 1536, 65536, sms=132)
    assert name == "wgmma_split_k" and 65536 // params["split_k"] <= heuristic.AUTO_CHAIN_K
    assert heuristic.recommend(256, 256, 65536, sms=132)[0] == "wgmma_split_k"
    assert heuristic.recommend(1024, 1024, 1024, sms=132)[0] == "wgmma"
    assert heuristic.recommend(4096, 4096, 64, sms=132)[0] != "wgmma_tma_tf32"  # K < 128: FFMA
    assert heuristic.plain_pick(4096, 4096, 4096, "float32", 132, "tf32x3") == ("wgmma", {})


def test_every_pick_validates():
    for M, N, K in [(4096, 4096, 4096), (8192, 8192, 8192), (3001, 2999, 3007), (16384, 128, 4096)]:
        for mode in ("tf32", "tf32x3"):
            name, params = heuristic.recommend(M, N, K, precision=mode, sms=132)
            cfg = tm.STRATEGIES[name].make_config(**params).validate(H100, "float32")
            assert cfg.precision == mode


def test_truncated_tf32_bound():
    K = 4096
    assert numerics.bound("tf32", K, truncated=True) - numerics.bound("tf32", K) == pytest.approx(
        2.0 ** -11 + 2.0 ** -21 - 2.0 ** -22)
    assert WgmmaTmaTf32Config.TF32_TRUNCATES


# ---- nvcc ----------------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.skipif(not HAS_NVCC, reason="nvcc is not on PATH: cannot compile templates offline")
@pytest.mark.parametrize("cfg", ENTRY.configs, ids=[c.tag() for c in ENTRY.configs])
def test_compiles_for_sm90a_without_spills(cfg):
    rep = ptxas_report("wgmma_tma_tf32", cfg, "float32")
    assert cfg.tag() in rep.log, rep.log
    assert rep.spill_stores == 0 and rep.spill_loads == 0 and rep.stack_frame == 0, rep.log
    assert 0 < rep.registers <= H100.regs_per_sm // cfg.THREADS, rep.log
    assert "C7508" not in rep.log and "setmaxnreg" not in rep.log.lower(), rep.log
    # no wgmma serialised by ptxas (registers written between wgmmas, or too few registers)
    assert "are serialized" not in rep.log, rep.log


# ---- epilogues -----------------------------------------------------------------------------------
#: one spec per kind of epilogue: alpha and beta (C read, 16 bytes where aligned), a bias along
#: columns or rows with an activation, a user expression over extra arrays (float and int)
EPI_SPECS = {
    "alpha_beta": ExSpec("float", alpha=True, beta=True),
    "bias1_gelu": ExSpec("float", bias=1, activation="gelu"),
    "bias0_relu": ExSpec("float", bias=0, activation="relu"),
    "expr": ExSpec("float", alpha=True, bias=0, activation="silu",
                   expression=check_expression("acc * s[j] + k[i]", ["s", "k"]),
                   arrays=(UserArray("s", "float"), UserArray("k", "int"))),
}
EPI_CASES = [(c, s) for c in ENTRY.configs for s in EPI_SPECS]
EPI_IDS = [f"{c.tag()}-{s}" for c, s in EPI_CASES]


@pytest.mark.parametrize("spec", list(EPI_SPECS))
def test_epilogue_renders_into_the_store_and_the_exact_path(spec):
    for cfg in ENTRY.configs:
        s = EPI_SPECS[spec]
        src = render(ENTRY, cfg, "float32", s)
        assert "struct TmExtra" in src
        assert re.search(r"int M, int N, int K, int lda, int ldb, int ldc, TmExtra ex\)", src)
        assert "int row0, int col0, int cols, TmExtra ex)" in src  # the exact path takes it by value
        assert "CONS_COLS, ex);" in src
        if s.beta:
            assert "tm_epilogue_c(" in src and "tm_cin(" in src
        if cfg.passes == 1 and cfg.n_sub == 1:  # the 16-byte store path applies it per element
            assert ("reinterpret_cast<const float4*>(ex.cin" in src) == s.beta
        if s.expression:
            assert src.count("TM_USER_EXPRESSION") == 1
    plain = render(ENTRY, ENTRY.default, "float32")
    assert "TmExtra" not in plain and "tm_epilogue" not in plain


def test_batches_and_unread_layouts_are_refused_by_the_template():
    """Batches, A column-major with tf32 (which reads A's tile as TMA lands it) and both operands
    column-major have no kernel here."""
    tf32 = WgmmaTmaTf32Config(bm=256, passes=1)
    for cfg, spec, needle in [(ENTRY.default, ExSpec("float", batched=True), "batches"),
                              (tf32, ExSpec("float", a_col=True, ld=True), "operand layouts"),
                              (ENTRY.default, ExSpec("float", a_col=True, b_col=True, ld=True), "operand layouts")]:
        with pytest.raises(ValueError, match=f"has no hooks for {needle}"):
            render(ENTRY, cfg, "float32", spec)


def test_gemm_on_a_large_float32_product_keeps_this_kernel():
    """tm.gemm(a, b, c, alpha=.., beta=..) at 4096^3 float32: auto's pick (this kernel) takes the
    call (it needs only the epilogue); a batch or another layout still runs the cp.async rung."""
    assert heuristic.recommend(4096, 4096, 4096, sms=132) == ("wgmma_tma_tf32", {})
    cfg = ENTRY.make_config()
    need = execute.extras_needed(1, True, False, True)
    assert need == {"epilogue"} and not need - cfg.EXTRAS
    assert execute.extras_needed(2, True, False, True) - cfg.EXTRAS == {"batch"}
    assert execute.extras_needed(1, False, False, False) - cfg.EXTRAS == {"layouts"}
    assert not execute.extras_needed(1, False, False, True)  # a plain matmul needs nothing
    half = tm.STRATEGIES["wgmma_tma"].config_cls  # the 16-bit rung takes epilogues and batches too
    assert not execute.extras_needed(1, True, False, True) - half.EXTRAS
    assert not execute.extras_needed(2, True, False, True) - half.EXTRAS


def test_launch_buffer_passes_the_extra_struct_last():
    launcher = object.__new__(Tf32TmaLauncher)
    launcher._tls = __import__("threading").local()
    launcher.fptr, launcher.block, launcher.smem = 1, (384, 1, 1), 0
    seen = []

    def fake(fptr, gx, gy, gz, bx, by, bz, smem, stream, params_ptr, extra):
        params = (ctypes.c_void_p * 12).from_address(params_ptr)
        seen.append([params[i] for i in range(12)])

    launcher._launch = fake
    ex = ctypes.c_double(1.0)
    launcher(1, b"a" * 128, b"b" * 128, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, ex)
    launcher(1, b"a" * 128, b"b" * 128, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0)
    assert seen[0][11] == ctypes.addressof(ex) and seen[1][11] is None
    assert seen[0][:11] == seen[1][:11]


# ---- operand layouts: A and B column-major and leading dimensions ---------------------------------
#: the ExSpecs execute renders this rung with: a leading dimension (row-major slices), B
#: column-major (a @ w.T), and (tf32x3) A column-major (a.T @ b), also under an epilogue
LAYOUT_SPECS = [ExSpec("float", ld=True), ExSpec("float", b_col=True, ld=True), ExSpec("float", a_col=True, ld=True),
                ExSpec("float", a_col=True, ld=True, alpha=True, beta=True, bias=1, activation="gelu")]
LAYOUT_CASES = [(cfg, ex) for cfg in ENTRY.configs for ex in LAYOUT_SPECS if (ex.a_col, ex.b_col) in cfg.layouts()]
LAYOUT_IDS = [f"{c.tag()}-{ex.tag()}" for c, ex in LAYOUT_CASES]


def test_b_column_major_fragment_loads_are_conflict_free():
    """B_COL: one 128-byte line per column n, chunk c at c ^ (n % 8). The two loads of a pair
    (i = 0, 1) read row h = i ^ (g >= 4) in each lane: 32 distinct banks per load for every k8
    step (the XOR with 32 kk), and the selects give each lane its own rows' words."""
    def n_of(q, h, g):
        return 32 * (q // 2) + 16 * (g // 4) + 4 * (2 * (q % 2) + h) + g % 4

    for consumer in range(2):
        for q in range(4):
            for i in range(2):
                for kh in range(2):
                    for kk in range(4):
                        banks, words = set(), set()
                        for lane in range(32):
                            g, t = lane // 4, lane % 4
                            n = consumer * 64 + n_of(q, i ^ (g >= 4), g)
                            off = n * 128 + ((kh ^ (n % 8)) << 4) + 4 * t
                            byte = off ^ (kk << 5)
                            # the word it reads is B^T[n][k], k = 8 kk + 4 kh + t
                            k = 8 * kk + 4 * kh + t
                            assert byte == n * 128 + (((k // 4) ^ (n % 8)) << 4) + 4 * (k % 4)
                            banks.add(byte // 4 % 32)
                            words.add(byte)
                        assert len(banks) == 32 and len(words) == 32, (q, i, kh, kk)
    src = render(ENTRY, ENTRY.default, "float32", LAYOUT_SPECS[1])
    assert "4 * (i ^ (int)swap) + g % 4;" in src and "((kh ^ (n % 8)) << 4) + 4 * t;" in src
    assert "raw[ns][kk][2 * kh] = swap ? v1 : v0;" in src


def test_layouts_render_their_own_paths_and_the_plain_kernel_is_unchanged():
    plain = render(ENTRY, ENTRY.default, "float32")
    # ld: the pitches travel in the tensor maps; the kernel differs from the plain one only by the
    # TmExtra struct every ExSpec kernel takes last
    ld = render(ENTRY, ENTRY.default, "float32", LAYOUT_SPECS[0])
    assert "TmExtra ex" in ld and "TmExtra" not in plain and "swap ? v1 : v0" not in ld
    assert ld.count("tma_load_2d(") == plain.count("tma_load_2d(")
    bcol = render(ENTRY, ENTRY.default, "float32", LAYOUT_SPECS[1])
    assert "swap ? v1 : v0" not in plain and "swap ? v1 : v0" in bcol
    assert "tma_load_2d(b_smem + stage * B_STAGE_BYTES, &tmB, ks * BK, n0, bar);" in bcol
    assert "b_col[k]" in bcol  # the exact fallback reads B column-major too
    # A column-major (tf32x3): Aᵀ's 32 x 32 boxes, the split writes the stage back transposed,
    # the exact fallback reads A column-major; tf32 has no such kernel
    acol = render(ENTRY, ENTRY.default, "float32", LAYOUT_SPECS[2])
    assert "m0 + 32 * j, ks * BK, bar);" in acol and "m0 + 32 * j" not in plain
    assert "A[(size_t)k * lda + row]" in acol and "A[(size_t)k * lda + row]" not in plain
    assert acol.count("consumers_sync();") == plain.count("consumers_sync();")  # (buffers: no extra barrier)
    with pytest.raises(ValueError, match="no hooks for operand layouts"):
        render(ENTRY, WgmmaTmaTf32Config(bm=256, passes=1), "float32", ExSpec("float", a_col=True, ld=True))
    with pytest.raises(ValueError, match="no hooks for batches"):
        render(ENTRY, ENTRY.default, "float32", ExSpec("float", batched=True))


def test_layout_tensor_map_arguments():
    cfg = WgmmaTmaTf32Config(bm=128, bn=256, passes=1)
    # B column-major: Bᵀ (N x K rows of k, pitch ldb) in boxes of 32 k x bn columns
    a, b = cfg.map_args(300, 260, 96, 0x10000, 100, 0x20000, 104, b_col=True)
    assert a == (0x10000, 300, 96, 100, 4, F32, 128, 32, "a")
    assert b == (0x20000, 260, 96, 104, 4, F32, 256, 32, "b")
    args = tma.tiled_2d(**dict(zip(("address", "rows", "cols", "pitch", "itemsize", "dtype_code", "box_rows",
                                    "box_cols", "name"), b)))
    assert args.global_dim == (96, 260) and args.global_strides == (104 * 4,) and args.box_dim == (32, 256)
    assert args.swizzle == tma.SWIZZLE[128]
    # row-major B with a leading dimension: the pitch is the map's stride
    _, b = cfg.map_args(300, 260, 96, 0x10000, 100, 0x20000, 264)
    assert b == (0x20000, 96, 260, 264, 4, F32, 32, 32, "b")
    # A column-major: Aᵀ (K x M rows of m, pitch lda) in boxes of 32 k x 32 m
    a, _ = WgmmaTmaTf32Config().map_args(300, 260, 96, 0x10000, 304, 0x20000, 264, a_col=True)
    assert a == (0x10000, 96, 300, 304, 4, F32, 32, 32, "a")
    assert "a has rows of 301 elements" in cfg.operand_problem(301, 260, 96, 0x10000, 301, 0x20000, 264, a_col=True)
    assert cfg.operand_problem(300, 260, 96, 0x10000, 300, 0x20000, 264, a_col=True) is None
    # the 16-byte rule applies to Bᵀ's rows
    assert "b has rows of 97 elements" in cfg.operand_problem(300, 260, 96, 0x10000, 100, 0x20000, 97, b_col=True)
    assert cfg.operand_problem(300, 260, 96, 0x10000, 100, 0x20000, 96, b_col=True) is None
    assert "b has row pitch 95 < its 96 columns" in cfg.operand_problem(8, 8, 96, 0x10000, 100, 0x20000, 95, b_col=True)


def test_launch_refuses_unaligned_b_column_major_before_touching_the_gpu():
    class Kern:
        _companions: dict = {}
        device = None

    with pytest.raises(ValueError, match="b has rows of 71 elements"):
        ENTRY.default.launch_strided(Kern(), 0x1000, 72, 0x2000, 71, 0x3000, 64, 16, 64, 71, 0, b_col=True)


@pytest.mark.slow
@pytest.mark.skipif(not HAS_NVCC, reason="nvcc is not on PATH: cannot compile templates offline")
@pytest.mark.parametrize("cfg,spec", EPI_CASES, ids=EPI_IDS)
def test_epilogues_compile_without_spills(cfg, spec):
    from tiled_matmul.ptxas import _report, nvcc_path

    rep = _report(nvcc_path(), render(ENTRY, cfg, "float32", EPI_SPECS[spec]), "sm_90a",
                  kernel_name(ENTRY.name, cfg, "float32"), f"wgmma_tma_tf32 {cfg.tag()} {spec}")
    assert rep.spill_stores == 0 and rep.spill_loads == 0 and rep.stack_frame == 0, rep.log
    assert 0 < rep.registers <= H100.regs_per_sm // cfg.THREADS, rep.log
    assert "are serialized" not in rep.log, rep.log


def _assert_nvrtc_compiles(src: str, what: str) -> None:
    """NVRTC (the version CuPy loads) compiles `src` for sm_90a into a non-empty cubin."""
    from tiled_matmul.compile import NVRTC_OPTIONS

    from .test_nvrtc import NVRTC

    if isinstance(NVRTC, Exception):
        pytest.skip(f"NVRTC cannot be loaded ({NVRTC!r:.120})")
    prog = NVRTC.createProgram(src, "k.cu", (), ())
    try:
        try:
            NVRTC.compileProgram(prog, [*NVRTC_OPTIONS, "-arch=sm_90a"])
        except NVRTC.NVRTCError:
            pytest.fail(f"NVRTC {NVRTC.getVersion()} rejected {what}:\n{NVRTC.getProgramLog(prog)}")
        assert len(NVRTC.getCUBIN(prog)) > 0
    finally:
        NVRTC.destroyProgram(prog)


@pytest.mark.slow
@pytest.mark.parametrize("cfg,spec", EPI_CASES, ids=EPI_IDS)
def test_epilogues_compile_with_nvrtc(cfg, spec):
    _assert_nvrtc_compiles(render(ENTRY, cfg, "float32", EPI_SPECS[spec]), f"{cfg.tag()} {spec}")


@pytest.mark.slow
@pytest.mark.skipif(not HAS_NVCC, reason="nvcc is not on PATH: cannot compile templates offline")
@pytest.mark.parametrize("cfg,ex", LAYOUT_CASES, ids=LAYOUT_IDS)
def test_layouts_compile_for_sm90a_without_spills(cfg, ex):
    from tiled_matmul.ptxas import _report, nvcc_path
    from tiled_matmul.render import kernel_name

    rep = _report(nvcc_path(), render(ENTRY, cfg, "float32", ex), "sm_90a", kernel_name(ENTRY.name, cfg, "float32"),
                  f"{cfg.tag()} {ex.tag()}")
    assert rep.spill_stores == 0 and rep.spill_loads == 0 and rep.stack_frame == 0, rep.log
    assert "are serialized" not in rep.log and "C7508" not in rep.log, rep.log


@pytest.mark.slow
@pytest.mark.parametrize("cfg,ex", LAYOUT_CASES, ids=LAYOUT_IDS)
def test_layouts_compile_with_nvrtc(cfg, ex):
    _assert_nvrtc_compiles(render(ENTRY, cfg, "float32", ex), f"{cfg.tag()} {ex.tag()}")


def test_consumer_turns_rendered_for_tf32x3_with_a_row_major_only():
    """tf32x3 (A row-major, every B layout) queues the consumers' groups in turn: consumer 0
    passes named barrier 4 (both consumers, 256 threads) after its wgmmas, consumer 1 waits there before its own; tf32 and the
    A column-major kernel render no turns (the template says why)."""
    x3 = render(ENTRY, ENTRY.default, "float32")
    assert "bar.sync 4, %0;" in x3 and "bar.arrive 4, %0;" in x3
    assert x3.count("if (consumer == 1) turn_wait();") == 1 and x3.count("if (consumer == 0) turn_pass();") == 1
    # the wait comes before the step's wgmmas, the pass after their commit
    body = x3[x3.index("if (consumer == 1) turn_wait();"):]
    assert body.index("wgmma_tf32<0>(") < body.index("if (consumer == 0) turn_pass();")
    assert body.index("wgmma_commit_group();") < body.index("if (consumer == 0) turn_pass();")
    bcol = render(ENTRY, ENTRY.default, "float32", ExSpec("float", b_col=True, ld=True))
    assert "bar.sync 4, %0;" in bcol
    one = render(ENTRY, WgmmaTmaTf32Config(bm=256, passes=1, stages=4), "float32")
    acol = render(ENTRY, ENTRY.default, "float32", ExSpec("float", a_col=True, ld=True))
    for src in (one, acol):
        assert "bar.sync 4," not in src and "turn_wait();" not in src
