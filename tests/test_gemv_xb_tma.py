"""CPU checks of gemv_xb_tma (x·B with B streamed through a TMA ring): rules, geometry, the
launcher's argument layout, the tensor maps' arguments, the heuristic's picks and the shipped
database entries. (nvcc compiles every config without spills in tests/test_nvcc.py; the GPU checks
are in tests/test_gpu_gemv.py.)"""

from __future__ import annotations

import ctypes

import pytest

import tiled_matmul as tm
from tiled_matmul import heuristic, tma
from tiled_matmul.device import H100_LIMITS
from tiled_matmul.dtypes import FLOAT32
from tiled_matmul.heuristic import recommend
from tiled_matmul.render import render
from tiled_matmul.strategies.gemv_xb_tma import FoldedXbTmaLauncher, GemvXbTmaConfig, XbTmaLauncher

ENTRY = tm.STRATEGIES["gemv_xb_tma"]


def test_registered_for_float32_on_sm90a():
    assert ENTRY.tunable and ENTRY.supports("float32") and not ENTRY.supports("float64")
    assert GemvXbTmaConfig.NVRTC_ARCH == "sm_90a" and not GemvXbTmaConfig.EXTRAS
    for cfg in ENTRY.configs:
        assert cfg.validate(H100_LIMITS, "float32") is cfg
    # every pick of the heuristic is a config of the search space (what the tuner times)
    for table in (heuristic._XB_TMA, heuristic._XB_TMA_NARROW):
        for params in table.values():
            assert GemvXbTmaConfig(**params) in ENTRY.configs


def test_geometry():
    cfg = GemvXbTmaConfig(mt=8, bn=64, rk=64, stages=4, warps=8)
    assert cfg.threads == 288 and cfg.block() == (288, 1, 1)
    assert cfg.tile_mn == (8, 64) and cfg.tile_k == 64
    # column blocks x row chunks; a K split goes on z at launch
    assert cfg.output_blocks(8, 8192) == 128 and cfg.output_blocks(33, 100) == 5 * 2
    assert cfg.grid(33, 100) == (10, 1, 1)
    # B once per row chunk; A's rows once per column block (rows past M are zero-filled, not read)
    assert cfg.global_reads(1, 8192, 8192) == (128 * 8192, 8192 * 8192)
    assert cfg.global_reads(9, 64, 100) == (9 * 100, 2 * 64 * 100)
    # the ring (B's box, its rows a vector longer for a folded B, and A's box per stage) and two
    # mbarriers per stage
    assert cfg.smem_bytes(FLOAT32) == 4 * (64 * (64 + 4) + 8 * 64) * 4 + 16 * 4
    assert cfg.k_lanes(FLOAT32) == 16  # 256 consumer threads over 16 vector lanes


@pytest.mark.parametrize("params,needle", [
    (dict(bn=34), "16-byte vectors"),
    (dict(bn=512), "8 .. 256 columns"),
    (dict(rk=72), "multiple of the 16 K lanes"),
    (dict(rk=512), "4 .. 256 rows"),
    (dict(mt=3), "mt (3) must be 1, 2, 4, 8 or 16"),
    (dict(bn=48), "split evenly"),
    (dict(stages=1, mt=8, rk=16, bn=64), "K lanes' sums"),
    (dict(stages=16, rk=256, bn=128), "must fit the SM"),
])
def test_rules_name_the_broken_constraint(params, needle):
    cfg = GemvXbTmaConfig(**params)
    broken = [text for ok, text in cfg.rules(H100_LIMITS, FLOAT32) if not ok]
    assert broken and any(needle in t for t in broken), broken


def test_renders_one_kernel_and_its_reduce():
    cfg = ENTRY.default
    src = render(ENTRY, cfg, "float32")
    assert "const __grid_constant__ TmTensorMap xmap, const __grid_constant__ TmTensorMap bmap" in src
    assert src.count("cp.async.bulk.tensor.2d") >= 1 and "mbarrier.try_wait.parity" in src
    assert "reduce_" in src and "griddepcontrol.launch_dependents" in src
    assert "constexpr int VEC = 4;" in src and "constexpr int THREADS = 288;" in src


