#!/usr/bin/env bash
# Fourteenth session (H100): mma_half_split_k's GPU tests, the half tests auto's picks touch, the
# split-reduce tests (the reduce macro's wide mode), then mma_half_split_k against the old picks
# and cuBLAS, and the random sweep of the half dtypes again (seed 14, as gpu_s14a.sh).
#   bash scripts/gpu_s14b.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=4 SHARD_TIMEOUT=240 bash scripts/gpu_shards.sh half_split tests/test_gpu_mma_half_split_k.py \
    tests/test_gpu_half.py tests/test_gpu_split_reduce.py
timeout 200 python3 scripts/variants_s14/probe_half_split.py float16,bfloat16 > "$OUT/probe_half_split.txt" 2>&1
timeout 150 python3 benchmarks/random_shapes.py --count 24 --lo 1 --dtypes float16,bfloat16 --out "$OUT" > "$OUT/random_lo1.log" 2>&1
timeout 150 python3 benchmarks/random_shapes.py --count 24 --lo 256 --dtypes float16,bfloat16 --out "$OUT" > "$OUT/random_lo256.log" 2>&1
grep -E "geometric" "$OUT"/probe_half_split.txt "$OUT"/random_shapes_lo*.md
