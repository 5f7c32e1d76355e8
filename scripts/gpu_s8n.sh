#!/usr/bin/env bash
# Eighth session: dmma_split_k's 32 x 32 x 32 tiles (4 and 8 slices) in its search space; the
# float64 long-K shapes tuned with dmma and dmma_split_k, the suite's long-K class twice with each
# database (scripts/gpu_retune.sh), and the dmma_split_k GPU tests.
#   bash scripts/gpu_s8n.sh
set -u
cd "$(dirname "$0")/.."
scripts/gpu_retune.sh float64 dmma,dmma_split_k "long K" 1024x32x32768 32x1024x32768
NSHARD=8 SHARD_TIMEOUT=200 scripts/gpu_shards.sh dsk tests/test_gpu_dmma_split_k.py
