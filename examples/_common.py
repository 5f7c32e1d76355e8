"""Small helpers the examples share (the examples themselves use only the public API, `tm.*`).

Run any example from anywhere: Python puts this folder on `sys.path` first, so
``from _common import ...`` finds this file.
"""

from __future__ import annotations

import argparse

import numpy as np

import tiled_matmul as tm


def shape(text: str) -> tuple[int, int, int]:
    """argparse type: ``"1024"`` -> (1024, 1024, 1024); ``"1000x700x300"`` -> (M, N, K)."""
    parts = text.lower().replace("×", "x").split("x")
    try:
        dims = [int(p) for p in parts]
    except ValueError:
        raise argparse.ArgumentTypeError(f"shape {text!r} is not N or MxNxK") from None
    if len(dims) == 1:
        dims *= 3
    if len(dims) != 3 or min(dims) < 1:
        raise argparse.ArgumentTypeError(f"shape {text!r} is not N or MxNxK (positive ints)")
    return dims[0], dims[1], dims[2]


def label(M: int, N: int, K: int) -> str:
    return f"{M}x{N}x{K}"


def have_gpu(what: str) -> bool:
    """True when a CUDA GPU is there; otherwise print why `what` is skipped and return False."""
    if tm.gpu_available():
        return True
    print(f"[skipped] {what}: needs a CUDA GPU and tm.gpu_available() is False on this machine")
    return False


def random_inputs(M: int, N: int, K: int, dtype="float32", seed: int = 0):
    """Host (numpy) A (M x K) and B (K x N), uniform in [-1, 1): signed values, so an error
    cannot hide in a sum that only grows."""
    rng = np.random.default_rng(seed)
    return (rng.uniform(-1, 1, (M, K)).astype(dtype), rng.uniform(-1, 1, (K, N)).astype(dtype))


def device_operands(M: int, N: int, K: int, dtype="float32"):
    """A and B from :func:`random_inputs` copied to the GPU, and an empty C: cupy arrays."""
    import cupy

    a, b = random_inputs(M, N, K, dtype)
    return cupy.asarray(a), cupy.asarray(b), cupy.empty((M, N), dtype=dtype)


def median_ms(fn, repeat: int = 20, warmup: int = 3) -> float:
    """Median GPU time of `fn()` in ms: CUDA events around each call after `warmup` untimed
    calls (``cupyx.profiler.benchmark``). The L2 cache is not flushed between calls, so inputs
    that fit in L2 stay there; ``tiled-matmul bench`` flushes it (and so reads a little slower)."""
    from cupyx.profiler import benchmark

    result = benchmark(fn, n_repeat=repeat, n_warmup=warmup)
    return float(np.median(result.gpu_times[0])) * 1e3


def tflops(M: int, N: int, K: int, ms: float) -> float:
    return 2.0 * M * N * K / (ms * 1e-3) / 1e12
