"""Does a float32 GEMV's rate follow its blocks per SM? The memory-bound suite rows that miss 88% of
a copy (8x8192x8192 on 128 blocks of gemv_xb for 132 SMs; 8192x8x8192 on 256 blocks of gemv_ax for
264 slots; 1x4096x16384) timed beside neighbours whose output gives whole waves, each on the
suite shape's own config, and beside a device copy of the same bytes (sixteenth session).
If a whole-wave neighbour streams faster per byte, balancing blocks over the SMs (stream-K style)
is worth building; if not, the SM count is not what holds these rows.

    PYTHONPATH=. python3 scripts/variants_s16/probe_gemv_sms.py
"""

from __future__ import annotations

import statistics

import cupy

import tiled_matmul as tm
from tiled_matmul import registry
from tiled_matmul.dispatch import choose
from tiled_matmul.measure import make_inputs
from tiled_matmul.timing import L2Flusher, time_fn

ROWS = [((8, 8192, 8192), [(8, 7936, 8192), (8, 8448, 8192), (8, 8192, 8448)]),
        ((8192, 8, 8192), [(8448, 8, 8192), (4224, 8, 8192), (7936, 8, 8192)]),
        ((1, 4096, 16384), [(1, 4224, 16384), (1, 8192, 8192), (1, 4096, 16896)]),
        ((1, 8192, 8192), [(1, 8448, 8192)])]


def copy_us(nbytes: int, flush: L2Flusher) -> float:
    src = cupy.empty(nbytes, dtype=cupy.uint8)
    dst = cupy.empty_like(src)
    return time_fn(lambda i: dst.data.copy_from_device_async(src.data, nbytes), repeat=15, warmup=3,
                   flush=flush).median_ms * 1e3


def main() -> None:
    flush = L2Flusher()
    for base, variants in ROWS:
        c = choose(*base, dtype="float32")
        cfg = registry.get(c.strategy).config_cls(**c.params)
        k = tm.kernel(c.strategy, **c.params)
        print(f"{base}: {c.strategy} {c.params}", flush=True)
        for M, N, K in [base, *variants]:
            (a, b, out), = make_inputs((M, N, K), "float32")
            k(a, b, out=out)
            ok = tm.check(out, a, b).passed
            nbytes = 4 * (M * K + K * N + M * N)
            sms = 132
            splits = cfg.k_splits(M, N, K, sms)
            blocks = cfg.output_blocks(M, N) * splits
            ts, cs = [], []
            for _ in range(3):
                ts.append(time_fn(lambda i: k(a, b, out=out), repeat=15, warmup=3, flush=flush).median_ms * 1e3)
                cs.append(copy_us(nbytes, flush))
            t, cp = statistics.median(ts), statistics.median(cs)
            print(f"   {M}x{N}x{K}: {blocks} blocks ({splits} slices)  {t:7.1f} us  {nbytes / t / 1e3:6.0f} GB/s  "
                  f"{100 * cp / (2 * t):5.1f}% of copy  {'ok' if ok else 'WRONG'}", flush=True)


if __name__ == "__main__":
    main()
