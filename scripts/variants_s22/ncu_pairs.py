"""Two launches each of dmma's 128 x 128 pairs tile and cuBLAS DGEMM at 8192^3 (and 4096^3), for
ncu (gpu_s22m.sh): the shape where the pairs tile stays at 0.96-0.98x cuBLAS while 4096^3 is at 1.00."""
import sys

import cupy

import tiled_matmul as tm

n = int(sys.argv[1]) if len(sys.argv) > 1 else 8192
a = cupy.random.default_rng(1).standard_normal((n, n))
b = cupy.random.default_rng(2).standard_normal((n, n))
c = cupy.empty((n, n))
kw = dict(strategy="dmma", bm=128, bn=128, bk=16, wm=32, wn=64, stages=3, pairs=1)
tm.matmul(a, b, out=c, **kw)  # compile outside the profiled launches
cupy.cuda.Device().synchronize()
for _ in range(2):
    cupy.matmul(a, b)
    tm.matmul(a, b, out=c, **kw)
cupy.cuda.Device().synchronize()