def test_launcher_packs_maps_then_words():
    """The kernel's parameters: two 64-byte-aligned 128-byte maps, C's address, M, N, K; the folded
    kernel's then fold, A's address, its pitch and B's address."""
    launcher = XbTmaLauncher.__new__(XbTmaLauncher)  # packing needs no kernel
    amap, bmap = bytes(range(128)), bytes(range(128, 256))
    grid, params_ptr, keep = launcher.pack((5, 1, 3), amap, bmap, 0xDEADBEEF00, 7, 8, 9)
    raw, params = keep
    base = params[0]
    assert base % 64 == 0 and grid == (5, 1, 3) and params_ptr == ctypes.addressof(params)
    assert [params[i] - base for i in range(len(XbTmaLauncher.OFFSETS))] == list(XbTmaLauncher.OFFSETS)
    assert ctypes.string_at(base, 128) == amap and ctypes.string_at(base + 128, 128) == bmap
    assert ctypes.c_uint64.from_address(base + 256).value == 0xDEADBEEF00
    assert list((ctypes.c_int32 * 3).from_address(base + 264)) == [7, 8, 9]
    folded = FoldedXbTmaLauncher.__new__(FoldedXbTmaLauncher)
    _, _, (raw, params) = folded.pack((5, 1, 3), amap, bmap, 0xDEADBEEF00, 7, 8, 9, 4, 0xA000, 12, 0xB000)
    base = params[0]
    assert [params[i] - base for i in range(len(FoldedXbTmaLauncher.OFFSETS))] == list(FoldedXbTmaLauncher.OFFSETS)
    assert list((ctypes.c_int32 * 4).from_address(base + 264)) == [7, 8, 9, 4]
    assert ctypes.c_uint64.from_address(base + 280).value == 0xA000
    assert ctypes.c_int32.from_address(base + 288).value == 12
    assert ctypes.c_uint64.from_address(base + 296).value == 0xB000


def test_tensor_map_arguments_have_no_swizzle():
    """Boxes of B {bn columns, rk rows} and of A {rk columns, mt rows}, unswizzled: a consumer reads
    a box row as 16-byte vectors, and 64-256-column rows exceed any swizzle span."""
    cfg = GemvXbTmaConfig(mt=8, bn=64, rk=128)
    b = tma.tiled_2d(address=0x10000, rows=8192, cols=8192, pitch=8192, itemsize=4,
                     dtype_code=tma.DATA_TYPE["float32"], box_rows=cfg.rk, box_cols=cfg.bn, swizzle=0)
    assert b.box_dim == (64, 128) and b.swizzle == tma.SWIZZLE[0] and b.global_strides == (8192 * 4,)
    with pytest.raises(ValueError, match="swizzle span"):
        tma.tiled_2d(address=0x10000, rows=8192, cols=8192, pitch=8192, itemsize=4,
                     dtype_code=tma.DATA_TYPE["float32"], box_rows=cfg.rk, box_cols=cfg.bn)


@pytest.mark.parametrize("shape,params", [
    ((1, 8192, 8192), {"mt": 1, "rk": 128, "stages": 6}),
    ((2, 8192, 8192), {"mt": 2, "rk": 128, "stages": 6}),
    ((8, 8192, 8192), {}),
    ((3, 4096, 16384), {"mt": 4, "bn": 32, "rk": 128, "stages": 8}),   # 64 blocks of 64: 32 fills twice
    ((1, 4096, 16384), {"mt": 1, "bn": 32, "rk": 128, "stages": 8}),
    ((6, 1024, 16384), {"mt": 8, "bn": 32, "rk": 128}),                # M > 4: from 2^22 elements of B
])
def test_heuristic_sends_large_float32_xb_to_the_tma_ring(shape, params):
    assert recommend(*shape, sms=132) == ("gemv_xb_tma", params)
    # batches, epilogues and layouts (tma=False), float64 and other GPUs keep gemv_xb
    assert recommend(*shape, sms=132, tma=False)[0] == "gemv_xb"
    assert recommend(*shape, "float64", sms=132)[0] == "gemv_xb"
    assert recommend(*shape, sms=132, wgmma=False)[0] == "gemv_xb"


@pytest.mark.parametrize("shape", [
    (1, 2048, 16384),     # M <= 4: N under XB_TMA_MIN_N (32 column blocks and a 4-way split lost 4-10%)
    (4, 8192, 4096),      # M <= 4: B under XB_TMA_MIN_STREAM
    (8, 1024, 2048),      # M > 4: B under XB_TMA_MIN_STREAM_8
    (6, 4252, 5548),      # M > 4: a grid of 335 blocks, over XB_TMA_MAX_ROUNDS per SM (47.0 -> 53.1 us)
    (8, 1022, 8192),      # rows of B not whole 16-byte vectors, N under XB_TMA_RAGGED_MIN_N
    (6, 1000, 8190),      # rows of A likewise
    (33, 8192, 8192),     # over XB_TMA_CHUNK_MAX rows (9 to 32 go in chunks: test_gemv.py)
])
def test_heuristic_keeps_the_rest_off_the_ring(shape):
    assert recommend(*shape, sms=132)[0] != "gemv_xb_tma"


