"""Example 2: swap tile sizes at run time and time each against cuBLAS.

The seeds' tile-size table, filled in on your GPU: the same shared-memory kernel (``smem_tiled``)
at tile 8, 16 and 32, and rectangular tiles (``rect_tiled``), each timed against cuBLAS. Beside
each time stands what the traffic model of ``tm.explain`` predicts:

* ``reduce``   naive global reads / this config's reads (the tile's reuse: TILE for square tiles);
* ``MB read``  global-memory reads of A and B for the whole product;
* ``model ms`` the time those reads (plus writing C) take at the GPU's measured bandwidth, or the
  FP32 compute bound if that is longer: a lower bound, since it assumes every byte comes from
  DRAM at full speed and every FMA unit is busy.

Tile sizes are plain keyword arguments: ``tm.kernel("smem_tiled", tile=8)`` renders and compiles
the template for TILE=8 on first use; nothing is recompiled for the next call.

    python examples/02_swap_tiles.py                     # 1024^3, 20 timed repeats
    python examples/02_swap_tiles.py --shape 2048 --repeat 50
"""

from __future__ import annotations

import argparse

import tiled_matmul as tm
from _common import device_operands, have_gpu, label, median_ms, shape, tflops

#: (strategy, tile params, what it shows)
CONFIGS = [
    ("smem_tiled", dict(tile=8), "square 8x8: 64 threads, each element reused 8 times"),
    ("smem_tiled", dict(tile=16), "square 16x16: reuse 16"),
    ("smem_tiled", dict(tile=32), "square 32x32: 1024 threads, the most a block may have"),
    ("rect_tiled", dict(tile_m=32, tile_n=16, tile_k=16, coarsen=1), "the seed's 32x16 output tile, K step 16"),
    ("rect_tiled", dict(tile_m=16, tile_n=32, tile_k=16, coarsen=2), "B tile twice as wide: 2 outputs a thread"),
    ("rect_tiled", dict(tile_m=32, tile_n=64, tile_k=16, coarsen=4), "32x64 tile, 4 outputs a thread (default)"),
]


def cell(v, width: int, fmt: str = ".4f") -> str:
    return format("–" if v is None else format(v, fmt), f">{width}")


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shape", type=shape, default=(1024, 1024, 1024), help="N or MxNxK (default 1024)")
    p.add_argument("--repeat", type=int, default=20, help="timed calls per row (default 20)")
    p.add_argument("--warmup", type=int, default=3, help="untimed calls first (default 3)")
    args = p.parse_args(argv)
    M, N, K = args.shape
    gpu = have_gpu("timing the kernels (the traffic model below needs no GPU)")

    if gpu:
        import cupy

        a, b, c = device_operands(M, N, K)
        # cuBLAS in plain FP32 (CuPy uses TF32 only when CUPY_TF32=1 is set).
        cublas_ms = median_ms(lambda: cupy.matmul(a, b, out=c), args.repeat, args.warmup)
        print(f"cuBLAS (cupy.matmul, FP32): {cublas_ms:.4f} ms, {tflops(M, N, K, cublas_ms):.2f} TFLOP/s")

    rows = []
    for strategy, params, what in CONFIGS:
        # The model: registers from the compiled kernel with a GPU (ptxas without one); the
        # measurement below is our own, so explain need not time the kernel again.
        m = tm.explain(strategy, (M, N, K), measure=False, **params)
        ms = None
        if gpu:
            k = tm.kernel(strategy, **params)
            k(a, b, out=c)
            report = tm.check(c, a, b)  # never time a wrong answer
            if report.passed:
                ms = median_ms(lambda: k(a, b, out=c), args.repeat, args.warmup)
            else:
                print(f"{strategy} {params}: FAILED the check ({report.rel_err:.2e} > {report.tol:.2e}); not timed")
        rows.append((strategy, params, what, m, ms))

    print(f"\n{label(M, N, K)} float32 on {tm.device_limits().name}; times: median of {args.repeat} "
          f"CUDA-event timings after {args.warmup} warm-up calls")
    head = (f"{'strategy':<11} {'tile params':<40} {'thr':>5} {'smem KB':>7} {'occ':>5} {'reduce':>7} "
            f"{'MB read':>9} {'model ms':>9} {'time ms':>9} {'TFLOP/s':>8} {'%cuBLAS':>8}")
    print(head)
    print("-" * len(head))
    for strategy, params, what, m, ms in rows:
        cfg = " ".join(f"{k}={v}" for k, v in params.items())
        pct = 100.0 * cublas_ms / ms if ms else None
        print(f"{strategy:<11} {cfg:<40} {m['threads_per_block']:>5} {m['smem_bytes'] / 1024:>7.1f} "
              f"{m['occupancy']:>5.2f} {m['reduction']:>7.1f} {m['tiled_bytes'] / 1e6:>9.1f} "
              f"{cell(m['roofline_tiled_ms'], 9)} {cell(ms, 9)} "
              f"{cell(ms and tflops(M, N, K, ms), 8, '.2f')} {cell(pct, 8, '.1f')}")
    print("\nwhat each row shows:")
    for strategy, params, what, m, ms in rows:
        print(f"  {strategy} {' '.join(f'{k}={v}' for k, v in params.items())}: {what}")
    if not gpu:
        print("\n'model ms' needs the GPU's measured bandwidth and the times need the GPU: both show '–' here.")
    else:
        print("\nRead it as: more reuse means fewer MB read, but a time far above 'model ms' means the")
        print("kernel is not limited by global traffic any more (shared-memory bandwidth, latency, occupancy).")


if __name__ == "__main__":
    main()
