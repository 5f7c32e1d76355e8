"""CPU checks of wgmma_tma_split_k: its configs and rules, the split path of the shared template
(absent from wgmma_tma's renderings), the launch buffer's slice argument, the workspace and the
persistent grid, the auto rule (heuristic._tma_split_count), and (with nvcc) every config compiling
for sm_90a without spills."""

from __future__ import annotations

import ctypes
import re

import pytest

import tiled_matmul as tm
from tiled_matmul import heuristic
from tiled_matmul.configs import cdiv
from tiled_matmul.device import H100_LIMITS as H100
from tiled_matmul.ptxas import ptxas_report
from tiled_matmul.render import render
from tiled_matmul.strategies.wgmma_tma_split_k import SplitTmaLauncher, WgmmaTmaSplitKConfig

from .conftest import HAS_NVCC

ENTRY = tm.STRATEGIES["wgmma_tma_split_k"]
DTYPES = ("float16", "bfloat16")
CASES = [(cfg, dt) for cfg in ENTRY.configs for dt in DTYPES]


def test_every_config_is_valid_and_fits_the_h100():
    for cfg, dt in CASES:
        cfg.validate(H100, dt)
        assert cfg.smem_bytes(dt) <= H100.smem_per_block_optin
    # no C tile (partials are stored from registers): the ring alone, 1 KB of round-up, barriers
    assert ENTRY.default.smem_bytes("float16") == 6 * 256 * 64 * 2 + 1024 + 16 * 6


@pytest.mark.parametrize("params,needle", [(dict(out_bits=32), "out_bits"), (dict(cluster_m=2), "cluster_m"),
                                           (dict(split_k=1), "split_k"), (dict(split_k=256), "split_k")])
def test_rules_name_what_is_wrong(params, needle):
    with pytest.raises(ValueError, match=needle):
        WgmmaTmaSplitKConfig(**params).validate(H100, "float16")


def test_split_path_renders_only_in_the_split_rung():
    split = render(ENTRY, ENTRY.default, "bfloat16")
    assert re.search(r"int ldc,\s*int flags, int slices\)", split)
    assert "const int t = u % tiles, z = u / tiles;" in split and "griddepcontrol.launch_dependents" in split
    assert "typedef float OutT;" in split and "tma_store_2d(&tmC" not in split  # float32 partials from registers
    assert "reduce_wgmma_tma_split_k" in split and "cvt.rn.bf16.f32" in split  # the reduce rounds once
    plain = render(tm.STRATEGIES["wgmma_tma"], tm.STRATEGIES["wgmma_tma"].default, "bfloat16")
    assert "slices" not in plain and "u % tiles" not in plain and "griddepcontrol" not in plain


def test_launch_buffer_carries_the_slice_count():
    offs = SplitTmaLauncher.OFFSETS
    assert offs[:-1] == tm.strategies.wgmma_tma.TmaLauncher.OFFSETS and offs[-1] == offs[-2] + 4
    assert offs[-1] + 4 <= SplitTmaLauncher.SIZE
    launcher = object.__new__(SplitTmaLauncher)  # no GPU: the packed buffer only
    grid_x, params_ptr, keep = launcher.pack_split(9, b"a" * 128, b"b" * 128, 0xABC000, 5, 6, 7, 1, 32)
    params = keep[1]
    assert grid_x == 9 and len(params) == len(offs) and ctypes.addressof(params) == params_ptr
    assert ctypes.string_at(params[2], 128) == b"a" * 128  # tmC's unused slot holds A's map
    assert ctypes.c_uint64.from_address(params[3]).value == 0xABC000
    # M, N, K, ldc (= N: the workspace's rows), flags, slices
    assert [ctypes.c_int32.from_address(params[4 + i]).value for i in range(6)] == [5, 6, 7, 6, 1, 32]


def test_workspace_grid_and_persistent_ctas():
    cfg = ENTRY.make_config(split_k=8)
    assert cfg.grid(300, 300) == (9, 1, 8)  # (tiles, 1, slices): the cost model's units
    assert cfg.ctas(300, 300, 132) == 72 and cfg.ctas(1000, 1000, 132) == 128  # 512 units in 4 waves of 128
    assert cfg.workspace_bytes(300, 300, "float16") == 8 * 300 * 300 * 4
    # the cap: fewer slices, down to one (still reduced: its workspace is counted)
    big = cfg.replace(split_k=64)
    assert big.slices(4096, 4096, "float16") == big.WORKSPACE_CAP // (4096 * 4096 * 4)
    assert big.slices(16384, 16384, "float16") == 1
    assert big.workspace_bytes(16384, 16384, "float16") == 16384 * 16384 * 4
    assert cfg.workspace_bytes(0, 5, "float16") == 0


def test_auto_rule_fills_one_wave_with_deep_enough_slices():
    for M, N, K in [(16, 4096, 4096), (64, 64, 65536), (300, 300, 4096), (9, 3000, 40000), (1000, 32, 300),
                    (128, 128, 511), (513, 640, 100000)]:
        s = heuristic._tma_split_count(M, N, K, 132)
        tiles = cdiv(M, 128) * cdiv(N, 128)
        assert s & (s - 1) == 0 and 1 <= s <= heuristic.TMA_SPLIT_MAX
        if s > 1:
            assert tiles * s <= 132 and K >= s * heuristic.TMA_SPLIT_MIN_SLICE
        # the largest such count: doubling it breaks a limit
        d = 2 * s
        assert d > heuristic.TMA_SPLIT_MAX or tiles * d > 132 or K < d * heuristic.TMA_SPLIT_MIN_SLICE, (M, N, K, s)
    # auto takes it only where TMA can run (plain products) and it cuts 2 slices or more
    assert heuristic.half_pick(16, 4096, 4096, "float16", 132, tma=False)[0] == "mma_half"
    assert heuristic.half_pick(128, 128, 511, "float16", 132)[0] == "mma_half_split_k"  # one slice: not worth it


# ---- nvcc ----------------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.skipif(not HAS_NVCC, reason="nvcc is not on PATH: cannot compile templates offline")
@pytest.mark.parametrize("cfg,dtype", CASES, ids=[f"{c.tag()}-{d}" for c, d in CASES])
def test_compiles_for_sm90a_without_spills(cfg, dtype):
    rep = ptxas_report("wgmma_tma_split_k", cfg, dtype)
    assert cfg.tag() in rep.log, rep.log
    assert rep.spill_stores == 0 and rep.spill_loads == 0 and rep.stack_frame == 0, rep.log
    assert 0 < rep.registers <= H100.regs_per_sm // cfg.THREADS, rep.log
    assert "C7508" not in rep.log and "setmaxnreg" not in rep.log.lower(), rep.log
