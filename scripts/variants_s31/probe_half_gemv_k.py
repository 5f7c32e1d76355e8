"""16-bit GEMV rungs below heuristic.GEMV_MIN_K (thirty-first session). The thirtieth session moved
float32/float64 skinny products with a small stream onto the GEMV rungs from K = 48
(heuristic.GEMV_SHORT_K); _half_gemv kept K >= GEMV_MIN_K (128). Here float16 and bfloat16 draws
(thin side 1-8, wide side 1-3000, K 16-127 log-uniform) whose pick moves when _half_gemv's limit is
lowered to --limit, timed: auto, the lowered pick ("gemv"), cuBLAS (float16 with FP32 compute;
bfloat16 through measure.bf16_cublas's library, FP32 reductions).

    PYTHONPATH=. python3 scripts/variants_s31/probe_half_gemv_k.py --dtype float16 --seed 3101 --count 20
    PYTHONPATH=. python3 scripts/variants_s31/probe_half_gemv_k.py --dtype float16 --seed 3105 --count 16 \
        --limit 48 --side ax      # held out: A·x only (N 1-8), the limit the first draws set
    (--compile-only CACHE_DIR: fill a cubin cache without a GPU)

Each row validated first by tiled_matmul.measure (NaN-poisoned output, float64 reference), then 3
alternating rounds of CUDA-event medians after warm-up with L2 flushed; ratio = median of the
rounds' cuBLAS / row ratios.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s30"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s28"))

from probe_gemv_min_k import draw, lowered_pick  # noqa: E402

from tiled_matmul import heuristic  # noqa: E402


def _ax_reads_short_k() -> bool:
    """Whether 16-bit A·x already takes the GEMV rungs at K = GEMV_SHORT_K with a small A."""
    return heuristic._half_gemv(2, 3, heuristic.GEMV_SHORT_K, 132) is not None


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dtype", default="float16", choices=("float16", "bfloat16"))
    ap.add_argument("--seed", type=int, default=3101)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--limit", type=int, default=16)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--side", default="both", choices=("both", "ax"))
    ap.add_argument("--compile-only", metavar="CACHE_DIR")
    args = ap.parse_args()
    # the limit _half_gemv's A·x branch reads since this probe's rule shipped (GEMV_SHORT_K): a lower
    # --limit moves no A·x pick there, and draw would never return
    if args.side == "ax" and args.limit >= heuristic.GEMV_SHORT_K and _ax_reads_short_k():
        raise SystemExit(f"--side ax --limit {args.limit} moves no pick: 16-bit A·x takes the GEMV rungs from "
                         f"K = {heuristic.GEMV_SHORT_K} (run it on the commit before that rule to redraw)")
    shapes = draw(args.seed, args.count, args.dtype, args.limit, fixed=False, ax_only=args.side == "ax")
    picks = {s: lowered_pick(*s, args.limit, args.dtype) for s in shapes}
    if args.compile_only:
        from _probe import precompile_shapes

        print(precompile_shapes(args.compile_only, shapes, lambda M, N, K: {"gemv": picks[(M, N, K)]},
                                args.dtype), "kernels;", shapes)
        return
    from tiled_matmul.dispatch import choose
    from tiled_matmul.measure import L2Flusher, auto_row, cublas_row, make_inputs

    from _half import call_row, geomeans, timed_rows

    flush = L2Flusher()
    logs: dict = {}
    print(f"{args.dtype}, seed {args.seed}, side {args.side}, GEMV_MIN_K lowered to {args.limit} for 'gemv'")
    print("| shape | cuBLAS µs | auto µs | gemv µs | auto × | gemv × | auto's pick | gemv's |")
    print("|---|---:|---:|---:|---:|---:|---|---|")
    for M, N, K in shapes:
        name, p = picks[(M, N, K)]
        sets = make_inputs((M, N, K), args.dtype)
        res = timed_rows({"cublas": (cublas_row("probe", dtype=args.dtype), sets), "auto": (auto_row("probe"), sets),
                          "gemv": (call_row(name, p), sets)}, flush, args.rounds)
        if any(us is None for us, _ in res.values()):
            print(f"| {M}×{N}×{K} | failed: {[(k, r) for k, (us, r) in res.items() if us is None]} |")
            continue
        for k in ("auto", "gemv"):
            logs.setdefault(k, []).append(res[k][1])
        c = choose(M, N, K, args.dtype)
        print(f"| {M}×{N}×{K} | {res['cublas'][0]:.1f} | {res['auto'][0]:.1f} | {res['gemv'][0]:.1f} | "
              f"{res['auto'][1]:.2f} | {res['gemv'][1]:.2f} | {c.strategy} {dict(c.params)} | {name} {p} |", flush=True)
    print()
    geomeans(logs)

if __name__ == "__main__":
    main()
