"""In-process A/B of two renderings of a float64 dmma config: HEAD's template (the tree copied
into _old/) against the working tree's, each compiled by NVRTC as tm compiles it and launched
with the same grid, block, shared memory and operands, alternating in rounds with cuBLAS (CUDA
events after warm-up, L2 flushed, median of 9 a round). Outputs are checked against each other
(bit-equal) and against cuBLAS (per-element error).

    PYTHONPATH=. python3 scripts/variants_s21/ab_dmma_src.py [ROUNDS]
"""
from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys

import cupy

import tiled_matmul as tm
from tiled_matmul.compile import _arch_kernel
from tiled_matmul.strategies.dmma import DmmaConfig
from tiled_matmul.timing import L2Flusher, time_fn

CASES = [
    (dict(), [(2048, 2048, 2048), (4096, 4096, 4096), (3000, 5000, 1000)]),
    (dict(bm=128, bn=64, wm=64, wn=32, min_blocks=2), [(4096, 4096, 4096), (4992, 3008, 1008), (5000, 3000, 1000)]),
    (dict(bm=128, bn=64, wm=64, wn=32, min_blocks=2, group_m=1), [(8192, 8192, 128), (8000, 8000, 128)]),
]


def render(tree: str, kw: dict) -> str:
    code = f"import tiled_matmul as tm; print(tm.source('dmma', 'float64', **{kw!r}), end='')"
    # run inside `tree`: `python -c` puts the working directory first on sys.path
    env = {**os.environ, "PYTHONPATH": "."}
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=tree, capture_output=True, text=True,
                          check=True).stdout


def kernel(src: str, cfg: DmmaConfig):
    name = re.search(r'__launch_bounds__\([^)]*\)\s*\n?\s*(tm_\w+)\(', src).group(1)
    fn = _arch_kernel(src, name, "sm_90", "dmma", cfg, "float64")
    smem = cfg.smem_bytes("float64")
    fn.max_dynamic_shared_size_bytes = smem
    return fn, smem


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    flush = L2Flusher()
    rng = cupy.random.default_rng(5)
    for kw, shapes in CASES:
        cfg = DmmaConfig(**kw)
        old_src, new_src = render("_old", kw), render(".", kw)
        if old_src == new_src:
            print(f"{kw}: sources identical")
        kern = {"old": kernel(old_src, cfg), "new": kernel(new_src, cfg)}
        for M, N, K in shapes:
            a = rng.standard_normal((M, K))
            b = rng.standard_normal((K, N))
            ref = cupy.matmul(a, b)
            grid = cfg.grid(M, N)
            outs = {}

            def run(which, c):
                fn, smem = kern[which]
                fn(grid, cfg.block(), (a, b, c, cupy.int32(M), cupy.int32(N), cupy.int32(K), cupy.int32(3)),
                   shared_mem=smem)

            for which in kern:
                c = cupy.full((M, N), cupy.nan)
                run(which, c)
                outs[which] = c
            same = bool(cupy.array_equal(outs["old"], outs["new"]))
            err = float(cupy.max(cupy.abs(outs["new"] - ref) / (cupy.abs(a) @ cupy.abs(b))))
            fns = {"cublas": lambda: cupy.matmul(a, b)}
            for which in kern:
                fns[which] = (lambda which=which, c=outs[which]: run(which, c))
            res = {k: [] for k in fns}
            for _ in range(rounds):
                for k, f in fns.items():
                    res[k].append(time_fn(lambda i, f=f: f(), repeat=9, warmup=2, flush=flush).median_ms)
            med = {k: statistics.median(v) for k, v in res.items()}
            wins = sum(n < o for n, o in zip(res["new"], res["old"]))
            print(f"{str(kw):55s} {M}x{N}x{K}: bit-equal {same}, err/elem vs cuBLAS {err:.1e}; cuBLAS {med['cublas'] * 1e3:8.1f} us"
                  f"  old {med['cublas'] / med['old']:.3f}  new {med['cublas'] / med['new']:.3f}"
                  f"  new/old time {med['new'] / med['old']:.3f} (new faster in {wins}/{rounds} rounds)", flush=True)


if __name__ == "__main__":
    main()
