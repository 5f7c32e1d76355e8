"""The default tf32x3 and tf32 configs of wgmma_tma_tf32 beside cuBLAS FP32 and TF32, one process.

    PYTHONPATH=. python3 scripts/probe_tf32x3.py --sizes 4096,8192 [--label NAME]

A short probe for trying one kernel variant per process (the template's constants can be
switched by the caller's environment while a variant is measured): per shape, the componentwise
error of each kernel against float64 on poisoned output, then CUDA-event medians with L2 flushed.
"""

from __future__ import annotations

import argparse
import sys


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="4096,8192")
    p.add_argument("--repeat", type=int, default=30)
    p.add_argument("--label", default="")
    p.add_argument("--modes", default="tf32x3,tf32")
    p.add_argument("--params", default="", help="config params for every mode, e.g. group_m=16,stages=3; "
                   "several sets separated by ';'")
    args = p.parse_args(argv)

    import cupy

    import tiled_matmul as tm
    from tiled_matmul import numerics
    from tiled_matmul.measure import cublas_compute_type, make_inputs, parse_shapes
    from tiled_matmul.timing import L2Flusher, time_fn

    flush = L2Flusher()
    base = {"tf32x3": dict(bm=128, bn=128, stages=4, passes=3), "tf32": dict(bm=256, bn=128, stages=4, passes=1)}
    sets = [dict((kv.split("=")[0], int(kv.split("=")[1])) for kv in group.split(",") if kv)
            for group in args.params.split(";")]
    ok = True
    for shape in parse_shapes(args.sizes):
        M, N, K = shape
        a, b, c = make_inputs(shape, "float32", 1, seed=0)[0]
        ref, den = numerics.reference(a, b)
        repeat = max(5, args.repeat // (4 if M * N * K >= 8192**3 else 1))
        for mode in args.modes.split(","):
            kind = "fp32" if mode == "tf32x3" else "tf32"
            with cublas_compute_type(kind):
                c.fill(cupy.nan)
                cupy.matmul(a, b, out=c)
                ref_err = numerics.componentwise_error(c, a, b, ref, den)
                tr = time_fn(lambda i: cupy.matmul(a, b, out=c), repeat=repeat, flush=flush)
            for extra in sets:
                params = {**base[mode], **extra}
                k = tm.kernel("wgmma_tma_tf32", **params)
                c.fill(cupy.nan)
                k(a, b, out=c)
                err = numerics.componentwise_error(c, a, b, ref, den)
                nan = bool(cupy.isnan(c).any())
                t = time_fn(lambda i: k(a, b, out=c), repeat=repeat, flush=flush)
                tf, rf = t.tflops(M, N, K), tr.tflops(M, N, K)
                bound = numerics.bound(mode, K, truncated=True)
                good = err <= bound and not nan
                ok &= good
                label = " ".join(f"{k_}={v}" for k_, v in extra.items()) or "default"
                print(f"| {args.label} | {'x'.join(map(str, shape))} | {mode} {label} | {tf:.1f} | cuBLAS {kind} "
                      f"{rf:.1f} | {tf / rf:.3f} | {err:.3g} | {ref_err:.3g} | {'ok' if good else 'FAIL'} |", flush=True)
        a = b = c = ref = den = None  # noqa: F841 (freed before the next shape)
        cupy.get_default_memory_pool().free_all_blocks()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
