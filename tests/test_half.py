"""float16 and bfloat16 without a GPU: dtypes accepted and refused, numpy's promotion, out_dtype,
the mma_half rung's rules, rendering and nvcc compilation (sm_90a, no spills), auto's pick, the
bounds, and bench's --dtype list."""

from __future__ import annotations

import itertools

import ml_dtypes
import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul import bench, heuristic, numerics
from tiled_matmul.cli import build_parser
from tiled_matmul.dtypes import BFLOAT16, BY_CHAR, DTYPES, FLOAT16, FLOAT32, as_dtype
from tiled_matmul.epilogue import ExSpec
from tiled_matmul.ptxas import _report, nvcc_path
from tiled_matmul.render import kernel_name, render
from tiled_matmul.semantics import check_out_dtype, promote, resolve

from .conftest import HAS_GPU, HAS_NVCC

BF16 = np.dtype(ml_dtypes.bfloat16)
FLOATS = [np.dtype(np.float16), BF16, np.dtype(np.float32), np.dtype(np.float64)]
MMA = tm.STRATEGIES["mma_half"]


def arr(shape, dtype, value=1.0):
    return np.full(shape, value, dtype=np.float32).astype(dtype)


def no_gpu_launch(fn, *args, **kwargs):
    """A valid call: it reaches the launch, which needs a GPU (covered by tests/test_gpu_half.py)."""
    if HAS_GPU:
        pytest.skip("valid call: covered by the GPU tests")
    with pytest.raises(RuntimeError, match="needs a CUDA device"):
        fn(*args, **kwargs)


# -- dtypes ---------------------------------------------------------------------------------------
def test_half_dtypes_are_known_by_name_and_char():
    assert DTYPES["float16"] is FLOAT16 and DTYPES["bfloat16"] is BFLOAT16
    assert BY_CHAR["e"] is FLOAT16 and BY_CHAR["E"] is BFLOAT16 and BF16.char == "E"
    for spelling in (np.float16, "float16", np.dtype("float16")):
        assert as_dtype(spelling) is FLOAT16
    for spelling in (ml_dtypes.bfloat16, BF16, "bfloat16"):
        assert as_dtype(spelling) is BFLOAT16
    assert FLOAT16.half and BFLOAT16.half and not FLOAT32.half
    assert FLOAT16.acc is FLOAT32 and BFLOAT16.acc is FLOAT32 and FLOAT32.acc is FLOAT32


