#!/usr/bin/env bash
# Thirteenth session (H100), after the review's refactors (launch.function_ptr in the elem-kernel,
# epilogue-reduce and tail-reduce launches; configs.split_k_rule): dmma_tail's GPU tests, and the
# dmma / dmma_split_k tests of misaligned operands (elem kernels) and of batches with epilogues.
#   bash scripts/gpu_s13t.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=4 SHARD_TIMEOUT=200 bash scripts/gpu_shards.sh review tests/test_gpu_dmma_tail.py tests/test_gpu_dmma.py \
    tests/test_gpu_dmma_split_k.py -k "dmma_tail or unaligned or batches_and_epilogues or layouts"
