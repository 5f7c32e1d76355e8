"""wgmma_tma_tf32 against cuBLAS and the cp.async wgmma rung, float32 tf32 and tf32x3, one run.

    PYTHONPATH=. python3 scripts/bench_tf32tma.py                        # 4096^3, 8192^3, 3001x2999x3007
    PYTHONPATH=. python3 scripts/bench_tf32tma.py --sizes 4096 --out $OUT/bench_tf32tma.json
    PYTHONPATH=. python3 scripts/bench_tf32tma.py --sizes 4096,8192 --sweep   # + a grid of stages/group_m

Per shape, on the same operands (uniform in [-1, 1)): every wgmma_tma_tf32 config of its search
space in each mode, wgmma (the cp.async rung, heuristic params) in each mode, cuBLAS TF32
(cupy.matmul with CuPy's TF32 compute type: the reference of "tf32") and cuBLAS FP32 (TF32 off:
the reference of "tf32x3"). CUDA-event medians with L2 flushed between repeats; componentwise
error max |C - AB| / (|A||B|) against float64 checked first (a row over its mode's bound says
FAIL and is still timed). Targets (issue 13): tf32 >= 0.95x cuBLAS TF32, tf32x3 >= 100 TF/s.
"""

from __future__ import annotations

import argparse
import json
import sys


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="4096,8192,3001x2999x3007", help="comma-separated sizes: n or MxNxK")
    p.add_argument("--repeat", type=int, default=20)
    p.add_argument("--out", default=None, help="also write the rows as JSON here")
    p.add_argument("--sweep", action="store_true",
                   help="also time a grid of stages x group_m for each mode's tiles (configs outside the search space)")
    args = p.parse_args(argv)

    import cupy

    import tiled_matmul as tm
    from tiled_matmul import heuristic, numerics
    from tiled_matmul.measure import cublas_compute_type, make_inputs, parse_shapes
    from tiled_matmul.timing import L2Flusher, time_fn

    flush = L2Flusher()
    entry = tm.STRATEGIES["wgmma_tma_tf32"]
    sms = tm.device_limits().sm_count
    rows = []
    print(f"{tm.device_limits().name}, {sms} SMs. ratio = TF/s over the mode's cuBLAS reference row "
          "(TF32 for tf32, FP32 for tf32x3). Targets: tf32 >= 0.95, tf32x3 >= 100 TF/s.")
    print("| shape | mode | kernel | TF/s | ratio | comp err | bound | check |")
    print("|---|---|---|---:|---:|---:|---:|---|")
    for shape in parse_shapes(args.sizes):
        M, N, K = shape
        a, b, c = make_inputs(shape, "float32", 1, seed=0)[0]
        ref, den = numerics.reference(a, b)
        repeat = max(5, args.repeat // (4 if M * N * K >= 8192**3 else 1))
        ref_tflops = {}
        for mode, kind in (("tf32", "tf32"), ("tf32x3", "fp32")):
            with cublas_compute_type(kind):
                cupy.matmul(a, b, out=c)
                err = numerics.componentwise_error(c, a, b, ref, den)
                t = time_fn(lambda i: cupy.matmul(a, b, out=c), repeat=repeat, flush=flush)
            ref_tflops[mode] = t.tflops(M, N, K)
            rows.append(dict(shape=shape, mode=mode, kernel=f"cuBLAS {kind.upper()}", tflops=t.tflops(M, N, K),
                             ratio=1.0, err=err, bound=None, ok=True))
        kernels = []
        for mode in ("tf32", "tf32x3"):
            configs = [cfg for cfg in entry.configs if cfg.precision == mode]
            if args.sweep:
                tiles = [(128, 128)] if mode == "tf32x3" else [(256, 128), (128, 256)]
                passes = 3 if mode == "tf32x3" else 1
                grid = [entry.make_config(bm=bm, bn=bn, stages=st, group_m=gm, passes=passes)
                        for bm, bn in tiles for st in (3, 4, 5, 6) for gm in (4, 8, 16)]
                configs += [c for c in grid if c not in configs and c.is_valid(dtype="float32")]
            for cfg in configs:
                kernels.append((mode, f"wgmma_tma_tf32 {cfg.tag()}", tm.kernel("wgmma_tma_tf32", **cfg.params())))
            name, params = heuristic.recommend(M, N, K, precision=mode, sms=sms, tma=False)
            kernels.append((mode, f"{name} {params}", tm.kernel(name, **params)))
        for mode, label, k in kernels:
            try:
                c.fill(cupy.nan)
                k(a, b, out=c)
                err = numerics.componentwise_error(c, a, b, ref, den)
                nan = bool(cupy.isnan(c).any())
                limit = numerics.bound(mode, K, truncated=getattr(type(k.config), "TF32_TRUNCATES", False))
                t = time_fn(lambda i: k(a, b, out=c), repeat=repeat, flush=flush)
                rows.append(dict(shape=shape, mode=mode, kernel=label, tflops=t.tflops(M, N, K),
                                 ratio=t.tflops(M, N, K) / ref_tflops[mode], err=err, bound=limit,
                                 ok=(err <= limit and not nan)))
            except Exception as exc:  # one broken config must not hide the others' numbers
                rows.append(dict(shape=shape, mode=mode, kernel=label, tflops=0.0, ratio=0.0, err=float("nan"),
                                 bound=None, ok=False, error=f"{type(exc).__name__}: {exc}"[:300]))
        for r in rows:
            if r["shape"] != shape:
                continue
            check = ("ok" if r["ok"] else "FAIL") + (f" {r['error']}" if "error" in r else "")
            bound = f"{r['bound']:.2g}" if r["bound"] else "-"
            print(f"| {'x'.join(map(str, shape))} | {r['mode']} | {r['kernel']} | {r['tflops']:.1f} | "
                  f"{r['ratio']:.3f} | {r['err']:.3g} | {bound} | {check} |", flush=True)
        del ref, den, a, b, c
        cupy.get_default_memory_pool().free_all_blocks()
    if args.out:
        with open(args.out, "w") as f:
            json.dump(rows, f, indent=1, default=str)
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
