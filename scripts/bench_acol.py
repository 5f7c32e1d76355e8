"""wgmma_tma_tf32 (tf32x3) reading A column-major in place against its contiguous product, per config.

    PYTHONPATH=. python3 scripts/bench_acol.py [--sizes 4096,8192] [--stages 3,4,5] [--repeat 10]

For each size n and stages value: the contiguous a @ b and a.T @ b (a column-major view, read in
place: xpose_bufs buffers of the transposed big parts where they fit, else written back into the
stage after a consumer barrier), both checked first (per-element error over |A||B| within the
tf32x3 bound, no NaN), then CUDA-event medians with L2 flushed. ratio = a.T @ b time / a @ b time
(issue 14: <= 1.10).
"""

from __future__ import annotations

import argparse
import sys


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="4096,8192")
    p.add_argument("--stages", default="3,4,5")
    p.add_argument("--repeat", type=int, default=10)
    args = p.parse_args(argv)

    import cupy as cp

    import tiled_matmul as tm
    from tiled_matmul import numerics
    from tiled_matmul.timing import L2Flusher, time_fn

    flush = L2Flusher()
    ok = True
    print("| n | stages | xpose_bufs | a @ b ms | a.T @ b ms | ratio | TF/s (a.T @ b) | check |")
    print("|---:|---:|---:|---:|---:|---:|---:|---|")
    for n in (int(x) for x in args.sizes.split(",")):
        rng = cp.random.default_rng(0)
        at = rng.uniform(-1, 1, (n, n), dtype=cp.float32)
        a = cp.ascontiguousarray(at.T)
        b = rng.uniform(-1, 1, (n, n), dtype=cp.float32)
        rows = slice(0, 256)
        ref = a[rows].astype(cp.float64) @ b.astype(cp.float64)
        den = cp.abs(a[rows].astype(cp.float64)) @ cp.abs(b.astype(cp.float64))
        c = cp.empty((n, n), cp.float32)
        for st in (int(x) for x in args.stages.split(",")):
            k = tm.kernel("wgmma_tma_tf32", stages=st)
            errs = []
            for x in (a, at.T):
                c.fill(cp.nan)
                k(x, b, c)
                errs.append(float(cp.max(cp.abs(c[rows].astype(cp.float64) - ref) / den)))
            good = all(e <= numerics.bound("tf32x3", n) for e in errs) and not bool(cp.isnan(c).any())
            ok &= good
            t0 = time_fn(lambda i: k(a, b, c), repeat=args.repeat, flush=flush).median_ms
            t1 = time_fn(lambda i: k(at.T, b, c), repeat=args.repeat, flush=flush).median_ms
            print(f"| {n} | {st} | {k.config.xpose_bufs} | {t0:.3f} | {t1:.3f} | {t1 / t0:.3f} | "
                  f"{2 * n ** 3 / t1 / 1e9:.1f} | {'ok' if good else 'FAIL'} {max(errs):.2g} |", flush=True)
        del a, at, b, c, ref, den
        cp.get_default_memory_pool().free_all_blocks()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
