import cupy, tiled_matmul as tm
from tiled_matmul.timing import time_fn, L2Flusher
from tiled_matmul.heuristic import _SMALL
f = L2Flusher()
for (bt, M, N, K) in [(4096, 64, 64, 64), (64, 512, 512, 512)]:
    a = cupy.random.random((bt, M, K), dtype=cupy.float32); b = cupy.random.random((bt, K, N), dtype=cupy.float32)
    c = cupy.empty((bt, M, N), cupy.float32)
    t = time_fn(lambda i: cupy.matmul(a, b, out=c), repeat=20, flush=f); print(bt, M, "cupy", round(t.median_ms, 4))
    cands = [("auto", {}), ("warp_tiled", _SMALL), ("warp_tiled", {}), ("register_blocked", dict(bm=64, bn=64, bk=16, tm=4, tn=4)),
             ("register_blocked", {}), ("smem_tiled", dict(tile=32)), ("rect_tiled", {}), ("wgmma", dict(bm=64, bn=64, stages=4, min_blocks=2))]
    for name, p in cands:
        try:
            t = time_fn(lambda i: tm.matmul(a, b, name, out=c, **p), repeat=20, flush=f)
            print(bt, M, name, p, round(t.median_ms, 4))
        except Exception as e:
            print(name, p, "ERR", type(e).__name__, str(e)[:100])
