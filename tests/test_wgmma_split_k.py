"""CPU checks of wgmma_split_k and of the split hooks it adds to 09_wgmma.cu.j2 and _tf32.cuh.j2."""

from __future__ import annotations

import hashlib

import pytest

import tiled_matmul as tm
from tiled_matmul.render import render

# sha256 (first 16 hex digits) of the float32 rendering of each config of wgmma and tensor_core,
# taken after the precision modes went in (round-to-nearest split, range guard, small-parts-first
# order; the split hooks render nothing, so these kernels compile as the unsplit ones). A deliberate change to 09_wgmma.cu.j2,
# 08_tensor_core.cu.j2 or _tf32.cuh.j2 updates this table (the failure prints the new hash).
PINNED = [
    ("wgmma", {'bm': 128, 'bn': 128, 'stages': 3, 'group_m': 8, 'min_blocks': 1}, "3314627752e7b319"),
    ("wgmma", {'bm': 112, 'bn': 128, 'stages': 4, 'group_m': 8, 'min_blocks': 1}, "84d273dae6ad9acb"),
    ("wgmma", {'bm': 112, 'bn': 128, 'stages': 3, 'group_m': 8, 'min_blocks': 1}, "acb1702fd846e29f"),
    ("wgmma", {'bm': 120, 'bn': 128, 'stages': 3, 'group_m': 8, 'min_blocks': 1}, "cc290ed0cb749c0e"),
    ("wgmma", {'bm': 96, 'bn': 128, 'stages': 4, 'group_m': 8, 'min_blocks': 1}, "ba0c6c064a1a480a"),
    ("wgmma", {'bm': 64, 'bn': 128, 'stages': 6, 'group_m': 8, 'min_blocks': 1}, "88e6d27afb33c30a"),
    ("wgmma", {'bm': 64, 'bn': 64, 'stages': 4, 'group_m': 8, 'min_blocks': 2}, "a41e5ca8ad27b8df"),
    ("wgmma", {'bm': 112, 'bn': 64, 'stages': 3, 'group_m': 8, 'min_blocks': 2}, "26c2e4f0a6fc42c8"),
    ("tensor_core", {'bm': 128, 'bn': 128, 'bk': 32, 'wm': 64, 'wn': 32, 'stages': 4, 'group_m': 8, 'min_blocks': 1}, "c7b08ce232d6fe9d"),
    ("tensor_core", {'bm': 128, 'bn': 128, 'bk': 32, 'wm': 64, 'wn': 32, 'stages': 3, 'group_m': 8, 'min_blocks': 1}, "1fe6fe1ab6339725"),
    ("tensor_core", {'bm': 128, 'bn': 128, 'bk': 16, 'wm': 64, 'wn': 32, 'stages': 4, 'group_m': 8, 'min_blocks': 1}, "0ce650bd1d9483d2"),
    ("tensor_core", {'bm': 128, 'bn': 128, 'bk': 16, 'wm': 32, 'wn': 64, 'stages': 4, 'group_m': 8, 'min_blocks': 1}, "6fb36484ef442404"),
    ("tensor_core", {'bm': 128, 'bn': 64, 'bk': 32, 'wm': 32, 'wn': 32, 'stages': 4, 'group_m': 8, 'min_blocks': 1}, "6b06b8c696dba9b2"),
    ("tensor_core", {'bm': 64, 'bn': 128, 'bk': 32, 'wm': 32, 'wn': 32, 'stages': 4, 'group_m': 8, 'min_blocks': 1}, "aee3b2accae4f969"),
    ("tensor_core", {'bm': 64, 'bn': 64, 'bk': 32, 'wm': 32, 'wn': 32, 'stages': 4, 'group_m': 8, 'min_blocks': 2}, "7da5db77746e5141"),
    ("tensor_core", {'bm': 64, 'bn': 64, 'bk': 16, 'wm': 32, 'wn': 32, 'stages': 5, 'group_m': 8, 'min_blocks': 2}, "5446e820a95dc41a"),
]


@pytest.mark.parametrize("name,params,digest", PINNED, ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(PINNED)])
def test_unsplit_renderings_are_unchanged(name, params, digest):
    entry = tm.STRATEGIES[name]
    src = render(entry, entry.config_cls(**params), "float32")
    got = hashlib.sha256(src.encode()).hexdigest()[:16]
    assert got == digest, f"{name} {params} renders differently: sha256 {got}, pinned {digest}"


