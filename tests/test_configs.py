"""Configs: validation rules, messages, and launch geometry (CPU only)."""

from __future__ import annotations

import pytest

import tiled_matmul as tm
from tiled_matmul.configs import cdiv
from tiled_matmul.strategies.naive import NaiveConfig
from tiled_matmul.strategies.rect_tiled import RectTiledConfig
from tiled_matmul.strategies.register_blocked import RegisterBlockedConfig
from tiled_matmul.strategies.smem_tiled import SmemTiledConfig
from tiled_matmul.strategies.tensor_core import TensorCoreConfig
from tiled_matmul.strategies.thread_tile import ThreadTileConfig
from tiled_matmul.device import H100_LIMITS
from tiled_matmul.dtypes import as_dtype

ALL = [(n, c) for n, e in tm.STRATEGIES.items() for c in (e.default, *e.search_space)]
ALL_DT = [(n, c, dt) for n, c in ALL for dt in ("float32", "float64") if tm.STRATEGIES[n].supports(dt)]


@pytest.mark.parametrize("name,cfg,dtype", ALL_DT, ids=[f"{n}-{c.tag()}-{dt}" for n, c, dt in ALL_DT])
def test_registered_configs_are_valid(name, cfg, dtype):
    """Every config is valid in its strategy's default dtype; in another dtype it is valid, or
    (sized for float32's registers: Strategy.configs_for leaves it out) breaks the register
    budget alone."""
    entry = tm.STRATEGIES[name]
    if dtype != entry.default_dtype and cfg not in entry.configs_for(dtype, H100_LIMITS):
        assert cfg != entry.default  # the default serves every dtype
        broken = [text for ok, text in cfg.rules(H100_LIMITS, as_dtype(dtype)) if not ok]
        assert len(broken) == 1 and "registers per thread" in broken[0], broken
        return
    assert cfg.validate(H100_LIMITS, dtype) is cfg
    assert cfg.STRATEGY == name
    assert 1 <= cfg.threads <= 1024
    assert cfg.smem_bytes(dtype) <= H100_LIMITS.smem_per_block_optin


@pytest.mark.parametrize(
    "cfg,needle",
    [
        (SmemTiledConfig(tile=64), "threads per block = 4096 must be <= 1024"),
        (NaiveConfig(block_x=64, block_y=32), "threads per block = 2048"),
        (RectTiledConfig(tile_m=32, tile_n=64, tile_k=16, coarsen=3), "tile_n (64) must be a multiple of coarsen (3)"),
        (RegisterBlockedConfig(bm=128, bn=128, bk=8, tm=6, tn=8), "tm (6) must be a multiple of 4"),
        (RegisterBlockedConfig(bm=100, bn=128, bk=8, tm=8, tn=8), "bm (100) must be a multiple of tm (8)"),
        (RegisterBlockedConfig(bm=256, bn=128, bk=8, tm=4, tn=4), "threads per block = 2048 must be <= 1024"),
        (RegisterBlockedConfig(bm=128, bn=128, bk=8, tm=16, tn=16), "accumulators must be <= 128"),
        (RegisterBlockedConfig(bm=256, bn=256, bk=128, tm=8, tn=8), "shared memory"),
        (ThreadTileConfig(tm=16, tn=8), "accumulators must be <= 64"),
        (RectTiledConfig(tile_m=64, tile_n=512, tile_k=32, coarsen=16), "shared memory = 73728 B"),
        (TensorCoreConfig(wm=48), "bm (128) must be a multiple of wm (48)"),
        (TensorCoreConfig(wn=12), "wn (12) must be a multiple of 8"),
        (TensorCoreConfig(bk=12), "bk (12) must be a multiple of 8"),
        (TensorCoreConfig(bm=256, bn=256, wm=128, wn=64), "256 accumulators per thread; at most 128"),
        (TensorCoreConfig(stages=9), "stages (9) must be between 2 and 8"),
        (TensorCoreConfig(bk=32, stages=8), "shared memory = 286720 B"),
        (TensorCoreConfig(bk=32, min_blocks=2), "min_blocks (2) blocks of 143360 B shared memory"),
        (TensorCoreConfig(bm=32, bn=32, bk=8, wm=16, wn=8), "must split evenly over 256 threads"),
    ],
)
def test_bad_configs_name_the_rule_and_an_alternative(cfg, needle):
    with pytest.raises(ValueError) as err:
        cfg.validate(H100_LIMITS)
    msg = str(err.value)
    assert needle in msg
    assert "A valid config is" in msg
    default = tm.STRATEGIES[cfg.STRATEGY].default
    assert all(f"{k}={v}" in msg for k, v in default.params().items())


