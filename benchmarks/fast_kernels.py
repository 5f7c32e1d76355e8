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

Every check and timing goes through tiled_matmul.measure: a result is validated against a float64
reference before it is timed, and one that fails its check is reported and never timed.
"""

from __future__ import annotations

import argparse
import json
import os
import time

os.environ.setdefault("CUPY_TF32", "0")

import cupy as cp  # noqa: E402

import tiled_matmul as tm  # noqa: E402
from tiled_matmul.heuristic import recommend  # noqa: E402
from tiled_matmul.measure import (L2Flusher, Row, cublas_row, host_us_per_call, make_inputs, parse_shapes,  # noqa: E402
                                  strategy_row, time_validated, validate)

STUDY = "fast_kernels"
INF = float("inf")


def configs(name):
    return tm.STRATEGIES[name].configs


CHECK_SHAPES = [(1, 1, 1), (17, 33, 129), (129, 127, 31), (5, 7, 0), (300, 257, 1001), (1000, 700, 1300),
                (3001, 2999, 3007), (130, 66, 4099)]


def check_all(lines, strategies):
    failures = []

    def check(name, cfg, where, sets) -> bool:
        """Validate one call on `sets` (NaN-poisoned output, float64 reference); record a failure."""
        v = validate(strategy_row(STUDY, name, cfg), sets)
        if v.rejected is not None:
            failures.append((name, cfg.tag(), where, v.rejected.rel_err, v.rejected.message))
        return v.rejected is None

    cases = [("register_blocked", tm.STRATEGIES["register_blocked"].default)]
    cases += [(n, c) for n in strategies for c in configs(n)]
    for name, cfg in cases:
        t0 = time.perf_counter()
        for shape in CHECK_SHAPES:
            check(name, cfg, shape, make_inputs(shape, "float32"))
        # Misaligned pointers: views starting one element in.
        (a, b, _), = make_inputs((301, 203, 402), "float32")
        check(name, cfg, "offset", [(a[1:, 1:], b[1:, 1:], cp.empty((300, 202), cp.float32))])
        # Inf in A propagates to its row of C as in FP32 (split schemes must not turn it into NaN).
        (a, b, out), = make_inputs((70, 40, 50), "float32")
        b = cp.abs(b) + 0.5
        a[3, 7] = cp.inf
        if check(name, cfg, "inf", [(a, b, out)]) and not bool(cp.isposinf(out[3]).all()):
            failures.append((name, cfg.tag(), "inf", None, "row 3 of C is not +inf"))
        lines.append(f"checked {name} {cfg.tag()} in {time.perf_counter() - t0:.1f}s")
    for name in strategies:
        if not tm.STRATEGIES[name].config_cls.supports("float64"):
            continue
        for shape in [(1, 1, 1), (17, 33, 129), (129, 127, 31), (300, 200, 500), (4, 5, 0)]:
            check(name, tm.STRATEGIES[name].default, ("f64", shape), make_inputs(shape, "float64"))
    # Determinism of split-K: same inputs -> identical bits.
    for cfg in configs("split_k") if "split_k" in strategies else ():
        k = tm.kernel("split_k", **cfg.params())
        (a, b, _), = make_inputs((333, 277, 4097), "float32")
        c1, c2 = k(a, b), k(a, b)
        if not bool((c1.view(cp.int32) == c2.view(cp.int32)).all()):
            failures.append(("split_k", cfg.tag(), "not deterministic", None, ""))
    return failures


def host_overhead(name, n=2000, **params):
    """(host us per kernel() call, per matmul() call, GPU us per launch) at 64³; None when the call
    fails its check (it is then not timed)."""
    sets = make_inputs((64, 64, 64), "float32")
    a, b, c = sets[0]
    if name == "cupy":
        row, fn = cublas_row(STUDY), (lambda: cp.matmul(a, b, out=c))
    else:
        k = tm.kernel(name, **params)
        row, fn = Row(STUDY, name, lambda a, b, c: k(a, b, out=c)), (lambda: k(a, b, out=c))
    v = validate(row, sets)
    if v.rejected is not None:
        return None
    per_kernel = host_us_per_call(fn, n)
    gpu_us = time_validated(row, v, sets, None, repeat=50, budget_s=INF).median_ms * 1e3
    if name == "cupy":
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
        got = host_overhead(name, **params)
        record["overhead_us"][f"{name}{params or ''}"] = got
        if got is None:
            lines.append(f"host overhead 64^3 {name}{params or ''}: FAILED its check, not timed")
            continue
        us_kernel, us_matmul, gpu_us = got
        lines.append(f"host overhead 64^3 {name}{params or ''}: kernel() {us_kernel:.1f} us/call, "
                     f"matmul() {us_matmul:.1f} us/call; GPU {gpu_us:.1f} us/launch")

    shapes = [(4096, 4096, 4096), (8192, 8192, 8192), (3001, 2999, 3007), (2048, 2048, 2048),
              (1024, 1024, 1024), (256, 256, 65536), (512, 512, 16384), (4097, 4095, 1023)]
    if args.quick:
        shapes = shapes[:3]
    if args.shapes:
        shapes = parse_shapes(args.shapes)
    flush = L2Flusher()
    plan = dict(repeat=15, budget_s=1.0)  # slow configs at 8192³ get fewer repeats, never under 3
    table = []
    for M, N, K in shapes:
        sets = make_inputs((M, N, K), "float32")
        v_ref = validate(cublas_row(STUDY), sets)
        rows = [("cuBLAS", "", time_validated(cublas_row(STUDY), v_ref, sets, flush, **plan), "")]
        cands = [("register_blocked", tm.STRATEGIES["register_blocked"].default)]
        for n in strategies:
            if n != "split_k" or M * N <= 1024 * 1024:
                cands += [(n, c_) for c_ in configs(n)]
        rname, rparams = recommend(M, N, K)
        for name, cfg in cands:
            row = strategy_row(STUDY, name, cfg)
            v = validate(row, sets)
            rec = time_validated(row, v, sets, flush, **plan)
            err = "-" if v.report is None else f"{v.report.rel_err:.1e}/{v.report.cublas_rel_err:.1e}"
            mark = "*" if (name == rname and cfg == tm.STRATEGIES[rname].make_config(**rparams)) else ""
            rows.append((name, cfg.tag() + mark, rec, err))
        t_ref = rows[0][2].median_ms
        for name, tag, rec, err in rows:
            if not rec.ok:
                table.append(f"{M}x{N}x{K:<6} {name:>16} {rec.status.upper():>9} {rec.message}  {tag}")
                record["timings"].append(dict(shape=(M, N, K), strategy=name, config=tag, status=rec.status,
                                              message=rec.message, err=err))
                continue
            ratio = t_ref / rec.median_ms if t_ref else float("nan")
            table.append(f"{M}x{N}x{K:<6} {name:>16} {rec.median_ms:9.3f} {rec.tflops:7.2f} {ratio:6.3f} {err:>15}  {tag}")
            record["timings"].append(dict(shape=(M, N, K), strategy=name, config=tag, status=rec.status,
                                          ms=rec.median_ms, iqr_ms=rec.iqr_ms, tflops=rec.tflops, x_cublas=ratio,
                                          err=err))
        del sets
        cp.get_default_memory_pool().free_all_blocks()
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "fast_kernels.json"), "w") as f:
        json.dump(record, f, indent=1)
    print("\n".join(lines))
    print(f"{'shape':>18} {'strategy':>16} {'ms':>9} {'TFLOP/s':>7} {'xcuBLAS':>6} {'relerr/cuBLAS':>15}  config (* = heuristic pick)")
    print("\n".join(table))


if __name__ == "__main__":
    main()
