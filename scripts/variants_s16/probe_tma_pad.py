"""The TMA rungs' padding copies (wgmma_tma.addressable: operands whose rows are not 16-byte
aligned copied into padded rows) by tiled_matmul.pad against the CuPy slice assignment they used
before (kept here as OLD, swapped in for the "before" column), `auto` and cuBLAS (sixteenth session).

    PYTHONPATH=. python3 scripts/variants_s16/probe_tma_pad.py
"""

from __future__ import annotations

import statistics

import tiled_matmul as tm
from tiled_matmul import tma
from tiled_matmul.measure import cublas_row, make_inputs
from tiled_matmul.strategies import wgmma_tma
from tiled_matmul.timing import L2Flusher, time_fn

SHAPES = [("float16", 10788, 370, 3430), ("float16", 4124, 291, 485), ("float16", 2110, 663, 3825),
          ("bfloat16", 10788, 370, 3430), ("float32", 3001, 2999, 3007), ("float32", 5001, 3001, 1003)]


def OLD(X, rows, cols, stream):
    """wgmma_tma.addressable before the sixteenth session (a CuPy slice assignment)."""
    if rows == 0 or cols == 0 or tma.matrix_problem("x", X.data.ptr, rows, cols, cols, X.itemsize) is None:
        return X, cols
    import cupy

    per = tma.ALIGN // X.itemsize
    pitch = -(-cols // per) * per
    with stream:
        buf = cupy.empty((rows, pitch), dtype=X.dtype)
        word = cupy.uint16 if X.itemsize == 2 else cupy.uint32
        buf.view(word)[:, :cols] = X.view(word)
    return buf, pitch


def us(f, flush):
    return statistics.median(time_fn(lambda i: f(), repeat=9, warmup=2, flush=flush).median_ms * 1e3 for _ in range(3))


def main() -> None:
    flush = L2Flusher()
    auto = tm.kernel("auto")
    new = wgmma_tma.addressable
    for dt, M, N, K in SHAPES:
        (a, b, c), = make_inputs((M, N, K), dt)
        crow = cublas_row("probe", dtype=dt)
        with crow.context():
            t_cub = us(lambda: crow.call(a, b, c), flush)
        t_new = us(lambda: auto(a, b, out=c), flush)
        ok = tm.check(c, a, b).passed
        wgmma_tma.addressable = OLD
        import tiled_matmul.strategies.wgmma_tma_tf32 as tf32
        tf32.addressable = OLD
        t_old = us(lambda: auto(a, b, out=c), flush)
        wgmma_tma.addressable = new
        tf32.addressable = new
        pick = auto.kernel_for(M, N, K, dt).strategy.name
        print(f"{dt} {M}x{N}x{K} ({pick}): cuBLAS {t_cub:.1f} us; before {t_old:.1f} ({t_cub / t_old:.2f}x); "
              f"after {t_new:.1f} ({t_cub / t_new:.2f}x) {'ok' if ok else 'WRONG'}", flush=True)


if __name__ == "__main__":
    main()