def test_a_single_row_of_a_may_have_any_pitch():
    assert recommend(1, 8192, 8195, sms=132)[0] == "gemv_xb_tma"


def test_shipped_database_sends_the_suites_xb_rows_to_it(fresh_tunedb):
    """The four float32 x·B rows of the suite's decode class were retuned with gemv_xb_tma among the
    candidates (scripts/gpu_s20b.sh): it won each, at 99.6-100.5 us (89-91% of a copy)."""
    from tiled_matmul import dispatch

    for shape in ((1, 8192, 8192), (2, 8192, 8192), (8, 8192, 8192), (1, 4096, 16384)):
        found = dispatch.lookup_entry(*shape, "float32", dispatch.tunedb.DeviceId(dispatch.tunedb.H100_NAME, "90", ""))
        assert found is not None and found[0] == "shipped-db", shape
        assert found[1]["strategy"] == "gemv_xb_tma", shape
        assert found[1]["median_ms"] < found[1]["cublas_ms"], shape


@pytest.mark.parametrize("N, K, ptr, ldb, fold", [
    (4096, 4096, 0x10000, 4096, 1),     # rows of whole 16-byte vectors: B as it is
    (4097, 4096, 0x10000, 4097, 4),     # odd N: four rows make a multiple of 16 bytes
    (4094, 4096, 0x10000, 4094, 2),     # N = 2 mod 4: two rows do
    (4097, 3, 0x10000, 4097, 0),        # fewer rows than a fold: copied into padded rows
    (4097, 4096, 0x10004, 4097, 0),     # an unaligned base: copied
    (4097, 4096, 0x10000, 4099, 0),     # rows not contiguous (and not 16-byte pitches): copied
    (33, 4096, 0x10000, 33, 0),         # narrower than a box (bn = 64): copied
])
def test_fold_reads_b_in_rows_of_several(N, K, ptr, ldb, fold):
    assert GemvXbTmaConfig().fold(FLOAT32, K, N, ptr, ldb) == fold


@pytest.mark.parametrize("shape, params", [
    ((1, 50257, 4096), {"mt": 1, "rk": 128, "stages": 6}),   # an LM head: B's rows read folded
    ((8, 8190, 8192), {}),
    ((1, 50257, 4095), {"mt": 1, "rk": 128, "stages": 6}),   # a single row of A: any pitch, no copy
    ((13, 9290, 19360), {"mt": 16}),                         # ragged chunks, up to XB_TMA_RAGGED_CHUNK_MAX rows
])
def test_heuristic_takes_ragged_rows_onto_the_ring(shape, params):
    assert recommend(*shape, sms=132) == ("gemv_xb_tma", params)


@pytest.mark.parametrize("shape, taken", [
    ((24, 17623, 5356), True),    # B a wave of 128-column blocks wide (138 on 132 SMs)
    ((24, 16719, 5356), False),   # 131 blocks: left to the wgmma rungs
    ((17, 3287, 12620), False),
    ((33, 50257, 4096), False),   # over XB_TMA_CHUNK_MAX rows
])
def test_heuristic_takes_ragged_chunks_from_17_rows_only_for_a_wide_b(shape, taken):
    assert (recommend(*shape, sms=132)[0] == "gemv_xb_tma") == taken


@pytest.mark.parametrize("shape", [(6, 4096, 8191), (13, 9290, 19359), (4, 50257, 4095)])
def test_heuristic_keeps_products_that_copy_a_off_the_ring(shape):
    """Rows of A that are not whole 16-byte vectors (M > 1): A would be copied at each call."""
    assert recommend(*shape, sms=132)[0] != "gemv_xb_tma"


def test_padding_bytes_count_the_copies_a_launch_makes():
    """A with ragged rows (M > 1) is copied; B with ragged rows is read folded, and copied only where
    it cannot be (narrower than a box, or fewer rows than a fold)."""
    cfg = GemvXbTmaConfig()
    assert cfg.padding_bytes(8, 8192, 8192) == 0
    assert cfg.padding_bytes(8, 8191, 8192) == 0                      # folded
    assert cfg.padding_bytes(1, 8192, 8191) == 0                      # one row of A: any pitch
    assert cfg.padding_bytes(8, 8192, 8191) == 8 * (8191 + 8192) * 4  # A copied
    assert cfg.padding_bytes(8, 33, 8192) == 8192 * (33 + 36) * 4     # B narrower than a box: copied
