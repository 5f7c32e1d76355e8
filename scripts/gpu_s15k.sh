#!/bin/bash
# fifteenth session: the 32 x 32 half tiles (mma_half, mma_half_split_k) in auto's rules: the half GPU
# test files (every config, auto's picks), the rules probe, and the half random sweeps (seeds 14, 15)
#   bash scripts/gpu_s15k.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=4 SHARD_TIMEOUT=400 bash scripts/gpu_shards.sh s15k_tests tests/test_gpu_half.py tests/test_gpu_mma_half_split_k.py \
    tests/test_gpu_gemv_ax_mma.py -k "not torch"
for seed in 15 14; do
    timeout 400 python3 benchmarks/random_shapes.py --count 24 --seed $seed --lo 1 --dtypes float16,bfloat16 \
        --max-gflop 200 --rounds 3 --out "$OUT/sweep$seed" > "$OUT/sweep$seed.txt" 2>&1
    echo "sweep $seed rc $?"; grep -iE "geometric|lowest" "$OUT/sweep$seed.txt" | head -6
done
