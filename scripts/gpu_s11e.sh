#!/usr/bin/env bash
# Eleventh session (H100): dmma_split_k's 128 x 64 x 16 configs (split 2 and 4). Its GPU tests
# (every config of the search space), then a retune of float64 128x8192x8192 with dmma and
# dmma_split_k judged by the suite's compute-bound class (scripts/gpu_retune.sh, one run each).
#   bash scripts/gpu_s11e.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
NSHARD=8 SHARD_TIMEOUT=200 bash scripts/gpu_shards.sh dsplit tests/test_gpu_dmma_split_k.py
echo "== tests $(( $(date +%s) - T0 )) s"
RUNS=1 bash scripts/gpu_retune.sh float64 dmma,dmma_split_k compute 128x8192x8192
grep -E "128x8192x8192|best|pick" "$OUT/tune.log" | head -8
