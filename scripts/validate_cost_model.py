"""The cost model against the GPU: its top picks, the current dispatcher's and the heuristic's, timed.

    PYTHONPATH=. python3 scripts/validate_cost_model.py [--out $OUT] [--quick]
        [--shapes 1001x1001x1001:float64,...] [--top N]

For each shape (the public suite's classes and shapes off it, float32 and a few float64), times
the cost model's three fastest predicted candidates (:func:`tiled_matmul.costmodel.rank`, with the
efficiencies in the tuning databases), the current dispatcher's pick (``dispatch.choose``: tuned
entry, else the hand heuristic), the heuristic's own pick and ``cupy.matmul`` (TF32 off), each
validated against a float64 reference first and timed like the tuner (bare launch, CUDA events,
L2 flushed, median). Prints predicted against measured per candidate, then per shape whether the
model's first pick is within 10% of the best timed candidate, and the totals: how often the model's
pick, the dispatcher's and the heuristic's are within 10% of the best, their geometric mean over
the best, and the model's pick against cuBLAS. With --out, writes cost_model.json and
cost_model.md there, and --save-efficiency DB writes the efficiencies these timings show into a
tuning database (as the tuner would).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("CUPY_TF32", "0")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import tiled_matmul as tm  # noqa: E402
from tiled_matmul import costmodel, dispatch, registry, tunedb  # noqa: E402
from tiled_matmul.heuristic import recommend  # noqa: E402
from tiled_matmul.measure import L2Flusher, cublas_row, make_inputs, measure  # noqa: E402
from tiled_matmul.tuner import efficiency_samples, measure_candidate  # noqa: E402

#: (shape, dtype): suite shapes of every class, then shapes off the suite (ragged, odd aspect,
#: between the classes), so the check is not of the shapes the defaults were calibrated on
SHAPES = [
    ((4096, 4096, 4096), "float32"), ((1024, 1024, 1024), "float32"), ((3001, 2999, 3007), "float32"),
    ((16384, 64, 4096), "float32"), ((512, 512, 512), "float32"), ((1, 8192, 8192), "float32"),
    ((8, 8192, 8192), "float32"), ((64, 8192, 8192), "float32"), ((64, 64, 65536), "float32"),
    ((1024, 32, 32768), "float32"), ((8192, 8192, 8), "float32"),
    # off the suite
    ((2500, 3500, 1500), "float32"), ((6000, 1000, 700), "float32"), ((12, 4096, 11008), "float32"),
    ((4096, 16, 4096), "float32"), ((96, 2048, 2048), "float32"), ((300, 300, 30000), "float32"),
    ((1536, 1536, 96), "float32"), ((200, 7000, 200), "float32"), ((777, 555, 333), "float32"),
    # float64
    ((4096, 4096, 4096), "float64"), ((768, 768, 768), "float64"), ((8192, 1, 8192), "float64"),
    ((256, 256, 131072), "float64"), ((1000, 3000, 5000), "float64"), ((48, 4096, 4096), "float64"),
]
QUICK = [SHAPES[i] for i in (0, 2, 4, 5, 8, 11, 13, 16, 20, 23)]


def _label(strategy: str, params: dict) -> str:
    default = registry.get(strategy).default.params()
    own = " ".join(f"{k}={v}" for k, v in params.items() if default.get(k) != v)
    return f"{strategy} {own}".strip()


def run_shape(shape, dt: str, plan: dict, top: int = 3) -> dict:
    """Time the model's `top` picks, the dispatcher's, the heuristic's and cuBLAS at one shape."""
    import cupy

    M, N, K = shape
    limits = tm.device_limits()
    eff = dispatch.measured_efficiencies()
    ranked = costmodel.rank(M, N, K, dt, "auto", limits, eff)
    by_key = {(p.strategy, tuple(sorted(p.params.items()))): p for p in ranked}
    roles: dict = {}

    def add(role: str, strategy: str, params: dict) -> None:
        cfg = registry.get(strategy).make_config(**params)
        key = (strategy, tuple(sorted(cfg.params().items())))
        roles.setdefault(key, []).append(role)

    seen = 0
    for p in ranked:
        if seen == top:
            break
        key = (p.strategy, tuple(sorted(p.params.items())))
        if key not in roles:
            add(f"model#{seen + 1}", p.strategy, p.params)
            seen += 1
    choice = dispatch.choose(M, N, K, dt)
    add(f"dispatch ({choice.source})", choice.strategy, choice.params)
    hopper = str(limits.compute_capability) == "90"
    h = recommend(M, N, K, dt, sms=limits.sm_count, wgmma=hopper, dmma=hopper)
    add("heuristic", h[0], h[1])

    sets = make_inputs((M, N, K), dt)
    flush = L2Flusher()
    rows = []
    for key, role in roles.items():
        strategy, params = key[0], dict(key[1])
        cfg = registry.get(strategy).make_config(**params)
        pred = by_key.get(key) or costmodel.predict(cfg, M, N, K, dt, limits, eff)
        rec = measure_candidate(strategy, cfg, sets, flush, plan=plan)
        rows.append({"roles": role, "strategy": strategy, "params": params, "label": _label(strategy, params),
                     "predicted_ms": pred.ms, "bound": pred.bound, "measured_ms": rec.median_ms if rec.ok else None,
                     "status": rec.status, "message": rec.message[:120], "record": rec})
    cublas = measure(cublas_row("validate"), sets, flush, **plan)
    del sets, flush
    cupy.get_default_memory_pool().free_all_blocks()
    timed = [r["measured_ms"] for r in rows if r["measured_ms"]]
    best = min(timed) if timed else None

    def of(prefix):
        hit = [r for r in rows if any(x.startswith(prefix) for x in r["roles"])]
        return hit[0]["measured_ms"] if hit and hit[0]["measured_ms"] else None

    out = {"shape": list(shape), "dtype": dt, "best_ms": best, "cublas_ms": cublas.median_ms if cublas.ok else None,
           "model_ms": of("model#1"), "dispatch_ms": of("dispatch"), "heuristic_ms": of("heuristic"),
           "efficiency": efficiency_samples([r["record"] for r in rows], shape, dt),
           "rows": [{k: v for k, v in r.items() if k != "record"} for r in rows]}
    return out


