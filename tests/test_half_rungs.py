"""CPU checks of the half rungs of the fourteenth session (mma_half_split_k, gemv_xb_half,
gemv_ax_half) and the fifteenth (gemv_ax_mma), and of the hooks the first three add to shared templates: the float rungs' and mma_half's sources carry none
of the new lines, the float32 workspace is sized and capped in bytes of float, the launches use it,
and the steps and shared memory follow the 16-bit geometry. (Every config compiles without spills:
tests/test_nvcc.py, over the registry.)"""

from __future__ import annotations

import pytest

import tiled_matmul as tm
from tiled_matmul.configs import EXTRA_FEATURES
from tiled_matmul.device import H100_LIMITS
from tiled_matmul.dtypes import FLOAT16, FLOAT32
from tiled_matmul.epilogue import ExSpec
from tiled_matmul.render import render

from .conftest import HAS_NVCC

HALF_RUNGS = ("mma_half_split_k", "gemv_xb_half", "gemv_ax_half", "gemv_ax_mma")


@pytest.mark.parametrize("name", ["mma_half", "gemv_xb", "gemv_ax"])
def test_the_hooks_render_nothing_for_the_rungs_they_extend(name):
    """The SPLIT_K and HALF hooks leave mma_half's, gemv_xb's and gemv_ax's sources without a line
    of the split or half paths, with and without extras."""
    entry = tm.STRATEGIES[name]
    half = entry.supports("float16")
    new_lines = ("k_begin", "SPLIT_K", "launch_dependents", "reduce_") if half else ("h2f", "put(", "widen(", "HSTEP", "braw")
    for cfg in entry.configs:
        for dt in entry.config_cls.SUPPORTED_DTYPES:
            ct = "float" if dt != "float64" else "double"
            for spec in (None, ExSpec(ct, batched=True, alpha=True, beta=True, bias=1, activation="gelu")):
                src = render(entry, cfg, dt, spec)
                for token in new_lines:
                    assert token not in src, (name, cfg.tag(), dt, spec, token)


@pytest.mark.parametrize("name", HALF_RUNGS)
def test_plain_products_only(name):
    entry = tm.STRATEGIES[name]
    assert entry.config_cls.EXTRAS == frozenset() and entry.config_cls.LAYOUTS == ()
    assert entry.config_cls.SUPPORTED_DTYPES == ("float16", "bfloat16")
    for what in EXTRA_FEATURES:
        with pytest.raises(ValueError, match=name):
            spec = {"epilogue": ExSpec("float", alpha=True), "batch": ExSpec("float", batched=True),
                    "layouts": ExSpec("float", a_col=True, ld=True), "out_dtype": ExSpec("float", out_ctype="float")}[what]
            render(entry, entry.default, "float16", spec)


@pytest.mark.parametrize("name", HALF_RUNGS)
def test_the_workspace_holds_float32_partials(name):
    cfg = tm.STRATEGIES[name].default
    for dt in ("float16", "bfloat16"):
        assert cfg.work_itemsize(tm.dtypes.as_dtype(dt)) == 4
    M, N, K = {"mma_half_split_k": (100, 100, 8192), "gemv_xb_half": (1, 512, 100000),
               "gemv_ax_half": (512, 1, 100000), "gemv_ax_mma": (512, 8, 100000)}[name]
    ws = cfg.workspace_bytes(M, N, "float16", K=K, device=H100_LIMITS) if name != "mma_half_split_k" \
        else cfg.workspace_bytes(M, N, "float16")
    assert ws > 0 and ws % (M * N * 4) == 0  # slices x M x N floats


def test_split_workspace_cap_counts_float_bytes(monkeypatch):
    cls = tm.STRATEGIES["mma_half_split_k"].config_cls
    cfg = cls(split_k=8)
    monkeypatch.setattr(cls, "WORKSPACE_CAP", 3 * 64 * 64 * 4)
    assert cfg.slices(64, 64, "float16") == 3  # 4-byte partials: 3 fit, not the 6 of 2-byte ones
    assert cfg.workspace_bytes(64, 64, "float16") == 3 * 64 * 64 * 4


def test_gemv_split_cap_counts_float_bytes():
    """The most workspace any K could need (K=None): MAX_WORKSPACE_BYTES of 4-byte partials, half
    the slices 2-byte ones would get."""
    cfg = tm.STRATEGIES["gemv_xb_half"].config_cls(mt=1, unroll=8)
    outputs = 2**20  # 16 slices of 4 MiB of floats fill the 64 MiB cap
    assert cfg.workspace_bytes(1, outputs, "float16") == 16 * outputs * 4 == cfg.MAX_WORKSPACE_BYTES
    s = cfg.k_splits(1, 8, 2**20, 132, FLOAT16)  # a tiny output, a long K: split, every slice busy
    assert 2 <= s <= cfg.MAX_SPLITS and cfg.k_slice(2**20, s) * (s - 1) < 2**20