def test_only_the_half_rungs_compute_half_and_auto_reaches_each():
    half = [n for n, e in tm.STRATEGIES.items() if e.supports("float16") or e.supports("bfloat16")]
    assert "mma_half" in half
    assert set(half) <= set(heuristic.HALF_PICKS), "a half rung auto cannot pick: teach half_pick"
    # auto reaches each: wgmma_tma for a plain product, mma_half_split_k for a plain product of
    # fewer 64 x 64 tiles than SMs with a long K, mma_half where a call needs extras the other two
    # lack, or C's rows need padding and K is short (the copies would be the time)
    assert heuristic.half_pick(4096, 4096, 4096, "float16", 132) == ("wgmma_tma", {})
    assert heuristic.half_pick(4096, 4095, 4096, "float16", 132)[0] == "wgmma_tma"  # rows padded by a copy
    # B's rows not 128-byte multiples (N padded to 16 bytes) from TMA_CLUSTER_MIN_K: 2-CTA clusters
    cluster = ("wgmma_tma", heuristic._HALF_TMA_CLUSTER)
    assert heuristic.half_pick(5000, 3000, 1000, "float16", 132) == cluster  # 6000-byte rows
    assert heuristic.half_pick(3001, 2999, 3007, "bfloat16", 132) == cluster  # padded to 3000 columns
    assert heuristic.half_pick(5000, 2944, 1024, "float16", 132) == ("wgmma_tma", {})  # 5888 = 46 x 128
    assert heuristic.half_pick(5000, 3000, 999, "float16", 132) == ("wgmma_tma", {})  # K under the rule's
    # ... but not under one tile row of an even N % 8 != 0: a cluster-free config reads that B in
    # place (b_rows) where the cluster copies it into padded rows
    assert heuristic.half_pick(17, 50258, 4096, "float16", 132) == ("wgmma_tma", {})
    assert heuristic.half_pick(128, 20002, 8192, "bfloat16", 132) == ("wgmma_tma", {})
    assert heuristic.half_pick(129, 20002, 8192, "bfloat16", 132) == cluster  # two tile rows
    assert heuristic.half_pick(17, 50257, 4096, "float16", 132) == cluster  # odd N: B is copied either way
    # 25 64 x 64 tiles, TMA-readable: wgmma_tma_split_k's 9 tiles in 8 slices; mma_half_split_k
    # where a short K gives its 128 x 128 tile too few (one tile) or too shallow slices
    assert heuristic.half_pick(300, 300, 4096, "float16", 132) == ("wgmma_tma_split_k", {"split_k": 8})
    assert heuristic.half_pick(256, 256, 256, "bfloat16", 132)[0] == "mma_half_split_k"
    # a short K from TMA_SMALL_MIN_TILES 128 x 64 tiles: wgmma_tma's 128 x 64 tile, unsplit
    small = ("wgmma_tma", heuristic._HALF_TMA_SMALL)
    assert heuristic.half_pick(512, 512, 512, "float16", 132) == small  # 32 tiles
    assert heuristic.half_pick(1024, 1024, 1024, "bfloat16", 132) == small  # 128 tiles: one wave
    assert heuristic.half_pick(100, 100, 2048, "float16", 132)[0] == "mma_half_split_k"  # 1 tile, short K
    assert heuristic.half_pick(100, 100, 2049, "float16", 132) == ("wgmma_tma_split_k", {"split_k": 8})
    assert heuristic.half_pick(9, 3000, 40000, "float16", 132)[0] == "mma_half_split_k"  # M under TMA_SPLIT_MIN_M
    assert heuristic.half_pick(300, 300, 4096, "float16", 132, tma=False)[0] == "mma_half"
    narrow = ("wgmma_tma", heuristic._HALF_TMA_NARROW)
    assert heuristic.half_pick(1000, 200, 400, "float16", 132) == small  # K under HALF_SPLIT_MIN_K, 32 tiles
    # ... but a split of 32 x 32 tiles for fewer than HALF_SPLIT_FEW_TILES from K = HALF_TMA_MIN_K, and of
    # a short K (HALF_SPLIT_SHORT_K) that uses them; mma_half on them where C's rows need padding
    tiny = {k: v for k, v in heuristic._HALF_TINY.items() if k != "stages"}
    assert heuristic.half_pick(300, 300, 256, "float16", 132) == ("mma_half_split_k", dict(tiny, split_k=4))
    assert heuristic.half_pick(41, 59, 834, "float16", 132) == ("mma_half_split_k", dict(tiny, split_k=8))
    assert heuristic.half_pick(51, 1265, 137, "float16", 132) == ("mma_half", heuristic._HALF_TINY)
    assert heuristic.half_pick(1000, 1000, 4096, "float16", 132) == narrow  # 256 64 x 64 tiles
    assert heuristic.half_pick(1265, 51, 137, "float16", 132) == ("gemv_ax_mma", heuristic._AX_MMA_WIDE)  # small A·x
    assert heuristic.half_pick(51, 1265, 137, "float16", 132)[0] == "mma_half"  # C padded, short K
    assert heuristic.half_pick(12399, 18, 89, "bfloat16", 132)[0] == "mma_half"  # ... even over half a wave
    # ... but TMA for a C of HALF_TMA_PAD_FILL waves' area from K = HALF_TMA_PAD_MIN_K
    K = heuristic.HALF_TMA_PAD_MIN_K
    assert heuristic.half_pick(1300, 1700, K, "float16", 132) == ("wgmma_tma", {})
    # ... on 128 x 64 tiles for a narrow B (N up to HALF_TMA_PAD_NARROW_N)
    narrow_n = heuristic.HALF_TMA_PAD_NARROW_N - 1
    assert heuristic.half_pick(8513, 367, 138, "float16", 132) == ("wgmma_tma", heuristic._HALF_TMA_SMALL)
    assert heuristic.half_pick(4093, narrow_n, K, "bfloat16", 132) == ("wgmma_tma", heuristic._HALF_TMA_SMALL)
    assert heuristic.half_pick(4093, narrow_n + 8, K, "bfloat16", 132) == ("wgmma_tma", {})
    assert heuristic.half_pick(16328, 1673, 187, "bfloat16", 132) == ("wgmma_tma", {})
    assert heuristic.half_pick(1300, 1700, K - 1, "float16", 132) == ("mma_half", {})
    assert heuristic.half_pick(12399, 18, 200, "float16", 132)[0] == "mma_half"  # 7% of its tiles' area
    # no padding, but a short K on few tiles: the 32 x 32 tile, not TMA's fixed part
    assert heuristic.half_pick(56, 1265, 137, "float16", 132) == ("mma_half", heuristic._HALF_TINY)
    assert heuristic.half_pick(16, 664, 4, "bfloat16", 132) == ("mma_half", heuristic._HALF_TINY)
    assert heuristic.half_pick(1000, 2000, 64, "float16", 132) == narrow  # 512 64 x 64 tiles
    assert heuristic.half_pick(4096, 4096, 4096, "bfloat16", 132, tma=False)[0] == "mma_half"
    assert heuristic.half_pick(1, 8192, 8192, "bfloat16", 132)[0] == "gemv_xb_half"  # a plain x·B
    assert heuristic.half_pick(1, 8192, 8192, "bfloat16", 132, tma=False)[0] == "mma_half"
    # skinny with the streamed operand's rows unaligned: never TMA's padding copy of it
    assert heuristic.half_pick(1, 50257, 4096, "float16", 132) == ("gemv_xb_half", heuristic._XB_HALF_ELEM)
    assert heuristic.half_pick(4, 50257, 4096, "float16", 132) == ("mma_half_split_k", {"split_k": 2})
    assert heuristic.half_pick(9298, 6, 5590, "float16", 132)[0] == "gemv_ax_mma"  # its element path
    assert heuristic.half_pick(4, 9298, 5590, "float16", 132)[0] == "mma_half_split_k"
    # A·x: the widen-and-FFMA rung for one or two columns, the tensor-core one from HALF_AX_MMA_MIN to 8
    assert heuristic.half_pick(8192, 2, 8192, "float16", 132)[0] == "gemv_ax_half"
    assert heuristic.half_pick(8192, 8, 8192, "bfloat16", 132) == ("gemv_ax_mma", {})
    assert heuristic.half_pick(8192, 3, 1000, "bfloat16", 132) == ("gemv_ax_mma", heuristic._AX_MMA_NARROW)
    assert heuristic.half_pick(8192, 8, 8192, "bfloat16", 132, tma=False)[0] == "mma_half"
    # ... and for a small A·x of 9..56 columns (fewer than A's rows, A of at most 2 MiB)
    wide = ("gemv_ax_mma", heuristic._AX_MMA_WIDE)
    assert heuristic.half_pick(94, 50, 6180, "float16", 132) == wide
    assert heuristic.half_pick(30, 11, 242, "bfloat16", 132) == wide
    assert heuristic.half_pick(94, 57, 6180, "float16", 132) != wide  # 57 columns
    assert heuristic.half_pick(50, 94, 6180, "float16", 132) != wide  # more columns than rows
    assert heuristic.half_pick(4096, 32, 4096, "float16", 132)[0] == "wgmma_tma_split_k"  # A of 32 MiB
    assert heuristic.half_pick(94, 50, 6180, "float16", 132, tma=False)[0] == "mma_half"
    assert heuristic.half_pick(16068, 50, 8, "float16", 132) != wide  # K under GEMV_MIN_K
    for name in ("naive", "register_blocked", "warp_tiled", "split_k", "tensor_core", "wgmma", "gemv_xb", "dmma"):
        assert not tm.STRATEGIES[name].supports("float16") and not tm.STRATEGIES[name].supports("bfloat16")
    assert MMA.config_cls.SUPPORTED_DTYPES == ("float16", "bfloat16") and MMA.default_dtype == "float16"


