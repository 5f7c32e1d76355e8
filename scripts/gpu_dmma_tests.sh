#!/usr/bin/env bash
# dmma's GPU tests in shards (scripts/gpu_shards.sh): dmma and dmma_split_k on every config, dmma's
# operand layouts, and the float64 gemm/core files. Env: OUT (logs).
#   bash scripts/gpu_dmma_tests.sh
set -u
cd "$(dirname "$0")/.."
NSHARD=8 SHARD_TIMEOUT=200 bash scripts/gpu_shards.sh dmma tests/test_gpu_dmma.py tests/test_gpu_dmma_split_k.py
NSHARD=8 SHARD_TIMEOUT=150 bash scripts/gpu_shards.sh dlayouts tests/test_gpu_layouts.py -k dmma
NSHARD=8 SHARD_TIMEOUT=200 bash scripts/gpu_shards.sh dgemm tests/test_gpu_gemm.py tests/test_gpu_core.py -k "float64 or dmma"
