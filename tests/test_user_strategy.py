"""Strategies registered from user code: registration, errors, and treatment as a built-in rung."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul.configs import Config

from .conftest import HAS_NVCC

TEMPLATE = """\
// user strategy: one thread per output, {{ DTYPE }}; {{ PARAMS }}
typedef {{ T }} T;

extern "C" __global__ void __launch_bounds__({{ THREADS }})
{{ KERNEL_NAME }}(const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C,
                  int M, int N, int K, int flags)
{
    const int row = blockIdx.y * {{ BY }} + threadIdx.y;
    const int col = blockIdx.x * {{ BX }} + threadIdx.x;
    if (row >= M || col >= N) return;
    T acc = 0;
    for (int k = 0; k < K; ++k) acc += A[(size_t)row * K + k] * B[(size_t)k * N + col];
    C[(size_t)row * N + col] = acc;
}
"""


@dataclasses.dataclass(frozen=True)
class UserConfig(Config):
    STRATEGY: ClassVar[str] = "user_rows"
    bx: int = 32
    by: int = 8

    @property
    def tile_mn(self):
        return (self.by, self.bx)

    def block(self):
        return (self.bx, self.by, 1)

    def global_reads(self, M, N, K):
        return M * N * K, M * N * K

    def rules(self, limits, dt):
        yield (self.bx % 32 == 0, f"bx ({self.bx}) must be a multiple of 32 (a warp along N)")


@pytest.fixture
def user_strategy():
    entry = tm.register_strategy("user_rows", template=TEMPLATE, config=UserConfig,
                                 search_space=[UserConfig(bx=64, by=4)], summary="a user rung")
    yield entry
    if "user_rows" in tm.STRATEGIES:
        tm.unregister_strategy("user_rows")


def test_registered_like_a_builtin(user_strategy):
    assert tm.STRATEGIES["user_rows"] is user_strategy and not user_strategy.builtin
    assert list(tm.STRATEGIES)[-1] == "user_rows"  # after the ladder
    src = tm.source("user_rows", bx=64)
    assert "tm_user_rows_f32_bx64_by8" in src and "bx=64, by=8" in src
    assert tm.launch_grid("user_rows", 100, 200) == (7, 13, 1)
    with pytest.raises(ValueError, match="multiple of 32"):
        tm.kernel("user_rows", bx=48)
    with pytest.raises(TypeError, match="its parameters are bx, by"):
        tm.kernel("user_rows", tile=8)
    from tiled_matmul.cli import strategy_listing

    assert any(row["strategy"] == "user_rows" for row in strategy_listing())
    report = tm.explain("user_rows", 512)
    assert report["threads_per_block"] == 256


def test_unregister_forgets_it(user_strategy):
    tm.source("user_rows")
    tm.unregister_strategy("user_rows")
    assert "user_rows" not in tm.STRATEGIES
    with pytest.raises(ValueError, match="unknown strategy 'user_rows'"):
        tm.source("user_rows")
    with pytest.raises(ValueError, match="built in"):
        tm.unregister_strategy("naive")


def test_template_from_a_file(tmp_path):
    path = tmp_path / "rows.cu.j2"
    path.write_text(TEMPLATE)
    try:
        tm.register_strategy("user_rows", template=path, config=UserConfig)
        assert "tm_user_rows_f32_bx32_by8" in tm.source("user_rows")
        # replace=True swaps a user strategy's template, and what was rendered before is forgotten
        tm.register_strategy("user_rows", template=TEMPLATE.replace("acc = 0", "acc = T(0)"),
                             config=UserConfig, replace=True)
        assert "acc = T(0)" in tm.source("user_rows")
    finally:
        tm.unregister_strategy("user_rows")


@pytest.mark.parametrize(
    "kwargs,error,needle",
    [
        (dict(name="naive"), ValueError, "already registered \\(a built-in"),
        (dict(name="auto"), ValueError, "not 'auto'"),
        (dict(name="Bad Name"), ValueError, "lower-case"),
        (dict(config=int), TypeError, "Config subclass"),
        (dict(name="other_name"), ValueError, "STRATEGY is 'user_rows'; set it to 'other_name'"),
        (dict(template="{% for %}\n"), ValueError, "does not render: TemplateSyntaxError"),
        (dict(template="// {{ NO_SUCH_VARIABLE }}\n"), ValueError, "does not render: UndefinedError"),
        (dict(template="// no kernel here\n"), ValueError, "must define the kernel"),
        (dict(template="no_such_file.cu.j2"), ValueError, "neither an existing file"),
        (dict(default=tm.STRATEGIES["naive"].default), TypeError, "must be UserConfig instances"),
    ],
)
def test_registration_errors(kwargs, error, needle):
    args = dict(name="user_rows", template=TEMPLATE, config=UserConfig) | kwargs
    with pytest.raises(error, match=needle):
        tm.register_strategy(args.pop("name"), **args)
    assert "user_rows" not in tm.STRATEGIES and "other_name" not in tm.STRATEGIES


def test_clash_with_a_user_strategy_needs_replace(user_strategy):
    with pytest.raises(ValueError, match="pass replace=True"):
        tm.register_strategy("user_rows", template=TEMPLATE, config=UserConfig)


@pytest.mark.slow
@pytest.mark.skipif(not HAS_NVCC, reason="needs nvcc on PATH to compile the rendered template")
def test_user_template_compiles_with_nvcc(user_strategy):
    from tiled_matmul.ptxas import ptxas_report

    rep = ptxas_report("user_rows", user_strategy.default, "float64")
    assert rep.registers > 0 and rep.spill_stores == 0


@pytest.mark.gpu
def test_user_strategy_runs_benches_and_tunes(user_strategy, fresh_tunedb, rng):
    import cupy as cp

    for M, N, K in [(1, 1, 1), (33, 127, 129), (1000, 7, 2)]:
        a = cp.asarray(rng.uniform(-1, 1, (M, K)), dtype=cp.float32)
        b = cp.asarray(rng.uniform(-1, 1, (K, N)), dtype=cp.float32)
        c = tm.matmul(a, b, strategy="user_rows")
        assert tm.check(c, a, b).passed
    result = tm.bench.run(strategies=["user_rows"], sizes="256", tile_study=False, repeat=3)
    assert any(r.strategy == "user_rows" and r.status == "ok" for r in result.records)
    tuned = tm.tune(256, 256, 256, strategies=["user_rows"], repeat=3)
    assert tuned.best is not None and tuned.best.strategy == "user_rows"
    assert tm.kernel("auto").resolve(256, 256, 256).strategy == "user_rows"
