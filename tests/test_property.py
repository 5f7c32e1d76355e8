"""Property-based test (hypothesis): for any shape of 0..600 per dimension, any registered strategy,
any config of its search space and either dtype, matmul agrees with cuBLAS and writes every output.

The GPU property is marked `gpu`; the case generator itself is checked on the CPU. The module
skips, with a reason, where hypothesis is not installed (scripts/fuzz.py needs no hypothesis).
"""

from __future__ import annotations

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis", reason="hypothesis is not installed (pip install hypothesis)")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import tiled_matmul as tm  # noqa: E402

MAX_DIM = 600
#: sizes around tile edges, drawn often: that is where indexing bugs live
EDGES = [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257,
         511, 512, 513, 599, 600]
DTYPES = ["float32", "float64"]


def _cases():
    """(strategy, config, dtype) for every config of every registered strategy that is valid for
    that dtype (the default and the search space; the registry may grow)."""
    out = []
    for name, entry in tm.STRATEGIES.items():
        for cfg in entry.configs:
            for dt in DTYPES:
                if cfg.is_valid(dtype=dt):
                    out.append((name, cfg, dt))
    return out


CASES = _cases()
dims = st.one_of(st.sampled_from(EDGES), st.integers(0, MAX_DIM))
problems = st.tuples(st.sampled_from(CASES), dims, dims, dims,
                     st.sampled_from(["cupy", "out", "transposed", "numpy"]))


def test_case_generator_covers_the_registry():
    """CPU: every strategy the GPU runs (the H100 stand-in without one) has configs in the generator,
    in each dtype it computes."""
    names = {(n, dt) for n, _, dt in CASES}
    for name, entry in tm.STRATEGIES.items():
        for dt in DTYPES:
            assert ((name, dt) in names) == (entry.supports(dt) and entry.runs_on()), (name, dt)


@settings(max_examples=30, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(problems)
def test_problem_generator_draws_valid_problems(problem):
    """CPU: the drawn problems are in range and their configs validate."""
    (name, cfg, dtype), M, N, K, mode = problem
    assert 0 <= min(M, N, K) and max(M, N, K) <= MAX_DIM
    cfg.validate(dtype=dtype)
    grid = tm.launch_grid(name, M, N, **cfg.params())
    assert min(grid) >= 0 and (grid[0] * grid[1] >= 1 or not (M and N))


@pytest.mark.gpu
@settings(max_examples=120, deadline=None, database=None, print_blob=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(problem=problems, seed=st.integers(0, 2**32 - 1))
def test_matmul_matches_cublas(problem, seed):
    import cupy as cp

    from .conftest import poisoned, random_pair

    (name, cfg, dtype), M, N, K, mode = problem
    rng = np.random.default_rng(seed)
    params = cfg.params()
    if mode == "transposed":  # non-contiguous operands: staged through a C-order copy
        at = cp.asarray(rng.uniform(-1, 1, (K, M)).astype(dtype))
        bt = cp.asarray(rng.uniform(-1, 1, (N, K)).astype(dtype))
        a, b = at.T, bt.T  # (M x K) and (K x N) transposed views
        c = tm.matmul(a, b, strategy=name, **params)
    elif mode == "numpy":
        a, b = random_pair(M, N, K, dtype, rng)
        c = tm.matmul(cp.asnumpy(a), cp.asnumpy(b), strategy=name, **params)
        assert isinstance(c, np.ndarray)
    else:
        a, b = random_pair(M, N, K, dtype, rng)
        if mode == "out":
            c = poisoned((M, N), dtype)
            assert tm.matmul(a, b, strategy=name, out=c, **params) is c
        else:
            c = tm.matmul(a, b, strategy=name, **params)
    assert c.shape == (M, N) and str(c.dtype) == dtype
    report = tm.check(c, a, b)
    assert report.passed, (name, params, dtype, (M, N, K), mode, report)
