"""One product through `auto` and through cuBLAS (cupy.matmul), each called `--calls` times, for
ncu to profile side by side (kernel names tell which is which):

    ncu --metrics ... python3 scripts/probe_ncu_pair.py 768x768x768 --dtype float64
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("CUPY_TF32", "0")

import cupy as cp  # noqa: E402

import tiled_matmul as tm  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("shape")
    ap.add_argument("--dtype", default="float64")
    ap.add_argument("--calls", type=int, default=3)
    args = ap.parse_args()
    M, N, K = (int(d) for d in args.shape.split("x"))
    a = cp.full((M, K), 0.5, dtype=args.dtype)
    b = cp.full((K, N), 0.25, dtype=args.dtype)
    for _ in range(args.calls):
        tm.matmul(a, b)
    for _ in range(args.calls):
        cp.matmul(a, b)
    cp.cuda.Device().synchronize()


if __name__ == "__main__":
    main()
