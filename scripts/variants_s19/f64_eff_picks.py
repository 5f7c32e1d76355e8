"""The float64 picks that measured efficiencies for dmma's 128 x 64 tile (two blocks per SM) move
(nineteenth session). The tile's compute efficiency was never measured (the tuner stored only its
memory one, 0.89, from short-K shapes), so the cost model priced its compute at dmma's default
0.75; the timings of probe_f64_tiles.py (24 samples on 12 shapes, K = 1000-4096) imply 0.80 compute
and 0.94 memory (NEW). Result (RESULTS.md, nineteenth session): no net gain, not shipped.

    PYTHONPATH=. python3 scripts/variants_s19/f64_eff_picks.py [PROBE.jsonl]   # CPU: moved picks
    PYTHONPATH=. python3 scripts/variants_s19/f64_eff_picks.py --time            # GPU: old vs new

The implied efficiencies (Prediction.efficiency_of) per config of the probe's file print first;
then the shapes of benchmarks/random_shapes.py's draws (seeds 14-17, lo 256 and lo 1) and a grid
whose model pick moves, old -> new; with --time, each moved pick timed against the old one and
cuBLAS (probe_tma_split_picks.compare).
"""

from __future__ import annotations

import itertools
import json
import math
import sys
from collections import defaultdict

sys.path.insert(0, "benchmarks")
sys.path.insert(0, "scripts/variants_s18")

from tiled_matmul import costmodel, dispatch, registry  # noqa: E402
from tiled_matmul.device import H100_LIMITS  # noqa: E402

_CFG = "dmma|float64|ieee|bm128_bn64_bk16_wm64_wn32_mma_k8_stages3_group_m8_min_blocks2"
NEW = {"compute:" + _CFG: 0.80, "memory:" + _CFG: 0.94}


def implied(path: str) -> None:
    eff = defaultdict(list)
    for line in open(path):
        r = json.loads(line)
        if r["strategy"] in ("cublas", "auto") or "ms" not in r:
            continue
        cfg = registry.get(r["strategy"]).make_config(**r["params"])
        term, e = costmodel.predict(cfg, *r["shape"], "float64").efficiency_of(r["ms"])
        eff[(r["strategy"], json.dumps(r["params"], sort_keys=True), term)].append(e)
    for k, es in eff.items():
        print(k, "geometric mean", round(math.exp(sum(map(math.log, es)) / len(es)), 3), "n", len(es),
              "range", round(min(es), 3), round(max(es), 3))


GRID = (500, 1000, 1500, 2000, 3000, 4000, 6000, 8192)


def shapes(grid_step: int = 1) -> list[tuple[int, int, int]]:
    """The random draws (seeds 14-17, lo 1 and 256), and every grid_step-th shape of the grid."""
    from random_shapes import draw_shapes
    out = []
    for seed, lo in itertools.product((14, 15, 16, 17), (1, 256)):
        out += draw_shapes(40, seed, 200.0, lo)
    grid = [(m, n, k) for m in GRID for n in GRID for k in (256, 1000, 2000, 4096)]
    out += grid[::grid_step]
    return sorted(set(out))


def pick(M, N, K, eff):
    p = costmodel.rank(M, N, K, "float64", "auto", H100_LIMITS, eff)[0]
    return p.strategy, p.params


def moved(grid_step: int = 1) -> list[tuple]:
    old_eff = dict(dispatch.measured_efficiencies(H100_LIMITS))
    new_eff = dict(old_eff, **NEW)
    out = []
    for s in shapes(grid_step):
        o, n = pick(*s, old_eff), pick(*s, new_eff)
        if o != n:
            out.append((s, o, n))
    return out


def main() -> None:
    if "--time" in sys.argv:
        from probe_tma_split_picks import compare

        from tiled_matmul.timing import L2Flusher
        table = {s: (o, n) for s, o, n in moved(grid_step=5)}
        compare("float64", list(table), lambda M, N, K, dt: table[(M, N, K)][0],
                lambda M, N, K, dt: table[(M, N, K)][1], L2Flusher())
        return
    if len(sys.argv) > 1:
        implied(sys.argv[1])
    mv = moved()
    for s, o, n in mv:
        print(s, o, "->", n)
    print(len(mv), "of", len(shapes()), "shapes move")


if __name__ == "__main__":
    main()
