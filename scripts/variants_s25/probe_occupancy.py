"""Did gemv_xb_tma's larger stages (a vector more per row of B's box, for folded B) cost the
16-row chunks their second block per SM? Blocks per SM from the driver and times (CUDA events,
L2 flushed, medians of 3 alternating rounds) for 32x4096x4096 and 12x8192x8192 at a few stage
counts (twenty-fifth session).

    PYTHONPATH=. python3 scripts/variants_s25/probe_occupancy.py
"""
import cupy
from cupy.cuda import driver

import tiled_matmul as tm
from tiled_matmul.timing import L2Flusher

from _pair import rounds

CASES = [((32, 4096, 4096), [dict(mt=16, bn=32, rk=64, stages=s) for s in (8, 7, 6)]),
         ((12, 8192, 8192), [dict(mt=16, stages=s) for s in (4, 5)]),
         ((32, 1024, 32768), [dict(mt=16, stages=s) for s in (4, 5)])]


def main() -> None:
    flush = L2Flusher()
    rng = cupy.random.default_rng(5)
    for (M, N, K), params in CASES:
        a = rng.uniform(-1, 1, (M, K), dtype=cupy.float32)
        b = rng.uniform(-1, 1, (K, N), dtype=cupy.float32)
        fns, info = {"cublas": lambda: cupy.matmul(a, b)}, {}
        for p in params:
            k = tm.kernel("gemv_xb_tma", **p)
            assert tm.check(k(a, b), a, b).passed
            compiled = k.compiled("float32")
            blocks = driver.occupancyMaxActiveBlocksPerMultiprocessor(compiled.raw.kernel.ptr, k.config.threads,
                                                                      compiled.smem_bytes)
            name = f"stages={p['stages']}"
            info[name] = f"smem {compiled.smem_bytes} B, {blocks} blocks/SM"
            fns[name] = lambda k=k: k(a, b)
        med = rounds(fns, 3, flush)[0]
        for n in fns:
            print(f"{M}x{N}x{K} {n}: {med[n] * 1e3:.1f} us {info.get(n, '')}", flush=True)


if __name__ == "__main__":
    main()
