"""The cost model against recorded H100 timings, on the CPU: efficiencies and ranking quality.

    PYTHONPATH=. python3 scripts/calibrate_cost_model.py [--data tests/data/h100_timings.json]

1. For every recorded (shape, dtype, strategy, config, ms), the efficiency the measurement shows:
   the model's ideal body time / (measured - launches - reduction) (``Prediction.efficiency_of``),
   summarised per (strategy, mode, dtype): the numbers behind ``costmodel.DEFAULT_EFFICIENCY``.
2. Per shape of each source with several candidates timed in one run: the candidate the model
   ranks first among the timed ones, its measured time over the best measured, and whether it is
   the measured-fastest rung (strategy).
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tiled_matmul import costmodel, registry  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "h100_timings.json"


def load(path: Path = DATA) -> list[dict]:
    """The rows of the timings file, each with its config built (rows whose strategy or params
    this registry does not know are left out)."""
    rows = []
    for r in json.loads(path.read_text(encoding="utf-8"))["rows"]:
        try:
            r["config"] = registry.get(r["strategy"]).make_config(**r["params"])
        except (ValueError, TypeError):
            continue
        rows.append(r)
    return rows


def groups(rows: list[dict]) -> dict[tuple, list[dict]]:
    """Rows timed in one run for one shape and dtype, where the run timed several candidates."""
    g = collections.defaultdict(list)
    for r in rows:
        g[(r["src"], tuple(r["shape"]), r["dtype"])].append(r)
    return {k: v for k, v in g.items() if len({x["strategy"] for x in v}) > 1}


def model_pick(group: list[dict]) -> tuple[dict, float]:
    """(the row the model ranks first, its measured time over the group's best)."""
    def predicted(r):
        return costmodel.predict(r["config"], *r["shape"], r["dtype"]).ms
    pick = min(group, key=predicted)
    return pick, pick["ms"] / min(x["ms"] for x in group)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DATA)
    args = ap.parse_args(argv)
    rows = load(args.data)
    eff = collections.defaultdict(list)
    for r in rows:
        p = costmodel.predict(r["config"], *r["shape"], r["dtype"], efficiency=1.0)
        shown = p.efficiency_of(r["ms"])
        if shown is not None:
            term, e = shown
            eff[(r["strategy"], r["config"].precision, r["dtype"], term, r["src"])].append(e)
    print("efficiency = ideal body / (measured - launches - reduction)")
    print(f"{'strategy':16} {'mode':7} {'dtype':8} {'term':8} {'source':11} {'n':>3} {'median':>7} {'min':>6} "
          f"{'max':>6}  default")
    for (s, m, d, term, src), es in sorted(eff.items()):
        default = costmodel.default_efficiency(registry.get(s).default.with_precision(m), term)
        print(f"{s:16} {m:7} {d:8} {term:8} {src:11} {len(es):3d} {statistics.median(es):7.3f} {min(es):6.3f} "
              f"{max(es):6.3f}  {default:.2f}")
    print()
    print("model's first pick among each run's timed candidates: measured / best measured")
    ratios, rung_hits = [], 0
    for (src, shape, dt), g in sorted(groups(rows).items()):
        pick, ratio = model_pick(g)
        best = min(g, key=lambda x: x["ms"])
        ratios.append(ratio)
        rung_hits += pick["strategy"] == best["strategy"]
        print(f"{src:11} {'x'.join(map(str, shape)):16} {dt:8} model {pick['strategy']:14} {pick['ms']:9.4f} ms  "
              f"best {best['strategy']:14} {best['ms']:9.4f} ms  x{ratio:.3f}")
    within = sum(r <= 1.10 for r in ratios)
    print(f"\n{len(ratios)} shapes: model's pick within 10% of the best on {within}, fastest rung on {rung_hits}; "
          f"worst x{max(ratios):.3f}, geometric mean x{statistics.geometric_mean(ratios):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
