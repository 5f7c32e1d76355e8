"""The tiling model (`tiled_matmul.analysis`): traffic, intensity, occupancy. CPU only.

Expected numbers are computed by hand in the comments, not by calling the code under test.
"""

from __future__ import annotations

import json
import math

import pytest

import tiled_matmul as tm
from tiled_matmul.device import H100_LIMITS
from tiled_matmul.analysis import REQUIRED_KEYS, explain, occupancy, peak_fp32_tflops
from tiled_matmul.measure import parse_shape

from .conftest import HAS_GPU, HAS_NVCC

CUBE = (1024, 1024, 1024)


def ex(strategy, shape, **kw):
    """explain() on the H100 stand-in with a given register count (no nvcc, no GPU)."""
    kw.setdefault("registers", 32)
    kw.setdefault("device", H100_LIMITS)
    kw.setdefault("measure", False)
    return explain(strategy, shape, **kw)


def test_seed_numbers_smem_tiled_32_at_1024():
    m = ex("smem_tiled", CUBE, tile=32)
    assert m["naive_bytes"] == 8_589_934_592  # 1024*1024*2048*4
    assert m["tiled_bytes"] == 268_435_456  # 32*32*32 blocks * 2*32*32 * 4
    assert m["min_bytes"] == 8_388_608  # (1024*1024 + 1024*1024) * 4
    assert m["reduction"] == 32
    assert m["output_bytes"] == 4_194_304  # 1024*1024*4, separate from the reads
    assert m["threads_per_block"] == 1024
    assert m["smem_bytes"] == 2 * 32 * 32 * 4


def test_package_level_explain_returns_a_mapping():
    m = tm.explain("smem_tiled", (1024, 1024, 1024), tile=32, registers=32, measure=False)
    assert isinstance(m, dict)
    assert m["reduction"] == 32.0


@pytest.mark.parametrize("tile,shape", [(8, (1024, 1024, 1024)), (16, (1000, 700, 1300)), (32, (33, 65, 97))])
def test_seed_formula_blocks_m_n_k_times_2t2(tile, shape):
    M, N, K = shape
    bm, bn, bk = math.ceil(M / tile), math.ceil(N / tile), math.ceil(K / tile)
    m = ex("smem_tiled", shape, tile=tile)
    assert m["tiled_bytes"] == bm * bn * bk * 2 * tile * tile * 4
    assert m["naive_bytes"] == M * N * 2 * K * 4
    assert m["min_bytes"] == (M * K + K * N) * 4