def test_float32_only_strategy_rejects_float64_naming_the_alternatives():
    cfg = TensorCoreConfig()
    assert cfg.supports("float32") and not cfg.supports("float64")
    with pytest.raises(ValueError) as err:
        cfg.validate(H100_LIMITS, "float64")
    msg = str(err.value)
    assert "tensor_core computes float32 only, got float64" in msg
    assert "register_blocked" in msg and "tensor_core, " not in msg.split("strategies for float64:")[1]
    with pytest.raises(ValueError, match="computes float32 only"):
        tm.source("tensor_core", dtype="float64")
    with pytest.raises(TypeError, match="not supported"):
        cfg.supports("int8")


def test_tensor_core_geometry():
    cfg = TensorCoreConfig(bm=128, bn=64, bk=32, wm=32, wn=32, stages=4)
    assert cfg.block() == (8 * 32, 1, 1)  # (128/32) * (64/32) warps
    assert cfg.grid(1000, 300) == (cdiv(1000, 128) * cdiv(300, 64), 1, 1)
    # per stage: A tile bm x (bk + 4 pad) and B tile bk x (bn + 8 pad) floats
    assert cfg.smem_bytes() == 4 * (128 * 36 + 32 * 72) * 4


def test_float64_halves_what_fits():
    cfg = RegisterBlockedConfig(bm=128, bn=128, bk=64, tm=8, tn=8)
    # 2 stages * 64 * (132 + 132) * 4 B fits for float32; the float64 twin is twice as large.
    assert cfg.smem_bytes("float32") == 2 * 64 * (132 + 132) * 4
    assert cfg.smem_bytes("float64") == 2 * 64 * (130 + 130) * 8
    cfg.validate(H100_LIMITS, "float32")
    with pytest.raises(ValueError, match="shared memory"):
        cfg.validate(H100_LIMITS, "float64")


@pytest.mark.parametrize("bad", [0, -8])
def test_non_positive_params(bad):
    with pytest.raises(ValueError, match=f"tile={bad}"):
        SmemTiledConfig(tile=bad).validate(H100_LIMITS)


@pytest.mark.parametrize("bad", [16.0, "16", True, None])
def test_non_int_params(bad):
    with pytest.raises(TypeError, match="must be an int"):
        SmemTiledConfig(tile=bad).validate(H100_LIMITS)


def test_unknown_parameter_and_strategy():
    with pytest.raises(TypeError, match="its parameters are tile"):
        tm.kernel("smem_tiled", tile_m=16)
    with pytest.raises(ValueError, match="registered strategies: naive"):
        tm.kernel("no_such_strategy")
    with pytest.raises(ValueError, match="A valid config is tile=32"):
        tm.kernel("smem_tiled", tile=33)


@pytest.mark.parametrize(
    "cfg,M,N,grid,block",
    [
        (NaiveConfig(), 1000, 1300, (82, 63, 1), (16, 16, 1)),
        (NaiveConfig(block_x=32, block_y=8), 1, 1, (1, 1, 1), (32, 8, 1)),
        (ThreadTileConfig(block_x=16, block_y=16, tm=4, tn=4), 1000, 1300, (21, 16, 1), (16, 16, 1)),
        (SmemTiledConfig(tile=32), 1024, 1024, (32, 32, 1), (32, 32, 1)),
        (SmemTiledConfig(tile=8), 17, 9, (2, 3, 1), (8, 8, 1)),
        (RectTiledConfig(tile_m=32, tile_n=64, tile_k=16, coarsen=4), 100, 129, (3, 4, 1), (16, 32, 1)),
        (RectTiledConfig(tile_m=16, tile_n=32, tile_k=16, coarsen=2), 16, 32, (1, 1, 1), (16, 16, 1)),
        (RegisterBlockedConfig(), 4096, 4096, (32, 32, 1), (256, 1, 1)),
        (RegisterBlockedConfig(bm=64, bn=128, bk=16, tm=4, tn=8), 3001, 2999, (24, 47, 1), (256, 1, 1)),
        (RegisterBlockedConfig(), 0, 5, (1, 0, 1), (256, 1, 1)),
    ],
)
def test_grid_and_block(cfg, M, N, grid, block):
    assert cfg.grid(M, N) == grid
    assert cfg.block() == block
    bm, bn = cfg.tile_mn
    # The grid covers C exactly once: enough blocks, and not one block row/column too many.
    assert grid[0] * bn >= N and (grid[0] - 1) * bn < max(N, 1)
    assert grid[1] * bm >= M and (grid[1] - 1) * bm < max(M, 1)


def test_launch_grid_api():
    assert tm.launch_grid("smem_tiled", 1000, 1300, tile=16) == (cdiv(1300, 16), cdiv(1000, 16), 1)


def test_kernel_object_without_gpu():
    k = tm.kernel("rect_tiled", tile_m=32, tile_n=64, tile_k=16)
    assert "rect_tiled" in repr(k) and "tile_n=64" in repr(k)
    assert k.launch_dims(100, 200) == ((4, 4, 1), (16, 32, 1))
    assert "constexpr int TILE_N = 64;" in k.source()
