"""gemv_xb_tma with B read folded (rows of B not 16-byte multiples: 2 or 4 rows to a row of the
tensor map) against auto's pick, which keeps such products off the rung, and cuBLAS FP32, beside a
device copy of the product's bytes (twenty-fifth session).

    PYTHONPATH=. python3 scripts/variants_s25/probe_fold.py [--seed S --count N] [--heldout]

Without --count: a fixed list (LM heads, decode-like and skinny shapes with ragged N); with it,
N random x·B shapes from `--seed` with M in 1..32 and ragged N. The rung's params are the
heuristic's for the aligned neighbour (N and K rounded down to multiples of 4). With --heldout
(after heuristic.XB_TMA_RAGGED_MIN_N shipped): random ragged shapes where auto now takes the
rung (M in --rows, N from --min-n), auto now against auto with ragged rows kept off the rung as
before. Each call is
checked first (tm.check, NaN-poisoned output); 3 alternating rounds, CUDA events after warm-up,
L2 flushed, medians.
"""
from __future__ import annotations

import argparse
import math

import cupy
import numpy as np

import tiled_matmul as tm
from tiled_matmul import heuristic
from tiled_matmul.dtypes import as_dtype
from tiled_matmul.timing import L2Flusher

from _pair import choose_patched, print_means, time_pair  # noqa: E402

SHAPES = [(17, 3287, 12617), (28, 3384, 6031), (31, 12329, 5807), (1, 50257, 4096), (4, 50257, 4096),
          (8, 32001, 4096), (16, 50257, 4096), (1, 4097, 16384), (2, 8191, 8192), (8, 8190, 8192),
          (12, 6001, 5000), (24, 3001, 7001), (9, 10001, 3001), (32, 4999, 4096), (1, 3001, 1000),
          (5, 2001, 3001)]


def rung_params(M: int, N: int, K: int) -> "dict | None":
    n4, k4 = N // 4 * 4, max(4, K // 4 * 4)
    pick = heuristic._xb_tma(M, n4, k4, 132) if M <= heuristic.GEMV_MAX else heuristic._skinny_chunks(M, n4, k4, 132, True)
    return dict(pick[1]) if pick and pick[0] == "gemv_xb_tma" else None


def draw(rs: np.random.Generator, count: int) -> list:
    out = []
    while len(out) < count:
        M = int(rs.integers(1, 33))
        N = int(math.exp(rs.uniform(math.log(1000), math.log(60000))))
        K = int(math.exp(rs.uniform(math.log(512), math.log(20000))))
        if N % 4 and M * N * K < 2**33 and rung_params(M, N, K) is not None:
            out.append((M, N, K))
    return out


def pick_before(M: int, N: int, K: int):
    """auto's pick with ragged rows kept off gemv_xb_tma (as before XB_TMA_RAGGED_MIN_N)."""
    return choose_patched(M, N, K, XB_TMA_RAGGED_MIN_N=2**62)


def heldout(rs: np.random.Generator, count: int, flush, rows: tuple = (1, 16), min_n: int = 1024) -> None:
    from tiled_matmul import dispatch

    logs: dict = {}
    print("| shape | cuBLAS µs | now × cuBLAS | before × cuBLAS | now / before | now % copy | now | before |")
    print("|---|---:|---:|---:|---:|---:|---|---|")
    done = 0
    while done < count:
        M = int(rs.integers(rows[0], rows[1] + 1))
        N = int(math.exp(rs.uniform(math.log(min_n), math.log(60000))))
        K = int(math.exp(rs.uniform(math.log(256), math.log(20000))))
        now = dispatch.choose(M, N, K, "float32")
        if N % 4 == 0 or now.strategy != "gemv_xb_tma" or M * N * K > 2**33:
            continue
        done += 1
        before = pick_before(M, N, K)
        a = cupy.asarray(rs.uniform(-1, 1, (M, K)), dtype=cupy.float32)
        b = cupy.asarray(rs.uniform(-1, 1, (K, N)), dtype=cupy.float32)
        c = cupy.empty((M, N), dtype=cupy.float32)
        t = time_pair(a, b, c, {"now": lambda: tm.matmul(a, b, out=c),
                                "before": lambda: tm.matmul(a, b, out=c, strategy=before.strategy, **before.params)},
                      flush)
        for k in ("now", "before"):
            logs.setdefault(k, []).append(math.log(t["x"][k]))
        print(f"| {M}×{N}×{K} | {t['cublas_us']:.1f} | {t['x']['now']:.3f} | {t['x']['before']:.3f} | "
              f"{t['first_over_second']:.3f} | {t['pct']['now']:.1f} | {now.strategy} {now.params} | "
              f"{before.strategy} {before.params} |{'' if t['ok'] else ' CHECK FAILED'}", flush=True)
    print_means(logs)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=2503)
    ap.add_argument("--count", type=int, default=0)
    ap.add_argument("--heldout", action="store_true")
    ap.add_argument("--rows", type=int, nargs=2, default=(1, 16), help="--heldout: M drawn from this range")
    ap.add_argument("--min-n", type=int, default=1024, help="--heldout: N drawn from here to 60000")
    args = ap.parse_args()
    rs = np.random.default_rng(args.seed)
    flush = L2Flusher()
    if args.heldout:
        heldout(rs, args.count or 24, flush, tuple(args.rows), args.min_n)
        return
    shapes = draw(rs, args.count) if args.count else SHAPES
    logs: dict = {}
    dt = as_dtype("float32")
    print("| shape | cuBLAS µs | fold × cuBLAS | auto × cuBLAS | fold / auto | fold % copy | auto % copy | rung params (fold) | auto's pick |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---|")
    for M, N, K in shapes:
        params = rung_params(M, N, K)
        if params is None:
            print(f"<!-- {M}x{N}x{K}: no gemv_xb_tma params for its aligned neighbour -->")
            continue
        a = cupy.asarray(rs.uniform(-1, 1, (M, K)), dtype=cupy.float32)
        b = cupy.asarray(rs.uniform(-1, 1, (K, N)), dtype=cupy.float32)
        c = cupy.empty((M, N), dtype=cupy.float32)
        auto = tm.kernel("auto").kernel_for(M, N, K, "float32")
        fold = tm.STRATEGIES["gemv_xb_tma"].make_config(**params).fold(dt, K, N, b.data.ptr, N)
        t = time_pair(a, b, c, {"fold": lambda: tm.matmul(a, b, out=c, strategy="gemv_xb_tma", **params),
                                "auto": lambda: tm.matmul(a, b, out=c)}, flush)
        for k in ("fold", "auto"):
            logs.setdefault(k, []).append(math.log(t["x"][k]))
        print(f"| {M}×{N}×{K} | {t['cublas_us']:.1f} | {t['x']['fold']:.3f} | {t['x']['auto']:.3f} | "
              f"{t['first_over_second']:.3f} | {t['pct']['fold']:.1f} | {t['pct']['auto']:.1f} | "
              f"{params} ({fold}) | {auto.strategy.name} {auto.config.params()} |{'' if t['ok'] else ' CHECK FAILED'}",
              flush=True)
    print_means(logs)

if __name__ == "__main__":
    main()
