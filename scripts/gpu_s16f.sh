#!/bin/bash
# sixteenth session: the random sweeps from 1 (every dtype, seeds 14 and 15) after the staged stores.
#   bash scripts/gpu_s16f.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for seed in 15 14; do
    timeout 280 python3 benchmarks/random_shapes.py --count 24 --seed $seed --lo 1 \
        --dtypes float32,float64,float16,bfloat16 --max-gflop 200 --rounds 3 --out "$OUT/sweep$seed" \
        > "$OUT/sweep$seed.txt" 2>&1
    echo "sweep $seed rc $?"; grep -iE "geometric" "$OUT/sweep$seed.txt"
done
