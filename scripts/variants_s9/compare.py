"""Run tf32 wgmma_tma_tf32 from several checkouts (variant kernels, under ROOT/VARIANT) on the same data;
outputs bit for bit against the first variant, componentwise errors, cuBLAS beside (TF32 for tf32, FP32 for tf32x3).

    python3 scripts/variants_s9/compare.py ROOT v0,v3,v4 [tf32|tf32x3]
"""
import os, sys, numpy as np
import cupy
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _checkout import import_checkout, leave  # noqa: E402
root = sys.argv[1]; variants = sys.argv[2].split(",")
mode = sys.argv[3] if len(sys.argv) > 3 else "tf32"
params = dict(bm=256, bn=128, stages=4, passes=1) if mode == "tf32" else dict(bm=128, bn=128, stages=4, passes=3)
shapes = [(4096, 4096, 4096), (1000, 33, 129), (129, 1000, 77), (257, 250, 1000), (3001, 2999, 3007)]
res = {}
for v in variants:
    tm = import_checkout(f"{root}/{v}")
    from tiled_matmul import numerics
    from tiled_matmul.measure import cublas_compute_type
    k = tm.kernel("wgmma_tma_tf32", **params)
    for s in shapes:
        M, N, K = s
        rs = np.random.default_rng(1)
        a = cupy.asarray(rs.uniform(-1, 1, (M, K)).astype(np.float32)); b = cupy.asarray(rs.uniform(-1, 1, (K, N)).astype(np.float32))
        if s == (257, 250, 1000):
            b[7, 3] = np.nan; a[5, 9] = np.inf; b[100, 249] = np.float32(np.frombuffer(np.uint32(0xffffffff).tobytes(), np.float32)[0])
        c = cupy.full((M, N), cupy.nan, cupy.float32)
        k(a, b, out=c)
        ref, den = numerics.reference(a, b)
        err = numerics.componentwise_error(c, a, b, ref, den)
        with cublas_compute_type("tf32" if mode == "tf32" else "fp32"):
            cc = cupy.matmul(a, b)
        cerr = numerics.componentwise_error(cc, a, b, ref, den)
        nanmask_ok = bool((cupy.isnan(c) == cupy.isnan(cc)).all()) and bool((cupy.isinf(c) == cupy.isinf(cc)).all())
        res[(v, s)] = cupy.asnumpy(c)
        same = np.array_equal(res[(v, s)].view(np.uint32), res[(variants[0], s)].view(np.uint32))
        print(f"{v} {mode} {M}x{N}x{K}: err {err:.3e} cuBLAS {cerr:.3e} NaN/Inf masks as cuBLAS {nanmask_ok} bit-equal to {variants[0]} {same}", flush=True)
    leave(f"{root}/{v}")
