"""6x2048x1024 float32 on gemv_xb_tma (mt=8, bn=32, rk=128) ran 418 us against 10-12 us for its
neighbours in probe_xb_tma_rule.py. Is it the kernel, the split, or the timing? Times each shape
three ways: time_fn (L2 flushed, as the probe), plain back-to-back events, and the kernel alone
through tm.kernel; with the slice count the launch uses.

    python3 scripts/variants_s20/probe_xb_tma_anomaly.py
"""
import statistics

import cupy
import numpy as np

import tiled_matmul as tm
from tiled_matmul.device import device_limits
from tiled_matmul.timing import L2Flusher, time_fn

P = dict(mt=8, bn=32, rk=128)
flush = L2Flusher()
rs = np.random.default_rng(1)
sms = device_limits().sm_count
for M, N, K in [(6, 2048, 1024), (8, 2048, 1024), (5, 2048, 1024), (7, 2048, 1024), (6, 2048, 1028),
                (6, 2048, 2048), (6, 2040, 1024), (6, 1024, 1024), (4, 2048, 1024), (6, 2048, 1024)]:
    a = cupy.asarray(rs.uniform(-1, 1, (M, K)), dtype=cupy.float32)
    b = cupy.asarray(rs.uniform(-1, 1, (K, N)), dtype=cupy.float32)
    k = tm.kernel("gemv_xb_tma", **P)
    splits = k.config.k_splits(M, N, K, sms, "float32")
    assert tm.check(k(a, b), a, b).passed
    t1 = time_fn(lambda i: k(a, b), repeat=15, warmup=3, flush=flush).median_ms
    out = cupy.empty((M, N), dtype=cupy.float32)
    s, e = cupy.cuda.Event(), cupy.cuda.Event()
    plain = []
    for _ in range(20):
        s.record()
        k(a, b, out=out)
        e.record()
        e.synchronize()
        plain.append(cupy.cuda.get_elapsed_time(s, e))
    print(f"{M}x{N}x{K}: splits {splits}, time_fn {t1 * 1e3:.1f} us, back-to-back "
          f"{statistics.median(plain) * 1e3:.1f} us (min {min(plain) * 1e3:.1f}, max {max(plain) * 1e3:.1f})",
          flush=True)
