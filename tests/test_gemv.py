"""CPU checks of the GEMV rungs (gemv_xb, gemv_ax): rules, K-slice choice, traffic, rendering,
nvcc, the shared reduce partial, the heuristic and `auto`'s dispatch of skinny shapes."""

from __future__ import annotations

import doctest
import re
import hashlib

import pytest

import tiled_matmul as tm
from tiled_matmul import dispatch, heuristic
from tiled_matmul.analysis import explain
from tiled_matmul.configs import SkinnyConfig, cdiv
from tiled_matmul.device import H100_LIMITS
from tiled_matmul.dtypes import FLOAT32, FLOAT64, as_dtype
from tiled_matmul.heuristic import recommend
from tiled_matmul.render import kernel_name, render
from tiled_matmul.strategies.gemv_ax import GemvAxConfig
from tiled_matmul.strategies.gemv_xb import GemvXbConfig

from .conftest import HAS_NVCC, without_elem_kernel

GEMV = ("gemv_xb", "gemv_ax")
CASES = [(n, c, dt) for n in GEMV for dt in ("float32", "float64") for c in tm.STRATEGIES[n].configs_for(dt)]
IDS = [f"{n}-{c.tag()}-{dt}" for n, c, dt in CASES]


@pytest.mark.parametrize("name", GEMV)
def test_registered_tunable_and_sized(name):
    entry = tm.STRATEGIES[name]
    assert entry.tunable and entry.supports("float32") and entry.supports("float64")
    assert 4 <= len(entry.search_space) <= 8
    for cfg in entry.configs:
        cfg.validate(H100_LIMITS, "float32")  # float32 is every config's dtype
    # float64's registers take most of them too (gemv_xb's float32-only K-group configs aside)
    assert len(entry.configs_for("float64", H100_LIMITS)) >= len(entry.configs) - 2


@pytest.mark.parametrize(
    "cfg,dtype,needle",
    [
        (GemvXbConfig(threads=100), "float32", "threads (100) must be a multiple of 32"),
        (GemvXbConfig(threads=32), "float32", "at least 64"),
        (GemvXbConfig(mt=17), "float32", "mt (17) must be between 1 and 16"),
        (GemvXbConfig(unroll=17), "float32", "unroll (17) must be between 1 and 16"),
        (GemvXbConfig(min_blocks=9), "float32", "min_blocks (9) must be between 1 and 8"),
        (GemvXbConfig(mt=8, unroll=8), "float32", "2 blocks of 256 threads per SM leave 128 registers per thread"),
        (GemvXbConfig(mt=16, unroll=8, min_blocks=1), "float64", "needs about 488 for float64"),
        (GemvXbConfig(threads=1024, min_blocks=2), "float32", "leave 32 registers per thread"),
        (GemvAxConfig(nt=33), "float32", "nt (33) must be between 1 and 32"),
        (GemvAxConfig(rows=17), "float32", "rows (17) must be between 1 and 16"),
        (GemvAxConfig(unroll=17), "float32", "unroll (17) must be between 1 and 16"),
        (GemvAxConfig(nt=16, rows=8, unroll=4), "float32", "registers per thread"),
        (GemvAxConfig(nt=32, unroll=16, rows=1, min_blocks=1), "float64", "shared memory = 1049600 B for float64 must be <= 232448 B"),
        (GemvAxConfig(threads=80), "float32", "threads (80) must be a multiple of 32"),
    ],
)
def test_rules_name_the_broken_constraint(cfg, dtype, needle):
    with pytest.raises(ValueError) as err:
        cfg.validate(H100_LIMITS, dtype)
    msg = str(err.value)
    assert needle in msg, msg
    assert "A valid config is" in msg and type(cfg)().default_hint() in msg


