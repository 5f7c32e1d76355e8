#!/bin/bash
# seventeenth session, final: the random sweeps from 1 (seeds 14-17, every dtype) on the final rules.
#   bash scripts/gpu_s17i.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for seed in 14 15 16 17; do
    timeout 100 python3 benchmarks/random_shapes.py --count 24 --seed $seed --lo 1 \
        --dtypes float32,float64,float16,bfloat16 --max-gflop 200 --rounds 3 --out "$OUT/final$seed" \
        > "$OUT/sweep${seed}_lo1_final.txt" 2>&1
    echo "sweep seed $seed rc $?"; grep -iE "geometric" "$OUT/sweep${seed}_lo1_final.txt"
done
