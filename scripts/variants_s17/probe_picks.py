"""Old pick against new pick, with cuBLAS, on every shape whose pick a change moved
(changed_picks.json: [dtype, shape, [old strategy, params], [new strategy, params]], written on the
CPU by comparing `dispatch.choose` before and after the change over the public suite and the
random sweeps' shapes). Each pick is checked (tm.check), then timed in 3 alternating rounds with
cuBLAS (CUDA events, L2 flushed, medians of 9).

    PYTHONPATH=. python3 scripts/variants_s17/probe_picks.py [changed_picks.json] [dtype ...]
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from pathlib import Path

import tiled_matmul as tm
from tiled_matmul.measure import cublas_row, make_inputs
from tiled_matmul.timing import L2Flusher, time_fn


def main() -> None:
    path = sys.argv[1] if len(sys.argv) > 1 else str(Path(__file__).with_name("changed_picks.json"))
    dtypes = set(sys.argv[2:])
    flush = L2Flusher()
    ratios: dict[str, list[tuple[float, float]]] = {}
    for dt, shape, old, new in json.load(open(path)):
        if dtypes and dt not in dtypes:
            continue
        (a, b, c), = make_inputs(tuple(shape), dt)
        crow = cublas_row("probe", dtype=dt)
        fns = {}
        for tag, (name, params) in (("old", old), ("new", new)):
            k = tm.kernel(name, **params)
            k(a, b, out=c)
            if not tm.check(c, a, b).passed:
                print(f"{dt} {shape} {tag} {name} {params}: WRONG", flush=True)
            fns[tag] = lambda k=k: k(a, b, out=c)
        ts = {"cublas": [], "old": [], "new": []}
        for _ in range(3):
            with crow.context():
                ts["cublas"].append(time_fn(lambda i: crow.call(a, b, c), repeat=9, warmup=2, flush=flush).median_ms)
            for tag in ("old", "new"):
                ts[tag].append(time_fn(lambda i: fns[tag](), repeat=9, warmup=2, flush=flush).median_ms)
        cub, o, n = (statistics.median(ts[t]) * 1e3 for t in ("cublas", "old", "new"))
        ratios.setdefault(dt, []).append((cub / o, cub / n))
        short = lambda p: " ".join(f"{k}={v}" for k, v in p[1].items())  # noqa: E731
        print(f"{dt} {'x'.join(map(str, shape))}: cuBLAS {cub:.1f} us | old {o:.1f} ({cub / o:.2f}x) "
              f"{old[0]} {short(old)} | new {n:.1f} ({cub / n:.2f}x) {new[0]} {short(new)} | new/old {o / n:.2f}",
              flush=True)
    g = lambda v: math.exp(sum(map(math.log, v)) / len(v))  # noqa: E731
    for dt, r in ratios.items():
        print(f"{dt}: {len(r)} shapes, geometric mean x cuBLAS old {g([x for x, _ in r]):.3f} (lowest "
              f"{min(x for x, _ in r):.2f}) -> new {g([y for _, y in r]):.3f} (lowest {min(y for _, y in r):.2f}); "
              f"new faster by >5% on {sum(y > 1.05 * x for x, y in r)}, slower by >5% on {sum(y < x / 1.05 for x, y in r)}")


if __name__ == "__main__":
    main()
