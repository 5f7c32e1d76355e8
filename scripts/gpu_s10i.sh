#!/usr/bin/env bash
# Tenth session (H100): dmma_split_k's 64 x 64 x 16 tiles in 8 warps (replacing the 4-warp ones):
# the float64 long-K and decode shapes retuned with dmma and dmma_split_k, judged by the suite's
# long-K and GEMV classes against the shipped database, twice each (scripts/gpu_retune.sh); the
# dmma_split_k GPU tests (every config).
#   bash scripts/gpu_s10i.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
bash scripts/gpu_retune.sh float64 dmma,dmma_split_k "long K;gemv" 256x256x131072 128x8192x8192 64x8192x8192
grep -E "│" "$OUT/tune.log" | grep -E "x[0-9]+ " | cut -c1-200 | head -20
NSHARD=8 SHARD_TIMEOUT=200 bash scripts/gpu_shards.sh dsk tests/test_gpu_dmma_split_k.py
echo "== $(( $(date +%s) - T0 )) s"
