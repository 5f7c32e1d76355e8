#!/usr/bin/env python3
"""The program scripts/sanitize.sh runs under compute-sanitizer: every registered strategy's default
config (tiled_matmul.registry.STRATEGIES, so new strategies are covered without edits) at small
ragged shapes, in both dtypes, each checked against a float64 numpy reference.

It launches nothing but the strategies' own kernels and plain copies (no cuBLAS, no CuPy
elementwise kernels), and allocates every array with its own cudaMalloc (no memory pool), so an
access past any operand lands outside an allocation where memcheck sees it. Exits 1 on a wrong
result, 0 otherwise.
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
    print(f"sanitize driver: {runs} runs over {len(names)} strategies ({', '.join(names)}), {bad} wrong results")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
