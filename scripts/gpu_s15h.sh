#!/bin/bash
# fifteenth session, last: mma_half_split_k's GPU tests (its auto test's shapes changed), and the
# half random sweeps (seeds 14 and 15 from 1) on the final gemv_ax_mma (consecutive chunks per warp).
#   bash scripts/gpu_s15h.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=2 SHARD_TIMEOUT=300 bash scripts/gpu_shards.sh s15h_tests tests/test_gpu_mma_half_split_k.py
for seed in 15 14; do
    timeout 400 python3 benchmarks/random_shapes.py --count 24 --seed $seed --lo 1 --dtypes float16,bfloat16 \
        --max-gflop 200 --rounds 3 --out "$OUT/sweep$seed" > "$OUT/sweep$seed.txt" 2>&1
    echo "sweep $seed rc $?"; grep -iE "geometric|lowest" "$OUT/sweep$seed.txt" | head -6
    grep -h "gemv_ax_mma" "$OUT/sweep$seed/random_shapes_lo1.md"
done