@pytest.mark.parametrize("da,db", list(itertools.product(FLOATS, FLOATS)), ids=lambda d: d.name)
def test_promotion_follows_numpy(da, db):
    p = resolve((3, 4), (4, 5), da, db)
    if {da.name, db.name} == {"float16", "bfloat16"}:  # numpy has no common type; matmul gives float32
        assert p.dtype == "float32"
        assert np.matmul(np.ones((1, 1), da), np.ones((1, 1), db)).dtype == np.float32
    else:
        assert p.dtype.numpy == np.result_type(da, db)
    assert promote(da, db) == p.dtype.numpy and p.c_dtype is p.dtype and p.out_dtype is None


@pytest.mark.parametrize("dtype", ["int8", "int32", "uint16", "bool", "complex64", "complex128"])
def test_other_dtypes_name_the_allowed_ones(dtype):
    half = arr((2, 3), np.float16)
    with pytest.raises(TypeError, match=f"a has dtype {dtype}; supported dtypes are float32, float64, float16, "
                                        "bfloat16"):
        tm.matmul(np.zeros((2, 3), dtype), arr((3, 2), np.float16))
    with pytest.raises(TypeError, match=f"b has dtype {dtype}"):
        tm.matmul(half, np.zeros((3, 2), dtype))


@pytest.mark.parametrize("dtype", [np.float16, BF16])
def test_half_products_pass_every_check(dtype):
    no_gpu_launch(tm.matmul, arr((5, 7), dtype), arr((7, 3), dtype))
    no_gpu_launch(tm.matmul, arr((5, 7), dtype), arr((7, 3), dtype), out_dtype=np.float32)
    no_gpu_launch(tm.matmul, arr((5, 7), dtype), arr((7, 3), dtype), "mma_half", bm=64, bn=64, wm=32, wn=32)
    no_gpu_launch(tm.matmul, arr((2, 5, 7), dtype), arr((7, 3), dtype))  # batched
    no_gpu_launch(tm.gemm, arr((5, 7), dtype), arr((7, 3), dtype), bias=np.ones(3, np.float32), activation="relu")
    no_gpu_launch(tm.matmul, arr((5, 7), dtype), arr((7, 3), np.float32))  # promoted to float32


