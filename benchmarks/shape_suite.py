"""`auto` against cuBLAS over the public shape suite, float32 and float64, in one run.

    PYTHONPATH=. python3 benchmarks/shape_suite.py [--dtypes float32,float64] [--out DIR] [--json FILE]

For every shape of :data:`tiled_matmul.suite.PUBLIC_SUITE` and dtype: fresh [-1, 1) inputs, `auto`
and cuBLAS (``cupy.matmul``, TF32 off) each validated against a float64 reference (NaN-poisoned
output; a row that fails is not timed), then timed with CUDA events (median of 9 after warm-up, L2
flushed before each) in --rounds alternating rounds (default 3: auto, cuBLAS, auto, ...; the row
shows the medians of the rounds and the median of their ratios). Memory-bound rows (M or N <= 8) also show their bandwidth as a percentage of
a device-to-device copy of the same byte count (A, B and C once), timed the same way in the same
run. Prints a table per dtype with the geometric mean and the minimum of auto / cuBLAS, and writes
it as markdown to ``DIR/shape_suite.md`` when --out is given.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
from pathlib import Path

os.environ.setdefault("CUPY_TF32", "0")

import tiled_matmul as tm  # noqa: E402
from tiled_matmul.dispatch import choose  # noqa: E402
from tiled_matmul.dtypes import as_dtype  # noqa: E402
from tiled_matmul.measure import L2Flusher, auto_row, cublas_row, make_inputs, time_validated, validate  # noqa: E402
from tiled_matmul.suite import PUBLIC_SUITE, SUITE_DTYPES, is_memory_bound, min_bytes  # noqa: E402
from tiled_matmul.timing import time_fn  # noqa: E402

STUDY = "shape_suite"
PLAN = dict(repeat=9, budget_s=float("inf"))


def copy_ms(nbytes: int, flush: L2Flusher) -> float:
    """Median time of a device-to-device copy of `nbytes` bytes (CUDA events, L2 flushed)."""
    import cupy as cp

    src = cp.empty(nbytes, dtype=cp.uint8)
    dst = cp.empty_like(src)
    return time_fn(lambda i: dst.data.copy_from_device_async(src.data, nbytes), repeat=9, warmup=2, flush=flush).median_ms


def measure_shape(cls: str, shape, dtype: str, flush: L2Flusher, rounds: int = 1) -> dict:
    """One suite row: auto and cuBLAS validated, then timed in `rounds` alternating rounds (auto,
    then cuBLAS, PLAN's repeats each); times are the medians of the rounds' medians and the ratio
    the median of the rounds' ratios, so both sides meet the same clocks (a heavy shape just
    before leaves the GPU hotter for whichever runs first)."""
    sets = make_inputs(shape, dtype)
    va, vc = validate(auto_row(STUDY), sets), validate(cublas_row(STUDY), sets)
    autos, cubs = [], []
    for _ in range(max(1, rounds)):
        autos.append(time_validated(auto_row(STUDY), va, sets, flush, **PLAN))
        cubs.append(time_validated(cublas_row(STUDY), vc, sets, flush, **PLAN))
    del sets
    auto, cub = autos[0], cubs[0]
    ok = auto.ok and cub.ok
    auto_ms = statistics.median(r.median_ms for r in autos) if auto.ok else auto.median_ms
    cublas_ms = statistics.median(r.median_ms for r in cubs) if cub.ok else cub.median_ms
    c = choose(*shape, dtype)
    row = dict(cls=cls, shape=list(shape), dtype=dtype, strategy=c.strategy, params=c.params, source=c.source,
               auto_ms=auto_ms, cublas_ms=cublas_ms, auto_status=auto.status, message=auto.message,
               ratio=statistics.median(b.median_ms / a.median_ms for a, b in zip(autos, cubs)) if ok else None,
               tflops=2 * math.prod(shape) / (auto_ms * 1e-3) / 1e12 if auto.ok and auto_ms else auto.tflops,
               gbs=None, pct_copy=None, copy_gbs=None, rounds=len(autos))
    if is_memory_bound(shape) and auto.ok:
        nbytes = min_bytes(shape, as_dtype(dtype).itemsize)  # 2 for the 16-bit types
        t_copy = copy_ms(nbytes, flush)
        row["gbs"] = nbytes / auto_ms / 1e6
        row["copy_gbs"] = 2 * nbytes / t_copy / 1e6  # a copy reads and writes nbytes
        row["pct_copy"] = 100 * row["gbs"] / row["copy_gbs"]
    return row


def table(rows: list[dict], dtype: str) -> str:
    out = [f"### {dtype}", "",
           "| class | shape | auto's pick | auto ms | cuBLAS ms | × cuBLAS | TF/s | GB/s | % of copy |",
           "|---|---|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        M, N, K = r["shape"]
        pick = r["strategy"] + ("" if not r["params"] else " " + " ".join(f"{k}={v}" for k, v in r["params"].items()))
        f = (lambda v, spec: "–" if v is None else format(v, spec))
        out.append(f"| {r['cls']} | {M}×{N}×{K} | {pick} | {f(r['auto_ms'], '.4f')} | {f(r['cublas_ms'], '.4f')} | "
                   f"{f(r['ratio'], '.2f')} | {f(r['tflops'], '.1f')} | {f(r['gbs'], '.0f')} | {f(r['pct_copy'], '.0f')} |"
                   + ("" if r["auto_status"] == "ok" else f" {r['auto_status']}: {r['message']}"))
    ratios = [r["ratio"] for r in rows if r["ratio"] is not None]
    if ratios:
        gm = math.exp(sum(map(math.log, ratios)) / len(ratios))
        out += ["", f"Geometric mean × cuBLAS: **{gm:.2f}** over {len(ratios)} shapes; lowest {min(ratios):.2f}; "
                    f"{sum(r['auto_status'] != 'ok' for r in rows)} not timed (failed check or error)."]
    return "\n".join(out) + "\n"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dtypes", default=",".join(SUITE_DTYPES))
    p.add_argument("--classes", default="",
                   help="suite classes by the start of their names, ';'-separated (class names hold commas: "
                        "'long K;small'); default: all")
    p.add_argument("--out", default="", help="folder for shape_suite.md")
    p.add_argument("--json", default="")
    p.add_argument("--rounds", type=int, default=3,
                   help="alternating rounds of auto and cuBLAS per row (1: auto's repeats, then cuBLAS's)")
    args = p.parse_args()
    if not tm.gpu_available():
        print("shape_suite: needs a CUDA GPU (cupy.is_available() is False)", file=sys.stderr)
        return 2
    wanted = [w.strip() for w in args.classes.split(";") if w.strip()]
    classes = [c for c in PUBLIC_SUITE if any(c.startswith(w) for w in wanted)] if wanted else list(PUBLIC_SUITE)
    if wanted and not classes:
        p.error(f"--classes {args.classes!r} names none of the suite's classes: {list(PUBLIC_SUITE)}")
    flush = L2Flusher()
    rows = [measure_shape(cls, shape, dt, flush, args.rounds)
            for dt in args.dtypes.split(",") for cls in classes for shape in PUBLIC_SUITE[cls]]
    text = (f"GPU: {tm.device_limits().name}; cuBLAS with TF32 off; {args.rounds} alternating rounds per row; "
            f"`PYTHONPATH=. python3 benchmarks/shape_suite.py --rounds {args.rounds}`\n\n"
            + "\n".join(table([r for r in rows if r["dtype"] == dt], dt) for dt in args.dtypes.split(",")))
    print(text)
    if args.out:
        Path(args.out).mkdir(parents=True, exist_ok=True)
        (Path(args.out) / "shape_suite.md").write_text(text)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 1 if any(r["auto_status"] != "ok" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
