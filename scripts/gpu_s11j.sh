#!/usr/bin/env bash
# Eleventh session (H100): with the tuner timing the cost model's first picks too (tuner.candidates),
# the retune of gpu_s11i.sh again (256x256x131072, 1024^3, 768^3, 640^3 and 5000x3000x1000, dmma
# and dmma_split_k), judged by the suite in alternating rounds; then the tuner's GPU tests.
#   bash scripts/gpu_s11j.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
RUNS=1 bash scripts/gpu_retune.sh float64 dmma,dmma_split_k "small;compute;long K" 256x256x131072 1024 768 640 \
    5000x3000x1000
grep -E "x[0-9]+ *│" "$OUT/tune.log" | head -12
NSHARD=4 SHARD_TIMEOUT=300 bash scripts/gpu_shards.sh tune tests/test_gpu_tune.py