def test_k_groups_narrow_the_block_and_deepen_the_step():
    """kg groups of threads/kg column lanes: the block covers threads/kg * 4 columns, a step of
    every group unroll * kg rows of K, and the groups' sums of one row take shared memory."""
    cfg = GemvXbConfig(threads=512, mt=1, unroll=8, min_blocks=1, kg=32)
    assert cfg.lanes == 16 and cfg.tile_mn == (1, 64) and cfg.tile_k == 8 * 32
    assert cfg.grid(1, 8192) == (128, 1, 1)
    assert cfg.smem_bytes("float32") == 512 * 4 * 4 and cfg.smem_bytes("float64") == 512 * 4 * 8
    assert GemvXbConfig().smem_bytes("float32") == 0  # one group: nothing to add up
    # 1 x 8192 fills the H100 from the output alone: K is not split (no workspace, one launch) ...
    assert cfg.k_splits(1, 8192, 8192, 132, FLOAT32) == 1 and cfg.workspace_bytes(1, 8192, K=8192) == 0
    # ... where one group's 1024-column block takes 32 slices and a workspace
    assert GemvXbConfig(mt=1).k_splits(1, 8192, 8192, 132, FLOAT32) == 32
    # the streamed bytes are the same; A is read once per (narrower) column block
    assert cfg.streamed(1, 8192, 8192) == GemvXbConfig(mt=1).streamed(1, 8192, 8192)
    assert cfg.global_reads(1, 8192, 8192)[0] == 128 * 8192
    src = render(tm.STRATEGIES["gemv_xb"], cfg, "float32")
    assert "constexpr int KG = 32;" in src and "__shared__ __align__(16) T group_sums[THREADS * COLS];" in src
    assert "group_sums" not in render(tm.STRATEGIES["gemv_xb"], GemvXbConfig(mt=1), "float32")


@pytest.mark.parametrize(
    "params,needle",
    [
        (dict(kg=3), "kg (3) must be between 1 and 64 and leave threads/kg (256/3)"),
        (dict(kg=64), "threads/kg (256/64) a whole multiple of 8"),
        (dict(threads=1024, kg=128, min_blocks=1), "kg (128) must be between 1 and 64"),
    ],
)
def test_k_group_rule(params, needle):
    with pytest.raises(ValueError, match=re.escape(needle)):
        GemvXbConfig(**params).validate(H100_LIMITS, "float32")


def test_float64_halves_the_promised_occupancy():
    cfg = GemvXbConfig(min_blocks=4)
    assert cfg.occupancy(FLOAT32) == 4 and cfg.occupancy(FLOAT64) == 2
    assert GemvXbConfig(min_blocks=1).occupancy(FLOAT64) == 1
    src32, src64 = tm.source("gemv_xb"), tm.source("gemv_xb", dtype="float64")
    assert "constexpr int OCCUPANCY = 2;" in src32 and "constexpr int OCCUPANCY = 1;" in src64
    assert "__launch_bounds__(THREADS, OCCUPANCY)" in src32


def test_geometry():
    xb = GemvXbConfig()  # 256 threads x 4 columns, 4 rows
    assert xb.block() == (256, 1, 1) and xb.tile_mn == (4, 1024) and xb.tile_k == 8
    assert xb.grid(1, 8192) == (8, 1, 1)
    assert xb.grid(10, 8193) == (cdiv(10, 4) * 9, 1, 1)
    assert xb.grid(46341, 46344) == (cdiv(46341, 4) * cdiv(46344, 1024), 1, 1)  # 1-D: no grid-y limit
    ax = GemvAxConfig()  # 8 warps x 2 rows, 4 columns, 256 elements of K per step
    assert ax.block() == (256, 1, 1) and ax.tile_mn == (16, 4) and ax.tile_k == 256
    assert ax.grid(8192, 1) == (512, 1, 1)
    assert ax.grid(1000, 9) == (cdiv(1000, 16) * 3, 1, 1)
    assert ax.grid(3, 46344) == (cdiv(46344, 4), 1, 1)
    # the transposed B tile: 2 buffers x nt rows of (KS + PAD); PAD spreads 32 stores over the banks
    assert ax.pad(FLOAT32) == 8 and ax.pad(FLOAT64) == 4
    assert GemvAxConfig(nt=8).pad(FLOAT32) == 4 and GemvAxConfig(nt=1).pad(FLOAT32) == 32
    assert ax.smem_bytes("float32") == 2 * 4 * (256 + 8) * 4
    assert ax.smem_bytes("float64") == 2 * 4 * (256 + 4) * 8 and ax.DYNAMIC_SMEM


@pytest.mark.parametrize(
    "cfg,shape,reads",
    [
        # gemv_xb: B once per chunk of mt rows; A once per column block (L1 broadcasts)
        (GemvXbConfig(mt=1), (1, 8192, 8192), (8 * 8192, 8192 * 8192)),
        (GemvXbConfig(mt=4), (10, 3000, 77), (3 * 10 * 77, 3 * 77 * 3000)),
        (GemvXbConfig(mt=4, threads=128), (16, 512, 100), (1 * 16 * 100, 4 * 100 * 512)),
        # gemv_ax: A once per chunk of nt columns; B once per row block (staged in shared memory)
        (GemvAxConfig(nt=1, rows=4, unroll=4), (8192, 1, 8192), (8192 * 8192, 256 * 8192)),
        (GemvAxConfig(nt=4), (1000, 9, 333), (3 * 1000 * 333, 63 * 333 * 9)),
    ],
)
def test_global_reads(cfg, shape, reads):
    assert cfg.global_reads(*shape) == reads
    assert cfg.streamed(*shape) == (reads[1] if isinstance(cfg, GemvXbConfig) else reads[0])


