"""CPU checks of wgmma_tma: configs and their rules, tensor-map arguments, operand checks, the
launch buffer layout, and (with nvcc) every config compiling for sm_90a without spills."""

from __future__ import annotations

import ctypes
import re

import pytest

import tiled_matmul as tm
from tiled_matmul import tma
from tiled_matmul.device import H100_LIMITS as H100
from tiled_matmul.epilogue import ExSpec
from tiled_matmul.ptxas import _report, nvcc_path, ptxas_report
from tiled_matmul.render import kernel_name, render
from tiled_matmul.strategies.wgmma_tma import TmaLauncher, WgmmaTmaConfig

from .conftest import HAS_NVCC

ENTRY = tm.STRATEGIES["wgmma_tma"]
DTYPES = ("float16", "bfloat16")
CASES = [(cfg.replace(out_bits=ob), dt) for cfg in ENTRY.configs for dt in DTYPES for ob in (16, 32)]
F16 = tma.DATA_TYPE["float16"]


# ---- configs ------------------------------------------------------------------------------------
def test_every_config_is_valid_for_both_dtypes_and_fits_the_h100():
    for cfg, dt in CASES:
        cfg.validate(H100, dt)
        assert cfg.smem_bytes(dt) <= H100.smem_per_block_optin
        assert cfg.acc_regs <= 128


@pytest.mark.parametrize("params,needle", [
    (dict(bm=192), "bm (192) must be 128 or 256"),
    (dict(bn=96), "bn (96) must be 64, 128, 192 or 256"),
    (dict(bn=320), "bn (320) must be"),
    (dict(bm=256, bn=256), "needs 256 accumulator registers"),
    (dict(stages=9), "stages (9) must be between 2 and 8"),
    (dict(out_bits=8), "out_bits (8) must be 16"),
    (dict(cluster_m=4), "cluster_m (4) must be 1 or 2"),
    (dict(stages=6), "shared memory"),  # 6 x 48 KB stages of 128 x 256 do not fit
])
def test_rules_name_what_is_wrong(params, needle):
    with pytest.raises(ValueError, match=re.escape(needle)):
        WgmmaTmaConfig(**params).validate(H100, "float16")


def test_float32_is_refused_naming_the_dtypes():
    with pytest.raises(ValueError, match="wgmma_tma computes float16, bfloat16 only, got float32"):
        ENTRY.default.validate(H100, "float32")
    assert ENTRY.default_dtype == "float16"
    assert "wgmma_tma" in tm.registry.strategies_for("bfloat16")


@pytest.mark.parametrize("b_rows", [0, 1])
def test_setmaxnreg_targets_fit_the_register_file_and_render(b_rows):
    cfg = ENTRY.default.replace(b_rows=b_rows)
    p, c = cfg.setmaxnreg()
    assert (p, c) == ((cfg.PRODUCER_REGS, cfg.CONSUMER_REGS) if not b_rows else cfg.ROWS_REGS)
    for n in (p, c):
        assert 24 <= n <= 256 and n % 8 == 0  # PTX: setmaxnreg takes 24..256 in steps of 8
    assert p * 128 + c * 256 <= H100.regs_per_sm
    # entry cap of __launch_bounds__(384, 1) is below the consumer's target, above the producer's
    cap = H100.regs_per_sm // cfg.THREADS // 8 * 8
    assert p < cap < c
    src = render(ENTRY, cfg, "float16")
    assert f"setmaxnreg.dec.sync.aligned.u32 {p};" in src and f"setmaxnreg.inc.sync.aligned.u32 {c};" in src
    assert "__launch_bounds__(THREADS, MIN_BLOCKS)" in src and "constexpr int MIN_BLOCKS = 1;" in src


