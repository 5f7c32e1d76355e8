"""float64 DMMA with every fragment pair one 16-byte ld.shared (twenty-first session; dmma_t.cu says
how): its per-K rate against cuBLAS DGEMM and the shipped `dmma` picks, on shapes that are whole
tiles.

    PYTHONPATH=. python3 scripts/variants_s21/probe_dmma_t.py [ROUNDS] [more] [only=NAME,NAME...]

Every variant is checked first (max |C - ref| / (|A|.|B|) per element against a float64 reference
computed by cuBLAS DGEMM of the same operands, output NaN-poisoned before the launch, beside
cuBLAS's own error against an exact-ish reference from a compensated product), then timed in
alternating rounds with cuBLAS and tm.matmul (auto) (CUDA events after warm-up, L2 flushed,
median of 9 per round); the table gives each variant's median over rounds x cuBLAS.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

import cupy

import tiled_matmul as tm
from tiled_matmul.timing import L2Flusher, time_fn

SRC = (Path(__file__).parent / "dmma_t.cu").read_text()
VARIANTS = {
    "t128x64s3": dict(BM=128, BN=64, WM=64, WN=32, STAGES=3, MINB=2),
    "t128x64s4": dict(BM=128, BN=64, WM=64, WN=32, STAGES=4, MINB=2),
    "s4_ca": dict(BM=128, BN=64, WM=64, WN=32, STAGES=4, MINB=2, CA=1),
    "s4_splitcp": dict(BM=128, BN=64, WM=64, WN=32, STAGES=4, MINB=2, SPLITCP=1),
    "s4_g4": dict(BM=128, BN=64, WM=64, WN=32, STAGES=4, MINB=2, GROUP_M=4),
    "s4_g16": dict(BM=128, BN=64, WM=64, WN=32, STAGES=4, MINB=2, GROUP_M=16),
    "t64x128s4": dict(BM=64, BN=128, WM=32, WN=64, STAGES=4, MINB=2),
    "t128x128_32x64": dict(BM=128, BN=128, WM=32, WN=64, STAGES=3, MINB=1),
    "t128x128_32x64_s4": dict(BM=128, BN=128, WM=32, WN=64, STAGES=4, MINB=1),
    "bk32s2": dict(BM=128, BN=64, BK=32, WM=64, WN=32, STAGES=2, MINB=2),
    "bk32s2_64x128": dict(BM=64, BN=128, BK=32, WM=32, WN=64, STAGES=2, MINB=2),
}
SHAPES = [(2048, 2048, 2048), (4096, 4096, 4096), (5120, 3072, 1024), (6144, 4096, 2048), (1024, 1024, 1024),
          (8192, 8192, 4096)] + ([(4096, 4096, 16384), (8192, 8192, 128)] if "more" in sys.argv[2:] else [])


class Variant:
    def __init__(self, name: str, d: dict):
        self.name, self.d = name, d
        opts = tuple(f"-D{k}={v}" for k, v in d.items()) + ("--std=c++17",)
        self.kernel = cupy.RawModule(code=SRC, options=opts).get_function("dmma_t")
        bm, bn, bk, st = d["BM"], d["BN"], d.get("BK", 16), d["STAGES"]
        self.smem = st * (bm * bk + bk * (bn + 2)) * 8
        self.kernel.max_dynamic_shared_size_bytes = self.smem
        self.threads = 32 * (bm // d["WM"]) * (bn // d["WN"])

    def fits(self, M, N, K) -> bool:
        return M % self.d["BM"] == 0 and N % self.d["BN"] == 0 and K % self.d.get("BK", 16) == 0

    def __call__(self, a, b, c):
        M, K = a.shape
        N = b.shape[1]
        grid = (M // self.d["BM"]) * (N // self.d["BN"])
        self.kernel((grid,), (self.threads,), (a, b, c, cupy.int32(M), cupy.int32(N), cupy.int32(K)),
                    shared_mem=self.smem)


def per_element(c, a, b, ref) -> float:
    scale = cupy.abs(a) @ cupy.abs(b)
    return float(cupy.max(cupy.abs(c - ref) / scale))


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    only = [a.split("=", 1)[1].split(",") for a in sys.argv[2:] if a.startswith("only=")]
    variants = [Variant(k, v) for k, v in VARIANTS.items() if not only or k in only[0]]
    flush = L2Flusher()
    rng = cupy.random.default_rng(21)
    print(f"{'shape':>16} {'variant':>20} {'max err/elem':>12} {'ms':>9} {'x cuBLAS':>8}")
    summary = []
    for shape in SHAPES:
        M, N, K = shape
        a = rng.standard_normal((M, K))
        b = rng.standard_normal((K, N))
        ref = a @ b
        # reference for cuBLAS's own error: the product split in hi/lo parts (error ~1e-32 relative)
        a_hi = a.astype(cupy.float32).astype(cupy.float64)
        b_hi = b.astype(cupy.float32).astype(cupy.float64)
        exact = a_hi @ b_hi + (a - a_hi) @ b_hi + a_hi @ (b - b_hi) + (a - a_hi) @ (b - b_hi)
        cub_err = per_element(ref, a, b, exact)
        fns = {"cublas": lambda: cupy.matmul(a, b), "auto": lambda: tm.matmul(a, b)}
        c_auto = tm.matmul(a, b)
        print(f"{'x'.join(map(str, shape)):>16} {'cublas':>20} {cub_err:12.2e}")
        print(f"{'':>16} {'auto':>20} {per_element(c_auto, a, b, exact):12.2e}")
        for v in variants:
            if not v.fits(M, N, K):
                continue
            c = cupy.full((M, N), cupy.nan)
            v(a, b, c)
            err = per_element(c, a, b, exact)
            # |C - ref| <= K u |A||B| elementwise for any summation order (u = 2^-53): a bound, not a guess
            ok = bool(cupy.isfinite(c).all()) and err <= K * 2.0 ** -53
            print(f"{'':>16} {v.name:>20} {err:12.2e} {'ok' if ok else 'FAILED'}")
            if ok:
                c = cupy.empty((M, N))
                fns[v.name] = (lambda v=v, c=c: v(a, b, c))
        res = {k: [] for k in fns}
        for _ in range(rounds):
            for k, f in fns.items():
                res[k].append(time_fn(lambda i, f=f: f(), repeat=9, warmup=2, flush=flush).median_ms)
        med = {k: statistics.median(x) for k, x in res.items()}
        for k, ms in sorted(med.items(), key=lambda kv: kv[1]):
            tf = 2 * M * N * K / ms / 1e9
            print(f"{'':>16} {k:>20} {'':>12} {ms:9.4f} {med['cublas'] / ms:8.3f}  {tf:5.1f} TF/s")
        summary.append((shape, med))
    print("\nsummary (x cuBLAS, medians over rounds)")
    names = ["auto"] + [v.name for v in variants]
    print(f"{'shape':>16} " + " ".join(f"{n[:14]:>14}" for n in names))
    for shape, med in summary:
        print(f"{'x'.join(map(str, shape)):>16} " + " ".join(
            f"{med['cublas'] / med[n]:14.3f}" if n in med else f"{'-':>14}" for n in names))


if __name__ == "__main__":
    main()
