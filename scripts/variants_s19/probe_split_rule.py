"""The GEMV rungs' wave-priced slice count (SkinnyConfig.k_splits, nineteenth session) against the
rule before it (the count nearest one wave, none where the output gives 2/3 of one), on shapes
not used to make it: random draws of benchmarks/random_shapes.py (seeds 30-45) and a grid of skinny
products, wherever auto's kernel or its slice count differs between the two rules. Each pick is
checked with tm.check, then timed with cuBLAS in 3 alternating rounds (CUDA events, L2 flushed,
medians of 9).

    PYTHONPATH=. python3 scripts/variants_s19/probe_split_rule.py [--list] [--second | --third] [MAX_SHAPES]

--second: another set, for the rule as refitted on the first set's timings (seeds 46-61 and a grid
of other sizes); --third: a last one for the rule refitted on both (seeds 62-77, another grid).
"""

from __future__ import annotations

import itertools
import statistics
import sys

sys.path.insert(0, "benchmarks")

import tiled_matmul as tm  # noqa: E402
from tiled_matmul import dispatch, execute  # noqa: E402
from tiled_matmul.configs import SkinnyConfig, cdiv  # noqa: E402
from tiled_matmul.dtypes import as_dtype  # noqa: E402

NEW = SkinnyConfig.k_splits
MODE = {"old": False}


def old_k_splits(self, M, N, K, sms, dtype="float32"):
    """The rule before the nineteenth session (its code, verbatim but for the name)."""
    dt = as_dtype(dtype)
    outputs = M * N
    blocks = self.output_blocks(M, N)
    want = (sms * self.occupancy(dt) + blocks // 2) // blocks
    cap = min(self.MAX_SPLITS, self.MAX_WORKSPACE_BYTES // (outputs * self.work_itemsize(dt)),
              self.streamed(M, N, K) // (self.WORKSPACE_SHARE * 2 * outputs), cdiv(K, self.tile_k))
    splits = min(want, cap)
    if splits <= 1:
        return 1
    return cdiv(K, self.k_slice(K, splits))


def _k_splits(self, M, N, K, sms, dtype="float32"):
    return (old_k_splits if MODE["old"] else NEW)(self, M, N, K, sms, dtype)


SkinnyConfig.k_splits = _k_splits


def set_mode(old: bool) -> None:
    MODE["old"] = old
    dispatch.clear_cache()
    execute.clear_plans()


def plan(M, N, K, dt, old):
    """(strategy, params, slices) auto runs in that mode, or None where it is no GEMV rung."""
    set_mode(old)
    kf = tm.kernel("auto").kernel_for(M, N, K, dt)
    if not isinstance(kf.config, SkinnyConfig):
        return None
    return kf.strategy.name, kf.config.params(), kf.config.k_splits(M, N, K, 132, dt)


def shapes(which: int = 1):
    from random_shapes import draw_shapes
    out = []
    seeds = {1: range(30, 46), 2: range(46, 62), 3: range(62, 78)}[which]
    for seed in seeds:
        out += [(s, dt) for s, dt in zip(draw_shapes(40, seed, 200.0, 1), itertools.cycle(("float32", "float16", "float64")))]
    if which > 1:
        sizes = {2: ((1, 2, 4, 6, 7), (900, 1800, 3500, 5000, 9000, 20000), (2000, 6000, 16000, 40000)),
                 3: ((1, 3, 5, 8), (600, 1200, 2800, 4500, 7000, 11000, 30000), (1500, 4500, 10000, 25000, 60000))}[which]
        grid = itertools.product(*sizes)
        for (M, N, K), dt in zip(grid, itertools.cycle(("float32", "float32", "float16", "bfloat16", "float64"))):
            out += [((M, N, K), dt), ((N, M, K), dt)]
        return out
    for M, N, K in itertools.product((1, 2, 3, 5, 8), (700, 2500, 4000, 6000, 14000), (3000, 12000, 30000)):
        out += [((M, N, K), "float32"), ((N, M, K), "float32")]
    for M, N, K in itertools.product((1, 4, 8), (2500, 6000), (5000, 20000)):
        out += [((M, N, K), "float16"), ((N, M, K), "float16"), ((M, N, K), "float64"), ((N, M, K), "float64")]
    return out


def moved(limit, which=1):
    out = []
    for (M, N, K), dt in shapes(which):
        if M * N * K * 2 > 200e9:
            continue
        a, b = plan(M, N, K, dt, True), plan(M, N, K, dt, False)
        if a is not None and b is not None and a != b:
            out.append(((M, N, K), dt, a, b))
    set_mode(False)
    return out[:limit]


def main() -> None:
    limit = int(sys.argv[-1]) if sys.argv[-1].isdigit() else 10**9
    mv = moved(limit, 3 if "--third" in sys.argv else 2 if "--second" in sys.argv else 1)
    if "--list" in sys.argv:
        for s, dt, a, b in mv:
            print(dt, s, a, "->", b)
        print(len(mv), "moved")
        return
    import cupy as cp

    from tiled_matmul.measure import cublas_row
    from tiled_matmul.timing import L2Flusher, time_fn
    flush = L2Flusher()
    ratios = []
    print("dtype shape: old (strategy params slices) -> new, us old -> new (cuBLAS), x cuBLAS old -> new", flush=True)
    for (M, N, K), dt, a_pick, b_pick in mv:
        a = (cp.random.rand(M, K) * 2 - 1).astype(dt)
        b = (cp.random.rand(K, N) * 2 - 1).astype(dt)
        c = cp.empty((M, N), dt)
        kern = {}
        for tag, pick in (("old", a_pick), ("new", b_pick)):
            set_mode(tag == "old")
            kern[tag] = tm.kernel(pick[0], **pick[1])
            kern[tag](a, b, out=c)
            if not tm.check(c, a, b).passed:
                print(f"  {dt} {M}x{N}x{K} {tag}: WRONG", flush=True)
        crow = cublas_row("probe", dtype=dt)
        ts = {"old": [], "new": [], "cublas": []}
        for _ in range(3):
            for tag in ("old", "new"):
                set_mode(tag == "old")
                k = kern[tag]
                ts[tag].append(time_fn(lambda i: k(a, b, out=c), repeat=9, warmup=2, flush=flush).median_ms)
            with crow.context():
                ts["cublas"].append(time_fn(lambda i: crow.call(a, b, c), repeat=9, warmup=2, flush=flush).median_ms)
        o, n, cb = (statistics.median(ts[t]) * 1e3 for t in ("old", "new", "cublas"))
        ratios.append((cb / o, cb / n))
        print(f"{dt} {M}x{N}x{K}: {a_pick} -> {b_pick}  {o:.1f} -> {n:.1f} ({cb:.1f})  {cb / o:.2f} -> {cb / n:.2f}", flush=True)
    set_mode(False)
    gm = statistics.geometric_mean
    print(f"{len(ratios)} moved: geometric mean x cuBLAS {gm([x for x, _ in ratios]):.3f} -> {gm([y for _, y in ratios]):.3f}, "
          f"lowest {min(x for x, _ in ratios):.2f} -> {min(y for _, y in ratios):.2f}, "
          f"slower by 3%+: {sum(y < 0.97 * x for x, y in ratios)}, faster by 3%+: {sum(y > 1.03 * x for x, y in ratios)}", flush=True)


if __name__ == "__main__":
    main()
