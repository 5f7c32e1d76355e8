#!/usr/bin/env bash
# Fourteenth session (H100): after gemv_ax_half took A·x with unaligned rows of A, the auto tests of
# the half files, and the half sweep of seed 15 from 1 again.
#   bash scripts/gpu_s14j.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=3 SHARD_TIMEOUT=200 bash scripts/gpu_shards.sh auto_half tests/test_gpu_gemv_half.py \
    tests/test_gpu_mma_half_split_k.py tests/test_gpu_half.py -k "auto"
timeout 120 python3 benchmarks/random_shapes.py --count 24 --seed 15 --lo 1 --dtypes float16,bfloat16 --out "$OUT" \
    > /dev/null 2>&1
grep -E "geometric" "$OUT"/random_shapes_lo1.md
