"""The shipped cost model's first TOP candidates (float64 unless --dtype) and the edge-term model's first 3
(cm_model.patch applied to costmodel.py, loaded over the module in this process only), timed beside auto and cuBLAS (twenty-fourth session).

    PYTHONPATH=. python3 scripts/variants_s24/probe_edge_picks.py (SEED COUNT | MxNxK ...) [--top 8] [--rounds 2]

Shapes: variants_s21/probe_f64_random.py's "odd" draw for SEED, or the listed ones. Each product is
checked first (tm.check, NaN-poisoned output); timings alternate in rounds (CUDA events after
warm-up, L2 flushed, median of 7 a round). One JSON line per (shape, candidate): strategy, params,
ms, the shipped model's rank and the edge model's rank; cuBLAS and auto as strategies "cublas",
"auto"; then per shape a line comparing the two models' first picks.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import cupy

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent / "variants_s21"))
from probe_f64_random import shapes  # noqa: E402

import tiled_matmul as tm  # noqa: E402
from tiled_matmul import costmodel, dispatch  # noqa: E402
from tiled_matmul.timing import L2Flusher, time_fn  # noqa: E402


def edge_predict():
    """costmodel.predict with cm_model.patch applied (patched into a temporary file, executed over
    a copy of the module's namespace)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "costmodel_edge.py"
        subprocess.run(["patch", "-s", "-o", str(out), costmodel.__file__, str(HERE / "cm_model.patch")], check=True)
        ns = dict(costmodel.__dict__)
        exec(compile(out.read_text(), str(out), "exec"), ns)
    return ns["predict"]


def key(cfg):
    return (cfg.STRATEGY, tuple(sorted(cfg.params.items())) if hasattr(cfg, "params") else repr(cfg))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("what", nargs="+")
    ap.add_argument("--top", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--dtype", default="float64")
    args = ap.parse_args()
    if "x" in args.what[0]:
        todo = [tuple(int(v) for v in s.split("x")) for s in args.what]
    else:
        todo = shapes(int(args.what[0]), int(args.what[1]), True)
    new_predict = edge_predict()
    dt = args.dtype
    flush = L2Flusher()
    rng = cupy.random.default_rng(24)
    eff = dispatch.measured_efficiencies()
    for M, N, K in todo:
        old = costmodel.rank(M, N, K, dt, efficiencies=eff)
        cands = costmodel.candidate_configs(M, N, K, dt)
        new = sorted(cands, key=lambda c: new_predict(c, M, N, K, dt, efficiencies=eff).ms)
        picks = {}
        for i, p in enumerate(old[:args.top]):
            picks.setdefault((p.strategy, json.dumps(p.params, sort_keys=True)), {"old": i})
        old_keys = [(p.strategy, json.dumps(p.params, sort_keys=True)) for p in old]
        new_keys = []
        for c in new:
            p = costmodel.predict(c, M, N, K, dt, efficiencies=eff)
            k = (p.strategy, json.dumps(p.params, sort_keys=True))
            if k not in new_keys:
                new_keys.append(k)
            if len(new_keys) == 3:
                break
        for i, k in enumerate(new_keys):
            picks.setdefault(k, {})["new"] = i
        a, b = rng.standard_normal((M, K), dtype=dt), rng.standard_normal((K, N), dtype=dt)
        c = cupy.full((M, N), cupy.nan, dtype=dt)
        fns = {"cublas": lambda: cupy.matmul(a, b), "auto": lambda: tm.matmul(a, b, out=c)}
        for (s, pj) in picks:
            params = json.loads(pj)
            c.fill(cupy.nan)
            tm.matmul(a, b, out=c, strategy=s, **params)
            if not tm.check(c, a, b).passed:
                print(json.dumps({"shape": [M, N, K], "strategy": s, "params": params, "failed": True}), flush=True)
                continue
            fns[(s, pj)] = (lambda s=s, params=params: tm.matmul(a, b, out=c, strategy=s, **params))
        res = {k: [] for k in fns}
        for _ in range(args.rounds):
            for k, f in fns.items():
                res[k].append(time_fn(lambda i, f=f: f(), repeat=7, warmup=2, flush=flush).median_ms)
        med = {k: statistics.median(v) for k, v in res.items()}
        for k, ms in med.items():
            row = {"shape": [M, N, K], "dtype": dt, "ms": ms}
            if isinstance(k, tuple):
                row.update(strategy=k[0], params=json.loads(k[1]), old_rank=picks[k].get("old"),
                           new_rank=picks[k].get("new"), old_global=old_keys.index(k) if k in old_keys else None)
            else:
                row["strategy"] = k
            print(json.dumps(row), flush=True)
        timed = {k: v for k, v in med.items() if isinstance(k, tuple)}
        best = min(timed.values())
        o, n = old_keys[0], new_keys[0]
        print(f"# {M}x{N}x{K} cuBLAS {med['cublas'] * 1e3:.1f} us: auto {med['cublas'] / med['auto']:.3f}, "
              f"old pick {med['cublas'] / timed[o]:.3f}, new pick {med['cublas'] / timed[n]:.3f}, "
              f"best {med['cublas'] / best:.3f} ({min(timed, key=timed.get)[0]} {min(timed, key=timed.get)[1]})"
              if o in timed and n in timed else f"# {M}x{N}x{K}: a pick failed", flush=True)


if __name__ == "__main__":
    main()
