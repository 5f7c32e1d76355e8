"""Where a split product's time goes (the GEMVs, long K, small cubes): the slices kernel alone, the reduce kernel alone, the whole call.

For each shape and dtype: cuBLAS (cupy.matmul), `auto` (the whole call: slices + reduce), the
auto pick's slices kernel alone into a workspace at the slice count the launch picks and at a few
others, its reduce kernel alone (with the lanes SplitReduce.reduce_lanes picks, and with one lane,
the reduce as it was until the eighth session), and a device-to-device copy of the same bytes.
CUDA events, L2 flushed with the host lead (timing.L2Flusher), medians.

    PYTHONPATH=. python3 scripts/probe_gemv_split.py [--shapes 1x8192x8192,1x4096x16384]
"""

from __future__ import annotations

import argparse

import cupy as cp

import tiled_matmul as tm
from tiled_matmul.device import device_limits
from tiled_matmul.operands import launch_flags
from tiled_matmul.timing import L2Flusher, time_fn


def med_us(fn, flush) -> float:
    return time_fn(lambda i: fn(), repeat=15, warmup=3, flush=flush).median_ms * 1e3


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", default="1x8192x8192,1x4096x16384,8x8192x8192,64x64x65536,256x256x131072,32x1024x32768,1024x32x32768,256x256x256,512x512x512")
    ap.add_argument("--dtypes", default="float32,float64")
    args = ap.parse_args()
    flush = L2Flusher()
    stream = cp.cuda.get_current_stream()
    sms = device_limits(0).sm_count
    print(f"{'shape':>16} {'dtype':>8} {'what':<44} {'us':>8} {'GB/s':>7} {'%copy':>6}")
    for dname in args.dtypes.split(","):
        for shp in args.shapes.split(","):
            M, N, K = (int(x) for x in shp.split("x"))
            a = cp.random.uniform(-1, 1, (M, K)).astype(dname)
            b = cp.random.uniform(-1, 1, (K, N)).astype(dname)
            c = cp.empty((M, N), dtype=dname)
            nbytes = a.nbytes + b.nbytes + c.nbytes
            src, dst = cp.empty(nbytes, cp.uint8), cp.empty(nbytes, cp.uint8)
            t_copy = med_us(lambda: dst.data.copy_from_device_async(src.data, nbytes), flush)
            copy_gbs = 2 * nbytes / t_copy / 1e3

            def row(what, us):
                gbs = nbytes / us / 1e3
                print(f"{shp:>16} {dname:>8} {what:<44} {us:8.1f} {gbs:7.0f} {100 * gbs / copy_gbs:6.1f}", flush=True)

            row("copy (same bytes)", t_copy)
            row("cuBLAS", med_us(lambda: cp.matmul(a, b, out=c), flush))
            mk = tm.kernel("auto").kernel_for(M, N, K, dname)
            row(f"auto {mk.strategy} {mk.config.tag()}"[:44], med_us(lambda: tm.matmul(a, b, out=c), flush))
            cfg = mk.config
            if not hasattr(cfg, "launch_reduce"):
                continue
            ck = mk.compiled(dname)
            if hasattr(cfg, "k_splits"):  # the GEMV rungs: slices chosen at launch
                auto_s = cfg.k_splits(M, N, K, sms, dname)
                counts = sorted({auto_s, 16, 32, 64})
            else:  # split_k / wgmma_split_k / dmma_split_k: the config's own
                auto_s = cfg.grid(M, N)[2]
                counts = [auto_s]
            flags = launch_flags(a.data.ptr, b.data.ptr, c.data.ptr, K, N, c.itemsize)
            for s in counts:
                work = cp.empty((s, M, N), dtype=dname)
                grid = (cfg.output_blocks(M, N) if hasattr(cfg, "output_blocks") else cfg.grid(M, N)[0], 1, s)
                t = med_us(lambda: ck.launcher(grid, a.data.ptr, b.data.ptr, work.data.ptr, M, N, K, flags, stream.ptr), flush)
                row(f"  slices kernel alone, {s} slices{' (auto)' if s == auto_s else ''}", t)
                items = M * N // (16 // c.itemsize) if flags & 2 else M * N
                lanes = cfg.reduce_lanes(items, s, sms)
                t = med_us(lambda: cfg.launch_reduce(ck, work.data.ptr, c, M, N, flags, stream, s), flush)
                row(f"  reduce alone, {s} slices, {lanes} lanes", t)
                old = cfg.REDUCE_LANE_BLOCKS
                try:
                    type(cfg).REDUCE_LANE_BLOCKS = 0  # one lane: the reduce before lanes
                    t = med_us(lambda: cfg.launch_reduce(ck, work.data.ptr, c, M, N, flags, stream, s), flush)
                finally:
                    type(cfg).REDUCE_LANE_BLOCKS = old
                row(f"  reduce alone, {s} slices, 1 lane", t)
                t = med_us(lambda: cfg.launch_slices(ck, grid, a, b, c, M, N, K, flags, stream), flush)
                row(f"  slices + reduce, {s} slices", t)


if __name__ == "__main__":
    main()
