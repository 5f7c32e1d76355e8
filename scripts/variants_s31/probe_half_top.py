"""auto against the cost model's first candidates on 16-bit shapes where random_shapes.py put auto
low (thirty-first session, seeds 3101/3102): whether a faster rung or config exists among them.

    PYTHONPATH=. python3 scripts/variants_s31/probe_half_top.py --dtype float16 --top 6 \
        --shapes 387x116x1540,29x1637x173,24x10x725,7203x16x11129
    (--compile-only CACHE_DIR: fill a cubin cache without a GPU)

Each row validated first by tiled_matmul.measure (NaN-poisoned C, float64 reference), then 3
alternating rounds with L2 flushed; ratios are medians of the rounds' cuBLAS/row.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s28"))
sys.path.insert(0, os.path.dirname(__file__))

from _probe import model_top  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dtype", default="float16", choices=("float16", "bfloat16"))
    ap.add_argument("--shapes", required=True, help="MxNxK,MxNxK,...")
    ap.add_argument("--top", type=int, default=6)
    ap.add_argument("--compile-only", metavar="CACHE_DIR")
    args = ap.parse_args()
    shapes = [tuple(map(int, s.split("x"))) for s in args.shapes.split(",")]
    top = {s: model_top(*s, args.dtype, args.top) for s in shapes}
    if args.compile_only:
        from _probe import precompile_shapes

        print(precompile_shapes(args.compile_only, shapes, lambda M, N, K: top[(M, N, K)], args.dtype), "kernels")
        return
    from tiled_matmul.dispatch import choose
    from tiled_matmul.measure import L2Flusher, auto_row, cublas_row, make_inputs

    from _half import call_row, geomeans, timed_rows

    flush = L2Flusher()
    logs: dict = {}
    print(f"{args.dtype}: auto and the model's first {args.top} candidates")
    print("| shape | label | µs | × cuBLAS | call |")
    print("|---|---|---:|---:|---|")
    for M, N, K in shapes:
        sets = make_inputs((M, N, K), args.dtype)
        rows = {"cublas": (cublas_row("probe", dtype=args.dtype), sets), "auto": (auto_row("probe"), sets)}
        what = {"cublas": "cuBLAS", "auto": "{} {}".format(*(lambda c: (c.strategy, dict(c.params)))(choose(M, N, K, args.dtype)))}
        for label, (name, p) in top[(M, N, K)].items():
            rows[label] = (call_row(name, p), sets)
            what[label] = f"{name} {p}"
        res = timed_rows(rows, flush)
        best = min((us, k) for k, (us, _) in res.items() if us is not None and k != "cublas")
        for k in rows:
            us, r = res[k]
            cell = f"{us:.1f} | {r:.2f}" if us is not None else f"– | failed: {str(r)[:60]}"
            print(f"| {M}×{N}×{K} | {k}{' *' if k == best[1] else ''} | {cell} | {what[k]} |", flush=True)
            if us is not None and k != "cublas":
                logs.setdefault(k, []).append(r)
        logs.setdefault("best", []).append(res[best[1]][1])
    print()
    geomeans(logs)


if __name__ == "__main__":
    main()