def test_explain_traffic_of_a_gemv():
    # 1 x 8192 x 8192 float32, mt=1: B (256 MiB) read once, x (32 KiB) once per column block (8)
    m = explain("gemv_xb", (1, 8192, 8192), device=H100_LIMITS, registers=64, measure=False, mt=1)
    assert m["b_read_bytes"] == 8192 * 8192 * 4 and m["a_read_bytes"] == 8 * 8192 * 4
    assert m["grid"] == [8, 1, 1]  # one slice of K; the launch adds blockIdx.z slices
    # 32 slices on 132 SMs (see test_k_splits) -> a [32, 1, 8192] float32 workspace
    assert m["workspace_bytes"] == 32 * 8192 * 4
    ax = explain("gemv_ax", (8192, 1, 8192), device=H100_LIMITS, registers=64, measure=False,
                 nt=1, rows=4, unroll=4)
    assert ax["workspace_bytes"] == 0  # 256 row blocks already fill 132 SMs x 2


@pytest.mark.parametrize(
    "cfg,shape,dtype,sms,splits",
    [
        # 8 column blocks at 2 per SM: 32 slices (256-row) are 256 blocks, one round of 264 slots
        (GemvXbConfig(mt=1), (1, 8192, 8192), "float32", 132, 32),
        # 1 block per SM for float64: 17 slices would leave 136 blocks on 132 SMs, a second round of 4
        (GemvXbConfig(mt=1), (1, 8192, 8192), "float64", 132, 16),
        (GemvXbConfig(mt=1), (1, 8192, 8192), "float32", 108, 27),  # an A100's SMs: 216 / 8 -> 27
        (GemvXbConfig(mt=1), (1, 8192, 8192), "float32", 16, 4),
        (GemvXbConfig(mt=1), (1, 4096, 14336), "float32", 132, 64),  # 66 wanted, MAX_SPLITS binds
        (GemvXbConfig(mt=1), (1, 8192, 1000), "float32", 132, 32),  # 32-row slices (multiples of 8)
        (GemvXbConfig(mt=1), (1, 8192, 20), "float32", 132, 1),  # a workspace row per 16 of B at most
        (GemvXbConfig(mt=1), (1, 65536, 8192), "float32", 132, 4),
        # 2000 blocks are 7.6 rounds of 2 per SM: two slices even the last round out (wave factor
        # 1.056 -> 1.036) for 64 MiB of workspace traffic, 0.2% of the stream
        (GemvXbConfig(mt=4), (1000, 8192, 8192), "float32", 132, 2),
        (GemvXbConfig(mt=4), (4, 1024, 128), "float32", 132, 2),  # workspace traffic <= 1/8 of B's
        # a 16 x 32768 float32 output is 2 MiB: 64 MiB holds 32 slices of its 32 blocks, and 32 would
        # put a second block on 24 of 1000 SMs
        (GemvXbConfig(mt=16, unroll=4, min_blocks=2), (16, 32768, 2**20), "float32", 1000, 31),
        (GemvAxConfig(nt=1, rows=4, unroll=4), (8192, 1, 8192), "float32", 132, 1),  # 256 blocks: one round
        (GemvAxConfig(nt=1, rows=4, unroll=4), (4096, 1, 4096), "float32", 132, 2),
        (GemvAxConfig(nt=1, rows=4, unroll=4), (4096, 1, 4096), "float64", 132, 1),
        (GemvAxConfig(nt=1, rows=4, unroll=4), (256, 1, 65536), "float32", 132, 32),
        (GemvAxConfig(nt=1, rows=4, unroll=4), (1, 1, 10**6), "float32", 132, 64),
        (GemvAxConfig(), (64, 3, 2048), "float32", 132, 8),  # 2048 / 256-element steps: at most 8 slices
        (GemvAxConfig(), (7, 3, 1000), "float32", 132, 4),  # one block's 4 steps, one per slice
        (GemvAxConfig(), (7, 3, 512), "float32", 132, 1),  # 2 steps: a reduce costs more than 1 saves
        (GemvAxConfig(), (7, 3, 1), "float32", 132, 1),
    ],
)
def test_k_splits(cfg, shape, dtype, sms, splits):
    M, N, K = shape
    got = cfg.k_splits(M, N, K, sms, dtype)
    assert got == splits
    assert got == cfg.k_splits(M, N, K, sms, dtype)  # a pure function: same shape and GPU, same S


