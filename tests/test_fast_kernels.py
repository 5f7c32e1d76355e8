"""CPU checks of the fast rungs (warp_tiled, split_k): rules, geometry, rendering, nvcc, heuristic."""

from __future__ import annotations

import pytest

import tiled_matmul as tm
from tiled_matmul.configs import cdiv
from tiled_matmul.strategies.split_k import SplitKConfig
from tiled_matmul.strategies.warp_tiled import WarpTiledConfig
from tiled_matmul.device import H100_LIMITS
from tiled_matmul.dtypes import FLOAT32, FLOAT64
from tiled_matmul.heuristic import recommend

from .conftest import HAS_NVCC

FAST = ("warp_tiled", "split_k")
CASES = [(n, c) for n in FAST for c in tm.STRATEGIES[n].configs]


@pytest.mark.parametrize("name,cfg", CASES, ids=[f"{n}-{c.tag()}" for n, c in CASES])
def test_search_space_valid_and_sized(name, cfg):
    cfg.validate(H100_LIMITS, "float32")
    assert tm.STRATEGIES[name].tunable
    # 4-8 configs per search space, the default valid for float64 as well
    assert 4 <= len(tm.STRATEGIES[name].search_space) <= 8
    tm.STRATEGIES[name].default.validate(H100_LIMITS, "float64")


@pytest.mark.parametrize(
    "cfg,needle",
    [
        (WarpTiledConfig(wm=32, wn=32, tm=8, tn=8), "it must be 32"),
        (WarpTiledConfig(bm=80), "bm (80) must be a multiple of wm (32)"),
        (WarpTiledConfig(tn=6, wn=48, bn=96, wm=128, bm=128, tm=32), "tn (6) must be a multiple of 4"),
        (WarpTiledConfig(stages=1), "stages (1) must be between 2 and 8"),
        (WarpTiledConfig(bm=96, wm=32, bk=4), "must split evenly"),
        (WarpTiledConfig(stages=8, bk=64), "shared memory"),
        (SplitKConfig(split_k=1), "split_k (1) must be between 2 and 64"),
    ],
)
def test_rules_name_the_broken_constraint(cfg, needle):
    with pytest.raises(ValueError) as err:
        cfg.validate(H100_LIMITS)
    assert needle in str(err.value) and "A valid config is" in str(err.value)


def test_grid_is_1d_grouped_and_split_uses_z():
    cfg = WarpTiledConfig()
    assert cfg.grid(4096, 4096) == (32 * 32, 1, 1)
    assert cfg.grid(3001, 2999) == (cdiv(3001, 128) * cdiv(2999, 128), 1, 1)
    assert cfg.grid(100000, 64) == (cdiv(100000, 128), 1, 1)  # no grid-y limit on M
    assert cfg.block() == (256, 1, 1)
    sk = SplitKConfig(split_k=8)
    assert sk.grid(256, 256) == (16, 1, 8)
    assert sk.k_slice(65536) == 8192 and sk.k_slice(1000) == 128
    assert sk.workspace_bytes(256, 256) == 8 * 256 * 256 * 4


def test_smem_and_padding():
    cfg = WarpTiledConfig(bk=16)  # transposed A rows padded by one 16-byte vector
    assert cfg.pad(FLOAT32) == 4 and cfg.pad(FLOAT64) == 2
    assert cfg.smem_bytes("float32") == 3 * 16 * (132 + 128) * 4
    assert cfg.smem_bytes("float32") > 48 * 1024 and cfg.DYNAMIC_SMEM
    assert cfg.occupancy(FLOAT32) == 2 and cfg.occupancy(FLOAT64) == 1
    assert "__launch_bounds__(THREADS, OCCUPANCY)" in tm.source("warp_tiled")
    assert "constexpr int OCCUPANCY = 1;" in tm.source("warp_tiled", dtype="float64")


def test_tensor_core_source_and_rules():
    src = tm.source("tensor_core")
    for needle in ("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", "ldmatrix.sync.aligned.m8n8.x4",
                   "cp.async.cg.shared.global", "cp.async.ca.shared.global", "0xffffe000u",
                   "__syncthreads_or(bad)", "exact_tile(", "acc[i][j][r] += part[i][j][r]", "(size_t)"):
        assert needle in src, needle
    entry = tm.STRATEGIES["tensor_core"]
    assert entry.tunable and 4 <= len(entry.search_space) <= 8
    assert entry.supports("float32") and not entry.supports("float64")


