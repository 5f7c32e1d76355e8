"""Shared fixtures. GPU tests are marked `gpu` and skip, with the reason printed by `-ra`,
where CuPy sees no CUDA device, and where the GPU cannot run the strategy they test."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul.device import gpu_available

HAS_GPU = gpu_available()
HAS_NVCC = shutil.which("nvcc") is not None


def _no_gpu_reason() -> str:
    """What is missing for the `gpu` tests, in the words of the check that failed."""
    try:
        import cupy  # noqa: F401
    except Exception as exc:
        return f"needs a CUDA GPU and CuPy: import cupy failed ({type(exc).__name__}: {exc})"
    return "needs a CUDA GPU: cupy.is_available() is False"


NO_GPU_REASON = "" if HAS_GPU else _no_gpu_reason()

#: Strategies compiled for one architecture only (wgmma: sm_90a, Hopper). A `gpu` test that
#: exercises one of them names it in a `name` parameter, so that the hook below skips it, saying
#: why, on GPUs that cannot run it.
ARCH_SPECIFIC = [n for n, s in tm.STRATEGIES.items() if s.config_cls.NVRTC_ARCH]


def pytest_collection_modifyitems(config, items):
    if HAS_GPU:
        # GPU tests of a strategy this GPU cannot run (wgmma off Hopper) skip, saying why.
        from tiled_matmul.device import device_limits

        cc = device_limits().compute_capability
        for item in items:
            params = getattr(getattr(item, "callspec", None), "params", {})
            name = params.get("name")
            if "gpu" in item.keywords and isinstance(name, str) and name in tm.STRATEGIES \
                    and not tm.STRATEGIES[name].runs_on():
                item.add_marker(pytest.mark.skip(
                    reason=f"{name} needs a GPU that runs {tm.STRATEGIES[name].config_cls.NVRTC_ARCH} code; this GPU is sm_{cc}"))
        return
    skip = pytest.mark.skip(reason=NO_GPU_REASON)
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


def pytest_report_header(config):
    return f"tiled-matmul: GPU {'available' if HAS_GPU else 'NOT available - gpu tests skip'}; nvcc {'found' if HAS_NVCC else 'not found'}"


@pytest.fixture
def fresh_tunedb(monkeypatch, tmp_path):
    """A private, empty user tuning database and cold dispatch caches for one test."""
    from tiled_matmul import dispatch, tunedb

    monkeypatch.setenv(tunedb.ENV_VAR, str(tmp_path / "user.json"))
    dispatch.clear_cache()
    yield tmp_path / "user.json"
    dispatch.clear_cache()


@pytest.fixture
def rng():
    """A fresh generator per test: every check runs on new random inputs."""
    return np.random.default_rng()


def random_pair(M: int, N: int, K: int, dtype, rng=None):
    """Device inputs with values in [-1, 1): signed, so errors cannot hide in a biased sum."""
    import cupy as cp

    rng = rng or np.random.default_rng()
    a = cp.asarray(rng.uniform(-1, 1, (M, K)).astype(dtype))
    b = cp.asarray(rng.uniform(-1, 1, (K, N)).astype(dtype))
    return a, b


def poisoned(shape, dtype):
    """An output full of NaN, so any element a kernel fails to write fails the check."""
    import cupy as cp

    return cp.full(shape, cp.nan, dtype=dtype)


def same_nonfinite(c, ref):
    """C holds NaN, +Inf and -Inf exactly where `ref` (cupy.matmul) does, and is close elsewhere."""
    import cupy as cp

    assert cp.array_equal(cp.isnan(c), cp.isnan(ref)), "NaN positions differ from cupy.matmul"
    assert cp.array_equal(cp.isposinf(c), cp.isposinf(ref)), "+Inf positions differ from cupy.matmul"
    assert cp.array_equal(cp.isneginf(c), cp.isneginf(ref)), "-Inf positions differ from cupy.matmul"
    fin = cp.isfinite(ref)
    assert cp.allclose(c[fin], ref[fin], rtol=1e-4, atol=1e-4)
