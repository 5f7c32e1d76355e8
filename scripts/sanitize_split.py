"""The compute-sanitizer workload of the split-K products: each split rung on a shape that splits
(with lanes and without), a batched epilogue through the reduce, results checked against a float64
product. Prints "sanitize run done" last (scripts/gpu_sanitize.sh greps it).

    compute-sanitizer --tool racecheck python3 scripts/sanitize_split.py [NAME_PART]

NAME_PART runs the cases whose strategy name contains it, alone (e.g. "half"); "pairs" runs dmma's
pairs-layout cases alone.
"""

from __future__ import annotations

import sys

import cupy as cp
import numpy as np

import tiled_matmul as tm

CASES = [  # (strategy, params, M, N, K, dtype)
    ("gemv_xb", dict(mt=1), 1, 2048, 8192, "float32"),   # 16 lanes in the reduce
    # K groups summed in shared memory, with a split of K (8 slices) and without, ragged
    ("gemv_xb", dict(threads=512, mt=1, unroll=8, min_blocks=1, kg=32), 1, 1000, 65536, "float32"),
    ("gemv_xb", dict(threads=256, mt=8, unroll=4, min_blocks=1, kg=16), 7, 1001, 1003, "float64"),
    ("gemv_ax", dict(nt=1), 300, 1, 16384, "float64"),
    ("wgmma_split_k", dict(bm=64, bn=64, stages=4, min_blocks=2, split_k=8), 64, 64, 8192, "float32"),
    ("dmma_split_k", dict(split_k=4), 129, 127, 1000, "float64"),  # ragged, element path
    ("split_k", dict(split_k=4), 256, 256, 1024, "float32"),       # many outputs: one lane
    # dmma's tiles added in the tenth session, unsplit, ragged (not split products: checked here
    # because this is the workload the sanitizer scripts run)
    ("dmma", dict(bm=32, bn=64, bk=16, wm=16, wn=32, stages=4, min_blocks=4), 129, 127, 1000, "float64"),
    ("dmma", dict(bm=64, bn=64, bk=16, wm=32, wn=16, stages=4, min_blocks=2), 129, 127, 1000, "float64"),
    # dmma's misaligned-operand kernel (eleventh session): interior blocks in 8-byte pairs, an odd K
    # (A's rows; the last pair straddles K), an odd N (B's and C's rows), both, and split
    ("dmma", dict(bm=128, bn=64, bk=16, wm=64, wn=32, stages=3, min_blocks=2), 300, 200, 1001, "float64"),
    ("dmma", dict(bm=128, bn=64, bk=16, wm=64, wn=32, stages=3, min_blocks=2), 300, 201, 1000, "float64"),
    ("dmma", dict(bm=32, bn=64, bk=16, wm=16, wn=32, stages=4, min_blocks=4), 129, 129, 257, "float64"),
    ("dmma_split_k", dict(bm=128, bn=64, bk=8, wm=64, wn=32, stages=4, min_blocks=2, split_k=4), 256, 129, 4001,
     "float64"),
    # dmma's FRAG_AHEAD loop (twelfth session: the barrier before a step's last row, the next
    # stage's fragments read after it): fewer steps than stages in flight, and an odd count of
    # 8-deep steps (two per iteration)
    ("dmma", dict(bm=32, bn=32, bk=32, wm=16, wn=16, stages=5, min_blocks=2), 65, 63, 33, "float64"),
    ("dmma", dict(bm=64, bn=64, bk=8, wm=32, wn=32, stages=4, min_blocks=3), 130, 70, 17, "float64"),
    ("dmma_split_k", dict(bm=64, bn=64, bk=16, wm=32, wn=16, stages=4, min_blocks=2, split_k=8), 100, 90, 3000,
     "float64"),
    # the fourteenth session's half rungs (float16: bfloat16 differs in the conversions alone):
    # mma_half_split_k unaligned (element loads) with empty slices and aligned on 128 x 128 tiles;
    # gemv_xb_half with K groups' shared sums and a split, and ragged (element path); gemv_ax_half
    # split, and with A's rows unaligned (element path)
    ("mma_half_split_k", dict(split_k=64), 129, 127, 1000, "float16"),
    ("mma_half_split_k", dict(bm=128, bn=128, wm=64, wn=32, min_blocks=2, split_k=4), 256, 256, 4096, "float16"),
    ("gemv_xb_half", dict(threads=512, mt=1, unroll=8, min_blocks=1, kg=32), 1, 1000, 65536, "float16"),
    ("gemv_xb_half", {}, 3, 1003, 5001, "float16"),
    ("gemv_ax_half", dict(nt=1, rows=4, unroll=2), 300, 1, 16384, "float16"),
    ("gemv_ax_half", {}, 129, 3, 1001, "float16"),
    # the fifteenth session's gemv_ax_mma: split (float partials, the reduce), ragged rows and
    # column chunks on each load path of A (16-byte, 4-byte, 2-byte rows)
    ("gemv_ax_mma", {}, 64, 8, 65536, "float16"),
    ("gemv_ax_mma", {}, 1000, 17, 1000, "float16"),
    ("gemv_ax_mma", dict(kg=4, min_blocks=4), 129, 5, 1002, "bfloat16"),
    ("gemv_ax_mma", dict(rt=1, kg=16, unroll=2, min_blocks=1), 33, 3, 5001, "float16"),
    # the sixteenth session's staged store of C rows that are not 16-byte aligned (the pipeline's
    # buffers reused for C after the K loop): warp_tiled's 64 x 64 and 32 x 32 tiles, float64, and
    # split_k's partial tiles
    ("warp_tiled", dict(bm=64, bn=64, bk=16, wm=32, wn=32, tm=4, tn=8, stages=3, min_blocks=4), 129, 127, 31,
     "float32"),
    ("warp_tiled", dict(bm=32, bn=32, bk=16, wm=16, wn=32, tm=4, tn=4, stages=3, min_blocks=4), 65, 129, 1,
     "float32"),
    ("warp_tiled", dict(bm=64, bn=64, bk=16, wm=32, wn=32, tm=4, tn=8, stages=3, min_blocks=4), 33, 3, 300,
     "float64"),
    ("split_k", dict(bm=64, bn=64, bk=8, wm=32, wn=32, tm=4, tn=8, stages=4, min_blocks=4, split_k=4), 129, 127,
     1000, "float32"),
    ("register_blocked", {}, 300, 257, 33, "float32"),
    ("register_blocked", dict(bm=64, bn=64, bk=16, tm=4, tn=4), 129, 127, 31, "float64"),
    # mma_half_split_k on zero-padded copies of unaligned operands (sixteenth session): odd K and N
    ("mma_half_split_k", {}, 300, 257, 2049, "float16"),
    # dmma's partial-tile kernel (twenty-first session): aligned operands, tiles shifted back inside
    # M and N (both ragged, one ragged, M below a tile), split and tail products through it
    ("dmma", dict(bm=128, bn=64, bk=16, wm=64, wn=32, stages=3, min_blocks=2), 300, 200, 1000, "float64"),
    ("dmma", {}, 257, 130, 64, "float64"),
    ("dmma", dict(bm=32, bn=64, bk=16, wm=16, wn=32, stages=4, min_blocks=4), 100, 66, 30, "float64"),
    ("dmma_split_k", dict(split_k=4), 300, 130, 4000, "float64"),
    ("dmma_tail", {}, 1000, 1000, 1000, "float64"),
    # dmma's pairs layout (twenty-second session): whole tiles (the main kernel, interior loop alone),
    # partial tiles (the edge kernel, likewise), an output under one tile and an odd K (the elem
    # kernel, edge copies and 8-byte pairs), on the 128 x 128 and 64 x 64 tiles
    ("dmma", dict(wm=32, wn=64, pairs=1), 256, 256, 96, "float64"),
    ("dmma", dict(wm=32, wn=64, pairs=1), 300, 200, 1000, "float64"),
    ("dmma", dict(wm=32, wn=64, pairs=1), 100, 200, 64, "float64"),
    ("dmma", dict(wm=32, wn=64, pairs=1), 257, 130, 77, "float64"),
    ("dmma", dict(bm=64, bn=64, bk=16, wm=32, wn=16, stages=4, min_blocks=2, pairs=1), 129, 127, 1000, "float64"),
    # dmma_tail on the pairs layout (twenty-third session): whole tiles (main kernel) and partial
    # ones (edge kernel), each a head of whole waves and a tail of slices; the 64 x 64 tile at two
    # per SM (288 tiles: 264 whole, 24 in 8 slices each)
    ("dmma_tail", dict(wm=32, wn=64, pairs=1), 1536, 1536, 512, "float64"),
    ("dmma_tail", dict(wm=32, wn=64, pairs=1), 1500, 1500, 1030, "float64"),
    ("dmma_tail", dict(bm=64, bn=64, bk=16, wm=32, wn=16, stages=4, min_blocks=2, pairs=1), 1100, 1000, 1030, "float64"),
    # the eighteenth session's wgmma_tma_split_k: empty slices (K = 100 in 64 ways), ragged rows
    # padded by a copy, a decode-like C, and several units per CTA (4 tiles x 64 slices)
    ("wgmma_tma_split_k", dict(split_k=64), 33, 65, 100, "float16"),
    ("wgmma_tma_split_k", dict(split_k=8), 129, 127, 1001, "float16"),
    ("wgmma_tma_split_k", dict(split_k=4), 32, 1024, 4096, "float16"),
    ("wgmma_tma_split_k", dict(bn=64, stages=8, split_k=64), 256, 128, 8192, "float16"),
    # the nineteenth session's slice counts (SkinnyConfig.split_plan): 5 slices of a 196-deep K,
    # 8 of 10154 (ragged last slice), 4 of 3001 at 5 columns, 3 for a 16-bit A.x, 5 for a 16-bit x.B
    ("gemv_xb", dict(mt=2), 2, 10, 196, "float32"),
    ("gemv_ax", dict(nt=8, rows=4, unroll=1), 1000, 8, 10154, "float32"),
    ("gemv_ax", dict(nt=8, rows=4, unroll=1), 2100, 5, 3001, "float32"),
    ("gemv_ax_half", dict(nt=1, rows=4, unroll=2), 1309, 1, 3173, "float16"),
    ("gemv_xb_half", dict(threads=512, mt=1, unroll=8, min_blocks=1, kg=32), 1, 3000, 20000, "float16"),
    # the twentieth session's gemv_xb_tma (the TMA ring): unsplit on 64- and 32-column blocks, split
    # (the reduce), row chunks with rows past M, ragged N and K (padded copies), fewer steps than
    # stages, and the 6x2048x1024 product that ran 16x slower than its neighbours
    ("gemv_xb_tma", {}, 8, 8192, 2048, "float32"),
    ("gemv_xb_tma", dict(mt=1, bn=32, rk=128, stages=8), 1, 4096, 4096, "float32"),
    ("gemv_xb_tma", dict(mt=8, bn=32, rk=128), 6, 2048, 1024, "float32"),
    ("gemv_xb_tma", dict(mt=4, rk=128, stages=6), 11, 1001, 1003, "float32"),
    ("gemv_xb_tma", dict(mt=2, bn=32, rk=128, stages=8), 2, 640, 200, "float32"),
]


