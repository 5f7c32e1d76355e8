#!/usr/bin/env bash
# Tenth session, fifth step (H100): dmma's two new tiles (32 x 64 x 16 at 4 blocks per SM; 64 x 64 x
# 16 in 8 warps) in the search space: a retune of the 768 bucket (float64 640^3 and 768^3 share it)
# with dmma and dmma_split_k, judged by the suite's small class against the shipped database,
# twice each (scripts/gpu_retune.sh); dmma's GPU tests (every config).
#   bash scripts/gpu_s10e.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
bash scripts/gpu_retune.sh float64 dmma,dmma_split_k small 768x768x768
NSHARD=8 SHARD_TIMEOUT=240 bash scripts/gpu_shards.sh dmma tests/test_gpu_dmma.py
echo "== $(( $(date +%s) - T0 )) s"
