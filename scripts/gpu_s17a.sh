#!/bin/bash
# seventeenth session, first: the random sweeps' lowest rows against every candidate the cost model
# ranks (probe_lows.py), and two fresh random sweeps from 1 (seeds 16, 17) on the shipped kernels.
#   bash scripts/gpu_s17a.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv > "$OUT/gpu.txt" 2>&1
for dt in float64 float16 float32; do
    timeout 200 python3 scripts/variants_s17/probe_lows.py $dt > "$OUT/lows_$dt.txt" 2>&1
    echo "lows $dt rc $?"
done
for seed in 16 17; do
    timeout 140 python3 benchmarks/random_shapes.py --count 24 --seed $seed --lo 1 \
        --dtypes float32,float64,float16,bfloat16 --max-gflop 200 --rounds 3 --out "$OUT/sweep${seed}_1" \
        > "$OUT/sweep${seed}_1.txt" 2>&1
    echo "sweep seed $seed rc $?"; grep -iE "geometric" "$OUT/sweep${seed}_1.txt"
done
