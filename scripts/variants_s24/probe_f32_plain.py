"""float32 calls that need the cp.async rungs (a batch of two products, or A read transposed in
place) on mid-size shapes: auto (dispatch.plain_choice, the MODEL_TILES rule), the heuristic's
plain_pick, and cuBLAS FP32 on the same call (twenty-fourth session).

    PYTHONPATH=. python3 scripts/variants_s24/probe_f32_plain.py

Each product is checked first (tm.check per matrix, NaN-poisoned output); timings alternate in 3
rounds (CUDA events after warm-up, L2 flushed, median of 7 a round).
"""
from __future__ import annotations

import math
import statistics

import cupy

import tiled_matmul as tm
from tiled_matmul.heuristic import plain_pick
from tiled_matmul.timing import L2Flusher, time_fn

SHAPES = [(1011, 1381, 2795), (727, 717, 7276), (3358, 291, 1498), (816, 1430, 1223), (499, 2766, 1229),
          (2536, 428, 361), (993, 1343, 7588), (347, 891, 1370), (1234, 532, 3706), (704, 742, 4019)]


def main() -> None:
    flush = L2Flusher()
    rng = cupy.random.default_rng(241)
    logs = {"auto": [], "plain_pick": []}
    for form in ("batch", "a_transposed"):
        for M, N, K in SHAPES:
            count = 2 if form == "batch" else 1
            a = rng.uniform(-1, 1, (count, M, K), dtype=cupy.float32)
            b = rng.uniform(-1, 1, (count, K, N), dtype=cupy.float32)
            if form == "a_transposed":
                a = cupy.ascontiguousarray(a.transpose(0, 2, 1)).transpose(0, 2, 1)
            c = cupy.full((count, M, N), cupy.nan, dtype=cupy.float32)
            name, params = plain_pick(M * count if form == "batch" else M, N, K, "float32", 132, "tf32x3")
            fns = {"cublas": lambda: cupy.matmul(a, b), "auto": lambda: tm.matmul(a, b, out=c),
                   "plain_pick": lambda: tm.matmul(a, b, out=c, strategy=name, **params)}
            ok = True
            for k in ("auto", "plain_pick"):
                c.fill(cupy.nan)
                fns[k]()
                ok &= all(tm.check(c[i], a[i], b[i]).passed for i in range(count))
            res = {k: [] for k in fns}
            for _ in range(3):
                for k, f in fns.items():
                    res[k].append(time_fn(lambda i, f=f: f(), repeat=7, warmup=2, flush=flush).median_ms)
            med = {k: statistics.median(v) for k, v in res.items()}
            auto = tm.kernel("auto").kernel_for(M * count if form == "batch" else M, N, K, "float32")
            for k in logs:
                logs[k].append(math.log(med["cublas"] / med[k]))
            print(f"{form:12s} {M}x{N}x{K}: cuBLAS {med['cublas'] * 1e3:7.1f} us, auto {med['cublas'] / med['auto']:.3f}, "
                  f"plain_pick {med['cublas'] / med['plain_pick']:.3f} ({name} {params}; auto's first pick "
                  f"{auto.strategy.name} {auto.config.params()}){'' if ok else ' CHECK FAILED'}", flush=True)
    for k, v in logs.items():
        print(f"{k}: geometric mean x cuBLAS {math.exp(statistics.fmean(v)):.3f} over {len(v)} calls (lowest {math.exp(min(v)):.2f})")


if __name__ == "__main__":
    main()
