"""Forty-first session: heuristic._b_rows_in_place held out. One-row 16-bit products (M 9-128) with an
even N % 8 != 0 whose 128 x 256 tiles fill half a wave, K >= TMA_CLUSTER_MIN_K: auto used to run them
in 2-CTA clusters (B copied into padded rows), and now runs them cluster-free (B read in place by
the b_rows sibling). A random draw no threshold was set from: cuBLAS, auto (the new pick) and the
old clustered pick. Every row validated first (NaN-poisoned C, float64 reference, per element:
tiled_matmul.measure), 3 alternating rounds, L2 flushed.

    PYTHONPATH=. python3 scripts/variants_s41/probe_cluster_free_rows.py [--dtype float16] [--seed 4101] [--count 8]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s31"))


def draw(seed: int, count: int) -> list:
    import numpy as np

    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        M = int(rng.integers(9, 129))
        N = int(rng.integers(16641 // 2, 65536 // 2)) * 2
        K = int(np.exp(rng.uniform(np.log(1000), np.log(16384))))
        if N % 8:
            out.append((M, N, K))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dtype", default="float16", choices=("float16", "bfloat16"))
    ap.add_argument("--seed", type=int, default=4101)
    ap.add_argument("--count", type=int, default=8)
    args = ap.parse_args()
    import tiled_matmul as tm
    from _half import call_row, cells, geomeans, timed_rows

    from tiled_matmul import heuristic
    from tiled_matmul.measure import L2Flusher, auto_row, cublas_row, make_inputs

    flush = L2Flusher()
    logs: dict = {}
    labels = ["auto", "clustered"]
    print(f"{args.dtype}, seed {args.seed}: µs (× cuBLAS); auto = cluster-free 128 x 256 (B in place), "
          "clustered = the old pick (cluster_m 2, B copied into padded rows)")
    print(f"| shape | auto's pick | cuBLAS µs | {' | '.join(labels)} |")
    print("|---|---|---:|" + "---:|" * len(labels))
    for M, N, K in draw(args.seed, args.count):
        pick = tm.explain("auto", (M, N, K), dtype=args.dtype)
        sets = make_inputs((M, N, K), args.dtype)
        rows = {"cublas": (cublas_row("probe", dtype=args.dtype), sets), "auto": (auto_row("probe"), sets),
                "clustered": (call_row("wgmma_tma", dict(heuristic._HALF_TMA_CLUSTER)), sets)}
        res = timed_rows(rows, flush)
        cub = f"{res['cublas'][0]:.1f}" if res["cublas"][0] is not None else "failed"
        tag = f"{pick['strategy']} cluster_m {pick['params'].get('cluster_m')}"
        print(f"| {M}×{N}×{K} | {tag} | {cub} | {' | '.join(cells(res, labels, logs))} |", flush=True)
    print()
    geomeans(logs)


if __name__ == "__main__":
    main()
