"""x·B with 17-64 rows (float32): which of auto's candidates streams B fastest once the wgmma
tiles can be narrowed (twenty-sixth session). Per shape: auto as shipped; gemv_xb_tma's chunks
(up to 32 rows, rows of A whole vectors); the cost model's pick among the narrowable rungs
(dispatch.NARROW_RUNGS), narrowed; the model's wgmma_tma_tf32 pick as is, and with bm = 64.

    PYTHONPATH=. python3 scripts/variants_s27/probe_xb.py --seed 2701 --count 12
    PYTHONPATH=. python3 scripts/variants_s27/probe_xb.py --compile-only CACHE_DIR   # no GPU
    PYTHONPATH=. python3 scripts/variants_s27/probe_xb.py --shapes 57x20581x5252,46x27757x1472
    PYTHONPATH=. python3 scripts/variants_s27/probe_xb.py --set split --shapes 27x4351x14081  # split-K tiles

Every call checked first (tm.check on a NaN-poisoned C, normwise and per element beside
cuBLAS); 3 alternating rounds, CUDA events after warm-up, L2 flushed, medians, cuBLAS FP32 and a
device copy of the product's bytes in the same rounds.
"""
import argparse
import math
import os
import statistics
import sys

import numpy as np

from tiled_matmul import dispatch, heuristic, registry

FIXED = [(48, 18708, 8020), (28, 19244, 4044), (25, 16040, 2240), (23, 4264, 7284), (27, 4351, 14081),
         (18, 2268, 1956), (64, 8192, 8192), (32, 4096, 4096), (24, 4096, 16384), (56, 20000, 6000)]


