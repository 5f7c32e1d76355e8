"""The GEMV rungs' K-slice count where the grid overshoots a whole wave by a few blocks
(nineteenth session). SkinnyConfig.k_splits takes the slice count nearest to one wave,
round(slots / blocks), which can leave a second round of a few blocks: 2 x 5000 x 16384 float32
is 5 column blocks x 53 slices = 265 blocks on 264 slots; 9298 x 1 x 5590 (gemv_ax) 291 blocks
unsplit. For each shape, auto's pick with its slice count forced to each S (the kernel's own
k_slice rounding), beside cuBLAS and a device copy of the same bytes, alternating, 3 rounds.

    PYTHONPATH=. python3 scripts/variants_s19/probe_gemv_splits.py OUT.txt

Prints per shape and S: blocks, rounds of slots, median us, x cuBLAS and % of the copy's bandwidth.
"""

from __future__ import annotations

import statistics
import sys

import cupy as cp

import tiled_matmul as tm
from tiled_matmul.configs import SkinnyConfig, cdiv
from tiled_matmul.dtypes import as_dtype
from tiled_matmul.timing import L2Flusher, time_fn

FORCED: dict = {"splits": None}
_orig = SkinnyConfig.k_splits


def _k_splits(self, M, N, K, sms, dtype="float32"):
    s = FORCED["splits"]
    if s is None:
        return _orig(self, M, N, K, sms, dtype)
    return cdiv(K, self.k_slice(K, s)) if s > 1 else 1


SkinnyConfig.k_splits = _k_splits

SHAPES = [((9298, 1, 5590), "float32"), ((10000, 1, 8192), "float32"), ((12000, 1, 8192), "float32"),
          ((8460, 8, 10154), "float32"), ((5000, 8, 8192), "float32"), ((10000, 8, 8192), "float32"),
          ((1, 3000, 20000), "float32"), ((1, 1500, 16384), "float32"), ((1, 5000, 16384), "float32"),
          ((1, 10000, 8192), "float32"), ((2, 5000, 16384), "float32"), ((2, 14754, 1261), "float32"),
          ((8192, 8, 8192), "float32"), ((1, 4096, 16384), "float32"), ((8, 8192, 8192), "float32"),
          ((1, 3000, 20000), "float64"), ((9298, 1, 5590), "float64"), ((9298, 1, 5590), "float16"),
          ((1, 3000, 20000), "float16")]
SPLITS = (None, 1, 2, 3, 4, 5, 6, 8, 12, 16)


def main() -> None:
    out = open(sys.argv[1], "w")
    flush = L2Flusher()
    cp.random.seed(3)
    for (M, N, K), dt in SHAPES:
        a = (cp.random.rand(M, K) * 2 - 1).astype(dt)
        b = (cp.random.rand(K, N) * 2 - 1).astype(dt)
        c = cp.empty((M, N), dt)
        k = tm.kernel("auto")
        kf = k.kernel_for(M, N, K, dt)
        cfg = kf.config
        slots = 132 * cfg.occupancy(as_dtype(dt))
        nat = _orig(cfg, M, N, K, 132, dt)
        nbytes = (M * K + K * N + M * N) * a.itemsize
        src = cp.empty(nbytes, dtype=cp.uint8)
        dst = cp.empty_like(src)
        ts: dict = {}
        for _ in range(3):
            for s in SPLITS:
                FORCED["splits"] = s
                k(a, b, out=c)
                if s is None and not tm.check(c, a, b).passed:
                    print("WRONG", M, N, K, dt, file=out, flush=True)
                ts.setdefault(s, []).append(time_fn(lambda i: k(a, b, out=c), repeat=15, warmup=3, flush=flush).median_ms)
            FORCED["splits"] = None
            ts.setdefault("cublas", []).append(time_fn(lambda i: cp.matmul(a, b), repeat=15, warmup=3, flush=flush).median_ms)
            ts.setdefault("copy", []).append(time_fn(lambda i: dst.data.copy_from_device_async(src.data, nbytes), repeat=15,
                                                    warmup=3, flush=flush).median_ms)
        med = {key: statistics.median(v) for key, v in ts.items()}
        copy_gbs = 2 * nbytes / med["copy"] / 1e6
        print(f"{dt} {M}x{N}x{K}: {kf.strategy.name} {cfg.params()}, blocks {cfg.output_blocks(M, N)} x S, "
              f"slots {slots}, natural S {nat}; cuBLAS {med['cublas'] * 1e3:.1f} us", file=out, flush=True)
        for s in SPLITS:
            eff = nat if s is None else (cdiv(K, cfg.k_slice(K, s)) if s > 1 else 1)
            blocks = cfg.output_blocks(M, N) * eff
            print(f"    S {('nat=' + str(nat)) if s is None else s:>6} (runs {eff:3d}) blocks {blocks:5d} rounds {blocks / slots:5.2f}  "
                  f"{med[s] * 1e3:7.1f} us {med['cublas'] / med[s]:5.2f}x {100 * nbytes / med[s] / 1e6 / copy_gbs:5.1f}%",
                  file=out, flush=True)


if __name__ == "__main__":
    main()
