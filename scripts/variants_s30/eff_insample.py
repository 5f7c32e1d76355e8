"""In-sample reading of probe_f32_eff.py's training run (no GPU): per shape, the measured time of
the cost model's first pick among the trained rungs with the shipped efficiencies ("before") and
with the trained ones ("after"), against the fastest candidate timed; and how many picks of other
classes the trained efficiencies would move (MODEL_SMALL's small skinny shapes among every rung).

    PYTHONPATH=. python3 scripts/variants_s30/eff_insample.py TRAIN.jsonl DB.json
"""
import json
import math
import sys
from collections import defaultdict

from tiled_matmul import costmodel, dispatch, registry, tunedb

RUNGS = dispatch.MODEL_TILES["float32"][1]


def main() -> None:
    rows = [json.loads(line) for line in open(sys.argv[1])]
    doc = tunedb.read_db(sys.argv[2])
    trained = {}
    for sec in doc["devices"].values():
        trained.update({k: float(v["efficiency"]) for k, v in sec.get("efficiency", {}).items()})
    shipped = dispatch.measured_efficiencies(None)
    merged = {**shipped, **trained}
    by_shape = defaultdict(dict)
    for r in rows:
        if r["status"] == "ok" and r["ms"]:
            cfg = registry.get(r["strategy"]).make_config(**r["params"])
            by_shape[tuple(r["shape"])][(r["strategy"], cfg)] = r["ms"]
    logs = defaultdict(list)
    print("| shape | best µs | before | after | before cfg | after cfg |")
    print("|---|---:|---:|---:|---|---|")
    for shape, times in by_shape.items():
        best = min(times.values())
        out = []
        for eff in (shipped, merged):
            p = costmodel.rank(*shape, "float32", "auto", None, eff, RUNGS)[0]
            cfg = registry.get(p.strategy).make_config(**p.params)
            out.append((p.strategy, cfg, times.get((p.strategy, cfg))))
        for label, (_, _, t) in zip(("before", "after"), out):
            if t:
                logs[label].append(math.log(best / t))
        fmt = lambda t: f"{t * 1e3:.1f}" if t else "-"  # noqa: E731
        print(f"| {'x'.join(map(str, shape))} | {best * 1e3:.1f} | {fmt(out[0][2])} | {fmt(out[1][2])} | "
              f"{out[0][0]} {out[0][1].tag()} | {out[1][0]} {out[1][1].tag()} |")
    for label, v in logs.items():
        print(f"{label}: best / pick geometric mean {math.exp(sum(v) / len(v)):.3f} over {len(v)}, "
              f"within 10% on {sum(1 for x in v if x > math.log(0.9))}")


if __name__ == "__main__":
    main()
