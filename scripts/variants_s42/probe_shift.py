"""Forty-second session (written without a device): 16-bit products of one tile row (M <= 128) whose
B has an odd N, so its row pitch is 2 bytes off 4: neither TMA nor b_rows' cp.async reads it, and
wgmma_tma copied it into padded rows first (32x50257x4096 float16 0.69x cuBLAS, thirty-eighth
session). b_shift (scripts/variants_s42/b_shift.patch) reads it in place: the even lines by 4-byte
cp.async, the odd ones as aligned words into staging, shifted into place SHIFT_LAG stages later.

Rows: cuBLAS; auto with the patch (heuristic.ODD_ROWS_IN_PLACE: such products take the cluster-free
pick, whose b_shift sibling reads B); auto old (the switch and WgmmaTmaConfig.B_SHIFT_SIBLING off:
the clustered 128 x 256 tile, B copied); wgmma_tma's 128 x 256 and 128 x 128 tiles through their
b_shift siblings (the 128 x 256 one at 2 stages: 3 leave no room for the staging); 128 x 128 with
B copied. Eleven fixed shapes, then a draw (--seed, --count). Every row validated first
(NaN-poisoned C, float64 reference, per element: tiled_matmul.measure), 3 alternating rounds,
L2 flushed.

    (needs scripts/variants_s42/b_shift.patch applied)
    PYTHONPATH=. python3 scripts/variants_s42/probe_shift.py [--dtype float16] [--seed 4203] [--count 6]
    PYTHONPATH=. python3 scripts/variants_s42/probe_shift.py --compile-only CACHE_DIR   # no GPU
"""
import argparse
import contextlib
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s31"))

SHAPES = [(16, 50257, 4096), (32, 50257, 4096), (64, 50257, 4096), (128, 50257, 4096), (32, 32001, 4096),
          (64, 10185, 4000), (9, 10185, 4000), (100, 20001, 8192), (32, 10185, 8192), (16, 4093, 16384),
          (64, 1001, 16384)]


def draw(seed: int, count: int) -> list:
    """`count` shapes with M 9-128, an odd N 1001-60001 and K 1000-16384 log-uniform."""
    import numpy as np

    rng = np.random.default_rng(seed)
    return [(int(rng.integers(9, 129)), 2 * int(rng.integers(500, 30000)) + 1,
             int(np.exp(rng.uniform(np.log(1000), np.log(16384))))) for _ in range(count)]


@contextlib.contextmanager
def old_rule():
    """The tree before the patch: no b_shift sibling, odd N not in _b_rows_in_place."""
    from tiled_matmul import dispatch, heuristic
    from tiled_matmul.strategies.wgmma_tma import WgmmaTmaConfig

    heuristic.ODD_ROWS_IN_PLACE, WgmmaTmaConfig.B_SHIFT_SIBLING = False, False
    dispatch.clear_cache()
    try:
        yield
    finally:
        heuristic.ODD_ROWS_IN_PLACE, WgmmaTmaConfig.B_SHIFT_SIBLING = True, True
        dispatch.clear_cache()


def compile_only(cache: str) -> None:
    """The b_shift siblings of wgmma_tma's cluster-free configs and of the split's, both 16-bit
    dtypes, and what tests/test_gpu_wgmma_tma_shift.py runs besides (a float32 C, gemm's epilogue),
    into the cubin cache `cache` (NVRTC, no GPU)."""
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s28"))
    from _probe import precompile

    from tiled_matmul.epilogue import ExSpec
    from tiled_matmul.registry import get

    e = get("wgmma_tma")
    jobs = [(name, cfg) for name in ("wgmma_tma", "wgmma_tma_split_k")
            for cfg in dict.fromkeys(c.shift_sibling() for c in get(name).configs if c.cluster_m == 1)]
    shift = e.make_config(bm=128, bn=128, stages=5).shift_sibling()
    for dt in ("float16", "bfloat16"):
        print(precompile(cache, [*jobs, (e, shift.replace(out_bits=32))], dt), dt, "kernels")
    epilogue = ExSpec("float", alpha=True, beta=True, bias=1, activation="relu")
    print(precompile(cache, [(e, e.default.shift_sibling(), epilogue)], "float16"), "with gemm's epilogue")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dtype", default="float16", choices=("float16", "bfloat16"))
    ap.add_argument("--seed", type=int, default=4203)
    ap.add_argument("--count", type=int, default=6)
    ap.add_argument("--compile-only", metavar="CACHE_DIR")
    args = ap.parse_args()
    if args.compile_only:
        compile_only(args.compile_only)
        return
    from _half import against_old_rule, call_row, cells, cublas_cell, geomeans, timed_rows

    from tiled_matmul.measure import L2Flusher, Row, make_inputs

    flush = L2Flusher()
    logs: dict = {}
    labels = ["auto", "auto old", "128x256 shift", "128x128 shift", "128x128 padded"]
    print(f"{args.dtype}: µs (× cuBLAS); shift = wgmma_tma's b_shift sibling (B read in place), padded = B copied")
    print(f"| shape | auto's pick (old) | cuBLAS µs | {' | '.join(labels)} |")
    print("|---|---|---:|" + "---:|" * len(labels))
    for M, N, K in SHAPES + draw(args.seed, args.count):
        sets = make_inputs((M, N, K), args.dtype)
        pick, old, rows = against_old_rule(M, N, K, args.dtype, sets, old_rule)
        t128 = call_row("wgmma_tma", {"bm": 128, "bn": 128, "stages": 5})
        rows.update({"128x256 shift": (call_row("wgmma_tma", {}), sets), "128x128 shift": (t128, sets),
                     "128x128 padded": (Row("probe", "padded", t128.call, context=old_rule), sets)})
        res = timed_rows(rows, flush)
        print(f"| {M}×{N}×{K} | {pick['strategy']} ({old['strategy']} {old['params'].get('cluster_m', '')}) | "
              f"{cublas_cell(res)} | "
              f"{' | '.join(cells(res, labels, logs))} |", flush=True)
    print()
    geomeans(logs)


if __name__ == "__main__":
    main()
