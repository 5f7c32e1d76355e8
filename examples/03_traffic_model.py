"""Example 3: the traffic model (no GPU needed).

Why tiling works, in numbers. ``tm.explain`` counts the bytes a config reads from global memory:

* naive:   every output reads its row of A and its column of B:  M·N·2K elements;
* tiled:   every block of the (padded) grid reads a bm×tk tile of A and a tk×bn tile of B per step
           along K: ⌈M/bm⌉·⌈N/bn⌉·⌈K/tk⌉·(bm·tk + tk·bn) elements; for square tiles T that is
           ⌈M/T⌉·⌈N/T⌉·⌈K/T⌉·2T², so the reduction naive/tiled is T when T divides M, N and K;
* minimum: each input read once: M·K + K·N elements.

Then the tile-size table of the seeds (threads, shared memory, reuse) with the limits that decide
how many blocks share an SM (threads, shared memory, registers, block slots) and so the occupancy.
Without a GPU the device limits are the H100 stand-in, and registers come from ``ptxas`` if nvcc is
on PATH (otherwise the register limit is left out).

    python examples/03_traffic_model.py                       # 1024^3, tile 32
    python examples/03_traffic_model.py --shape 1000x700x300 --tile 16
"""

from __future__ import annotations

import argparse
import math

import tiled_matmul as tm
from _common import label, shape


def gb(nbytes: float) -> str:
    return f"{nbytes / 1e9:10.3f} GB"


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shape", type=shape, default=(1024, 1024, 1024), help="N or MxNxK (default 1024)")
    p.add_argument("--tile", type=int, default=32, help="square tile edge T for smem_tiled (default 32)")
    p.add_argument("--dtype", default="float32", choices=["float32", "float64"])
    args = p.parse_args(argv)
    M, N, K = args.shape
    T = args.tile

    # --- 1. naive vs tiled vs the minimum ------------------------------------------------------
    naive = tm.explain("naive", (M, N, K), dtype=args.dtype, measure=False)
    tiled = tm.explain("smem_tiled", (M, N, K), dtype=args.dtype, measure=False, tile=T)
    print(f"Global-memory reads of A and B for {label(M, N, K)} {args.dtype} (smem_tiled, tile={T}):")
    print(f"  naive   (M·N·2K elements)               {gb(naive['naive_bytes'])}")
    print(f"  tiled   (⌈M/T⌉⌈N/T⌉⌈K/T⌉·2T² elements)  {gb(tiled['tiled_bytes'])}")
    print(f"  minimum ((M·K + K·N) elements)          {gb(tiled['min_bytes'])}")
    print(f"  writing C (M·N elements, every strategy) {gb(tiled['output_bytes'])}")

    # The same reduction from the formula, by hand: the two must agree.
    formula = (2 * M * N * K) / (math.ceil(M / T) * math.ceil(N / T) * math.ceil(K / T) * 2 * T * T)
    print(f"\nreduction factor (naive / tiled) = {tiled['reduction']:.6f}")
    print(f"formula 2MNK / (⌈M/T⌉⌈N/T⌉⌈K/T⌉·2T²) = {formula:.6f}   (= T = {T} when T divides M, N and K)")
    print(f"tiled traffic / minimum          = {tiled['traffic_over_min']:.2f}x  "
          f"(each element of A is still read ⌈N/T⌉ times, each of B ⌈M/T⌉ times)")
    print(f"arithmetic intensity             = {naive['intensity']:.3f} FLOP/B naive, "
          f"{tiled['intensity']:.3f} tiled, {tiled['intensity_min']:.1f} at the minimum")

    # --- 2. the tile-size table: reuse against occupancy -------------------------------------
    limits = tm.device_limits()
    print(f"\nTile sizes on {limits.name}: {limits.max_threads_per_sm} threads, "
          f"{limits.smem_per_sm // 1024} KB shared memory, {limits.regs_per_sm} registers "
          f"and {limits.max_blocks_per_sm} block slots per SM")
    head = (f"{'config':<52} {'threads':>7} {'smem KB':>7} {'reuse':>6} {'regs':>5} "
            f"{'by thr':>6} {'by smem':>7} {'by regs':>7} {'blocks':>6} {'occupancy':>9}  limited by")
    print(head)
    print("-" * len(head))
    configs = [("smem_tiled", dict(tile=t)) for t in (8, 16, 32)]
    configs += [("rect_tiled", dict(tile_m=32, tile_n=16, tile_k=16, coarsen=1)),
                ("rect_tiled", dict(tile_m=32, tile_n=64, tile_k=16, coarsen=4))]
    for strategy, params in configs:
        m = tm.explain(strategy, (M, N, K), dtype=args.dtype, measure=False, **params)
        name = f"{strategy} " + " ".join(f"{k}={v}" for k, v in params.items())
        regs = "?" if m["registers"] is None else m["registers"]
        by_regs = "–" if m["blocks_per_sm_regs"] is None else m["blocks_per_sm_regs"]
        print(f"{name:<52} {m['threads_per_block']:>7} {m['smem_bytes'] / 1024:>7.1f} {m['reuse_factor']:>6.1f} "
              f"{regs:>5} {m['blocks_per_sm_threads']:>6} {m['blocks_per_sm_smem']:>7} {by_regs:>7} "
              f"{m['blocks_per_sm']:>6} {m['occupancy']:>9.2f}  {m['occupancy_limiter']}")
    print(f"\n(registers per thread: {tiled['registers_source']})")
    print("Bigger tiles read less, but need more threads and shared memory per block: past a point")
    print("fewer blocks fit an SM. 'blocks' is the smallest of the limits; occupancy = resident warps / max warps.")


if __name__ == "__main__":
    main()