def test_wgmma_source_and_rules():
    src = tm.source("wgmma")
    for needle in ("wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32", "wgmma.fence.sync.aligned",
                   "wgmma.commit_group.sync.aligned", "wgmma.wait_group.sync.aligned 0",
                   "fence.proxy.async.shared::cta", "cp.async.cg.shared.global", "cp.async.ca.shared.global",
                   "0xffffe000u", "__syncthreads_or(bad)", "exact_tile(", "acc[i] += part[i]", "(size_t)"):
        assert needle in src, needle
    # the asm block names each of the 64 accumulators once, and the 4 A words and the descriptor
    assert '"+f"(d[63])' in src and '"+f"(d[64])' not in src and "%67 }, %68, p, 1, 1;" in src
    assert "m64n112k8" in tm.source("wgmma", bm=112)
    entry = tm.STRATEGIES["wgmma"]
    assert entry.tunable and 4 <= len(entry.search_space) <= 8
    assert entry.supports("float32") and not entry.supports("float64")
    assert entry.config_cls.NVRTC_ARCH == "sm_90a" and entry.config_cls.TENSOR_CORES


def test_wgmma_rules():
    import dataclasses

    cfg = tm.STRATEGIES["wgmma"].default
    assert cfg.block() == (256, 1, 1) and cfg.tile_mn == (128, 128) and cfg.tile_k == 32
    assert cfg.grid(3001, 2999) == (24 * 24, 1, 1)
    assert cfg.smem_bytes() == ((3 + 2) * 128 * 32 + 3 * 32 * 136) * 4 + 1024
    with pytest.raises(ValueError, match="64 columns per warpgroup"):
        cfg.replace(bn=96).validate(H100_LIMITS)
    with pytest.raises(ValueError, match="multiple of 8 up to 128"):
        cfg.replace(bm=100).validate(H100_LIMITS)
    with pytest.raises(ValueError, match="between 3 and 8"):
        cfg.replace(stages=2).validate(H100_LIMITS)
    ampere = dataclasses.replace(H100_LIMITS, name="NVIDIA A100", compute_capability="80")
    with pytest.raises(ValueError, match="wgmma runs only on sm_90"):
        cfg.validate(ampere)
    assert tm.STRATEGIES["tensor_core"].default.is_valid(ampere)
    assert not tm.STRATEGIES["wgmma"].runs_on(ampere) and tm.STRATEGIES["wgmma"].runs_on(H100_LIMITS)
    assert all(e.runs_on(ampere) for e in tm.STRATEGIES.values() if not e.config_cls.NVRTC_ARCH)


def test_wgmma_layout_smem():
    from tiled_matmul.epilogue import ExSpec

    cfg = tm.STRATEGIES["wgmma"].default
    assert cfg.smem_bytes_for("float32", None) == cfg.smem_bytes_for("float32", ExSpec("float", ld=True)) == cfg.smem_bytes()
    # B column-major: Bs[n][k], rows of BK + 4
    assert cfg.smem_bytes_for("float32", ExSpec("float", b_col=True)) == ((3 + 2) * 128 * 32 + 3 * 128 * 36) * 4 + 1024
    # A column-major: two stages of big parts, two of small parts, stages-1 copy buffers of A and of B
    assert cfg.smem_bytes_for("float32", ExSpec("float", a_col=True)) == ((2 + 2 + 2) * 128 * 32 + 2 * 32 * 136) * 4 + 1024
    assert cfg.smem_bytes_for("float32", ExSpec("float", a_col=True, b_col=True)) == (
        (2 + 2 + 2) * 128 * 32 + 2 * 128 * 36) * 4 + 1024
    # two blocks of the plain kernel fit an SM, two of the column-major A's do not: A is copied
    tight = cfg.replace(bn=64, min_blocks=2).validate(H100_LIMITS)
    assert tight.layouts() == ((False, False), (False, True))


def test_arch_flags_name_the_specific_target():
    from tiled_matmul.ptxas import arch_flags

    assert arch_flags("sm_90a") == ["-gencode=arch=compute_90a,code=sm_90a"]
    assert arch_flags("sm_90") == ["-gencode=arch=compute_90,code=sm_90"]