def _ratio(x, best):
    return x / best if x and best else None


def report(results: list[dict]) -> str:
    lines = ["| shape | dtype | candidate | role | predicted ms | measured ms | × best | bound |",
             "|---|---|---|---|---:|---:|---:|---|"]
    for r in results:
        shape = "×".join(map(str, r["shape"]))
        for row in sorted(r["rows"], key=lambda x: x["predicted_ms"]):
            m = row["measured_ms"]
            lines.append(f"| {shape} | {r['dtype']} | {row['label']} | {', '.join(row['roles'])} | "
                         f"{row['predicted_ms']:.4f} | {'%.4f' % m if m else row['status']} | "
                         f"{'%.3f' % (m / r['best_ms']) if m and r['best_ms'] else '–'} | {row['bound']} |")
        cub = r["cublas_ms"]
        lines.append(f"| {shape} | {r['dtype']} | cupy.matmul |  |  | {'%.4f' % cub if cub else '–'} | "
                     f"{'%.3f' % (cub / r['best_ms']) if cub and r['best_ms'] else '–'} |  |")
    lines += ["", "| shape | dtype | model ×best | dispatch ×best | heuristic ×best | model within 10% | model ×cuBLAS |",
              "|---|---|---:|---:|---:|---|---:|"]
    tot = {"model": [], "dispatch": [], "heuristic": []}
    for r in results:
        vals = {k: _ratio(r[f"{k}_ms"], r["best_ms"]) for k in tot}
        for k, v in vals.items():
            if v:
                tot[k].append(v)
        vs = r["cublas_ms"] / r["model_ms"] if r["cublas_ms"] and r["model_ms"] else None
        lines.append(f"| {'×'.join(map(str, r['shape']))} | {r['dtype']} | "
                     + " | ".join("%.3f" % v if v else "–" for v in vals.values())
                     + f" | {'yes' if vals['model'] and vals['model'] <= 1.10 else 'NO'} | {'%.2f' % vs if vs else '–'} |")
    lines.append("")
    for k, v in tot.items():
        if v:
            within = sum(x <= 1.10 for x in v)
            geo = math.exp(sum(map(math.log, v)) / len(v))
            lines.append(f"- {k}: within 10% of the best on **{within}/{len(v)}** shapes, geometric mean "
                         f"{geo:.3f}× the best, worst {max(v):.3f}×")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=None, help="folder for cost_model.json and cost_model.md")
    ap.add_argument("--quick", action="store_true", help=f"{len(QUICK)} shapes instead of {len(SHAPES)}")
    ap.add_argument("--shapes", default=None, metavar="MxNxK:DTYPE,...",
                    help="these shapes instead of the built-in list (dtype float32 unless given)")
    ap.add_argument("--top", type=int, default=3, help="the model's fastest predicted candidates to time")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--budget-ms", type=float, default=150.0)
    ap.add_argument("--save-efficiency", default=None, metavar="DB",
                    help="merge the efficiencies these timings show into this tuning database file")
    args = ap.parse_args(argv)
    if not tm.gpu_available():
        print("validate_cost_model: no CUDA device (cupy.is_available() is False)", file=sys.stderr)
        return 2
    plan = dict(repeat=args.repeat, budget_s=args.budget_ms / 1e3, warmup=2)
    results = []
    t0 = time.perf_counter()
    shapes = QUICK if args.quick else SHAPES
    if args.shapes:
        shapes = []
        for item in args.shapes.split(","):
            dims, _, dt = item.partition(":")
            shapes.append((tuple(int(x) for x in dims.split("x")), dt or "float32"))
    for shape, dt in shapes:
        r = run_shape(shape, dt, plan, top=args.top)
        results.append(r)
        print(f"{'x'.join(map(str, shape)):>18} {dt}: model {r['model_ms']} dispatch {r['dispatch_ms']} "
              f"best {r['best_ms']} cuBLAS {r['cublas_ms']}  ({time.perf_counter() - t0:.0f} s)", flush=True)
    text = report(results)
    print(f"\n{tm.device_limits().name}; dispatch mode {dispatch.get_mode()}; {time.perf_counter() - t0:.0f} s\n")
    print(text)
    if args.save_efficiency:
        samples = {}
        for r in results:
            samples.update(r["efficiency"])
        tunedb.save_entries({}, tunedb.device_id(), args.save_efficiency, efficiency=samples)
        print(f"\nsaved {len(samples)} efficiencies to {args.save_efficiency}")
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "cost_model.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
        (out / "cost_model.md").write_text(f"GPU: {tm.device_limits().name}; `PYTHONPATH=. python3 "
                                           f"scripts/validate_cost_model.py`\n\n{text}\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
