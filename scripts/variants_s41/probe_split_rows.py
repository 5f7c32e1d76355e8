"""Forty-first session: wgmma_tma_split_k with its b_rows sibling (a 16-bit B whose rows TMA cannot
address, even N % 8 != 0, under a C of one tile row, read in place by the producer's cp.async)
against the same split config with B copied into padded rows first (B_ROWS_SIBLING off), and
auto's pick, beside cuBLAS. Shapes: decode-like and long-K products with such N, whose auto pick
is the split rung. Every row validated first (NaN-poisoned C, float64 reference, per element:
tiled_matmul.measure), 3 alternating rounds, L2 flushed.

    PYTHONPATH=. python3 scripts/variants_s41/probe_split_rows.py [--dtype float16]
"""
import argparse
import contextlib
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s31"))

SHAPES = [(16, 4094, 4096), (16, 4094, 16384), (64, 1002, 16384), (32, 10186, 8192), (8, 2050, 32768),
          (100, 498, 12000), (16, 62, 12791), (128, 130, 65536)]


@contextlib.contextmanager
def padded_b():
    """B copied into padded rows: the split rung's b_rows sibling switched off."""
    from tiled_matmul.strategies.wgmma_tma_split_k import WgmmaTmaSplitKConfig

    WgmmaTmaSplitKConfig.B_ROWS_SIBLING = False
    try:
        yield
    finally:
        WgmmaTmaSplitKConfig.B_ROWS_SIBLING = True


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dtype", default="float16", choices=("float16", "bfloat16"))
    args = ap.parse_args()
    import tiled_matmul as tm
    from _half import call_row, cells, geomeans, timed_rows

    from tiled_matmul.measure import L2Flusher, Row, auto_row, cublas_row, make_inputs

    flush = L2Flusher()
    logs: dict = {}
    labels = ["auto", "split padded", "split b_rows"]
    print(f"{args.dtype}: µs (× cuBLAS); split = wgmma_tma_split_k with auto's split (its default where auto "
          "picks another rung), B copied into padded rows / read in place")
    print(f"| shape | auto's pick | cuBLAS µs | {' | '.join(labels)} |")
    print("|---|---|---:|" + "---:|" * len(labels))
    for M, N, K in SHAPES:
        pick = tm.explain("auto", (M, N, K), dtype=args.dtype)
        params = ({k: v for k, v in pick["params"].items() if k in ("bm", "bn", "stages", "split_k")}
                  if pick["strategy"] == "wgmma_tma_split_k" else {})
        sets = make_inputs((M, N, K), args.dtype)
        split = call_row("wgmma_tma_split_k", params)
        rows = {"cublas": (cublas_row("probe", dtype=args.dtype), sets), "auto": (auto_row("probe"), sets),
                "split padded": (Row("probe", "padded", split.call, context=padded_b), sets),
                "split b_rows": (split, sets)}
        res = timed_rows(rows, flush)
        cub = f"{res['cublas'][0]:.1f}" if res["cublas"][0] is not None else "failed"
        print(f"| {M}×{N}×{K} | {pick['strategy']} {params or pick['params']} | {cub} | "
              f"{' | '.join(cells(res, labels, logs))} |", flush=True)
    print()
    geomeans(logs)


if __name__ == "__main__":
    main()
