"""dmma configs shaped like the kernels cuBLAS runs for float64 (scripts/probe_cublas_kernels.py:
128x64x16 tiles with 2x2 warps at 4096³, 64x128x32 with 2x4 warps at 3001x2999x3007, 32x32x32 at
256³, 64x64x16 at 640³; cuBLAS's tile is ours transposed, as it computes C^T = B^T A^T), against
auto's pick and cupy.matmul in the same run (CUDA events, L2 flushed with the host lead, medians).

    PYTHONPATH=. python3 scripts/probe_dmma_configs.py [--skinny | --split32 | --mid]

--skinny: the float64 decode / GEMV shapes instead, on the small tiles and split-K.
--split32: long K and 640^3 / 768^3 on 32 x 32 tiles split 2-32 ways.
--mid: 576^3-1024^3 (the 768 bucket and its neighbours) on mid-sized tiles, 8-warp 64 x 64 tiles
and 2-way splits.
"""

from __future__ import annotations

import cupy as cp

import tiled_matmul as tm
from tiled_matmul.timing import L2Flusher, time_fn

BIG = [dict(bm=64, bn=128, bk=16, wm=32, wn=64, stages=3, min_blocks=2),
       dict(bm=64, bn=128, bk=16, wm=32, wn=64, stages=4, min_blocks=2),
       dict(bm=128, bn=64, bk=32, wm=32, wn=32, stages=3, min_blocks=1),
       dict(bm=128, bn=64, bk=16, wm=32, wn=32, stages=3, min_blocks=1),
       dict(bm=64, bn=128, bk=32, wm=32, wn=64, stages=3, min_blocks=1)]
SMALL = [dict(bm=32, bn=32, bk=32, wm=16, wn=16, stages=5, min_blocks=2),
         dict(bm=32, bn=32, bk=16, wm=16, wn=16, stages=5, min_blocks=4),
         dict(bm=64, bn=64, bk=16, wm=32, wn=32, stages=4, min_blocks=3)]
#: cuBLAS runs 2 x 8192 x 8192 on 32x32x32 tiles and 8192 x 8 x 8192 on 64x32x32, not a GEMV kernel
SKINNY = [dict(bm=32, bn=32, bk=32, wm=16, wn=16, stages=5, min_blocks=2),
          dict(bm=32, bn=64, bk=16, wm=16, wn=32, stages=4, min_blocks=4, split_k=2),
          dict(bm=32, bn=64, bk=16, wm=16, wn=32, stages=4, min_blocks=4, split_k=4)]
CASES = [((4096, 4096, 4096), BIG), ((2048, 2048, 2048), BIG), ((3001, 2999, 3007), BIG),
         ((5000, 3000, 1000), BIG), ((1024, 1024, 1024), BIG + SMALL), ((8192, 8192, 128), BIG),
         ((256, 256, 256), SMALL), ((640, 640, 640), SMALL + BIG[:1]), ((768, 768, 768), SMALL + BIG[:1])]
SKINNY_CASES = [(2, 8192, 8192), (8, 8192, 8192), (8192, 8, 8192), (32, 4096, 4096)]
#: long K and the 768 bucket on 32 x 32 tiles with split K (cuBLAS: 64x32x32 plus a split-K kernel
#: at 1024 x 32 x 32768)
SPLIT32 = [dict(bm=32, bn=32, bk=32, wm=16, wn=16, stages=5, min_blocks=2, split_k=s) for s in (2, 4, 8, 16, 32)]
SPLIT_CASES = [(1024, 32, 32768), (256, 256, 131072), (32, 1024, 32768), (640, 640, 640), (768, 768, 768)]
#: the 768 bucket (513-768) and its neighbours (tenth session): tiles that put at most one per SM
#: (96 x 64 at 768^3: 96 tiles), 8 warps on a 64 x 64 tile (latency hiding at one block per SM),
#: 64 x 32 / 32 x 64 unsplit, and 64 x 64 split 2
MID = [dict(bm=64, bn=64, bk=16, wm=32, wn=32, stages=4, min_blocks=2),
       dict(bm=64, bn=64, bk=16, wm=32, wn=16, stages=4, min_blocks=2),
       dict(bm=64, bn=64, bk=16, wm=16, wn=32, stages=4, min_blocks=2),
       dict(bm=96, bn=64, bk=16, wm=48, wn=32, stages=4, min_blocks=2),
       dict(bm=64, bn=96, bk=16, wm=32, wn=48, stages=4, min_blocks=2),
       dict(bm=64, bn=32, bk=16, wm=32, wn=16, stages=4, min_blocks=3),
       dict(bm=32, bn=64, bk=16, wm=16, wn=32, stages=4, min_blocks=4),
       dict(bm=64, bn=64, bk=32, wm=32, wn=32, stages=3, min_blocks=2),
       dict(bm=64, bn=64, bk=16, wm=32, wn=32, stages=4, min_blocks=2, split_k=2),
       dict(bm=64, bn=64, bk=16, wm=32, wn=16, stages=4, min_blocks=2, split_k=2),
       dict(bm=32, bn=32, bk=32, wm=16, wn=16, stages=5, min_blocks=2, split_k=2)]
MID_CASES = [(576, 576, 576), (640, 640, 640), (704, 704, 704), (768, 768, 768), (1024, 1024, 1024),
             (600, 700, 650)]


def med_us(fn, flush, repeat) -> float:
    return time_fn(lambda i: fn(), repeat=repeat, warmup=3, flush=flush).median_ms * 1e3


def main() -> None:
    import sys

    flush = L2Flusher()
    cases = ([(s, SKINNY) for s in SKINNY_CASES] if "--skinny" in sys.argv
             else [(s, SPLIT32) for s in SPLIT_CASES] if "--split32" in sys.argv
             else [(s, MID) for s in MID_CASES] if "--mid" in sys.argv else CASES)
    for (M, N, K), cands in cases:
        a = cp.random.uniform(-1, 1, (M, K))
        b = cp.random.uniform(-1, 1, (K, N))
        c = cp.empty((M, N))
        rep = 9 if M * N * K >= 2**34 else 21
        cublas = med_us(lambda: cp.matmul(a, b, out=c), flush, rep)
        auto = med_us(lambda: tm.matmul(a, b, out=c), flush, rep)
        pick = tm.kernel("auto").kernel_for(M, N, K, "float64")
        print(f"{M}x{N}x{K}: cuBLAS {cublas:.1f} us; auto {auto:.1f} us ({cublas / auto:.3f}x) = {pick.strategy.name} "
              f"{pick.config.params()}", flush=True)
        for params in cands:
            try:
                k = tm.kernel("dmma_split_k" if "split_k" in params else "dmma", **params)
            except ValueError as exc:
                print(f"    {params}: invalid ({str(exc)[:80]})")
                continue
            k(a, b, out=c)
            ok = tm.check(c, a, b).passed
            t = med_us(lambda: k(a, b, out=c), flush, rep)
            print(f"    {str(params):<72} {t:9.1f} us  {cublas / t:.3f}x  {'ok' if ok else 'WRONG'}", flush=True)


if __name__ == "__main__":
    main()
