#!/bin/bash
# sixteenth session, last: the random sweeps from 1 and from 256 (every dtype, seeds 14 and 15) on
# the final kernels and rules.
#   bash scripts/gpu_s16k.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for lo in 1 256; do
    for seed in 15 14; do
        timeout 140 python3 benchmarks/random_shapes.py --count 24 --seed $seed --lo $lo \
            --dtypes float32,float64,float16,bfloat16 --max-gflop 200 --rounds 3 --out "$OUT/sweep${seed}_$lo" \
            > "$OUT/sweep${seed}_$lo.txt" 2>&1
        echo "sweep seed $seed lo $lo rc $?"; grep -iE "geometric" "$OUT/sweep${seed}_$lo.txt"
    done
done