def test_a_strategy_without_half_says_which_have_it():
    with pytest.raises(ValueError, match="naive computes float32, float64 only, got bfloat16; strategies for "
                                         "bfloat16: .*mma_half"):
        tm.matmul(arr((5, 7), BF16), arr((7, 3), BF16), "naive")
    with pytest.raises(ValueError, match="mma_half computes float16, bfloat16 only, got float32"):
        tm.source("mma_half", dtype="float32")


@pytest.mark.parametrize("precision", ["tf32", "tf32x3"])
def test_tf32_modes_are_for_float32_only(precision):
    with pytest.raises(ValueError, match="float16 products take precision 'auto' or 'ieee'"):
        tm.matmul(arr((5, 7), np.float16), arr((7, 3), np.float16), precision=precision)
    with pytest.raises(ValueError, match="computes precision 'ieee' only"):
        tm.kernel("mma_half", precision=precision)


# -- out_dtype ------------------------------------------------------------------------------------
def test_out_dtype_values():
    assert check_out_dtype(None) is None
    for f32 in (np.float32, "float32", np.dtype("float32")):
        assert check_out_dtype(f32) is FLOAT32
    for bad in (np.float16, "bfloat16", np.float64, np.int32, "complex64"):
        with pytest.raises(ValueError, match="out_dtype must be None .* or float32"):
            check_out_dtype(bad)
    for bad in (3, object(), "nonsense"):
        with pytest.raises(TypeError, match="out_dtype must be None or float32"):
            check_out_dtype(bad)


@pytest.mark.parametrize("call", ["matmul", "gemm", "kernel"])
def test_out_dtype_errors_leave_out_untouched(call):
    a, b = arr((4, 6), np.float16), arr((6, 5), np.float16)
    out = np.full((4, 5), 7.0, np.float32)
    run = {"matmul": lambda **kw: tm.matmul(a, b, **kw), "gemm": lambda **kw: tm.gemm(a, b, **kw),
           "kernel": lambda **kw: tm.kernel("mma_half")(a, b, **kw)}[call]
    with pytest.raises(ValueError, match="out_dtype must be None"):
        run(out=out, out_dtype=np.float16)
    with pytest.raises(TypeError, match="out_dtype must be None or float32"):
        run(out=out, out_dtype=1.5)
    with pytest.raises(TypeError, match="out has dtype float32; the result dtype is float16 .*out_dtype=float32"):
        run(out=out)  # a float32 out without out_dtype
    with pytest.raises(TypeError, match=r"out has dtype float16; the result dtype is float32 \(out_dtype\)"):
        run(out=np.zeros((4, 5), np.float16), out_dtype=np.float32)
    assert (out == 7.0).all()
    no_gpu_launch(run, out=out, out_dtype=np.float32)


