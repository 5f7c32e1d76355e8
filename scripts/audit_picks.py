"""CPU audit of auto's kernels outside any list of shapes: draw shapes (M, N, K from 1 to 40000,
skinny ones weighted in), resolve auto's concrete kernel for every dtype and precision request
(float16, bfloat16, float32 auto/tf32/tf32x3/ieee, float64) on the H100 stand-in, and compile each
distinct (strategy, config, dtype) with nvcc for sm_90a: every one must compile with no spills and
no stack frame. No GPU needed; about 30 minutes on two cores for 4000 shapes (~400 kernels).

    PYTHONPATH=. python3 scripts/audit_picks.py [--seed 42] [--shapes 4000]
"""
import argparse
import collections
import math
import random
import time

import tiled_matmul as tm
from tiled_matmul.ptxas import ptxas_report

REQUESTS = [("float16", "auto"), ("bfloat16", "auto"), ("float32", "auto"), ("float32", "tf32"),
            ("float32", "tf32x3"), ("float32", "ieee"), ("float64", "auto")]


def draw(seed: int, count: int) -> list:
    """`count` distinct shapes: each dim 1-8 (15%), 9-130 (15%) or log-uniform to 40000, at most
    3e11 multiply-adds; and the issue's memory-bound corners."""
    rng = random.Random(seed)

    def dim() -> int:
        r = rng.random()
        if r < 0.15:
            return rng.randint(1, 8)
        if r < 0.3:
            return rng.randint(9, 130)
        return int(math.exp(rng.uniform(0, math.log(40000))))

    shapes = {(1, 8192, 8192), (8192, 1, 8192), (8192, 8, 8192), (64, 64, 65536), (8192, 8192, 1)}
    while len(shapes) < count:
        s = (dim(), dim(), dim())
        if s[0] * s[1] * s[2] <= 3e11:
            shapes.add(s)
    return sorted(shapes)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--shapes", type=int, default=4000)
    args = ap.parse_args()
    shapes = draw(args.seed, args.shapes)
    picks: dict = collections.defaultdict(list)
    errors = []
    t0 = time.time()
    for dt, prec in REQUESTS:
        auto = tm.kernel("auto", precision=prec) if prec != "auto" else tm.kernel("auto")
        for M, N, K in shapes:
            try:
                k = auto.kernel_for(M, N, K, dt)
            except Exception as e:  # noqa: BLE001 - every failure is a finding
                errors.append((dt, prec, M, N, K, repr(e)[:200]))
                continue
            picks[(k.strategy.name, k.config, dt)].append((M, N, K))
    print(f"{len(shapes)} shapes x {len(REQUESTS)} requests in {time.time() - t0:.1f} s: {len(picks)} distinct "
          f"kernels, {len(errors)} errors")
    for e in errors[:20]:
        print("ERROR", e)
    bad = []
    for (name, cfg, dt), where in sorted(picks.items(), key=lambda x: (x[0][0], x[0][1].tag(), x[0][2])):
        try:
            rep = ptxas_report(name, cfg, dt)
        except Exception as e:  # noqa: BLE001
            bad.append((name, cfg.tag(), dt, "compile: " + repr(e)[:300], where[:2]))
            continue
        if rep.spill_stores or rep.spill_loads or rep.stack_frame:
            bad.append((name, cfg.tag(), dt, f"spills {rep.spill_stores}/{rep.spill_loads} B, stack {rep.stack_frame} B",
                        where[:2]))
    print(f"compiled {len(picks)}: {len(bad)} with a problem")
    for b in bad:
        print("BAD", b)
    raise SystemExit(1 if bad or errors else 0)


if __name__ == "__main__":
    main()
