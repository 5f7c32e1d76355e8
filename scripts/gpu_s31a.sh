#!/bin/bash
# thirty-first session: float16/bfloat16 random sweeps from 1 (seeds 3101, 3102: the first 16-bit
# sweeps since the twenty-fifth session) and 16-bit GEMV rungs below K 128 (probe_half_gemv_k.py).
# Cache (CPU): precompile_auto.py scratch/cubin_s31a 3101,3102 24 1 float16,bfloat16;
#   probe_half_gemv_k.py --dtype {float16,bfloat16} --seed 3101 --compile-only scratch/cubin_s31a
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export CUPY_CACHE_DIR=$PWD/scratch/cubin_s31a
nvidia-smi --query-gpu=name --format=csv,noheader
for dt in float16 bfloat16; do
  timeout 120 python3 scripts/variants_s31/probe_half_gemv_k.py --dtype $dt --seed 3101 --count 20 \
    > "$OUT/s31a_half_gemv_k_${dt}_3101.md" 2>&1; echo "probe $dt rc $?"
done
for seed in 3101 3102; do
  timeout 200 python3 benchmarks/random_shapes.py --count 24 --seed $seed --lo 1 --dtypes float16,bfloat16 \
    --out "$OUT/s31a_sweep_$seed" > "$OUT/s31a_sweep_$seed.log" 2>&1; echo "sweep $seed rc $?"
done
for f in "$OUT"/s31a_half_gemv_k_*.md; do echo "== $f"; grep -E "geometric|failures|failed" "$f"; done
for seed in 3101 3102; do
  echo "== sweep $seed"; grep -E "geometric" "$OUT/s31a_sweep_$seed/random_shapes_lo1.md"
  grep -E "^\| [0-9]" "$OUT/s31a_sweep_$seed/random_shapes_lo1.md" | awk -F'|' '$5+0 < 0.9' | cut -c1-150
done
