#!/usr/bin/env bash
# Fourteenth session (H100): after the GEMV rule for small streams with a long K and the half rule
# for wgmma_tma's 128 x 128 tile: the auto tests they touch and wgmma_tma's tests, then the random
# sweep again (seed 14, as gpu_s14a.sh) and on new shapes (seed 15), every float dtype.
#   bash scripts/gpu_s14d.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=4 SHARD_TIMEOUT=240 bash scripts/gpu_shards.sh rules tests/test_gpu_gemv.py tests/test_gpu_half.py \
    tests/test_gpu_wgmma_tma.py -k "auto or wgmma_tma"
for seed in 14 15; do
    for lo in 1 256; do
        mkdir -p "$OUT/s$seed"
        timeout 200 python3 benchmarks/random_shapes.py --count 24 --seed $seed --lo $lo \
            --dtypes float32,float64,float16,bfloat16 --out "$OUT/s$seed" > "$OUT/s$seed/random_lo$lo.log" 2>&1
    done
done
grep -H -E "geometric" "$OUT"/s*/random_shapes_lo*.md
