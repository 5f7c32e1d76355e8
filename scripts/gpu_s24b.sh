#!/bin/bash
# twenty-fourth session: random sweeps from 1 and from 256 (every dtype, a new seed, 24) on the
# code as it stands: the first since the sixteenth session.
#   bash scripts/gpu_s24b.sh [SEED]
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
seed=${1:-24}
for lo in 1 256; do
    start=$(date +%s)
    timeout 270 python3 benchmarks/random_shapes.py --count 24 --seed $seed --lo $lo \
        --dtypes float32,float64,float16,bfloat16 --max-gflop 200 --rounds 3 --out "$OUT/sweep${seed}_$lo" \
        > "$OUT/sweep${seed}_$lo.txt" 2>&1
    echo "sweep seed $seed lo $lo rc $? in $(( $(date +%s) - start )) s"; grep -iE "geometric" "$OUT/sweep${seed}_$lo.txt"
done
