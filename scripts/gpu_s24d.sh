#!/bin/bash
# twenty-fourth session: random sweeps (seeds 24 and 25, from 1 and from 256) with auto's fallback
# as shipped (the hand heuristic for float32 and the 16-bit types) and with the cost model
# (TILED_MATMUL_DISPATCH=model), each in its own process with its own cuBLAS rows.
#   bash scripts/gpu_s24d.sh [DTYPES] [PREFIX] [TIMEOUT]     (float32 f32 100; gpu_s24h.sh: the 16-bit types)
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
dtypes=${1:-float32}; prefix=${2:-f32}; limit=${3:-100}
for lo in 256 1; do
    for seed in 24 25; do
        for mode in auto model; do
            start=$(date +%s)
            TILED_MATMUL_DISPATCH=$mode timeout $limit python3 benchmarks/random_shapes.py --count 24 --seed $seed --lo $lo \
                --dtypes $dtypes --max-gflop 200 --rounds 3 --out "$OUT/${prefix}_${mode}_${seed}_$lo" \
                > "$OUT/${prefix}_${mode}_${seed}_$lo.txt" 2>&1
            echo "seed $seed lo $lo $mode rc $? $(( $(date +%s) - start )) s: $(grep -i geometric "$OUT/${prefix}_${mode}_${seed}_$lo.txt" | tr "\n" " ")"
        done
    done
done
