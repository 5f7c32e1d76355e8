#!/usr/bin/env bash
# Fourteenth session (H100): gemv_ax_half's (and gemv_xb_half's) GPU tests, the half tests auto's
# picks touch, gemv_{xb,ax}_half against mma_half_split_k and cuBLAS, and the random sweep of the
# half dtypes (seeds 14 and 15).
#   bash scripts/gpu_s14g.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=4 SHARD_TIMEOUT=300 bash scripts/gpu_shards.sh half_gemv tests/test_gpu_gemv_half.py \
    tests/test_gpu_mma_half_split_k.py tests/test_gpu_half.py -k "not every_config or gemv"
timeout 200 python3 scripts/variants_s14/probe_half_gemv.py > "$OUT/probe_half_gemv.txt" 2>&1
cat "$OUT/probe_half_gemv.txt"
for seed in 14 15; do
    mkdir -p "$OUT/s$seed"
    for lo in 1 256; do
        timeout 120 python3 benchmarks/random_shapes.py --count 24 --seed $seed --lo $lo --dtypes float16,bfloat16 \
            --out "$OUT/s$seed" > /dev/null 2>&1
    done
done
grep -H "geometric" "$OUT"/s*/random_shapes_lo*.md
