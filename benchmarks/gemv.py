"""The GEMV rungs against cuBLAS and against a device-to-device copy of the bytes they read.

    PYTHONPATH=. python3 benchmarks/gemv.py [--sizes 1x8192x8192,8192x1x8192] [--dtype float32]
                                            [--configs default|all] [--repeat 20] [--out DIR]

For each skinny shape (M x N x K), in one run: every config of the rung that fits it (gemv_xb when
M <= N, gemv_ax otherwise; --configs all adds the other rung's), `auto`, and cuBLAS
(`cupy.matmul`, FP32 with TF32 off), each validated against a float64 reference (NaN-poisoned
output) before it is timed, through tiled_matmul.measure: CUDA events, L2 flushed before every
repeat, medians. Beside them, `copy`: cupy's device-to-device copy (cudaMemcpyAsync) of as many
bytes as the product reads, (M·K + K·N)·itemsize, timed the same way.

Columns: `GB/s` is bytes moved per second: reads + the output write for a product ((M·K + K·N +
M·N)·itemsize), reads + writes for the copy (2 x its bytes), so `% copy` is the share of the
copy's achieved bandwidth a kernel reaches (the H100 copies at ~3 TB/s); `x cuBLAS` is cuBLAS's
time over the row's; `S` is the number of K slices the launch picks for this GPU (1: no split). A
row that fails its check (or cannot run) is reported, never timed, and makes the exit status 1. Full records go
to DIR/gemv.json with --out.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

os.environ.setdefault("CUPY_TF32", "0")

import cupy as cp  # noqa: E402

import tiled_matmul as tm  # noqa: E402
from tiled_matmul.device import device_limits  # noqa: E402
from tiled_matmul.measure import (L2Flusher, auto_row, cublas_row, make_inputs, measure, parse_shapes,  # noqa: E402
                                  shape_label, strategy_row, time_fn)

STUDY = "gemv"
DEFAULT_SIZES = ("1x8192x8192,8192x1x8192,1x4096x14336,14336x1x4096,2x8192x8192,4x8192x8192,"
                 "8x8192x8192,8192x4x8192,8192x8x8192,1x65536x4096,1x8192x1000")


def rungs_for(shape, which):
    M, N, _ = shape
    first = "gemv_xb" if M <= N else "gemv_ax"
    return [first] if which == "default" else [first, "gemv_ax" if first == "gemv_xb" else "gemv_xb"]


def copy_ms(nbytes, flush, repeat):
    """Median ms of one device-to-device copy of `nbytes` (cudaMemcpyAsync on the current stream)."""
    src = cp.empty(nbytes // 4 + 1, cp.float32)
    dst = cp.empty_like(src)
    src.fill(1.0)
    stream = cp.cuda.get_current_stream()

    def copy(i):
        cp.cuda.runtime.memcpyAsync(dst.data.ptr, src.data.ptr, nbytes, cp.cuda.runtime.memcpyDeviceToDevice,
                                    stream.ptr)

    return time_fn(copy, repeat=repeat, warmup=3, flush=flush).median_ms


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default=DEFAULT_SIZES, help="comma-separated MxNxK")
    ap.add_argument("--dtype", default="float32", choices=["float32", "float64"])
    ap.add_argument("--configs", default="default", choices=["default", "all"],
                    help="default: every config of the rung that fits each shape; all: both rungs")
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--out", default=None, help="folder for gemv.json")
    args = ap.parse_args()
    assert os.environ["CUPY_TF32"] == "0"
    plan = dict(repeat=args.repeat, budget_s=float("inf"))
    flush = L2Flusher()
    limits = device_limits()
    isz = cp.dtype(args.dtype).itemsize
    print(f"GPU: {limits.name} ({limits.sm_count} SMs); cupy {cp.__version__}; {args.dtype}; "
          f"L2 flushed before every repeat; medians of {args.repeat}")
    header = f"{'shape':>16} {'row':>10} {'config':<44} {'S':>3} {'ms':>9} {'GB/s':>7} {'% copy':>7} {'x cuBLAS':>8}"
    print(header)
    records, failed = [], 0
    for shape in parse_shapes(args.sizes):
        M, N, K = shape
        reads = (M * K + K * N) * isz
        moved = reads + M * N * isz
        sets = make_inputs(shape, args.dtype, seed=0)
        t_copy = copy_ms(reads, flush, args.repeat)
        copy_gbs = 2 * reads / (t_copy * 1e-3) / 1e9
        rows = [cublas_row(STUDY), auto_row(STUDY)]
        rows += [strategy_row(STUDY, n, c) for n in rungs_for(shape, args.configs) for c in tm.STRATEGIES[n].configs]
        recs = [measure(r, sets, flush, **plan) for r in rows]
        cublas = recs[0]
        label = shape_label(shape)
        print(f"{label:>16} {'copy':>10} {f'{reads / 2**20:.1f} MiB read + written':<44} {'':>3} {t_copy:9.4f} "
              f"{copy_gbs:7.0f} {100.0:7.1f} {'':>8}")
        records.append(dict(shape=list(shape), dtype=args.dtype, row="copy", bytes=reads, median_ms=t_copy,
                            gbs=copy_gbs))
        for row, rec in zip(rows, recs):
            splits = ""
            if row.config is not None and hasattr(row.config, "k_splits"):
                splits = str(row.config.k_splits(M, N, K, limits.sm_count, args.dtype))
            name = rec.strategy if rec.strategy != "cuBLAS" else "cuBLAS"
            if not rec.ok:
                failed += 1
                print(f"{label:>16} {name:>10} {rec.config:<44} {splits:>3} {rec.status.upper()}: {rec.message}")
                continue
            gbs = moved / (rec.median_ms * 1e-3) / 1e9
            vs = cublas.median_ms / rec.median_ms if cublas.ok else float("nan")
            print(f"{label:>16} {name:>10} {rec.config:<44} {splits:>3} {rec.median_ms:9.4f} {gbs:7.0f} "
                  f"{100 * gbs / copy_gbs:7.1f} {vs:8.2f}")
            records.append(dict(rec.as_dict(), row=name, splits=splits, gbs=gbs, pct_copy=100 * gbs / copy_gbs,
                                vs_cublas=vs))
        del sets
        cp.get_default_memory_pool().free_all_blocks()
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "gemv.json"), "w") as fh:
            json.dump(dict(device=limits.name, sms=limits.sm_count, dtype=args.dtype, records=records), fh, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
