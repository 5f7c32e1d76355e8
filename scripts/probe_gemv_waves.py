"""Does the GEMV rungs' one-wave grid cost their bandwidth? The float32 memory-bound suite rows
with their shipped configs (and neighbours), K cut into more slices than `k_splits` picks (so
more, shorter blocks in several waves, balanced by the hardware's block scheduler, at the price
of a larger workspace), against a plain 16-byte read of the streamed operand's bytes
(probe_read_bw.py's best reader) and a device copy, in the same run. CUDA events, L2 flushed,
medians of 15.

    PYTHONPATH=. python3 scripts/probe_gemv_waves.py
"""

from __future__ import annotations

import os

os.environ.setdefault("CUPY_TF32", "0")

import cupy as cp  # noqa: E402

import tiled_matmul as tm  # noqa: E402
from tiled_matmul.configs import SkinnyConfig, cdiv  # noqa: E402
from tiled_matmul.timing import L2Flusher, time_fn  # noqa: E402

from probe_read_bw import LDG  # noqa: E402

FORCED: dict = {"splits": None}
_orig = SkinnyConfig.k_splits


def _k_splits(self, M, N, K, sms, dtype="float32"):
    natural = _orig(self, M, N, K, sms, dtype)
    FORCED["natural"] = natural
    s = FORCED["splits"]
    if s is None:
        return natural
    return cdiv(K, self.k_slice(K, s)) if s > 1 else 1


SkinnyConfig.k_splits = _k_splits

CASES = [
    ((1, 4096, 16384), [("gemv_xb", dict(mt=1, threads=256, unroll=8, min_blocks=2)),
                        ("gemv_xb", dict(mt=1, threads=128, unroll=16, min_blocks=4)),
                        ("gemv_xb", dict(mt=1, threads=512, unroll=8, min_blocks=1, kg=32))]),
    ((1, 8192, 8192), [("gemv_xb", dict(mt=1, threads=512, unroll=8, min_blocks=1, kg=32)),
                       ("gemv_xb", dict(mt=1, threads=256, unroll=8, min_blocks=2))]),
    ((8, 8192, 8192), [("gemv_xb", dict(mt=8, threads=256, unroll=8, min_blocks=1, kg=16)),
                       ("gemv_xb", dict(mt=4, threads=256, unroll=8, min_blocks=1, kg=16))]),
    ((2, 8192, 8192), [("gemv_xb", dict(mt=2, threads=512, unroll=8, min_blocks=1, kg=32))]),
    ((8192, 8, 8192), [("gemv_ax", dict(nt=8, rows=4, unroll=1, threads=256, min_blocks=2)),
                       ("gemv_ax", dict(nt=4, rows=4, unroll=1, threads=256, min_blocks=2))]),
    ((8192, 1, 8192), [("gemv_ax", dict(nt=1, rows=4, unroll=4, threads=256, min_blocks=2))]),
]
FACTORS = (None, 2, 3, 4, 6, 8, 16)


def med(fn, flush) -> float:
    return time_fn(lambda i: fn(), repeat=15, warmup=3, flush=flush).median_ms


def main() -> None:
    flush = L2Flusher()
    rd = cp.RawKernel(LDG, "rd", options=("-DTHREADS=512", "-DUNR=8"))
    sink = cp.zeros(1 << 20, dtype=cp.float32)
    print("| shape | config | splits | us | % of copy | read us |\n|---|---|---:|---:|---:|---:|")
    for (M, N, K), configs in CASES:
        a = cp.random.rand(M, K, dtype=cp.float32) - 0.5
        b = cp.random.rand(K, N, dtype=cp.float32) - 0.5
        ref = a.astype(cp.float64) @ b.astype(cp.float64)
        nbytes = 4 * (M * K + K * N + M * N)
        src = cp.empty(nbytes, dtype=cp.uint8)
        dst = cp.empty_like(src)
        t_copy = med(lambda: dst.data.copy_from_device_async(src.data, nbytes), flush)
        streamed = b if M < N else a
        n_vec = streamed.nbytes // 16
        t_read = med(lambda: rd((n_vec // 4096,), (512,), (streamed, cp.uint64(n_vec), sink)), flush)
        copy_gbs = 2 * nbytes / t_copy / 1e6
        for strat, params in configs:
            c = cp.empty((M, N), dtype=cp.float32)
            seen = set()
            for f in FACTORS:
                FORCED["splits"] = None
                tm.matmul(a, b, strategy=strat, out=c, **params)
                natural = FORCED["natural"]
                FORCED["splits"] = None if f is None else max(2, natural * f if natural > 1 else f)
                c.fill(cp.nan)
                tm.matmul(a, b, strategy=strat, out=c, **params)
                s = FORCED["splits"] or natural
                if s in seen:
                    continue
                seen.add(s)
                err = float(cp.max(cp.abs(c - ref)) / cp.max(cp.abs(ref)))
                t = med(lambda: tm.matmul(a, b, strategy=strat, out=c, **params), flush)
                pct = 100 * nbytes / t / 1e6 / copy_gbs
                name = " ".join(f"{k}={v}" for k, v in params.items())
                print(f"| {M}x{N}x{K} | {strat} {name} | {s}{' (natural)' if f is None else ''} | {1000 * t:.1f} | "
                      f"{pct:.1f} | {1000 * t_read:.1f} |{' ERR %.1e' % err if not err < 1e-5 else ''}", flush=True)
        del a, b, src, dst


if __name__ == "__main__":
    main()
