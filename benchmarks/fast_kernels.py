"""Check, then time, every config of the fast strategies against cuBLAS in one run (one device call).

    PYTHONPATH=. python3 benchmarks/fast_kernels.py [--out DIR] [--quick] [--strategies warp_tiled,split_k,tensor_core]

1. correctness: every config of each strategy (plus register_blocked's default) on ragged,
   unaligned (K, N not multiples of 4; misaligned pointers), K=0 and float64 (where the strategy
   computes it) cases, with poisoned (NaN) outputs and fresh random [-1, 1) inputs; Inf
   propagation; split_k's bit-for-bit determinism;
2. host overhead of a cached kernel at 64³ (host clock, 2000 calls) and the kernel's own GPU time;
3. timings (CUDA events, L2 flushed, median) of each config against cupy.matmul (FP32, TF32 off)
   in the same run, with each result's relative error next to cuBLAS's, and a short table
   printed last. Full numbers go to DIR/fast_kernels.json.
"""

from __future__ import annotations

import argparse
import json
import os
import time

os.environ.setdefault("CUPY_TF32", "0")

import cupy as cp  # noqa: E402
import numpy as np  # noqa: E402

import tiled_matmul as tm  # noqa: E402
from tiled_matmul.heuristic import recommend  # noqa: E402
from tiled_matmul.timing import L2Flusher, host_us_per_call, time_fn  # noqa: E402

RNG = np.random.default_rng()


def rand(shape, dtype=np.float32):
    return cp.asarray(RNG.uniform(-1, 1, shape).astype(dtype))


def configs(name):
    return tm.STRATEGIES[name].configs


CHECK_SHAPES = [(1, 1, 1), (17, 33, 129), (129, 127, 31), (5, 7, 0), (300, 257, 1001), (1000, 700, 1300),
                (3001, 2999, 3007), (130, 66, 4099)]


def check_all(lines, strategies):
    failures = []
    cases = [("register_blocked", tm.STRATEGIES["register_blocked"].default)]
    cases += [(n, c) for n in strategies for c in configs(n)]
    for name, cfg in cases:
        k = tm.kernel(name, **cfg.params())
        t0 = time.perf_counter()
        for M, N, K in CHECK_SHAPES:
            a, b = rand((M, K)), rand((K, N))
            out = cp.full((M, N), cp.nan, cp.float32)
            k(a, b, out=out)
            r = tm.check(out, a, b)
            if not r.passed:
                failures.append((name, cfg.tag(), (M, N, K), r.rel_err, r.nonfinite))
        # Misaligned pointers: views starting one element in.
        base_a, base_b = rand((301, 402)), rand((402, 203))
        a, b = base_a[1:, 1:], base_b[1:, 1:]
        out = cp.full((300, 202), cp.nan, cp.float32)
        k(a, b, out=out)
        r = tm.check(out, a, b)
        if not r.passed:
            failures.append((name, cfg.tag(), "offset", r.rel_err, r.nonfinite))
        # Inf in A propagates to its row of C as in FP32 (split schemes must not turn it into NaN).
        a, b = rand((70, 50)), cp.abs(rand((50, 40))) + 0.5
        a[3, 7] = cp.inf
        out = cp.full((70, 40), cp.nan, cp.float32)
        k(a, b, out=out)
        r = tm.check(out, a, b)
        if not (r.passed and bool(cp.isposinf(out[3]).all())):
            failures.append((name, cfg.tag(), "inf", r.rel_err, r.nonfinite))
        lines.append(f"checked {name} {cfg.tag()} in {time.perf_counter() - t0:.1f}s")
    for name in strategies:
        if not tm.STRATEGIES[name].config_cls.supports("float64"):
            continue
        k = tm.kernel(name)
        for M, N, K in [(1, 1, 1), (17, 33, 129), (129, 127, 31), (300, 200, 500), (4, 5, 0)]:
            a, b = rand((M, K), np.float64), rand((K, N), np.float64)
            out = cp.full((M, N), cp.nan, cp.float64)
            k(a, b, out=out)
            r = tm.check(out, a, b)
            if not (r.passed and r.dtype == "float64"):
                failures.append((name, "f64", (M, N, K), r.rel_err, r.nonfinite))
    # Determinism of split-K: same inputs -> identical bits.
    for cfg in configs("split_k") if "split_k" in strategies else ():
        k = tm.kernel("split_k", **cfg.params())
        a, b = rand((333, 4097)), rand((4097, 277))
        c1, c2 = k(a, b), k(a, b)
        if not bool((c1.view(cp.int32) == c2.view(cp.int32)).all()):
            failures.append(("split_k", cfg.tag(), "not deterministic", 0, 0))
    return failures


