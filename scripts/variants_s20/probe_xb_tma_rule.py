"""float32 x·B products: the heuristic's gemv_xb pick (`_gemv`) against its gemv_xb_tma pick
(`_xb_tma`, where it has one), cuBLAS and a device copy of the same bytes, in alternating rounds.

    python3 scripts/variants_s20/probe_xb_tma_rule.py [ROUNDS] [--quick | --heldout [--seed S]]

Shapes: M in 1, 2, 4, 8 (and 3, 6 off the powers of two) x a grid of N and K, both sides of the
heuristic's thresholds (lowered to 2^16 here, so that _xb_tma answers for all of them); with
--heldout, 48 random shapes (M 1-8, N and K log-uniform, multiples of 4, B of at most 2^28 elements; seed 2020) on which the
rule picks gemv_xb_tma, none of them in the grid the rule was first set from (XB_TMA_MAX_ROUNDS
was then set on them too; --seed 2021 draws 40 more, a set no rule was set from). Every pick is checked (tm.check, NaN-poisoned output) before it is
timed. Prints per shape: µs of each, new / old, × cuBLAS and % of copy; then the geometric mean of
new / old by B's size.
"""
import math
import statistics
import sys

import cupy
import numpy as np

import tiled_matmul as tm
from tiled_matmul import heuristic
from tiled_matmul.device import device_limits
from tiled_matmul.timing import L2Flusher

from _rounds import pct_of_copy, timed_with_copy


def shapes(quick):
    ns = (1024, 2048, 4096, 8192, 16384) if not quick else (2048, 8192)
    ks = (1024, 4096, 16384) if not quick else (4096,)
    out = []
    for M in (1, 2, 4, 8, 3, 6):
        for N in ns:
            for K in ks:
                out.append((M, N, K))
    out += [(1, 4096, 65536), (8, 2048, 65536), (1, 50000, 2048), (4, 12288, 5000), (1, 1000, 100000)]
    return out


def heldout(sms, count=48, seed=2020):
    rs = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        M = int(rs.integers(1, 9))
        N = 4 * int(np.exp(rs.uniform(np.log(256), np.log(8192))))
        K = 4 * int(np.exp(rs.uniform(np.log(128), np.log(16384))))
        if N * K <= 2**28 and heuristic._gemv(M, N, K) and heuristic._xb_tma(M, N, K, sms):
            out.append((M, N, K))
    return out


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 3
    quick = "--quick" in sys.argv
    flush = L2Flusher()
    sms = device_limits().sm_count
    if "--heldout" in sys.argv:
        seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 2020
        todo = heldout(sms, 40 if seed != 2020 else 48, seed)
    else:
        # every size: the thresholds are what this measures
        heuristic.XB_TMA_MIN_STREAM = heuristic.XB_TMA_MIN_STREAM_8 = 2**16
        heuristic.XB_TMA_MIN_N = 1
        todo = shapes(quick)
    rs = np.random.default_rng(20)
    rows, ratios = [], {}
    for M, N, K in todo:
        old = heuristic._gemv(M, N, K)
        new = heuristic._xb_tma(M, N, K, sms)
        if old is None or new is None or old[0] != "gemv_xb":
            continue
        a = cupy.asarray(rs.uniform(-1, 1, (M, K)), dtype=cupy.float32)
        b = cupy.asarray(rs.uniform(-1, 1, (K, N)), dtype=cupy.float32)
        fns = {"old": lambda o=old: tm.matmul(a, b, strategy=o[0], **o[1]),
               "new": lambda n=new: tm.matmul(a, b, strategy=n[0], **n[1]),
               "cublas": lambda: cupy.matmul(a, b)}
        for k in ("old", "new"):
            out = cupy.full((M, N), np.nan, dtype=cupy.float32)
            pick = old if k == "old" else new
            tm.matmul(a, b, strategy=pick[0], out=out, **pick[1])
            rep = tm.check(out, a, b)
            assert rep.passed, (k, (M, N, K), rep)
        nbytes = (M * K + K * N + M * N) * 4
        res, med = timed_with_copy(fns, nbytes, rounds, flush)
        r = statistics.median(o / n for o, n in zip(res["old"], res["new"]))
        pct = {k: pct_of_copy(nbytes, med[k], med["copy"]) for k in ("old", "new")}
        xc = {k: statistics.median(c / t for c, t in zip(res["cublas"], res[k])) for k in ("old", "new")}
        size = f"M {'> 4' if M > 4 else '<= 4'}, " + (
            "B < 2^22" if N * K < 2**22 else ("B < 2^26" if N * K < 2**26 else "B >= 2^26"))
        ratios.setdefault(size, []).append(r)
        rows.append((M, N, K, med["old"] * 1e3, med["new"] * 1e3, r, xc["old"], xc["new"], pct["old"], pct["new"],
                     new[1]))
        print(f"{M}x{N}x{K}: old {med['old'] * 1e3:.1f} us, new {med['new'] * 1e3:.1f} us, old/new {r:.3f}, "
              f"x cuBLAS {xc['old']:.2f} -> {xc['new']:.2f}, % copy {pct['old']:.1f} -> {pct['new']:.1f} {new[1]}",
              flush=True)
    print("\n| shape | gemv_xb µs | gemv_xb_tma µs | old / new | × cuBLAS old → new | % copy old → new | new params |")
    print("|---|---:|---:|---:|---|---|---|")
    for M, N, K, o, n, r, xo, xn, po, pn, p in rows:
        print(f"| {M}×{N}×{K} | {o:.1f} | {n:.1f} | {r:.3f} | {xo:.2f} → {xn:.2f} | {po:.1f} → {pn:.1f} | {p} |")
    for size, rs_ in sorted(ratios.items()):
        gm = math.exp(sum(math.log(x) for x in rs_) / len(rs_))
        print(f"{size}: {len(rs_)} shapes, old/new geometric mean {gm:.3f}, lowest {min(rs_):.3f}, "
              f"slower by 3%+: {sum(x < 0.97 for x in rs_)}")


if __name__ == "__main__":
    main()
