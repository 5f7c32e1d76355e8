#!/usr/bin/env bash
# Eighth session: cuBLAS runs the float64 decode shapes on small-tile GEMM kernels, not GEMV
# (probe_cublas_kernels.py), and dmma's 32x32 tiles or dmma_split_k's 32x64 ones beat our GEMV
# picks there by ~3% (probe_dmma_configs.py --skinny). Tuned with both kinds; the suite's GEMV class
# twice with each database (scripts/gpu_retune.sh).
#   bash scripts/gpu_s8m.sh
set -u
cd "$(dirname "$0")/.."
scripts/gpu_retune.sh float64 gemv_xb,gemv_ax,dmma,dmma_split_k gemv 2x8192x8192 8x8192x8192 8192x8x8192
