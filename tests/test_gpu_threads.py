"""Host threads, each on its own non-blocking stream, calling the kernels at once (marked `gpu`).

Eight threads share the operands and each writes outputs of its own, ten calls per case, while
the others do the same. Every output must be bit-identical to the same call made alone first:
every kernel here is deterministic, so a launch that took another thread's arguments, kept plan,
packed argument list or stream shows as a difference. The calls made alone are checked against
cuBLAS in the same dtype (normwise, with a bound a few units of the output format's rounding
above what the rungs' own tests allow: this file tests concurrency, the rungs' files accuracy),
so the comparison is not between two wrong answers. Shapes include ragged ones whose rows TMA
cannot address (the TMA rungs copy those operands on the calling stream first).
"""

from __future__ import annotations

import sys
import threading

import ml_dtypes
import numpy as np
import pytest

import tiled_matmul as tm

pytestmark = pytest.mark.gpu

THREADS = 8
CALLS = 10
SHAPES = [(512, 384, 256), (129, 200, 72), (300, 264, 136), (64, 1000, 33)]
#: strategy -> (dtype, precision) cases; "auto" is tm.matmul's default
CASES = {
    "wgmma_tma": [("float16", None), ("bfloat16", None)],
    "wgmma_tma_tf32": [("float32", "tf32x3"), ("float32", "tf32")],
    "wgmma": [("float32", "tf32x3")],
    "dmma": [("float64", None)],
    "register_blocked": [("float32", None)],
    "auto": [("float32", None), ("float64", None), ("float16", None)],
}
#: normwise ||C - cuBLAS|| / ||cuBLAS|| allowed for the calls made alone (see the docstring)
SANITY = {("float16", None): 4e-3, ("bfloat16", None): 3e-2, ("float32", "tf32"): 5e-3,
          ("float32", "tf32x3"): 1e-5, ("float32", None): 1e-5, ("float64", None): 1e-12}


def _operands(M, N, K, dtype, seed):
    import cupy as cp

    rng = np.random.default_rng(seed)
    np_dt = np.dtype(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.dtype(dtype)
    a = cp.asarray(rng.uniform(-1, 1, (M, K)).astype(np_dt))
    b = cp.asarray(rng.uniform(-1, 1, (K, N)).astype(np_dt))
    return a, b


def _call(name, precision):
    if name == "auto":
        return lambda a, b, out: tm.matmul(a, b, out=out)
    k = tm.kernel(name, precision=precision) if precision else tm.kernel(name)
    return lambda a, b, out: k(a, b, out=out)


def _cublas(a, b):
    import cupy as cp

    if a.dtype == np.dtype(ml_dtypes.bfloat16):  # CuPy has no bfloat16 matmul: float32 of the same values
        return cp.matmul(a.astype(cp.float32), b.astype(cp.float32))
    return cp.matmul(a, b)


def _run_threaded(jobs):
    """jobs: (fn, a, b, expected) tuples. Each thread runs every job CALLS times on its own
    stream into outputs of its own; returns the descriptions of the mismatches."""
    import cupy as cp

    start = threading.Barrier(THREADS)
    failures: list[str] = []
    lock = threading.Lock()

    def worker(t):
        try:
            stream = cp.cuda.Stream(non_blocking=True)
            with stream:
                outs = [[cp.empty_like(expected) for _ in range(CALLS)] for _, _, _, expected, _ in jobs]
                start.wait()
                for i in range(CALLS):
                    # each thread walks the jobs in its own order, so different kernels overlap
                    for j in range(len(jobs)):
                        fn, a, b, _, _ = jobs[(j + t) % len(jobs)]
                        fn(a, b, outs[(j + t) % len(jobs)][i])
            stream.synchronize()
            for (_, _, _, expected, what), outs_j in zip(jobs, outs):
                for i, out in enumerate(outs_j):
                    if not bool((out.view(np.uint8) == expected.view(np.uint8)).all()):
                        with lock:
                            failures.append(f"thread {t} call {i}: {what} differs from the call made alone")
        except Exception as exc:  # a failure in a thread must fail the test, not vanish
            with lock:
                failures.append(f"thread {t}: {type(exc).__name__}: {exc}")

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(THREADS)]
    # switch threads every microsecond rather than every 5 ms, so that the GIL hands over inside
    # the launch paths (between packing a buffer and launching from it) and not only at their ends
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    finally:
        sys.setswitchinterval(interval)
    return failures


def _jobs(cases):
    import cupy as cp

    jobs = []
    for seed, (name, dtype, precision) in enumerate(cases):
        fn = _call(name, precision)
        for M, N, K in SHAPES:
            a, b = _operands(M, N, K, dtype, 100 * seed + M)
            expected = cp.full((M, N), cp.nan, dtype=a.dtype)
            fn(a, b, expected)  # alone, on the default stream
            ref = _cublas(a, b).astype(cp.float64)
            err = float(cp.linalg.norm(expected.astype(cp.float64) - ref) / cp.linalg.norm(ref))
            assert err <= SANITY[(dtype, precision)], f"{name} {dtype} {precision} {M}x{N}x{K}: {err:.2e} from cuBLAS"
            jobs.append((fn, a, b, expected, f"{name} {dtype} {precision or ''} {M}x{N}x{K}"))
    cp.cuda.Device().synchronize()  # the threads' non-blocking streams do not wait for the default one
    return jobs


@pytest.mark.parametrize("name", list(CASES))
def test_threads_on_their_own_streams(name):
    failures = _run_threaded(_jobs([(name, d, p) for d, p in CASES[name]]))
    assert not failures, "\n".join(failures[:20])


def test_threads_mixing_every_rung_at_once():
    """Every case of every strategy this GPU runs, in one pool of threads."""
    runs = [n for n in CASES if n == "auto" or tm.STRATEGIES[n].runs_on()]
    skipped = sorted(set(CASES) - set(runs))
    if skipped:
        print(f"not run on this GPU: {', '.join(skipped)}")
    failures = _run_threaded(_jobs([(n, d, p) for n in runs for d, p in CASES[n]]))
    assert not failures, "\n".join(failures[:20])