@pytest.mark.parametrize("name", ["wgmma", "tensor_core"])
def test_unsplit_renderings_hold_no_split_code(name):
    for cfg in tm.STRATEGIES[name].configs:
        src = render(tm.STRATEGIES[name], cfg, "float32")
        for needle in ("SPLIT_K", "k_begin", "k_end", "k_len", "gridDim.z", "blockIdx.z"):
            assert needle not in src, (name, cfg.tag(), needle)


# -- the strategy ----------------------------------------------------------------------------------
ENTRY = tm.STRATEGIES["wgmma_split_k"]


def test_search_space_covers_the_tiles_and_slice_counts():
    from tiled_matmul.device import H100_LIMITS

    assert ENTRY.tunable and 4 <= len(ENTRY.search_space) <= 10
    for cfg in ENTRY.configs:
        cfg.validate(H100_LIMITS, "float32")
    assert {(c.bm, c.bn) for c in ENTRY.configs} == {(64, 64), (64, 128), (128, 128)}
    assert {c.split_k for c in ENTRY.configs} >= {2, 4, 8, 16, 32}
    cls = ENTRY.config_cls
    assert cls.NVRTC_ARCH == "sm_90a" and cls.TENSOR_CORES and cls.DYNAMIC_SMEM
    assert ENTRY.supports("float32") and not ENTRY.supports("float64")


@pytest.mark.parametrize(
    "params,needle",
    [(dict(split_k=1), "split_k (1) must be between 2 and 128"),
     (dict(split_k=129), "split_k (129) must be between 2 and 128"),
     (dict(bn=96), "64 columns per warpgroup"),
     (dict(bm=128, bn=128, stages=2), "stages (2) must be between 3 and 8")],
)
def test_rules_name_the_broken_constraint(params, needle):
    from tiled_matmul.device import H100_LIMITS

    with pytest.raises(ValueError) as err:
        ENTRY.make_config(**params).validate(H100_LIMITS)
    assert needle in str(err.value) and "A valid config is" in str(err.value)


def test_refused_off_hopper():
    import dataclasses

    from tiled_matmul.device import H100_LIMITS

    ampere = dataclasses.replace(H100_LIMITS, name="NVIDIA A100", compute_capability="80")
    with pytest.raises(ValueError, match="wgmma runs only on sm_90"):
        ENTRY.default.validate(ampere)
    assert not ENTRY.runs_on(ampere) and ENTRY.runs_on(H100_LIMITS)


@pytest.mark.parametrize("cfg", ENTRY.configs, ids=lambda c: c.tag())
def test_source_has_both_kernels_and_the_slice(cfg):
    src = tm.source("wgmma_split_k", **cfg.params())
    sym = "wgmma_split_k_f32_" + cfg.tag()
    assert f"tm_{sym}(" in src and f"reduce_{sym}(" in src
    for needle in (f"constexpr int SPLIT_K = {cfg.split_k};", f"constexpr int REDUCE_THREADS = {cfg.REDUCE_THREADS};",
                   f"m64n{cfg.bm}k8", "int flags, int splits)", "for (int z = lane + lanes; z < splits; z += lanes)",
                   "gridDim.z", "C += (size_t)blockIdx.z * M * N;", "load_tile(k_begin + s * BK, s)",
                   "gc < k_end", "const int steps = (k_end - k_begin + BK - 1) / BK;",
                   "exact_tile(A + k_begin, B + (size_t)k_begin * N, C, M, N, K, k_end - k_begin,",
                   "int K, int k_len,", "k < k_len;"):
        assert needle in src, needle
    # the row stride of A stays K: only the bounds moved to the slice
    assert "A + (size_t)gr * K + gc" in src and "(size_t)ROWS * K" in src


