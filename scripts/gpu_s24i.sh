#!/bin/bash
# twenty-fourth session, last: float32 random sweeps (seeds 24-26, from 256 and from 1) on the final
# code (dispatch.MODEL_TILES, plain_choice, the batch re-pick), auto against cuBLAS FP32.
#   bash scripts/gpu_s24i.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for lo in 256 1; do
    for seed in 24 25 26; do
        timeout 80 python3 benchmarks/random_shapes.py --count 24 --seed $seed --lo $lo --dtypes float32 \
            --max-gflop 200 --rounds 3 --out "$OUT/f32_final_${seed}_$lo" > "$OUT/f32_final_${seed}_$lo.txt" 2>&1
        echo "seed $seed lo $lo rc $?: $(grep -i geometric "$OUT/f32_final_${seed}_$lo.txt")"
    done
done
