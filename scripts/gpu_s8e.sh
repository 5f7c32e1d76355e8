#!/usr/bin/env bash
# Eighth session: gpu_s8d.sh's test files again after the fix of epilogue._launch (its import of
# CuPy's driver module), plus the layouts file (every layout x strategy x batch/epilogue).
#   bash scripts/gpu_s8e.sh     -> $OUT/split.log, $OUT/layouts.log
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
NSHARD=8 SHARD_TIMEOUT=200 scripts/gpu_shards.sh split tests/test_gpu_split_reduce.py tests/test_gpu_gemv.py \
    tests/test_gpu_wgmma_split_k.py tests/test_gpu_dmma_split_k.py tests/test_gpu_fast.py tests/test_gpu_replay.py \
    tests/test_robustness_gpu.py tests/test_gpu_gemm.py
echo "== $(( $(date +%s) - T0 )) s"
NSHARD=8 SHARD_TIMEOUT=300 scripts/gpu_shards.sh layouts tests/test_gpu_layouts.py
echo "== $(( $(date +%s) - T0 )) s"
