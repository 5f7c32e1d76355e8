"""Thirteenth session: dmma and dmma_tail on one 128 x 128 tile config at one shape, two calls each,
for ncu to profile side by side (kernel names tell which is which).

    ncu --metrics ... python3 scripts/variants_s13/ncu_tail.py 4096x4096x4096
"""
import sys

import cupy as cp

import tiled_matmul as tm

M, N, K = (int(d) for d in sys.argv[1].split("x"))
a = cp.full((M, K), 0.5)
b = cp.full((K, N), 0.25)
p = dict(bm=128, bn=128, wm=32, wn=64, min_blocks=1)
for _ in range(2):
    tm.matmul(a, b, strategy="dmma", **p)
for _ in range(2):
    tm.matmul(a, b, strategy="dmma_tail", **p)
cp.cuda.runtime.deviceSynchronize()
