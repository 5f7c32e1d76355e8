"""Shared fixtures. GPU tests are marked `gpu` and skip, with the reason printed by `-ra`,
where CuPy sees no CUDA device, and where the GPU cannot run the strategy they test."""

from __future__ import annotations

import os
import shutil

import numpy as np
import pytest

import tiled_matmul as tm
from tiled_matmul.configs import EXTRA_FEATURES
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
#: strategies that take any operands the API accepts (ragged rows, batches, epilogues, layouts:
#: every feature of configs.EXTRA_FEATURES): the ones the tests over "every strategy" run. The TMA
#: rungs read rows through TMA (wgmma_tma: no extras; wgmma_tma_tf32: epilogues, no batches) and
#: refuse the rest with a ValueError; tests/test_gpu_wgmma_tma*.py cover them.
GENERAL = [n for n, s in tm.STRATEGIES.items() if s.config_cls.EXTRAS >= EXTRA_FEATURES]
#: strategies whose kernels apply gemm epilogues (alpha, beta, bias, activations, expressions)
EPILOGUE = [n for n, s in tm.STRATEGIES.items() if "epilogue" in s.config_cls.EXTRAS]


def pytest_collection_modifyitems(config, items):
    # TM_SHARD="i/n" keeps every n-th test from the i-th: n pytest processes side by side on one
    # GPU machine compile n kernels at once (NVRTC, not the GPU, bounds a long GPU test run)
    shard = os.environ.get("TM_SHARD")
    if shard:
        i, n = (int(x) for x in shard.split("/"))
        keep = [item for k, item in enumerate(items) if k % n == i]
        config.hook.pytest_deselected(items=[item for k, item in enumerate(items) if k % n != i])
        items[:] = keep
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


def without_elem_kernel(src: str) -> str:
    """A rendered dmma-family or register_blocked source without its second kernel
    (Config.ELEM_KERNEL, the misaligned-operand one: dmma's, eleventh session; register_blocked's,
    sixteenth) and, for the dmma family, the third one that follows it (Config.EDGE_KERNEL, the
    partial-tile one, twenty-first session): what the source digests recorded before them, byte
    for byte (the main kernel, and a split's reduce kernel, are unchanged by them)."""
    cut = src.find('\n\nextern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)\nelem_')
    if cut < 0:  # register_blocked's (sixteenth session), at the end of its source
        cut = src.find('\n\nextern "C" __global__ void __launch_bounds__(THREADS)\nelem_')
    if cut < 0:
        return src
    end = src.find("// The reduce kernel sums", cut)
    return src[:cut] + ("\n\n" + src[end:] if end >= 0 else "\n")


def poisoned(shape, dtype):
    """An output full of NaN, so any element a kernel fails to write fails the check."""
    import cupy as cp

    return cp.full(shape, cp.nan, dtype=dtype)


def scatter_nonfinite(a, b, rng):
    """Put NaN, +Inf and -Inf into A and B, zeros next to them (0 * Inf = NaN), and a zero row of A
    holding one +Inf (it meets any Inf in B: NaN there, zeros elsewhere)."""
    import numpy as np

    for arr in (a, b):
        flat = arr.ravel()
        idx = rng.choice(flat.size, size=min(flat.size, 6), replace=False)
        for j, v in zip(idx, [np.nan, np.inf, -np.inf, np.inf, 0.0, -np.inf]):
            flat[int(j)] = v
    M, K = a.shape
    a[M // 2, :] = 0.0
    a[M // 2, K // 2] = np.inf


def assert_same_nonfinite(c, ref, tol=1e-4):
    """NaN, +Inf and -Inf at the same places as in `ref` (cupy.matmul); the finite rest close."""
    import cupy as cp

    assert cp.array_equal(cp.isnan(c), cp.isnan(ref)), "NaN positions differ from cupy.matmul"
    assert cp.array_equal(cp.isposinf(c), cp.isposinf(ref)), "+Inf positions differ from cupy.matmul"
    assert cp.array_equal(cp.isneginf(c), cp.isneginf(ref)), "-Inf positions differ from cupy.matmul"
    fin = cp.isfinite(ref)
    assert cp.allclose(c[fin], ref[fin], rtol=tol, atol=tol)