def test_rectangular_tiles_at_1024():
    # rect_tiled 32x64 output tile, K step 16: A is re-read once per column of blocks (1024/64 = 16
    # times), B once per row of blocks (1024/32 = 32 times).
    m = ex("rect_tiled", CUBE, tile_m=32, tile_n=64, tile_k=16, coarsen=4)
    a = 1024 * 1024 * 16
    b = 1024 * 1024 * 32
    assert m["a_read_bytes"] == a * 4 == 67_108_864
    assert m["b_read_bytes"] == b * 4 == 134_217_728
    assert m["tiled_bytes"] == 201_326_592
    assert m["reduction"] == pytest.approx(2 / (1 / 64 + 1 / 32))  # 42.67: the harmonic mean of 32 and 64
    assert m["threads_per_block"] == (64 // 4) * 32  # 512
    assert m["outputs_per_thread"] == 4


def test_rectangular_tiles_ragged():
    # 3000x2000x1000 with 32x64 tiles, K step 16: 94 x 32 blocks (padded), 63 K steps (1008).
    m = ex("rect_tiled", (3000, 2000, 1000), tile_m=32, tile_n=64, tile_k=16, coarsen=4)
    a = 94 * 32 * 63 * 32 * 16  # 97,026,048 elements
    b = 94 * 32 * 63 * 16 * 64  # 194,052,096 elements
    assert m["tiled_bytes"] == (a + b) * 4 == 1_164_312_576
    assert m["naive_bytes"] == 3000 * 2000 * 2000 * 4
    assert m["min_bytes"] == (3000 * 1000 + 1000 * 2000) * 4
    assert m["output_bytes"] == 3000 * 2000 * 4
    assert m["grid"] == [32, 94, 1]


def test_register_blocked_traffic_depends_on_the_block_tile_only():
    # 128x128 block tile: A read 1024/128 = 8 times, B 8 times -> 2 * 8 * 1024^2 elements.
    big = ex("register_blocked", CUBE, bm=128, bn=128, bk=8, tm=8, tn=8)
    assert big["tiled_bytes"] == 2 * 8 * 1024 * 1024 * 4 == 67_108_864
    assert big["reduction"] == 128
    # A 64x64 block tile: traffic doubles; its register tile (8x8 or 4x4) changes threads, not traffic.
    r8 = ex("register_blocked", CUBE, bm=64, bn=64, bk=16, tm=8, tn=8)
    r4 = ex("register_blocked", CUBE, bm=64, bn=64, bk=16, tm=4, tn=4)
    assert r8["tiled_bytes"] == r4["tiled_bytes"] == 2 * 16 * 1024 * 1024 * 4 == 134_217_728
    assert r8["reduction"] == 64
    assert (r8["threads_per_block"], r4["threads_per_block"]) == (64, 256)
    assert (r8["outputs_per_thread"], r4["outputs_per_thread"]) == (64, 16)


def test_register_blocked_ragged():
    # 1000x700x300 with 128x128 tiles, bk=8: 8 x 6 blocks, 38 K steps (304).
    m = ex("register_blocked", (1000, 700, 300), bm=128, bn=128, bk=8, tm=8, tn=8)
    per = 8 * 6 * 38 * 128 * 8  # 1,867,776 elements of A, the same of B
    assert m["tiled_bytes"] == 2 * per * 4 == 14_942_208
    # a 128x64 block tile reads A twice as often as B
    m2 = ex("register_blocked", (1024, 1024, 1024), bm=128, bn=64, bk=16, tm=8, tn=4)
    assert m2["a_read_bytes"] == 1024 * 1024 * (1024 // 64) * 4
    assert m2["b_read_bytes"] == 1024 * 1024 * (1024 // 128) * 4


def test_naive_and_thread_tile_read_from_global_memory():
    naive = ex("naive", (300, 200, 100))
    assert naive["tiled_bytes"] == naive["naive_bytes"] == 300 * 200 * 2 * 100 * 4
    assert naive["reduction"] == 1
    # thread_tile 16x16 threads of 4x4 outputs: 64x64 tiles, each thread reads 4 rows + 4 cols.
    tt = ex("thread_tile", CUBE, block_x=16, block_y=16, tm=4, tn=4)
    assert tt["tiled_bytes"] == 1024 * 1024 * 1024 * 2 * 4 // 4
    assert tt["reduction"] == 4


def test_float64_doubles_every_byte_count():
    f32 = ex("rect_tiled", (500, 300, 200))
    f64 = ex("rect_tiled", (500, 300, 200), dtype="float64")
    for key in ("naive_bytes", "tiled_bytes", "min_bytes", "output_bytes"):
        assert f64[key] == 2 * f32[key], key
    assert f64["reduction"] == f32["reduction"]
    assert f64["dtype"] == "float64"


def test_intensity_and_roofline_compute_bound():
    m = ex("smem_tiled", CUBE, tile=32)
    flops = 2 * 1024**3
    assert m["flops"] == flops
    assert m["intensity"] == pytest.approx(flops / (268_435_456 + 4_194_304))  # 7.88 FLOP/B
    assert m["intensity_min"] == pytest.approx(flops / (8_388_608 + 4_194_304))
    assert m["reuse_factor"] == 32
    peak = 132 * 128 * 2 * 1.98e9 / 1e12  # the stand-in H100 SXM: 66.9 TFLOP/s
    assert peak_fp32_tflops(H100_LIMITS) == pytest.approx(peak)
    assert m["peak_tflops"] == pytest.approx(peak)
    assert m["compute_bound_ms"] == pytest.approx(flops / (peak * 1e12) * 1e3)
    assert m["measured_ms"] is None and m["bandwidth_gbs"] is None


@pytest.mark.parametrize(
    "threads,smem,regs,expect",
    [
        # 1024 threads = 32 warps of 64 per SM -> 2 blocks; 32 regs -> 1024/warp -> 64 warps -> 2 blocks
        (1024, 8192, 32, dict(blocks_per_sm_threads=2, blocks_per_sm_smem=233472 // 9216, blocks_per_sm_regs=2,
                              blocks_per_sm=2, occupancy=1.0)),
        # 40 regs -> 1280/warp -> 51 warps -> 1 block of 32 warps -> occupancy 0.5, limited by registers
        (1024, 8192, 40, dict(blocks_per_sm_regs=1, blocks_per_sm=1, occupancy=0.5, occupancy_limiter="registers")),
        # 64 threads (2 warps): 32 block slots; 33 regs round up to 40 -> 51 warps -> 25 blocks -> 50/64 warps
        (64, 0, 33, dict(blocks_per_sm_threads=32, blocks_per_sm_regs=25, blocks_per_sm=25, occupancy=50 / 64)),
        # register_blocked default: 256 threads, 16,896 B smem, 128 regs -> 4096/warp -> 16 warps -> 2 blocks
        (256, 16896, 128, dict(blocks_per_sm_smem=233472 // 17920, blocks_per_sm_regs=2, blocks_per_sm=2,
                               occupancy=0.25)),
        # 132 KiB of shared memory: one block per SM, limited by shared memory
        (256, 135168, 64, dict(blocks_per_sm_smem=1, blocks_per_sm=1, occupancy=8 / 64,
                               occupancy_limiter="shared memory")),
        # 48 threads occupy 2 warps (rounded up)
        (48, 0, None, dict(warps_per_block=2, blocks_per_sm_threads=32, blocks_per_sm_regs=None)),
    ],
)
def test_occupancy_by_hand(threads, smem, regs, expect):
    occ = occupancy(threads, smem, regs, H100_LIMITS)
    for key, value in expect.items():
        assert occ[key] == (pytest.approx(value) if isinstance(value, float) else value), (key, occ)


def test_occupancy_in_explain_uses_the_config():
    m = ex("register_blocked", CUBE, registers=128)
    assert m["smem_bytes"] == 2 * 8 * (132 + 132) * 4  # double-buffered, padded rows
    assert m["blocks_per_sm"] == 2 and m["occupancy"] == 0.25
    assert m["registers_source"] == "given"
    assert m["waves"] == pytest.approx(64 / (2 * 132))  # 8x8 = 64 blocks on 132 SMs x 2


@pytest.mark.parametrize("name", list(tm.STRATEGIES))
def test_every_strategy_has_a_consistent_model(name):
    for shape in (CUBE, (3000, 2000, 1000)):
        m = ex(name, shape)
        assert set(REQUIRED_KEYS) <= set(m)
        assert m["min_bytes"] <= m["tiled_bytes"] <= m["naive_bytes"]
        assert m["reduction"] == pytest.approx(m["naive_bytes"] / m["tiled_bytes"])
        assert m["threads_per_block"] == tm.STRATEGIES[name].default.threads
        assert 0 < m["occupancy"] <= 1
        assert m["blocks_per_sm"] >= 1
        json.dumps(m)  # plain data


def test_errors_are_clear():
    with pytest.raises(ValueError, match="unknown strategy 'nope'"):
        explain("nope", CUBE)
    with pytest.raises(ValueError, match="three dims"):
        explain("smem_tiled", (10, 10))
    with pytest.raises(ValueError, match=">= 1"):
        explain("smem_tiled", (10, 0, 10))
    with pytest.raises(TypeError, match="no parameter"):
        explain("smem_tiled", CUBE, tile_size=16)
    with pytest.raises(ValueError, match="threads per block = 4096"):
        explain("smem_tiled", CUBE, tile=64, registers=32)
    with pytest.raises(TypeError, match="ints"):
        explain("smem_tiled", (10, 10.5, 10))
    with pytest.raises(ValueError, match="registers"):
        explain("smem_tiled", CUBE, registers=0)


@pytest.mark.parametrize("text,shape", [("1024", (1024,) * 3), ("3000x2000x1000", (3000, 2000, 1000)),
                                        ("3000X2000X1000", (3000, 2000, 1000)), (512, (512,) * 3),
                                        ((1, 2, 3), (1, 2, 3))])
def test_parse_shape(text, shape):
    assert parse_shape(text) == shape


@pytest.mark.parametrize("bad", ["", "10x10", "axbxc", "1x2x3x4", "-5", "0x1x1"])
def test_parse_shape_rejects(bad):
    with pytest.raises(ValueError):
        parse_shape(bad)


@pytest.mark.skipif(HAS_GPU or not HAS_NVCC, reason="needs nvcc and no GPU (the ptxas path)")
def test_registers_come_from_ptxas_without_a_gpu():
    m = explain("smem_tiled", CUBE, tile=32)
    assert "ptxas" in m["registers_source"]
    assert 8 <= m["registers"] <= 255
    assert m["blocks_per_sm_regs"] is not None


@pytest.mark.skipif(HAS_GPU or not HAS_NVCC, reason="reads registers from ptxas: needs nvcc and no GPU")
def test_wgmma_registers_come_from_its_own_target():
    """wgmma compiles for sm_90a only: explain must ask ptxas for that target, not plain sm_90,
    and say that the FP32 roofline does not bound a tensor-core kernel."""
    m = explain("wgmma", (3001, 2999, 3007), bm=112, measure=False)
    assert m["registers"] and m["registers"] <= 255
    assert m["registers_source"] == "ptxas report (sm_90a, no GPU)"
    assert m["waves"] == pytest.approx(648 / 132)
    assert any("tensor cores" in n for n in m["notes"])


@pytest.mark.parametrize("strategy,peak", [("dmma", 67.0), ("warp_tiled", 34.0)])
def test_float64_peak_is_the_cost_models_fp64_rate(strategy, peak):
    """float64 explains name a peak and a compute roofline: the FP64 tensor cores' for dmma, the
    FP64 units' for the SIMT rungs (the cost model's rates, H100 stand-in limits without a GPU)."""
    from tiled_matmul import costmodel

    m = explain(strategy, (4096, 4096, 4096), dtype="float64", measure=False)
    cfg = tm.STRATEGIES[strategy].default
    want = costmodel.peak_tflops(cfg, tm.dtypes.as_dtype("float64"), tm.device_limits(None))
    assert m["peak_tflops"] == pytest.approx(want)
    assert want == pytest.approx(peak, rel=0.05)  # the H100 stand-in's SMs and clock
    assert m["compute_bound_ms"] == pytest.approx(2 * 4096 ** 3 / (want * 1e12) * 1e3)
    assert "FP64" in " ".join(m["notes"]) and "float32 only" not in " ".join(m["notes"])
