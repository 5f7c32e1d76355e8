"""Batched products, transposed operands and fused epilogues against CuPy, in one run.

    PYTHONPATH=. python3 benchmarks/batched_and_epilogues.py [--repeat 20] [--quick]

Every row is validated first (NaN-poisoned output, compared with a float64 reference of the same
operands: per-element error over |A|·|B| within tm.tolerance), then timed with CUDA events after
warm-up, L2 flushed before every repeat (tiled_matmul.measure), medians. Each row's baseline is
measured in the same run on the same operands:

* batched: ``tm.matmul`` vs ``cupy.matmul`` on the same batched operands (64 x 512³, 4096 x 64³,
  8 x 4096³, and 32x1024x4096 activations @ one shared 4096x4096 weight);
* transposed: ``tm.matmul(a.T, b)`` etc. vs ``tm.matmul`` of the contiguous operands (float32 and
  float64; the issue's target is within 10%);
* epilogues: ``tm.gemm(x, w, bias=, activation="gelu")`` at 4096x4096x1024 vs ``cupy.matmul``
  followed by one CuPy elementwise kernel for bias + GELU; ``tm.gemm(alpha=, beta=, c=)`` at
  4096³ vs plain ``tm.matmul`` (the cost of alpha/beta);
* host overhead: ``tm.matmul`` of plain 64³ float32 operands, auto (host clock, µs per call).

A short table is printed last; with $OUT set, it is also written to $OUT/batched_and_epilogues.md.
Exit status 1 when a row fails its check.
"""

from __future__ import annotations

import argparse
import os
import sys

os.environ.setdefault("CUPY_TF32", "0")

import cupy as cp  # noqa: E402
import numpy as np  # noqa: E402

import tiled_matmul as tm  # noqa: E402
from tiled_matmul.measure import L2Flusher, emit_markdown, host_us_per_call, time_fn  # noqa: E402

GELU = cp.ElementwiseKernel(
    "T y, T bias", "T z",
    "T v = y + bias; z = (T)0.5 * v * ((T)1 + erf(v * (T)0.70710678118654752440));",
    "tm_bench_bias_gelu",
)


def rand(shape, dtype, seed):
    return cp.asarray(np.random.default_rng(seed).uniform(-1, 1, shape).astype(dtype))


def check(got, a, b, epilogue=None):
    """Per-element |got - ref| / (|A|·|B|) within tm.tolerance, on the float64 reference (a 2-D
    slice of the batch for big batches); `epilogue(ref64)` applies the unfused epilogue."""
    a64, b64 = a.astype(cp.float64), b.astype(cp.float64)
    ref = cp.matmul(a64, b64)
    scale = cp.matmul(cp.abs(a64), cp.abs(b64))
    if epilogue is not None:
        ref = epilogue(ref)
        scale = scale + 1.0
    err = cp.abs(got.astype(cp.float64) - ref) / (scale + 1e-30)
    tol = 2 * tm.tolerance(got.dtype, a.shape[-1])
    worst = float(err.max()) if err.size else 0.0
    return worst <= tol and not bool(cp.isnan(got).any()), worst


