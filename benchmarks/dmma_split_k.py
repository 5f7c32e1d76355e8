"""float64 `auto` and dmma_split_k against cuBLAS DGEMM where dmma_split_k is meant to win, in one run.

    PYTHONPATH=. python3 benchmarks/dmma_split_k.py [--shapes 256,64x64x65536] [--no-sweep] [--out DIR]

Shapes (default): the float64 suite's small cubes (256^3-768^3), long K with a small C
(64x64x65536, 256x256x131072, 32x1024x32768, 1024x32x32768), the decode shapes 32x4096x4096 and
64x8192x8192, and 1024^3, 2048^3 for scale. At each: cuBLAS DGEMM (``cupy.matmul``, float64);
`auto` as shipped (the tuned H100 database's entry where it has one); the cost model's pick without
a database (what `auto` runs once such an entry is dropped); the heuristic's pick; unsplit dmma on
64 x 64 tiles (3 blocks per SM); and, below one wave of 128 x 128 tiles, every dmma_split_k config
of the search space (unless --no-sweep). Every row goes through tiled_matmul.measure: validated
against a float64 reference with a NaN-poisoned output, and only then timed (CUDA events, L2
flushed before each repeat, median; input sets rotated where one fits in L2). Prints a line per row
as it goes (ms, TF/s, x cuBLAS, relative error beside cuBLAS's), then one summary line per shape
and the geometric means; DIR/dmma_split_k.json holds every record.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys

import cupy as cp

import tiled_matmul as tm
from tiled_matmul import costmodel
from tiled_matmul.configs import cdiv
from tiled_matmul.heuristic import recommend
from tiled_matmul.measure import (L2Flusher, auto_row, cublas_row, make_inputs, n_input_sets, parse_shapes,
                                  strategy_row, time_validated, validate)

STUDY = "dmma_split_k"
NAME = "dmma_split_k"
#: the float64 shapes auto lost on below one wave of dmma tiles (issue 11), then two for scale
TARGET = [(256, 256, 256), (384, 384, 384), (512, 512, 512), (640, 640, 640), (768, 768, 768),
          (64, 64, 65536), (256, 256, 131072), (32, 1024, 32768), (1024, 32, 32768), (32, 4096, 4096),
          (64, 8192, 8192)]
SHAPES = TARGET + [(1024, 1024, 1024), (2048, 2048, 2048)]
PLAN = dict(repeat=15, budget_s=0.6)
DMMA_SMALL = dict(bm=64, bn=64, bk=8, wm=32, wn=32, stages=4, min_blocks=3)


def rows_for(M: int, N: int, K: int, limits, sweep: bool):
    """(label, row) for every row measured at one shape, without repeats of one kernel."""
    rows = [("cuBLAS", cublas_row(STUDY)), ("auto", auto_row(STUDY))]
    model = costmodel.rank(M, N, K, "float64", device=limits)[0]
    picks = [("model", model.strategy, model.params),
             ("heuristic", *recommend(M, N, K, "float64", sms=limits.sm_count)),
             ("dmma64", "dmma", DMMA_SMALL)]
    if sweep and cdiv(M, 128) * cdiv(N, 128) < limits.sm_count:
        picks += [("sweep", NAME, cfg.params()) for cfg in tm.STRATEGIES[NAME].configs]
    seen = {}
    for role, name, params in picks:
        cfg = tm.STRATEGIES[name].make_config(**params)
        if (name, cfg) in seen:
            seen[(name, cfg)][0].append(role)
            continue
        seen[(name, cfg)] = ([role], strategy_row(STUDY, name, cfg), name, cfg)
    for roles, row, name, cfg in seen.values():
        rows.append((f"{'+'.join(roles)}: {name} {cfg.tag()}", row))
    return rows


def rung(label: str) -> str:
    """The strategy a row's label names ("roles: strategy tag"), or "-"."""
    return label.partition(": ")[2].split(" ")[0] or "-"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shapes", default=None, help="e.g. 256,64x64x65536 (default: the shapes above)")
    ap.add_argument("--no-sweep", action="store_true", help="skip the dmma_split_k search-space rows")
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    args = ap.parse_args()
    shapes = parse_shapes(args.shapes) if args.shapes else SHAPES
    limits = tm.device_limits()
    if not tm.STRATEGIES[NAME].runs_on():
        raise SystemExit(f"{NAME} needs an sm_90 GPU; this one is {limits.name}")
    print(f"GPU: {limits.name} ({limits.sm_count} SMs); cupy {cp.__version__}", flush=True)
    print(f"{'shape':>18} {'ms':>9} {'TFLOP/s':>7} {'xcuBLAS':>7} {'relerr/cuBLAS':>17}  row", flush=True)
    flush = L2Flusher(limits.l2_bytes)
    records, summary, ratios = [], [], {"auto": [], "model": [], "heuristic": [], "best": []}
    for M, N, K in shapes:
        shape = f"{M}x{N}x{K}"
        sets = make_inputs((M, N, K), "float64", n_input_sets(8 * (M * K + K * N + M * N), limits.l2_bytes))
        timed = {}
        for label, row in rows_for(M, N, K, limits, not args.no_sweep):
            v = validate(row, sets)
            rec = time_validated(row, v, sets, flush, **PLAN)
            err = "-" if v.report is None else f"{v.report.rel_err:.1e}/{v.report.cublas_rel_err:.1e}"
            timed[label] = rec
            records.append(dict(rec.as_dict(), label=label, err=err))
            ref = timed["cuBLAS"].median_ms if timed["cuBLAS"].ok else float("nan")
            if rec.ok:
                print(f"{shape:>18} {rec.median_ms:9.4f} {rec.tflops:7.2f} {ref / rec.median_ms:7.3f} {err:>17}  {label}",
                      flush=True)
            else:
                print(f"{shape:>18} {rec.status.upper():>9} {rec.message}  {label}", flush=True)
        ref = timed["cuBLAS"].median_ms if timed["cuBLAS"].ok else float("nan")

        def x(pred):
            got = [(ref / r.median_ms, label) for label, r in timed.items() if pred(label) and r.ok]
            return max(got) if got else (float("nan"), "-")

        auto, model, heur = x(lambda s: s == "auto"), x(lambda s: "model" in s.split(":")[0]), \
            x(lambda s: "heuristic" in s.split(":")[0])
        best = x(lambda s: s.startswith(("model", "heuristic", "sweep")) and f": {NAME} " in s)
        dmma64 = x(lambda s: "dmma64" in s.split(":")[0])
        choice = tm.kernel("auto").resolve(M, N, K, "float64")
        summary.append(f"{shape:>16} {ref:8.4f} | auto {auto[0]:5.2f} ({choice.source} {choice.strategy}) | "
                       f"model {model[0]:5.2f} ({rung(model[1])}) | heuristic {heur[0]:5.2f} ({rung(heur[1])}) | "
                       f"best dsk {best[0]:5.2f} {best[1].rpartition(' ')[2]} | dmma64 {dmma64[0]:5.2f}")
        if (M, N, K) in TARGET:
            for key, val in (("auto", auto), ("model", model), ("heuristic", heur), ("best", best)):
                if math.isfinite(val[0]):
                    ratios[key].append(val[0])
        del sets
        cp.get_default_memory_pool().free_all_blocks()
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "dmma_split_k.json"), "w") as f:
        json.dump(records, f, indent=1)
    print("\nx cuBLAS DGEMM per shape (cuBLAS ms): auto as shipped (its source and rung), the cost model's "
          "pick without a database, the heuristic's, the best dmma_split_k row, unsplit dmma 64x64")
    print("\n".join(summary))
    gm = {k: math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan") for k, v in ratios.items()}
    print(f"geomean over the {len(TARGET)} target shapes: auto as shipped {gm['auto']:.2f}, model pick "
          f"{gm['model']:.2f}, heuristic pick {gm['heuristic']:.2f}, best dmma_split_k {gm['best']:.2f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
