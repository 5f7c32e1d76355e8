"""gemv_xb K-group blocks for the float32 x.B rows under 88% of copy (nineteenth session):
1x4096x16384's database entry predates K groups (one group, K split over 64 slices and a reduce
kernel); the K-group configs of the search space give it 256 blocks of 64 columns (two waves at one
block per SM), so this tries 128 columns per block (kg = 16 of 32 lanes) and neighbours.

    PYTHONPATH=. python3 scripts/variants_s19/probe_gemv_kg.py OUT.jsonl [ROUNDS]

Each candidate checked (tm.check), then timed (CUDA events, L2 flushed, median of 7) beside cuBLAS
and a device copy of the same bytes; the summary prints the median over rounds, x cuBLAS and % of
the copy's bandwidth.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, "benchmarks")
sys.path.insert(0, "scripts/variants_s17")
from probe_sweep import run  # noqa: E402
from shape_suite import copy_ms  # noqa: E402

from tiled_matmul.timing import L2Flusher  # noqa: E402

XB = [dict(threads=512, kg=16, mt=1, unroll=8, min_blocks=1), dict(threads=512, kg=16, mt=1, unroll=4, min_blocks=1),
      dict(threads=256, kg=8, mt=1, unroll=8, min_blocks=2), dict(threads=512, kg=32, mt=1, unroll=8, min_blocks=1),
      dict(threads=256, kg=16, mt=1, unroll=8, min_blocks=2)]
# (512 threads at mt = 8 spill under the 128-register cap)
XB8 = [dict(threads=256, kg=8, mt=8, unroll=8, min_blocks=1), dict(threads=256, kg=16, mt=8, unroll=4, min_blocks=1)]
SHAPES = {(1, 4096, 16384): XB, (1, 3000, 20000): XB, (1, 16384, 4096): XB, (8, 8192, 8192): XB8, (8, 4096, 16384): XB8}


def main() -> None:
    path = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    flush = L2Flusher()
    copies = defaultdict(list)
    with open(path, "w") as out:
        for _ in range(rounds):
            for shape, cands in SHAPES.items():
                run("float32", shape, [("gemv_xb", p) for p in cands], flush, out)
                M, N, K = shape
                copies[shape].append(copy_ms((M * K + K * N + M * N) * 4, flush))
    rows = [json.loads(line) for line in open(path)]
    for shape in SHAPES:
        M, N, K = shape
        nbytes = (M * K + K * N + M * N) * 4
        copy_gbs = 2 * nbytes / statistics.median(copies[shape]) / 1e6
        times = defaultdict(list)
        for r in rows:
            if tuple(r["shape"]) == shape:
                times[(r["strategy"], json.dumps(r.get("params", {}), sort_keys=True))].append(r.get("ms"))
        cub = statistics.median(times.pop(("cublas", "{}")))
        print(f"float32 {M}x{N}x{K}: cuBLAS {cub * 1e3:.1f} us, copy {copy_gbs:.0f} GB/s")
        for (name, params), ms in times.items():
            if any(m is None for m in ms):
                print(f"    {name} {params}: not timed")
                continue
            t = statistics.median(ms)
            print(f"    {name:8s} {params:75s} {t * 1e3:7.1f} us {cub / t:5.2f}x {100 * nbytes / t / 1e6 / copy_gbs:5.1f}%")


if __name__ == "__main__":
    main()
