#!/usr/bin/env bash
# Fourteenth session (H100): the GEMV rule at K >= 128 (its auto test), float32 mid shapes
# (scripts/variants_s14/probe_mid32.py: wgmma_tma_tf32 from 0.7 of a wave, wgmma's 64 x 64 tile
# where it fills its wave better than 64 x 128), and the random sweep's seed 15 again for float32.
#   bash scripts/gpu_s14e.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=2 SHARD_TIMEOUT=200 bash scripts/gpu_shards.sh gemv_auto tests/test_gpu_gemv.py -k auto
timeout 300 python3 scripts/variants_s14/probe_mid32.py > "$OUT/probe_mid32.txt" 2>&1
grep -A1 "cuBLAS" "$OUT/probe_mid32.txt"
for lo in 1 256; do
    timeout 150 python3 benchmarks/random_shapes.py --count 24 --seed 15 --lo $lo --dtypes float32 --out "$OUT" \
        > "$OUT/random_f32_lo$lo.log" 2>&1
done
grep -h "geometric" "$OUT"/random_shapes_lo*.md
