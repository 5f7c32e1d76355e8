"""One launch each of dmma_t variants and cuBLAS DGEMM at 4096^3, for ncu (gpu_s21b.sh)."""
import sys

import cupy

sys.path.insert(0, "scripts/variants_s21")
from probe_dmma_t import VARIANTS, Variant  # noqa: E402

a = cupy.random.default_rng(1).standard_normal((4096, 4096))
b = cupy.random.default_rng(2).standard_normal((4096, 4096))
c = cupy.empty((4096, 4096))
vs = [Variant(k, VARIANTS[k]) for k in ("t128x64s4", "t128x128_32x64")]
for _ in range(2):
    cupy.matmul(a, b)
    for v in vs:
        v(a, b, c)
cupy.cuda.Device().synchronize()
