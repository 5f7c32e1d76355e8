"""The workload ncu profiles for the 16-bit decode split (eighteenth session, scripts/gpu_s18l.sh):
64x8192x8192 and 16x4096x4096 float16 through auto (wgmma_tma_split_k and its reduce) and through
cupy.matmul (cuBLAS), three calls each after a warm-up."""

import cupy as cp

import tiled_matmul as tm

for M, N, K in [(64, 8192, 8192), (16, 4096, 4096)]:
    a = (cp.random.rand(M, K, dtype=cp.float32) * 2 - 1).astype(cp.float16)
    b = (cp.random.rand(K, N, dtype=cp.float32) * 2 - 1).astype(cp.float16)
    for _ in range(4):
        tm.matmul(a, b)
        cp.matmul(a, b)
    cp.cuda.Device().synchronize()
print("ncu workload done")
