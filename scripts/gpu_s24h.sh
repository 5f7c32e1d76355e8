#!/bin/bash
# twenty-fourth session: float16 and bfloat16 random sweeps (seeds 24 and 25, from 1 and from 256) with auto's
# fallback as shipped (the hand heuristic for 16-bit types) and with the cost model
# (TILED_MATMUL_DISPATCH=model), each in its own process with its own cuBLAS rows.
#   bash scripts/gpu_s24h.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for lo in 256 1; do
    for seed in 24 25; do
        for mode in auto model; do
            start=$(date +%s)
            TILED_MATMUL_DISPATCH=$mode timeout 130 python3 benchmarks/random_shapes.py --count 24 --seed $seed --lo $lo \
                --dtypes float16,bfloat16 --max-gflop 200 --rounds 3 --out "$OUT/half_${mode}_${seed}_$lo" \
                > "$OUT/half_${mode}_${seed}_$lo.txt" 2>&1
            echo "seed $seed lo $lo $mode rc $? $(( $(date +%s) - start )) s: $(grep -i geometric "$OUT/half_${mode}_${seed}_$lo.txt" | tr "\n" " ")"
        done
    done
done
