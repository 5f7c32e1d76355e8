"""dmma (float64 on the FP64 tensor cores) against cuBLAS DGEMM (cupy.matmul, float64) in one run.

    PYTHONPATH=. python3 benchmarks/dmma.py [--sizes 1024,2048,4096,8192] [--repeat 10] [--out DIR]
                                            [--configs all|default|TAG,...]

At each size every config of dmma's search space (default first), warp_tiled's float64 default
(FP64 FMAs, for scale), `auto` and cuBLAS go through tiled_matmul.measure: the output is filled
with NaN, the call is checked against a float64 reference (a row that fails is reported and never
timed), then timed with CUDA events, the L2 flushed before every repeat. Printed per row: median
ms, TF/s, the ratio to cuBLAS of the same run, registers per thread of the compiled kernel, shared
memory per block, and the relative error beside cuBLAS's. Full records go to DIR/dmma.json; the
exit status is 1 when a row failed its check.

The H100 SXM's FP64 tensor-core peak is 66.9 TF/s (132 SMs x 256 FLOP/clk x 1.98 GHz).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import cupy as cp

import tiled_matmul as tm
from tiled_matmul.measure import (AUTO, L2Flusher, Row, auto_row, cublas_row, make_inputs, n_input_sets, parse_shapes,
                                  strategy_row, time_validated, validate)

STUDY = "dmma"
DTYPE = "float64"


def dmma_configs(which: str):
    configs = tm.STRATEGIES["dmma"].configs
    if which == "all":
        return list(configs)
    if which == "default":
        return [configs[0]]
    tags = which.split(",")
    picked = [c for c in configs if c.tag() in tags]
    if len(picked) != len(tags):
        raise SystemExit(f"unknown config tag in {which!r}; tags: {', '.join(c.tag() for c in configs)}")
    return picked


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1024,2048,4096,8192", help="comma-separated n (for n³) or MxNxK")
    ap.add_argument("--repeat", type=int, default=10, help="timed repeats per row (fewer past --budget)")
    ap.add_argument("--budget", type=float, default=2.0, help="seconds of timed work per row, at least 3 repeats")
    ap.add_argument("--configs", default="all", help="all (default), default, or comma-separated config tags")
    ap.add_argument("--out", default=os.environ.get("OUT", "."), help="folder for dmma.json")
    args = ap.parse_args()

    if not tm.gpu_available():
        print("benchmarks/dmma.py needs a CUDA GPU (cupy.is_available() is False)")
        return 2
    limits = tm.device_limits()
    if not tm.STRATEGIES["dmma"].runs_on():
        print(f"dmma needs an sm_90 GPU; this one is {limits.name} (sm_{limits.compute_capability})")
        return 2
    print(f"GPU: {limits.name} (sm_{limits.compute_capability}, {limits.sm_count} SMs); cupy {cp.__version__}")
    flush = L2Flusher()
    plan = dict(repeat=args.repeat, budget_s=args.budget)
    records, failed = [], 0
    header = (f"{'shape':>16} {'row':<76} {'ms':>9} {'TF/s':>6} {'x cuBLAS':>8} {'regs':>4} {'smem KB':>7} "
              f"{'rel err / cuBLAS':>17}")
    for shape in parse_shapes(args.sizes):
        M, N, K = shape
        n_sets = n_input_sets(8 * (M * K + K * N + M * N), limits.l2_bytes)
        sets = make_inputs(shape, DTYPE, n_sets=n_sets, seed=0)
        rows: list[Row] = [cublas_row(STUDY)]
        rows += [strategy_row(STUDY, "dmma", cfg) for cfg in dmma_configs(args.configs)]
        rows += [strategy_row(STUDY, "warp_tiled", tm.STRATEGIES["warp_tiled"].default), auto_row(STUDY)]
        results = []
        for row in rows:
            v = validate(row, sets)
            rec = time_validated(row, v, sets, flush, **plan)
            err = "" if v.report is None else f"{v.report.rel_err:.1e} / {v.report.cublas_rel_err:.1e}"
            results.append((row, rec, err))
        t_cublas = results[0][1].median_ms if results[0][1].ok else None
        print("\n" + header)
        for row, rec, err in results:
            label = row.label if row.strategy != AUTO else f"auto -> {tm.kernel('auto').resolve(M, N, K, DTYPE).strategy}"
            entry = rec.as_dict()
            entry["rel_err_vs_cublas"] = err
            if not rec.ok:
                failed += rec.status != "ok"
                print(f"{'x'.join(map(str, shape)):>16} {label:<76} {rec.status.upper()}: {rec.message}")
            else:
                ratio = t_cublas / rec.median_ms if t_cublas else float("nan")
                entry["x_cublas"] = ratio
                smem = "" if rec.smem_bytes is None else f"{rec.smem_bytes / 1024:.1f}"
                print(f"{'x'.join(map(str, shape)):>16} {label:<76} {rec.median_ms:9.3f} {rec.tflops:6.2f} "
                      f"{ratio:8.3f} {rec.registers or '':>4} {smem:>7} {err:>17}")
            records.append(entry)
        del sets
        cp.get_default_memory_pool().free_all_blocks()
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "dmma.json")
    with open(path, "w") as f:
        json.dump({"gpu": limits.name, "cupy": cp.__version__, "records": records}, f, indent=1)
    print(f"\nwrote {path}; {failed} rows failed their check")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
