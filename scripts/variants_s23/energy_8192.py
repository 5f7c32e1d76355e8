"""Energy per call of float64 8192^3 on dmma's database pick and on cuBLAS DGEMM (twenty-third
session): is the remaining gap at the power cap one of energy per FLOP?

    nvidia-smi --query-gpu=timestamp,power.draw,clocks.sm --format=csv,noheader -lms 100 > smi.csv &
    PYTHONPATH=. python3 scripts/variants_s23/energy_8192.py smi.csv [SECONDS] [ROUNDS]

Each candidate runs back to back (no L2 flush: a steady load) for SECONDS, ROUNDS times,
alternating; the wall-clock window of each segment (after a 1 s settle) is matched against the
nvidia-smi samples (same host clock) for its mean power and SM clock. Printed per segment: calls,
ms per call (CUDA events over the segment), mean W, mean MHz and J per call; then per candidate the
medians.
"""
from __future__ import annotations

import datetime as dt
import statistics
import sys
import time

import cupy

import tiled_matmul as tm


def samples(path: str, t0: float, t1: float) -> list[tuple[float, float]]:
    out = []
    for line in open(path):
        parts = [p.strip() for p in line.split(",")]
        try:
            ts = dt.datetime.strptime(parts[0], "%Y/%m/%d %H:%M:%S.%f").timestamp()
            w, mhz = float(parts[1].split()[0]), float(parts[2].split()[0])
        except (ValueError, IndexError):
            continue
        if t0 <= ts <= t1:
            out.append((w, mhz))
    return out


def main() -> None:
    smi = sys.argv[1]
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 4.0
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    rng = cupy.random.default_rng(23)
    M = N = K = 8192
    a, b = rng.standard_normal((M, K)), rng.standard_normal((K, N))
    c = cupy.full((M, N), cupy.nan)
    tm.matmul(a, b, out=c)
    assert tm.check(c, a, b).passed
    fns = {"cublas": lambda: cupy.matmul(a, b, out=c), "auto (dmma P)": lambda: tm.matmul(a, b, out=c)}
    segs = []
    for _ in range(rounds):
        for name, f in fns.items():
            f()
            cupy.cuda.Device().synchronize()
            start_wall = time.time()
            s, e = cupy.cuda.Event(), cupy.cuda.Event()
            s.record()
            n = 0
            while time.time() - start_wall < seconds:
                f()
                n += 1
                if n % 8 == 0:
                    cupy.cuda.get_current_stream().synchronize()
            e.record()
            e.synchronize()
            end_wall = time.time()
            ms = cupy.cuda.get_elapsed_time(s, e) / n
            segs.append((name, n, ms, start_wall + 1.0, end_wall))
            time.sleep(1.0)
    time.sleep(0.5)
    res = {k: [] for k in fns}
    print(f"{'candidate':16s} {'calls':>6s} {'ms/call':>8s} {'W':>6s} {'MHz':>6s} {'J/call':>7s}")
    for name, n, ms, t0, t1 in segs:
        sm = samples(smi, t0, t1)
        if not sm:
            print(f"{name:16s} no samples")
            continue
        w = statistics.fmean(x for x, _ in sm)
        mhz = statistics.fmean(y for _, y in sm)
        res[name].append((ms, w, w * ms / 1e3))
        print(f"{name:16s} {n:6d} {ms:8.3f} {w:6.0f} {mhz:6.0f} {w * ms / 1e3:7.2f}")
    for name, v in res.items():
        if v:
            print(f"{name}: median {statistics.median(x[0] for x in v):.3f} ms, {statistics.median(x[1] for x in v):.0f} W, "
                  f"{statistics.median(x[2] for x in v):.2f} J per call")


if __name__ == "__main__":
    main()
