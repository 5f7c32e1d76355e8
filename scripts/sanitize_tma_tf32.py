"""A compute-sanitizer workload for wgmma_tma_tf32 (run it under scripts/gpu_sanitize.sh): per
shape and mode, a gemm with alpha, beta, bias and GELU and a plain product, A or B read in place
as a transposed view (--col a / b) or both row-major (--col none); with --nan, a NaN in A so the
exact path runs.

    scripts/gpu_sanitize.sh "scripts/sanitize_tma_tf32.py --col a --params stages=5 --nan" racecheck
"""

from __future__ import annotations

import argparse


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--col", choices=("a", "b", "none"), required=True,
                   help="the operand read column-major (none: both row-major)")
    p.add_argument("--params", default="", help="config params, e.g. stages=5 (comma-separated k=v)")
    p.add_argument("--modes", default="tf32x3", help="precision modes, comma-separated")
    p.add_argument("--shapes", default="300x260x200,70x127x33")
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--nan", action="store_true", help="then a NaN in A: the exact path")
    args = p.parse_args()

    import cupy as cp

    import tiled_matmul as tm

    params = {k: int(v) for k, v in (kv.split("=") for kv in args.params.split(",") if kv)}
    rng = cp.random.default_rng(args.seed)
    for M, N, K in (tuple(int(x) for x in s.split("x")) for s in args.shapes.split(",")):
        # the column-major operand is the transpose of a row-major array
        a_src = rng.uniform(-1, 1, (K, M) if args.col == "a" else (M, K), dtype=cp.float32)
        b_src = rng.uniform(-1, 1, (N, K) if args.col == "b" else (K, N), dtype=cp.float32)
        c = rng.uniform(-1, 1, (M, N), dtype=cp.float32)
        a, b = (a_src.T if args.col == "a" else a_src), (b_src.T if args.col == "b" else b_src)
        for mode in args.modes.split(","):
            k = tm.kernel("wgmma_tma_tf32", precision=mode, **params)
            k.gemm(a, b, c, alpha=0.5, beta=0.25, bias=c[0], activation="gelu")
            k(a, b)
            if args.nan:
                a_src[3, 5] = cp.nan
                k(a, b)
    cp.cuda.Device().synchronize()
    print("sanitize run done")


if __name__ == "__main__":
    main()
