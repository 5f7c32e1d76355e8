"""wgmma_tma's epilogue for a 16-bit C that TMA cannot store (thirty-first session: staged through
shared memory, copied out row by row): the full call (A and B copied to padded rows where needed,
C contiguous with N % 8 != 0, or 2 bytes off 16) on ragged shapes, each against float64 on a
NaN-poisoned C (tm.check: normwise and per element beside cuBLAS), and a guard row past C's end
that must stay NaN. Small enough to run under compute-sanitizer.

    PYTHONPATH=. python3 scripts/variants_s31/check_tma_unaligned_c.py [--quick]
"""
import sys

import cupy
import numpy as np

import tiled_matmul as tm
from tiled_matmul.bits16 import NAN_BITS
from tiled_matmul.dtypes import as_dtype

SHAPES = [(1, 1, 1), (7, 9, 5), (33, 33, 33), (130, 700, 9), (129, 255, 4), (1001, 999, 187), (300, 1673, 64),
          (2557, 2706, 12)]
QUICK = SHAPES[:6]


def make(x, dt):
    """float32 device values rounded to `dt` (bfloat16 on the host: ml_dtypes rounds it)."""
    return x.astype(np.float16) if dt == "float16" else cupy.asarray(cupy.asnumpy(x).astype(as_dtype(dt).numpy))


def main() -> int:
    bad = 0
    for dt in ("float16", "bfloat16"):
        for M, N, K in (QUICK if "--quick" in sys.argv else SHAPES):
            for off in (0, 1):  # C at its allocation's start, or one element (2 bytes) past it
                g = cupy.random.default_rng(M * 7 + N * 3 + K)
                a, b = (make(g.uniform(-1, 1, shape, dtype=np.float32), dt) for shape in ((M, K), (K, N)))
                base = cupy.full(M * N + off + N, NAN_BITS[dt], dtype=cupy.uint16)
                c = base[off:off + M * N].view(a.dtype).reshape(M, N)
                tm.matmul(a, b, out=c, strategy="wgmma_tma")
                r = tm.check(c, a, b)
                guard = bool((base[off + M * N:] == NAN_BITS[dt]).all()) and bool((base[:off] == NAN_BITS[dt]).all())
                ok = r.passed and r.comp_err <= r.comp_bound
                bad += (not ok) + (not guard)
                print(dt, f"{M}x{N}x{K}", f"off {off}", ok, guard,
                      f"comp {r.comp_err:.1e} (cuBLAS {r.cublas_comp_err:.1e})")
    print("failures:", bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
