"""Long-K products whose K or N leaves the operands' rows unaligned (the sweeps' lows after the
staged stores): `auto` on them against `auto` on the padded shape (K and N rounded up to 16-byte
rows) plus the copies a padding wrapper would add (A and B into padded buffers, C back), timed
apart, with cuBLAS on the real shape (sixteenth session: is padding worth building?).

    PYTHONPATH=. python3 scripts/variants_s16/probe_pad.py
"""

from __future__ import annotations

import statistics

import cupy

import tiled_matmul as tm
from tiled_matmul.measure import cublas_row, make_inputs
from tiled_matmul.timing import L2Flusher, time_fn

SHAPES = [("float16", 261, 473, 14735), ("float16", 92, 281, 16065), ("float16", 1092, 285, 6374),
          ("float16", 590, 749, 1252), ("float32", 261, 473, 14735), ("float32", 92, 281, 16065),
          ("float64", 261, 473, 14735), ("float64", 1092, 285, 6374)]


def us(f, flush):
    return statistics.median(time_fn(lambda i: f(), repeat=9, warmup=2, flush=flush).median_ms * 1e3 for _ in range(3))


def main() -> None:
    flush = L2Flusher()
    auto = tm.kernel("auto")
    for dt, M, N, K in SHAPES:
        per = 16 // cupy.dtype(dt).itemsize
        Kp, Np = -(-K // per) * per, -(-N // per) * per
        (a, b, c), = make_inputs((M, N, K), dt)
        (ap, bp, cp_), = make_inputs((M, Np, Kp), dt)
        crow = cublas_row("probe", dtype=dt)
        with crow.context():
            t_cub = us(lambda: crow.call(a, b, c), flush)
        t_auto = us(lambda: auto(a, b, out=c), flush)
        t_pad = us(lambda: auto(ap, bp, out=cp_), flush)

        def copies():
            ap[:, :K] = a
            bp[:K, :N] = b
            c[...] = cp_[:, :N]
        t_copy = us(copies, flush)
        pick = auto.kernel_for(M, N, K, dt).strategy.name
        print(f"{dt} {M}x{N}x{K}: cuBLAS {t_cub:.1f} us; auto ({pick}) {t_auto:.1f} ({t_cub / t_auto:.2f}x); "
              f"padded {M}x{Np}x{Kp} {t_pad:.1f} + copies {t_copy:.1f} = {t_pad + t_copy:.1f} "
              f"({t_cub / (t_pad + t_copy):.2f}x)", flush=True)


if __name__ == "__main__":
    main()