def test_direct_launcher_buffer_matches_the_kernel_signature():
    """The 5-word buffer DirectLauncher fills must lay the 7 arguments out exactly as the C ABI
    lays out (const T*, const T*, T*, int, int, int, int)."""
    import ctypes

    from tiled_matmul.compile import DirectLauncher

    class Args(ctypes.Structure):
        _fields_ = [("A", ctypes.c_void_p), ("B", ctypes.c_void_p), ("C", ctypes.c_void_p),
                    ("M", ctypes.c_int), ("N", ctypes.c_int), ("K", ctypes.c_int), ("flags", ctypes.c_int)]

    assert tuple(getattr(Args, f).offset for f, _ in Args._fields_) == DirectLauncher.OFFSETS
    assert ctypes.sizeof(Args) == 40
    launcher = DirectLauncher.__new__(DirectLauncher)  # no GPU: only the buffer logic
    launcher.OFFSETS = DirectLauncher.OFFSETS
    import threading
    launcher._tls = threading.local()
    vals, params_ptr, params = launcher._buffers()
    vals[0], vals[1], vals[2] = 0x1000, 0x2000, 0x3000
    vals[3] = 3001 | (2999 << 32)
    vals[4] = 3007 | (2 << 32)
    got = Args.from_buffer_copy(bytes(vals))
    assert (got.A, got.B, got.C, got.M, got.N, got.K, got.flags) == (0x1000, 0x2000, 0x3000, 3001, 2999, 3007, 2)
    base = ctypes.addressof(vals)
    assert [params[i] - base for i in range(7)] == list(DirectLauncher.OFFSETS)
    assert params_ptr == ctypes.addressof(params)


def test_reduce_launcher_buffer_matches_the_reduce_signature():
    """ReduceLauncher's 4-word buffer lays (const T* W, T* C, int M, int N, int flags, int splits)
    out as the C ABI does, and each call hands the driver those six addresses."""
    import ctypes
    import threading

    from tiled_matmul.compile import ReduceLauncher

    class Args(ctypes.Structure):
        _fields_ = [("W", ctypes.c_void_p), ("C", ctypes.c_void_p), ("M", ctypes.c_int), ("N", ctypes.c_int),
                    ("flags", ctypes.c_int), ("splits", ctypes.c_int)]

    assert tuple(getattr(Args, f).offset for f, _ in Args._fields_) == ReduceLauncher.OFFSETS
    seen = []

    def fake_launch(fptr, gx, gy, gz, bx, by, bz, smem, stream, params_ptr, extra):
        params = (ctypes.c_void_p * 6).from_address(params_ptr)
        raw = ctypes.string_at(params[0], ctypes.sizeof(Args))
        got = Args.from_buffer_copy(raw)
        assert [params[i] - params[0] for i in range(6)] == list(ReduceLauncher.OFFSETS)
        seen.append(((gx, gy, gz), (bx, by, bz), stream, (got.W, got.C, got.M, got.N, got.flags, got.splits)))

    launcher = ReduceLauncher.__new__(ReduceLauncher)  # no GPU: only the buffer logic
    launcher._launch, launcher.fptr, launcher.block, launcher._tls = fake_launch, 0, (256, 1, 1), threading.local()
    launcher((8, 1, 1), 0x9000, 0x3000, 3001, 2999, 2, 77, 16)
    launcher((4, 1, 1), 0xA000, 0x4000, 5, 7, 0, 0)  # no splits argument (a compile-time count)
    assert seen == [((8, 1, 1), (256, 1, 1), 77, (0x9000, 0x3000, 3001, 2999, 2, 16)),
                    ((4, 1, 1), (256, 1, 1), 0, (0xA000, 0x4000, 5, 7, 0, 0))]


def test_sources_mention_every_technique():
    src = tm.source("warp_tiled")
    for needle in ("cp.async.cg.shared.global", "cp.async.ca.shared.global", "cp.async.wait_group", "GROUP_M", "(size_t)"):
        assert needle in src
    sk = tm.source("split_k")
    assert "reduce_split_k_f32_" in sk and "constexpr int SPLIT_K = 8;" in sk
    assert SplitKConfig.reduce_symbol("tm_split_k_f32_x") == "reduce_split_k_f32_x"


