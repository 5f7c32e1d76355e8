#!/usr/bin/env python3
"""The program scripts/sanitize.sh runs under compute-sanitizer: every registered strategy's default
config (tiled_matmul.registry.STRATEGIES, so new strategies are covered without edits) at small
ragged shapes, in both dtypes, each checked against a float64 numpy reference.

Then the general call path per strategy: a batch of three in one launch, a gemm with alpha,
beta, bias and relu fused, and for the tensor-core rungs operands below the range guard (the
exact FMA path). It launches the strategies' own kernels, plain copies and the few CuPy kernels
gemm uses to convert its bias and c (no cuBLAS), and allocates every array with its own
cudaMalloc (no memory pool), so an access past any operand lands outside an allocation where
memcheck sees it. Exits 1 on a wrong result, 0 otherwise.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import tiled_matmul as tm  # noqa: E402

#: (M, N, K): small ragged shapes, their transposes, and one where every row is 16-byte
#: aligned but no dimension is a tile multiple (the vectorised load/store paths run there).
SHAPES = [(33, 65, 17), (129, 1, 257), (17, 33, 65), (1, 129, 257), (65, 36, 20)]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--strategies", default="", help="comma-separated (default: every registered strategy)")
    p.add_argument("--dtypes", default="float32,float64")
    p.add_argument("--shapes", default="", help="e.g. 33x65x17,129x1x257 (M x N x K)")
    p.add_argument("--plain-only", action="store_true", help="skip the batched, gemm and range-guard runs")
    args = p.parse_args(argv)
    import cupy as cp

    cp.cuda.set_allocator(None)  # one cudaMalloc per array: exact bounds for memcheck
    cp.cuda.set_pinned_memory_allocator(None)
    names = [s for s in args.strategies.split(",") if s] or list(tm.STRATEGIES)
    names = [n for n in names if tm.STRATEGIES[n].runs_on()]  # wgmma: Hopper only
    shapes = [tuple(int(x) for x in s.split("x")) for s in args.shapes.split(",") if s] or SHAPES
    rng = np.random.default_rng(0)
    bad = runs = 0
    for name in names:
        k = tm.kernel(name)  # the strategy's default config
        for dtype in [d for d in args.dtypes.split(",") if d and tm.STRATEGIES[name].supports(d)]:
            for M, N, K in shapes:
                a = rng.uniform(-1, 1, (M, K)).astype(dtype)
                b = rng.uniform(-1, 1, (K, N)).astype(dtype)
                out = cp.asarray(np.full((M, N), np.nan, dtype))
                k(cp.asarray(a), cp.asarray(b), out=out)
                c = out.get()
                ref = a.astype(np.float64) @ b.astype(np.float64)
                norm = np.linalg.norm(ref)
                err = np.linalg.norm(c - ref) / norm if norm else np.abs(c - ref).max(initial=0.0)
                ok = bool(np.isfinite(c).all() and err <= tm.tolerance(dtype, K))
                runs += 1
                bad += not ok
                print(f"{'ok  ' if ok else 'FAIL'} {name:18s} {dtype} {M}x{N}x{K} rel_err={err:.2e} "
                      f"config={k.config.params()}", flush=True)
    if not args.plain_only:
        r, w = _general_path(names, [d for d in args.dtypes.split(",") if d], rng)
        runs, bad = runs + r, bad + w
    print(f"sanitize driver: {runs} runs over {len(names)} strategies ({', '.join(names)}), {bad} wrong results")
    return 1 if bad else 0


def _general_path(names, dtypes, rng) -> tuple[int, int]:
    """The general call path per strategy (execute.py: the batch in the grid, one launch through
    cuLaunchKernel with the extras struct) and the fused epilogue, at two ragged shapes; and for
    the tensor-core rungs, operands outside the range guard (the exact-path fallback)."""
    import cupy as cp

    runs = bad = 0

    def report(what, name, dtype, got, ref, K, tol_scale=1.0):
        nonlocal runs, bad
        norm = np.linalg.norm(ref)
        err = np.linalg.norm(got - ref) / norm if norm else np.abs(got - ref).max(initial=0.0)
        ok = bool(np.isfinite(got).all() and err <= tol_scale * tm.tolerance(dtype, K))
        runs += 1
        bad += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name:18s} {dtype} {what} rel_err={err:.2e}", flush=True)

    for name in names:
        for dtype in [d for d in dtypes if tm.STRATEGIES[name].supports(d)]:
            for M, N, K in [(33, 65, 17), (65, 36, 20)]:
                a = rng.uniform(-1, 1, (3, M, K)).astype(dtype)
                b = rng.uniform(-1, 1, (3, K, N)).astype(dtype)
                got = tm.matmul(cp.asarray(a), cp.asarray(b), name).get()
                report(f"batched 3x{M}x{N}x{K}", name, dtype, got, a.astype(np.float64) @ b.astype(np.float64), K)
                c = rng.uniform(-1, 1, (M, N)).astype(dtype)
                bias = rng.uniform(-1, 1, N).astype(dtype)
                got = tm.gemm(cp.asarray(a[0]), cp.asarray(b[0]), cp.asarray(c), alpha=0.5, beta=2.0,
                              bias=cp.asarray(bias), activation="relu", strategy=name).get()
                ref = np.maximum(0.5 * (a[0].astype(np.float64) @ b[0].astype(np.float64)) + 2.0 * c + bias, 0.0)
                report(f"gemm alpha beta bias relu {M}x{N}x{K}", name, dtype, got, ref, K, 4.0)
            if tm.STRATEGIES[name].config_cls.TENSOR_CORES:
                a = (1e-36 * rng.uniform(-1, 1, (65, 40))).astype(dtype)  # below 2^-100: exact path
                b = (1e30 * rng.uniform(-1, 1, (40, 33))).astype(dtype)
                got = tm.matmul(cp.asarray(a), cp.asarray(b), name).get()
                report("range guard 65x33x40", name, dtype, got, a.astype(np.float64) @ b.astype(np.float64), 40)
    return runs, bad


if __name__ == "__main__":
    sys.exit(main())
