"""Where a call's time goes on the host: per-call host microseconds (queued calls, host clock),
the event-timed median with an L2 flush (what the benchmarks report), the GPU time per call when
calls queue back to back, and a cProfile listing of `tm.matmul`, beside cupy.matmul, for a plain
64^3 product, two float32 batches and two small float64 products. Prints a short table;
`--profile` adds the top cProfile rows.

    PYTHONPATH=. python3 scripts/probe_host.py [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats

import cupy

import tiled_matmul as tm
from tiled_matmul.timing import L2Flusher, host_us_per_call, time_fn


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    flush = L2Flusher()
    f32, f64 = cupy.float32, cupy.float64
    cases = {"64^3": ((64, 64), (64, 64), f32), "4096 x 64^3": ((4096, 64, 64), (4096, 64, 64), f32),
             "64 x 512^3": ((64, 512, 512), (64, 512, 512), f32), "256^3 float64": ((256, 256), (256, 256), f64),
             "512^3 float64": ((512, 512), (512, 512), f64)}
    rows = []
    for name, (sa, sb, dt) in cases.items():
        a = cupy.random.uniform(-1, 1, sa).astype(dt)
        b = cupy.random.uniform(-1, 1, sb).astype(dt)
        out = cupy.empty(sa[:-1] + sb[-1:], dt)
        tm.matmul(a, b, out=out)
        host_tm = host_us_per_call(lambda: tm.matmul(a, b, out=out), calls=300, wait=False)
        host_cu = host_us_per_call(lambda: cupy.matmul(a, b, out=out), calls=300, wait=False)
        t_tm = time_fn(lambda i: tm.matmul(a, b, out=out), repeat=30, flush=flush).median_ms
        t_cu = time_fn(lambda i: cupy.matmul(a, b, out=out), repeat=30, flush=flush).median_ms
        # the same calls queued back to back: GPU time per call once the host runs ahead
        ev0, ev1 = cupy.cuda.Event(), cupy.cuda.Event()
        ev0.record()
        for _ in range(50):
            tm.matmul(a, b, out=out)
        ev1.record(); ev1.synchronize()
        q_tm = cupy.cuda.get_elapsed_time(ev0, ev1) / 50
        ev0.record()
        for _ in range(50):
            cupy.matmul(a, b, out=out)
        ev1.record(); ev1.synchronize()
        q_cu = cupy.cuda.get_elapsed_time(ev0, ev1) / 50
        rows.append((name, host_tm, host_cu, t_tm, t_cu, q_tm, q_cu))
        if args.profile:
            pr = cProfile.Profile()
            pr.enable()
            for _ in range(300):
                tm.matmul(a, b, out=out)
            pr.disable()
            s = io.StringIO()
            pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(18)
            print(f"--- cProfile, 300 calls of tm.matmul {name}\n{s.getvalue()}")
    print("| case | tm host us | cupy host us | tm event ms | cupy event ms | tm queued ms | cupy queued ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, h1, h2, t1, t2, q1, q2 in rows:
        print(f"| {name} | {h1:.1f} | {h2:.1f} | {t1:.4f} | {t2:.4f} | {q1:.4f} | {q2:.4f} |")


if __name__ == "__main__":
    main()
