"""Time register_blocked against cuBLAS (cupy.matmul, FP32, TF32 off) in one run.

    PYTHONPATH=. python3 benchmarks/quick_cublas_ratio.py [--sizes 4096] [--strategies register_blocked]
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("CUPY_TF32", "0")

import cupy as cp  # noqa: E402
import numpy as np  # noqa: E402

import tiled_matmul as tm  # noqa: E402
from tiled_matmul.timing import L2Flusher, time_fn  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="4096")
    ap.add_argument("--strategies", default="register_blocked")
    ap.add_argument("--repeat", type=int, default=30)
    args = ap.parse_args()
    assert os.environ["CUPY_TF32"] == "0"
    flush = L2Flusher()
    print(f"GPU: {tm.device_limits().name}; cupy {cp.__version__}; CUPY_TF32={os.environ['CUPY_TF32']}")
    print(f"{'shape':>16} {'strategy':>18} {'ms':>8} {'TFLOP/s':>8} {'x cuBLAS':>8}")
    for s in args.sizes.split(","):
        M, N, K = (int(x) for x in s.split("x")) if "x" in s else (int(s),) * 3
        rng = np.random.default_rng(0)
        a = cp.asarray(rng.uniform(-1, 1, (M, K)).astype(np.float32))
        b = cp.asarray(rng.uniform(-1, 1, (K, N)).astype(np.float32))
        c = cp.empty((M, N), np.float32)
        t_ref = time_fn(lambda i: cp.matmul(a, b, out=c), repeat=args.repeat, flush=flush)
        print(f"{s:>16} {'cuBLAS':>18} {t_ref.median_ms:8.3f} {t_ref.tflops(M, N, K):8.2f} {1.0:8.3f}")
        for name in args.strategies.split(","):
            k = tm.kernel(name)
            c.fill(np.nan)
            k(a, b, out=c)
            rep = tm.check(c, a, b)
            assert rep.passed, rep
            t = time_fn(lambda i: k(a, b, out=c), repeat=args.repeat, flush=flush)
            print(f"{s:>16} {name:>18} {t.median_ms:8.3f} {t.tflops(M, N, K):8.2f} {t_ref.median_ms / t.median_ms:8.3f}")


if __name__ == "__main__":
    main()
