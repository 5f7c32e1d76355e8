"""The strategy registry: name -> template, config class, default config and search space.

Everything else (the API, tests, benchmarks, the tuner, the CLI and the README table) loops over
:data:`STRATEGIES`. Adding a strategy means one template in ``kernels/`` plus one entry here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from . import configs as C


@dataclass(frozen=True)
class Strategy:
    """One rung of the ladder."""

    name: str
    template: str  # file name in kernels/
    config_cls: type[C.Config]
    default: C.Config
    search_space: tuple[C.Config, ...]
    summary: str
    #: False for rungs kept for teaching, which the autotuner and `auto` never pick
    tunable: bool = True
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def configs(self) -> tuple[C.Config, ...]:
        """The default config, then the search space, without repeats (order kept)."""
        return tuple(dict.fromkeys((self.default, *self.search_space)))

    def supports(self, dtype) -> bool:
        """Whether this strategy computes `dtype` (tensor_core is float32 only)."""
        return self.config_cls.supports(dtype)

    def runs_on(self, device: Any = None) -> bool:
        """Whether this strategy's code can run on `device` (an id or DeviceLimits; the current
        GPU, or the H100 stand-in without one): wgmma needs an sm_90 GPU, the rest run anywhere."""
        from .device import device_limits

        return self.config_cls.runs_on(device_limits(device))

    def make_config(self, **params: Any) -> C.Config:
        """A config from keyword params, the default filling in the rest.

        Unknown names raise TypeError listing the parameters this strategy takes.
        """
        allowed = list(self.default.params())
        unknown = sorted(set(params) - set(allowed))
        if unknown:
            raise TypeError(
                f"strategy {self.name!r} has no parameter(s) {', '.join(unknown)}; "
                f"its parameters are {', '.join(allowed)}"
            )
        return self.default.replace(**params)


def _entry(name, template, cls, search, summary, tunable=True) -> Strategy:
    return Strategy(
        name=name,
        template=template,
        config_cls=cls,
        default=cls(),
        search_space=tuple(cls(**p) for p in search),
        summary=summary,
        tunable=tunable,
    )


STRATEGIES: dict[str, Strategy] = {
    s.name: s
    for s in (
        _entry(
            "naive",
            "01_naive.cu.j2",
            C.NaiveConfig,
            [dict(block_x=16, block_y=16), dict(block_x=32, block_y=8), dict(block_x=32, block_y=32), dict(block_x=8, block_y=8)],
            "one thread per output; every operand read straight from global memory",
            tunable=False,
        ),
        _entry(
            "thread_tile",
            "02_thread_tile.cu.j2",
            C.ThreadTileConfig,
            [
                dict(block_x=16, block_y=16, tm=2, tn=2),
                dict(block_x=16, block_y=16, tm=4, tn=4),
                dict(block_x=32, block_y=8, tm=4, tn=2),
                dict(block_x=16, block_y=8, tm=8, tn=4),
            ],
            "each thread computes a tm×tn block of outputs from global memory (register reuse only)",
            tunable=False,
        ),
        _entry(
            "smem_tiled",
            "03_smem_tiled.cu.j2",
            C.SmemTiledConfig,
            [dict(tile=8), dict(tile=16), dict(tile=32)],
            "square TILE×TILE shared-memory tiles: each element loaded once per tile, used TILE times",
            tunable=False,
        ),
        _entry(
            "rect_tiled",
            "04_rect_tiled.cu.j2",
            C.RectTiledConfig,
            [
                dict(tile_m=16, tile_n=32, tile_k=16, coarsen=2),  # N tile twice as wide, 2 outputs/thread
                dict(tile_m=32, tile_n=16, tile_k=16, coarsen=1),  # 32×16 output tile, K stride 16
                dict(tile_m=32, tile_n=64, tile_k=16, coarsen=2),
                dict(tile_m=32, tile_n=64, tile_k=16, coarsen=4),
                dict(tile_m=64, tile_n=64, tile_k=8, coarsen=4),
            ],
            "rectangular tiles with a coarsening factor: one thread accumulates several outputs along N",
            tunable=False,
        ),
        _entry(
            "register_blocked",
            "05_register_blocked.cu.j2",
            C.RegisterBlockedConfig,
            [
                dict(bm=128, bn=128, bk=8, tm=8, tn=8),
                dict(bm=128, bn=128, bk=16, tm=8, tn=8),
                dict(bm=128, bn=64, bk=16, tm=8, tn=4),
                dict(bm=64, bn=64, bk=16, tm=4, tn=4),
                dict(bm=64, bn=128, bk=16, tm=4, tn=8),
            ],
            "bm×bn block tile, double-buffered shared memory, tm×tn register outer products, 128-bit loads",
        ),
        _entry(
            "warp_tiled",
            "06_warp_tiled.cu.j2",
            C.WarpTiledConfig,
            [
                dict(bm=128, bn=128, bk=8, wm=32, wn=64, tm=8, tn=8, stages=3, group_m=8, min_blocks=2),
                dict(bm=128, bn=128, bk=16, wm=32, wn=64, tm=8, tn=8, stages=2, group_m=8, min_blocks=2),
                dict(bm=128, bn=128, bk=8, wm=32, wn=64, tm=8, tn=8, stages=5, group_m=8, min_blocks=2),
                dict(bm=128, bn=128, bk=8, wm=64, wn=32, tm=8, tn=8, stages=3, group_m=8, min_blocks=2),
                dict(bm=128, bn=128, bk=16, wm=32, wn=64, tm=8, tn=8, stages=3, group_m=8, min_blocks=1),
                dict(bm=128, bn=256, bk=16, wm=64, wn=64, tm=8, tn=16, stages=3, group_m=8, min_blocks=1),
                dict(bm=64, bn=128, bk=8, wm=32, wn=64, tm=8, tn=8, stages=4, group_m=8, min_blocks=3),
                dict(bm=64, bn=64, bk=16, wm=32, wn=32, tm=4, tn=8, stages=3, group_m=8, min_blocks=4),
            ],
            "warp tiles of thread tiles, multi-stage cp.async pipeline (A transposed on the way in), grouped block order",
        ),
        _entry(
            "split_k",
            "07_split_k.cu.j2",
            C.SplitKConfig,
            [
                dict(bm=64, bn=64, bk=8, wm=32, wn=32, tm=4, tn=8, stages=4, group_m=8, min_blocks=4, split_k=8),
                dict(bm=64, bn=64, bk=8, wm=32, wn=32, tm=4, tn=8, stages=4, group_m=8, min_blocks=4, split_k=4),
                dict(bm=64, bn=64, bk=8, wm=32, wn=32, tm=4, tn=8, stages=4, group_m=8, min_blocks=4, split_k=16),
                dict(bm=128, bn=128, bk=8, wm=32, wn=64, tm=8, tn=8, stages=3, group_m=8, min_blocks=2, split_k=4),
                dict(bm=128, bn=128, bk=8, wm=32, wn=64, tm=8, tn=8, stages=3, group_m=8, min_blocks=2, split_k=16),
                dict(bm=64, bn=128, bk=8, wm=32, wn=64, tm=8, tn=8, stages=4, group_m=8, min_blocks=3, split_k=8),
            ],
            "warp_tiled over split_k slices of K into a workspace, then a fixed-order (deterministic) sum",
        ),
        _entry(
            "tensor_core",
            "08_tensor_core.cu.j2",
            C.TensorCoreConfig,
            [
                dict(bm=128, bn=128, bk=32, wm=64, wn=32, stages=3),
                dict(bm=128, bn=128, bk=16, wm=64, wn=32, stages=4),
                dict(bm=128, bn=128, bk=16, wm=32, wn=64, stages=4),
                dict(bm=128, bn=64, bk=32, wm=32, wn=32, stages=4),
                dict(bm=64, bn=128, bk=32, wm=32, wn=32, stages=4),
                dict(bm=64, bn=64, bk=32, wm=32, wn=32, stages=4, min_blocks=2),
                dict(bm=64, bn=64, bk=16, wm=32, wn=32, stages=5, min_blocks=2),
            ],
            "float32 on tensor cores: mma.sync TF32 with big+small operand splits (3xTF32, float32 accuracy), cp.async pipeline",
        ),
        _entry(
            "wgmma",
            "09_wgmma.cu.j2",
            C.WgmmaConfig,
            [
                # 112- and 96-row tiles fill the last wave better on ragged sizes (3001: 27 x 24
                # tiles of 112 x 128 make 4.9 waves of 132 blocks; 128 x 128 makes 4.4)
                dict(bm=112, bn=128, stages=4),
                dict(bm=112, bn=128, stages=3),
                dict(bm=120, bn=128, stages=3),
                dict(bm=96, bn=128, stages=4),
                dict(bm=64, bn=128, stages=6),  # ~1 wave of 128 x 128 tiles or fewer (1024^3)
                dict(bm=64, bn=64, stages=4, min_blocks=2),  # N <= 64
                dict(bm=112, bn=64, stages=3, min_blocks=2),
            ],
            "float32 on Hopper's warpgroup tensor cores (wgmma, sm_90a), 3xTF32 split, swizzled cp.async pipeline",
        ),
    )
}


def get(name: str) -> Strategy:
    """The registry entry for `name`; ValueError listing the strategies otherwise."""
    try:
        return STRATEGIES[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown strategy {name!r}; registered strategies: {', '.join(STRATEGIES)}"
        ) from None
