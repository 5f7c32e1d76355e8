#!/usr/bin/env bash
# Eighth session: the float64 small cubes with dmma's two unsplit small-tile configs (32 x 32 x 32
# in 5 stages, 64 x 64 x 16 in 4), tuned with dmma and dmma_split_k; the suite's small class twice
# with each database (scripts/gpu_retune.sh); the GPU tests of dmma (every config).
#   bash scripts/gpu_s8i.sh
set -u
cd "$(dirname "$0")/.."
scripts/gpu_retune.sh float64 dmma,dmma_split_k small 256 384 512 640 768
NSHARD=8 SHARD_TIMEOUT=200 scripts/gpu_shards.sh dmma tests/test_gpu_dmma.py
