"""Two cost-model changes for float64 shapes with an odd N or K, weighed on probe_elem.py's timings
(twenty-third session; on the CPU). Neither shipped: both made the model's picks worse where they
were to help (benchmarks/RESULTS.md, twenty-third session, item 4).

    git apply scripts/variants_s23/elem_factor.patch     # costmodel.elem_factor, ELEM_TERM
    PYTHONPATH=. python3 scripts/variants_s23/calibrate_elem.py FILE.jsonl... [--min N]
    git apply -R scripts/variants_s23/elem_factor.patch

1. `elem` factors: each misaligned-operand kernel's time over the same config's aligned kernel on
   the even neighbour shape (geometric means over the shapes whose rows are misaligned for the
   config: per strategy, and per config with at least N (default 8) such shapes), as database keys
   for the patch's costmodel.elem_factor, which multiplies the kernel body by them.
2. Compute efficiencies refitted on the even-neighbour timings (the aligned kernels; per config
   with at least 6 shapes).
For the shipped efficiencies, each change and both: on the odd shapes and on their even
neighbours, the model's first candidate among those timed, its time over the best timed one's
(geometric mean) and how many shapes it is within 10% of the best on.
"""
from __future__ import annotations

import collections
import json
import math
import sys

from tiled_matmul import costmodel, dispatch, registry


def geo(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs))


def fit(rows: list[dict], least: int) -> tuple[dict, dict]:
    """(elem factor keys, refitted compute efficiency keys) from the rows."""
    fam, own, eff = collections.defaultdict(list), collections.defaultdict(list), collections.defaultdict(list)
    for r in rows:
        if "even_ms" not in r:
            continue
        M, N, K = r["shape"]
        cfg = registry.get(r["strategy"]).make_config(**r["params"])
        if costmodel.elem_factor(cfg, N, K, "float64", {})[1] != "aligned":
            key, family = costmodel.efficiency_keys(cfg, "float64", costmodel.ELEM_TERM)
            fam[family].append(r["odd_ms"] / r["even_ms"])
            own[key].append(r["odd_ms"] / r["even_ms"])
        p = costmodel.predict(cfg, M, N + N % 2, K + K % 2, "float64", efficiency=1.0)
        fixed = p.launch_ms + p.reduce_ms + p.rounds_ms
        if r["even_ms"] > fixed:
            eff[costmodel.efficiency_keys(cfg, "float64", "compute")[0]].append(
                p.wave_factor * p.compute_ms / (r["even_ms"] - fixed))
    elem = {k: round(geo(v), 4) for k, v in fam.items()}
    elem.update({k: round(geo(v), 4) for k, v in own.items() if len(v) >= least})
    return elem, {k: round(geo(v), 4) for k, v in eff.items() if len(v) >= 6}


def picks(rows: list[dict], eff: dict, which: str) -> tuple[float, int, int]:
    """(geometric mean of best timed / the model's first timed pick, shapes within 10%, shapes)."""
    shapes = collections.defaultdict(dict)
    for r in rows:
        if "even_ms" not in r:
            continue
        M, N, K = r["shape"]
        shape = (M, N, K) if which == "odd" else (M, N + N % 2, K + K % 2)
        shapes[shape][(r["strategy"], json.dumps(r["params"], sort_keys=True))] = r[f"{which}_ms"]
    logs = []
    for shape, t in shapes.items():
        pick = next(t[k] for p in costmodel.rank(*shape, "float64", efficiencies=eff)
                    if (k := (p.strategy, json.dumps(p.params, sort_keys=True))) in t)
        logs.append(math.log(min(t.values()) / pick))
    return math.exp(sum(logs) / len(logs)), sum(x > math.log(1 / 1.1) for x in logs), len(logs)


def main() -> None:
    args = sys.argv[1:]
    least = int(args[args.index("--min") + 1]) if "--min" in args else 8
    rows = [json.loads(line) for f in args if f.endswith(".jsonl") for line in open(f)]
    elem, refit = fit(rows, least)
    for k, v in sorted({**elem, **refit}.items()):
        print(f"{v:.3f}  {k}")
    base = dispatch.measured_efficiencies()
    for name, eff in (("shipped", base), ("elem factors", {**base, **elem}), ("refitted efficiencies", {**base, **refit}),
                      ("both", {**base, **refit, **elem})):
        print(f"{name:22s} " + "  ".join("{}: {:.3f} of the best, {}/{} within 10%".format(w, *picks(rows, eff, w))
                                         for w in ("odd", "even")))


if __name__ == "__main__":
    main()
