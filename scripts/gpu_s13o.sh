#!/usr/bin/env bash
# Thirteenth session (H100): after dmma's default moved to the two-row 128 x 128 tile, the dmma,
# dmma_tail, core (float64) and suite GPU test files again.
#   bash scripts/gpu_s13o.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=8 SHARD_TIMEOUT=200 bash scripts/gpu_shards.sh dmma tests/test_gpu_dmma.py tests/test_gpu_dmma_tail.py tests/test_gpu_suite.py
NSHARD=8 SHARD_TIMEOUT=200 bash scripts/gpu_shards.sh dcore tests/test_gpu_core.py tests/test_gpu_gemm.py -k "float64 or dmma"