SPLIT_SHAPES = [(1, 8192, 8192), (3, 1000, 65536), (8, 8192, 1000), (1, 7, 129), (2, 33, 7), (16, 100, 1),
                (8192, 1, 8192), (1000, 3, 65536), (33, 8, 129), (5, 2, 1000), (1, 1, 1), (7, 1, 2**31 - 1)]


@pytest.mark.parametrize("name", GEMV)
@pytest.mark.parametrize("sms", [1, 16, 108, 132, 1000])
def test_k_splits_respect_caps_and_cover_k(name, sms):
    for cfg in tm.STRATEGIES[name].configs:
        for M, N, K in SPLIT_SHAPES:
            for dt in (FLOAT32, FLOAT64):
                s = cfg.k_splits(M, N, K, sms, dt)
                assert 1 <= s <= SkinnyConfig.MAX_SPLITS
                if s == 1:
                    assert cfg.workspace_bytes(M, N, dt, K=K, device=_limits(sms)) == 0
                    continue
                assert s * M * N * dt.itemsize <= SkinnyConfig.MAX_WORKSPACE_BYTES
                assert 2 * s * M * N * SkinnyConfig.WORKSPACE_SHARE <= cfg.streamed(M, N, K)
                assert cfg.workspace_bytes(M, N, dt, K=K, device=_limits(sms)) == s * M * N * dt.itemsize
                # slices are whole steps; the kernel's own formula (from gridDim.z = s) gives
                # slices that cover K, none of them empty
                depth = cfg.k_slice(K, s)
                assert depth % cfg.tile_k == 0
                assert (s - 1) * depth < K <= s * depth


def _limits(sms):
    import dataclasses

    return dataclasses.replace(H100_LIMITS, sm_count=sms)


