#!/bin/bash
# seventeenth session: the 16-bit picks the small-output rules moved (changed_picks_half.json, old
# against new with cuBLAS), then the random sweeps from 1 (seeds 14-17) on the session's rules.
#   bash scripts/gpu_s17f.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for dt in float16 bfloat16; do
    timeout 120 python3 scripts/variants_s17/probe_picks.py scripts/variants_s17/changed_picks_half.json $dt > "$OUT/picks_half_$dt.txt" 2>&1
    echo "picks $dt rc $?"; tail -1 "$OUT/picks_half_$dt.txt"
done
for seed in 14 15 16 17; do
    timeout 110 python3 benchmarks/random_shapes.py --count 24 --seed $seed --lo 1 \
        --dtypes float32,float64,float16,bfloat16 --max-gflop 200 --rounds 3 --out "$OUT/sweep${seed}_1" \
        > "$OUT/sweep${seed}_1.txt" 2>&1
    echo "sweep seed $seed rc $?"; grep -iE "geometric" "$OUT/sweep${seed}_1.txt"
done