def test_sixteen_bit_geometry():
    xb = tm.STRATEGIES["gemv_xb_half"].config_cls(threads=512, mt=1, unroll=8, min_blocks=1, kg=32)
    assert xb.COLS == 8 and xb.tile_mn == (1, 16 * 8)  # 16 lanes of 8 columns
    assert xb.smem_bytes("float16") == 512 * 8 * 4  # the K groups' float sums
    assert xb.occupancy(FLOAT16) == 1 and tm.STRATEGIES["gemv_xb_half"].default.occupancy(FLOAT16) == 2
    ax = tm.STRATEGIES["gemv_ax_half"].config_cls(nt=4, rows=2, unroll=2)
    float_ax = tm.STRATEGIES["gemv_ax"].config_cls(nt=4, rows=2, unroll=2)
    assert ax.tile_k == 2 * float_ax.tile_k  # 8 values per 16-byte load instead of 4
    assert ax.pad(FLOAT16) == float_ax.pad(FLOAT32)  # B staged as floats
    assert ax.smem_bytes("float16") == 2 * 4 * (ax.tile_k + ax.pad(FLOAT16)) * 4


def test_gemv_ax_mma_geometry():
    """16 rows per m16 tile, 8 columns per chunk (the MMA's n8), 32-deep chunks per warp and step,
    one warp per K group; shared memory: the warps' float sums and each warp's 32 rows of B."""
    cls = tm.STRATEGIES["gemv_ax_mma"].config_cls
    for rt, kg, unroll in [(2, 8, 2), (1, 16, 2), (2, 4, 1)]:
        cfg = cls(rt=rt, kg=kg, unroll=unroll)
        assert cfg.threads == 32 * kg and cfg.block() == (32 * kg, 1, 1)
        assert cfg.tile_mn == (16 * rt, 8) and cfg.tile_k == 32 * kg * unroll
        assert cfg.output_blocks(1000, 17) == -(-1000 // (16 * rt)) * 3  # three chunks of 8 columns
        assert cfg.streamed(1000, 17, 500) == 3 * 1000 * 500  # A once per chunk
        assert cfg.smem_bytes("float16") == kg * rt * 4 * 32 * 4 + kg * 32 * 16
    src = render(tm.STRATEGIES["gemv_ax_mma"], cls(rt=1, kg=16), "float16")
    assert "float red[KG][RT][4][32]" in src and "uint4 bsm[KG][32]" in src  # what smem_bytes counts


@pytest.mark.parametrize("dtype,ptx,other", [("float16", "f16", "bf16"), ("bfloat16", "bf16", "f16")])
def test_gemv_ax_mma_takes_the_mma_and_rounding_of_its_dtype(dtype, ptx, other):
    src = render(tm.STRATEGIES["gemv_ax_mma"], tm.STRATEGIES["gemv_ax_mma"].default, dtype)
    assert f"m16n8k16.row.col.f32.{ptx}.{ptx}.f32" in src and f"cvt.rn.{ptx}.f32" in src
    assert f".{other}.{other}.f32" not in src and f"cvt.rn.{other}.f32" not in src


def test_the_reduce_rounds_float_partials_once():
    for name in HALF_RUNGS:
        entry = tm.STRATEGIES[name]
        src = render(entry, entry.default, "bfloat16")
        reduce = src[src.index("reduce_" + entry.name):]
        assert "const float* __restrict__ W, tm_out_t* __restrict__ C" in reduce, name
        assert "to_out(s[e])" in reduce and "float4 sum" in reduce, name
        assert "cvt.rn.bf16.f32" in src, name


def test_a_launch_allocates_float_partials(monkeypatch):
    """mma_half_split_k's launch: the workspace is slices x M x N floats for a float16 kernel."""
    import cupy

    calls = []

    class Ptr:
        def __init__(self, ptr):
            self.data = type("Mem", (), {"ptr": ptr})()
            self.itemsize = 2

    class Kernel:
        device = None
        dtype = FLOAT16
        name = "tm_mma_half_split_k_f16_x"

        def launcher(self, grid, a, b, c, m, n, k, flags, stream):
            calls.append(("main", grid))

        def reduce_launcher(self, symbol):
            return lambda grid, w, c, m, n, flags, stream, *splits: calls.append(("reduce", symbol, splits))

    monkeypatch.setattr(cupy.cuda, "alloc", lambda nbytes: calls.append(("alloc", nbytes)) or Ptr(0x9000).data)
    monkeypatch.setattr("tiled_matmul.configs.device_limits", lambda device=None: H100_LIMITS)
    cfg = tm.STRATEGIES["mma_half_split_k"].config_cls(split_k=16)
    cfg.launch(Kernel(), Ptr(0x1000), Ptr(0x2000), Ptr(0x3000), 64, 64, 65536, 3, Ptr(0).data)
    assert [c[0] for c in calls] == ["alloc", "main", "reduce"]
    assert calls[0][1] == 16 * 64 * 64 * 4 and calls[1][1] == (1, 1, 16) and calls[2][2] == (16,)


def test_split_pads_unaligned_long_k_only():
    """mma_half_split_k runs on zero-padded copies where A's or B's rows are not 16-byte aligned,
    K is long and the product big enough for the copies to pay (PAD_MIN_K, PAD_MIN_FLOP)."""
    from tiled_matmul import pad
    from tiled_matmul.strategies.mma_half_split_k import MmaHalfSplitKConfig

    cfg = MmaHalfSplitKConfig()
    assert cfg.pads(261, 473, 14735, 0) and cfg.pads(1000, 1000, 1031, 2) and cfg.pads(300, 264, 2048, 1)
    assert not cfg.pads(261, 480, 14736, 3)  # aligned
    assert not cfg.pads(41, 59, 834, 0)  # short K
    assert not cfg.pads(46, 1100, 2429, 0)  # under PAD_MIN_FLOP
    assert not cfg.pads(64, 64, 2**22 + 1, 0)  # the copies would pass PAD_MAX_BYTES (512 MiB of A alone)
    assert (pad.padded(473, 2), pad.padded(14736, 2), pad.padded(3, 4), pad.padded(5, 8)) == (480, 14736, 4, 6)
    with pytest.raises(ValueError, match="cannot pad"):
        pad.pad_into(0, 0, 4, 5, 4, 6, 2, None)


def test_padding_copies_count_in_the_traffic_model():
    """explain's padding_bytes: the TMA rungs copy A (rows of K) and B (rows of N) where those rows
    are not 16-byte multiples, each read once and written padded (wgmma_tma without a cluster
    reads a B of even N under a C of one tile row in place instead: its b_rows sibling);
    mma_half_split_k where it pads
    copies A, B and its padded C back too; nothing where rows are aligned or it does not pad."""
    from tiled_matmul.strategies.mma_half_split_k import MmaHalfSplitKConfig
    from tiled_matmul.strategies.wgmma_tma import WgmmaTmaConfig
    from tiled_matmul.strategies.wgmma_tma_tf32 import WgmmaTmaTf32Config
    from tiled_matmul.tiling import traffic

    tma16 = WgmmaTmaConfig(cluster_m=2)  # B multicast by TMA: a B TMA cannot address is copied
    assert tma16.padding_bytes(4096, 4096, 4096, "float16") == 0
    # float16 10788 x 370 x 3430: A's rows 6860 bytes -> 3432 elements, B's 740 bytes -> 376
    assert tma16.padding_bytes(10788, 370, 3430, "float16") == (10788 * (3430 + 3432) + 3430 * (370 + 376)) * 2
    assert tma16.padding_bytes(100, 370, 4096, "float16") == 4096 * (370 + 376) * 2  # B only
    assert tma16.padding_bytes(1, 370, 3430, "float16") == 3430 * (370 + 376) * 2  # one row of A: no copy
    single = WgmmaTmaConfig()  # a C of one tile row (M <= 128): B in place, unless its rows are odd
    assert single.padding_bytes(100, 370, 3430, "float16") == 100 * (3430 + 3432) * 2
    assert single.padding_bytes(100, 371, 4096, "float16") == 4096 * (371 + 376) * 2
    assert single.padding_bytes(129, 370, 3430, "float16") == tma16.padding_bytes(129, 370, 3430, "float16")
    assert WgmmaTmaTf32Config().padding_bytes(3001, 2999, 3007, "float32") == (3001 * 6015 + 3007 * 5999) * 4
    split = MmaHalfSplitKConfig()
    assert split.padding_bytes(261, 473, 14735, "float16") == (
        261 * (14735 + 14736) + 14735 * 473 + 14736 * 480 + 261 * (480 + 473)) * 2
    assert split.padding_bytes(41, 59, 834, "float16") == 0  # short K: no copies
    assert split.padding_bytes(256, 256, 4096, "float16") == 0  # aligned
    t = traffic(tma16, 10788, 370, 3430, "float16")
    assert t["padding_bytes"] == tma16.padding_bytes(10788, 370, 3430, "float16")
    assert t["intensity"] == pytest.approx(t["flops"] / (t["tiled_bytes"] + t["output_bytes"] + t["padding_bytes"]))
    from tiled_matmul.strategies.mma_half import MmaHalfConfig
    assert traffic(MmaHalfConfig(), 10788, 370, 3430, "float16")["padding_bytes"] == 0  # reads rows as they lie


@pytest.mark.skipif(not HAS_NVCC, reason="nvcc is not on PATH: cannot compile the padding copies offline")
def test_padding_copies_compile(tmp_path):
    import subprocess

    from tiled_matmul import pad

    src = tmp_path / "pad.cu"
    src.write_text(pad._SOURCE)
    run = subprocess.run(["nvcc", "-cubin", "-arch=sm_90", "-std=c++17", "-Xptxas", "-v", "-o", str(tmp_path / "pad.cubin"),
                          str(src)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stderr.count("Compiling entry function") == 6 and "spill stores" in run.stderr
