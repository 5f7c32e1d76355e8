#!/usr/bin/env bash
# Eleventh session (H100): the rows still under cuBLAS or close to it, retuned with the model's picks
# among the tuner's candidates: float32 1x4096x16384 and 1024x32x32768 (gemv_xb, wgmma_split_k,
# split_k), float64 64x8192x8192 (dmma, dmma_split_k); each judged by its suite classes in
# alternating rounds (scripts/gpu_retune.sh, one run).
#   bash scripts/gpu_s11k.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
OUT=$OUT/f32 RUNS=1 bash scripts/gpu_retune.sh float32 gemv_xb,wgmma_split_k,split_k "gemv;long K" 1x4096x16384 \
    1024x32x32768
OUT=$OUT/f64 RUNS=1 bash scripts/gpu_retune.sh float64 dmma,dmma_split_k "gemv" 64x8192x8192
