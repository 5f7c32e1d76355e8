#!/bin/bash
# fifteenth session: warp_tiled's 32 x 32 tile (float32's small outputs with a short K, auto's params
# outside the search space): its GPU test (tests/test_gpu_core.py's small-tile test) and the
# float32 random sweeps from 1. Written in the fifteenth session, not yet run (device time spent).
#   bash scripts/gpu_s15m.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=1 SHARD_TIMEOUT=300 bash scripts/gpu_shards.sh s15m_tests tests/test_gpu_core.py -k "small_tile or ragged_shapes and warp_tiled"
for seed in 15 14; do
    timeout 300 python3 benchmarks/random_shapes.py --count 24 --seed $seed --lo 1 --dtypes float32 \
        --max-gflop 200 --rounds 3 --out "$OUT/sweep$seed" > "$OUT/sweep$seed.txt" 2>&1
    echo "sweep $seed rc $?"; grep -iE "geometric|lowest" "$OUT/sweep$seed.txt" | head -3
    grep -h "bm=32 bn=32" "$OUT/sweep$seed/random_shapes_lo1.md"
done
