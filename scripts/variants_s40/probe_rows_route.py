"""Fortieth session, for the next: where should wgmma_tma's b_rows sibling read B in place?

`WgmmaTmaConfig.rows_sibling` sends a B that TMA cannot address (16-bit rows off 16 bytes, pitch
and base on 4 bytes) to the b_rows sibling only under a C of one tile row (M <= bm), the regime
measured (9-128 x 10186 x 4000: 0.80-1.04x cuBLAS against 0.46-0.66x with B copied into padded
rows). Two questions it leaves:

1. More tile rows: each re-reads B through the producer's cp.async copies while the padding copy
   is paid once. Is b_rows still ahead there (skinny-ish 256-1024 rows, narrow C with large M,
   square compute-bound shapes)?
2. One tile row, but auto's pick is a clustered config (17 x 50258 x 4096: 128 x 256 in clusters
   of 2, so B is copied: 0.40x; the probe_cp_b 4-byte kernel ran it 0.78x): should a B that only
   b_rows can read in place move such a pick to the cluster-free config?

Per shape: cuBLAS, auto, and auto's pick made cluster-free (a) with B copied into padded rows
(b_rows sibling switched off) and (b) with b_rows=1 forced. Every row validated first (NaN-poisoned
C, float64 reference, per element: tiled_matmul.measure), 3 alternating rounds, L2 flushed.

    PYTHONPATH=. python3 scripts/variants_s40/probe_rows_route.py [--dtype float16]
"""
import argparse
import contextlib
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s31"))

#: (M, N, K): more tile rows (question 1), then clustered one-row picks (question 2)
SHAPES = [(256, 10186, 4000), (512, 10186, 4000), (1024, 10186, 4000), (3000, 2998, 3000), (4096, 4098, 4096),
          (39062, 126, 1648), (12141, 70, 9182), (20528, 46, 3328), (8190, 8190, 1024),
          (17, 50258, 4096), (32, 50258, 4096), (64, 32002, 4096), (100, 20002, 8192)]


@contextlib.contextmanager
def padded_b():
    """B copied into padded rows: the b_rows sibling switched off."""
    from tiled_matmul.strategies.wgmma_tma import WgmmaTmaConfig

    old = WgmmaTmaConfig.B_ROWS_SIBLING
    WgmmaTmaConfig.B_ROWS_SIBLING = False
    try:
        yield
    finally:
        WgmmaTmaConfig.B_ROWS_SIBLING = old


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dtype", default="float16", choices=("float16", "bfloat16"))
    args = ap.parse_args()
    import tiled_matmul as tm
    from _half import call_row, cells, geomeans, timed_rows

    from tiled_matmul.measure import L2Flusher, Row, auto_row, cublas_row, make_inputs

    flush = L2Flusher()
    logs: dict = {}
    labels = ["auto", "padded", "b_rows"]
    print(f"{args.dtype}: µs (× cuBLAS); padded / b_rows = auto's wgmma_tma pick, cluster_m 1, B copied into "
          "padded rows / read by the b_rows copies")
    print(f"| shape | auto's pick | cuBLAS µs | {' | '.join(labels)} |")
    print("|---|---|---:|" + "---:|" * len(labels))
    for M, N, K in SHAPES:
        pick = tm.explain("auto", (M, N, K), dtype=args.dtype)
        params = {k: v for k, v in pick["params"].items() if k in ("bm", "bn", "stages", "group_m", "out_bits")}
        sets = make_inputs((M, N, K), args.dtype)
        rows = {"cublas": (cublas_row("probe", dtype=args.dtype), sets), "auto": (auto_row("probe"), sets)}
        if pick["strategy"] == "wgmma_tma":
            pad = call_row("wgmma_tma", {**params, "cluster_m": 1})
            rows["padded"] = (Row("probe", "padded", pad.call, context=padded_b), sets)
            rows["b_rows"] = (call_row("wgmma_tma", {**params, "cluster_m": 1, "b_rows": 1}), sets)
        res = timed_rows(rows, flush)
        for k in labels:
            res.setdefault(k, (None, "not a wgmma_tma pick"))
        cub = f"{res['cublas'][0]:.1f}" if res["cublas"][0] is not None else "failed"
        print(f"| {M}×{N}×{K} | {pick['strategy']} {pick['params']} | {cub} | {' | '.join(cells(res, labels, logs))} |",
              flush=True)
    print()
    geomeans(logs)


if __name__ == "__main__":
    main()