def test_slices_and_the_workspace_cap(monkeypatch):
    cls = ENTRY.config_cls
    cfg = cls(bm=128, bn=128, stages=3, split_k=16)
    assert cfg.grid(256, 256) == (4, 1, 16)
    assert cfg.slices(256, 256) == 16 and cfg.workspace_bytes(256, 256) == 16 * 256 * 256 * 4
    # 4096^2 floats are 64 MiB: 16 slices would be 1 GiB, 4 fit in the 256 MiB cap
    assert cls.WORKSPACE_CAP == 256 * 2**20
    assert cfg.slices(4096, 4096) == 4 and cfg.grid(4096, 4096) == (32 * 32, 1, 4)
    assert cfg.workspace_bytes(4096, 4096) == cls.WORKSPACE_CAP
    # not even 2 slices fit: one, written straight to C, no workspace
    assert cfg.slices(8192, 8192) == 1 and cfg.workspace_bytes(8192, 8192) == 0
    assert cfg.grid(8192, 8192)[2] == 1
    for M, N in [(1, 1), (64, 64), (3001, 2999), (5000, 7000), (46341, 46344)]:
        assert cfg.workspace_bytes(M, N) <= cls.WORKSPACE_CAP
        assert 1 <= cfg.slices(M, N) <= cfg.split_k and cfg.slices(M, N) != 0
    monkeypatch.setattr(cls, "WORKSPACE_CAP", 3 * 64 * 64 * 4)
    assert cfg.slices(64, 64) == 3  # the count need not be a power of two


def test_k_slices_and_traffic():
    from tiled_matmul.analysis import traffic

    cfg = ENTRY.config_cls(bm=64, bn=64, stages=4, min_blocks=2, split_k=32)
    assert cfg.k_slice(65536, 32) == 2048 and cfg.k_slice(33, 32) == 32 and cfg.k_slice(4099, 32) == 160
    unsplit = tm.STRATEGIES["wgmma"].config_cls(bm=64, bn=64, stages=4, min_blocks=2)
    for K in (0, 1, 33, 100, 4099, 65536):
        # slices end on BK boundaries: the split reads what the unsplit kernel reads
        assert cfg.global_reads(64, 64, K) == unsplit.global_reads(64, 64, K), K
    t = traffic(cfg, 64, 64, 65536)
    assert t["workspace_bytes"] == 32 * 64 * 64 * 4
    assert t["a_read_bytes"] == 64 * 65536 * 4 and t["b_read_bytes"] == 65536 * 64 * 4


class _Ptr:
    def __init__(self, ptr):
        self.data = type("Mem", (), {"ptr": ptr})()
        self.itemsize = 4
        self.dtype = "float32"


def _fake_launch(monkeypatch, cfg, M, N, K):
    """Run cfg.launch with stand-ins for the kernel and cupy.cuda.alloc; return what was launched."""
    import cupy

    calls = []

    class Kernel:
        device = None
        name = "tm_wgmma_split_k_f32_x"

        def launcher(self, grid, a, b, c, m, n, k, flags, stream):
            calls.append(("main", grid, c))

        def reduce_launcher(self, symbol):
            return lambda grid, w, c, m, n, flags, stream, *splits: calls.append(("reduce", symbol,
                                                                                 (w, c, m, n, flags, *splits)))

    monkeypatch.setattr(cupy.cuda, "alloc", lambda nbytes: calls.append(("alloc", nbytes)) or _Ptr(0x9000).data)
    cfg.launch(Kernel(), _Ptr(0x1000), _Ptr(0x2000), _Ptr(0x3000), M, N, K, 3, _Ptr(0).data)
    return calls


def test_launch_main_then_reduce_with_the_slice_count(monkeypatch):
    cfg = ENTRY.config_cls(bm=64, bn=64, stages=4, min_blocks=2, split_k=16)
    calls = _fake_launch(monkeypatch, cfg, 1024, 32, 32768)
    assert [c[0] for c in calls] == ["alloc", "main", "reduce"]
    assert calls[0][1] == 16 * 1024 * 32 * 4  # [16 slices][M][N] floats
    assert calls[1][1] == (16, 1, 16) and calls[1][2] == 0x9000  # the workspace is the main kernel's C
    symbol, args = calls[2][1], calls[2][2]
    assert symbol == "reduce_wgmma_split_k_f32_x"
    assert args[0] == 0x9000 and args[1] == 0x3000 and int(args[-1]) == 16


def test_launch_past_the_cap_writes_c_directly(monkeypatch):
    cfg = ENTRY.config_cls(bm=128, bn=128, stages=3, split_k=4)
    calls = _fake_launch(monkeypatch, cfg, 8192, 8192, 64)
    assert calls == [("main", (64 * 64, 1, 1), 0x3000)]


