"""Example 1: your first matmul with a hand-written kernel.

numpy arrays go in and a numpy array comes out (the library copies them to the GPU and back).
The result is compared with cuBLAS (``cupy.matmul``) and with a float64 reference, and the CUDA
source of the kernel that ran is printed: what you see is exactly what NVRTC compiled.

    python examples/01_first_matmul.py                          # smem_tiled, tile=16, 300x200x100
    python examples/01_first_matmul.py --shape 1024 --set tile=32
    python examples/01_first_matmul.py --strategy rect_tiled --set tile_m=32 --set tile_n=64

Without a GPU only the source is printed (rendering needs no GPU); the run is skipped, saying why.
"""

from __future__ import annotations

import argparse

import numpy as np

import tiled_matmul as tm
from _common import have_gpu, label, random_inputs, shape


def param(text: str) -> tuple[str, int]:
    name, _, value = text.partition("=")
    return name.strip(), int(value)


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shape", type=shape, default=(300, 200, 100), help="N or MxNxK (default 300x200x100)")
    p.add_argument("--strategy", default="smem_tiled", choices=sorted(tm.STRATEGIES))
    p.add_argument("--set", dest="params", type=param, action="append", default=[], metavar="NAME=INT",
                   help="a tile parameter (repeatable); default: tile=16 for smem_tiled")
    p.add_argument("--dtype", default="float32", choices=["float32", "float64"])
    args = p.parse_args(argv)
    params = dict(args.params) or ({"tile": 16} if args.strategy == "smem_tiled" else {})
    M, N, K = args.shape

    # 1. The kernel: a strategy (a rung of the ladder) plus its tile parameters. Rendering the
    #    template needs no GPU; an invalid config raises ValueError naming the broken rule.
    try:
        src = tm.source(args.strategy, args.dtype, **params)
    except (TypeError, ValueError) as exc:
        p.error(str(exc))
    print(f"strategy {args.strategy} with {params or 'its default config'}, {args.dtype}, shape {label(M, N, K)}")
    print(f"launch grid for a {M}x{N} output: {tm.launch_grid(args.strategy, M, N, **params)} blocks")

    # 2. numpy in, numpy out.
    if have_gpu("running the kernel and comparing with cuBLAS"):
        import cupy

        a, b = random_inputs(M, N, K, args.dtype)
        c = tm.matmul(a, b, strategy=args.strategy, **params)
        print(f"result: {type(c).__module__}.{type(c).__name__} {c.shape} {c.dtype}")

        # 3. Compare with cuBLAS on the same inputs, and with float64 (tm.check does both).
        cublas = cupy.matmul(cupy.asarray(a), cupy.asarray(b)).get()
        print(f"max |C - cuBLAS|          = {np.abs(c - cublas).max():.3e}")
        report = tm.check(c, a, b)
        print(f"relative error vs float64 = {report.rel_err:.3e}  (cuBLAS: {report.cublas_rel_err:.3e}, "
              f"tolerance {report.tol:.3e})")
        print("check:", "PASSED" if report.passed else "FAILED")

    # 4. The CUDA C that was compiled for this strategy, config and dtype.
    print("\n--- rendered source " + "-" * 60)
    print(src)


if __name__ == "__main__":
    main()
