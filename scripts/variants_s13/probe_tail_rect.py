"""Thirteenth session: what a partial last wave costs dmma, and what splitting it by K would save.

For a float64 shape and a dmma tile: `full` is dmma over every tile; `head` the same kernel on a
grid of the whole waves' tiles only (the first W tiles of its grouped order, W a multiple of the
resident blocks); `tail` dmma_split_k on the tiles left (a rectangle of C when the tail is whole
tile-row groups' columns, which the probe checks), as a separate product of those rows of A and
columns of B; `head+tail` both, back to back on one stream. Each against cuBLAS in the same round.

    python3 scripts/variants_s13/probe_tail_rect.py ROUNDS SPEC [SPEC ...]
    SPEC = MxNxK:key=value,...:split_k=S[,tail params]   (dmma params ; the tail's split params)
"""
import statistics
import sys

import cupy
import numpy as np

import tiled_matmul as tm
from tiled_matmul.strategies.dmma import DmmaConfig
from tiled_matmul.timing import L2Flusher, time_fn


def tiles_of(M, N, bm, bn, gm):
    tm_, tn = -(-M // bm), -(-N // bn)
    out = []
    for bid in range(tm_ * tn):
        per = gm * tn
        group, ing = divmod(bid, per)
        first = group * gm
        rows = min(tm_ - first, gm)
        out.append((first + ing % rows, ing // rows))
    return out


def main():
    rounds = int(sys.argv[1])
    flush = L2Flusher()
    rs = np.random.default_rng(3)
    for spec in sys.argv[2:]:
        shape, head_p, tail_p = spec.split(":")
        M, N, K = (int(d) for d in shape.split("x"))
        hp = {k: int(v) for k, v in (kv.split("=") for kv in head_p.split(","))}
        tp = {k: int(v) for k, v in (kv.split("=") for kv in tail_p.split(","))}
        cfg = DmmaConfig(**hp)
        slots = 132 * cfg.min_blocks
        order = tiles_of(M, N, cfg.bm, cfg.bn, cfg.group_m)
        W = len(order) // slots * slots
        tail = order[W:]
        r0, r1 = min(r for r, _ in tail), max(r for r, _ in tail)
        c0, c1 = min(c for _, c in tail), max(c for _, c in tail)
        rect = (r1 - r0 + 1) * (c1 - c0 + 1) == len(tail)
        a = cupy.asarray(rs.uniform(-1, 1, (M, K))); b = cupy.asarray(rs.uniform(-1, 1, (K, N)))
        at = cupy.ascontiguousarray(a[r0 * cfg.bm:(r1 + 1) * cfg.bm])
        bt = cupy.ascontiguousarray(b[:, c0 * cfg.bn:(c1 + 1) * cfg.bn])
        orig = DmmaConfig.grid

        def head():
            DmmaConfig.grid = lambda self, M_, N_: (W, 1, 1)
            try:
                return tm.matmul(a, b, strategy="dmma", **hp)
            finally:
                DmmaConfig.grid = orig

        def tail_fn():
            return tm.matmul(at, bt, strategy="dmma_split_k", **tp)

        full = lambda: tm.matmul(a, b, strategy="dmma", **hp)
        ref = full()
        h = head(); t = tail_fn()
        h[r0 * cfg.bm:(r1 + 1) * cfg.bm, c0 * cfg.bn:(c1 + 1) * cfg.bn] = t
        err = float(cupy.max(cupy.abs(h - ref)))
        fns = {"full": full, "head": head, "tail": tail_fn, "head+tail": lambda: (head(), tail_fn()),
               "cublas": lambda: cupy.matmul(a, b)}
        res = {k: [] for k in fns}
        for _ in range(rounds):
            for k, f in fns.items():
                res[k].append(time_fn(lambda i, f=f: f(), repeat=10, warmup=2, flush=flush).median_ms)
        med = {k: statistics.median(v) for k, v in res.items()}
        print(f"{shape} {head_p} | {len(order)} tiles, {slots} slots, head {W}, tail {len(tail)} "
              f"(rect {rect}: rows {r0}-{r1} cols {c0}-{c1}, {at.shape[0]}x{bt.shape[1]}) split {tail_p} | "
              f"err vs full {err:.1e} | " + " ".join(f"{k} {v:.4f}" for k, v in med.items())
              + f" | full x cuBLAS {med['cublas'] / med['full']:.2f}, head+tail x cuBLAS {med['cublas'] / med['head+tail']:.2f}",
              flush=True)


if __name__ == "__main__":
    main()
