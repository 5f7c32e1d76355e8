"""float32 products with 65-128 rows (x·B) or columns (A·x): whether the wgmma tiles cut to the
output (dispatch.narrowed's rule, heights 56-128) and, for A·x, the product run as its transpose
(C^T = B^T A^T, both operands read in place column-major, then C^T copied into C) beat auto.

    PYTHONPATH=. python3 scripts/variants_s27/probe_wide.py
    PYTHONPATH=. python3 scripts/variants_s27/probe_wide.py --compile-only CACHE_DIR   # no GPU
    PYTHONPATH=. python3 scripts/variants_s27/probe_wide.py --random 2801 16   # held-out A·x
    PYTHONPATH=. python3 scripts/variants_s27/probe_wide.py --random 2806 12 --transposed-only

Variants per shape: auto; "own": where auto runs it transposed, the shape's own pick; "cut": auto's pick with bm cut to the small side (when on a wgmma rung
with bm above it); for A·x "T": the cost model's pick among wgmma / wgmma_split_k for B^T A^T,
and "Tcut": that pick with bm cut to N. Every call checked first (tm.check on a NaN-poisoned C);
3 alternating rounds, CUDA events after warm-up, L2 flushed, medians, cuBLAS FP32 and a device
copy of the product's bytes in the same rounds.
"""
import argparse
import math
import os
import sys

import numpy as np

from tiled_matmul import dispatch, registry

XB = [(84, 4570, 1029), (72, 8192, 8192), (100, 6000, 6000), (120, 16384, 4096), (80, 3000, 9000), (90, 12000, 2000)]
AX = [(4570, 84, 1029), (5569, 77, 1320), (8192, 96, 8192), (6000, 72, 6000), (16384, 120, 4096), (3000, 100, 9000),
      (12000, 90, 2000)]