def test_out_dtype_float32_on_a_float64_product_is_refused():
    with pytest.raises(ValueError, match="inputs make a float64 product"):
        tm.matmul(np.ones((2, 3)), np.ones((3, 2)), out_dtype=np.float32)
    p = resolve((2, 3), (3, 4), np.dtype("float32"), np.dtype("float32"), FLOAT32)
    assert p.out_dtype is None  # float32 asked of a float32 product: nothing to do
    p = resolve((2, 3), (3, 4), BF16, BF16, FLOAT32)
    assert (p.dtype, p.out_dtype, p.c_dtype) == ("bfloat16", "float32", "float32")


def test_errors_write_nothing():
    out = np.full((4, 5), 3.0, np.float16)
    for bad in (dict(b=np.ones((6, 5), np.int32)), dict(b=np.ones((7, 5), np.float16)), dict(out_dtype="float64")):
        kw = dict(b=arr((6, 5), np.float16), out=out)
        kw.update(bad)
        with pytest.raises((TypeError, ValueError)):
            tm.matmul(arr((4, 6), np.float16), **kw)
    assert (out == 3.0).all()


def test_extra_epilogue_arrays_stay_32_or_64_bit():
    with pytest.raises(TypeError, match="s has dtype float16; extra arrays may be"):
        tm.gemm(arr((2, 3), np.float16), arr((3, 4), np.float16), epilogue="acc * s[j]", s=np.ones(4, np.float16))


class _Cai:
    """A device array seen only through __cuda_array_interface__ (no DLPack)."""

    def __init__(self, typestr):
        self.__cuda_array_interface__ = dict(shape=(2, 2), typestr=typestr, data=(0, False), version=2,
                                             strides=None)


def test_opaque_two_byte_interface_without_dlpack_is_refused():
    # bfloat16's typestr is "<V2" (raw records): without DLPack there is no telling what it holds
    with pytest.raises(TypeError, match="a has dtype void16; supported dtypes are"):
        tm.matmul(_Cai("<V2"), _Cai("<V2"))


# -- the mma_half rung ----------------------------------------------------------------------------
def test_mma_half_rules():
    cfg = MMA.default
    assert cfg.validate(dtype="float16") is cfg and cfg.validate(dtype="bfloat16") is cfg
    assert cfg.block() == (256, 1, 1) and cfg.grid(1000, 300) == (8 * 3, 1, 1)
    assert cfg.smem_bytes("bfloat16") == 4 * (128 * 40 + 32 * 136) * 2
    for bad, needle in ((dict(wn=8), "wn \\(8\\) must be a multiple of 16"), (dict(bk=8), "bk \\(8\\) must be a multiple of 16"),
                        (dict(wm=8, bm=64), "wm \\(8\\) must be a multiple of 16"),
                        (dict(bm=256, bn=256, wm=128, wn=128), "accumulators per thread")):
        with pytest.raises(ValueError, match=needle):
            MMA.make_config(**bad).validate(dtype="float16")
    for cfg in MMA.configs:
        cfg.validate(dtype="float16")
        cfg.validate(dtype="bfloat16")


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_mma_half_renders_its_mma_and_out_type(dtype):
    mma = "bf16" if dtype == "bfloat16" else "f16"
    src = render(MMA, MMA.default, dtype)
    assert f"mma.sync.aligned.m16n8k16.row.col.f32.{mma}.{mma}.f32" in src
    assert "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16" in src
    assert "typedef unsigned short tm_out_t;" in src and f"cvt.rn.{mma}x2.f32" in src
    assert kernel_name("mma_half", MMA.default, dtype) in src
    f32 = render(MMA, MMA.default, dtype, ExSpec("float", out_ctype="float"))
    assert "typedef float tm_out_t;" in f32 and "cvt.rn.f" not in f32 and "cvt.rn.b" not in f32
    with pytest.raises(ValueError, match="no hooks for a float C"):
        render(tm.STRATEGIES["naive"], tm.STRATEGIES["naive"].default, "float32", ExSpec("float", out_ctype="float"))


EXTRAS = {
    "plain": None,
    "out_f32": ExSpec("float", out_ctype="float"),
    "bias_relu": ExSpec("float", bias=1, activation="relu"),
    "batched_all_out_f32": ExSpec("float", batched=True, alpha=True, beta=True, bias=0, activation="gelu",
                                  out_ctype="float"),
}
NVCC_CASES = [(c, dt, "plain") for c in MMA.configs for dt in ("float16", "bfloat16")]
NVCC_CASES += [(MMA.default, dt, ex) for dt in ("float16", "bfloat16") for ex in EXTRAS if ex != "plain"]