@pytest.mark.parametrize(
    "shape,strategy,mma_sync_strategy,ffma_strategy",
    [((4096, 4096, 4096), "wgmma_tma_tf32", "tensor_core", "register_blocked"),
     ((8192, 8192, 8192), "wgmma_tma_tf32", "tensor_core", "register_blocked"),
     # fewer 64 x 64 tiles than SMs with K >= 512: on Hopper, wgmma over K slices (split_k there
     # measured 0.5x cuBLAS at 256x256x131072); elsewhere the FFMA split stays
     ((256, 256, 65536), "wgmma_split_k", "split_k", "split_k"), ((1024, 1024, 1024), "wgmma", "tensor_core", "split_k"),
     ((512, 512, 16384), "wgmma_split_k", "split_k", "split_k"),
     ((3001, 2999, 3007), "wgmma_tma_tf32", "tensor_core", "register_blocked"),
     ((16384, 64, 4096), "wgmma", "tensor_core", "split_k"),  # 128 tiles of 128 x 128: not a wave
     ((64, 64, 64), "warp_tiled", "warp_tiled", "warp_tiled")],
)
def test_recommend(shape, strategy, mma_sync_strategy, ffma_strategy):
    assert recommend(*shape, precision="ieee")[0] == ffma_strategy
    assert recommend(*shape, precision="ieee", wgmma=True)[0] == ffma_strategy
    assert recommend(*shape, wgmma=False)[0] == mma_sync_strategy  # not a Hopper GPU
    for name, params in (recommend(*shape), recommend(*shape, wgmma=False)):
        cfg = tm.STRATEGIES[name].make_config(**params)
        cfg.validate(H100_LIMITS, "float32")
    assert recommend(*shape)[0] == strategy
    # a call the TMA rung cannot take (batches, epilogues, layouts): the cp.async rung instead
    assert recommend(*shape, tma=False)[0] == ("wgmma" if strategy == "wgmma_tma_tf32" else strategy)
    # float64: dmma from one wave of 128 x 128 tiles on Hopper (warp_tiled's default elsewhere),
    # below that dmma_split_k for K >= 256 on Hopper, else the FFMA policy (no TF32 split for
    # doubles: split_k for long K)
    wave = cdiv(shape[0], 128) * cdiv(shape[1], 128) >= H100_LIMITS.sm_count
    name, params = recommend(*shape, dtype="float64")
    tm.STRATEGIES[name].make_config(**params).validate(H100_LIMITS, "float64")
    below = "dmma_split_k" if shape[2] >= 256 else ffma_strategy
    assert (name, params) == ("dmma", {"bn": 64, "wm": 64, "wn": 32, "min_blocks": 2}) if wave else name == below
    name, params = recommend(*shape, dtype="float64", dmma=False)
    assert (name, params) == ("warp_tiled", {}) if wave else name == ffma_strategy


def test_recommend_wgmma_rows_follow_the_last_wave():
    """Block height for big shapes: whichever of 128, 112, 96 rows wastes least of the last wave
    (wgmma, which auto runs where the TMA rung cannot: tma=False)."""
    from tiled_matmul.heuristic import _wave_fill

    assert recommend(4096, 4096, 4096, tma=False) == ("wgmma", {})  # 1024 tiles of 128 rows: 7.8 waves
    assert recommend(3001, 2999, 3007, tma=False) == ("wgmma", {"bm": 112})  # 4.4 waves -> 4.9
    assert _wave_fill(3001, 2999, 128, 128, 132) < 0.85 < 0.95 < _wave_fill(3001, 2999, 112, 128, 132)
    assert _wave_fill(4096, 4096, 128, 128, 132) == 4096 * 4096 / (8 * 132 * 128 * 128)


@pytest.mark.slow
@pytest.mark.skipif(not HAS_NVCC, reason="nvcc is not on PATH")
@pytest.mark.parametrize("shape", [(1024, 1024, 1024), (512, 512, 16384), (256, 256, 65536), (300, 300, 2000),
                                   (129, 129, 1500), (64, 64, 64)])
def test_recommended_configs_compile_without_spills(shape):
    from tiled_matmul.ptxas import ptxas_report

    name, params = recommend(*shape)
    cfg = tm.STRATEGIES[name].make_config(**params)
    rep = ptxas_report(name, cfg, "float32")
    assert rep.spill_stores == 0 and rep.stack_frame == 0 and cfg.tag() in rep.log, rep.log


