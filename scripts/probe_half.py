"""Half-precision probe: every float16/bfloat16-capable strategy (and auto) against cuBLAS, speed
and componentwise error, in one run on one GPU.

    PYTHONPATH=. python3 scripts/probe_half.py                      # 4096^3 and 3001x2999x3007
    PYTHONPATH=. python3 scripts/probe_half.py --sizes 8192 --out $OUT/probe_half.json

For each (shape, dtype): our kernels and cuBLAS on the same operands (uniform in [-1, 1), rounded
to the 16-bit type), CUDA-event medians with L2 flushed between repeats, and the componentwise
error max |C - AB| / (|A||B|) of each against the exact float64 product of the 16-bit inputs.
cuBLAS is cupy.matmul (float16 with FP32 compute), or torch.matmul for bfloat16 where CuPy has no
bfloat16 matmul; the table says which.
"""

from __future__ import annotations

import argparse
import json
import sys


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="4096,3001x2999x3007", help="comma-separated sizes: n or MxNxK")
    p.add_argument("--dtypes", default="float16,bfloat16")
    p.add_argument("--repeat", type=int, default=20)
    p.add_argument("--out", default=None, help="also write the rows as JSON here")
    args = p.parse_args(argv)

    import cupy

    import tiled_matmul as tm
    from tiled_matmul import numerics
    from tiled_matmul.bench import parse_dtypes
    from tiled_matmul.measure import bf16_cublas, cublas_compute_type, make_inputs, parse_shapes
    from tiled_matmul.timing import L2Flusher, time_fn

    flush = L2Flusher()
    rows = []
    print(f"{tm.device_limits().name}; bfloat16 cuBLAS through {bf16_cublas()}")
    print("| shape | dtype | strategy | ours TF/s | cuBLAS TF/s | ratio | comp err ours | comp err cuBLAS | cuBLAS via |")
    print("|---|---|---|---:|---:|---:|---:|---:|---|")
    for shape in parse_shapes(args.sizes):
        M, N, K = shape
        for dt in parse_dtypes(args.dtypes):
            a, b, c = make_inputs(shape, dt, 1, seed=0)[0]
            a64, b64 = numerics.exact64(a), numerics.exact64(b)
            ref, den = a64 @ b64, cupy.abs(a64) @ cupy.abs(b64)
            with cublas_compute_type("fp32", "float16" if dt == "float16" else "float32"):
                cub, which = numerics.cublas_matmul(a, b)
                if which.startswith("cupy"):
                    t_cub = time_fn(lambda i: cupy.matmul(a, b, out=c), repeat=args.repeat, flush=flush)
                else:
                    import torch

                    ta, tb, tc = (torch.from_dlpack(x) for x in (a, b, c))
                    flag = torch.backends.cuda.matmul
                    saved = flag.allow_bf16_reduced_precision_reduction
                    flag.allow_bf16_reduced_precision_reduction = False  # FP32 accumulation, as ours
                    try:
                        t_cub = time_fn(lambda i: torch.matmul(ta, tb, out=tc), repeat=args.repeat, flush=flush)
                    finally:
                        flag.allow_bf16_reduced_precision_reduction = saved
            e_cub = numerics.componentwise_error(cub, a, b, ref, den)
            del cub
            names = [n for n, e in tm.STRATEGIES.items() if e.supports(dt) and e.runs_on()] + ["auto"]
            for name in names:
                try:
                    ours = tm.matmul(a, b, name)
                    e = numerics.componentwise_error(ours, a, b, ref, den)
                    del ours
                    t = time_fn(lambda i: tm.matmul(a, b, name, out=c), repeat=args.repeat, flush=flush)
                except Exception as exc:  # report and go on: a probe, not a test
                    print(f"| {M}x{N}x{K} | {dt} | {name} | error: {type(exc).__name__}: {str(exc)[:80]} |")
                    continue
                label = name if name != "auto" else f"auto ({tm.kernel('auto').kernel_for(M, N, K, dt).strategy.name})"
                row = dict(shape=[M, N, K], dtype=str(dt), strategy=label, ours_tflops=t.tflops(M, N, K),
                           cublas_tflops=t_cub.tflops(M, N, K), ratio=t_cub.median_ms / t.median_ms,
                           comp_err=e, cublas_comp_err=e_cub, bound=numerics.half_bound(dt, K), cublas=which)
                rows.append(row)
                print(f"| {M}x{N}x{K} | {dt} | {label} | {row['ours_tflops']:.1f} | {row['cublas_tflops']:.1f} | "
                      f"{row['ratio']:.3f} | {e:.3g} | {e_cub:.3g} | {which.split(' ')[0]} |")
            a = b = c = a64 = b64 = ref = den = None  # free this shape's arrays before the next
            cupy.get_default_memory_pool().free_all_blocks()
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(rows, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