@pytest.mark.slow
@pytest.mark.skipif(not HAS_NVCC, reason="nvcc is not on PATH: cannot compile templates offline")
@pytest.mark.parametrize("cfg,dtype,extra", NVCC_CASES, ids=[f"{c.tag()}-{d}-{e}" for c, d, e in NVCC_CASES])
def test_mma_half_compiles_for_sm90a_without_spills(cfg, dtype, extra):
    name = kernel_name("mma_half", cfg, dtype)
    rep = _report(nvcc_path(), render(MMA, cfg, dtype, EXTRAS[extra]), "sm_90a", name, f"mma_half {cfg.tag()} {dtype}")
    assert name in rep.log and rep.registers > 0, rep.log
    assert rep.spill_stores == 0 and rep.spill_loads == 0 and rep.stack_frame == 0, rep.log


# -- auto, bounds, bench ----------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_auto_picks_a_half_rung(dtype):
    for shape in ((4096, 4096, 4096), (1, 4096, 4096), (3001, 2999, 3007), (7, 7, 7)):
        name, params = heuristic.recommend(*shape, dtype)
        assert name in heuristic.HALF_PICKS
        tm.STRATEGIES[name].make_config(**params).validate(dtype=dtype)
    # a large output goes to wgmma_tma, ragged rows too (its launch pads them by a copy)
    assert heuristic.recommend(3001, 2999, 3007, dtype)[0] == "wgmma_tma"
    choice = tm.kernel("auto").resolve(4096, 4096, 4096, dtype)
    assert choice.strategy == "wgmma_tma" and choice.bucket == f"{dtype}/4096x4096x4096"


def test_half_bounds_and_tolerances():
    assert numerics.half_bound("float16", 1) == 2.0 ** -11 + 2.0 ** -23
    assert numerics.half_bound("bfloat16", 4096) == 2.0 ** -8 + 4096 * 2.0 ** -23
    assert numerics.half_bound("bfloat16", 4096, "float32") == 2.0 ** -24 + 4096 * 2.0 ** -23
    assert tm.tolerance("float16", 1000) < 2e-3 and tm.tolerance("bfloat16", 1000) < 1e-2
    assert tm.tolerance("float32", 1000) < tm.tolerance("float16", 1000)


def test_poison_fills_nan_bits():
    for dtype in (np.float16, BF16, np.float32, np.float64):
        assert np.isnan(numerics.poison(np.zeros(5, dtype)).astype(np.float64)).all()


def test_bench_takes_a_dtype_list():
    assert bench.parse_dtypes("float16, bfloat16,float32") == ["float16", "bfloat16", "float32"]
    assert bench.parse_dtypes(np.float64) == ["float64"]
    with pytest.raises(TypeError, match="not supported"):
        bench.parse_dtypes("float16,int8")
    args = build_parser().parse_args(["bench", "--dtype", "float16,bfloat16,float32"])
    assert args.dtype == "float16,bfloat16,float32"
    with pytest.raises(ValueError, match="float32 only"):
        bench.run(dtype="float16,bfloat16", tf32=True)
    with pytest.raises(ValueError, match="float16 products take precision"):
        bench.run(dtype="float16,float32", precision="tf32")


def test_half_ladder_rows_are_the_half_rungs_auto_and_cublas():
    for dt in (FLOAT16, BFLOAT16):
        rows = bench.request_rows(bench.LADDER, list(tm.STRATEGIES) + ["auto"], dt, "auto")
        names = [r.strategy for r in rows]
        assert names[-1] == "cuBLAS" and "auto" in names and "mma_half" in names
        assert all(n in ("auto", "cuBLAS") or tm.STRATEGIES[n].supports(dt) for n in names)


def test_explain_knows_the_half_tensor_core_peak():
    m = tm.explain("mma_half", (4096, 4096, 4096), dtype="bfloat16", device=tm.device_limits())
    assert m["peak_tflops"] == pytest.approx(989.4, abs=0.1)
    assert m["compute_bound_ms"] == pytest.approx(2 * 4096 ** 3 / 989.43e12 * 1e3, rel=1e-3)