def host_overhead(name, n=2000, **params):
    """(host us per kernel() call, per matmul() call, GPU us per launch) at 64³."""
    a, b = rand((64, 64)), rand((64, 64))
    c = cp.empty((64, 64), cp.float32)
    k = tm.kernel(name, **params) if name != "cupy" else None
    fn = (lambda: cp.matmul(a, b, out=c)) if k is None else (lambda: k(a, b, out=c))
    per_kernel = host_us_per_call(fn, n)
    gpu_us = time_fn(lambda i: fn(), repeat=50).median_ms * 1e3
    if k is None:
        return per_kernel, per_kernel, gpu_us
    return per_kernel, host_us_per_call(lambda: tm.matmul(a, b, strategy=name, out=c, **params), n), gpu_us


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    ap.add_argument("--quick", action="store_true", help="fewer shapes and repeats")
    ap.add_argument("--skip-check", action="store_true")
    ap.add_argument("--strategies", default="warp_tiled,split_k,tensor_core")
    ap.add_argument("--shapes", default=None, help="e.g. 4096x4096x4096,1024x1024x1024")
    args = ap.parse_args()
    strategies = args.strategies.split(",")
    assert os.environ["CUPY_TF32"] == "0"
    lines = [f"GPU: {tm.device_limits().name}; cupy {cp.__version__}; CUPY_TF32={os.environ['CUPY_TF32']}"]
    record = {"timings": [], "overhead_us": {}}

    if not args.skip_check:
        t0 = time.perf_counter()
        failures = check_all(lines, strategies)
        record["failures"] = [list(map(str, f)) for f in failures]
        lines.append(f"CORRECTNESS: {len(failures)} failures ({time.perf_counter() - t0:.0f}s)")
        for f in failures:
            lines.append(f"  FAIL {f}")

    for name, params in [("cupy", {}), ("register_blocked", {}),
                         ("register_blocked", dict(bm=64, bn=64, bk=16, tm=4, tn=4)), ("warp_tiled", {}),
                         ("warp_tiled", dict(bm=64, bn=64, bk=16, wm=32, wn=32, tm=4, tn=8, stages=4, group_m=8)),
                         ("split_k", {}), ("tensor_core", {}),
                         ("tensor_core", dict(bm=64, bn=64, bk=32, wm=32, wn=32, stages=4, min_blocks=2))]:
        us_kernel, us_matmul, gpu_us = host_overhead(name, **params)
        record["overhead_us"][f"{name}{params or ''}"] = (us_kernel, us_matmul, gpu_us)
        lines.append(f"host overhead 64^3 {name}{params or ''}: kernel() {us_kernel:.1f} us/call, "
                     f"matmul() {us_matmul:.1f} us/call; GPU {gpu_us:.1f} us/launch")

    shapes = [(4096, 4096, 4096), (8192, 8192, 8192), (3001, 2999, 3007), (2048, 2048, 2048),
              (1024, 1024, 1024), (256, 256, 65536), (512, 512, 16384), (4097, 4095, 1023)]
    if args.quick:
        shapes = shapes[:3]
    if args.shapes:
        shapes = [tuple(int(x) for x in s_.split("x")) for s_ in args.shapes.split(",")]
    flush = L2Flusher()
    table = []
    for M, N, K in shapes:
        a, b = rand((M, K)), rand((K, N))
        c = cp.empty((M, N), cp.float32)
        rep = 7 if M * N * K >= 8192 ** 3 else 15
        t_ref = time_fn(lambda i: cp.matmul(a, b, out=c), repeat=rep, flush=flush)
        rows = [("cuBLAS", "", t_ref)]
        cands = [("register_blocked", tm.STRATEGIES["register_blocked"].default)]
        for n in strategies:
            if n != "split_k" or M * N <= 1024 * 1024:
                cands += [(n, c_) for c_ in configs(n)]
        rname, rparams = recommend(M, N, K)
        for name, cfg in cands:
            k = tm.kernel(name, **cfg.params())
            c.fill(np.nan)
            k(a, b, out=c)
            if M * N * K <= 4096 ** 3:
                rep_ = tm.check(c, a, b)
                ok, err = rep_.passed, f"{rep_.rel_err:.1e}/{rep_.cublas_rel_err:.1e}"
            else:
                ok, err = bool(cp.isfinite(c).all()), "-"
            t = time_fn(lambda i: k(a, b, out=c), repeat=rep, flush=flush)
            mark = "*" if (name == rname and cfg == tm.STRATEGIES[rname].make_config(**rparams)) else ""
            rows.append((name, cfg.tag() + mark + ("" if ok else " WRONG"), t, err))
        for name, tag, t, *err in rows:
            ratio = t_ref.median_ms / t.median_ms
            err = err[0] if err else ""
            table.append(f"{M}x{N}x{K:<6} {name:>16} {t.median_ms:9.3f} {t.tflops(M, N, K):7.2f} {ratio:6.3f} {err:>15}  {tag}")
            record["timings"].append(dict(shape=(M, N, K), strategy=name, config=tag, ms=t.median_ms,
                                          iqr_ms=t.iqr_ms, tflops=t.tflops(M, N, K), x_cublas=ratio, err=err))
        del a, b, c
        cp.get_default_memory_pool().free_all_blocks()
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "fast_kernels.json"), "w") as f:
        json.dump(record, f, indent=1)
    print("\n".join(lines))
    print(f"{'shape':>18} {'strategy':>16} {'ms':>9} {'TFLOP/s':>7} {'xcuBLAS':>6} {'relerr/cuBLAS':>15}  config (* = heuristic pick)")
    print("\n".join(table))


if __name__ == "__main__":
    main()
