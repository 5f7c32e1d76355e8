"""Configs: validation rules, messages, and launch geometry (CPU only)."""

from __future__ import annotations

import pytest

import tiled_matmul as tm
from tiled_matmul.configs import (
    NaiveConfig, RectTiledConfig, RegisterBlockedConfig, SmemTiledConfig, ThreadTileConfig, cdiv,
)
from tiled_matmul.device import H100_LIMITS

ALL = [(n, c) for n, e in tm.STRATEGIES.items() for c in (e.default, *e.search_space)]


@pytest.mark.parametrize("name,cfg", ALL, ids=[f"{n}-{c.tag()}" for n, c in ALL])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_registered_configs_are_valid(name, cfg, dtype):
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