def test_half_batch_pick_rules():
    """heuristic.half_batch_pick: wgmma_tma or None; None for skinny matrices and for C's unaligned
    rows with a short K on a small C; clusters only on an even count of 128-row tiles per matrix;
    and the tile model's trade: at a fixed shape, once K is long enough for the 128 x 256 tile, a
    longer K keeps it (the narrow tile's weight grows with K)."""
    rng = np.random.default_rng(36)
    small = heuristic._HALF_TMA_SMALL
    for _ in range(400):
        count, M, N, K = (int(x) for x in (rng.integers(2, 65), *np.exp(rng.uniform(0, np.log(5000), 3)).round()))
        pick = heuristic.half_batch_pick(M, N, K, count, "float16", 132)
        if min(M, N) <= heuristic.GEMV_MAX or (N % 8 and K < heuristic.HALF_TMA_PAD_MIN_K):
            assert pick is None, (count, M, N, K, pick)
            continue
        if pick is None:
            assert N % 8 and K < heuristic.HALF_TMA_MIN_K, (count, M, N, K)
            continue
        name, params = pick
        assert name == "wgmma_tma"
        if params.get("cluster_m", 1) > 1:
            assert -(-M // 128) % 2 == 0 and K >= heuristic.TMA_CLUSTER_MIN_K, (count, M, N, K)
        wide = params != small
        longer = heuristic.half_batch_pick(M, N, 2 * K, count, "float16", 132)
        if wide:
            assert longer is not None and longer[1] != small, (count, M, N, K, longer)
    # the 128 x 64 tile where the 128 x 256 one leaves most SMs idle, the wide one over waves of it
    assert heuristic.half_batch_pick(103, 229, 658, 7, "bfloat16", 132)[1] == small
    assert heuristic.half_batch_pick(1314, 1704, 311, 8, "bfloat16", 132)[1] == {}


def test_half_picks_off_hopper():
    """On a GPU without sm_90a (wgmma=False: an A100's compute capability 8.0 here) every 16-bit
    pick, 2-D or batched, names a rung whose code that GPU runs (the mma.sync rungs; batches keep
    the stacked pick), while on Hopper the same draw reaches wgmma_tma."""
    import dataclasses

    from tiled_matmul.device import H100_LIMITS

    ampere = dataclasses.replace(H100_LIMITS, compute_capability="80", sm_count=108)
    rng = np.random.default_rng(37)
    hopper_names = set()
    for _ in range(400):
        count, M, N, K = (int(x) for x in (rng.integers(2, 65), *np.exp(rng.uniform(0, np.log(9000), 3)).round()))
        name, params = heuristic.recommend(M, N, K, "float16", sms=108, wgmma=False)
        config = tm.STRATEGIES[name].make_config(**params)
        assert config.runs_on(ampere), (M, N, K, name, params)
        assert heuristic.half_batch_pick(M, N, K, count, "bfloat16", 108, wgmma=False) is None
        hopper_names.add(heuristic.recommend(M, N, K, "float16", sms=132)[0])
    assert "wgmma_tma" in hopper_names  # the same draw reaches the sm_90a rungs where they may run


def test_narrow_c_leaves_the_128x256_tile():
    """A plain 16-bit product of at least half a wave of 128 x 256 tiles (where wgmma_tma's wide
    tile is the pick) with N <= HALF_NARROW_C runs on a tile at most N's width rounded up to 64 or
    128 (half or more of a 256-wide tile would be padding); wider ones keep the 128 x 256 tile,
    clustered or not. Random shapes of that region, both 16-bit dtypes, on the H100's 132 SMs."""
    rng = np.random.default_rng(38)
    seen = set()
    for _ in range(300):
        M = int(rng.integers(66 * 128 + 1, 70000))
        N = int(rng.integers(9, 400))
        K = int(np.exp(rng.uniform(np.log(256), np.log(20000))))
        dtype = ("float16", "bfloat16")[int(rng.integers(2))]
        name, params = heuristic.half_pick(M, N, K, dtype, 132)
        if name != "wgmma_tma":  # a GEMV or split rung took it (not this rule's region)
            continue
        bn = params.get("bn", 256)
        if N <= heuristic.HALF_NARROW_C:
            assert bn == (64 if 2 * N <= heuristic.HALF_NARROW_C else 128), (M, N, K, params)
            assert "cluster_m" not in params
        else:
            assert bn == 256, (M, N, K, params)
        seen.add(bn)
    assert seen == {64, 128, 256}
