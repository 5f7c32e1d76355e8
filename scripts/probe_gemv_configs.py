"""GEMV configs outside the search space, on the GEMV rows still under cuBLAS or under 88% of copy
bandwidth: each candidate's median against cupy.matmul's and a device copy's in the same run (CUDA
events, L2 flushed with the host lead). Invalid configs (the rules' register budget) are listed
and skipped.

    PYTHONPATH=. python3 scripts/probe_gemv_configs.py [outside|kg|kg2|ax]

"outside": the eighth session's configs outside the search space; "kg": gemv_xb's K groups
(tenth session) against the shipped picks on the x·B rows under 88% of copy; "kg2": the
heuristic's K-group picks against its earlier ones on shapes off the suite; "ax": gemv_ax with A
loaded one step ahead (a_buffers=2) against the shipped picks, on the template and config of
scripts/variants_s10/gemv_ax_prefetch.patch (measured and dropped: no faster anywhere).
"""

from __future__ import annotations

import sys

import cupy as cp

import tiled_matmul as tm
from tiled_matmul.timing import L2Flusher, time_fn

XB = [dict(mt=1), dict(mt=2), dict(mt=2, unroll=4, min_blocks=4), dict(mt=1, unroll=4, min_blocks=4),
      dict(mt=2, unroll=8, min_blocks=4), dict(threads=128, mt=2, unroll=8, min_blocks=4),
      dict(threads=128, mt=1, unroll=16, min_blocks=4), dict(threads=512, mt=1, unroll=8, min_blocks=1),
      dict(mt=4, unroll=4, min_blocks=4), dict(mt=8, unroll=2, min_blocks=4), dict(mt=8, unroll=4)]
#: K groups in a block (tenth session): narrow blocks that fill the GPU without a split of K
XB_KG = [dict(mt=1), dict(threads=128, mt=1, unroll=16, min_blocks=4), dict(mt=1, unroll=4, min_blocks=4),
         dict(threads=512, mt=1, unroll=8, min_blocks=1, kg=32), dict(threads=512, mt=1, unroll=8, min_blocks=1, kg=64),
         dict(threads=512, mt=1, unroll=4, min_blocks=1, kg=32), dict(threads=256, mt=1, unroll=8, min_blocks=2, kg=16),
         dict(threads=256, mt=1, unroll=16, min_blocks=2, kg=16), dict(threads=512, mt=1, unroll=16, min_blocks=1, kg=32),
         dict(threads=256, mt=1, unroll=16, min_blocks=2, kg=8), dict(threads=512, mt=1, unroll=16, min_blocks=1, kg=16)]
XB_KG2 = [dict(mt=2), dict(threads=512, mt=2, unroll=4, min_blocks=1, kg=32), dict(threads=512, mt=2, unroll=8, min_blocks=1, kg=32),
          dict(threads=256, mt=2, unroll=8, min_blocks=2, kg=16), dict(threads=512, mt=2, unroll=4, min_blocks=1, kg=64)]
XB_KG8 = [dict(mt=8, unroll=4), dict(threads=256, mt=8, unroll=4, min_blocks=1, kg=16),
          dict(threads=512, mt=8, unroll=4, min_blocks=1, kg=32), dict(threads=256, mt=8, unroll=2, min_blocks=2, kg=16),
          dict(threads=512, mt=8, unroll=2, min_blocks=1, kg=32), dict(threads=256, mt=8, unroll=8, min_blocks=1, kg=16),
          dict(threads=256, mt=8, unroll=12, min_blocks=1, kg=16), dict(threads=256, mt=4, unroll=8, min_blocks=1, kg=16)]
AX = [dict(nt=8, rows=4, unroll=1), dict(nt=8, rows=4, unroll=1, min_blocks=4), dict(nt=8, rows=2, unroll=1, min_blocks=4),
      dict(nt=8, rows=2, unroll=2, min_blocks=4), dict(nt=8, rows=1, unroll=2, min_blocks=4),
      dict(nt=8, rows=4, unroll=2, min_blocks=2), dict(nt=4, rows=4, unroll=1, min_blocks=4),
      dict(nt=8, rows=2, unroll=1, min_blocks=3)]
#: gemv_ax with A loaded one step ahead (a_buffers=2, tenth session)
AX_PF8 = [dict(nt=8, rows=4, unroll=1), dict(nt=8, rows=4, unroll=1, a_buffers=2, min_blocks=1),
          dict(nt=8, rows=2, unroll=1, a_buffers=2), dict(nt=8, rows=2, unroll=2, a_buffers=2, min_blocks=1),
          dict(nt=8, rows=2, unroll=1), dict(nt=4, rows=4, unroll=1, a_buffers=2, min_blocks=1)]
AX_PF1 = [dict(nt=1, rows=4, unroll=4), dict(nt=1, rows=4, unroll=2, a_buffers=2),
          dict(nt=1, rows=4, unroll=4, a_buffers=2, min_blocks=1), dict(nt=1, rows=2, unroll=4, a_buffers=2)]
