"""Thirty-eighth session, for the next: a held-out check of heuristic.HALF_NARROW_C (16-bit plain
products of at least half a wave of 128 x 256 tiles with N <= 128 run on 128 x 64 or 128 x 128
tiles). Shapes drawn at random from that region (seed on the command line: M 8449-70000, N 9-128,
K 256-20000, log-uniform), none of probe_narrow_n.py's; columns: auto (the rule), the 128 x 256
tile in clusters and alone (the old pick was one of the two), cuBLAS. Every row validated first.

    PYTHONPATH=. python3 scripts/variants_s38/probe_narrow_heldout.py [--dtype float16] [--seed 3901]
    (--compile-only CACHE_DIR: fill a cubin cache without a GPU)
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s28"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s31"))

VARIANTS = {
    "256c": ("wgmma_tma", {"bm": 128, "bn": 256, "stages": 3, "cluster_m": 2}),
    "256": ("wgmma_tma", {}),
}


def draw(seed: int, count: int = 16) -> list:
    """`count` shapes of the rule's region whose pick is wgmma_tma (not a GEMV or split rung)."""
    from tiled_matmul import heuristic

    rng = np.random.default_rng(seed)
    shapes = []
    while len(shapes) < count:
        M = int(np.exp(rng.uniform(np.log(8449), np.log(70000))))
        N = int(rng.integers(9, 129))
        K = int(np.exp(rng.uniform(np.log(256), np.log(20000))))
        if heuristic.half_pick(M, N, K, "float16", 132)[0] == "wgmma_tma":
            shapes.append((M, N, K))
    return shapes


def main() -> None:
    from _half import config_probe

    seed = 3901
    if "--seed" in sys.argv:
        i = sys.argv.index("--seed")
        seed = int(sys.argv[i + 1])
        del sys.argv[i:i + 2]
    print(f"seed {seed}")
    config_probe(draw(seed), VARIANTS)


if __name__ == "__main__":
    main()
