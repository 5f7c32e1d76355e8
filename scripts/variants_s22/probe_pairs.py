"""dmma's pairs layout (DmmaConfig.pairs, twenty-second session) against the same tiles in the
layout before it, auto and cuBLAS DGEMM, on float64 shapes of every kind: whole tiles, partial
tiles (the edge kernel), an odd K or N (the misaligned-operand kernel) and small cubes.

    PYTHONPATH=. python3 scripts/variants_s22/probe_pairs.py [ROUNDS] [SET]

SET: "big" (default), "odd", "small" or "groups" (the 128 x 128 pairs tile's block order, group_m
2-16, at 4096^3-8192^3); "big" and "odd" also time the twenty-first session's
standalone probe kernel (variants_s21/dmma_t.cu) where its whole tiles fit. Every candidate is checked first (tm.check against a
float64 reference, output NaN-poisoned before the launch; a failed check is printed and the
candidate dropped), then timed in alternating rounds with cuBLAS (CUDA events after warm-up, L2
flushed, median of 9 a round); the table gives each candidate's median over rounds x cuBLAS.
"""
from __future__ import annotations

import importlib.util
import statistics
import sys
from pathlib import Path

import cupy

import tiled_matmul as tm
from tiled_matmul.timing import L2Flusher, time_fn

T128 = dict(bm=128, bn=128, wm=32, wn=64)
T64 = dict(bm=128, bn=64, wm=64, wn=32, min_blocks=2)
CANDS = {
    "128x128": T128, "128x128 P": {**T128, "pairs": 1}, "128x128 s4 P": {**T128, "stages": 4, "pairs": 1},
    "128x64": T64, "128x64 P": {**T64, "pairs": 1}, "128x64 s4 P": {**T64, "stages": 4, "pairs": 1},
    "128x64x32": dict(bm=128, bn=64, bk=32, wm=32, wn=32), "128x64x32 P": dict(bm=128, bn=64, bk=32, wm=32, wn=32, pairs=1),
}
SMALL = {
    "64x64": dict(bm=64, bn=64, bk=16, wm=32, wn=16, stages=4, min_blocks=2),
    "64x64 P": dict(bm=64, bn=64, bk=16, wm=32, wn=16, stages=4, min_blocks=2, pairs=1),
    "32x32": dict(bm=32, bn=32, bk=32, wm=16, wn=16, stages=5, min_blocks=2),
    "32x32 P": dict(bm=32, bn=32, bk=32, wm=16, wn=16, stages=5, min_blocks=2, pairs=1),
    "32x64": dict(bm=32, bn=64, bk=16, wm=16, wn=32, stages=4, min_blocks=4),
    "32x64 mb3 P": dict(bm=32, bn=64, bk=16, wm=16, wn=32, stages=4, min_blocks=3, pairs=1),
    "128x64x32": CANDS["128x64x32"], "128x64x32 P": CANDS["128x64x32 P"],
}
GROUPS = {f"128x128 P g{g}": {**T128, "pairs": 1, "group_m": g} for g in (2, 4, 8, 16)}
SETS = {
    "groups": ([(8192, 8192, 8192), (8192, 8192, 4096), (4096, 4096, 4096)], GROUPS),
    "big": ([(2048, 2048, 2048), (4096, 4096, 4096), (6144, 4096, 2048), (8192, 8192, 4096), (4096, 4096, 16384),
             (8192, 8192, 128), (5000, 3000, 1000), (3000, 5000, 1000), (1024, 1024, 1024)], CANDS),
    "odd": ([(4096, 4096, 4095), (2047, 2047, 2047), (4095, 4096, 4096), (3001, 2999, 3007), (4096, 4095, 2048)], CANDS),
    "small": ([(512, 512, 512), (768, 768, 768), (640, 640, 640), (1024, 1024, 1024), (1000, 1000, 1000),
               (16384, 64, 4096), (2000, 3000, 1000)], SMALL),
}


