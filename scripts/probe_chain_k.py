"""Per-element error of one wgmma_tma_tf32 (tf32x3) chain against cuBLAS FP32 at long K.

    PYTHONPATH=. python3 scripts/probe_chain_k.py [--ks 8192,16384,32768] [--n 1536]

For each K and each normal-range dataset of tiled_matmul.numerics: max |C - AB| / (|A||B|) of the
TMA rung named (one chain of K/32 step partials per output) and of cuBLAS FP32 on the same n x n x K
operands, against an exact float64 reference; the ratio is what heuristic.AUTO_CHAIN_K bounds
(auto promises 2x cuBLAS FP32 per element).
"""

from __future__ import annotations

import argparse


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ks", default="8192,16384,32768")
    p.add_argument("--n", type=int, default=1536)
    args = p.parse_args()

    import cupy as cp

    import tiled_matmul as tm
    from tiled_matmul import numerics
    from tiled_matmul.measure import cublas_compute_type

    k = tm.kernel("wgmma_tma_tf32")
    print("| K | data | ours | cuBLAS FP32 | ratio |")
    print("|---:|---|---:|---:|---:|")
    for K in (int(x) for x in args.ks.split(",")):
        for data in ("uniform[-1,1]", "uniform[0,1]", "cancellation"):
            for seed in (7, 8):
                a, b = (cp.asarray(x) for x in numerics.make(data, args.n, args.n, K, seed=seed))
                a64, b64 = numerics.exact64(a), numerics.exact64(b)
                ref, den = a64 @ b64, cp.abs(a64) @ cp.abs(b64)
                del a64, b64
                out = k(a, b)
                with cublas_compute_type("fp32"):
                    cub = cp.matmul(a, b)
                e = numerics.componentwise_error(out, a, b, ref, den)
                e_cub = numerics.componentwise_error(cub, a, b, ref, den)
                print(f"| {K} | {data} seed {seed} | {e:.3g} | {e_cub:.3g} | {e / e_cub:.2f} |", flush=True)
                del a, b, ref, den, out, cub
                cp.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
