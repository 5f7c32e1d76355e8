#!/bin/bash
# twenty-eighth session: short-K float32 outputs on register_blocked against warp_tiled and the
# model's ieee configs (seed 2809); random float64 shapes after costmodel.groups_fit (seeds 28, 29).
# Cache (CPU): probe_short_k.py --compile-only scratch/cubin_s28h (float64 kernels compile here)
#   bash scripts/gpu_s28h.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s28h ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s28h; fi
timeout 150 python3 scripts/variants_s28/probe_short_k.py --seed 2809 --count 10 > "$OUT/s28h_short_k_2809.md" 2>&1
echo "== short k rc $?"; grep "^#" "$OUT/s28h_short_k_2809.md" | head -5; sed -n '/geometric/,$p' "$OUT/s28h_short_k_2809.md"
for seed in 28 29; do
  timeout 200 python3 benchmarks/random_shapes.py --count 40 --seed $seed --lo 1 --dtypes float64 --max-gflop 200 --rounds 3 \
    --out "$OUT/s28h_f64_seed$seed" > "$OUT/s28h_f64_seed$seed.log" 2>&1
  echo "== f64 seed $seed rc $?"; tail -2 "$OUT/s28h_f64_seed$seed.log"
done
