"""The workload ncu profiles for the float32 memory-bound rows under 88% of copy (nineteenth
session, scripts/gpu_s19a.sh): 8192x8x8192 (gemv_ax), 8x8192x8192 and 1x4096x16384 (gemv_xb), and
1x8192x8192 (gemv_xb at 89%) for contrast, through auto and cupy.matmul, two calls each after a
warm-up, and a device copy of A's bytes."""

import cupy as cp

import tiled_matmul as tm

for M, N, K in [(8192, 8, 8192), (8, 8192, 8192), (1, 4096, 16384), (1, 8192, 8192)]:
    a = cp.random.rand(M, K, dtype=cp.float32)
    b = cp.random.rand(K, N, dtype=cp.float32)
    for _ in range(3):
        tm.matmul(a, b)
        cp.matmul(a, b)
    cp.cuda.Device().synchronize()
src = cp.random.rand(8192 * 8192, dtype=cp.float32)
dst = cp.empty_like(src)
for _ in range(2):
    dst[...] = src
cp.cuda.Device().synchronize()
print("ncu workload done")
