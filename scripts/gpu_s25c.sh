#!/bin/bash
# twenty-fifth session: the shipped database's float32 entries for two suite shapes that
# heuristic._skinny_chunks would send to gemv_xb_tma (32x4096x4096, 32x1024x32768) were tuned
# among wgmma_split_k's configs; retune them with gemv_xb_tma's 16-row chunks in the space and run
# the two suite classes with the shipped and the retuned database, twice each.
#   bash scripts/gpu_s25c.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
RUNS=2 TUNE_TIMEOUT=300 bash scripts/gpu_retune.sh float32 wgmma_split_k,gemv_xb_tma "gemv;long" 32x4096x4096 32x1024x32768
grep -E "32x4096x4096|32x1024x32768|32 x|best" "$OUT/tune.log" | head -20