def test_grid_is_persistent_and_balanced():
    cfg = ENTRY.default.replace(cluster_m=1)
    # 512 tiles take 4 waves of 132 SMs; 128 CTAs take the same 4 waves, each the same work
    assert cfg.grid(4096, 4096, sms=132) == (128, 1, 1)
    assert cfg.grid(3001, 2999, sms=132) == (96, 1, 1)  # 288 tiles: 3 waves either way
    assert cfg.grid(100, 100, sms=132) == (1, 1, 1)
    assert cfg.grid(129, 257, sms=132) == (4, 1, 1)
    assert cfg.grid(10000, 10000, sms=132) == (132, 1, 1)  # 79 x 40 tiles: 24 waves need all
    assert cfg.tiles(256, 512) == 4
    pair = cfg.replace(cluster_m=2)  # clusters of 2 CTAs walk 256 x 256 super-tiles
    assert pair.tiles(4096, 4096) == 256 and pair.grid(4096, 4096, sms=132) == (128, 1, 1)
    assert pair.grid(4096, 4096, sms=132, clusters=60) == (104, 1, 1)  # 256 in 5 waves of 52
    assert pair.grid(129, 257, sms=132) == (4, 1, 1)  # 1 x 2 super-tiles: 2 clusters
    for M, N in [(1, 1), (5000, 7000), (8192, 8192), (777, 65)]:
        for c in (cfg, pair):
            grid = c.grid(M, N, sms=132)[0]
            assert grid <= 132 and grid % c.cluster_m == 0
            clusters = grid // c.cluster_m
            # no more waves than with every SM busy
            assert -(-c.tiles(M, N) // clusters) == -(-c.tiles(M, N) // (132 // c.cluster_m))


def test_render_picks_the_instruction_for_each_dtype_and_tile():
    src = render(ENTRY, ENTRY.default, "bfloat16")
    assert "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16" in src
    assert "cvt.rn.bf16x2.f32" in src
    src = render(ENTRY, WgmmaTmaConfig(bm=256, bn=128, cluster_m=1), "float16")
    assert "m64n128k16.f32.f16.f16" in src and "constexpr int M_SUB = 2;" in src
    assert "typedef float OutT;" in render(ENTRY, WgmmaTmaConfig(out_bits=32), "float16")
    assert "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes" in src
    single = render(ENTRY, WgmmaTmaConfig(cluster_m=1), "float16")
    assert "__cluster_dims__" not in single and "cluster_sync();" not in single
    pair = render(ENTRY, WgmmaTmaConfig(cluster_m=2), "float16")
    assert "__cluster_dims__(CLUSTER_M, 1, 1)" in pair and "constexpr int CLUSTER_M = 2;" in pair
    assert "tma_load_2d_multicast(b_smem" in pair and pair.count("cluster_sync();") == 2
    assert "mbar_init(empty_bar + 8 * s, CONSUMERS * 4 * CLUSTER_M)" in pair


# ---- tensor maps ---------------------------------------------------------------------------------
def test_tensor_map_arguments_are_innermost_first():
    args = tma.tiled_2d(address=0x10000, rows=3001, cols=3007, pitch=3008, itemsize=2, dtype_code=F16,
                        box_rows=128, box_cols=64)
    assert args.global_dim == (3007, 3001) and args.global_strides == (3008 * 2,)
    assert args.box_dim == (64, 128) and args.element_strides == (1, 1)
    assert args.swizzle == tma.SWIZZLE[128] == 3 and args.l2_promotion == 3 and args.oob_fill == 0
    assert args.rank == 2


def test_tensor_map_dims_may_be_ragged_and_smaller_than_the_box():
    # 1 x 1 matrix, 64 x 128 box: TMA zero-fills the rest
    args = tma.tiled_2d(address=0x200, rows=1, cols=1, pitch=1, itemsize=2, dtype_code=F16, box_rows=128, box_cols=64)
    assert args.global_dim == (1, 1) and args.global_strides == (16,)  # a legal pitch for the single row
    args = tma.tiled_2d(address=0x200, rows=7, cols=33, pitch=40, itemsize=2, dtype_code=F16, box_rows=64, box_cols=64)
    assert args.global_dim == (33, 7) and args.global_strides == (80,)


@pytest.mark.parametrize("kw,needle", [
    (dict(address=0x208), "not on a 16-byte boundary"),
    (dict(pitch=71, cols=71), "rows of 71 elements = 142 bytes, not a multiple of 16"),
    (dict(pitch=60, cols=64), "row pitch 60 < its 64 columns"),
    (dict(box_cols=128), "box rows of 256 bytes exceed the 128-byte swizzle span"),
    (dict(box_rows=300), "each box dimension must be 1 .. 256"),
    (dict(box_cols=4), "must be a multiple of 16"),
    (dict(rows=0), "at least one row"),
])
def test_tensor_map_arguments_refuse_what_tma_cannot_do(kw, needle):
    base = dict(address=0x200, rows=100, cols=64, pitch=64, itemsize=2, dtype_code=F16, box_rows=128, box_cols=64)
    with pytest.raises(ValueError, match=re.escape(needle)):
        tma.tiled_2d(**{**base, **kw})


def test_map_cache_encodes_each_key_once(monkeypatch):
    seen = []
    monkeypatch.setattr(tma, "encode", lambda args: seen.append(args) or bytes(128))
    cache = tma.MapCache(size=2)
    for _ in range(3):
        cache.get(0x1000, 64, 64, 64, 2, F16, 128, 64)
    assert len(seen) == 1 and cache.encoded == 1
    cache.get(0x1000, 64, 64, 72, 2, F16, 128, 64)  # another pitch: another map
    cache.get(0x2000, 64, 64, 64, 2, F16, 128, 64)
    assert cache.encoded == 3 and len(cache._maps) == 2  # the oldest was dropped


# ---- operands and launch ---------------------------------------------------------------------
@pytest.mark.parametrize("M,N,K,lda,ldb,a_ptr,needle", [
    (64, 64, 71, 71, 64, 0x1000, "a has rows of 71 elements"),
    (64, 257, 64, 64, 257, 0x1000, "b has rows of 257 elements"),
    (64, 64, 64, 64, 64, 0x1002, "a starts at address 0x1002"),
])
def test_operand_problem_says_why(M, N, K, lda, ldb, a_ptr, needle):
    cfg = ENTRY.default
    problem = cfg.operand_problem(M, N, K, a_ptr, lda, 0x2000, ldb)
    assert problem is not None and needle in problem
    assert not cfg.supports_operands(M, N, K, a_ptr, lda, 0x2000, ldb)


def test_padded_pitches_and_single_rows_are_fine():
    cfg = ENTRY.default
    assert cfg.supports_operands(129, 257, 71, 0x1000, 72, 0x2000, 264)  # padded to 16-byte rows
    assert cfg.supports_operands(1, 64, 71, 0x1000, 71, 0x2000, 64)  # a single row of A: any length
    assert cfg.operand_problem(64, 64, 64, 0x1000, 64, 0x2000, 64) is None


def test_map_args_follow_the_operand_layouts():
    """A row-major: boxes of bm rows x 64 k over {K, M}; column-major (Aᵀ stored K x M): 64 m x 64 k
    boxes over {M, K}, one per 64-row wgmma subtile. B row-major: 64 n x 64 k over {N, K};
    column-major (Bᵀ stored N x K): 64 k x 64 n over {K, N}. Each with its own pitch."""
    cfg = ENTRY.default
    a, b = cfg.map_args("float16", 300, 200, 100, 0x1000, 104, 0x2000, 200)
    assert a[1:4] == (300, 100, 104) and a[6:8] == (128, 64)
    assert b[1:4] == (100, 200, 200) and b[6:8] == (64, 64)
    a, b = cfg.map_args("bfloat16", 300, 200, 100, 0x1000, 304, 0x2000, 104, a_col=True, b_col=True)
    assert a[1:4] == (100, 300, 304) and a[6:8] == (64, 64)
    assert b[1:4] == (200, 100, 104) and b[6:8] == (64, 64)
    assert a[5] == tma.DATA_TYPE["bfloat16"]
    # the pitch rule applies to the stored rows: Aᵀ's rows of M = 300 elements are 600 bytes
    assert "rows of 300 elements" in cfg.operand_problem(300, 200, 100, 0x1000, 300, 0x2000, 200, a_col=True)
    assert cfg.operand_problem(300, 200, 100, 0x1000, 304, 0x2000, 104, a_col=True, b_col=True) is None


def test_launch_refuses_unaligned_operands_before_touching_the_gpu():
    class Kern:
        dtype = tm.dtypes.FLOAT16
        device = None

    with pytest.raises(ValueError, match="cannot read these operands with TMA: a has rows of 71 elements"):
        ENTRY.default.launch_strided(Kern(), 0x1000, 71, 0x2000, 64, 0x3000, 64, 16, 64, 71, 0)
    with pytest.raises(ValueError, match="writes float32; C has 2-byte elements"):
        ENTRY.default.replace(out_bits=32).launch_strided(Kern(), 0x1000, 64, 0x2000, 64, 0x3000, 64, 16, 64, 64,
                                                          0, c_itemsize=2)


def test_launch_buffer_matches_the_kernel_signature():
    # (tmA, tmB, tmC, C, M, N, K, ldc, flags): three 64-byte-aligned 128-byte maps, a pointer, 5 ints
    offs = TmaLauncher.OFFSETS
    assert [offs[0], offs[1], offs[2]] == [0, 128, 256] and offs[3] == 384 and offs[3] % 8 == 0
    assert list(offs[4:]) == [offs[3] + 8 + 4 * i for i in range(5)]
    assert offs[-1] + 4 <= TmaLauncher.SIZE
    assert ctypes.sizeof(ctypes.c_void_p) == 8
    src = render(ENTRY, ENTRY.default, "float16")
    assert re.search(r"const __grid_constant__ TmTensorMap tmA, const __grid_constant__ TmTensorMap tmB,\s*"
                     r"const __grid_constant__ TmTensorMap tmC, OutT\* __restrict__ C, int M, int N, int K, int ldc,\s*"
                     r"int flags\)", src)
    assert "struct alignas(64) TmTensorMap" in src


def test_epilogue_uses_tma_stores_for_16_bit_c_only():
    src = render(ENTRY, ENTRY.default, "bfloat16")
    assert "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group" in src and "fence_proxy_async_smem();" in src
    assert ENTRY.default.smem_bytes("bfloat16") - ENTRY.default.replace(out_bits=32).smem_bytes("bfloat16") == 128 * 256 * 2
    f32 = render(ENTRY, ENTRY.default.replace(out_bits=32), "bfloat16")
    assert "tma_store_2d(&tmC" not in f32 and "store_pair(C +" in f32
    # a 16-bit C that TMA cannot store leaves the same shared-memory tile row by row (2-byte reads of
    # it); a float32 C, and the split kernel's float32 partials, go out from the accumulators
    assert "ld.shared.u16" in src and "ld.shared.u16" not in f32
    split = tm.STRATEGIES["wgmma_tma_split_k"]
    assert "ld.shared.u16" not in render(split, split.default, "float16")
    cfg = ENTRY.default
    assert cfg.c_map("float16", 100, 64, 0x1008, 64) is None  # base off 16 bytes: the row copy
    assert cfg.c_map("float16", 100, 60, 0x1000, 60) is None  # rows of 120 bytes
    assert cfg.c_map("float16", 100, 257, 0x1000, 264) is None  # padded rows: TMA would write 257..263
    assert cfg.replace(out_bits=32).c_map("float16", 100, 64, 0x1000, 64) is None


# ---- nvcc ----------------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.skipif(not HAS_NVCC, reason="nvcc is not on PATH: cannot compile templates offline")
@pytest.mark.parametrize("cfg,dtype", CASES, ids=[f"{c.tag()}-{d}" for c, d in CASES])
def test_compiles_for_sm90a_without_spills(cfg, dtype):
    rep = ptxas_report("wgmma_tma", cfg, dtype)
    assert cfg.tag() in rep.log, rep.log
    assert rep.spill_stores == 0 and rep.spill_loads == 0 and rep.stack_frame == 0, rep.log
    # entry registers are capped by __launch_bounds__(384, 1); setmaxnreg moves them per warpgroup
    assert 0 < rep.registers <= H100.regs_per_sm // cfg.THREADS, rep.log
    assert "C7508" not in rep.log and "setmaxnreg" not in rep.log.lower(), rep.log  # setmaxnreg not ignored
    assert "are serialized" not in rep.log, rep.log


def test_a_plan_packs_every_argument_once():
    # no GPU: the packed buffer a kept plan launches from, read back through its address array
    launcher = object.__new__(TmaLauncher)
    grid_x, params_ptr, keep = launcher.pack(7, b"a" * 128, b"b" * 128, b"c" * 128, 0x123456789, 5, 6, 7, 8, 3)
    params = keep[1]
    assert grid_x == 7 and ctypes.addressof(params) == params_ptr and len(params) == len(TmaLauncher.OFFSETS)
    assert params[0] % 64 == 0 and [p - params[0] for p in params] == list(TmaLauncher.OFFSETS)
    assert [ctypes.string_at(params[i], 128) for i in range(3)] == [b"a" * 128, b"b" * 128, b"c" * 128]
    assert ctypes.c_uint64.from_address(params[3]).value == 0x123456789
    assert [ctypes.c_int32.from_address(params[4 + i]).value for i in range(5)] == [5, 6, 7, 8, 3]
    # each plan its own buffer: a second one leaves the first as it was
    launcher.pack(1, b"x" * 128, b"y" * 128, b"z" * 128, 1, 1, 1, 1, 1, 1)
    assert ctypes.string_at(params[0], 128) == b"a" * 128


def test_launch_plans_are_bounded():
    launcher = object.__new__(TmaLauncher)  # no GPU: only the plan bookkeeping
    launcher.plans = {}
    for i in range(TmaLauncher.PLANS + 10):
        assert launcher.remember((i,), (1, b"a", b"b")) == (1, b"a", b"b")
    assert len(launcher.plans) <= TmaLauncher.PLANS and (TmaLauncher.PLANS + 9,) in launcher.plans
    assert (0,) not in launcher.plans  # the oldest went first


# ---- batches -------------------------------------------------------------------------------------
def test_batch_maps_are_3d_one_matrix_deep():
    args = tma.tiled_2d(address=0x10000, rows=100, cols=72, pitch=72, itemsize=2, dtype_code=F16, box_rows=128,
                        box_cols=64, count=5, batch_stride=100 * 72)
    assert args.rank == 3 and args.global_dim == (72, 100, 5) and args.global_strides == (144, 14400)
    assert args.box_dim == (64, 128, 1) and args.element_strides == (1, 1, 1)
    # a matrix the batch shares (stride 0), or a batched kernel's last launch of one matrix: a
    # batch of one, read at matrix 0
    for count, stride in ((5, 0), (1, 7200)):
        one = tma.tiled_2d(address=0x10000, rows=100, cols=72, pitch=72, itemsize=2, dtype_code=F16, box_rows=128,
                           box_cols=64, count=count, batch_stride=stride)
        assert one.global_dim == (72, 100, 1) and one.global_strides[1] % 16 == 0
    with pytest.raises(ValueError, match=re.escape("a's matrices lie 7204 elements = 14408 bytes apart, not a multiple of 16")):
        tma.tiled_2d(address=0x10000, rows=100, cols=72, pitch=72, itemsize=2, dtype_code=F16, box_rows=128,
                     box_cols=64, count=5, batch_stride=7204, name="a")
    assert tma.batch_problem("b", 1, 7204, 2) is None  # one matrix: the stride is never used


def test_batches_share_the_persistent_grid():
    cfg = ENTRY.default  # 128 x 256 tiles
    assert cfg.grid(1024, 1024, 132) == (32, 1, 1)  # 32 tiles, one wave
    assert cfg.grid(1024, 1024, 132, count=8) == (128, 1, 1)  # 256 tiles: 2 waves over 128 CTAs
    assert cfg.grid(100, 100, 132, count=3) == (3, 1, 1)
    pair = cfg.replace(cluster_m=2)
    assert pair.grid(1024, 1024, 132, count=8) == (128, 1, 1)  # 128 super-tiles over 64 clusters


def test_batched_kernel_copies_by_matrix_and_takes_the_count():
    spec = ExSpec("float", batched=True)
    src = render(ENTRY, ENTRY.default, "float16", spec)
    assert re.search(r"int flags, int batches, TmExtra ex\)", src)
    assert "tma_load_3d(a_smem + stage * A_STAGE_BYTES, &tmA, ks * BK, m0, za, bar);" in src
    assert "&tmB, n0 + 64 * j, ks * BK, zb, bar);" in src and "tma_load_2d(" not in src.split("extern \"C\"")[1]
    assert "tma_store_3d(&tmC, c_part + b * C_BOX_BYTES, n0 + 64 * b, row0, tm_batch);" in src
    assert "OutT* const c_rows = C_b + (size_t)row0 * ldc + n0;" in src
    pair = render(ENTRY, ENTRY.default.replace(cluster_m=2), "float16", spec)
    assert "tma_load_3d_multicast(b_smem" in pair
    f32 = render(ENTRY, ENTRY.default.replace(out_bits=32), "float16", ExSpec("float", batched=True, beta=True,
                                                                               out_ctype="float"))
    assert "store_pair(C_b + (size_t)row * ldc + col" in f32 and "ex.cin = cin0 + (size_t)tm_batch * ex.scin;" in f32
    # the unbatched kernels render none of it (their sources are what the earlier GPU runs compiled)
    for plain in (render(ENTRY, ENTRY.default, "float16"), render(ENTRY, ENTRY.default, "float16",
                                                                  ExSpec("float", alpha=True, a_col=True))):
        assert "tma_load_3d" not in plain and "batches" not in plain and "C_b" not in plain


def test_batched_launch_buffer_carries_the_count():
    from tiled_matmul.strategies.wgmma_tma import CountTmaLauncher

    assert CountTmaLauncher.OFFSETS == (*TmaLauncher.OFFSETS, 412) and 416 <= CountTmaLauncher.SIZE
    launcher = object.__new__(CountTmaLauncher)
    grid_x, _, keep = launcher.pack_count(9, b"a" * 128, b"b" * 128, b"c" * 128, 0x1000, 5, 6, 7, 8, 12, 33)
    params = keep[1]
    assert grid_x == 9 and len(params) == 10
    assert [ctypes.c_int32.from_address(params[4 + i]).value for i in range(6)] == [5, 6, 7, 8, 12, 33]
    extra = ctypes.c_int64(77)
    _, _, kept = launcher.with_extra((grid_x, None, keep), extra)
    assert kept[1][10] == ctypes.addressof(extra)  # the TmExtra struct after the count


def test_a_batch_on_an_unbatched_kernel_is_refused():
    from tiled_matmul.strategies.wgmma_tma import Batch

    class Kern:  # an unbatched kernel, as the plain path compiles it
        dtype = tm.dtypes.as_dtype("float16")
        device = 0
        ex = None
        _companions: dict = {}

    with pytest.raises(ValueError, match="a batch launched on a kernel rendered unbatched"):
        ENTRY.default.launch_strided(Kern(), 0x1000, 64, 0x2000, 64, 0x3000, 64, 16, 64, 64, 0,
                                     batch=Batch(2, 1024, 4096, 1024))


@pytest.mark.slow
@pytest.mark.skipif(not HAS_NVCC, reason="nvcc is not on PATH: cannot compile templates offline")
@pytest.mark.parametrize("cfg", ENTRY.configs, ids=[c.tag() for c in ENTRY.configs])
@pytest.mark.parametrize("spec", [ExSpec("float", batched=True), ExSpec("float", batched=True, alpha=True, beta=True,
                                                                          bias=1, activation="gelu")],
                         ids=["batched", "batched_epilogue"])
def test_batched_kernels_compile_without_spills(cfg, spec):
    rep = _report(nvcc_path(), render(ENTRY, cfg, "bfloat16", spec), "sm_90a", kernel_name("wgmma_tma", cfg, "bfloat16"),
                  f"wgmma_tma {cfg.tag()} {spec.tag()}")
    assert rep.registers > 0, rep.log
    assert rep.spill_stores == 0 and rep.spill_loads == 0 and rep.stack_frame == 0, rep.log


# ---- b_rows: B read by the producer's cp.async --------------------------------------------------
ROWS_CASES = [(cfg.replace(b_rows=1, out_bits=ob), dt) for cfg in ENTRY.configs if cfg.cluster_m == 1
              for dt in DTYPES for ob in (16, 32)]


def test_b_rows_is_a_switch_that_leaves_every_shipped_kernel_as_it_was():
    for cfg in ENTRY.configs:
        assert "b_rows" not in cfg.tag()
        src = render(ENTRY, cfg, "float16")
        assert "TmRows" not in src and "cp.async.mbarrier" not in src and "B_ROWS" not in src
        assert "mbar_init(full_bar + 8 * s, 1);" in src
    rows = ENTRY.default.replace(cluster_m=1, b_rows=1)
    assert rows.tag().endswith("_b_rows1")
    src = render(ENTRY, rows, "float16")
    assert "const __grid_constant__ TmRows tmB" in src and "tma_prefetch_map(&tmB)" not in src
    assert "mbar_init(full_bar + 8 * s, 1 + 128);" in src
    assert src.count("cp.async.mbarrier.arrive.noinc.shared::cta.b64") == 1
    # each consumer orders the copies (generic proxy) before its wgmmas (async proxy)
    assert re.search(r"mbar_wait\(full_bar \+ 8 \* stage, phase\);\s*// Why: [^\n]*\n\s*fence_proxy_async_smem\(\);", src)


@pytest.mark.parametrize("params,needle", [
    (dict(b_rows=1, cluster_m=2), "cluster_m (2) must be 1"),
    (dict(b_rows=2), "b_rows: 0 or 1"),
])
def test_b_rows_rules(params, needle):
    with pytest.raises(ValueError, match=re.escape(needle)):
        WgmmaTmaConfig(**params).validate(H100, "float16")
    split = tm.STRATEGIES["wgmma_tma_split_k"].default
    split.replace(b_rows=1).validate(H100, "float16")  # the split kernel's producer walks its slices
    assert split.replace(b_rows=1).layouts() == ()  # row-major only, as the split rung itself


def test_b_rows_reads_row_major_unbatched_operands_only():
    rows = WgmmaTmaConfig(b_rows=1)
    assert rows.layouts() == ((False, False),) and "batch" not in rows.extras()
    assert "epilogue" in rows.extras() and "out_dtype" in rows.replace(out_bits=32).extras()
    with pytest.raises(ValueError, match="no hooks for operand layouts"):
        render(ENTRY, rows, "float16", ExSpec("float", a_col=True))
    assert "b is column-major" in rows.operand_problem(16, 64, 64, 0x1000, 64, 0x2000, 64, b_col=True)


@pytest.mark.parametrize("b_ptr,rows,cols,ldb,isz,needle", [
    (0x1002, 64, 10, 10, 2, "address off 4 bytes"),
    (0x1000, 64, 11, 11, 2, "11 elements = 22 bytes apart, not a multiple of 4"),
    (0x1000, 64, 10, 8, 2, "shorter than its 10 columns"),
    (0x1000, 64, 10, 10, 4, "4-byte elements"),
])
def test_rows_problem_says_why(b_ptr, rows, cols, ldb, isz, needle):
    assert needle in WgmmaTmaConfig.rows_problem(b_ptr, rows, cols, ldb, isz)


def test_rows_problem_takes_what_tma_cannot():
    ok = WgmmaTmaConfig.rows_problem
    assert ok(0x1004, 4000, 10186, 10186) is None  # 4-byte base, rows 20372 bytes apart
    assert ok(0x1000, 1, 7, 7) is None  # one row: its pitch is never read
    assert ok(0x1000, 5, 9, 10) is None  # padded to an even pitch
    assert ok(0, 0, 5, 5) is None


def test_launch_picks_the_b_rows_sibling_where_tma_cannot_read_b():
    cfg = WgmmaTmaConfig(bm=128, bn=128, stages=5)
    sib = cfg.rows_sibling(64, 0x1000, 4000, 10186, 10186, 2, False, False, False)
    assert sib == cfg.replace(b_rows=1)
    assert cfg.rows_sibling(64, 0x1000, 4000, 10192, 10192, 2, False, False, False) is None  # TMA reads it
    assert cfg.rows_sibling(64, 0x1000, 4000, 10187, 10187, 2, False, False, False) is None  # odd pitch: padded
    assert cfg.rows_sibling(64, 0x1002, 4000, 10186, 10186, 2, False, False, False) is None  # base off 4 bytes
    assert cfg.rows_sibling(64, 0x1000, 4000, 10186, 10186, 2, True, False, False) is None  # a.T
    assert cfg.rows_sibling(64, 0x1000, 4000, 10186, 10186, 2, False, True, False) is None  # w.T
    assert cfg.rows_sibling(64, 0x1000, 4000, 10186, 10186, 2, False, False, True) is None  # a batch
    assert cfg.replace(cluster_m=2).rows_sibling(64, 0x1000, 4000, 10186, 10186, 2, False, False, False) is None
    assert sib.rows_sibling(64, 0x1000, 4000, 10186, 10186, 2, False, False, False) is None
    assert cfg.rows_sibling(128, 0x1000, 4000, 10186, 10186, 2, False, False, False) == sib  # one tile row
    assert cfg.rows_sibling(129, 0x1000, 4000, 10186, 10186, 2, False, False, False) is None  # two: padded
    split = tm.STRATEGIES["wgmma_tma_split_k"].default
    assert split.rows_sibling(64, 0x1000, 4000, 10186, 10186, 2, False, False, False) == split.replace(b_rows=1)
    assert split.rows_sibling(129, 0x1000, 4000, 10186, 10186, 2, False, False, False) is None
    assert split.padding_bytes(64, 10186, 4000, "float16") == 0


def test_read_b_routes_b_in_place_without_touching_the_gpu():
    """read_b, the routing both launches (wgmma_tma's, its split's) take: the kept b_rows sibling
    where rows_sibling names one, the config itself where TMA (or its own b_rows copies) reads B."""
    from types import SimpleNamespace

    def operand(ptr):
        return SimpleNamespace(data=SimpleNamespace(ptr=ptr), itemsize=2)

    kernel = SimpleNamespace(_companions={"__rows__": "kept sibling kernel"})
    for cfg in (WgmmaTmaConfig(bm=128, bn=128, stages=5), tm.STRATEGIES["wgmma_tma_split_k"].default):
        B = operand(0x1004)
        assert cfg.read_b(kernel, B, 64, 4000, 10186, 10186, False, False, None) == (
            cfg.replace(b_rows=1), "kept sibling kernel", B, 10186)
        aligned = operand(0x1000)
        assert cfg.read_b(kernel, aligned, 64, 4000, 10192, 10192, False, False, None) == (cfg, kernel, aligned, 10192)
        rows = cfg.replace(b_rows=1)  # b_rows itself: in place, no sibling
        assert rows.read_b(kernel, B, 300, 4000, 10186, 10186, False, False, None) == (rows, kernel, B, 10186)


def test_b_rows_padding_bytes_drop_the_copy_of_b():
    cfg = WgmmaTmaConfig(bm=128, bn=128, stages=5)
    assert cfg.padding_bytes(64, 10186, 4000, "float16") == 0  # B read in place by the sibling
    assert cfg.padding_bytes(64, 10187, 4000, "float16") == 4000 * (10187 + 10192) * 2  # odd: copied
    assert cfg.replace(cluster_m=2).padding_bytes(64, 10186, 4000, "float16") == 4000 * (10186 + 10192) * 2
    assert cfg.padding_bytes(64, 10186, 4001, "float16") == 64 * (4001 + 4008) * 2  # A still copied
    assert cfg.padding_bytes(129, 10186, 4000, "float16") == 4000 * (10186 + 10192) * 2  # two tile rows


def test_b_rows_argument_packs_where_the_map_would_be():
    import struct

    arg = WgmmaTmaConfig(b_rows=1).rows_arg(0x7F0012345674, 10186)
    assert len(arg) == 128 and struct.unpack_from("<Qq", arg) == (0x7F0012345674, 10186) and not any(arg[16:])
    src = render(ENTRY, WgmmaTmaConfig(b_rows=1), "float16")
    assert re.search(r"struct alignas\(64\) TmRows \{\s*const unsigned char\* ptr;[^}]*long long ld;[^}]*"
                     r"unsigned long long unused\[14\];", src)  # 8 + 8 + 112 = a map's 128 bytes


def test_b_rows_launch_refuses_what_it_cannot_read_before_touching_the_gpu():
    class Kern:
        dtype = tm.dtypes.FLOAT16
        device = None

    rows = WgmmaTmaConfig(b_rows=1)
    with pytest.raises(ValueError, match=r"\(b_rows=1\) cannot read these operands with TMA and cp.async: b has rows"):
        rows.launch_strided(Kern(), 0x1000, 64, 0x2000, 33, 0x3000, 33, 16, 33, 64, 0)
    from tiled_matmul.strategies.wgmma_tma import Batch

    with pytest.raises(ValueError, match="a batch needs b_rows=0"):
        rows.launch_strided(Kern(), 0x1000, 64, 0x2000, 34, 0x3000, 34, 16, 34, 64, 0, batch=Batch(2, 0, 0, 0))


SPLIT_ROWS = [cfg.replace(b_rows=1) for cfg in tm.STRATEGIES["wgmma_tma_split_k"].configs]


def test_split_k_b_rows_walks_the_slices():
    split = tm.STRATEGIES["wgmma_tma_split_k"]
    src = render(split, split.default.replace(b_rows=1), "float16")
    start = src.index("Producer: every thread copies B's rows")
    producer = src[start:src.index("setmaxnreg.inc", start)]
    assert "for (int u = first_tile; u < units; u += tile_step)" in producer
    assert "for (int ks = ks_begin; ks < ks_end; ++ks)" in producer
    assert "const __grid_constant__ TmRows tmB" in src


@pytest.mark.slow
@pytest.mark.skipif(not HAS_NVCC, reason="nvcc is not on PATH: cannot compile templates offline")
@pytest.mark.parametrize("cfg", SPLIT_ROWS, ids=lambda c: c.tag())
def test_split_k_b_rows_kernels_compile_without_spills(cfg):
    rep = _report(nvcc_path(), render(tm.STRATEGIES["wgmma_tma_split_k"], cfg, "bfloat16"), "sm_90a",
                  kernel_name("wgmma_tma_split_k", cfg, "bfloat16"), f"wgmma_tma_split_k {cfg.tag()}")
    assert rep.registers > 0, rep.log
    assert rep.spill_stores == 0 and rep.spill_loads == 0 and rep.stack_frame == 0, rep.log
    assert "C7508" not in rep.log and "setmaxnreg" not in rep.log.lower(), rep.log


@pytest.mark.slow
@pytest.mark.skipif(not HAS_NVCC, reason="nvcc is not on PATH: cannot compile templates offline")
@pytest.mark.parametrize("cfg,dtype", ROWS_CASES, ids=[f"{c.tag()}-{d}" for c, d in ROWS_CASES])
@pytest.mark.parametrize("spec", [None, ExSpec("float", bias=1, activation="relu")], ids=["plain", "epilogue"])
def test_b_rows_kernels_compile_without_spills(cfg, dtype, spec):
    # (the producer's unrolled copies spilled under the plain kernel's 40-register setmaxnreg cap:
    # b_rows configs take ROWS_REGS)
    rep = _report(nvcc_path(), render(ENTRY, cfg, dtype, spec), "sm_90a", kernel_name("wgmma_tma", cfg, dtype),
                  f"wgmma_tma {cfg.tag()} {spec and spec.tag()}")
    assert rep.registers > 0, rep.log
    assert rep.spill_stores == 0 and rep.spill_loads == 0 and rep.stack_frame == 0, rep.log
    assert "C7508" not in rep.log and "setmaxnreg" not in rep.log.lower(), rep.log
