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

    import tiled_matmul as tm
    from tiled_matmul import measure

    k = tm.kernel("wgmma_tma_tf32")
    print("| K | data | ours | cuBLAS FP32 | ratio |")
    print("|---:|---|---:|---:|---:|")
    for K in (int(x) for x in args.ks.split(",")):
        for data in ("uniform[-1,1]", "uniform[0,1]", "cancellation"):
            for seed in (7, 8):
                e, e_cub = measure.errors_beside_cublas_fp32(k, data, args.n, args.n, K, seed=seed)
                print(f"| {K} | {data} seed {seed} | {e:.3g} | {e_cub:.3g} | {e / e_cub:.2f} |", flush=True)


if __name__ == "__main__":
    main()
