#!/usr/bin/env bash
# Thirteenth session (H100): dmma_split_k's two-row tiles (128 x 64 and 64 x 128 in warps of
# 32 x 64, 2 blocks per SM): their GPU tests (every dmma_split_k test and the layout tests, on
# those configs), then a float64 tune of the three suite shapes they were measured on (tune only).
#   bash scripts/gpu_s13l.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=4 SHARD_TIMEOUT=240 bash scripts/gpu_shards.sh split2 tests/test_gpu_dmma_split_k.py tests/test_gpu_layouts.py \
    -k "wm32_wn64 and (split_k or dmma_split_k)"
RUNS=0 TUNE_TIMEOUT=250 bash scripts/gpu_retune.sh float64 dmma_split_k long_k 128x8192x8192 256x256x131072 64x8192x8192
grep -E "│ [0-9]+x" "$OUT/tune.log" | cut -c1-150
