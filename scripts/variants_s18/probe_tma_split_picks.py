"""The eighteenth session's 16-bit rule (heuristic._tma_split_count: wgmma_tma_split_k where
mma_half_split_k was picked) against the old pick, with cuBLAS, in 3 alternating rounds (CUDA
events, L2 flushed, medians of 9); each pick checked with tm.check first.

    PYTHONPATH=. python3 scripts/variants_s18/probe_tma_split_picks.py [dtype ...]
"""

from __future__ import annotations

import statistics
import sys
from unittest import mock

import tiled_matmul as tm
from tiled_matmul import heuristic as h
from tiled_matmul.measure import cublas_row, make_inputs
from tiled_matmul.timing import L2Flusher, time_fn

SHAPES = [(8, 8192, 8192), (16, 4096, 4096), (32, 4096, 4096), (64, 8192, 8192), (128, 4096, 4096),
          (64, 4096, 11008), (64, 64, 65536), (256, 256, 131072), (32, 1024, 32768), (1024, 32, 32768),
          (8192, 32, 8192), (512, 512, 512), (640, 640, 640), (300, 300, 4096), (100, 100, 2049),
          (2205, 9, 9937), (16, 12, 12791), (261, 473, 14735), (94, 50, 6180), (245, 80, 7522),
          (22, 185, 3899), (46, 1100, 2429), (1000, 500, 3000), (3000, 64, 2500), (9, 3000, 40000)]


def compare(dt, shapes, old_pick, new_pick, flush, skip_same=False) -> None:
    """For each shape: old_pick's and new_pick's (strategy, params), each checked, then timed with
    cuBLAS in 3 alternating rounds; one line each, then the geometric means and lowest ratios."""
    ratios = []
    print(f"### {dt}: shape, old pick -> new pick, us old -> new (cuBLAS), x cuBLAS old -> new", flush=True)
    for M, N, K in shapes:
        new, old = new_pick(M, N, K, dt), old_pick(M, N, K, dt)
        if skip_same and new == old:
            continue
        (a, b, c), = make_inputs((M, N, K), dt)
        crow = cublas_row("probe", dtype=dt)
        calls = {}
        for tag, (name, params) in (("old", old), ("new", new)):
            k = tm.kernel(name, **params)
            k(a, b, out=c)
            if not tm.check(c, a, b).passed:
                print(f"  {M}x{N}x{K} {tag} {name} {params}: WRONG", flush=True)
            calls[tag] = lambda k=k: k(a, b, out=c)
        ts = {"old": [], "new": [], "cublas": []}
        for _ in range(3):
            for tag in ts:
                if tag == "cublas":
                    with crow.context():
                        ts[tag].append(time_fn(lambda i: crow.call(a, b, c), repeat=9, warmup=2, flush=flush).median_ms)
                else:
                    f = calls[tag]
                    ts[tag].append(time_fn(lambda i: f(), repeat=9, warmup=2, flush=flush).median_ms)
        o, n, cb = (statistics.median(ts[t]) * 1e3 for t in ("old", "new", "cublas"))
        ratios.append((cb / o, cb / n))
        print(f"{M}x{N}x{K}  {old[0]} {old[1]}  ->  {new[0]} {new[1]}  {o:.1f} -> {n:.1f} ({cb:.1f})  "
              f"{cb / o:.2f} -> {cb / n:.2f}", flush=True)
    gm = statistics.geometric_mean
    print(f"{dt}: {len(ratios)} moved picks, geometric mean x cuBLAS {gm([x for x, _ in ratios]):.3f} -> "
          f"{gm([y for _, y in ratios]):.3f}, lowest {min(x for x, _ in ratios):.2f} -> "
          f"{min(y for _, y in ratios):.2f}, slower: {sum(y < 0.97 * x for x, y in ratios)}", flush=True)


def main() -> None:
    flush = L2Flusher()
    new = lambda M, N, K, dt: h.half_pick(M, N, K, dt, 132)  # noqa: E731

    def old(M, N, K, dt):
        with mock.patch.object(h, "_tma_split_count", lambda *a: 1):
            return h.half_pick(M, N, K, dt, 132)

    for dt in sys.argv[1:] or ["float16", "bfloat16"]:
        compare(dt, SHAPES, old, new, flush)


if __name__ == "__main__":
    main()