def cut(name, params, rows):
    """params with bm cut to `rows` (a multiple of 8 and of the rows per copy pass), or None."""
    if name not in dispatch.NARROW_RUNGS:
        return None
    entry = registry.get(name)
    cfg = entry.make_config(**params)
    step = math.lcm(8, cfg.threads // cfg.BK)
    bm = -(-rows // step) * step
    if bm >= cfg.bm:
        return None
    new = dict(params, bm=bm)
    return new if entry.make_config(**new).is_valid(dispatch._limits(None)) else None


def variants(M, N, K):
    """label -> (strategy, params, transposed)."""
    import tiled_matmul as tm

    k = tm.kernel("auto").kernel_for(M, N, K, "float32")
    out = {}
    if hasattr(k, "plain"):  # auto runs it transposed (dispatch.AX_TRANSPOSED_WIDE): its own pick too
        out["own"] = (k.plain.strategy.name, k.plain.config.params(), False)
    k = getattr(k, "plain", k)
    name, p = k.strategy.name, k.config.params()
    c = cut(name, p, min(M, N)) if M < N else None
    if c:
        out["cut"] = (name, c, False)
    if N < M:
        best = dispatch.model_choice(N, M, K, "float32", None, "auto", dispatch.NARROW_RUNGS)
        tp = dict(best.params)
        out["T"] = (best.strategy, tp, True)
        tc = cut(best.strategy, tp, N)
        if tc:
            out["Tcut"] = (best.strategy, tc, True)
    return out


def random_ax(seed: int, count: int, transposed_only: bool = False) -> list:
    """`count` A·x shapes with 65-128 columns, M 2000-30000 and K 500-16000 (log-uniform), A of
    at least dispatch.AX_TRANSPOSED_MIN_STREAM elements (with `transposed_only`, those auto runs as
    their transpose)."""
    rs = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        N = int(rs.integers(65, 129))
        M = int(round(math.exp(rs.uniform(math.log(2000), math.log(30000)))))
        K = int(round(math.exp(rs.uniform(math.log(500), math.log(16000)))))
        if M * K >= dispatch.AX_TRANSPOSED_MIN_STREAM:
            if not transposed_only or dispatch.choose(M, N, K, "float32").transposed is not None:
                out.append((M, N, K))
    return out


def main() -> None:
    global XB, AX
    ap = argparse.ArgumentParser()
    ap.add_argument("--compile-only", metavar="CACHE_DIR")
    ap.add_argument("--random", nargs=2, type=int, metavar=("SEED", "COUNT"),
                    help="held-out A·x shapes with 65-128 columns instead of the fixed ones")
    ap.add_argument("--transposed-only", action="store_true",
                    help="with --random: only shapes auto runs as their transpose (a rule's held-out check)")
    args = ap.parse_args()
    if args.random:
        XB, AX = [], random_ax(*args.random, args.transposed_only)
    if args.compile_only:
        os.environ["CUPY_CACHE_DIR"] = os.path.abspath(args.compile_only)
        import tiled_matmul as tm
        from tiled_matmul import compile as tm_compile
        from tiled_matmul.epilogue import ExSpec
        from tiled_matmul.render import kernel_name, render

        cols = ExSpec("float", a_col=True, b_col=True, ld=True)
        seen = set()
        for M, N, K in XB + AX:
            k = tm.kernel("auto").kernel_for(M, N, K, "float32")
            todo = [(k.strategy, k.config, None)]
            if hasattr(k, "inner"):
                todo.append((k.inner.strategy, k.inner.config, cols))
            for name, p, t in variants(M, N, K).values():
                entry = registry.get(name)
                todo.append((entry, entry.make_config(**p), cols if t else None))
            for entry, cfg, ex in todo:
                if (entry.name, cfg, ex) not in seen:
                    seen.add((entry.name, cfg, ex))
                    tm_compile.cached_cubin(render(entry, cfg, "float32", ex), kernel_name(entry.name, cfg, "float32"),
                                            cfg.NVRTC_ARCH or "sm_90", entry.name, cfg, "float32")
        print(len(seen), "kernels")
        return

    import cupy
    import tiled_matmul as tm
    from tiled_matmul.timing import L2Flusher

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s20"))
    from _rounds import describe, log_ratio, print_geomeans, print_rows, timed_with_copy

    sys.path.insert(0, os.path.dirname(__file__))
    from _checked import check_candidates

    flush = L2Flusher()
    gen = cupy.random.default_rng(2727)
    print("| shape | call | µs | × cuBLAS | % copy | pick |")
    print("|---|---|---:|---:|---:|---|")
    logs: dict = {}
    for M, N, K in XB + AX:
        a = gen.uniform(-1, 1, (M, K), dtype=np.float32)
        b = gen.uniform(-1, 1, (K, N), dtype=np.float32)
        c = cupy.empty((M, N), dtype=np.float32)
        ct = cupy.empty((N, M), dtype=np.float32)
        k = tm.kernel("auto").kernel_for(M, N, K, "float32")
        fns = {"cublas": lambda: cupy.matmul(a, b), "auto": lambda: tm.matmul(a, b, out=c)}
        extra = {"auto": describe(k)}
        for label, (name, p, t) in variants(M, N, K).items():
            if t:
                def f(name=name, p=p):
                    tm.matmul(b.T, a.T, out=ct, strategy=name, **p)
                    cupy.copyto(c, ct.T)
            else:
                def f(name=name, p=p):
                    tm.matmul(a, b, out=c, strategy=name, **p)
            fns[label] = f
            extra[label] = f"{name} {p}"
        check_candidates(fns, extra, c, a, b)
        nbytes = (M * K + K * N + M * N) * 4
        res, med = timed_with_copy(fns, nbytes, 3, flush)
        print_rows((M, N, K), fns, res, med, nbytes, extra=extra)
        for label in fns:
            if label != "cublas":
                logs.setdefault(label, []).append(log_ratio(res, label))
    print()
    print_geomeans(logs)


if __name__ == "__main__":
    main()
