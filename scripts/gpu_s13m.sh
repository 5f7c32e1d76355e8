#!/usr/bin/env bash
# Thirteenth session (H100), the final code's GPU checks: dmma, dmma_split_k (with its two-row
# tiles) and dmma_tail, dmma's layouts, the float64 gemm/core files (gpu_dmma_tests.sh), and the
# suite test file (auto correct on every suite shape, both dtypes, with the new entries).
#   bash scripts/gpu_s13m.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
bash scripts/gpu_dmma_tests.sh
NSHARD=4 SHARD_TIMEOUT=150 bash scripts/gpu_shards.sh tailsuite tests/test_gpu_dmma_tail.py tests/test_gpu_suite.py
echo "== $(( $(date +%s) - T0 )) s"
