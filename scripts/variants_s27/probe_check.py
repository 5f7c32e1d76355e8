"""Held-out check of the twenty-seventh session's dispatch changes on random float32 shapes no
probe had used: x·B with 17-64 rows (dispatch.xb_choice) and A·x with 49-64 columns
(dispatch.AX_TRANSPOSED up to 64), auto before and as shipped.

    PYTHONPATH=. python3 scripts/variants_s27/probe_check.py --seed 2702 --count 12
    PYTHONPATH=. python3 scripts/variants_s27/probe_check.py --compile-only CACHE_DIR   # no GPU
    PYTHONPATH=. python3 scripts/variants_s27/probe_check.py --set heights --seed 2704

"before" is xb_choice off and AX_TRANSPOSED = (17, 48). Each variant's kernel object is resolved
once under its settings and launched directly (its _launch_fast, as tm.matmul's hot path does).
Every call checked first (tm.check on a NaN-poisoned C); 3 alternating rounds, CUDA events after
warm-up, L2 flushed, medians, cuBLAS FP32 and a device copy of the product's bytes in the same
rounds.
"""
import argparse
import math
import os
import sys

import numpy as np

import tiled_matmul as tm
from tiled_matmul import dispatch, heuristic
from tiled_matmul.dtypes import as_dtype

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s20"))
from _rounds import describe, log_ratio, print_geomeans, print_rows, timed_with_copy  # noqa: E402

F32 = as_dtype("float32")


#: which change "before" undoes: the x·B rules and A·x to 64 columns, or the narrowed heights
#: from 56 to 128 (dispatch.NARROW_HEIGHTS was (24, 48))
SET = "rules"


def resolved(M, N, K, before):
    saved = dispatch.xb_choice, dispatch.AX_TRANSPOSED, dispatch.NARROW_HEIGHTS
    if before and SET == "rules":
        dispatch.xb_choice, dispatch.AX_TRANSPOSED = (lambda *a, **k: None), (17, 48)
    elif before:
        dispatch.NARROW_HEIGHTS = (24, 48)
    try:
        dispatch.clear_cache()
        return tm.kernel("auto").kernel_for(M, N, K, "float32")
    finally:
        dispatch.xb_choice, dispatch.AX_TRANSPOSED, dispatch.NARROW_HEIGHTS = saved
        dispatch.clear_cache()


def shapes(rs, count, side, tries=1000):
    """Up to `count` shapes of the set (fewer where `tries` draws find no more: with
    dispatch.AX_NARROW_MAX at 48, no A·x of --set heights changes pick any more; the recorded
    run, s27h_heights_2704.md, had the 56-column cut)."""
    out = []
    for _ in range(tries):
        if len(out) == count:
            break
        small = int(rs.integers(*{("rules", "M"): (17, 65), ("rules", "N"): (49, 65),
                                   ("heights", "M"): (49, 129), ("heights", "N"): (49, 57)}[SET, side]))
        lo = 12000 if len(out) % 2 else 1500
        big = int(round(math.exp(rs.uniform(math.log(lo), math.log(30000)))))
        if len(out) % 3 != 2:
            big = -(-big // 4) * 4
        K = int(round(math.exp(rs.uniform(math.log(800), math.log(16000)))))
        if len(out) % 3 != 1:
            K = -(-K // 4) * 4
        if big * K < (heuristic.XB_TMA_MIN_STREAM_8 if side == "M" else dispatch.AX_TRANSPOSED_MIN_STREAM):
            continue
        shape = (small, big, K) if side == "M" else (big, small, K)
        if SET == "heights":  # only the shapes whose pick the heights change
            if describe(resolved(*shape, True)) != describe(resolved(*shape, False)):
                out.append(shape)
        elif side == "M" or dispatch.choose(*shape, "float32").transposed is not None:
            out.append(shape)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=2702)
    ap.add_argument("--count", type=int, default=12)
    ap.add_argument("--compile-only", metavar="CACHE_DIR")
    ap.add_argument("--set", choices=("rules", "heights"), default="rules",
                    help="rules: x·B 17-64 rows and A·x 49-64 columns against the s26 rules; heights: "
                         "x·B 49-128 rows and A·x 49-56 columns against NARROW_HEIGHTS (24, 48)")
    args = ap.parse_args()
    global SET
    SET = args.set
    rs = np.random.default_rng(args.seed)
    sets = {"x·B": shapes(rs, args.count, "M"), "A·x": shapes(rs, args.count // 2, "N")}
    if args.compile_only:
        os.environ["CUPY_CACHE_DIR"] = os.path.abspath(args.compile_only)
        from tiled_matmul import compile as tm_compile
        from tiled_matmul.epilogue import ExSpec
        from tiled_matmul.render import kernel_name, render

        cols = ExSpec("float", a_col=True, b_col=True, ld=True)
        sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))
        from tests.test_gpu_narrow import NARROW, TRANSPOSED, WIDE, XB_MOVED  # and their GPU tests' picks

        tested = [(s, False) for s in NARROW + TRANSPOSED + WIDE + [s for s, _ in XB_MOVED]]
        seen = set()
        for s, before in [(s, b) for v in sets.values() for s in v for b in (True, False)] + tested:
            k = resolved(*s, before)
            ks = [(k.strategy, k.config, None)] + ([(k.inner.strategy, k.inner.config, cols)]
                                                    if hasattr(k, "inner") else [])
            for entry, cfg, ex in ks:
                if (entry.name, cfg, ex) not in seen:
                    seen.add((entry.name, cfg, ex))
                    tm_compile.cached_cubin(render(entry, cfg, "float32", ex),
                                            kernel_name(entry.name, cfg, "float32"),
                                            cfg.NVRTC_ARCH or "sm_90", entry.name, cfg, "float32")
        print(len(seen), "kernels")
        return

    import cupy
    from tiled_matmul.timing import L2Flusher


    flush = L2Flusher()
    gen = cupy.random.default_rng(args.seed)
    dev = cupy.cuda.Device().id
    logs: dict = {}
    for label, shape_list in sets.items():
        print(f"\n## {label}, seed {args.seed}\n")
        print("| shape | call | µs | × cuBLAS | % copy | pick |")
        print("|---|---|---:|---:|---:|---|")
        for M, N, K in shape_list:
            a = gen.uniform(-1, 1, (M, K), dtype=np.float32)
            b = gen.uniform(-1, 1, (K, N), dtype=np.float32)
            c = cupy.empty((M, N), dtype=np.float32)
            kerns = {"before": resolved(M, N, K, True), "shipped": resolved(M, N, K, False)}
            fns = {"cublas": lambda: cupy.matmul(a, b)}
            extra = {}
            for v, k in kerns.items():
                fns[v] = lambda k=k: k._launch_fast(a, b, c, M, N, K, dev, F32)
                c.fill(np.nan)
                fns[v]()
                rep = tm.check(c, a, b)
                assert rep.passed, (v, (M, N, K), rep)
                extra[v] = describe(k) + f" err {rep.comp_err:.1e} (cuBLAS {rep.cublas_comp_err:.1e})"
            nbytes = (M * K + K * N + M * N) * 4
            res, med = timed_with_copy(fns, nbytes, 3, flush)
            print_rows((M, N, K), fns, res, med, nbytes, extra=extra)
            for v in kerns:
                logs.setdefault((label, v), []).append(log_ratio(res, v))
    print()
    print_geomeans(logs)


if __name__ == "__main__":
    main()