def raw_probe():
    """The twenty-first session's standalone probe kernel (dmma_t.cu, whole tiles only), for
    comparison in the same run: its Variant class."""
    path = Path(__file__).parents[1] / "variants_s21" / "probe_dmma_t.py"
    spec = importlib.util.spec_from_file_location("probe_dmma_t", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.Variant


RAW = {"raw 128x128": dict(BM=128, BN=128, WM=32, WN=64, STAGES=3, MINB=1),
       "raw 128x64 s4": dict(BM=128, BN=64, WM=64, WN=32, STAGES=4, MINB=2)}


def checked(a, b, cands: dict, strategy: str = "dmma") -> dict:
    """Each candidate of `strategy` (name -> params) that takes the shape and passes tm.check on a
    NaN-poisoned output, as a no-argument call (a failure or a refusal is printed, the candidate
    dropped)."""
    (M, K), N = a.shape, b.shape[1]
    fns = {}
    for name, kw in cands.items():
        c = cupy.full((M, N), cupy.nan)
        try:
            tm.matmul(a, b, out=c, strategy=strategy, **kw)
        except Exception as e:  # noqa: BLE001 (a config that does not take the shape)
            print(f"{M}x{N}x{K} {name}: {type(e).__name__}: {e}"[:200])
            continue
        rep = tm.check(c, a, b)
        if not rep.passed:
            print(f"{M}x{N}x{K} {name} FAILED {rep}")
            continue
        fns[name] = (lambda kw=kw, c=c: tm.matmul(a, b, out=c, strategy=strategy, **kw))
    return fns


def medians(fns: dict, rounds: int, flush: L2Flusher) -> dict:
    """Each call's median time (ms) over `rounds` alternating rounds of a median of 9 (CUDA events
    after warm-up, L2 flushed)."""
    res = {k: [] for k in fns}
    for _ in range(rounds):
        for k, f in fns.items():
            res[k].append(time_fn(lambda i, f=f: f(), repeat=9, warmup=2, flush=flush).median_ms)
    return {k: statistics.median(v) for k, v in res.items()}


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    shapes, cands = SETS[sys.argv[2] if len(sys.argv) > 2 else "big"]
    raws = {} if cands is SMALL or cands is GROUPS else {k: raw_probe()(k, d) for k, d in RAW.items()}
    flush = L2Flusher()
    rng = cupy.random.default_rng(22)
    rows = []
    for M, N, K in shapes:
        a = rng.standard_normal((M, K))
        b = rng.standard_normal((K, N))
        fns = {"cublas": lambda: cupy.matmul(a, b), "auto": lambda: tm.matmul(a, b), **checked(a, b, cands)}
        for name, v in raws.items():
            if v.fits(M, N, K):
                c = cupy.full((M, N), cupy.nan)
                v(a, b, c)
                rep = tm.check(c, a, b)
                if not rep.passed:
                    print(f"{M}x{N}x{K} {name} FAILED {rep}")
                    continue
                fns[name] = (lambda v=v, c=c: v(a, b, c))
        med = medians(fns, rounds, flush)
        rows.append(((M, N, K), med))
        print(f"{M}x{N}x{K}: cuBLAS {med['cublas'] * 1e3:.1f} us", flush=True)
    print_table(rows, ["auto", *cands, *raws])


def print_table(rows: list, names: list, width: int = 16) -> None:
    """The final table: per shape, cuBLAS's median (us) and each named candidate's x cuBLAS ("-"
    where it was not timed). `rows`: ((M, N, K), {name: median ms, "cublas": ...})."""
    print("\n" + f"{'shape':{width}s} {'cuBLAS us':>10s} " + " ".join(f"{k:>12s}" for k in names))
    for (M, N, K), med in rows:
        print(f"{f'{M}x{N}x{K}':{width}s} {med['cublas'] * 1e3:10.1f} "
              + " ".join(f"{med['cublas'] / med[k]:12.3f}" if k in med else f"{'-':>12s}" for k in names))


if __name__ == "__main__":
    main()