def shapes(rs, count):
    out = []
    while len(out) < count:
        M = int(rs.integers(17, 65))
        lo = 12000 if len(out) % 2 else 1500  # every other one a wide B (wgmma_tma_tf32's case)
        N = int(round(math.exp(rs.uniform(math.log(lo), math.log(30000)))))
        if len(out) % 3 != 2:
            N = -(-N // 4) * 4
        K = -(-int(round(math.exp(rs.uniform(math.log(800), math.log(16000))))) // 4) * 4
        if N * K >= heuristic.XB_TMA_MIN_STREAM_8:
            out.append((M, N, K))
    return out


def variants(M, N, K) -> dict:
    """label -> (strategy, params); "auto" -> None."""
    out = {"auto": None}
    if M <= 32 and K % 4 == 0 and (N % 4 == 0 or N >= heuristic.XB_TMA_RAGGED_MIN_N):
        out["chunks"] = ("gemv_xb_tma", {} if -(-M // 8) * 8 < -(-M // 16) * 16 else {"mt": 16})
    p = dispatch.model_choice(M, N, K, "float32", None, "auto", dispatch.NARROW_RUNGS)
    out["narrow"] = (p.strategy, dispatch.narrowed(p.strategy, dispatch._own_params(p), M))
    t = dispatch.model_choice(M, N, K, "float32", None, "auto", ("wgmma_tma_tf32",))
    tp = dispatch._own_params(t)
    out["tma"] = ("wgmma_tma_tf32", tp)
    full = {**registry.get("wgmma_tma_tf32").default.params(), **tp}
    if full["bm"] > 64:
        out["tma64"] = ("wgmma_tma_tf32", {**tp, "bm": 64})
    return out


def split_variants(M, N, K) -> dict:
    """auto's pick on the split-K rung, against the same tile with two blocks per SM (its narrowed
    height leaves the shared memory for it) and half or twice the slices."""
    import tiled_matmul as tm

    k = tm.kernel("auto").kernel_for(M, N, K, "float32")
    out = {"auto": None}
    if k.strategy.name != "wgmma_split_k":
        return out
    p = k.config.params()
    limits = dispatch._limits(None)
    for label, change in {"mb2s4": dict(stages=4, min_blocks=2), "bn64mb2s6": dict(bn=64, stages=6, min_blocks=2),
                          "bn64mb2s4": dict(bn=64, stages=4, min_blocks=2),
                          "half": dict(split_k=max(2, p["split_k"] // 2)), "twice": dict(split_k=p["split_k"] * 2)}.items():
        q = {**p, **change}
        if q != p and registry.get("wgmma_split_k").make_config(**q).is_valid(limits):
            out[label] = ("wgmma_split_k", q)
    return out


VARIANTS = {"rungs": variants, "split": split_variants}


def compile_only(cache: str, shape_list, variants=variants) -> None:
    os.environ["CUPY_CACHE_DIR"] = os.path.abspath(cache)
    from tiled_matmul import compile as tm_compile
    from tiled_matmul.render import kernel_name, render
    import tiled_matmul as tm

    seen = set()
    for M, N, K in shape_list:
        for label, v in variants(M, N, K).items():
            if v is None:
                k = tm.kernel("auto").kernel_for(M, N, K, "float32")
                entry, cfg = k.strategy, k.config
            else:
                entry = registry.get(v[0])
                cfg = entry.make_config(**v[1])
            if (entry.name, cfg) in seen:
                continue
            seen.add((entry.name, cfg))
            if not cfg.is_valid(dispatch._limits(None)):
                print("# invalid", entry.name, cfg.params())
                continue
            tm_compile.cached_cubin(render(entry, cfg, "float32", None), kernel_name(entry.name, cfg, "float32"),
                                    cfg.NVRTC_ARCH or "sm_90", entry.name, cfg, "float32")
    print(len(seen), "kernels")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=2701)
    ap.add_argument("--count", type=int, default=12)
    ap.add_argument("--compile-only", metavar="CACHE_DIR")
    ap.add_argument("--shapes", help="MxNxK,... instead of the fixed and random ones")
    ap.add_argument("--set", choices=sorted(VARIANTS), default="rungs", help="which variants to time")
    args = ap.parse_args()
    variants = VARIANTS[args.set]
    shape_list = ([tuple(map(int, s.split("x"))) for s in args.shapes.split(",")] if args.shapes
                  else FIXED + shapes(np.random.default_rng(args.seed), args.count))
    if args.compile_only:
        return compile_only(args.compile_only, shape_list, variants)

    import cupy
    import tiled_matmul as tm
    from tiled_matmul.timing import L2Flusher

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s20"))
    from _rounds import print_rows, timed_with_copy

    sys.path.insert(0, os.path.dirname(__file__))
    from _checked import check_candidates

    flush = L2Flusher()
    gen = cupy.random.default_rng(args.seed)
    print("| shape | call | µs | × cuBLAS | % copy | pick |")
    print("|---|---|---:|---:|---:|---|")
    logs: dict = {}
    for M, N, K in shape_list:
        a = gen.uniform(-1, 1, (M, K), dtype=np.float32)
        b = gen.uniform(-1, 1, (K, N), dtype=np.float32)
        c = cupy.empty((M, N), dtype=np.float32)
        fns = {"cublas": lambda: cupy.matmul(a, b)}
        k = tm.kernel("auto").kernel_for(M, N, K, "float32")
        extra = {"auto": f"{k.strategy.name} {k.config.params()}"}
        for label, v in variants(M, N, K).items():
            if v is None:
                fns[label] = lambda: tm.matmul(a, b, out=c)
            else:
                fns[label] = lambda v=v: tm.matmul(a, b, out=c, strategy=v[0], **v[1])
                extra[label] = f"{v[0]} {v[1]}"
        check_candidates(fns, extra, c, a, b)
        nbytes = (M * K + K * N + M * N) * 4
        res, med = timed_with_copy(fns, nbytes, 3, flush)
        print_rows((M, N, K), fns, res, med, nbytes, extra=extra)
        for label in fns:
            logs.setdefault(label, []).append(
                (statistics.median(math.log(x / t) for x, t in zip(res["cublas"], res[label])), (M, N, K)))
    print()
    for label, xs in logs.items():
        v = [x for x, _ in xs]
        print(f"{label}: geometric mean x cuBLAS {math.exp(statistics.fmean(v)):.3f} over {len(v)}, "
              f"lowest {math.exp(min(v)):.3f}", flush=True)
    # per shape, the best of the candidates
    best = {}
    for label, xs in logs.items():
        for x, s in xs:
            if label != "cublas" and (s not in best or x > best[s][0]):
                best[s] = (x, label)
    print("best per shape:", {f"{s[0]}x{s[1]}x{s[2]}": f"{v[1]} {math.exp(v[0]):.2f}" for s, v in best.items()})


if __name__ == "__main__":
    main()
