"""Thirteenth session: dmma_tail against float64 references (errors per element beside cuBLAS's),
bit-identical repeats, and its whole tiles against dmma's to the bit, on shapes with a head and a
tail at the GPU's own slots and with the slots made small (so that small ragged shapes have both).

    python3 scripts/variants_s13/check_tail.py
"""
import cupy
import numpy as np

import tiled_matmul as tm
from tiled_matmul.strategies.dmma_tail import DmmaTailConfig

rs = np.random.default_rng(5)
real_slots = DmmaTailConfig.slots
bad = 0
for slots in (None, 3, 7):
    if slots is not None:
        DmmaTailConfig.slots = lambda self, limits, registers=None, dtype=None, s=slots: s
    for cfg in tm.STRATEGIES["dmma_tail"].configs:
        for M, N, K in [(1500, 1500, 1500), (1500, 1499, 1501), (2500, 2500, 2500), (129, 127, 1000), (300, 200, 5000),
                        (1, 1, 1), (7, 33, 2), (1000, 1000, 7), (257, 513, 4099), (0, 5, 7), (5, 7, 0)]:
            a = cupy.asarray(rs.uniform(-1, 1, (M, K))); b = cupy.asarray(rs.uniform(-1, 1, (K, N)))
            out = cupy.full((M, N), cupy.nan)
            tm.matmul(a, b, strategy="dmma_tail", out=out, **cfg.params())
            again = tm.matmul(a, b, strategy="dmma_tail", **cfg.params())
            d = tm.matmul(a, b, strategy="dmma", **{k: v for k, v in cfg.params().items() if k != "split_k"})
            ref = cupy.matmul(a, b)
            scale = cupy.abs(a) @ cupy.abs(b) + 1e-300
            err = float(cupy.max(cupy.abs(out - ref) / scale)) if out.size else 0.0
            plan = cfg.plan(M, N, K, slots or real_slots(cfg, tm.device_limits()))
            bm, bn = cfg.tile_mn
            # whole tiles: dmma's to the bit (tiles of the head, in grouped order)
            same_head = True
            from tiled_matmul.strategies.dmma_tail import DmmaTailConfig as C
            tn = -(-N // bn)
            for t in range(plan[0]):
                per = cfg.group_m * tn
                g, i = divmod(t, per)
                rows = min(-(-M // bm) - g * cfg.group_m, cfg.group_m)
                r, c = g * cfg.group_m + i % rows, i // rows
                blk = (slice(r * bm, (r + 1) * bm), slice(c * bn, (c + 1) * bn))
                if not bool(cupy.all(out[blk] == d[blk])):
                    same_head = False
                    break
            rep = bool(cupy.all(out.view(cupy.int64) == again.view(cupy.int64)))
            ok = err < 1e-14 and rep and same_head and not bool(cupy.isnan(out).any())
            bad += not ok
            print(f"slots {slots} {cfg.tag()} {(M, N, K)} plan {plan}: err {err:.1e} repeat-equal {rep} "
                  f"head==dmma {same_head} {'OK' if ok else 'FAIL'}", flush=True)
    DmmaTailConfig.slots = real_slots
print("FAILURES", bad)
