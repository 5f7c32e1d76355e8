"""Does wgmma_split_k gain from more than 64 slices on a one-tile output? (probe, fifth session)

    PYTHONPATH=. python3 scripts/probe_split128.py

Times wgmma_split_k (64 x 64 tiles) at 64x64x65536 and 64x64x131072 float32 with split_k 32, 64 and
128 (the config rule's cap of 64 lifted for this run only) beside cupy.matmul (cuBLAS FP32), checked
against float64 first. CUDA-event medians, L2 flushed.
"""

from __future__ import annotations

import os

os.environ.setdefault("CUPY_TF32", "0")

import cupy as cp  # noqa: E402

import tiled_matmul as tm  # noqa: E402
from tiled_matmul import configs  # noqa: E402
from tiled_matmul.timing import L2Flusher, time_fn  # noqa: E402

orig = configs.SplitKField.rules


def rules(self, limits, dt):  # the cap lifted: 2 <= split_k <= 128
    for ok, msg in orig(self, limits, dt):
        yield (True if "must be between 2 and 64" in msg else ok), msg


configs.SplitKField.rules = rules
flush = L2Flusher()
print("| shape | split_k | ms | cuBLAS ms | x cuBLAS | max err |")
print("|---|---:|---:|---:|---:|---:|")
for M, N, K in ((64, 64, 65536), (64, 64, 131072), (1024, 32, 32768)):
    rng = cp.random.default_rng(0)
    a = rng.uniform(-1, 1, (M, K), dtype=cp.float32)
    b = rng.uniform(-1, 1, (K, N), dtype=cp.float32)
    ref = a.astype(cp.float64) @ b.astype(cp.float64)
    den = cp.abs(a.astype(cp.float64)) @ cp.abs(b.astype(cp.float64))
    t_cu = time_fn(lambda i: cp.matmul(a, b), repeat=30, flush=flush).median_ms
    for split in (16, 32, 64, 128):
        k = tm.kernel("wgmma_split_k", bm=64, bn=64, stages=4, min_blocks=2, split_k=split)
        c = k(a, b)
        err = float(cp.max(cp.abs(c - ref) / den))
        t = time_fn(lambda i: k(a, b), repeat=30, flush=flush).median_ms
        print(f"| {M}x{N}x{K} | {split} | {t:.4f} | {t_cu:.4f} | {t_cu / t:.2f} | {err:.2g} |", flush=True)