CASES = {
    "outside": [("gemv_xb", 2, 8192, 8192, "float64", XB), ("gemv_xb", 8, 8192, 8192, "float32", XB),
                ("gemv_xb", 1, 4096, 16384, "float32", XB), ("gemv_xb", 8, 8192, 8192, "float64", XB),
                ("gemv_ax", 8192, 8, 8192, "float64", AX), ("gemv_ax", 8192, 8, 8192, "float32", AX)],
    "kg": [("gemv_xb", 1, 8192, 8192, "float32", XB_KG), ("gemv_xb", 1, 4096, 16384, "float32", XB_KG),
           ("gemv_xb", 2, 8192, 8192, "float32", XB_KG2), ("gemv_xb", 8, 8192, 8192, "float32", XB_KG8),
           ("gemv_xb", 1, 8192, 8192, "float64", XB_KG), ("gemv_xb", 1, 4096, 16384, "float64", XB_KG),
           ("gemv_xb", 4, 12288, 5000, "float32", XB_KG2 + XB_KG8), ("gemv_xb", 1, 1000, 100000, "float32", XB_KG),
           ("gemv_xb", 8, 8192, 8192, "float64", XB_KG8)],
    "ax": [("gemv_ax", 8192, 8, 8192, "float32", AX_PF8), ("gemv_ax", 8192, 8, 8192, "float64", AX_PF8),
           ("gemv_ax", 8192, 1, 8192, "float32", AX_PF1), ("gemv_ax", 8192, 1, 8192, "float64", AX_PF1),
           ("gemv_ax", 100000, 8, 1000, "float32", AX_PF8), ("gemv_ax", 4096, 4, 30000, "float32", AX_PF8)],
    # the heuristic's K-group picks (M = 1, 4) off the suite, and M = 8's float32-only preset
    "kg2": [("gemv_xb", 4, 12288, 5000, "float32", [dict(), dict(threads=256, mt=4, unroll=8, min_blocks=1, kg=16)]),
            ("gemv_xb", 3, 4096, 14336, "float64", [dict(), dict(threads=256, mt=4, unroll=8, min_blocks=1, kg=16)]),
            ("gemv_xb", 1, 1000, 100000, "float32", [dict(mt=1), dict(threads=512, mt=1, unroll=8, min_blocks=1, kg=32)]),
            ("gemv_xb", 1, 3000, 20000, "float64", [dict(mt=1), dict(threads=512, mt=1, unroll=8, min_blocks=1, kg=32)]),
            ("gemv_xb", 1, 50000, 2048, "float32", [dict(mt=1), dict(threads=512, mt=1, unroll=8, min_blocks=1, kg=32)]),
            ("gemv_xb", 8, 8192, 8192, "float32", [dict(mt=8, unroll=4), dict(threads=256, mt=8, unroll=8, min_blocks=1, kg=16)])],
}


def med_us(fn, flush) -> float:
    return time_fn(lambda i: fn(), repeat=15, warmup=3, flush=flush).median_ms * 1e3


def main() -> None:
    flush = L2Flusher()
    for name, M, N, K, dt, cands in CASES[sys.argv[1] if len(sys.argv) > 1 else "outside"]:
        a = cp.random.uniform(-1, 1, (M, K)).astype(dt)
        b = cp.random.uniform(-1, 1, (K, N)).astype(dt)
        c = cp.empty((M, N), dtype=dt)
        nbytes = a.nbytes + b.nbytes + c.nbytes
        src, dst = cp.empty(nbytes, cp.uint8), cp.empty(nbytes, cp.uint8)
        copy_gbs = 2 * nbytes / med_us(lambda: dst.data.copy_from_device_async(src.data, nbytes), flush) / 1e3
        cublas = med_us(lambda: cp.matmul(a, b, out=c), flush)
        auto = med_us(lambda: tm.matmul(a, b, out=c), flush)
        pick = tm.kernel("auto").kernel_for(M, N, K, dt)
        print(f"{M}x{N}x{K} {dt}: cuBLAS {cublas:.1f} us; auto {auto:.1f} us ({cublas / auto:.3f}x, "
              f"{100 * nbytes / auto / 1e3 / copy_gbs:.1f}% of copy) = {pick.strategy.name} {pick.config.params()}", flush=True)
        for params in cands:
            try:
                k = tm.kernel(name, **params)
                k.config.validate(dtype=dt)  # a dtype's register budget: checked at the call otherwise
            except ValueError as exc:
                print(f"    {params}: invalid ({str(exc)[:80]})")
                continue
            k(a, b, out=c)
            ok = tm.check(c, a, b).passed
            t = med_us(lambda: k(a, b, out=c), flush)
            print(f"    {str(params):<60} {t:7.1f} us  {cublas / t:.3f}x  {100 * nbytes / t / 1e3 / copy_gbs:5.1f}%"
                  f"  {'ok' if ok else 'WRONG'}", flush=True)


if __name__ == "__main__":
    main()