# -- the heuristic -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "shape,picked",
    [((64, 64, 65536), dict(bm=64, bn=64, split_k=128)),       # one tile: as many slices as allowed
     ((256, 256, 131072), dict(bm=128, bn=128, split_k=32)),   # 4 big tiles x 32 slices: one per SM
     ((32, 1024, 32768), dict(bm=64, bn=128, split_k=16)),     # 64 rows waste half either way
     ((1024, 32, 32768), dict(bm=64, bn=64, split_k=8)),       # 64 columns waste half; 128 three quarters
     ((512, 512, 512), dict(bm=128, bn=128, split_k=8)),       # 64 deep: 16 tiles x 8, the three tie
     ((640, 640, 640), dict(bm=64, bn=64, split_k=2)),         # 100 tiles x 2: only 64 x 64 covers every SM
     ((256, 256, 256), dict(bm=64, bn=64, split_k=4)),         # 64 deep, the shallowest
     ((41, 59, 2048), dict(bm=64, bn=64, split_k=32)),         # one tile, 64 deep
     ((300, 300, 2000), dict(bm=64, bn=128, split_k=8))],
)
def test_recommend_picks_wgmma_split_k_below_a_wave_of_tiles(shape, picked):
    from tiled_matmul.device import H100_LIMITS
    from tiled_matmul.heuristic import WG_MAX_SLICES, WG_SPLIT_MIN_SLICE, recommend

    M, N, K = shape
    # without the TMA rungs: 32x1024x32768 otherwise streams B in gemv_xb_tma's 16-row chunks
    name, params = recommend(*shape, sms=132, tma=False)
    assert name == "wgmma_split_k" and {k: params[k] for k in picked} == picked, params
    cfg = ENTRY.make_config(**params).validate(H100_LIMITS, "float32")
    tiles, _, slices = cfg.grid(M, N)
    assert slices == cfg.split_k and (K // slices >= WG_SPLIT_MIN_SLICE or slices == 2)
    # within one block per SM (two slices at least), and one more doubling would leave it or cut
    # slices under the shallowest
    assert tiles * slices <= 132 or slices == 2
    assert tiles * slices * 2 > 132 or slices == WG_MAX_SLICES or K // (2 * slices) < WG_SPLIT_MIN_SLICE


def test_recommend_keeps_wgmma_split_k_to_its_domain():
    from tiled_matmul.heuristic import recommend

    assert recommend(384, 384, 200, sms=132)[0] == "warp_tiled"  # K < 256: no four 64-deep slices
    assert recommend(768, 768, 768, sms=132)[0] == "wgmma"  # 144 tiles of 64 x 64 fill the SMs
    assert recommend(1, 8192, 8192, sms=132)[0] != "wgmma_split_k"  # GEMV-like: memory-bound
    assert recommend(8192, 8, 8192, sms=132)[0] != "wgmma_split_k"
    assert recommend(256, 256, 65536, sms=132, wgmma=False)[0] == "split_k"
    assert recommend(256, 256, 65536, sms=132, precision="ieee")[0] == "split_k"
    # float64: dmma_split_k on Hopper (tests/test_dmma_split_k.py), the FFMA split_k elsewhere
    assert recommend(256, 256, 65536, "float64", sms=132)[0] == "dmma_split_k"
    assert recommend(256, 256, 65536, "float64", sms=132, dmma=False)[0] == "split_k"


def test_recommend_sizes_the_split_to_the_sms_it_is_given():
    from tiled_matmul.heuristic import recommend

    assert recommend(1024, 32, 32768, sms=132)[1]["split_k"] == 8  # 16 tiles x 8 = 128 blocks
    assert recommend(1024, 32, 32768, sms=66)[1]["split_k"] == 4
    assert recommend(1024, 32, 32768, sms=32)[1]["split_k"] == 2
    assert recommend(1024, 32, 32768, sms=16)[0] == "wgmma"  # 16 tiles fill 16 SMs


def test_heuristic_doctests(monkeypatch):
    import doctest

    from tiled_matmul import heuristic
    from tiled_matmul.device import H100_LIMITS

    monkeypatch.setattr(heuristic, "device_limits", lambda *a: H100_LIMITS)  # the examples assume 132 SMs
    result = doctest.testmod(heuristic)
    assert result.attempted >= 7 and result.failed == 0
