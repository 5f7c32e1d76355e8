"""Forty-first session: skinny 16-bit x·B (M 1-15) with an even N % 8 != 0, which auto sends to
mma_half_split_k or gemv_xb_half's element path because TMA would need B copied into padded rows
(heuristic.half_pick's GEMV_MAX rule, TMA_SPLIT_MIN_M). With b_rows, wgmma_tma and its split read
such a B in place: are they ahead? Rows: cuBLAS, auto (heuristic.SKINNY_B_ROWS on: M 3-15 take
the TMA rungs' rules), auto with the switch off (the old picks), wgmma_tma's 128 x 256 tile
cluster-free (b_rows sibling), wgmma_tma_split_k with _tma_split_count's slices where that is 2 or
more (b_rows sibling). Eleven fixed shapes, then a random draw (--seed, --count). Every row
validated first (NaN-poisoned C, float64 reference, per element: tiled_matmul.measure), 3
alternating rounds, L2 flushed. Shipping the patch also means tests/test_half.py's
half_pick(4, 9298, 5590) expectation (mma_half_split_k) changes to wgmma_tma.

    (needs scripts/variants_s41/skinny_b_rows.patch applied: heuristic.SKINNY_B_ROWS)
    PYTHONPATH=. python3 scripts/variants_s41/probe_skinny_rows.py [--dtype float16] [--seed 4102] [--count 6]
"""
import argparse
import contextlib
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s31"))

SHAPES = [(1, 50258, 4096), (2, 10186, 4000), (3, 20002, 8192), (4, 50258, 4096), (6, 32002, 4096),
          (8, 32002, 4096), (8, 2050, 32768), (4, 4094, 16384), (9, 4094, 8192), (12, 2050, 32768), (4, 9298, 5590)]


def draw(seed: int, count: int) -> list:
    import numpy as np

    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        M, N = int(rng.integers(3, 16)), int(rng.integers(500, 30000)) * 2
        K = int(np.exp(rng.uniform(np.log(1000), np.log(32768))))
        if N % 8:
            out.append((M, N, K))
    return out


@contextlib.contextmanager
def old_rule():
    """heuristic.SKINNY_B_ROWS off (auto's choices recomputed)."""
    from tiled_matmul import dispatch, heuristic

    heuristic.SKINNY_B_ROWS = False
    dispatch.clear_cache()
    try:
        yield
    finally:
        heuristic.SKINNY_B_ROWS = True
        dispatch.clear_cache()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dtype", default="float16", choices=("float16", "bfloat16"))
    ap.add_argument("--seed", type=int, default=4102)
    ap.add_argument("--count", type=int, default=6)
    args = ap.parse_args()
    from _half import against_old_rule, call_row, cells, cublas_cell, geomeans, timed_rows

    from tiled_matmul import heuristic
    from tiled_matmul.measure import L2Flusher, make_inputs

    flush = L2Flusher()
    logs: dict = {}
    labels = ["auto", "auto old", "tma 128x256", "split"]
    print(f"{args.dtype}: µs (× cuBLAS); tma / split = wgmma_tma / wgmma_tma_split_k, B read in place (b_rows)")
    print(f"| shape | auto's pick (old) | slices | cuBLAS µs | {' | '.join(labels)} |")
    print("|---|---|---:|---:|" + "---:|" * len(labels))
    for M, N, K in SHAPES + draw(args.seed, args.count):
        sets = make_inputs((M, N, K), args.dtype)
        pick, old, rows = against_old_rule(M, N, K, args.dtype, sets, old_rule)
        slices = heuristic._tma_split_count(M, N, K, 132)
        rows["tma 128x256"] = (call_row("wgmma_tma", {}), sets)
        if slices >= 2:
            rows["split"] = (call_row("wgmma_tma_split_k", {"split_k": slices}), sets)
        res = timed_rows(rows, flush)
        res.setdefault("split", (None, "one slice"))
        print(f"| {M}×{N}×{K} | {pick['strategy']} ({old['strategy']}) | {slices} | {cublas_cell(res)} | "
              f"{' | '.join(cells(res, labels, logs))} |",
              flush=True)
    print()
    geomeans(logs)


if __name__ == "__main__":
    main()
