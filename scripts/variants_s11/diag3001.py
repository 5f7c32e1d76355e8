import sys, statistics, cupy, numpy as np
sys.path.insert(0, "benchmarks")
import tiled_matmul as tm
from tiled_matmul.timing import L2Flusher, time_fn
from tiled_matmul.measure import make_inputs, auto_row, cublas_row, time_validated, validate
flush = L2Flusher()
M, N, K = 3001, 2999, 3007
sets = make_inputs((M, N, K), "float64")
a, b, c = sets[0]
P = dict(bm=128, bn=64, bk=16, wm=64, wn=32, stages=3, min_blocks=2)
fns = {"auto": lambda i: tm.matmul(a, b), "auto out=": lambda i: tm.matmul(a, b, out=c),
       "dmma named": lambda i: tm.matmul(a, b, strategy="dmma", **P), "cublas": lambda i: cupy.matmul(a, b, out=c)}
for r in range(3):
    print(r, {k: round(time_fn(f, repeat=10, warmup=2, flush=flush).median_ms, 4) for k, f in fns.items()}, flush=True)
import shape_suite
from tiled_matmul.measure import L2Flusher as F2
for r in range(2):
    row = shape_suite.measure_shape("x", (M, N, K), "float64", flush)
    print("suite measure_shape:", row["auto_ms"], row["cublas_ms"], row["strategy"])