def test_launch_dependent_fills_cuLaunchKernelEx_as_cuda_h_lays_it_out(monkeypatch):
    """launch_dependent hands cuLaunchKernelEx a CUlaunchConfig laid out as cuda.h declares it
    (56 bytes: the grid, block and shared memory, the stream at 32, attrs at 40, numAttrs at 48)
    with one 72-byte attribute, programmatic stream serialization (id 6) set to 1; and the reduce
    kernels of split products are launched through it."""
    import ctypes

    from tiled_matmul import launch
    from tiled_matmul.compile import ReduceLauncher

    assert ctypes.sizeof(launch._LaunchConfig) == 56 and ctypes.sizeof(launch._LaunchAttribute) == 72
    assert (launch._LaunchConfig.hStream.offset, launch._LaunchConfig.attrs.offset,
            launch._LaunchConfig.numAttrs.offset) == (32, 40, 48)
    assert launch._LaunchAttribute.value.offset == 8 and launch.PROGRAMMATIC_STREAM_SERIALIZATION == 6
    seen = []

    def fake(cfg_ptr, fptr, params, extra):
        cfg = cfg_ptr._obj
        attr = cfg.attrs[0]
        seen.append(((cfg.gridDimX, cfg.gridDimY, cfg.gridDimZ), (cfg.blockDimX, cfg.blockDimY, cfg.blockDimZ),
                     cfg.sharedMemBytes, cfg.hStream, cfg.numAttrs, attr.id, attr.value, fptr, params, extra))
        return 0

    monkeypatch.setattr(launch, "_driver_launch_ex", lambda: fake)
    launch.launch_dependent(0x77, 8, 2, 1, 256, 1, 1, 0, 0x55, 0x1234, 0)
    assert seen == [((8, 2, 1), (256, 1, 1), 0, 0x55, 1, 6, 1, 0x77, 0x1234, None)]
    from cupy.cuda import driver

    raw = type("Raw", (), {"kernel": type("Fn", (), {"ptr": 0x77})()})()
    assert ReduceLauncher(raw, (256, 1, 1))._launch is launch.launch_dependent
    assert ReduceLauncher(raw, (256, 1, 1), dependent=False)._launch is driver.launchKernel
    # Hopper on: the early start; before it, the reduce is launched as every kernel is
    assert launch.dependent_launch_supported("90") and launch.dependent_launch_supported(100)
    assert not launch.dependent_launch_supported("80") and not launch.dependent_launch_supported("89")


def test_extras_launch_goes_to_the_driver_or_the_dependent_launch(monkeypatch):
    """launch.launch_with_args (batched, epilogue and dmma_tail launches) calls CuPy's
    driver.launchKernel, and for a reduce kernel (dependent=True) launch.launch_dependent, with
    the same arguments."""
    import ctypes

    from cupy.cuda import driver

    from tiled_matmul import launch

    seen = []
    monkeypatch.setattr(driver, "launchKernel", lambda *a: seen.append(("plain", a[:9])))
    monkeypatch.setattr(launch, "launch_dependent", lambda *a: seen.append(("dependent", a[:9])))
    args = [ctypes.c_int(3), ctypes.c_void_p(0x10)]
    launch.launch_with_args(0x77, (8, 2, 1), (256, 1, 1), 0, 0x55, args)
    launch.launch_with_args(0x78, (4, 1, 1), (128, 1, 1), 64, 0x56, args, dependent=True)
    assert seen == [("plain", (0x77, 8, 2, 1, 256, 1, 1, 0, 0x55)), ("dependent", (0x78, 4, 1, 1, 128, 1, 1, 64, 0x56))]


def test_reduce_gets_the_slice_count_only_where_its_kernel_takes_it():
    """07 split_k's reduce kernel reads SPLIT_K from its template; every other split rung's takes
    the slice count after flags (``, int splits``): launch_reduce passes it to those alone."""
    from tiled_matmul.configs import SplitReduce

    calls = []

    class Kernel:
        device = None
        name = "tm_x"

        def reduce_launcher(self, symbol):
            return lambda grid, w, c, m, n, flags, stream, *splits: calls.append(splits)

    class C:
        data = type("Mem", (), {"ptr": 0x3000})()
        itemsize = 4

    stream = type("S", (), {"ptr": 0})()
    for name, entry in tm.STRATEGIES.items():
        if not issubclass(entry.config_cls, SplitReduce):
            continue
        calls.clear()
        entry.default.launch_reduce(Kernel(), 0x9000, C(), 64, 64, 2, stream, 4)
        src = tm.source(name, **entry.default.params())
        assert calls == [(4,) if "int flags, int splits" in src else ()], name
        assert (calls[0] == ()) == (name == "split_k"), name
