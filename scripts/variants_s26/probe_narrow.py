"""float32 products with 17-64 rows (x·B) or columns (A·x) on the wgmma rungs with a narrow wgmma n:
tiles of bm = 24-48 rows instead of auto's 64, and for A·x the product computed as its transpose
(C^T = B^T A^T, both operands read in place column-major, then C^T copied into C) so that the
small side is wgmma's n, not its 64-row m (twenty-sixth session).

    PYTHONPATH=. python3 scripts/variants_s26/probe_narrow.py

Each call checked first (tm.check on a NaN-poisoned C); 3 alternating rounds, CUDA events after
warm-up, L2 flushed, medians, cuBLAS FP32 and a device copy of the product's bytes in the same rounds.
"""
import os
import sys

import cupy
import numpy as np

import tiled_matmul as tm
from tiled_matmul import execute
from tiled_matmul.timing import L2Flusher

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s20"))
from _rounds import print_rows, timed_with_copy  # noqa: E402

XB = [(17, 4096, 12617), (24, 4096, 16384), (28, 3384, 6032), (31, 12329, 5807), (20, 6000, 3000),
      (40, 8192, 8192), (48, 4096, 8192), (64, 8192, 8192)]
AX = [(16337, 20, 13807), (4096, 24, 16384), (8192, 32, 4096), (3000, 28, 9000), (8192, 48, 8192),
      (8192, 64, 8192)]
SLOTS = 132


def configs(small: int, big: int, K: int) -> dict:
    """{label: (strategy, params)} for a product whose small side is `small` and large side `big`."""
    out = {}
    for bm in sorted({min(64, -(-small // 8) * 8), 32 if small <= 32 else 48}):
        for bn, stages, mb in ((128, 6, 1), (64, 4, 2)):
            tiles = -(-small // bm) * -(-big // bn)
            want = SLOTS * mb / tiles
            split = min((1, 2, 4, 8, 16), key=lambda s: abs(np.log(s / want)))
            if K // split < 256:
                split = max(1, K // 256)
            strat = "wgmma" if split == 1 else "wgmma_split_k"
            p = dict(bm=bm, bn=bn, stages=stages, min_blocks=mb)
            if split > 1:
                p["split_k"] = split
            out[f"bm{bm}_bn{bn}_s{split}"] = (strat, p)
    return out


def main() -> None:
    flush = L2Flusher()
    rs = np.random.default_rng(261)
    print("| shape | call | µs | × cuBLAS | % copy | pick |")
    print("|---|---|---:|---:|---:|---|")
    for M, N, K in XB + AX:
        ax = N < M
        a = cupy.asarray(rs.uniform(-1, 1, (M, K)), dtype=cupy.float32)
        b = cupy.asarray(rs.uniform(-1, 1, (K, N)), dtype=cupy.float32)
        c = cupy.empty((M, N), dtype=cupy.float32)
        ct = cupy.empty((N, M), dtype=cupy.float32)
        auto = tm.kernel("auto").kernel_for(M, N, K, "float32")
        fns = {"cublas": lambda: cupy.matmul(a, b), "auto": lambda: tm.matmul(a, b, out=c)}
        extra = {"auto": f"{auto.strategy.name} {auto.config.params()}"}
        small, big = (N, M) if ax else (M, N)
        for label, (strat, p) in configs(small, big, K).items():
            if ax:
                def f(strat=strat, p=p):
                    tm.matmul(b.T, a.T, out=ct, strategy=strat, **p)
                    c[...] = ct.T
                label = "T_" + label
            else:
                def f(strat=strat, p=p):
                    tm.matmul(a, b, out=c, strategy=strat, **p)
            fns[label] = f
            extra[label] = f"{strat} {p}"
        bad = []
        for k, f in list(fns.items())[1:]:
            c.fill(cupy.nan)
            copies = sum(execute.layout_copies_made.values())
            try:
                f()
            except Exception as e:  # noqa: BLE001 - a probe: report and drop the candidate
                print(f"# {M}x{N}x{K} {k}: {type(e).__name__}: {e}"[:300], flush=True)
                bad.append(k)
                continue
            if sum(execute.layout_copies_made.values()) != copies:
                extra[k] = extra.get(k, "") + " (layout copy)"
            r = tm.check(c, a, b)
            if not r.passed:
                print(f"# {M}x{N}x{K} {k}: check failed {r}"[:300], flush=True)
                bad.append(k)
        for k in bad:
            fns.pop(k)
        nbytes = (M * K + K * N + M * N) * 4
        res, med = timed_with_copy(fns, nbytes, 3, flush)
        print_rows((M, N, K), fns, res, med, nbytes, extra=extra)


if __name__ == "__main__":
    main()