def timed(fn, flush, repeat):
    return time_fn(lambda i: fn(), repeat=repeat, warmup=3, flush=flush).median_ms


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--quick", action="store_true", help="smaller shapes (a smoke run)")
    args = ap.parse_args()
    flush = L2Flusher()
    rows = []  # (group, case, ours ms, baseline name, baseline ms, ok, worst error)
    failed = False
    q = args.quick

    def row(group, case, ours, base_name, base, ok, worst):
        nonlocal failed
        failed |= not ok
        rows.append((group, case, ours, base_name, base, ok, worst))
        print(f"{group:12s} {case:40s} {ours:9.3f} ms  {base_name} {base:9.3f} ms  x{base / ours:5.2f}  "
              f"{'ok' if ok else 'FAILED'} (err {worst:.1e})", flush=True)

    # -- batched ----------------------------------------------------------------------------------
    batched = [((64, 512, 512), (64, 512, 512)), ((4096, 64, 64), (4096, 64, 64)),
               ((8, 4096, 4096), (8, 4096, 4096)), ((32, 1024, 4096), (4096, 4096))]
    if q:
        batched = [((8, 128, 128), (8, 128, 128)), ((256, 64, 64), (256, 64, 64)), ((4, 256, 512), (512, 256))]
    for sa, sb in batched:
        a, b = rand(sa, np.float32, 1), rand(sb, np.float32, 2)
        out = cp.full(np.broadcast_shapes(sa[:-2], sb[:-2]) + (sa[-2], sb[-1]), cp.nan, cp.float32)
        tm.matmul(a, b, out=out)
        sl = (0,) * (len(sa) - 2)
        ok, worst = check(out[sl], a[sl], b[(0,) * (len(sb) - 2)])
        ours = timed(lambda: tm.matmul(a, b, out=out), flush, args.repeat)
        base = timed(lambda: cp.matmul(a, b, out=out), flush, args.repeat)
        row("batched", f"{sa} @ {sb}", ours, "cupy.matmul", base, ok, worst)

    # -- transposed operands ------------------------------------------------------------------------
    for dtype, n in ((np.float32, 1024 if q else 4096), (np.float64, 512 if q else 2048)):
        a, b = rand((n, n), dtype, 3), rand((n, n), dtype, 4)
        at, bt = cp.ascontiguousarray(a.T).T, cp.ascontiguousarray(b.T).T  # same values, column-major
        plain = timed(lambda: tm.matmul(a, b), flush, args.repeat)
        for label, x, y in (("a.T @ b", at, b), ("a @ b.T", a, bt), ("a.T @ b.T", at, bt)):
            got = tm.matmul(x, y)
            ok, worst = check(got, x, y)
            ours = timed(lambda: tm.matmul(x, y), flush, args.repeat)
            row("transposed", f"{label} {n}^3 {np.dtype(dtype).name}", ours, "contiguous tm", plain, ok, worst)

    # -- epilogues ------------------------------------------------------------------------------------
    M, N, K = (1024, 1024, 512) if q else (4096, 4096, 1024)
    x, w, bias = rand((M, K), np.float32, 5), rand((K, N), np.float32, 6), rand(N, np.float32, 7)
    got = tm.gemm(x, w, bias=bias, activation="gelu")
    from cupyx.scipy.special import erf

    ok, worst = check(got, x, w, lambda r: 0.5 * (r + bias) * (1 + erf((r + bias) / np.sqrt(2))))
    ours = timed(lambda: tm.gemm(x, w, bias=bias, activation="gelu"), flush, args.repeat)
    base = timed(lambda: GELU(cp.matmul(x, w), bias), flush, args.repeat)
    row("epilogue", f"bias+gelu {M}x{N}x{K}", ours, "cupy.matmul+elementwise", base, ok, worst)
    n = 1024 if q else 4096
    a, b, c = rand((n, n), np.float32, 8), rand((n, n), np.float32, 9), rand((n, n), np.float32, 10)
    got = tm.gemm(a, b, c, alpha=0.5, beta=0.25)
    ok, worst = check(got, a, b, lambda r: 0.5 * r + 0.25 * c)
    ours = timed(lambda: tm.gemm(a, b, c, alpha=0.5, beta=0.25), flush, args.repeat)
    base = timed(lambda: tm.matmul(a, b), flush, args.repeat)
    row("epilogue", f"alpha,beta {n}^3", ours, "plain tm.matmul", base, ok, worst)

    # -- host overhead ---------------------------------------------------------------------------------
    a, b = rand((64, 64), np.float32, 11), rand((64, 64), np.float32, 12)
    o = cp.empty((64, 64), cp.float32)
    host = host_us_per_call(lambda: tm.matmul(a, b, out=o), calls=200, wait=False)
    cup = host_us_per_call(lambda: cp.matmul(a, b, out=o), calls=200, wait=False)

    lines = ["| group | case | tm ms | baseline | baseline ms | baseline / tm | check (max err) |",
             "|---|---|---:|---|---:|---:|---|"]
    for g, case, ours, bn, base, ok, worst in rows:
        lines.append(f"| {g} | {case} | {ours:.3f} | {bn} | {base:.3f} | {base / ours:.2f} | "
                     f"{'ok' if ok else 'FAILED'} ({worst:.1e}) |")
    lines.append(f"\nhost overhead, 64³ float32 auto, out=: tm.matmul {host:.1f} µs/call, cupy.matmul {cup:.1f} "
                 f"µs/call (target: tm <= 15 µs)")
    dev = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)["name"].decode()
    text = f"## batched_and_epilogues on {dev}\n\n" + "\n".join(lines) + "\n"
    emit_markdown(text, "batched_and_epilogues.md")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
