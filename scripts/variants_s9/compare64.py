"""float64 dmma (the 128x64x16 config) from several checkouts on the same data: bits against the first.

    python3 scripts/variants_s9/compare64.py ROOT base,va,vc,vcb
"""
import os, sys, numpy as np
import cupy
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _checkout import import_checkout, leave  # noqa: E402
root = sys.argv[1]; variants = sys.argv[2].split(",")
shapes = [(4096, 4096, 4096), (1000, 33, 129), (129, 1000, 77), (3001, 2999, 3007), (2048, 2048, 2048), (700, 515, 1001)]
res = {}
for v in variants:
    tm = import_checkout(f"{root}/{v}")
    for s in shapes:
        M, N, K = s
        rs = np.random.default_rng(3)
        a = cupy.asarray(rs.uniform(-1, 1, (M, K))); b = cupy.asarray(rs.uniform(-1, 1, (K, N)))
        c = cupy.full((M, N), cupy.nan)
        k = tm.kernel("dmma", bm=128, bn=64, bk=16, wm=64, wn=32, mma_k=8, stages=3, group_m=8, min_blocks=2)
        k(a, b, out=c)
        res[(v, s)] = cupy.asnumpy(c)
        ref = cupy.asnumpy(a) @ cupy.asnumpy(b)
        err = float(np.max(np.abs(res[(v, s)] - ref)))
        same = np.array_equal(res[(v, s)].view(np.uint64), res[(variants[0], s)].view(np.uint64))
        print(f"{v} {M}x{N}x{K}: max abs err {err:.2e} bit-equal to {variants[0]} {same}", flush=True)
    leave(f"{root}/{v}")