def main() -> None:
    gen = cp.random.default_rng(1)
    only = sys.argv[1] if len(sys.argv) > 1 else ""  # a part of the strategy names to run alone
    for name, params, M, N, K, dtype in CASES:
        # ("pairs": dmma's pairs-layout cases alone)
        if (only not in name) if only != "pairs" else not params.get("pairs"):
            continue
        draw = np.float32 if dtype == "float16" else np.dtype(dtype)  # cupy draws no float16
        a = (gen.random((M, K), dtype=draw) * 2 - 1).astype(dtype)
        b = (gen.random((K, N), dtype=draw) * 2 - 1).astype(dtype)
        c = tm.matmul(a, b, strategy=name, **params)
        assert tm.check(c, a, b).passed, name
        print(name, "ok", flush=True)
    if only:
        cp.cuda.Device().synchronize()
        print("sanitize run done", flush=True)
        return
    # the misaligned-operand kernel on column-major operands read in place (aᵀ, bᵀ), odd sizes
    for ta, tb in ((True, False), (False, True)):
        a = gen.random((1001, 300) if ta else (300, 1001), dtype=np.float64) * 2 - 1
        b = gen.random((201, 1001) if tb else (1001, 201), dtype=np.float64) * 2 - 1
        a, b = (a.T if ta else a), (b.T if tb else b)
        c = tm.matmul(a, b, strategy="dmma")
        assert tm.check(c, a, b).passed, ("dmma layouts", ta, tb)
        print("dmma layout", ta, tb, "ok", flush=True)
    a = gen.random((3, 64, 4096), dtype=np.float64) * 2 - 1
    b = gen.random((3, 4096, 64), dtype=np.float64) * 2 - 1
    bias = gen.random(64, dtype=np.float64)
    c = tm.gemm(a, b, bias=bias, activation="relu", strategy="dmma_split_k", split_k=4)
    ref = cp.maximum(cp.matmul(a, b) + bias, 0)
    assert float(cp.abs(c - ref).max()) < 1e-10 * 4096
    # dmma_tail (thirteenth session): whole tiles and a tail split by K in one launch, then the tail
    # reduce as its dependent; at the H100's own slots (1500^3: 132 + 12 tiles) and with 3 slots on
    # ragged shapes (odd K: the elem kernel; odd N: the reduce's element stores)
    from tiled_matmul.strategies.dmma_tail import DmmaTailConfig

    shapes = [(1500, 1500, 1500)]
    real = DmmaTailConfig.slots
    for slots, more in ((None, []), (3, [(391, 125, 1029), (385, 126, 1030), (449, 127, 1001)])):
        if slots is not None:
            DmmaTailConfig.slots = lambda self, limits, registers=None, dtype=None, n=slots: n
        for M, N, K in shapes + more:
            a = gen.random((M, K), dtype=np.float64) * 2 - 1
            b = gen.random((K, N), dtype=np.float64) * 2 - 1
            c = tm.matmul(a, b, strategy="dmma_tail")
            assert tm.check(c, a, b).passed, ("dmma_tail", slots, (M, N, K))
            print("dmma_tail", slots, (M, N, K), "ok", flush=True)
        shapes = []
    DmmaTailConfig.slots = real
    cp.cuda.Device().synchronize()
    print("sanitize run done", flush=True)


if __name__ == "__main__":
    main()