def test_reduce_lanes_rule():
    """Lanes are a power of two, at most 16 and at most the slices; more lanes only while the
    reduce grid is under REDUCE_LANE_BLOCKS blocks per SM; and the rule is a pure function."""
    from tiled_matmul.configs import SplitReduce

    lanes = SplitReduce.reduce_lanes
    assert lanes(2048, 32, 132) == 16 and lanes(2048, 3, 132) == 2 and lanes(2048, 1, 132) == 1
    for items in (1, 7, 2048, 16384, 32768, 10**6, 2**24):
        for slices in (1, 2, 3, 4, 17, 33, 64, 128):
            n = lanes(items, slices, 132)
            assert n & (n - 1) == 0 and 1 <= n <= 16 and (n == 1 or n <= slices), (items, slices, n)
            blocks = -(-items * n // SplitReduce.REDUCE_THREADS)
            if n > 1:  # doubled only from a grid under the floor
                assert -(-items * (n // 2) // SplitReduce.REDUCE_THREADS) < 132 * SplitReduce.REDUCE_LANE_BLOCKS
            if n < 16 and 2 * n <= slices:  # stopped doubling: the grid reached the floor
                assert blocks >= 132 * SplitReduce.REDUCE_LANE_BLOCKS, (items, slices, n)
            assert lanes(items, slices, 132) == n


def test_workspace_bound_without_k():
    # the most any K could need: MAX_SPLITS slices, or what fits in MAX_WORKSPACE_BYTES
    assert GemvXbConfig().workspace_bytes(1, 8192) == 64 * 8192 * 4
    assert GemvXbConfig().workspace_bytes(16, 2**16) == 16 * (16 * 2**16 * 4)  # 16 slices of 4 MiB
    assert GemvXbConfig().workspace_bytes(16, 2**20) == 0  # one slice is 64 MiB: never split


@pytest.mark.parametrize("name,cfg,dtype", CASES, ids=IDS)
def test_renders_both_kernels_and_paths(name, cfg, dtype):
    src = render(tm.STRATEGIES[name], cfg, dtype)
    kernel = kernel_name(name, cfg, dtype)
    assert f"{kernel}(" in src and f"{cfg.reduce_symbol(kernel)}(" in src
    assert "int flags, int splits)" in src  # the reduce kernel takes the slice count at run time
    assert "ld.global.nc.L1::no_allocate" in src and "(size_t)" in src
    assert "<true>(" in src and "<false>(" in src  # 16-byte and element paths
    assert f"constexpr int REDUCE_THREADS = {cfg.REDUCE_THREADS};" in src


@pytest.mark.slow
@pytest.mark.skipif(not HAS_NVCC, reason="nvcc is not on PATH: cannot compile templates offline")
@pytest.mark.parametrize("name,cfg,dtype", CASES, ids=IDS)
def test_every_config_and_dtype_compiles_without_spills(name, cfg, dtype):
    """test_nvcc compiles every config in float32 and the default in float64; these rungs promise
    a float64 occupancy of their own, so every config is compiled in both."""
    from tiled_matmul.ptxas import ptxas_report

    rep = ptxas_report(name, cfg, dtype)
    assert cfg.tag() in rep.log and rep.registers > 0, rep.log
    assert rep.spill_stores == 0 and rep.spill_loads == 0 and rep.stack_frame == 0, rep.log
    budget = H100_LIMITS.regs_per_sm // (cfg.threads * cfg.occupancy(as_dtype(dtype)))
    assert rep.registers <= budget, (rep.registers, budget)
    assert "Compiling entry function 'reduce_" in rep.log


# -- the reduce partial: 07_split_k's rendered source, pinned --------------------------------------
#: sha256 of the rendered source of every split_k config: first taken from the template before its
#: reduce kernel moved into _reduce.cuh.j2, then when the reduce kernel took lanes (eighth session),
#: last when 06's staged store of unaligned C rows came in (sixteenth session: the partial tiles of
#: a split go through it too; the reduce unchanged)
SPLIT_K_SOURCES = {
    ("bm64_bn64_bk8_wm32_wn32_tm4_tn8_stages4_group_m8_min_blocks4_split_k8", "float32"):
        "ecc0818542c87a5945acd7409d73a469d04e03f894a58cdb4a17a9294d417b0b",
    ("bm64_bn64_bk8_wm32_wn32_tm4_tn8_stages4_group_m8_min_blocks4_split_k8", "float64"):
        "95a67fdc55991d96719973c16fee44e00d5d3672a6d9fdde2b010568ab331d4f",
    ("bm64_bn64_bk8_wm32_wn32_tm4_tn8_stages4_group_m8_min_blocks4_split_k4", "float32"):
        "833f11ac5893afce81451840ab2541c9478fee6f422429ccd38d9a9bcd173c0d",
    ("bm64_bn64_bk8_wm32_wn32_tm4_tn8_stages4_group_m8_min_blocks4_split_k4", "float64"):
        "13d2efe5155dccdd12028a34d718a097652185e24cdcdf09d23589a3a5318d3d",
    ("bm64_bn64_bk8_wm32_wn32_tm4_tn8_stages4_group_m8_min_blocks4_split_k16", "float32"):
        "955651b2f90fc6fb26724ac7cf9506b671157f7bfce130734db3eed90cc913bd",
    ("bm64_bn64_bk8_wm32_wn32_tm4_tn8_stages4_group_m8_min_blocks4_split_k16", "float64"):
        "875a5e0f00e06d31ca851f5e2a18f4d6b066c1a75232dfacb4e55d938c5fd192",
    ("bm128_bn128_bk8_wm32_wn64_tm8_tn8_stages3_group_m8_min_blocks2_split_k4", "float32"):
        "a3023fe05487d1fd382720e730bb7aedb3b52f4610f10cda4bb5a73e6433b0a7",
    ("bm128_bn128_bk8_wm32_wn64_tm8_tn8_stages3_group_m8_min_blocks2_split_k4", "float64"):
        "ebc04910d12f81ff71de247f632085ced1a1bb6443f26caea9b2b4ce45b2e88b",
    ("bm128_bn128_bk8_wm32_wn64_tm8_tn8_stages3_group_m8_min_blocks2_split_k16", "float32"):
        "24ee0e671c44dc0a9dd80000721688f503e1cac47a9be8f88cbaaff9b2de22de",
    ("bm128_bn128_bk8_wm32_wn64_tm8_tn8_stages3_group_m8_min_blocks2_split_k16", "float64"):
        "2425e2cfc60f815a215da14857385a35a4d91b5a059d1e8f07836519e0c6d889",
    ("bm64_bn128_bk8_wm32_wn64_tm8_tn8_stages4_group_m8_min_blocks3_split_k8", "float32"):
        "d464c844accb9c8f6a71fbde011e5ed95cad4677658c18aac26d9077ec0b8314",
    ("bm64_bn128_bk8_wm32_wn64_tm8_tn8_stages4_group_m8_min_blocks3_split_k8", "float64"):
        "15560d2119922298ac6f59198dd13922b0f61f0075dbef75771d318dcba0bbe7",
}


def test_split_k_source_unchanged_by_the_reduce_partial():
    """The hashes pin 07's rendered source; a deliberate change to 06, 07 or the reduce partial
    updates them (and should be checked for the same PTX where nothing was meant to change)."""
    entry = tm.STRATEGIES["split_k"]
    seen = {}
    for cfg in entry.configs:
        for dt in ("float32", "float64"):
            seen[(cfg.tag(), dt)] = hashlib.sha256(render(entry, cfg, dt).encode()).hexdigest()
    assert seen == SPLIT_K_SOURCES


def test_reduce_partial_is_shared():
    from tiled_matmul.render import templates_dir

    for template in ("07_split_k.cu.j2", "10_gemv_xb.cu.j2", "11_gemv_ax.cu.j2", "13_wgmma_split_k.cu.j2",
                     "17_dmma_split_k.cu.j2"):
        text = (templates_dir() / template).read_text()
        assert re.search(r"import (launch_dependents, )?split_reduce with context", text), template
        assert "{{ split_reduce(" in text, template
        assert "REDUCE_THREADS = " not in text, template  # the constant comes with the partial
    # every kernel that writes a workspace lets its reduce start early, and only those (dmma's
    # second and third kernels, for misaligned operands and for partial tiles, write the same
    # workspace: they do too)
    for name in ("split_k", "gemv_xb", "gemv_ax", "wgmma_split_k", "dmma_split_k", "warp_tiled", "wgmma", "dmma"):
        src = tm.source(name)
        split = name not in ("warp_tiled", "wgmma", "dmma")
        writers = 3 if name == "dmma_split_k" else 1
        assert src.count("griddepcontrol.launch_dependents;") == writers * int(split), name
        assert src.count("griddepcontrol.wait;") == int(split), name
        assert without_elem_kernel(src).count("griddepcontrol.launch_dependents;") == int(split), name


# -- the heuristic and auto --------------------------------------------------------------------
def test_heuristic_doctests():
    result = doctest.testmod(heuristic, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10 and result.failed == 0


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(
    "shape,strategy,params",
    [
        ((1, 8192, 8192), "gemv_xb", {"threads": 512, "mt": 1, "unroll": 8, "min_blocks": 1, "kg": 32}),
        ((2, 4096, 4096), "gemv_xb", {"mt": 2}),
        ((3, 8192, 8192), "gemv_xb", {"threads": 256, "mt": 4, "unroll": 8, "min_blocks": 1, "kg": 16}),
        ((4, 8192, 8192), "gemv_xb", {"threads": 256, "mt": 4, "unroll": 8, "min_blocks": 1, "kg": 16}),
        ((1, 50000, 2048), "gemv_xb", {"mt": 1}),  # K groups of 64 rows: too short, one group
        ((4, 8192, 4095), "gemv_xb", {}),
        ((4, 8192, 4096), "gemv_xb", {"threads": 256, "mt": 4, "unroll": 8, "min_blocks": 1, "kg": 16}),
        ((7, 8192, 8192), "gemv_xb", {"mt": 8, "unroll": 4}),
        ((8, 1000, 65536), "gemv_xb", {"mt": 8, "unroll": 4}),
        ((8192, 1, 8192), "gemv_ax", {"nt": 1, "rows": 4, "unroll": 4}),
        ((8192, 2, 8192), "gemv_ax", {"nt": 2}),
        ((14336, 3, 4096), "gemv_ax", {}),
        ((8192, 8, 8192), "gemv_ax", {"nt": 8, "rows": 4, "unroll": 1}),
        ((4, 4, 2**20), "gemv_ax", {}),  # both thin: whole warps along K of A, B staged once
        ((1, 1, 2**18), "gemv_ax", {"nt": 1, "rows": 4, "unroll": 4}),
        # small streams with a K of at least GEMV_MIN_K: K groups kept (a one-group block's split
        # would add a reduce for a B that cannot fill the GPU anyway)
        ((4, 60, 655), "gemv_xb", {"threads": 256, "mt": 4, "unroll": 8, "min_blocks": 1, "kg": 16}),
        ((1, 91, 397), "gemv_xb", {"threads": 512, "mt": 1, "unroll": 8, "min_blocks": 1, "kg": 32}),
        ((93, 1, 1397), "gemv_ax", {"nt": 1, "rows": 4, "unroll": 4}),
        ((13, 5, 128), "gemv_ax", {"nt": 8, "rows": 4, "unroll": 1}),
    ],
)
def test_heuristic_sends_skinny_shapes_to_the_gemv_rungs(shape, strategy, params, dtype):
    """Without the TMA rungs (tma=False, as for batches and epilogues; float32 x·B may go to
    gemv_xb_tma otherwise: tests/test_gemv_xb_tma.py)."""
    got = recommend(*shape, dtype=dtype, tma=False)
    assert got == (strategy, params)
    assert recommend(*shape, dtype=dtype, precision="ieee", wgmma=False) == got
    tm.STRATEGIES[strategy].make_config(**params).validate(H100_LIMITS, dtype)


@pytest.mark.parametrize("shape", [(9, 8192, 8192), (16, 8192, 8192), (8192, 9, 8192), (1, 64, 40), (64, 1, 40),
                                   (1, 2047, 47), (2000, 3, 47)])
def test_heuristic_leaves_other_shapes_alone(shape):
    """Thin but not GEMV: the thin side over GEMV_MAX, or a stream under GEMV_MIN_STREAM elements
    with K under GEMV_SHORT_K (launch-bound: one tile block does as well). float32 products a little
    wider than GEMV_MAX go to the chunked GEMV rungs (below); float64 ones do not."""
    if min(shape[:2]) <= heuristic.GEMV_MAX:
        assert recommend(*shape)[0] not in (*GEMV, "gemv_xb_tma")
    assert recommend(*shape, dtype="float64")[0] not in GEMV


@pytest.mark.parametrize("M, N, rung", [(3, 1, "gemv_ax"), (1, 165, "gemv_xb"), (8, 1994, "gemv_xb"),
                                        (2, 5, "gemv_ax"), (51, 1, "gemv_ax"), (1664, 7, "gemv_ax")])
def test_heuristic_gemv_from_the_short_k_limit(M, N, rung):
    """A small stream takes a GEMV rung from K = GEMV_SHORT_K (warp_tiled's one block walks K in
    steps of 16 below it: scripts/gpu_s30e.sh). In 16 bits A·x does too (scripts/gpu_s31a.sh,
    gpu_s31b.sh), and x·B from GEMV_MIN_K (gemv_xb_half lost below it)."""
    K = heuristic.GEMV_SHORT_K
    assert max(M, N) * K < heuristic.GEMV_MIN_STREAM  # the K rule, not the stream's size, decides
    assert recommend(M, N, K, tma=False)[0] == rung
    assert recommend(M, N, K, dtype="float64")[0] == rung
    assert recommend(M, N, K - 1, tma=False)[0] == "warp_tiled"
    half = {"gemv_ax": ("gemv_ax_half", "gemv_ax_mma"), "gemv_xb": ()}[rung]
    for dtype in ("float16", "bfloat16"):
        assert (recommend(M, N, K, dtype)[0] in half) == bool(half)
        assert recommend(M, N, K - 1, dtype)[0] not in ("gemv_xb_half", "gemv_ax_half", "gemv_ax_mma")


@pytest.mark.parametrize(
    "shape, strategy, params",
    [
        ((9, 8192, 8192), "gemv_xb_tma", {"mt": 16}),      # one chunk of 16 pads no more than two of 8
        ((16, 4096, 1024), "gemv_xb_tma", {"mt": 16}),     # B of XB_TMA_MIN_STREAM_8 elements exactly
        ((20, 6000, 3000), "gemv_xb_tma", {}),             # three chunks of 8 rows pad less than two of 16
        ((32, 4096, 4096), "gemv_xb_tma", {"mt": 16}),
        ((8192, 9, 8192), "gemv_ax", {"nt": 8, "rows": 4, "unroll": 1}),
        ((13126, 15, 760), "gemv_ax", {"nt": 8, "rows": 4, "unroll": 1}),
    ],
)
def test_heuristic_streams_slightly_wider_products_in_chunks(shape, strategy, params):
    """float32 x·B with 9..XB_TMA_CHUNK_MAX rows and A·x with 9..AX_CHUNK_MAX columns streaming a
    large operand: the GEMV rungs in chunks, each config valid, under any float32 request."""
    for precision in ("auto", "ieee"):
        assert recommend(*shape, precision=precision) == (strategy, params)
    tm.STRATEGIES[strategy].make_config(**params).validate(H100_LIMITS, "float32")


@pytest.mark.parametrize(
    "shape",
    [(33, 8192, 8192),    # over XB_TMA_CHUNK_MAX rows: the wgmma rungs were faster (48, 64 rows)
     (8192, 17, 8192),    # over AX_CHUNK_MAX columns (20-32: the wgmma rungs were faster)
     (16, 4096, 1020),    # B under XB_TMA_MIN_STREAM_8 elements
     (17, 3287, 12617),   # rows of B not whole 16-byte vectors: TMA would need a padded copy
     (4096, 12, 1000)],   # A under AX_CHUNK_MIN_STREAM elements
)
def test_heuristic_keeps_tiles_outside_the_chunk_rules(shape):
    assert recommend(*shape)[0] not in (*GEMV, "gemv_xb_tma")
    assert recommend(*shape, tma=False)[0] not in (*GEMV, "gemv_xb_tma")


def test_auto_picks_per_shape_inside_one_bucket(fresh_tunedb, monkeypatch):
    """1024 x 1024 x 124 and 1024 x 1024 x 128 share a bucket; without a database entry for it,
    each gets the fallback's pick for its own shape (K = 124 is below TF32X3_MIN_K: FFMA; K = 128
    takes tf32x3), whichever comes first. Below 16 the buckets are powers of two, so M = 1 and
    M = 8 (different GEMV chunks) never share an entry."""
    from tiled_matmul import tunedb

    monkeypatch.setattr(tunedb, "shipped_db_paths", lambda: [])
    dev = tunedb.device_id()
    assert tunedb.bucket(1024, 1024, 124) == tunedb.bucket(1024, 1024, 128)
    assert tunedb.bucket(1, 8192, 8192) != tunedb.bucket(8, 8192, 8192)
    long_k = dispatch.choose(1024, 1024, 128, device=dev)
    short_k = dispatch.choose(1024, 1024, 124, device=dev)
    # (K = 128 on wgmma's mid-size tiles: the cost model's pick among the wgmma rungs, MODEL_TILES)
    assert short_k.source == "heuristic" and long_k.source == "model"
    assert not tm.STRATEGIES[short_k.strategy].config_cls.TENSOR_CORES
    assert tm.STRATEGIES[long_k.strategy].config_cls.TENSOR_CORES
    dispatch.clear_cache()
    assert dispatch.choose(1024, 1024, 124, device=dev) == short_k
    assert dispatch.choose(1024, 1024, 128, device=dev) == long_k
    # a database entry that both requests allow (FFMA) still serves its whole bucket
    tunedb.save_entries({tunedb.bucket(1024, 1024, 128): {"strategy": "warp_tiled", "params": {}}}, dev)
    for K in (124, 128):
        c = dispatch.choose(1024, 1024, K, device=dev)
        assert (c.strategy, c.params, c.source) == ("warp_tiled", {}, "user-db")


@pytest.mark.parametrize(
    "cfg,shape,dtype,old,new",
    [
        # grids the old rule (nearest one wave; none from 2/3 of a wave) left a few blocks over a
        # whole round, each timed on the H100 at every slice count
        # (scripts/variants_s19/probe_gemv_splits.py, benchmarks/results/h100/session19/gemv_splits.txt)
        (GemvAxConfig(nt=8, rows=4, unroll=1), (8460, 8, 10154), "float32", 1, 5),  # 265 blocks: 207 -> 165 us
        (GemvAxConfig(nt=8, rows=4, unroll=1), (5000, 8, 8192), "float32", 2, 5),  # 314 blocks: 90.5 -> 74.1 us
        # 141 blocks on 132 one-block SMs: 115.8 -> 101.6 us
        (GemvXbConfig(threads=512, mt=1, unroll=8, min_blocks=1, kg=32), (1, 3000, 20000), "float32", 3, 8),
    ],
)
def test_k_splits_avoid_a_nearly_empty_last_round(cfg, shape, dtype, old, new):
    """The slice count is priced by the grid's wave factor: a count whose grid leaves a last round
    of a few blocks (those few stream alone while the other SMs idle) loses to one that fills its
    rounds, even at more slices."""
    from tiled_matmul.costmodel import wave_factor

    M, N, K = shape
    blocks = cfg.output_blocks(M, N)
    per_sm = cfg.occupancy(as_dtype(dtype))
    got, predicted_us = cfg.split_plan(M, N, K, 132, dtype)
    assert got == new == cfg.k_splits(M, N, K, 132, dtype)
    assert wave_factor(blocks * new, 132, per_sm) < 0.9 * wave_factor(blocks * old, 132, per_sm)
    # the plan's time is the streaming time stretched by its waves, plus its fixed costs
    stream_us = cfg.streamed(M, N, K) * as_dtype(dtype).itemsize / (cfg.STREAM_GBS * 1e3)
    assert stream_us < predicted_us < 1.5 * stream_us


def test_split_plan_prices_a_split_against_none():
    """A split pays its reduce kernel and workspace: a short K stays whole even where its grid
    leaves most SMs idle; a long one on the same grid takes the slices."""
    cfg = GemvAxConfig()
    (s_small, t_small), (s_long, t_long) = cfg.split_plan(7, 3, 512, 132), cfg.split_plan(7, 3, 2**20, 132)
    assert s_small == 1 and s_long > 1
    # one block, two 256-element steps in order: the latency bound, not the (tiny) stream
    assert t_small == pytest.approx(2 * cfg.STEP_US + cfg.SPLIT_ROUND_US)
