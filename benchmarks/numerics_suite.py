"""Precision modes on the H100: the numerics suite per mode against cuBLAS FP32, and speed.

For every precision mode (auto, ieee, tf32x3, tf32), data set and K of
:mod:`tiled_matmul.numerics`: componentwise error (max |C - ref| / (|A||B|)) of ``tm.matmul`` and
of ``cupy.matmul`` FP32 (TF32 off) in the same run, their ratio, the mode's stated bound, the
NaN/Inf masks, and bit equality on small integers. Then speed at 4096^3 and 8192^3 per mode against
cuBLAS FP32 and cuBLAS TF32 (CUDA events after warm-up, medians, L2 flushed).

    PYTHONPATH=. python3 benchmarks/numerics_suite.py [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import cupy

import tiled_matmul as tm
from tiled_matmul import numerics
from tiled_matmul.measure import cublas_compute_type, make_inputs
from tiled_matmul.timing import L2Flusher, time_fn

MODES = ("auto", "ieee", "tf32x3", "tf32")


def accuracy_rows(seed: int) -> list[dict]:
    rows = []
    for name in numerics.DATASETS:
        for K in numerics.KS:
            M, N, _ = numerics.shape_for(K)
            a, b, ref, den = numerics.device_case(name, K, seed)
            with cublas_compute_type("fp32"):
                cub = cupy.matmul(a, b)
            e_cub = numerics.componentwise_error(cub, a, b, ref, den)
            mask_cub = numerics.nonfinite_mask(cub)
            for mode in MODES:
                out = cupy.full((M, N), cupy.nan, dtype=cupy.float32)  # poisoned
                tm.matmul(a, b, precision=mode, out=out)
                kern = tm.kernel("auto", precision=mode).kernel_for(M, N, K)
                e = numerics.componentwise_error(out, a, b, ref, den)
                rows.append(dict(
                    data=name, K=K, mode=mode, strategy=kern.strategy.name, err=e, cublas_err=e_cub,
                    ratio=(e / e_cub) if e_cub > 0 else (0.0 if e == 0 else float("inf")),
                    bound=numerics.bound(kern.config.precision, K),
                    masks_equal=bool((numerics.nonfinite_mask(out) == mask_cub).all()),
                    bit_equal=bool((out == cub).all() | (cupy.isnan(out) & cupy.isnan(cub)).all()),
                ))
    return rows


def speed_rows() -> list[dict]:
    rows = []
    flush = L2Flusher()
    for n in (4096, 8192):
        a, b, c = make_inputs((n, n, n), "float32", seed=0)[0]
        rep = 20 if n == 4096 else 8
        with cublas_compute_type("fp32"):
            fp32 = time_fn(lambda i: cupy.matmul(a, b, out=c), repeat=rep, flush=flush)
        with cublas_compute_type("tf32"):
            tf32 = time_fn(lambda i: cupy.matmul(a, b, out=c), repeat=rep, flush=flush)
        for mode in MODES:
            t = time_fn(lambda i: tm.matmul(a, b, precision=mode, out=c), repeat=rep, flush=flush)
            ref = tf32 if mode == "tf32" else fp32
            rows.append(dict(shape=f"{n}^3", mode=mode, strategy=tm.kernel("auto", precision=mode).resolve(n, n, n).strategy,
                             ms=t.median_ms, tflops=t.tflops(n, n, n),
                             ref="cuBLAS TF32" if mode == "tf32" else "cuBLAS FP32",
                             ref_tflops=ref.tflops(n, n, n), ratio=ref.median_ms / t.median_ms))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.environ.get("OUT", ""))
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    dev = cupy.cuda.runtime.getDeviceProperties(0)["name"].decode()
    acc = accuracy_rows(args.seed)
    speed = speed_rows()
    lines = [f"# Precision modes on {dev}", "",
             "componentwise error, ours / cuBLAS FP32 (same run); bound = the mode's stated bound", ""]
    lines.append("| data | K | " + " | ".join(MODES) + " | cuBLAS err | NaN/Inf masks equal |")
    lines.append("|---|---:|" + "---:|" * len(MODES) + "---:|---|")
    by = {(r["data"], r["K"], r["mode"]): r for r in acc}
    worst = {m: 0.0 for m in MODES}
    for name in numerics.DATASETS:
        for K in numerics.KS:
            rs = [by[(name, K, m)] for m in MODES]
            for r in rs:
                worst[r["mode"]] = max(worst[r["mode"]], r["ratio"])
            cells = [f"{r['ratio']:.2f}" + ("" if r["err"] <= r["bound"] or name.startswith(("subnormal", "NaN")) else " (>bound)") for r in rs]
            eq = all(r["masks_equal"] for r in rs)
            ints = "; ints bit-equal: " + ",".join(r["mode"] for r in rs if r["bit_equal"]) if name == "small integers" else ""
            lines.append(f"| {name} | {K} | " + " | ".join(cells) + f" | {rs[0]['cublas_err']:.2e} | {eq}{ints} |")
    lines += ["", "worst ratio per mode: " + ", ".join(f"{m} {v:.2f}" for m, v in worst.items()), ""]
    lines += ["| shape | mode | strategy | TF/s | reference | ref TF/s | x reference |", "|---|---|---|---:|---|---:|---:|"]
    for r in speed:
        lines.append(f"| {r['shape']} | {r['mode']} | {r['strategy']} | {r['tflops']:.1f} | {r['ref']} | {r['ref_tflops']:.1f} | {r['ratio']:.2f} |")
    text = "\n".join(lines)
    print(text)
    if args.out:
        Path(args.out).mkdir(parents=True, exist_ok=True)
        Path(args.out, "numerics_suite.md").write_text(text + "\n")
        Path(args.out, "numerics_suite.json").write_text(json.dumps(dict(accuracy=acc, speed=speed), indent=1))


if __name__ == "__main__":
    main()
