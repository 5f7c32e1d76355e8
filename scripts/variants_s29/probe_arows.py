"""float32 products auto runs on wgmma_tma_tf32 whose rows of A (K % 4) or of B (N % 4) are not
16-byte multiples: A read in place by the "_arows" kernel (auto, now: its stages copied by
cp.async) against the copy of A into padded rows that the launch made before (the twenty-eighth
session's item 6: auto 1.28x cuBLAS, 1.55x on operands the caller padded), on the same shapes
(probe_tma_ragged.draw).

Per shape: auto; "copied", the same kernel config on A copied into padded rows within the call
(wgmma_tma.addressable, the launch's old path: A's read and write, then the plain kernel; B as
auto does it); "padded", the config on operands the caller padded (no copy at the call: a bound).

    PYTHONPATH=. python3 scripts/variants_s29/probe_arows.py --seed 2808 --count 16
    PYTHONPATH=. python3 scripts/variants_s29/probe_arows.py --seed 2808 --count 16 --compile-only DIR

Every call checked first (tm.check on a NaN-poisoned C, normwise and per element beside cuBLAS);
3 alternating rounds, CUDA events after warm-up, L2 flushed, medians, cuBLAS FP32 and a device
copy of the product's bytes in the same rounds.
"""
import argparse
import os
import sys


sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "variants_s28"))

from probe_tma_ragged import draw  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=2808)
    ap.add_argument("--count", type=int, default=16)
    ap.add_argument("--compile-only", metavar="CACHE_DIR")
    args = ap.parse_args()
    shapes = draw(args.seed, args.count)
    if args.compile_only:
        from _probe import precompile_shapes

        print(precompile_shapes(args.compile_only, shapes, lambda M, N, K: {}), "kernels;", shapes)
        return

    import cupy

    import tiled_matmul as tm
    from _probe import auto_against, padded_call
    from tiled_matmul.strategies.wgmma_tma import addressable

    def more(a, b, c, k):
        M, K = a.shape
        name, params = k.strategy.name, k.config.params()
        out = {}
        # (a_rows: the variant's, scripts/variants_s29/arows_consumer_realign.patch; without it auto
        # is the copied path itself)
        if name == "wgmma_tma_tf32" and getattr(k.config, "a_rows", lambda *_: False)(M, K, a.data.ptr, K):
            def copied():
                stream = cupy.cuda.get_current_stream()
                buf, pitch = addressable(a, M, K, stream)
                return tm.matmul(buf[:, :K], b, out=c, strategy=name, **params)

            out["copied"] = (copied, "the config on A copied into padded rows in the call (the old launch)")
        out["padded"] = (padded_call(a, b, c, name, params), "the config, operands in padded rows")
        return out

    auto_against(shapes, lambda M, N, K: {}, "float32", args.seed, more=more)


if __name__ == "__main__":
    main()
