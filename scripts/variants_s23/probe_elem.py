"""The misaligned-operand (elem) kernels' cost against the aligned kernels of the same configs
(twenty-third session): for float64 shapes with an odd N or K, each of the cost model's first TOP
candidates is timed on the shape and on its even neighbour (N and K rounded up to even, where the
main or edge kernel runs), beside cuBLAS and auto on the odd shape.

    PYTHONPATH=. python3 scripts/variants_s23/probe_elem.py SEED COUNT [TOP] [ROUNDS] > out.txt

Shapes: variants_s21/probe_f64_random.py's "odd" draw for SEED. Each product is checked first
(tm.check, NaN-poisoned output); timings alternate in rounds (CUDA events after warm-up, L2
flushed, median of 7 a round). Prints one JSON line per (shape, candidate): strategy, params,
odd_ms, even_ms, and per shape cuBLAS's and auto's odd_ms (strategy "cublas", "auto").
"""
from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

import cupy

sys.path.insert(0, str(Path(__file__).parents[1] / "variants_s21"))
from probe_f64_random import shapes  # noqa: E402

import tiled_matmul as tm  # noqa: E402
from tiled_matmul import costmodel, dispatch  # noqa: E402
from tiled_matmul.timing import L2Flusher, time_fn  # noqa: E402


def main() -> None:
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    flush = L2Flusher()
    rng = cupy.random.default_rng(seed)
    eff = dispatch.measured_efficiencies()
    for M, N, K in shapes(seed, count, True):
        Ne, Ke = N + N % 2, K + K % 2
        a, b = rng.standard_normal((M, K)), rng.standard_normal((K, N))
        ae, be = rng.standard_normal((M, Ke)), rng.standard_normal((Ke, Ne))
        c, ce = cupy.full((M, N), cupy.nan), cupy.full((M, Ne), cupy.nan)
        fns = {("cublas", "odd"): lambda: cupy.matmul(a, b), ("auto", "odd"): lambda: tm.matmul(a, b, out=c)}
        preds = costmodel.rank(M, N, K, "float64", efficiencies=eff)[:top]
        for i, p in enumerate(preds):
            ok = True
            for x, y, out in ((a, b, c), (ae, be, ce)):
                out.fill(cupy.nan)
                tm.matmul(x, y, out=out, strategy=p.strategy, **p.params)
                ok &= tm.check(out, x, y).passed
            if not ok:
                print(json.dumps({"shape": [M, N, K], "strategy": p.strategy, "params": p.params, "failed": True}))
                continue
            fns[(i, "odd")] = (lambda p=p: tm.matmul(a, b, out=c, strategy=p.strategy, **p.params))
            fns[(i, "even")] = (lambda p=p: tm.matmul(ae, be, out=ce, strategy=p.strategy, **p.params))
        res = {k: [] for k in fns}
        for _ in range(rounds):
            for k, f in fns.items():
                res[k].append(time_fn(lambda i, f=f: f(), repeat=7, warmup=2, flush=flush).median_ms)
        med = {k: statistics.median(v) for k, v in res.items()}
        for name in ("cublas", "auto"):
            print(json.dumps({"shape": [M, N, K], "strategy": name, "odd_ms": med[(name, "odd")]}))
        for i, p in enumerate(preds):
            if (i, "odd") in med:
                print(json.dumps({"shape": [M, N, K], "strategy": p.strategy, "params": p.params, "rank": i,
                                  "odd_ms": med[(i, "odd")], "even_ms": med[(i, "even")]}), flush=True)


if __name__ == "__main__":
    main()
