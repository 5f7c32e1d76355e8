"""Sweep FFMA configs for a batch of many small matrices (default 4096 x 64^3, float32) against
cupy.matmul on the same operands, L2 flushed, medians. Prints one line per config, best last.

    PYTHONPATH=. python3 scripts/sweep_batched_small.py [--batch 4096] [--n 64]
"""

from __future__ import annotations

import argparse
import itertools

import cupy

import tiled_matmul as tm
from tiled_matmul.timing import L2Flusher, time_fn


def ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--batch", type=int, default=4096)
    ap.add_argument("--n", type=int, default=64)
    ap.add_argument("--limit", type=int, default=90, help="configs timed at most")
    ap.add_argument("--bk", default="8,16", help="K depths of a stage to try (comma list)")
    ap.add_argument("--stages", default="3,2", help="pipeline depths to try (comma list)")
    ap.add_argument("--min-blocks", default="4,8", help="min_blocks values to try (comma list)")
    ap.add_argument("--tiles", default="64,32", help="bm and bn values to try (comma list)")
    args = ap.parse_args()
    bt, n = args.batch, args.n
    a = cupy.random.random((bt, n, n), dtype=cupy.float32)
    b = cupy.random.random((bt, n, n), dtype=cupy.float32)
    c = cupy.empty((bt, n, n), cupy.float32)
    ref = cupy.matmul(a, b)
    f = L2Flusher()
    t_cu = time_fn(lambda i: cupy.matmul(a, b, out=c), repeat=30, flush=f).median_ms
    print(f"cupy.matmul {t_cu:.4f} ms")
    rows = []
    t = time_fn(lambda i: tm.matmul(a, b, out=c), repeat=30, flush=f).median_ms
    rows.append((t, "auto", {}))
    cands = []
    for bm, bn, bk, (wm, wn), (tmm, tn), st, mb in itertools.product(
            ints(args.tiles), ints(args.tiles), ints(args.bk), [(32, 32), (32, 16), (16, 32), (32, 64)],
            [(4, 8), (4, 4), (8, 8), (2, 4)], ints(args.stages), ints(args.min_blocks)):
        cands.append(("warp_tiled", dict(bm=bm, bn=bn, bk=bk, wm=wm, wn=wn, tm=tmm, tn=tn, stages=st, min_blocks=mb)))
    for bm, bn, bk, tmm, tn in itertools.product(ints(args.tiles), ints(args.tiles), ints(args.bk), [4, 8], [4, 8]):
        cands.append(("register_blocked", dict(bm=bm, bn=bn, bk=bk, tm=tmm, tn=tn)))
    tried = 0
    for name, p in cands:
        try:
            k = tm.kernel(name, **p)
            k.config.validate()
        except Exception:
            continue
        try:
            c.fill(cupy.nan)
            k(a, b, out=c)
            if not bool(cupy.allclose(c, ref, rtol=1e-4, atol=1e-4)):
                print("WRONG", name, p)
                continue
            t = time_fn(lambda i: k(a, b, out=c), repeat=15, flush=f).median_ms
        except Exception as exc:  # a config the device refuses: report and go on
            print("ERR", name, p, type(exc).__name__, str(exc)[:80])
            continue
        tried += 1
        rows.append((t, name, p))
        if tried >= args.limit:
            break
    rows.sort(key=lambda r: r[0])
    print(f"{tried} configs timed; best 12 (cupy {t_cu:.4f} ms):")
    for t, name, p in rows[:12][::-1]:
        print(f"{t:.4f} ms  {t_cu / t:.2f}x  {name} {p}")


if __name__ == "__main__":
    main()
