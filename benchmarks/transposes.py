"""Transposed operands read in place: a.T @ b, a @ b.T and a.T @ b.T against the contiguous product.

    PYTHONPATH=. python3 benchmarks/transposes.py [--n 4096] [--repeat 20] [--strategies auto,wgmma,...]

For float32 and float64 at n³ (default 4096³): the contiguous ``tm.matmul(a, b)``, then each
transposed form of the same values (column-major copies made once, outside the timing: ``.T`` of a
C-ordered array), by ``auto`` and by each named strategy that computes the dtype, and
``cupy.matmul`` on the very same operands in the same run. Every row is validated first
(NaN-poisoned output against a float64 reference of the same operands: per-element error over
|A|·|B| within 2 tm.tolerance), and the general path must read the operands in place (the kernel
receives the callers' pointers, no layout copy counted: tiled_matmul.execute's hooks; a.T @ b.T
runs as (Bᵀ Aᵀ)ᵀ, whose pointers are b's and a's). Timing: CUDA events after warm-up, L2 flushed
before every repeat (tiled_matmul.measure), medians. The issue's target: each transposed form
within 10% of the contiguous time (tm ratio <= 1.10). "copy + tm" times what reading in place
replaces (cupy.ascontiguousarray of each operand, then the plain product), for comparison.

A table is printed last; with $OUT set it is also written to $OUT/transposes.md. Exit status 1 when
a row fails its check or copies an operand it should read in place.
"""

from __future__ import annotations

import argparse
import os
import sys

os.environ.setdefault("CUPY_TF32", "0")

import cupy as cp  # noqa: E402
import numpy as np  # noqa: E402

import tiled_matmul as tm  # noqa: E402
from tiled_matmul import execute  # noqa: E402
from tiled_matmul.measure import L2Flusher, emit_markdown, time_fn  # noqa: E402


def rand(shape, dtype, seed):
    return cp.asarray(np.random.default_rng(seed).uniform(-1, 1, shape).astype(dtype))


def check(got, a, b):
    """(ok, worst): per-element |got - ref| / (|A|·|B|) within 2 tm.tolerance, no NaN."""
    a64, b64 = a.astype(cp.float64), b.astype(cp.float64)
    err = cp.abs(got.astype(cp.float64) - cp.matmul(a64, b64)) / (cp.matmul(cp.abs(a64), cp.abs(b64)) + 1e-30)
    worst = float(err.max()) if err.size else 0.0
    return worst <= 2 * tm.tolerance(got.dtype, a.shape[-1]) and not bool(cp.isnan(got).any()), worst


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=4096)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--strategies", default="auto,wgmma,tensor_core,dmma",
                    help="comma-separated: auto and/or strategy names (each runs the dtypes it computes)")
    args = ap.parse_args()
    flush = L2Flusher()
    n = args.n
    failed = False
    lines = ["| dtype | strategy | product | tm ms | tm contiguous ms | tm ratio | copy + tm ms | "
             "cupy.matmul ms (same operands) | cupy / tm | in place | check (max err) |",
             "|---|---|---|---:|---:|---:|---:|---:|---:|---|---|"]

    def timed(fn):
        return time_fn(lambda i: fn(), repeat=args.repeat, warmup=3, flush=flush).median_ms

    for dtype in (np.float32, np.float64):
        a, b = rand((n, n), dtype, 1), rand((n, n), dtype, 2)
        # the same values stored column-major: x.T of a C-ordered array
        a_cm, b_cm = cp.ascontiguousarray(a.T).T, cp.ascontiguousarray(b.T).T
        forms = [("a @ b", a, b), ("a.T @ b", a_cm, b), ("a @ b.T", a, b_cm), ("a.T @ b.T", a_cm, b_cm)]
        out = cp.empty((n, n), dtype)
        for strategy in args.strategies.split(","):
            if strategy != "auto" and not tm.STRATEGIES[strategy].supports(np.dtype(dtype).name):
                continue
            contiguous = None
            for label, x, y in forms:
                seen = []
                execute.launch_hook = lambda *hook_args: seen.append(hook_args)
                execute.layout_copies_made.clear()
                got = tm.matmul(x, y, strategy=strategy)
                execute.launch_hook = None
                ok, worst = check(got, x, y)
                copies = sum(execute.layout_copies_made.values())
                if label == "a @ b":
                    in_place = "plain path"
                elif label == "a.T @ b.T":
                    in_place = "yes" if seen and seen[0][0] == y.data.ptr and seen[0][1] == x.data.ptr else "NO"
                else:
                    in_place = "yes" if seen and seen[0][0] == x.data.ptr and seen[0][1] == y.data.ptr else (
                        f"copied ({copies})")
                # a rung must read the layouts it declares in place (a.T @ b.T: every rung, swapped)
                pair = (label.startswith("a.T"), label.endswith("b.T"))
                should = label == "a.T @ b.T" or (strategy != "auto" and pair in tm.STRATEGIES[strategy].config_cls.LAYOUTS)
                bad_copy = label != "a @ b" and should and in_place != "yes"
                failed |= (not ok) or bad_copy
                ours = timed(lambda: tm.matmul(x, y, strategy=strategy))
                if contiguous is None:
                    contiguous = ours
                base = timed(lambda: cp.matmul(x, y, out=out))
                # what reading in place replaces: copy the transposed operands, then the plain product
                copied = timed(lambda: tm.matmul(cp.ascontiguousarray(x), cp.ascontiguousarray(y), strategy=strategy))
                name = np.dtype(dtype).name
                lines.append(f"| {name} | {strategy} | {label} | {ours:.3f} | {contiguous:.3f} | {ours / contiguous:.3f} | "
                             f"{copied:.3f} | {base:.3f} | {base / ours:.2f} | {in_place} | "
                             f"{'ok' if ok else 'FAILED'} ({worst:.1e}) |")
                print(lines[-1], flush=True)
    dev = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)["name"].decode()
    text = (f"## transposes on {dev}, {n}³, medians of {args.repeat} (CUDA events, L2 flushed)\n\n"
            + "\n".join(lines) + "\n")
    emit_markdown(text, "transposes.md")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
