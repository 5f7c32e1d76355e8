"""a @ b and a.T @ b (A stored K x M, read in place column-major) on the same wgmma_tma config,
each `--calls` times after one warm-up call, float16 — for ncu to profile side by side (the
column-major kernel's name carries its layout). What a column-major A costs on the rung (2-17%,
thirty-third session) was never profiled: its 64-m MN-major boxes take two TMA copies per
128-row stage where a row-major A takes one.

    ncu --kernel-name regex:wgmma_tma --launch-skip 2 --launch-count 4 \
        python3 scripts/variants_s35/acol_pair.py 1024 --bn 64 --stages 8
"""
from __future__ import annotations

import argparse


def main() -> None:
    import cupy as cp
    import numpy as np

    import tiled_matmul as tm

    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int, help="M = N = K")
    ap.add_argument("--bn", type=int, default=256)
    ap.add_argument("--stages", type=int, default=3)
    ap.add_argument("--calls", type=int, default=2)
    args = ap.parse_args()
    n = args.n
    kern = tm.kernel("wgmma_tma", bm=128, bn=args.bn, stages=args.stages)
    rs = np.random.default_rng(3502)
    a = cp.asarray(rs.uniform(-1, 1, (n, n)).astype(np.float16))
    at = cp.ascontiguousarray(a.T).T  # the same values, stored column-major
    b = cp.asarray(rs.uniform(-1, 1, (n, n)).astype(np.float16))
    c = cp.empty((n, n), cp.float16)
    for x in (a, at):  # warm-up (compiles), then the profiled calls, plain first
        kern(x, b, c)
    for x in (a, at):
        for _ in range(args.calls):
            kern(x, b, c)
    cp.cuda.Device().synchronize()


if __name__ == "__main__":
    main()
